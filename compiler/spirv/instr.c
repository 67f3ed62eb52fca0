/*
 * Values and the instruction dispatcher: every instruction of a function
 * body that is not control flow comes through spv_instr(), which handles
 * composites itself and hands the rest to alu.c, memory.c, image.c,
 * misc.c and glsl450.c.  An instruction none of them knows is an error
 * naming it: "unsupported: OpTypeCooperativeMatrixKHR".
 *
 * Value trees: a composite's leaves are IR values; extracting a vector's
 * component is a mov with a swizzle; constants are load_consts at the top
 * of the shader (so they dominate every use, whatever the control flow).
 */
#include <string.h>

#include "compiler/spirv/spirv_private.h"

/* ---- values ---- */

struct spv_val *spv_val_new(struct spv *r, struct spv_type *t)
{
	struct spv_val *v = arena_new(&r->arena, struct spv_val);
	v->type = t;
	if (spv_type_is_composite(t)) {
		if (t->length > SPV_MAX_AGGREGATE)
			spv_unsupported(r, "a value of %s", spv_type_str(r, t));
		v->elems = arena_array(&r->arena, struct spv_val *, t->length);
	}
	return v;
}

struct spv_val *spv_val_def(struct spv *r, struct spv_type *t, struct ssa_def *def)
{
	struct spv_val *v = spv_val_new(r, t);
	if (!spv_type_is_vector_or_scalar(t) && t->kind != T_POINTER && t->kind != T_ACCEL)
		spv_fail(r, "%s is not a scalar or vector", spv_type_str(r, t));
	if (def->num_components != spv_type_components(t) ||
	    def->bit_size != (t->kind == T_POINTER ? 64 : t->bit_size))
		spv_fail(r, "internal: a %ux%u value for %s", def->bit_size, def->num_components,
			 spv_type_str(r, t));
	v->def = def;
	return v;
}

void spv_budget(struct spv *r, unsigned n)
{
	r->emitted += n;
	if (r->emitted > SPV_MAX_INSTRS || r->s->fn->ssa_alloc > SPV_MAX_INSTRS)
		spv_unsupported(r, "the shader grows past %u IR instructions", SPV_MAX_INSTRS);
}

/* The cursor for constants: after the last one, at the top of the shader. */
struct cursor spv_top_cursor(struct spv *r)
{
	if (r->last_const && r->last_const->block)
		return cursor_after_instr(r->last_const);
	return cursor_before_block(function_start_block(r->s->fn));
}

/* One load_const per value, at the top of the shader. */
struct ssa_def *spv_imm(struct spv *r, unsigned comps, unsigned bits, const uint64_t *v)
{
	uint64_t key[6] = { comps, bits };
	for (unsigned c = 0; c < comps && c < 4; c++)
		key[2 + c] = bits >= 64 ? v[c] : v[c] & (((uint64_t)1 << bits) - 1);
	struct strmap_entry *e = strmap_put(&r->consts, key, (2 + comps) * sizeof(*key), NULL);
	if (e->value && ((struct ssa_def *)e->value)->parent->block)
		return e->value;
	struct builder top;
	builder_init(&top, r->s, spv_top_cursor(r));
	struct ssa_def *def = b_const(&top, comps, bits, v);
	r->last_const = def->parent;
	e->value = def;
	return def;
}

struct ssa_def *spv_imm_u32(struct spv *r, uint32_t v)
{
	uint64_t x = v;
	return spv_imm(r, 1, 32, &x);
}

static struct ssa_def *undef_def(struct spv *r, unsigned comps, unsigned bits)
{
	struct builder top;
	builder_init(&top, r->s, spv_top_cursor(r));
	struct ssa_def *def = b_undef(&top, comps, bits);
	r->last_const = def->parent;
	return def;
}

