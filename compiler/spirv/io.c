/*
 * Stage inputs and outputs: SPIR-V Input and Output variables become IR
 * input and output declarations with explicit locations and components,
 * read and written with load_input, load_per_vertex_input, store_output …
 * (the IO lowering, done as the reader goes).  Builtins the hardware
 * provides (FragCoord, VertexIndex, the compute IDs …) are system-value
 * intrinsics instead.
 *
 * A declaration covers one "group": the part of a variable's type below its
 * last struct — a vector, a matrix, or arrays of them — so `in vec4 v[3]`
 * is one input of 3 slots and `v[i]` its slot i; members of blocks
 * (gl_PerVertex, user interface blocks) are groups of their own, located
 * by their Location or by counting from the block's.  Per-vertex arrays
 * (tessellation and geometry inputs, tessellation control outputs) lose
 * their outer dimension to the vertex index.  The tessellation levels and
 * the sample mask, arrays in SPIR-V, are the components of one slot.
 * Declarations are made when a shader first touches them, named after the
 * variable or "Block.member" so stages can be linked by name.
 */
#include <string.h>

#include "compiler/spirv/spirv_private.h"

/* ---- builtins ---- */

/* SPV_KHR_ray_tracing_position_fetch's builtin, newer than Debian's
 * SPIRV-Headers (1.3.239): its value from the registry. */
#define SPV_BUILTIN_HIT_TRIANGLE_VERTEX_POSITIONS 5335u

static enum builtin io_builtin(uint32_t b)
{
	switch (b) {
	case SpvBuiltInPosition: return BUILTIN_position;
	case SpvBuiltInPointSize: return BUILTIN_point_size;
	case SpvBuiltInClipDistance: return BUILTIN_clip_distance;
	case SpvBuiltInCullDistance: return BUILTIN_cull_distance;
	case SpvBuiltInLayer: return BUILTIN_layer;
	case SpvBuiltInViewportIndex: return BUILTIN_viewport;
	case SpvBuiltInPrimitiveId: return BUILTIN_primitive_id;
	case SpvBuiltInFragDepth: return BUILTIN_frag_depth;
	case SpvBuiltInSampleMask: return BUILTIN_sample_mask;
	case SpvBuiltInFragStencilRefEXT: return BUILTIN_stencil_ref;
	case SpvBuiltInTessLevelOuter: return BUILTIN_tess_level_outer;
	case SpvBuiltInTessLevelInner: return BUILTIN_tess_level_inner;
	case SpvBuiltInPrimitiveShadingRateKHR: return BUILTIN_primitive_shading_rate;
	case SpvBuiltInCullPrimitiveEXT: return BUILTIN_cull_primitive;
	case SpvBuiltInPrimitivePointIndicesEXT: case SpvBuiltInPrimitiveLineIndicesEXT:
	case SpvBuiltInPrimitiveTriangleIndicesEXT:
		return BUILTIN_primitive_indices;
	default: return BUILTIN_none;
	}
}

/* Builtin inputs that travel like varyings (declarations, not sysvals). */
static bool builtin_is_varying_input(struct spv *r, uint32_t b)
{
	switch (b) {
	case SpvBuiltInPosition: case SpvBuiltInPointSize: case SpvBuiltInClipDistance:
	case SpvBuiltInCullDistance:
		return r->stage != STAGE_VERTEX;
	case SpvBuiltInLayer: case SpvBuiltInViewportIndex:
		return r->stage == STAGE_FRAGMENT;
	case SpvBuiltInTessLevelOuter: case SpvBuiltInTessLevelInner:
		return r->stage == STAGE_TESS_EVAL;
	default:
		return false;
	}
}

/* The builtins SPIR-V declares as arrays that are one slot's components. */
static bool builtin_array_is_components(uint32_t b)
{
	return b == SpvBuiltInTessLevelOuter || b == SpvBuiltInTessLevelInner ||
	       b == SpvBuiltInSampleMask;
}

static uint32_t var_builtin(struct spv *r, struct spv_var *var)
{
	return spv_deco_arg(r, var->id, -1, SpvDecorationBuiltIn, ~0u);
}

static bool is_per_vertex(struct spv *r, struct spv_var *var)
{
	if (var->type->kind != T_ARRAY)
		return false;
	/* mesh outputs are arrays of vertices or of primitives */
	if (r->stage == STAGE_MESH && var->sc == SpvStorageClassOutput)
		return true;
	if (r->stage == STAGE_FRAGMENT && var->sc == SpvStorageClassInput)
		return spv_has_deco(r, var->id, -1, SpvDecorationPerVertexKHR);
	if (spv_has_deco(r, var->id, -1, SpvDecorationPatch))
		return false;
	/* an array of patch blocks (glslang puts Patch on the members) */
	const struct spv_type *e = var->type->elem;
	if (e->kind == T_STRUCT && e->length && spv_has_deco(r, e->id, 0, SpvDecorationPatch))
		return false;
	uint32_t b = var_builtin(r, var);
	if (b == SpvBuiltInTessLevelOuter || b == SpvBuiltInTessLevelInner ||
	    b == SpvBuiltInPrimitiveId || b == SpvBuiltInSampleMask)
		return false;
	if (var->sc == SpvStorageClassInput)
		return r->stage == STAGE_TESS_CTRL || r->stage == STAGE_TESS_EVAL ||
		       r->stage == STAGE_GEOMETRY;
	return r->stage == STAGE_TESS_CTRL;
}

enum var_mode spv_io_mode(struct spv *r, struct spv_var *var)
{
	uint32_t b = var_builtin(r, var);
	var->per_vertex = is_per_vertex(r, var);
	if (var->sc == SpvStorageClassOutput)
		return VM_OUTPUT;
	if (b != ~0u && !builtin_is_varying_input(r, b))
		return VM_SYSVAL;
	return VM_INPUT;
}

/* ---- where a path leads ---- */

struct io_at {
	struct spv_var *var;
	struct spv_type *type;
	int location;			/* -1: none */
	unsigned component;
	uint32_t builtin;		/* SPIR-V BuiltIn, ~0 for none */
	uint32_t struct_id;		/* the struct whose member we are in, for flags */
	int member;
	bool flat, noperspective, centroid, sample, patch, invariant, per_primitive, relaxed;
	const char *name;
	/* per-vertex */
	bool per_vertex;
	struct spv_index vertex;
	/* inside a group */
	struct io_group *g;
	struct spv_index slot;
	bool has_comp;
	struct spv_index comp;
};

