/*
 * Ray tracing and mesh shading: the instructions of the ray generation,
 * hit, miss, intersection and callable stages and of mesh and task shaders
 * (intrinsics.def says what the IR makes of them).
 *
 *	OpTraceRayKHR %as %flags %mask %off %stride %miss %org %tmin %dir %tmax %payload
 *	→ @trace_ray %as, vec4(flags, mask, off, stride), %miss, vec4(org, tmin),
 *	             vec4(dir, tmax) base=<the payload's offset in scratch memory>
 *
 * An acceleration structure is a 64-bit address: a descriptor is a storage
 * buffer holding it; OpConvertUToAccelerationStructureKHR takes it as is.
 * Outgoing payloads and callable data are placed in scratch memory, each at
 * its own offset; the NV forms name them by Location.  Ray queries are not
 * translated.
 */
#include "compiler/spirv/spirv_private.h"

uint32_t spv_scratch_offset(struct spv *r, struct spv_var *var)
{
	if (!var->placed) {
		spv_type_natural(r, var->type);
		uint32_t a = var->type->nat_align;
		var->offset = (r->scratch_top + a - 1) / a * a;
		r->scratch_top = var->offset + var->type->nat_size;
		if (r->scratch_top > r->s->info.scratch_size)
			r->s->info.scratch_size = r->scratch_top;
		var->placed = true;
	}
	return var->offset;
}

struct ssa_def *spv_load_accel(struct spv *r, struct spv_ptr *p)
{
	struct spv_var *var = p->var;
	struct spv_type *t = var->type;
	uint64_t count = 1;
	for (struct spv_type *x = t; x->kind == T_ARRAY || x->kind == T_RUNTIME_ARRAY; x = x->elem)
		count *= x->kind == T_ARRAY ? x->length : SPV_RUNTIME_DESCRIPTORS;
	if (!var->buf) {
		var->buf = shader_add_ssbo(r->s);
		var->buf->set = spv_deco_arg(r, var->id, -1, SpvDecorationDescriptorSet, 0);
		var->buf->binding = spv_deco_arg(r, var->id, -1, SpvDecorationBinding, 0);
		var->buf->size = 8;
		var->buf->access = ACCESS_NON_WRITEABLE;
		var->buf->array_size = t->kind == T_ACCEL ? 0 : (unsigned)(count > 65536 ? 65536 : count);
		var->buf->name = var->name ? arena_strdup(&r->s->arena, var->name) : NULL;
	}
	struct ssa_def *idx = NULL;
	uint32_t c = 0;
	for (unsigned k = 0; k < p->n; k++) {
		struct spv_index i = p->path[k];
		uint32_t len = t->kind == T_ARRAY ? t->length : 1;
		if (t->kind != T_ARRAY && t->kind != T_RUNTIME_ARRAY)
			spv_fail(r, "an index into %s", spv_type_str(r, t));
		c = c * len + i.c;
		if (idx || i.d) {
			struct ssa_def *scaled = idx ? b_imul(&r->b, idx, spv_imm_u32(r, len)) : NULL;
			idx = scaled && i.d ? b_iadd(&r->b, scaled, i.d) : scaled ? scaled : i.d;
		}
		t = t->elem;
	}
	if (t->kind != T_ACCEL)
		spv_unsupported(r, "a pointer to an array of acceleration structures");
	if (!idx && c >= decl_num_slots(var->buf->array_size))
		spv_unsupported(r, "descriptor %u of an array of %u", c,
				decl_num_slots(var->buf->array_size));
	struct ssa_def *slot = spv_imm_u32(r, var->buf->slot + c);
	if (idx)
		slot = b_iadd(&r->b, idx, slot);
	spv_budget(r, 1);
	return b_intr(&r->b, load_ssbo, 1, 64, (slot, spv_imm_u32(r, 0)),
		      .access = ACCESS_NON_WRITEABLE, .align_mul = 8, .align_offset = 0);
}

static void need_rt(struct spv *r, const char *what)
{
	if (r->stage < STAGE_RAYGEN)
		spv_fail(r, "%s in a %s shader", what, stage_name(r->stage));
}