struct spv_val *spv_val_undef(struct spv *r, struct spv_type *t)
{
	struct spv_val *v = spv_val_new(r, t);
	if (spv_type_is_vector_or_scalar(t)) {
		v->def = undef_def(r, spv_type_components(t), t->bit_size);
		return v;
	}
	if (t->kind == T_POINTER || t->kind == T_ACCEL) {
		v->def = undef_def(r, 1, 64);
		return v;
	}
	if (!spv_type_is_composite(t))
		spv_unsupported(r, "an undefined %s", spv_type_str(r, t));
	struct spv_val *shared = NULL;
	for (unsigned i = 0; i < t->length; i++) {
		struct spv_type *ct = spv_type_child(r, t, i);
		if (t->kind == T_STRUCT || !shared)
			shared = spv_val_undef(r, ct);
		v->elems[i] = shared;
	}
	return v;
}

struct spv_val *spv_get_val(struct spv *r, uint32_t id)
{
	struct spv_id *x = spv_id(r, id);
	switch (x->kind) {
	case ID_CONST:
		return spv_const_val(r, x->c);
	case ID_VALUE:
		return x->val;
	case ID_PTR:
		if (x->type && x->type->kind == T_POINTER &&
		    x->type->storage == SpvStorageClassPhysicalStorageBuffer)
			return spv_val_def(r, x->type, spv_ptr_address(r, x->ptr));
		spv_unsupported(r, "%%%u, a pointer to %s memory, used as a value", id,
				spv_enum_name(SPV_KIND_StorageClass, x->ptr->var ? x->ptr->var->sc : 0));
	case ID_NONE:
		if (x->in_function)
			spv_fail(r, "%%%u is used before its definition", id);
		spv_fail(r, "%%%u is not defined", id);
	default:
		spv_fail(r, "%%%u is not a value", id);
	}
}

struct ssa_def *spv_get_def(struct spv *r, uint32_t id)
{
	struct spv_val *v = spv_get_val(r, id);
	if (!v->def)
		spv_fail(r, "%%%u is %s, not a scalar or vector", id, spv_type_str(r, v->type));
	return v->def;
}

struct ssa_def *spv_get_index32(struct spv *r, uint32_t id)
{
	struct spv_val *v = spv_get_val(r, id);
	if (v->type->kind != T_INT || !v->def)
		spv_fail(r, "the index %%%u is not an integer scalar", id);
	if (v->def->bit_size == 32)
		return v->def;
	return v->type->is_signed ? b_i2i32(&r->b, v->def) : b_u2u32(&r->b, v->def);
}

void spv_set_val(struct spv *r, uint32_t id, struct spv_val *v)
{
	struct spv_id *x = spv_id(r, id);
	x->kind = ID_VALUE;
	x->val = v;
}

void spv_set_def(struct spv *r, uint32_t id, struct ssa_def *def)
{
	struct spv_id *x = spv_id(r, id);
	spv_set_val(r, id, spv_val_def(r, x->type, def));
}

struct spv_type *spv_result_type(struct spv *r)
{
	return spv_get_type(r, spv_word(r, 1));
}

uint32_t spv_result_id(struct spv *r)
{
	return spv_word(r, 2);
}

struct spv_val *spv_val_bcsel(struct spv *r, struct ssa_def *cond, struct spv_val *a,
			      struct spv_val *b)
{
	if (a->def) {
		if (!b->def)
			spv_fail(r, "selecting between values of different types");
		return spv_val_def(r, a->type, b_bcsel(&r->b, cond, a->def, b->def));
	}
	struct spv_val *v = spv_val_new(r, a->type);
	if (!a->elems || !b->elems)
		spv_fail(r, "selecting between values of different types");
	for (unsigned i = 0; i < a->type->length; i++)
		v->elems[i] = spv_val_bcsel(r, cond, a->elems[i], b->elems[i]);
	return v;
}

/* ---- composites ---- */