static void read_flags(struct spv *r, struct io_at *at, uint32_t id, int member)
{
	at->flat |= spv_has_deco(r, id, member, SpvDecorationFlat);
	at->noperspective |= spv_has_deco(r, id, member, SpvDecorationNoPerspective);
	at->centroid |= spv_has_deco(r, id, member, SpvDecorationCentroid);
	at->sample |= spv_has_deco(r, id, member, SpvDecorationSample);
	at->patch |= spv_has_deco(r, id, member, SpvDecorationPatch);
	at->invariant |= spv_has_deco(r, id, member, SpvDecorationInvariant);
	at->relaxed |= spv_has_deco(r, id, member, SpvDecorationRelaxedPrecision);
	at->per_primitive |= spv_has_deco(r, id, member, SpvDecorationPerPrimitiveEXT);
	const struct spv_deco *loc = spv_deco(r, id, member, SpvDecorationLocation);
	if (loc && loc->num_args) {
		if (loc->args[0] > 255)
			spv_fail(r, "location %u is out of range", loc->args[0]);
		at->location = (int)loc->args[0];
	}
	const struct spv_deco *comp = spv_deco(r, id, member, SpvDecorationComponent);
	if (comp && comp->num_args) {
		if (comp->args[0] > 3)
			spv_fail(r, "component %u is out of range", comp->args[0]);
		at->component = comp->args[0];
	}
	uint32_t b = spv_deco_arg(r, id, member, SpvDecorationBuiltIn, ~0u);
	if (b != ~0u)
		at->builtin = b;
}

/* Locations a type takes. */
static unsigned loc_count(struct spv *r, const struct spv_type *t, unsigned depth)
{
	if (depth > 32)
		spv_fail(r, "types nested too deeply");
	switch (t->kind) {
	case T_BOOL: case T_INT: case T_FLOAT: return 1;
	case T_VECTOR: return t->bit_size == 64 && t->length > 2 ? 2 : 1;
	case T_MATRIX: return t->length * loc_count(r, t->elem, depth + 1);
	case T_ARRAY: {
		uint64_t n = (uint64_t)t->length * loc_count(r, t->elem, depth + 1);
		if (n > 256)
			spv_fail(r, "an interface variable of more than 256 locations");
		return (unsigned)n;
	}
	case T_STRUCT: {
		unsigned n = 0;
		for (unsigned i = 0; i < t->length; i++)
			n += loc_count(r, t->members[i].type, depth + 1);
		return n;
	}
	default:
		spv_unsupported(r, "an interface variable of %s", spv_type_str(r, t));
	}
}

static bool has_struct(const struct spv_type *t)
{
	while (t->kind == T_ARRAY)
		t = t->elem;
	return t->kind == T_STRUCT;
}

static const char *join_name(struct spv *r, const char *a, const char *b)
{
	if (!a || !*a)
		return b;
	if (!b || !*b)
		return a;
	return arena_printf(&r->arena, "%s.%s", a, b);
}

static struct io_at io_root(struct spv *r, struct spv_var *var)
{
	struct io_at at = { .var = var, .type = var->type, .location = -1, .builtin = ~0u,
			    .member = -1 };
	read_flags(r, &at, var->id, -1);
	at.per_vertex = var->per_vertex;
	at.name = var->name;
	if (at.type->kind == T_STRUCT || (at.per_vertex && at.type->elem->kind == T_STRUCT)) {
		struct spv_type *st = at.type->kind == T_STRUCT ? at.type : at.type->elem;
		const char *n = st->id ? spv_id_name(r, st->id) : NULL;
		if (n && *n)
			at.name = n;
	}
	return at;
}

/* Into member `m` of a struct. */
static void at_member(struct spv *r, struct io_at *at, uint32_t m)
{
	struct spv_type *t = at->type;
	if (m >= t->length)
		spv_fail(r, "member %u is out of range", m);
	int loc = at->location;
	if (loc >= 0)
		for (unsigned i = 0; i < m; i++)
			loc += (int)loc_count(r, t->members[i].type, 0);
	at->location = loc;
	at->struct_id = t->id;
	at->member = (int)m;
	read_flags(r, at, t->id, (int)m);
	const char *mn = spv_member_name(r, t->id, m);
	at->name = join_name(r, at->name, mn);
	at->type = t->members[m].type;
}

/* Into element `i` (constant) of an array of structs. */
static void at_struct_element(struct spv *r, struct io_at *at, struct spv_index i)
{
	if (i.d)
		spv_unsupported(r, "a dynamically indexed array of interface structs");
	if (i.c >= at->type->length)
		spv_fail(r, "index %u is out of range", i.c);
	if (at->location >= 0)
		at->location += (int)(i.c * loc_count(r, at->type->elem, 0));
	at->name = arena_printf(&r->arena, "%s[%u]", at->name ? at->name : "", i.c);
	at->type = at->type->elem;
}

/* ---- declarations ---- */

static bool is_output(const struct io_at *at)
{
	return at->var->sc == SpvStorageClassOutput;
}

static int64_t group_key(const struct io_at *at)
{
	if (at->builtin != ~0u)
		return -((int64_t)at->builtin + 1) * 2 - at->patch;
	return ((int64_t)at->location * 4 + at->component) * 2 + at->patch;
}

/* The leaf vector type of a group and the slots it spans. */
static void group_shape(struct spv *r, struct io_at *at, struct spv_type **leaf, unsigned *slots,
			bool *components)
{
	struct spv_type *t = at->type;
	*components = at->builtin != ~0u && builtin_array_is_components(at->builtin) &&
		      t->kind == T_ARRAY;
	if (*components) {
		if (!spv_type_is_vector_or_scalar(t->elem) || t->length > 4)
			spv_fail(r, "%s as a builtin", spv_type_str(r, t));
		*leaf = spv_type_vector(r, t->elem, t->length);
		*slots = 1;
		return;
	}
	*slots = loc_count(r, t, 0);
	while (t->kind == T_ARRAY)
		t = t->elem;
	if (t->kind == T_MATRIX)
		t = t->elem;
	*leaf = t;
}