static void need_mesh(struct spv *r, enum shader_stage s, const char *what)
{
	if (r->stage != s)
		spv_fail(r, "%s in a %s shader", what, stage_name(r->stage));
}

/* The variable of an NV payload or callable data: the one at Location `loc`. */
static struct spv_var *by_location(struct spv *r, uint32_t loc_id, SpvStorageClass sc)
{
	uint32_t loc;
	if (!spv_id_const_u32(r, loc_id, &loc))
		spv_fail(r, "the payload location is not a constant");
	for (unsigned i = 0; i < r->num_vars; i++) {
		struct spv_var *var = r->vars[i];
		if (var->sc == sc && spv_deco_arg(r, var->id, -1, SpvDecorationLocation, ~0u) == loc)
			return var;
	}
	return NULL;	/* no payload at all */
}

static uint32_t nv_payload(struct spv *r, uint32_t loc_id, SpvStorageClass sc)
{
	struct spv_var *var = by_location(r, loc_id, sc);
	return var ? spv_scratch_offset(r, var) : 0;
}

/*
 * The scratch offset of an outgoing payload given by pointer.  A payload
 * elsewhere (the incoming one passed on, a member of a variable) is copied
 * to scratch of its own before the call (*copy set) and back after it.
 */
static uint32_t payload_of(struct spv *r, uint32_t ptr_id, struct spv_ptr **copy,
			   struct spv_ptr **temp)
{
	struct spv_ptr *p = spv_get_ptr(r, ptr_id);
	*copy = *temp = NULL;
	if (p->var && p->var->mode == VM_SCRATCH && !p->n)
		return spv_scratch_offset(r, p->var);
	struct spv_var *t = spv_temp_var(r, p->type, "payload");
	t->mode = VM_SCRATCH;
	t->sc = SpvStorageClassRayPayloadKHR;
	*copy = p;
	*temp = spv_var_ptr(r, t);
	spv_store(r, *temp, spv_load(r, p, 0), 0);
	return spv_scratch_offset(r, t);
}

static void payload_back(struct spv *r, struct spv_ptr *copy, struct spv_ptr *temp)
{
	if (copy)
		spv_store(r, copy, spv_load(r, temp, 0), 0);
}

static struct ssa_def *vec4_of(struct spv *r, struct ssa_def *xyz, struct ssa_def *w)
{
	struct builder *b = &r->b;
	if (xyz->num_components != 3 || w->num_components != 1 || xyz->bit_size != 32 ||
	    w->bit_size != 32)
		spv_fail(r, "a ray origin or direction that is not a float vec3 and a float");
	return b_vec4(b, b_channel(b, xyz, 0), b_channel(b, xyz, 1), b_channel(b, xyz, 2), w);
}

static void trace_ray(struct spv *r, bool nv)
{
	struct builder *b = &r->b;
	need_rt(r, "a ray trace");
	struct ssa_def *as = spv_get_def(r, spv_word(r, 1));
	struct ssa_def *params = b_vec4(b, spv_get_index32(r, spv_word(r, 2)),
					spv_get_index32(r, spv_word(r, 3)),
					spv_get_index32(r, spv_word(r, 4)),
					spv_get_index32(r, spv_word(r, 5)));
	struct ssa_def *miss = spv_get_index32(r, spv_word(r, 6));
	struct ssa_def *org = vec4_of(r, spv_get_def(r, spv_word(r, 7)), spv_get_def(r, spv_word(r, 8)));
	struct ssa_def *dir = vec4_of(r, spv_get_def(r, spv_word(r, 9)), spv_get_def(r, spv_word(r, 10)));
	struct spv_ptr *copy = NULL, *temp = NULL;
	uint32_t payload = nv ? nv_payload(r, spv_word(r, 11), SpvStorageClassRayPayloadKHR)
			   : payload_of(r, spv_word(r, 11), &copy, &temp);
	if (as->bit_size != 64 || org->bit_size != 32 || dir->bit_size != 32)
		spv_fail(r, "operands of the wrong sizes");
	spv_budget(r, 1);
	b_intr(b, trace_ray, 0, 0, (as, params, miss, org, dir), .base = (int32_t)payload);
	payload_back(r, copy, temp);
}