/* One vecN (or mov) reading component chans[i] of defs[i]. */
static struct ssa_def *vec_channels(struct spv *r, struct ssa_def **defs, const unsigned *chans,
				    unsigned n)
{
	bool same = true;
	for (unsigned i = 1; i < n; i++)
		same &= defs[i] == defs[0];
	if (same) {
		bool identity = defs[0]->num_components == n;
		for (unsigned i = 0; i < n; i++)
			identity &= chans[i] == i;
		return identity ? defs[0] : b_swizzle(&r->b, defs[0], chans, n);
	}
	static const enum alu_op vecs[] = { OP_mov, OP_mov, OP_vec2, OP_vec3, OP_vec4 };
	struct alu_instr *alu = alu_instr_create(r->s, vecs[n]);
	for (unsigned i = 0; i < n; i++) {
		src_init(&alu->src[i].src, &alu->instr, defs[i]);
		alu->src[i].swizzle[0] = (uint8_t)chans[i];
	}
	ssa_def_init(&alu->instr, &alu->def, n, defs[0]->bit_size);
	b_insert(&r->b, &alu->instr);
	return &alu->def;
}

static void composite_construct(struct spv *r)
{
	struct spv_type *t = spv_result_type(r);
	unsigned n = spv_nwords(r) - 3;
	if (t->kind == T_VECTOR) {
		struct ssa_def *defs[4];
		unsigned chans[4], k = 0;
		for (unsigned i = 0; i < n; i++) {
			struct ssa_def *d = spv_get_def(r, spv_word(r, 3 + i));
			if (d->bit_size != t->bit_size)
				spv_fail(r, "constituent %u is %u-bit", i, d->bit_size);
			for (unsigned c = 0; c < d->num_components; c++) {
				if (k == 4 || k == t->length)
					spv_fail(r, "too many components for %s", spv_type_str(r, t));
				defs[k] = d;
				chans[k++] = c;
			}
		}
		if (k != t->length)
			spv_fail(r, "%u components for %s", k, spv_type_str(r, t));
		spv_set_def(r, spv_result_id(r), vec_channels(r, defs, chans, k));
		return;
	}
	if (!spv_type_is_composite(t))
		spv_fail(r, "a composite of %s", spv_type_str(r, t));
	if (n != t->length)
		spv_fail(r, "%u constituents for %s", n, spv_type_str(r, t));
	struct spv_val *v = spv_val_new(r, t);
	for (unsigned i = 0; i < n; i++)
		v->elems[i] = spv_get_val(r, spv_word(r, 3 + i));
	spv_set_val(r, spv_result_id(r), v);
}

static struct spv_val *channel_val(struct spv *r, struct spv_val *v, uint32_t c)
{
	if (c >= v->def->num_components)
		spv_fail(r, "component %u of a %u-component vector", c, v->def->num_components);
	return spv_val_def(r, v->type->elem, b_channel(&r->b, v->def, c));
}

static struct spv_val *extract(struct spv *r, struct spv_val *v, unsigned at)
{
	for (unsigned i = at; i < spv_nwords(r); i++) {
		uint32_t k = spv_word(r, i);
		if (v->type->kind == T_VECTOR) {
			if (i + 1 != spv_nwords(r))
				spv_fail(r, "an index into a scalar");
			return channel_val(r, v, k);
		}
		if (!v->elems || k >= v->type->length)
			spv_fail(r, "index %u is out of range for %s", k, spv_type_str(r, v->type));
		v = v->elems[k];
	}
	return v;
}

static struct spv_val *insert(struct spv *r, struct spv_val *v, unsigned at, struct spv_val *obj)
{
	if (at == spv_nwords(r))
		return obj;
	uint32_t k = spv_word(r, at);
	if (v->type->kind == T_VECTOR) {
		if (at + 1 != spv_nwords(r) || k >= v->type->length || !obj->def)
			spv_fail(r, "bad index %u into a vector", k);
		struct ssa_def *defs[4];
		unsigned chans[4];
		for (unsigned c = 0; c < v->type->length; c++) {
			defs[c] = c == k ? obj->def : v->def;
			chans[c] = c == k ? 0 : c;
		}
		return spv_val_def(r, v->type, vec_channels(r, defs, chans, v->type->length));
	}
	if (!v->elems || k >= v->type->length)
		spv_fail(r, "index %u is out of range for %s", k, spv_type_str(r, v->type));
	struct spv_val *copy = spv_val_new(r, v->type);
	memcpy(copy->elems, v->elems, v->type->length * sizeof(*v->elems));
	copy->elems[k] = insert(r, v->elems[k], at + 1, obj);
	return copy;
}