static struct io_group *enter_group(struct spv *r, struct io_at *at)
{
	int64_t key = group_key(at);
	for (struct io_group *g = at->var->groups; g; g = g->next)
		if (g->key == key)
			return g;
	struct spv_type *leaf;
	unsigned slots;
	bool components;
	group_shape(r, at, &leaf, &slots, &components);
	/* a boolean builtin (CullPrimitiveEXT) travels as a 32-bit integer, 8-bit
	 * integers as 16-bit ones */
	unsigned bits = spv_type_is_bool(leaf) ? 32 : leaf->bit_size;
	if (spv_type_is_bool(leaf) && at->builtin == ~0u)
		spv_unsupported(r, "%s in the stage interface", spv_type_str(r, leaf));
	bool out = is_output(at);
	struct io_decl *d = out ? shader_add_output(r->s) : shader_add_input(r->s);
	enum builtin b = at->builtin != ~0u ? io_builtin(at->builtin) : BUILTIN_none;
	if (at->builtin != ~0u && b == BUILTIN_none) {
		char buf[40];
		spv_unsupported(r, "BuiltIn %s as a stage %s",
				spv_enum_name_or_number(SPV_KIND_BuiltIn, at->builtin, buf),
				out ? "output" : "input");
	}
	if (b == BUILTIN_none && at->location < 0)
		spv_fail(r, "%s %s has no location", out ? "output" : "input",
			 at->name ? at->name : "(unnamed)");
	d->builtin = b;
	d->location = b == BUILTIN_none ? at->location : -1;
	if (d->location > 255 || at->component + spv_type_components(leaf) > 4)
		spv_fail(r, "location %d component %u is out of range", at->location, at->component);
	d->component = (uint8_t)at->component;
	d->num_components = (uint8_t)spv_type_components(leaf);
	d->bit_size = (uint8_t)bits;
	d->array_size = components || (slots == 1 && at->type->kind != T_ARRAY) ? 0 : slots;
	if (!out && r->stage == STAGE_FRAGMENT && b == BUILTIN_none)
		d->interp = at->flat || spv_type_is_int(leaf) ? INTERP_flat :
			    at->noperspective ? INTERP_noperspective : INTERP_smooth;
	else if (at->flat)
		d->interp = INTERP_flat;
	else if (at->noperspective)
		d->interp = INTERP_noperspective;
	d->centroid = at->centroid;
	d->sample = at->sample;
	d->per_vertex = at->per_vertex;
	d->patch = at->patch || b == BUILTIN_tess_level_outer || b == BUILTIN_tess_level_inner;
	d->per_primitive = at->per_primitive || b == BUILTIN_primitive_indices;
	d->invariant = at->invariant;
	d->mediump = at->relaxed && bits == 32 && !spv_type_is_int(leaf);
	if (out && r->stage == STAGE_FRAGMENT)
		d->index = (uint8_t)spv_deco_arg(r, at->var->id, -1, SpvDecorationIndex, 0);
	if (out && r->stage == STAGE_GEOMETRY) {
		uint32_t stream = spv_deco_arg(r, at->var->id, -1, SpvDecorationStream, 0);
		if (at->struct_id)
			stream = spv_deco_arg(r, at->struct_id, at->member, SpvDecorationStream, stream);
		d->stream = (uint8_t)stream;
	}
	d->name = at->name && b == BUILTIN_none ? arena_strdup(&r->s->arena, at->name) : NULL;
	struct io_group *g = arena_new(&r->arena, struct io_group);
	g->key = key;
	g->patch = d->patch;
	g->decl = (out ? r->s->num_outputs : r->s->num_inputs) - 1;
	g->next = at->var->groups;
	at->var->groups = g;
	return g;
}

static struct io_decl *group_decl(struct spv *r, const struct io_at *at)
{
	return is_output(at) ? r->s->outputs[at->g->decl] : r->s->inputs[at->g->decl];
}

/* Slots one element of `t` (an array or matrix in a group) takes. */
static unsigned elem_slots(struct spv *r, const struct spv_type *t)
{
	return loc_count(r, t->elem, 0);
}

static struct spv_index index_mul_add(struct spv *r, struct spv_index a, struct spv_index i,
				      uint32_t scale)
{
	struct spv_index res = { a.c + i.c * scale, a.d };
	if (i.d) {
		struct ssa_def *term = scale == 1 ? i.d : b_imul(&r->b, i.d, spv_imm_u32(r, scale));
		res.d = a.d ? b_iadd(&r->b, a.d, term) : term;
	}
	return res;
}

/* One index inside a group. */
static void group_step(struct spv *r, struct io_at *at, struct spv_index i)
{
	struct spv_type *t = at->type;
	bool components = at->builtin != ~0u && builtin_array_is_components(at->builtin) &&
			  t->kind == T_ARRAY;
	if (components || t->kind == T_VECTOR) {
		if (!i.d && i.c >= t->length)
			spv_fail(r, "index %u is out of range", i.c);
		at->has_comp = true;
		at->comp = i;
		at->type = t->elem;
		return;
	}
	if (t->kind != T_ARRAY && t->kind != T_MATRIX)
		spv_fail(r, "an index into %s", spv_type_str(r, t));
	if (!i.d && i.c >= t->length)
		spv_fail(r, "index %u is out of range", i.c);
	at->slot = index_mul_add(r, at->slot, i, elem_slots(r, t));
	at->type = t->elem;
}

/* Follow a pointer's path; stops at the end of the path, maybe before the
 * vertex index or a group (whole-aggregate accesses continue below). */
static struct io_at io_walk(struct spv *r, struct spv_ptr *p, unsigned *used)
{
	struct io_at at = io_root(r, p->var);
	unsigned k = 0;
	if (at.per_vertex) {
		if (!p->n) {
			*used = 0;
			return at;
		}
		at.vertex = p->path[k++];
		at.type = at.type->elem;
	}
	for (; k < p->n; k++) {
		struct spv_index i = p->path[k];
		if (!at.g && at.type->kind == T_STRUCT) {
			if (i.d)
				spv_fail(r, "a struct indexed by a non-constant");
			at_member(r, &at, i.c);
			continue;
		}
		if (!at.g && at.type->kind == T_ARRAY && has_struct(at.type)) {
			at_struct_element(r, &at, i);
			continue;
		}
		if (!at.g)
			at.g = enter_group(r, &at);
		group_step(r, &at, i);
	}
	*used = k;
	return at;
}