static void execute_callable(struct spv *r, bool nv)
{
	need_rt(r, "a callable call");
	struct ssa_def *sbt = spv_get_index32(r, spv_word(r, 1));
	struct spv_ptr *copy = NULL, *temp = NULL;
	uint32_t data = nv ? nv_payload(r, spv_word(r, 2), SpvStorageClassCallableDataKHR)
			: payload_of(r, spv_word(r, 2), &copy, &temp);
	spv_budget(r, 1);
	b_intr(&r->b, execute_callable, 0, 0, (sbt), .base = (int32_t)data);
	payload_back(r, copy, temp);
}

/* ---- ray queries ---- */

static int32_t query_of(struct spv *r, uint32_t id)
{
	struct spv_ptr *p = spv_get_ptr(r, id);
	if (!p->var || p->var->mode != VM_RAYQUERY || p->n)
		spv_unsupported(r, "a ray query that is not a whole rayQueryEXT variable");
	if (p->var->rq_index < 0)
		p->var->rq_index = (int)r->num_ray_queries++;
	return p->var->rq_index;
}

static bool committed(struct spv *r, unsigned i)
{
	uint32_t v;
	if (!spv_id_const_u32(r, spv_word(r, i), &v))
		spv_fail(r, "the intersection operand is not a constant");
	return v != 0;
}

static struct ssa_def *rq_value(struct spv *r, int32_t q, enum ray_query_value v, bool commit,
				unsigned column, struct spv_type *t)
{
	unsigned n = spv_type_components(t), bits = spv_type_is_bool(t) ? 1 : 32;
	return b_intr(&r->b, rq_load, n, bits, (spv_imm_u32(r, column)), .base = q,
		      .component = (int32_t)(v * 2 + commit));
}

static bool ray_query(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	static const enum ray_query_value values[] = {	/* from OpRayQueryGetRayTMinKHR on */
		RQ_t_min, RQ_ray_flags, RQ_t, RQ_instance_custom_index, RQ_instance_id,
		RQ_sbt_offset, RQ_geometry_index, RQ_primitive_index, RQ_barycentrics,
		RQ_front_face, RQ_candidate_aabb_opaque, RQ_object_direction, RQ_object_origin,
		RQ_world_direction, RQ_world_origin, RQ_object_to_world, RQ_world_to_object,
	};
	switch (op) {
	case SpvOpRayQueryInitializeKHR: {
		int32_t q = query_of(r, spv_word(r, 1));
		struct ssa_def *as = spv_get_def(r, spv_word(r, 2));
		struct ssa_def *params = b_vec4(b, spv_get_index32(r, spv_word(r, 3)),
						spv_get_index32(r, spv_word(r, 4)), spv_imm_u32(r, 0),
						spv_imm_u32(r, 0));
		struct ssa_def *org = vec4_of(r, spv_get_def(r, spv_word(r, 5)),
					      spv_get_def(r, spv_word(r, 6)));
		struct ssa_def *dir = vec4_of(r, spv_get_def(r, spv_word(r, 7)),
					      spv_get_def(r, spv_word(r, 8)));
		if (as->bit_size != 64)
			spv_fail(r, "the acceleration structure is not a 64-bit address");
		b_intr(b, rq_initialize, 0, 0, (as, params, org, dir), .base = q);
		return true;
	}
	case SpvOpRayQueryTerminateKHR:
		b_intr(b, rq_terminate, 0, 0, (NULL), .base = query_of(r, spv_word(r, 1)));
		return true;
	case SpvOpRayQueryGenerateIntersectionKHR:
		b_intr(b, rq_generate_intersection, 0, 0, (spv_get_def(r, spv_word(r, 2))),
		       .base = query_of(r, spv_word(r, 1)));
		return true;
	case SpvOpRayQueryConfirmIntersectionKHR:
		b_intr(b, rq_confirm_intersection, 0, 0, (NULL), .base = query_of(r, spv_word(r, 1)));
		return true;
	case SpvOpRayQueryProceedKHR:
		spv_set_def(r, spv_result_id(r), b_intr(b, rq_proceed, 0, 0, (NULL),
							 .base = query_of(r, spv_word(r, 3))));
		return true;
	case SpvOpRayQueryGetIntersectionTypeKHR:
		spv_set_def(r, spv_result_id(r),
			    rq_value(r, query_of(r, spv_word(r, 3)), RQ_intersection_type,
				     committed(r, 4), 0, spv_result_type(r)));
		return true;
	default:
		break;
	}
	if (op < SpvOpRayQueryGetRayTMinKHR || op > SpvOpRayQueryGetIntersectionWorldToObjectKHR)
		return false;
	enum ray_query_value v = values[op - SpvOpRayQueryGetRayTMinKHR];
	struct spv_type *t = spv_result_type(r);
	int32_t q = query_of(r, spv_word(r, 3));
	bool has_intersection = v != RQ_t_min && v != RQ_ray_flags && v != RQ_world_direction &&
				v != RQ_world_origin && v != RQ_candidate_aabb_opaque;
	bool commit = has_intersection && committed(r, 4);
	if (v != RQ_object_to_world && v != RQ_world_to_object) {
		spv_set_def(r, spv_result_id(r), rq_value(r, q, v, commit, 0, t));
		return true;
	}
	if (t->kind != T_MATRIX || t->length != 4 || t->elem->length != 3)
		spv_fail(r, "a ray query matrix of %s", spv_type_str(r, t));
	struct spv_val *m = spv_val_new(r, t);
	for (unsigned c = 0; c < 4; c++)
		m->elems[c] = spv_val_def(r, t->elem, rq_value(r, q, v, commit, c, t->elem));
	spv_set_val(r, spv_result_id(r), m);
	return true;
}