static void vector_shuffle(struct spv *r)
{
	struct spv_type *t = spv_result_type(r);
	struct ssa_def *a = spv_get_def(r, spv_word(r, 3)), *b = spv_get_def(r, spv_word(r, 4));
	unsigned n = spv_nwords(r) - 5;
	struct ssa_def *defs[4];
	unsigned chans[4];
	if (n != spv_type_components(t) || n > 4)
		spv_fail(r, "%u components for %s", n, spv_type_str(r, t));
	for (unsigned i = 0; i < n; i++) {
		uint32_t k = spv_word(r, 5 + i);
		if (k == 0xffffffff) {
			defs[i] = a;
			chans[i] = 0;
		} else if (k < a->num_components) {
			defs[i] = a;
			chans[i] = k;
		} else if (k - a->num_components < b->num_components) {
			defs[i] = b;
			chans[i] = k - a->num_components;
		} else {
			spv_fail(r, "component %u is out of range", k);
		}
	}
	spv_set_def(r, spv_result_id(r), vec_channels(r, defs, chans, n));
}

/* v[i] with a dynamic i: a chain of selects (SPIR-V leaves i out of range
 * undefined; we give component 0). */
static struct ssa_def *extract_dynamic(struct spv *r, struct ssa_def *v, struct ssa_def *idx)
{
	struct ssa_def *res = b_channel(&r->b, v, 0);
	for (unsigned c = 1; c < v->num_components; c++) {
		struct ssa_def *eq = b_ieq(&r->b, idx, spv_imm_u32(r, c));
		res = b_bcsel(&r->b, eq, b_channel(&r->b, v, c), res);
	}
	return res;
}

static struct ssa_def *insert_dynamic(struct spv *r, struct ssa_def *v, struct ssa_def *x,
				      struct ssa_def *idx)
{
	struct ssa_def *defs[4];
	unsigned chans[4] = { 0 };
	for (unsigned c = 0; c < v->num_components; c++) {
		struct ssa_def *eq = b_ieq(&r->b, idx, spv_imm_u32(r, c));
		defs[c] = b_bcsel(&r->b, eq, x, b_channel(&r->b, v, c));
	}
	return vec_channels(r, defs, chans, v->num_components);
}

static void copy_object(struct spv *r)
{
	uint32_t id = spv_result_id(r), src = spv_word(r, 3);
	struct spv_id *x = spv_id(r, src), *y = spv_id(r, id);
	switch (x->kind) {
	case ID_PTR: y->kind = ID_PTR; y->ptr = x->ptr; return;
	case ID_HANDLE: y->kind = ID_HANDLE; y->handle = x->handle; return;
	default: break;
	}
	struct spv_val *v = spv_get_val(r, src);
	if (spv_opcode(r, r->cur) == SpvOpCopyLogical) {
		struct spv_val *copy = arena_new(&r->arena, struct spv_val);
		*copy = *v;
		copy->type = spv_result_type(r);
		v = copy;
	}
	spv_set_val(r, id, v);
}