/* ---- loads ---- */

static struct ssa_def *slot_def(struct spv *r, struct spv_index s)
{
	if (!s.d)
		return spv_imm_u32(r, s.c);
	return s.c ? b_iadd(&r->b, s.d, spv_imm_u32(r, s.c)) : s.d;
}

static struct ssa_def *vertex_def(struct spv *r, const struct io_at *at)
{
	return slot_def(r, at->vertex);
}

/* Load the vector at the group position (all the leaf's components). */
static struct ssa_def *load_slot(struct spv *r, struct io_at *at, unsigned comps, unsigned first)
{
	struct io_decl *d = group_decl(r, at);
	struct builder *b = &r->b;
	struct ssa_def *off = slot_def(r, at->slot);
	int32_t base = (int32_t)at->g->decl, comp = (int32_t)(d->component + first);
	spv_budget(r, 1);
	if (is_output(at)) {
		if (at->per_vertex)
			return b_intr(b, load_per_vertex_output, comps, d->bit_size,
				      (vertex_def(r, at), off), .base = base, .component = comp);
		return b_intr(b, load_output, comps, d->bit_size, (off), .base = base, .component = comp);
	}
	if (at->per_vertex)
		return b_intr(b, load_per_vertex_input, comps, d->bit_size, (vertex_def(r, at), off),
			      .base = base, .component = comp);
	return b_intr(b, load_input, comps, d->bit_size, (off), .base = base, .component = comp);
}

static struct ssa_def *pick(struct spv *r, struct ssa_def *v, struct spv_index c)
{
	if (!c.d)
		return b_channel(&r->b, v, c.c);
	struct ssa_def *res = b_channel(&r->b, v, 0);
	struct ssa_def *idx = slot_def(r, c);
	for (unsigned k = 1; k < v->num_components; k++)
		res = b_bcsel(&r->b, b_ieq(&r->b, idx, spv_imm_u32(r, k)), b_channel(&r->b, v, k), res);
	return res;
}

/* A value as the SPIR-V type has it: booleans from 32 bits, 8-bit from 16. */
static struct ssa_def *from_io(struct spv *r, struct ssa_def *v, const struct spv_type *t)
{
	if (spv_type_is_bool(t))
		return b_ine(&r->b, v, b_imm_intN(&r->b, 0, v->bit_size));
	return v;
}

static struct spv_val *load_group_tree(struct spv *r, struct io_at at)
{
	struct spv_type *t = at.type;
	if (at.has_comp) {
		if (!at.comp.d)
			return spv_val_def(r, t, from_io(r, load_slot(r, &at, 1, at.comp.c), t));
		struct ssa_def *v = load_slot(r, &at, group_decl(r, &at)->num_components, 0);
		return spv_val_def(r, t, from_io(r, pick(r, v, at.comp), t));
	}
	bool components = at.builtin != ~0u && builtin_array_is_components(at.builtin) &&
			  t->kind == T_ARRAY;
	if (spv_type_is_vector_or_scalar(t) || components) {
		struct ssa_def *v = load_slot(r, &at, group_decl(r, &at)->num_components, 0);
		v = from_io(r, v, components ? t->elem : t);
		if (!components)
			return spv_val_def(r, t, v);
		struct spv_val *arr = spv_val_new(r, t);
		for (unsigned i = 0; i < t->length; i++)
			arr->elems[i] = spv_val_def(r, t->elem, b_channel(&r->b, v, i));
		return arr;
	}
	struct spv_val *v = spv_val_new(r, t);
	for (unsigned i = 0; i < t->length; i++) {
		struct io_at e = at;
		group_step(r, &e, (struct spv_index){ i, NULL });
		v->elems[i] = load_group_tree(r, e);
	}
	return v;
}

static struct spv_val *load_tree(struct spv *r, struct io_at at, unsigned depth)
{
	struct spv_type *t = at.type;
	if (depth > 32)
		spv_fail(r, "types nested too deeply");
	if (at.g)
		return load_group_tree(r, at);
	if (t->kind == T_STRUCT || (t->kind == T_ARRAY && has_struct(t))) {
		struct spv_val *v = spv_val_new(r, t);
		for (unsigned i = 0; i < t->length; i++) {
			struct io_at e = at;
			if (t->kind == T_STRUCT)
				at_member(r, &e, i);
			else
				at_struct_element(r, &e, (struct spv_index){ i, NULL });
			v->elems[i] = load_tree(r, e, depth + 1);
		}
		return v;
	}
	at.g = enter_group(r, &at);
	return load_group_tree(r, at);
}

/* A whole per-vertex array: one value per vertex. */
static struct spv_val *load_vertices(struct spv *r, struct io_at at)
{
	struct spv_val *v = spv_val_new(r, at.type);
	for (unsigned i = 0; i < at.type->length; i++) {
		struct io_at e = at;
		e.vertex = (struct spv_index){ i, NULL };
		e.type = at.type->elem;
		v->elems[i] = load_tree(r, e, 0);
	}
	return v;
}

/*
 * The first index of a path that picks an element of an array of structs
 * with a value (-1 if none): such an access is repeated for every element,
 * each in its own declarations.
 */
static int dynamic_struct_index(struct spv *r, struct spv_ptr *p, unsigned *len)
{
	struct spv_type *t = p->root;
	unsigned k = 0;
	if (p->var->per_vertex && p->n) {
		t = t->elem;
		k = 1;
	}
	for (; k < p->n && (t->kind == T_STRUCT || (t->kind == T_ARRAY && has_struct(t))); k++) {
		if (t->kind == T_ARRAY && p->path[k].d) {
			*len = t->length;
			return (int)k;
		}
		t = t->kind == T_STRUCT ? spv_type_child(r, t, p->path[k].c) : t->elem;
	}
	return -1;
}