bool spv_stage_instr(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	if (ray_query(r, op))
		return true;
	switch (op) {
	case SpvOpTraceRayKHR: trace_ray(r, false); return true;
	case SpvOpTraceNV: trace_ray(r, true); return true;
	case SpvOpExecuteCallableKHR: execute_callable(r, false); return true;
	case SpvOpExecuteCallableNV: execute_callable(r, true); return true;
	case SpvOpReportIntersectionKHR:
		need_rt(r, "a reported intersection");
		spv_set_def(r, spv_result_id(r),
			    b_intr(b, report_ray_intersection, 0, 0, (spv_get_def(r, spv_word(r, 3)),
								    spv_get_index32(r, spv_word(r, 4)))));
		return true;
	case SpvOpIgnoreIntersectionNV: case SpvOpIgnoreIntersectionKHR:
		need_rt(r, "OpIgnoreIntersection");
		b_intr(b, ignore_ray_intersection, 0, 0, (NULL));
		return true;
	case SpvOpTerminateRayNV: case SpvOpTerminateRayKHR:
		need_rt(r, "OpTerminateRay");
		b_intr(b, terminate_ray, 0, 0, (NULL));
		return true;
	case SpvOpConvertUToAccelerationStructureKHR: {
		struct ssa_def *a = spv_get_def(r, spv_word(r, 3));
		if (a->num_components == 2)
			a = b_pack_64_2x32(b, a);
		spv_set_def(r, spv_result_id(r), a);
		return true;
	}
	case SpvOpSetMeshOutputsEXT:
		need_mesh(r, STAGE_MESH, "OpSetMeshOutputsEXT");
		b_intr(b, set_vertex_and_primitive_count, 0, 0, (spv_get_index32(r, spv_word(r, 1)),
								  spv_get_index32(r, spv_word(r, 2))));
		return true;
	case SpvOpEmitMeshTasksEXT: {
		need_mesh(r, STAGE_TASK, "OpEmitMeshTasksEXT");
		struct ssa_def *n = b_vec3(b, spv_get_index32(r, spv_word(r, 1)),
					   spv_get_index32(r, spv_word(r, 2)),
					   spv_get_index32(r, spv_word(r, 3)));
		b_intr(b, launch_mesh_workgroups, 0, 0, (n));
		return true;
	}
	}
	return false;
}