static bool composite_instr(struct spv *r, uint32_t op)
{
	uint32_t id;
	switch (op) {
	case SpvOpCompositeConstruct:
		composite_construct(r);
		return true;
	case SpvOpCompositeExtract:
		spv_set_val(r, spv_result_id(r), extract(r, spv_get_val(r, spv_word(r, 3)), 4));
		return true;
	case SpvOpCompositeInsert:
		id = spv_result_id(r);
		spv_set_val(r, id, insert(r, spv_get_val(r, spv_word(r, 4)), 5,
					  spv_get_val(r, spv_word(r, 3))));
		return true;
	case SpvOpVectorShuffle:
		vector_shuffle(r);
		return true;
	case SpvOpVectorExtractDynamic: {
		struct ssa_def *v = spv_get_def(r, spv_word(r, 3));
		uint32_t k;
		id = spv_result_id(r);
		if (spv_id_const_u32(r, spv_word(r, 4), &k))
			spv_set_def(r, id, k < v->num_components ? b_channel(&r->b, v, k)
				    : b_channel(&r->b, v, 0));
		else
			spv_set_def(r, id, extract_dynamic(r, v, spv_get_index32(r, spv_word(r, 4))));
		return true;
	}
	case SpvOpVectorInsertDynamic:
		id = spv_result_id(r);
		spv_set_def(r, id, insert_dynamic(r, spv_get_def(r, spv_word(r, 3)),
						  spv_get_def(r, spv_word(r, 4)),
						  spv_get_index32(r, spv_word(r, 5))));
		return true;
	case SpvOpCopyObject: case SpvOpCopyLogical:
		copy_object(r);
		return true;
	}
	return false;
}

/* ---- the dispatcher ---- */

static void ext_inst(struct spv *r)
{
	struct spv_id *set = spv_id(r, spv_word(r, 3));
	if (set->kind != ID_EXTSET)
		spv_fail(r, "%%%u is not an instruction set", spv_word(r, 3));
	switch (set->extset) {
	case EXTSET_GLSL450:
		spv_glsl450(r, spv_word(r, 4));
		return;
	case EXTSET_AMD_MINMAX: case EXTSET_AMD_GCN: case EXTSET_AMD_BALLOT:
		spv_amd(r, set->extset, spv_word(r, 4));
		return;
	case EXTSET_NONSEMANTIC: case EXTSET_DEBUG:
		spv_id(r, spv_result_id(r))->kind = ID_IGNORED;
		return;
	default:
		spv_unsupported(r, "instruction %u of %s", spv_word(r, 4),
				set->name ? set->name : "an unknown instruction set");
	}
}

/* The instruction's result is decorated RelaxedPrecision: the ALU
 * instructions that compute it are mediump (Mesa's spirv_to_nir computes
 * them at 16 bits where the driver asks, mediump_16bit_alu). */
static bool relaxed(struct spv *r)
{
	const struct spv_op_info *info = spv_op_info(spv_opcode(r, r->cur));
	return info && info->has_result && info->has_type &&
	       spv_has_deco(r, spv_result_id(r), -1, SpvDecorationRelaxedPrecision);
}

void spv_instr(struct spv *r)
{
	uint32_t op = spv_opcode(r, r->cur);
	char buf[24];
	spv_budget(r, 1);
	switch (op) {
	case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpLifetimeStart:
	case SpvOpLifetimeStop: case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpPhi:
	case SpvOpAssumeTrueKHR:
		return;
	case SpvOpUndef:
		spv_set_val(r, spv_result_id(r), spv_val_undef(r, spv_result_type(r)));
		return;
	case SpvOpVariable:
		spv_variable(r, true);
		return;
	case SpvOpFunctionCall:
		spv_call(r);
		return;
	case SpvOpExtInst:
		r->b.mediump = relaxed(r);
		ext_inst(r);
		r->b.mediump = false;
		return;
	case SpvOpExpectKHR:
		spv_set_val(r, spv_result_id(r), spv_get_val(r, spv_word(r, 3)));
		return;
	}
	if (composite_instr(r, op))
		return;
	r->b.mediump = relaxed(r);
	bool alu = spv_alu_instr(r, op);
	r->b.mediump = false;
	if (alu || spv_memory_instr(r, op) ||
	    spv_atomic_instr(r, op) || spv_image_instr(r, op) || spv_misc_instr(r, op) ||
	    spv_stage_instr(r, op))
		return;
	spv_unsupported(r, "%s", spv_op_name(op, buf));
}