static struct spv_ptr *with_index(struct spv *r, struct spv_ptr *p, unsigned k, uint32_t e)
{
	struct spv_ptr *q = arena_new(&r->arena, struct spv_ptr);
	*q = *p;
	q->path = arena_array(&r->arena, struct spv_index, p->n);
	memcpy(q->path, p->path, p->n * sizeof(*p->path));
	q->path[k] = (struct spv_index){ e, NULL };
	return q;
}

static struct spv_val *load_dynamic(struct spv *r, struct spv_ptr *p, unsigned k, unsigned len)
{
	struct ssa_def *idx = slot_def(r, p->path[k]);
	struct spv_val *v = NULL;
	for (unsigned e = 0; e < len; e++) {
		struct spv_val *x = spv_io_load(r, with_index(r, p, k, e));
		v = v ? spv_val_bcsel(r, b_ieq(&r->b, idx, spv_imm_u32(r, e)), x, v) : x;
	}
	return v;
}

static void store_dynamic(struct spv *r, struct spv_ptr *p, unsigned k, unsigned len,
			  struct spv_val *v)
{
	struct ssa_def *idx = slot_def(r, p->path[k]);
	for (unsigned e = 0; e < len; e++) {
		struct cf_if *nif = b_push_if(&r->b, b_ieq(&r->b, idx, spv_imm_u32(r, e)));
		spv_io_store(r, with_index(r, p, k, e), v);
		b_pop_if(&r->b, nif);
	}
}

struct spv_val *spv_io_load(struct spv *r, struct spv_ptr *p)
{
	unsigned used, len;
	int k = dynamic_struct_index(r, p, &len);
	if (k >= 0)
		return load_dynamic(r, p, (unsigned)k, len);
	struct io_at at = io_walk(r, p, &used);
	if (at.per_vertex && !p->n)
		return load_vertices(r, at);
	return load_tree(r, at, 0);
}

/* ---- stores ---- */

static void store_slot(struct spv *r, struct io_at *at, struct ssa_def *v, unsigned first,
		       unsigned mask)
{
	struct io_decl *d = group_decl(r, at);
	struct builder *b = &r->b;
	struct ssa_def *off = slot_def(r, at->slot);
	int32_t base = (int32_t)at->g->decl, comp = (int32_t)(d->component + first);
	spv_budget(r, 1);
	if (v->bit_size == 1)
		v = b_b2i32(b, v);
	if (v->bit_size != d->bit_size || first + v->num_components > d->num_components)
		spv_fail(r, "storing a %ux%u value into a %ux%u output", v->bit_size,
			 v->num_components, d->bit_size, d->num_components);
	if (at->per_vertex)
		b_intr(b, store_per_vertex_output, v->num_components, 0, (v, vertex_def(r, at), off),
		       .base = base, .component = comp, .write_mask = (int32_t)mask);
	else
		b_intr(b, store_output, v->num_components, 0, (v, off), .base = base,
		       .component = comp, .write_mask = (int32_t)mask);
}

static void store_group_tree(struct spv *r, struct io_at at, struct spv_val *v)
{
	struct spv_type *t = at.type;
	struct io_decl *d = group_decl(r, &at);
	if (at.has_comp) {
		if (!at.comp.d) {
			store_slot(r, &at, v->def, at.comp.c, 1);
			return;
		}
		/* a dynamic component: one guarded store per component */
		struct ssa_def *idx = slot_def(r, at.comp);
		for (unsigned k = 0; k < d->num_components; k++) {
			struct cf_if *nif = b_push_if(&r->b, b_ieq(&r->b, idx, spv_imm_u32(r, k)));
			store_slot(r, &at, v->def, k, 1);
			b_pop_if(&r->b, nif);
		}
		return;
	}
	bool components = at.builtin != ~0u && builtin_array_is_components(at.builtin) &&
			  t->kind == T_ARRAY;
	if (components) {
		struct ssa_def *ch[4];
		for (unsigned i = 0; i < t->length; i++)
			ch[i] = v->elems[i]->def;
		store_slot(r, &at, b_vec(&r->b, ch, t->length), 0, 0);
		return;
	}
	if (spv_type_is_vector_or_scalar(t)) {
		if (!v->def)
			spv_fail(r, "storing %s as %s", spv_type_str(r, v->type), spv_type_str(r, t));
		store_slot(r, &at, v->def, 0, 0);
		return;
	}
	if (!v->elems)
		spv_fail(r, "storing %s as %s", spv_type_str(r, v->type), spv_type_str(r, t));
	for (unsigned i = 0; i < t->length; i++) {
		struct io_at e = at;
		group_step(r, &e, (struct spv_index){ i, NULL });
		store_group_tree(r, e, v->elems[i]);
	}
}

static void store_tree(struct spv *r, struct io_at at, struct spv_val *v, unsigned depth)
{
	struct spv_type *t = at.type;
	if (depth > 32)
		spv_fail(r, "types nested too deeply");
	if (at.g) {
		store_group_tree(r, at, v);
		return;
	}
	if (t->kind == T_STRUCT || (t->kind == T_ARRAY && has_struct(t))) {
		if (!v->elems)
			spv_fail(r, "storing %s as %s", spv_type_str(r, v->type), spv_type_str(r, t));
		for (unsigned i = 0; i < t->length; i++) {
			struct io_at e = at;
			if (t->kind == T_STRUCT)
				at_member(r, &e, i);
			else
				at_struct_element(r, &e, (struct spv_index){ i, NULL });
			store_tree(r, e, v->elems[i], depth + 1);
		}
		return;
	}
	at.g = enter_group(r, &at);
	store_group_tree(r, at, v);
}

void spv_io_store(struct spv *r, struct spv_ptr *p, struct spv_val *v)
{
	unsigned used, len;
	int k = dynamic_struct_index(r, p, &len);
	if (k >= 0) {
		store_dynamic(r, p, (unsigned)k, len, v);
		return;
	}
	struct io_at at = io_walk(r, p, &used);
	if (at.per_vertex && !p->n) {
		if (!v->elems)
			spv_fail(r, "storing a non-array to a per-vertex array");
		for (unsigned i = 0; i < at.type->length; i++) {
			struct io_at e = at;
			e.vertex = (struct spv_index){ i, NULL };
			e.type = at.type->elem;
			store_tree(r, e, v->elems[i], 0);
		}
		return;
	}
	store_tree(r, at, v, 0);
}

/* ---- outputs as temporaries ----
 *
 * Vertex, tessellation evaluation, geometry and fragment shaders keep their
 * outputs in locals (as Mesa's nir_lower_io_to_temporaries): reads and
 * partial writes stay local, and the outputs are stored once, at the end of
 * the shader — or, in a geometry shader, before each emitted vertex.  Only
 * what the shader writes is copied (for a block, the members it wrote).
 * Tessellation control and mesh outputs are shared between invocations and
 * stay outputs.
 */

bool spv_io_outputs_as_temps(struct spv *r)
{
	return r->stage == STAGE_VERTEX || r->stage == STAGE_TESS_EVAL ||
	       r->stage == STAGE_GEOMETRY || r->stage == STAGE_FRAGMENT;
}

void spv_io_make_temp(struct spv *r, struct spv_var *var)
{
	struct spv_var *out = arena_new(&r->arena, struct spv_var);
	*out = *var;
	var->out = out;
	var->mode = VM_LOCAL;
	r->output_temps = true;
}

void spv_io_note_store(struct spv_ptr *p)
{
	struct spv_var *var = p->var;
	if (!p->n || var->type->kind != T_STRUCT) {
		var->written_all = true;
		return;
	}
	uint32_t m = p->path[0].c;
	var->written |= (uint64_t)1 << (m < 63 ? m : 63);
}

/*
 * Which outputs (and members) the module writes anywhere, found before the
 * code is translated: a geometry shader copies its outputs at every
 * EmitVertex, whatever comes first in the code.  Access chains are followed
 * from the variable; a store through one marks what it reaches.
 */
void spv_io_find_output_writes(struct spv *r)
{
	struct spv_var **base = arena_array(&r->arena, struct spv_var *, r->bound);
	int32_t *member = arena_array(&r->arena, int32_t, r->bound);
	for (unsigned i = 0; i < r->num_vars; i++)
		if (r->vars[i]->out) {
			base[r->vars[i]->id] = r->vars[i];
			member[r->vars[i]->id] = -1;
		}
	for (unsigned f = 0; f < r->num_funcs; f++) {
		for (size_t at = r->funcs[f]->begin; at < r->funcs[f]->end; at += spv_count(r, at)) {
			uint32_t op = spv_opcode(r, at), n = spv_count(r, at);
			const uint32_t *w = &r->w[at];
			if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && n >= 4 &&
			    w[2] < r->bound && w[3] < r->bound && base[w[3]]) {
				base[w[2]] = base[w[3]];
				member[w[2]] = member[w[3]];
				uint32_t c;
				if (member[w[2]] < 0 && n >= 5 && base[w[3]]->type->kind == T_STRUCT &&
				    spv_id_const_u32(r, w[4], &c))
					member[w[2]] = (int32_t)(c < 63 ? c : 63);
			} else if ((op == SpvOpStore || op == SpvOpCopyMemory) && n >= 3 &&
				   w[1] < r->bound && base[w[1]]) {
				struct spv_var *var = base[w[1]];
				if (member[w[1]] < 0)
					var->written_all = true;
				else
					var->written |= (uint64_t)1 << member[w[1]];
			}
		}
	}
}

static int var_stream(struct spv *r, struct spv_var *var, int member)
{
	uint32_t s = spv_deco_arg(r, var->id, -1, SpvDecorationStream, 0);
	if (member >= 0 && var->type->kind == T_STRUCT)
		s = spv_deco_arg(r, var->type->id, member, SpvDecorationStream, s);
	return (int)s;
}

/* One output (or one member of it) from its local to the output. */
static void copy_out(struct spv *r, struct spv_var *var, int member)
{
	struct spv_ptr *from = spv_var_ptr(r, var), *to = spv_var_ptr(r, var->out);
	if (member >= 0) {
		struct spv_index *i = arena_new(&r->arena, struct spv_index);
		i->c = (uint32_t)member;
		from->n = to->n = 1;
		from->path = to->path = i;
		from->type = to->type = var->type->members[member].type;
	}
	spv_io_store(r, to, spv_load(r, from, 0));
}

void spv_io_copy_outputs(struct spv *r, int stream)
{
	size_t save = r->cur;
	for (unsigned i = 0; i < r->num_vars; i++) {
		struct spv_var *var = r->vars[i];
		if (!var->out || (!var->written && !var->written_all))
			continue;
		r->cur = spv_id(r, var->id)->word;
		if (var->written_all || var->type->kind != T_STRUCT) {
			if (stream < 0 || var_stream(r, var, -1) == stream)
				copy_out(r, var, -1);
			continue;
		}
		for (unsigned m = 0; m < var->type->length; m++)
			if ((var->written >> (m < 63 ? m : 63) & 1) &&
			    (stream < 0 || var_stream(r, var, (int)m) == stream))
				copy_out(r, var, (int)m);
	}
	r->cur = save;
}

/* ---- interpolation functions ---- */

struct ssa_def *spv_io_interp(struct spv *r, uint32_t inst, struct spv_ptr *p, struct ssa_def *arg)
{
	struct builder *b = &r->b;
	unsigned used;
	if (!p->var || p->var->mode != VM_INPUT || r->stage != STAGE_FRAGMENT)
		spv_fail(r, "interpolation of something not a fragment input");
	struct io_at at = io_walk(r, p, &used);
	if (!at.g) {
		if (!spv_type_is_vector_or_scalar(at.type))
			spv_fail(r, "interpolation of %s", spv_type_str(r, at.type));
		at.g = enter_group(r, &at);
	}
	struct io_decl *d = group_decl(r, &at);
	unsigned comps = d->num_components;
	int32_t base = (int32_t)at.g->decl, comp = d->component;
	struct ssa_def *off = slot_def(r, at.slot), *v;
	if (d->bit_size == 64 || !spv_type_is_float(at.type))
		spv_fail(r, "interpolation of %s", spv_type_str(r, at.type));
	spv_budget(r, 1);
	switch (inst) {
	case GLSLstd450InterpolateAtCentroid:
		v = b_intr(b, interp_at_centroid, comps, d->bit_size, (off), .base = base,
			   .component = comp);
		break;
	case GLSLstd450InterpolateAtSample:
		v = b_intr(b, interp_at_sample, comps, d->bit_size, (arg, off), .base = base,
			   .component = comp);
		break;
	default:
		if (arg->bit_size != 32)
			arg = b_f2f32(b, arg);
		v = b_intr(b, interp_at_offset, comps, d->bit_size, (arg, off), .base = base,
			   .component = comp);
		break;
	}
	if (at.has_comp)
		v = pick(r, v, at.comp);
	else if (spv_type_components(at.type) != comps)
		spv_fail(r, "interpolation of %s", spv_type_str(r, at.type));
	return v;
}

/* ---- system values ---- */

/* A system value, when the stage has it. */
static struct ssa_def *sv(struct spv *r, uint32_t builtin, enum intrinsic op)
{
	unsigned stages = intrinsic_infos[op].stages, bit = intr_stage_bit(r->stage);
	char buf[40];
	if (stages && bit && !(stages & bit))
		spv_fail(r, "BuiltIn %s in a %s shader",
			 spv_enum_name_or_number(SPV_KIND_BuiltIn, builtin, buf), stage_name(r->stage));
	return b_sysval(&r->b, op);
}

static struct ssa_def *sysval(struct spv *r, uint32_t builtin)
{
	struct builder *b = &r->b;
	char buf[40];
	switch (builtin) {
	case SpvBuiltInFragCoord: return sv(r, builtin, INTR_load_frag_coord);
	case SpvBuiltInFrontFacing: return sv(r, builtin, INTR_load_front_face);
	case SpvBuiltInPointCoord: return sv(r, builtin, INTR_load_point_coord);
	case SpvBuiltInSampleId: return sv(r, builtin, INTR_load_sample_id);
	case SpvBuiltInSamplePosition: return sv(r, builtin, INTR_load_sample_pos);
	case SpvBuiltInSampleMask: return sv(r, builtin, INTR_load_sample_mask_in);
	case SpvBuiltInHelperInvocation: return sv(r, builtin, INTR_load_helper_invocation);
	case SpvBuiltInVertexIndex: case SpvBuiltInVertexId: return sv(r, builtin, INTR_load_vertex_id);
	case SpvBuiltInInstanceIndex:
		return b_iadd(b, sv(r, builtin, INTR_load_instance_id), sv(r, builtin, INTR_load_base_instance));
	case SpvBuiltInInstanceId:
		return sv(r, builtin, r->stage >= STAGE_RAYGEN ? INTR_load_ray_instance_index
				   : INTR_load_instance_id);
	case SpvBuiltInBaseVertex: return sv(r, builtin, INTR_load_base_vertex);
	case SpvBuiltInBaseInstance: return sv(r, builtin, INTR_load_base_instance);
	case SpvBuiltInDrawIndex: return sv(r, builtin, INTR_load_draw_id);
	case SpvBuiltInPrimitiveId: return sv(r, builtin, INTR_load_primitive_id);
	case SpvBuiltInInvocationId: return sv(r, builtin, INTR_load_invocation_id);
	case SpvBuiltInTessCoord: return sv(r, builtin, INTR_load_tess_coord);
	case SpvBuiltInPatchVertices: return sv(r, builtin, INTR_load_patch_vertices_in);
	case SpvBuiltInLocalInvocationId: return sv(r, builtin, INTR_load_local_invocation_id);
	case SpvBuiltInLocalInvocationIndex: return sv(r, builtin, INTR_load_local_invocation_index);
	case SpvBuiltInWorkgroupId: return sv(r, builtin, INTR_load_workgroup_id);
	case SpvBuiltInNumWorkgroups: return sv(r, builtin, INTR_load_num_workgroups);
	case SpvBuiltInGlobalInvocationId: return sv(r, builtin, INTR_load_global_invocation_id);
	case SpvBuiltInWorkgroupSize: {
		uint64_t v[3] = { r->s->info.workgroup_size[0], r->s->info.workgroup_size[1],
				  r->s->info.workgroup_size[2] };
		return spv_imm(r, 3, 32, v);
	}
	case SpvBuiltInSubgroupSize: return sv(r, builtin, INTR_load_subgroup_size);
	case SpvBuiltInSubgroupLocalInvocationId: return sv(r, builtin, INTR_load_subgroup_invocation);
	case SpvBuiltInSubgroupId: return sv(r, builtin, INTR_load_subgroup_id);
	case SpvBuiltInNumSubgroups: return sv(r, builtin, INTR_load_num_subgroups);
	case SpvBuiltInSubgroupEqMask: return sv(r, builtin, INTR_load_subgroup_eq_mask);
	case SpvBuiltInSubgroupGeMask: return sv(r, builtin, INTR_load_subgroup_ge_mask);
	case SpvBuiltInSubgroupGtMask: return sv(r, builtin, INTR_load_subgroup_gt_mask);
	case SpvBuiltInSubgroupLeMask: return sv(r, builtin, INTR_load_subgroup_le_mask);
	case SpvBuiltInSubgroupLtMask: return sv(r, builtin, INTR_load_subgroup_lt_mask);
	case SpvBuiltInViewIndex: return sv(r, builtin, INTR_load_view_index);
	case SpvBuiltInDeviceIndex: return spv_imm_u32(r, 0);
	case SpvBuiltInBaryCoordKHR: return sv(r, builtin, INTR_load_barycentric_coord);
	case SpvBuiltInBaryCoordNoPerspKHR:
		return sv(r, builtin, INTR_load_barycentric_coord_noperspective);
	case SpvBuiltInShadingRateKHR: return sv(r, builtin, INTR_load_frag_shading_rate);
	case SpvBuiltInFragSizeEXT: return sv(r, builtin, INTR_load_frag_size);
	case SpvBuiltInFragInvocationCountEXT: return sv(r, builtin, INTR_load_frag_invocation_count);
	case SpvBuiltInFullyCoveredEXT: return sv(r, builtin, INTR_load_fully_covered);
	/* ray tracing */
	case SpvBuiltInLaunchIdKHR: return sv(r, builtin, INTR_load_ray_launch_id);
	case SpvBuiltInLaunchSizeKHR: return sv(r, builtin, INTR_load_ray_launch_size);
	case SpvBuiltInWorldRayOriginKHR: return sv(r, builtin, INTR_load_ray_world_origin);
	case SpvBuiltInWorldRayDirectionKHR: return sv(r, builtin, INTR_load_ray_world_direction);
	case SpvBuiltInObjectRayOriginKHR: return sv(r, builtin, INTR_load_ray_object_origin);
	case SpvBuiltInObjectRayDirectionKHR: return sv(r, builtin, INTR_load_ray_object_direction);
	case SpvBuiltInRayTminKHR: return sv(r, builtin, INTR_load_ray_t_min);
	case SpvBuiltInRayTmaxKHR: case SpvBuiltInHitTNV: return sv(r, builtin, INTR_load_ray_t_max);
	case SpvBuiltInInstanceCustomIndexKHR: return sv(r, builtin, INTR_load_ray_instance_custom_index);
	case SpvBuiltInRayGeometryIndexKHR: return sv(r, builtin, INTR_load_ray_geometry_index);
	case SpvBuiltInHitKindKHR: return sv(r, builtin, INTR_load_ray_hit_kind);
	case SpvBuiltInIncomingRayFlagsKHR: return sv(r, builtin, INTR_load_ray_flags);
	case SpvBuiltInCullMaskKHR: return sv(r, builtin, INTR_load_ray_cull_mask);
	}
	spv_unsupported(r, "BuiltIn %s", spv_enum_name_or_number(SPV_KIND_BuiltIn, builtin, buf));
}

/* Make the system value fit the variable's SPIR-V type. */
static struct ssa_def *fit(struct spv *r, struct ssa_def *v, const struct spv_type *t)
{
	unsigned n = spv_type_components(t), bits = t->bit_size;
	if (v->bit_size == 32 && bits == 64 && n == 1 && v->num_components == 4)
		return b_pack_64_2x32(&r->b, b_swizzle(&r->b, v, (unsigned[]){ 0, 1 }, 2));
	if (n < v->num_components)
		v = b_swizzle(&r->b, v, (unsigned[]){ 0, 1, 2, 3 }, n);
	if (n != v->num_components || (bits != v->bit_size && !spv_type_is_bool(t)))
		spv_fail(r, "a builtin of %s", spv_type_str(r, t));
	return v;
}

struct spv_val *spv_sysval_load(struct spv *r, struct spv_ptr *p)
{
	struct spv_var *var = p->var;
	uint32_t builtin = var_builtin(r, var);
	struct spv_type *t = var->type;
	if (r->stage == STAGE_VERTEX && (builtin == SpvBuiltInPrimitiveId ||
					 builtin == SpvBuiltInInvocationId))
		spv_fail(r, "a vertex shader reading BuiltIn %u", builtin);
	spv_budget(r, 1);
	if (t->kind == T_MATRIX) {	/* ObjectToWorldKHR, WorldToObjectKHR: 4 columns */
		bool o2w = builtin == SpvBuiltInObjectToWorldKHR;
		if ((!o2w && builtin != SpvBuiltInWorldToObjectKHR) || t->length != 4 ||
		    t->elem->length != 3 || t->bit_size != 32)
			spv_fail(r, "a builtin of %s", spv_type_str(r, t));
		struct spv_val *m = spv_val_new(r, t);
		for (unsigned c = 0; c < 4; c++)
			m->elems[c] = spv_val_def(r, t->elem, o2w ?
				b_intr(&r->b, load_ray_object_to_world, 0, 0, (spv_imm_u32(r, c))) :
				b_intr(&r->b, load_ray_world_to_object, 0, 0, (spv_imm_u32(r, c))));
		if (!p->n)
			return m;
		struct spv_val *v = m;
		for (unsigned k = 0; k < p->n; k++) {
			struct spv_index i = p->path[k];
			if (i.d || (v->elems && i.c >= v->type->length))
				spv_unsupported(r, "a dynamic index into a ray matrix");
			v = v->elems ? v->elems[i.c] :
			    spv_val_def(r, v->type->elem, b_channel(&r->b, v->def, i.c));
		}
		return v;
	}
	if (builtin == SPV_BUILTIN_HIT_TRIANGLE_VERTEX_POSITIONS) {	/* vec3[3] */
		if (t->kind != T_ARRAY || t->length != 3 || spv_type_components(t->elem) != 3)
			spv_fail(r, "a builtin of %s", spv_type_str(r, t));
		struct spv_val *arr = spv_val_new(r, t);
		for (unsigned k = 0; k < 3; k++)
			arr->elems[k] = spv_val_def(r, t->elem, b_intr(&r->b, load_ray_triangle_vertex, 0, 0,
							(spv_imm_u32(r, k))));
		if (!p->n)
			return arr;
		if (p->path[0].d)
			spv_unsupported(r, "a dynamic index into the hit triangle");
		struct spv_val *v = arr->elems[p->path[0].c];
		if (p->n == 2)
			v = spv_val_def(r, t->elem->elem, pick(r, v->def, p->path[1]));
		return v;
	}
	if (t->kind == T_ARRAY) {	/* SampleMask: int[1] */
		if (t->length != 1 || !spv_type_is_vector_or_scalar(t->elem))
			spv_fail(r, "a builtin of %s", spv_type_str(r, t));
		struct ssa_def *v = fit(r, sysval(r, builtin), t->elem);
		if (p->n)
			return spv_val_def(r, t->elem, v);
		struct spv_val *arr = spv_val_new(r, t);
		arr->elems[0] = spv_val_def(r, t->elem, v);
		return arr;
	}
	if (!spv_type_is_vector_or_scalar(t))
		spv_fail(r, "a builtin of %s", spv_type_str(r, t));
	struct ssa_def *v = fit(r, sysval(r, builtin), t);
	if (!p->n)
		return spv_val_def(r, t, v);
	if (p->n != 1)
		spv_fail(r, "an index into a scalar");
	return spv_val_def(r, t->elem, pick(r, v, p->path[0]));
}
