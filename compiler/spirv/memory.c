/*
 * Memory: variables, access chains, loads, stores, copies and atomics for
 * every storage class but stage I/O (io.c) and images (image.c).
 *
 * An access chain is a path of indices from a variable (or a physical
 * address); a load or a store walks it with the rules of its memory:
 *   - locals (Function, Private): each leaf of the variable's type (a
 *     scalar, vector or matrix column, through arrays and struct members)
 *     is one `local` declaration of as many elements as the arrays above it
 *     hold; the path gives a leaf and an element index (constant, or a
 *     32-bit value for a dynamic index), so `float a[4][3]` is one local of
 *     12 elements and a[i][j] is element i*3 + j;
 *   - buffers (Uniform, StorageBuffer, PushConstant, PhysicalStorageBuffer)
 *     take byte offsets from the decorated layout: member Offset,
 *     ArrayStride, MatrixStride, RowMajor; a row-major matrix is loaded
 *     column by column, each column component by component (Mesa's
 *     spirv_to_nir loads a matrix by columns, and nir_lower_explicit_io a
 *     vector whose stride exceeds its components' size by components);
 *   - shared memory and GL loose uniforms get a natural (std430-like)
 *     layout here, each variable placed after the previous one.
 * Aggregates are loaded and stored leaf by leaf.  Descriptor arrays of
 * blocks index the buffer's slots.
 */
#include <string.h>

#include "compiler/spirv/spirv_private.h"

/* ---- variables ---- */

static bool contains_opaque(struct spv *r, struct spv_type *t, unsigned depth)
{
	if (depth > 32)
		return false;
	if (spv_type_is_opaque(t))
		return true;
	if (t->kind == T_ARRAY || t->kind == T_RUNTIME_ARRAY)
		return contains_opaque(r, t->elem, depth + 1);
	if (t->kind == T_STRUCT)
		for (unsigned i = 0; i < t->length; i++)
			if (contains_opaque(r, t->members[i].type, depth + 1))
				return true;
	return false;
}

/* The block struct under descriptor arrays. */
static struct spv_type *under_arrays(struct spv_type *t)
{
	while (t->kind == T_ARRAY || t->kind == T_RUNTIME_ARRAY)
		t = t->elem;
	return t;
}

static enum var_mode var_mode(struct spv *r, struct spv_var *var)
{
	struct spv_type *t = var->type, *inner = under_arrays(t);
	switch (var->sc) {
	case SpvStorageClassFunction: case SpvStorageClassPrivate:
		if (t->kind == T_OPAQUE && t->length == SpvOpTypeRayQueryKHR)
			return VM_RAYQUERY;
		if (contains_opaque(r, t, 0))
			return spv_type_is_opaque(inner) && inner->kind != T_OPAQUE ? VM_HANDLE : VM_OPAQUE;
		return VM_LOCAL;
	case SpvStorageClassInput: case SpvStorageClassOutput:
		/* HLSL ray-tracing payloads through glslang: Input and Output by Location */
		if (r->stage >= STAGE_RAYGEN &&
		    spv_deco_arg(r, var->id, -1, SpvDecorationBuiltIn, ~0u) == ~0u) {
			var->offset = 16 * spv_deco_arg(r, var->id, -1, SpvDecorationLocation, 0);
			return VM_CALL_DATA;
		}
		if (r->model == SpvExecutionModelTaskNV && var->sc == SpvStorageClassOutput)
			return spv_deco_arg(r, var->id, -1, SpvDecorationBuiltIn, ~0u) ==
			       SpvBuiltInTaskCountNV ? VM_TASK_COUNT : VM_TASK_PAYLOAD;
		return spv_io_mode(r, var);
	case SpvStorageClassUniform:
		if (inner->kind == T_STRUCT && inner->buffer_block)
			return VM_SSBO;
		return inner->kind == T_STRUCT && inner->block ? VM_UBO : VM_OPAQUE;
	case SpvStorageClassStorageBuffer:
		return inner->kind == T_STRUCT ? VM_SSBO : VM_OPAQUE;
	case SpvStorageClassPushConstant:
		return VM_PUSH;
	case SpvStorageClassWorkgroup:
		return VM_SHARED;
	case SpvStorageClassUniformConstant:
		if (inner->kind == T_ACCEL)
			return VM_ACCEL;
		if (spv_type_is_opaque(inner))
			return inner->kind == T_OPAQUE ? VM_OPAQUE : VM_RESOURCE;
		return VM_UNIFORM;
	case SpvStorageClassAtomicCounter:
		return VM_ATOMIC;
	case SpvStorageClassRayPayloadKHR: case SpvStorageClassCallableDataKHR:
		return VM_SCRATCH;
	case SpvStorageClassIncomingRayPayloadKHR: case SpvStorageClassIncomingCallableDataKHR:
		return VM_CALL_DATA;
	case SpvStorageClassHitAttributeKHR:
		return VM_HIT_ATTRIB;
	case SpvStorageClassShaderRecordBufferKHR:
		return VM_RECORD;
	case SpvStorageClassTaskPayloadWorkgroupEXT:
		return VM_TASK_PAYLOAD;
	default:
		return VM_OPAQUE;
	}
}

struct spv_ptr *spv_var_ptr(struct spv *r, struct spv_var *var)
{
	struct spv_ptr *p = arena_new(&r->arena, struct spv_ptr);
	p->var = var;
	p->root = var->type;
	p->type = var->type;
	return p;
}

void spv_variable(struct spv *r, bool in_function)
{
	struct spv_type *pt = spv_result_type(r);
	uint32_t id = spv_result_id(r);
	struct spv_var *var = arena_new(&r->arena, struct spv_var);
	if (pt->kind != T_POINTER)
		spv_fail(r, "a variable of a non-pointer type");
	var->id = id;
	var->type = spv_pointee(r, pt);
	var->sc = (SpvStorageClass)spv_word(r, 3);
	var->name = spv_id_name(r, id);
	var->init = spv_nwords(r) > 4 ? spv_word(r, 4) : 0;
	if (var->sc != pt->storage)
		spv_fail(r, "storage class %u, the pointer type's is %u", var->sc, pt->storage);
	if (in_function && var->sc != SpvStorageClassFunction)
		spv_fail(r, "a function variable of storage class %u", var->sc);
	var->rq_index = -1;
	var->mode = var_mode(r, var);
	if (var->mode == VM_OUTPUT && !in_function && spv_io_outputs_as_temps(r))
		spv_io_make_temp(r, var);
	struct spv_id *x = spv_id(r, id);
	x->kind = ID_PTR;
	x->type = pt;
	x->ptr = spv_var_ptr(r, var);
	if (!in_function) {
		r->vars = arena_realloc(&r->arena, r->vars, r->num_vars * sizeof(*r->vars),
					(r->num_vars + 1) * sizeof(*r->vars));
		r->vars[r->num_vars++] = var;
		return;
	}
	if (var->init)
		spv_store(r, x->ptr, spv_get_val(r, var->init), 0);
}

struct spv_var *spv_temp_var(struct spv *r, struct spv_type *t, const char *name)
{
	struct spv_var *var = arena_new(&r->arena, struct spv_var);
	var->type = t;
	var->sc = SpvStorageClassFunction;
	var->mode = VM_LOCAL;
	var->name = name;
	if (contains_opaque(r, t, 0))
		spv_unsupported(r, "%s carried across blocks", spv_type_str(r, t));
	return var;
}

/* Initialisers of module-scope variables, at the top of the shader. */
void spv_init_private(struct spv *r)
{
	for (unsigned i = 0; i < r->num_vars; i++) {
		struct spv_var *var = r->vars[i];
		if (!var->init || var->mode == VM_UBO || var->mode == VM_SSBO ||
		    var->mode == VM_PUSH || var->mode == VM_RESOURCE || var->mode == VM_UNIFORM ||
		    var->mode == VM_SYSVAL || var->mode == VM_INPUT)
			continue;
		if (var->mode == VM_OUTPUT || var->mode == VM_SHARED || var->mode == VM_LOCAL) {
			r->cur = spv_id(r, var->id)->word;
			spv_store(r, spv_var_ptr(r, var), spv_get_val(r, var->init), 0);
		}
	}
	r->cur = 0;
}

/* ---- access chains ---- */

static struct spv_index index_of(struct spv *r, uint32_t id)
{
	struct spv_index i = { 0 };
	uint32_t c;
	if (spv_id_const_u32(r, id, &c))
		i.c = c;
	else
		i.d = spv_get_index32(r, id);
	return i;
}

/* Physical pointer values (64-bit addresses) become paths with no variable. */
struct spv_ptr *spv_get_ptr(struct spv *r, uint32_t id)
{
	struct spv_id *x = spv_id(r, id);
	if (x->kind == ID_PTR)
		return x->ptr;
	if ((x->kind == ID_VALUE || x->kind == ID_CONST) && x->type && x->type->kind == T_POINTER) {
		struct spv_ptr *p = arena_new(&r->arena, struct spv_ptr);
		if (x->type->storage != SpvStorageClassPhysicalStorageBuffer)
			spv_unsupported(r, "%%%u, a pointer chosen at run time (variable pointers)", id);
		p->addr = spv_get_def(r, id);
		p->ptr_type = x->type;
		p->root = p->type = spv_pointee(r, x->type);
		return p;
	}
	if (x->kind == ID_NONE && !x->word)
		spv_fail(r, "%%%u is not defined", id);
	spv_fail(r, "%%%u is not a pointer", id);
}

/* The type one index further; a constant index past the end of an array,
 * matrix or vector sets *oob (an undefined access, not a malformed one). */
static struct spv_type *step_type(struct spv *r, struct spv_type *t, struct spv_index i, bool *oob)
{
	switch (t->kind) {
	case T_STRUCT:
		if (i.d)
			spv_fail(r, "a struct indexed by a non-constant");
		return spv_type_child(r, t, i.c);
	case T_ARRAY: case T_MATRIX: case T_VECTOR:
		if (!i.d && i.c >= t->length)
			*oob = true;
		return t->elem;
	case T_RUNTIME_ARRAY:
		return t->elem;
	default:
		spv_fail(r, "an index into %s", spv_type_str(r, t));
	}
}

static struct ssa_def *index_def(struct spv *r, struct spv_index i)
{
	return i.d ? (i.c ? b_iadd(&r->b, i.d, spv_imm_u32(r, i.c)) : i.d) : spv_imm_u32(r, i.c);
}

static struct spv_index index_add(struct spv *r, struct spv_index a, struct spv_index b)
{
	struct spv_index s = { a.c + b.c, NULL };
	if (a.d && b.d)
		s.d = b_iadd(&r->b, a.d, b.d);
	else
		s.d = a.d ? a.d : b.d;
	return s;
}

static void access_chain(struct spv *r, uint32_t op)
{
	uint32_t id = spv_result_id(r);
	struct spv_type *rt = spv_result_type(r);
	struct spv_ptr *base = spv_get_ptr(r, spv_word(r, 3));
	bool has_elem = op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain;
	unsigned first = has_elem ? 5 : 4, n = spv_nwords(r) - first;
	struct spv_ptr *p = arena_new(&r->arena, struct spv_ptr);

	if (base->image)
		spv_fail(r, "an access chain on an image texel pointer");
	*p = *base;
	p->n = base->n + n;
	p->path = arena_array(&r->arena, struct spv_index, p->n + 1);
	if (base->n)
		memcpy(p->path, base->path, base->n * sizeof(*p->path));
	if (has_elem) {
		struct spv_index e = index_of(r, spv_word(r, 4));
		if (e.d || e.c) {
			if (base->n) {
				p->path[base->n - 1] = index_add(r, p->path[base->n - 1], e);
			} else if (!base->var) {
				uint32_t stride = base->ptr_type ? base->ptr_type->array_stride : 0;
				if (!stride)
					spv_fail(r, "an element of a pointer type without ArrayStride");
				struct ssa_def *off = b_u2u64(&r->b, b_imul(&r->b, index_def(r, e),
									    spv_imm_u32(r, stride)));
				p->addr = b_iadd(&r->b, base->addr, off);
			} else {
				spv_unsupported(r, "a non-zero element of a variable");
			}
		}
	}
	struct spv_type *t = base->type;
	for (unsigned i = 0; i < n; i++) {
		struct spv_index x = index_of(r, spv_word(r, first + i));
		t = step_type(r, t, x, &p->oob);
		p->path[base->n + i] = x;
	}
	p->type = t;
	p->ptr_type = rt;
	if (rt->kind != T_POINTER)
		spv_fail(r, "the result is not a pointer");
	struct spv_id *x = spv_id(r, id);
	x->kind = ID_PTR;
	x->ptr = p;
	x->type = rt;
}

/* ---- locals ---- */

static unsigned count_leaves(struct spv *r, struct spv_type *t)
{
	if (t->num_leaves)
		return t->num_leaves;
	unsigned n;
	switch (t->kind) {
	case T_BOOL: case T_INT: case T_FLOAT: case T_VECTOR: case T_MATRIX: case T_POINTER:
	case T_ACCEL:
		n = 1;
		break;
	case T_ARRAY:
		n = count_leaves(r, t->elem);
		break;
	case T_STRUCT:
		n = 0;
		for (unsigned i = 0; i < t->length; i++) {
			n += count_leaves(r, t->members[i].type);
			if (n > SPV_MAX_AGGREGATE)
				spv_unsupported(r, "a variable of %s", spv_type_str(r, t));
		}
		break;
	default:
		spv_unsupported(r, "a local variable of %s", spv_type_str(r, t));
	}
	t->num_leaves = n;
	return n;
}

/* `in_struct`: a member of a struct, which RelaxedPrecision on the
 * variable leaves as it is (Mesa's glsl_type_to_16bit converts scalars,
 * vectors and arrays of them). */
static void make_locals(struct spv *r, struct spv_var *var, struct spv_type *t, uint64_t mult,
			bool in_struct)
{
	if (mult > (1u << 24))
		spv_unsupported(r, "a local variable of more than 2^24 elements");
	switch (t->kind) {
	case T_ARRAY:
		make_locals(r, var, t->elem, mult * t->length, in_struct);
		return;
	case T_STRUCT:
		for (unsigned i = 0; i < t->length; i++)
			make_locals(r, var, t->members[i].type, mult, true);
		return;
	default:
		break;
	}
	struct local_decl *d = shader_add_local(r->s);
	d->num_elements = (unsigned)mult;
	d->name = var->name ? arena_strdup(&r->s->arena, var->name) : NULL;
	switch (t->kind) {
	case T_MATRIX:
		if ((uint64_t)d->num_elements * t->length > (1u << 24))
			spv_unsupported(r, "a local variable of more than 2^24 elements");
		d->num_elements *= t->length;
		d->num_components = (uint8_t)t->elem->length;
		d->bit_size = (uint8_t)t->bit_size;
		break;
	case T_POINTER: case T_ACCEL:
		d->num_components = 1;
		d->bit_size = 64;
		break;
	default:
		d->num_components = (uint8_t)spv_type_components(t);
		d->bit_size = (uint8_t)t->bit_size;
		d->mediump = !in_struct && var->id && d->bit_size == 32 && spv_type_is_float(t) &&
			     spv_has_deco(r, var->id, -1, SpvDecorationRelaxedPrecision);
		break;
	}
}

static void need_locals(struct spv *r, struct spv_var *var)
{
	if (var->has_locals)
		return;
	count_leaves(r, var->type);
	var->first_local = r->s->num_locals;
	make_locals(r, var, var->type, 1, false);
	var->has_locals = true;
}

/* A position in a local variable: the leaf, the element, maybe a component. */
struct lpos {
	struct spv_type *type;
	unsigned leaf;
	struct spv_index elem;
	bool has_comp;
	struct spv_index comp;
};

static struct spv_index index_mad(struct spv *r, struct spv_index e, uint32_t len,
				  struct spv_index i)
{
	struct spv_index res = { e.c * len + i.c, NULL };
	struct ssa_def *d = e.d ? b_imul(&r->b, e.d, spv_imm_u32(r, len)) : NULL;
	if (d && i.d)
		res.d = b_iadd(&r->b, d, i.d);
	else
		res.d = d ? d : i.d;
	return res;
}

static struct lpos local_pos(struct spv *r, struct spv_ptr *p)
{
	struct lpos pos = { .type = p->root };
	for (unsigned k = 0; k < p->n; k++) {
		struct spv_index i = p->path[k];
		struct spv_type *t = pos.type;
		switch (t->kind) {
		case T_ARRAY: case T_MATRIX:
			pos.elem = index_mad(r, pos.elem, t->length, i);
			pos.type = t->elem;
			break;
		case T_STRUCT:
			for (unsigned m = 0; m < i.c; m++)
				pos.leaf += count_leaves(r, t->members[m].type);
			pos.type = t->members[i.c].type;
			break;
		case T_VECTOR:
			pos.has_comp = true;
			pos.comp = i;
			pos.type = t->elem;
			break;
		default:
			spv_fail(r, "an index into %s", spv_type_str(r, t));
		}
	}
	return pos;
}

static struct ssa_def *local_load_leaf(struct spv *r, struct spv_var *var, unsigned leaf,
				       struct spv_index e)
{
	spv_budget(r, 1);
	return b_load_local(&r->b, var->first_local + leaf, e.c,
			    e.d ? e.d : spv_imm_u32(r, 0));
}

static void local_store_leaf(struct spv *r, struct spv_var *var, unsigned leaf,
			     struct spv_index e, struct ssa_def *v, unsigned mask)
{
	const struct local_decl *d = r->s->locals[var->first_local + leaf];
	if (v->num_components != d->num_components || v->bit_size != d->bit_size)
		spv_fail(r, "storing a %ux%u value into a %ux%u variable", v->bit_size,
			 v->num_components, d->bit_size, d->num_components);
	spv_budget(r, 1);
	b_store_local(&r->b, v, var->first_local + leaf, e.c, mask,
		      e.d ? e.d : spv_imm_u32(r, 0));
}

static struct spv_val *local_load(struct spv *r, struct spv_var *var, struct spv_type *t,
				  unsigned leaf, struct spv_index e)
{
	struct spv_val *v = spv_val_new(r, t);
	switch (t->kind) {
	case T_MATRIX:
		for (unsigned c = 0; c < t->length; c++)
			v->elems[c] = spv_val_def(r, t->elem, local_load_leaf(r, var, leaf,
						   index_mad(r, e, t->length, (struct spv_index){ c, NULL })));
		return v;
	case T_ARRAY:
		for (unsigned i = 0; i < t->length; i++)
			v->elems[i] = local_load(r, var, t->elem, leaf,
						 index_mad(r, e, t->length, (struct spv_index){ i, NULL }));
		return v;
	case T_STRUCT:
		for (unsigned m = 0; m < t->length; m++) {
			v->elems[m] = local_load(r, var, t->members[m].type, leaf, e);
			leaf += count_leaves(r, t->members[m].type);
		}
		return v;
	default:
		v->def = local_load_leaf(r, var, leaf, e);
		return v;
	}
}

static void local_store(struct spv *r, struct spv_var *var, struct spv_type *t, unsigned leaf,
			struct spv_index e, struct spv_val *v)
{
	switch (t->kind) {
	case T_MATRIX: case T_ARRAY:
		if (!v->elems)
			spv_fail(r, "storing a non-composite into %s", spv_type_str(r, t));
		for (unsigned i = 0; i < t->length; i++) {
			struct spv_index ei = index_mad(r, e, t->length, (struct spv_index){ i, NULL });
			if (t->kind == T_MATRIX)
				local_store_leaf(r, var, leaf, ei, v->elems[i]->def, 0);
			else
				local_store(r, var, t->elem, leaf, ei, v->elems[i]);
		}
		return;
	case T_STRUCT:
		if (!v->elems)
			spv_fail(r, "storing a non-composite into %s", spv_type_str(r, t));
		for (unsigned m = 0; m < t->length; m++) {
			local_store(r, var, t->members[m].type, leaf, e, v->elems[m]);
			leaf += count_leaves(r, t->members[m].type);
		}
		return;
	default:
		if (!v->def)
			spv_fail(r, "storing %s into %s", spv_type_str(r, v->type), spv_type_str(r, t));
		local_store_leaf(r, var, leaf, e, v->def, 0);
		return;
	}
}

static struct ssa_def *pick_component(struct spv *r, struct ssa_def *v, struct spv_index c)
{
	if (!c.d)
		return b_channel(&r->b, v, c.c);
	struct ssa_def *idx = index_def(r, c), *res = b_channel(&r->b, v, 0);
	for (unsigned k = 1; k < v->num_components; k++)
		res = b_bcsel(&r->b, b_ieq(&r->b, idx, spv_imm_u32(r, k)), b_channel(&r->b, v, k), res);
	return res;
}

static struct spv_val *load_local_ptr(struct spv *r, struct spv_ptr *p)
{
	struct spv_var *var = p->var;
	need_locals(r, var);
	struct lpos pos = local_pos(r, p);
	if (!pos.has_comp)
		return local_load(r, var, pos.type, pos.leaf, pos.elem);
	struct ssa_def *vec = local_load_leaf(r, var, pos.leaf, pos.elem);
	return spv_val_def(r, pos.type, pick_component(r, vec, pos.comp));
}

static void store_local_ptr(struct spv *r, struct spv_ptr *p, struct spv_val *v)
{
	struct spv_var *var = p->var;
	need_locals(r, var);
	struct lpos pos = local_pos(r, p);
	if (!pos.has_comp) {
		local_store(r, var, pos.type, pos.leaf, pos.elem, v);
		return;
	}
	struct local_decl *d = r->s->locals[var->first_local + pos.leaf];
	if (!pos.comp.d) {
		unsigned zero[4] = { 0 };
		struct ssa_def *wide = b_swizzle(&r->b, v->def, zero, d->num_components);
		local_store_leaf(r, var, pos.leaf, pos.elem, wide, 1u << pos.comp.c);
		return;
	}
	struct ssa_def *vec = local_load_leaf(r, var, pos.leaf, pos.elem), *ch[4];
	struct ssa_def *idx = index_def(r, pos.comp);
	for (unsigned k = 0; k < d->num_components; k++)
		ch[k] = b_bcsel(&r->b, b_ieq(&r->b, idx, spv_imm_u32(r, k)), v->def,
				b_channel(&r->b, vec, k));
	local_store_leaf(r, var, pos.leaf, pos.elem, b_vec(&r->b, ch, d->num_components), 0);
}

/* ---- buffers: byte offsets from a layout ---- */

enum mem_kind { MEM_UBO, MEM_SSBO, MEM_PUSH, MEM_SHARED, MEM_GLOBAL, MEM_UNIFORM, MEM_SCRATCH };

struct mem {
	enum mem_kind kind;
	bool natural;			/* std430-like layout computed here */
	struct ssa_def *slot;		/* ubo, ssbo */
	struct ssa_def *addr;		/* global: the base address */
	unsigned access;
	uint32_t base_align;
};

/* A byte offset: c + d, where d is a multiple of dalign and, for arrays
 * of known length, at most `span` (Mesa's nir_get_explicit_deref_range:
 * each dynamic index adds stride × (length - 1); `unbounded` once one
 * indexes a runtime array). */
struct boff {
	uint32_t c;
	struct ssa_def *d;
	uint32_t dalign;
	uint32_t span;
	bool unbounded;
};

struct mloc {
	struct spv_type *type;
	struct boff off;
	uint32_t matrix_stride;
	bool row_major;
	uint32_t vec_stride;		/* a row-major column's component stride */
};

static uint32_t low_bit(uint32_t x)
{
	return x ? x & -x : 1u << 31;
}

/* Add index i × stride; `length` is the indexed array's (0: unknown). */
static void boff_add(struct spv *r, struct boff *o, struct spv_index i, uint32_t stride,
		     uint32_t length)
{
	o->c += i.c * stride;
	if (!i.d)
		return;
	uint64_t span = (uint64_t)o->span + (uint64_t)stride * (length ? length - 1 : 0);
	if (!length || span > UINT32_MAX / 2)
		o->unbounded = true;
	else
		o->span = (uint32_t)span;
	struct ssa_def *term = stride == 1 ? i.d : b_imul(&r->b, i.d, spv_imm_u32(r, stride));
	o->d = o->d ? b_iadd(&r->b, o->d, term) : term;
	uint32_t a = low_bit(stride);
	if (!o->dalign || a < o->dalign)
		o->dalign = a;
}

static uint32_t scalar_bytes(const struct spv_type *t)
{
	return t->kind == T_BOOL || (t->kind == T_VECTOR && t->elem->kind == T_BOOL) ? 4
	       : t->kind == T_POINTER || t->kind == T_ACCEL ? 8 : t->bit_size / 8;
}

/* Natural offset of member `m` of a struct. */
static uint32_t natural_member_offset(struct spv *r, struct spv_type *t, unsigned m)
{
	uint32_t off = 0;
	for (unsigned i = 0; i <= m; i++) {
		struct spv_type *mt = t->members[i].type;
		spv_type_natural(r, mt);
		off = (off + mt->nat_align - 1) / mt->nat_align * mt->nat_align;
		if (i < m)
			off += mt->nat_size;
	}
	return off;
}

static uint32_t natural_stride(struct spv *r, struct spv_type *elem)
{
	spv_type_natural(r, elem);
	return (elem->nat_size + elem->nat_align - 1) / elem->nat_align * elem->nat_align;
}

static uint32_t array_stride(struct spv *r, const struct mem *m, struct spv_type *t)
{
	if (m->natural)
		return natural_stride(r, t->elem);
	if (!t->array_stride)
		spv_fail(r, "%s in a buffer has no ArrayStride", spv_type_str(r, t));
	return t->array_stride;
}

static uint32_t matrix_stride(struct spv *r, const struct mem *m, struct mloc *l)
{
	if (m->natural)
		return natural_stride(r, l->type->kind == T_MATRIX ? l->type->elem : l->type);
	if (!l->matrix_stride)
		spv_fail(r, "a matrix in a buffer has no MatrixStride");
	return l->matrix_stride;
}

/* One step of a path in a laid-out memory. */
static void mloc_step(struct spv *r, const struct mem *m, struct mloc *l, struct spv_index i)
{
	struct spv_type *t = l->type;
	switch (t->kind) {
	case T_STRUCT: {
		struct spv_member *mb = &t->members[i.c];
		if (m->natural) {
			l->off.c += natural_member_offset(r, t, i.c);
		} else {
			if (!mb->has_offset)
				spv_fail(r, "member %u of %s has no Offset", i.c, spv_type_str(r, t));
			l->off.c += mb->offset;
		}
		l->matrix_stride = mb->matrix_stride;
		l->row_major = mb->row_major;
		l->type = mb->type;
		return;
	}
	case T_ARRAY: case T_RUNTIME_ARRAY:
		boff_add(r, &l->off, i, array_stride(r, m, t), t->kind == T_ARRAY ? t->length : 0);
		l->type = t->elem;
		return;
	case T_MATRIX: {
		uint32_t stride = matrix_stride(r, m, l);
		if (l->row_major && !m->natural) {
			boff_add(r, &l->off, i, scalar_bytes(t->elem), t->length);
			l->vec_stride = stride;
		} else {
			boff_add(r, &l->off, i, stride, t->length);
		}
		l->type = t->elem;
		return;
	}
	case T_VECTOR:
		boff_add(r, &l->off, i, l->vec_stride ? l->vec_stride : scalar_bytes(t), t->length);
		l->type = t->elem;
		l->vec_stride = 0;
		return;
	default:
		spv_fail(r, "an index into %s", spv_type_str(r, t));
	}
}

static struct ssa_def *boff_def(struct spv *r, const struct boff *o)
{
	if (!o->d)
		return spv_imm_u32(r, o->c);
	return o->c ? b_iadd(&r->b, o->d, spv_imm_u32(r, o->c)) : o->d;
}

static void alignment(const struct mem *m, const struct boff *o, int32_t *mul, int32_t *off)
{
	uint32_t a = m->base_align;
	if (o->d && o->dalign < a)
		a = o->dalign;
	*mul = (int32_t)a;
	*off = (int32_t)(o->c % a);
}

/* Load `comps` × `bits` at a byte offset. */
static struct ssa_def *mem_load(struct spv *r, const struct mem *m, const struct boff *o,
				unsigned comps, unsigned bits)
{
	struct builder *b = &r->b;
	int32_t mul, aoff;
	struct ssa_def *off = boff_def(r, o);
	alignment(m, o, &mul, &aoff);
	spv_budget(r, 1);
	switch (m->kind) {
	case MEM_UBO: {
		/* the bytes a dynamic offset may reach (a constant one says it) */
		uint32_t range = o->d && !o->unbounded ? comps * bits / 8 + o->span : 0;
		return b_intr(b, load_ubo, comps, bits, (m->slot, off), .align_mul = mul,
			      .align_offset = aoff, .range_base = range ? (int32_t)o->c : 0,
			      .range = (int32_t)range);
	}
	case MEM_SSBO:
		return b_intr(b, load_ssbo, comps, bits, (m->slot, off), .access = (int32_t)m->access,
			      .align_mul = mul, .align_offset = aoff);
	case MEM_PUSH:
		return b_intr(b, load_push_constant, comps, bits, (off), .base = 0);
	case MEM_SHARED:
		return b_intr(b, load_shared, comps, bits, (off), .base = 0, .align_mul = mul,
			      .align_offset = aoff);
	case MEM_UNIFORM:
		return b_intr(b, load_uniform, comps, bits, (off), .base = 0);
	case MEM_SCRATCH:
		return b_intr(b, load_scratch, comps, bits, (off), .base = 0, .align_mul = mul,
			      .align_offset = aoff);
	case MEM_GLOBAL: {
		struct ssa_def *addr = b_iadd(b, m->addr, b_u2u64(b, off));
		return b_intr(b, load_global, comps, bits, (addr), .access = (int32_t)m->access,
			      .align_mul = mul, .align_offset = aoff);
	}
	}
	return NULL;
}

static void mem_store(struct spv *r, const struct mem *m, const struct boff *o,
		      struct ssa_def *v)
{
	struct builder *b = &r->b;
	int32_t mul, aoff;
	struct ssa_def *off = boff_def(r, o);
	alignment(m, o, &mul, &aoff);
	spv_budget(r, 1);
	switch (m->kind) {
	case MEM_SSBO:
		b_intr(b, store_ssbo, v->num_components, 0, (v, m->slot, off),
		       .access = (int32_t)m->access, .align_mul = mul, .align_offset = aoff);
		return;
	case MEM_SHARED:
		b_intr(b, store_shared, v->num_components, 0, (v, off), .base = 0, .align_mul = mul,
		       .align_offset = aoff);
		return;
	case MEM_SCRATCH:
		b_intr(b, store_scratch, v->num_components, 0, (v, off), .base = 0, .align_mul = mul,
		       .align_offset = aoff);
		return;
	case MEM_GLOBAL: {
		struct ssa_def *addr = b_iadd(b, m->addr, b_u2u64(b, off));
		b_intr(b, store_global, v->num_components, 0, (v, addr), .access = (int32_t)m->access,
		       .align_mul = mul, .align_offset = aoff);
		return;
	}
	default:
		spv_fail(r, "a store to read-only memory");
	}
}

static struct boff boff_plus(struct boff o, uint32_t c)
{
	o.c += c;
	return o;
}

/* Booleans live in memory as 32-bit integers. */
static struct ssa_def *from_memory(struct spv *r, struct ssa_def *v, const struct spv_type *t)
{
	return spv_type_is_bool(t) ? b_ine(&r->b, v, b_imm_intN(&r->b, 0, 32)) : v;
}

static struct ssa_def *to_memory(struct spv *r, struct ssa_def *v, const struct spv_type *t)
{
	return spv_type_is_bool(t) ? b_b2i32(&r->b, v) : v;
}

static unsigned mem_bits(const struct spv_type *t)
{
	return spv_type_is_bool(t) ? 32 : t->kind == T_POINTER || t->kind == T_ACCEL ? 64 : t->bit_size;
}

static struct spv_val *mem_load_tree(struct spv *r, const struct mem *m, struct mloc l,
				     unsigned depth);

static struct ssa_def *load_vector(struct spv *r, const struct mem *m, struct mloc *l)
{
	struct spv_type *t = l->type;
	unsigned n = spv_type_components(t), bits = mem_bits(t);
	if (!l->vec_stride || n == 1 || l->vec_stride == scalar_bytes(t))
		return from_memory(r, mem_load(r, m, &l->off, n, bits), t);
	struct ssa_def *ch[4];
	for (unsigned c = 0; c < n; c++) {
		struct boff o = boff_plus(l->off, c * l->vec_stride);
		ch[c] = mem_load(r, m, &o, 1, bits);
	}
	return from_memory(r, b_vec(&r->b, ch, n), t);
}

static struct spv_val *mem_load_tree(struct spv *r, const struct mem *m, struct mloc l,
				     unsigned depth)
{
	struct spv_type *t = l.type;
	if (depth > 64)
		spv_fail(r, "types nested too deeply");
	if (spv_type_is_vector_or_scalar(t) || t->kind == T_POINTER || t->kind == T_ACCEL)
		return spv_val_def(r, t, load_vector(r, m, &l));
	if (!spv_type_is_composite(t))
		spv_unsupported(r, "loading %s from memory", spv_type_str(r, t));
	struct spv_val *v = spv_val_new(r, t);
	for (unsigned i = 0; i < t->length; i++) {
		struct mloc e = l;
		mloc_step(r, m, &e, (struct spv_index){ i, NULL });
		v->elems[i] = mem_load_tree(r, m, e, depth + 1);
	}
	return v;
}

static void mem_store_tree(struct spv *r, const struct mem *m, struct mloc l, struct spv_val *v,
			   unsigned depth)
{
	struct spv_type *t = l.type;
	if (depth > 64)
		spv_fail(r, "types nested too deeply");
	if (spv_type_is_vector_or_scalar(t) || t->kind == T_POINTER || t->kind == T_ACCEL) {
		if (!v->def)
			spv_fail(r, "storing %s as %s", spv_type_str(r, v->type), spv_type_str(r, t));
		struct ssa_def *x = to_memory(r, v->def, t);
		unsigned n = spv_type_components(t);
		if (x->num_components != n || x->bit_size != mem_bits(t))
			spv_fail(r, "storing %s as %s", spv_type_str(r, v->type), spv_type_str(r, t));
		if (!l.vec_stride || n == 1 || l.vec_stride == scalar_bytes(t)) {
			mem_store(r, m, &l.off, x);
			return;
		}
		for (unsigned c = 0; c < n; c++) {
			struct boff o = boff_plus(l.off, c * l.vec_stride);
			mem_store(r, m, &o, b_channel(&r->b, x, c));
		}
		return;
	}
	if (!spv_type_is_composite(t) || !v->elems)
		spv_unsupported(r, "storing %s to memory", spv_type_str(r, t));
	for (unsigned i = 0; i < t->length; i++) {
		struct mloc e = l;
		mloc_step(r, m, &e, (struct spv_index){ i, NULL });
		mem_store_tree(r, m, e, v->elems[i], depth + 1);
	}
}

/* ---- buffer declarations ---- */

/* The ACCESS_* flags of an image or buffer variable's decorations. */
unsigned spv_access_decorations(struct spv *r, uint32_t id)
{
	unsigned a = 0;
	if (spv_has_deco(r, id, -1, SpvDecorationNonWritable))
		a |= ACCESS_NON_WRITEABLE;
	if (spv_has_deco(r, id, -1, SpvDecorationNonReadable))
		a |= ACCESS_NON_READABLE;
	if (spv_has_deco(r, id, -1, SpvDecorationCoherent))
		a |= ACCESS_COHERENT;
	if (spv_has_deco(r, id, -1, SpvDecorationVolatile))
		a |= ACCESS_VOLATILE;
	if (spv_has_deco(r, id, -1, SpvDecorationRestrict))
		a |= ACCESS_RESTRICT;
	return a;
}

static unsigned var_access(struct spv *r, uint32_t id, const struct spv_type *block)
{
	unsigned a = spv_access_decorations(r, id);
	if (block && block->kind == T_STRUCT && block->length) {
		bool all = true;
		for (unsigned i = 0; i < block->length; i++)
			all &= spv_has_deco(r, block->id, (int)i, SpvDecorationNonWritable);
		if (all)
			a |= ACCESS_NON_WRITEABLE;
	}
	return a;
}

static const char *decl_name(struct spv *r, struct spv_var *var, struct spv_type *block)
{
	const char *n = block && block->id ? spv_id_name(r, block->id) : NULL;
	if (!n || !*n)
		n = var->name;
	return n && *n ? arena_strdup(&r->s->arena, n) : NULL;
}

/* Descriptors of an array of blocks (arrays of arrays flattened). */
static unsigned descriptor_count(struct spv_type *t)
{
	uint64_t n = 1;
	for (; t->kind == T_ARRAY || t->kind == T_RUNTIME_ARRAY; t = t->elem)
		n *= t->kind == T_ARRAY ? t->length : SPV_RUNTIME_DESCRIPTORS;
	return n > 65536 ? 65536 : (unsigned)n;
}

/* A runtime array of buffers holds as many as the shader names: the last
 * declaration of its kind may grow to take a larger constant index. */
static void grow_runtime_array(struct spv *r, struct spv_var *var, uint32_t index)
{
	struct buffer_decl *d = var->buf;
	bool last = var->mode == VM_UBO ? r->s->ubos[r->s->num_ubos - 1] == d
		    : r->s->ssbos[r->s->num_ssbos - 1] == d;
	if (var->type->kind != T_RUNTIME_ARRAY || !last || index >= 65536)
		spv_unsupported(r, "descriptor %u of an array of %u", index,
				decl_num_slots(d->array_size));
	d->array_size = index + 1;
}

static void need_buffer(struct spv *r, struct spv_var *var)
{
	if (var->buf)
		return;
	struct spv_type *block = under_arrays(var->type);
	struct buffer_decl *d = var->mode == VM_UBO ? shader_add_ubo(r->s) : shader_add_ssbo(r->s);
	d->set = spv_deco_arg(r, var->id, -1, SpvDecorationDescriptorSet, 0);
	d->binding = spv_deco_arg(r, var->id, -1, SpvDecorationBinding, 0);
	d->size = spv_type_explicit_size(r, block);
	d->access = var->mode == VM_SSBO ? var_access(r, var->id, block) : 0;
	/* Storage buffers do not alias unless decorated Aliased (Mesa's
	 * spirv_to_nir: restrict in every memory model but OpenCL's) */
	if (var->mode == VM_SSBO && !spv_has_deco(r, var->id, -1, SpvDecorationAliased))
		d->access |= ACCESS_RESTRICT;
	d->name = decl_name(r, var, block);
	var->buf_array = var->type != block;
	if (var->buf_array)
		d->array_size = descriptor_count(var->type);
	var->buf = d;
}


/* Give a variable of naturally laid out memory (shared memory, GL loose
 * uniforms) its offset the first time it is used: the end of that memory,
 * `*top` bytes, aligned; the memory grows by its size. */
static uint32_t place_natural(struct spv *r, struct spv_var *var, uint32_t *top)
{
	if (!var->placed) {
		spv_type_natural(r, var->type);
		uint32_t a = var->type->nat_align;
		var->offset = (*top + a - 1) / a * a;
		*top = var->offset + var->type->nat_size;
		var->placed = true;
	}
	return var->offset;
}
/* The memory a variable's path lives in, with the path's descriptor
 * indices consumed; returns the first index of the path in the block. */
static unsigned mem_of(struct spv *r, struct spv_ptr *p, struct mem *m, struct mloc *l)
{
	struct spv_var *var = p->var;
	unsigned k = 0;
	memset(m, 0, sizeof(*m));
	memset(l, 0, sizeof(*l));
	m->base_align = 16;
	l->type = p->root;
	if (!var) {
		m->kind = MEM_GLOBAL;
		m->addr = p->addr;
		m->base_align = 4;
		return 0;
	}
	switch (var->mode) {
	case VM_UBO: case VM_SSBO: {
		need_buffer(r, var);
		m->kind = var->mode == VM_UBO ? MEM_UBO : MEM_SSBO;
		m->access = var->buf->access;
		if (!spv_has_deco(r, var->id, -1, SpvDecorationRestrict))
			m->access &= ~ACCESS_RESTRICT;	/* the accesses say what was written */
		struct spv_index idx = { 0 }, base = { var->buf->slot, NULL };
		struct spv_type *t = var->type;
		while (t->kind == T_ARRAY || t->kind == T_RUNTIME_ARRAY) {
			if (k >= p->n)
				spv_unsupported(r, "a pointer to a whole array of buffers");
			idx = index_mad(r, idx, t->kind == T_ARRAY ? t->length : 1, p->path[k++]);
			t = t->elem;
		}
		if (!idx.d && idx.c >= decl_num_slots(var->buf->array_size))
			grow_runtime_array(r, var, idx.c);
		struct spv_index slot = index_add(r, base, idx);
		m->slot = index_def(r, slot);
		l->type = t;
		return k;
	}
	case VM_PUSH:
		m->kind = MEM_PUSH;
		if (!r->s->info.push_constant_size)
			r->s->info.push_constant_size = spv_type_explicit_size(r, var->type);
		return 0;
	case VM_SHARED:
		m->kind = MEM_SHARED;
		m->natural = true;
		m->base_align = 4;
		if (var->type->block)
			spv_unsupported(r, "explicitly laid out workgroup memory");
		l->off.c = place_natural(r, var, &r->s->info.shared_size);
		return 0;
	case VM_UNIFORM:
		m->kind = MEM_UNIFORM;
		m->natural = true;
		m->base_align = 4;
		l->off.c = place_natural(r, var, &r->s->info.uniform_size);
		return 0;
	case VM_SCRATCH:
		m->kind = MEM_SCRATCH;
		m->natural = true;
		m->base_align = 4;
		l->off.c = spv_scratch_offset(r, var);
		return 0;
	case VM_CALL_DATA: case VM_HIT_ATTRIB: case VM_TASK_PAYLOAD: case VM_RECORD: {
		static const enum intrinsic addr[] = {	/* in var_mode's order */
			INTR_load_ray_payload_address, INTR_load_ray_hit_attrib_address,
			INTR_load_shader_record_address, INTR_load_task_payload_address,
		};
		m->kind = MEM_GLOBAL;
		m->natural = var->mode != VM_RECORD;
		m->base_align = 4;
		m->addr = b_sysval(&r->b, addr[var->mode - VM_CALL_DATA]);
		l->off.c = var->mode == VM_CALL_DATA ? var->offset : 0;
		return 0;
	}
	case VM_ATOMIC: {
		m->kind = MEM_SSBO;
		if (!var->buf) {
			var->buf = shader_add_ssbo(r->s);
			var->buf->binding = spv_deco_arg(r, var->id, -1, SpvDecorationBinding, 0);
			var->buf->name = decl_name(r, var, NULL);
			var->buf->size = 4;
		}
		m->slot = spv_imm_u32(r, var->buf->slot);
		m->natural = true;
		l->off.c = spv_deco_arg(r, var->id, -1, SpvDecorationOffset, 0);
		return 0;
	}
	default:
		spv_fail(r, "internal: no memory for this variable");
	}
}

static struct mloc walk_mem(struct spv *r, struct spv_ptr *p, struct mem *m)
{
	struct mloc l;
	unsigned k = mem_of(r, p, m, &l);
	for (; k < p->n; k++)
		mloc_step(r, m, &l, p->path[k]);
	return l;
}

/* ---- loads and stores ---- */

static struct spv_var *check_var(struct spv *r, struct spv_ptr *p)
{
	struct spv_var *var = p->var;
	if (p->image)
		spv_unsupported(r, "a load or store through an image texel pointer");
	if (var && var->mode == VM_OPAQUE)
		spv_unsupported(r, "%s of storage class %s", spv_type_str(r, under_arrays(var->type)),
				spv_enum_name(SPV_KIND_StorageClass, var->sc) ?
				spv_enum_name(SPV_KIND_StorageClass, var->sc) : "unknown");
	return var;
}

struct spv_val *spv_load(struct spv *r, struct spv_ptr *p, unsigned access)
{
	struct spv_var *var = check_var(r, p);
	(void)access;
	if (p->oob)
		return spv_val_undef(r, p->type);
	if (var) {
		switch (var->mode) {
		case VM_LOCAL: return load_local_ptr(r, p);
		case VM_INPUT: case VM_OUTPUT: return spv_io_load(r, p);
		case VM_SYSVAL: return spv_sysval_load(r, p);
		case VM_RESOURCE: case VM_HANDLE:
			spv_fail(r, "internal: a handle loaded as a value");
		default: break;
		}
	}
	struct mem m;
	struct mloc l = walk_mem(r, p, &m);
	return mem_load_tree(r, &m, l, 0);
}

void spv_store(struct spv *r, struct spv_ptr *p, struct spv_val *v, unsigned access)
{
	struct spv_var *var = check_var(r, p);
	(void)access;
	if (p->oob)
		return;
	if (var) {
		if (var->out)
			spv_io_note_store(p);
		switch (var->mode) {
		case VM_LOCAL: store_local_ptr(r, p, v); return;
		case VM_TASK_COUNT:
			spv_budget(r, 1);
			if (!v->def || v->def->num_components != 1)
				spv_fail(r, "TaskCountNV is not a scalar");
			b_intr(&r->b, launch_mesh_workgroups, 0, 0,
			       (b_vec3(&r->b, v->def, spv_imm_u32(r, 1), spv_imm_u32(r, 1))));
			return;
		case VM_OUTPUT: spv_io_store(r, p, v); return;
		case VM_INPUT: case VM_SYSVAL: case VM_UBO: case VM_PUSH: case VM_UNIFORM:
		case VM_RESOURCE:
			spv_fail(r, "a store to read-only memory");
		default: break;
		}
	}
	struct mem m;
	struct mloc l = walk_mem(r, p, &m);
	if (m.access & ACCESS_NON_WRITEABLE)
		m.access &= ~(unsigned)ACCESS_NON_WRITEABLE;
	mem_store_tree(r, &m, l, v, 0);
}

struct ssa_def *spv_ptr_address(struct spv *r, struct spv_ptr *p)
{
	if (p->var)
		spv_unsupported(r, "the address of a %s variable",
				spv_enum_name(SPV_KIND_StorageClass, p->var->sc) ?
				spv_enum_name(SPV_KIND_StorageClass, p->var->sc) : "non-physical");
	if (!p->n)
		return p->addr;
	struct mem m;
	struct mloc l = walk_mem(r, p, &m);
	return b_iadd(&r->b, p->addr, b_u2u64(&r->b, boff_def(r, &l.off)));
}

struct ssa_def *spv_array_length(struct spv *r, struct spv_ptr *p, uint32_t member)
{
	struct spv_var *var = p->var;
	if (!var || var->mode != VM_SSBO)
		spv_unsupported(r, "OpArrayLength outside a storage buffer");
	struct mem m;
	struct mloc l = walk_mem(r, p, &m);
	if (l.type->kind != T_STRUCT || member >= l.type->length ||
	    l.type->members[member].type->kind != T_RUNTIME_ARRAY)
		spv_fail(r, "member %u is not a runtime array", member);
	mloc_step(r, &m, &l, (struct spv_index){ member, NULL });
	uint32_t stride = array_stride(r, &m, l.type);
	struct builder *b = &r->b;
	struct ssa_def *size = b_intr(b, get_ssbo_size, 0, 0, (m.slot));
	struct ssa_def *bytes = b_isub(b, size, boff_def(r, &l.off));
	return b_udiv(b, bytes, spv_imm_u32(r, stride));
}

/* ---- atomics ---- */

static enum atomic_op atomic_op_of(uint32_t op)
{
	switch (op) {
	case SpvOpAtomicExchange: return ATOMIC_xchg;
	case SpvOpAtomicCompareExchange: case SpvOpAtomicCompareExchangeWeak: return ATOMIC_cmpxchg;
	case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd:
	case SpvOpAtomicISub: return ATOMIC_iadd;
	case SpvOpAtomicSMin: return ATOMIC_imin;
	case SpvOpAtomicUMin: return ATOMIC_umin;
	case SpvOpAtomicSMax: return ATOMIC_imax;
	case SpvOpAtomicUMax: return ATOMIC_umax;
	case SpvOpAtomicAnd: return ATOMIC_iand;
	case SpvOpAtomicOr: return ATOMIC_ior;
	case SpvOpAtomicXor: return ATOMIC_ixor;
	case SpvOpAtomicFAddEXT: return ATOMIC_fadd;
	case SpvOpAtomicFMinEXT: return ATOMIC_fmin;
	case SpvOpAtomicFMaxEXT: return ATOMIC_fmax;
	}
	return ATOMIC_none;
}

/* An atomic on memory only this invocation sees: a load and a store. */
static struct ssa_def *atomic_on_local(struct spv *r, struct spv_ptr *p, enum atomic_op op,
				       struct ssa_def *data, struct ssa_def *cmp)
{
	struct spv_val *old = spv_load(r, p, 0);
	struct ssa_def *nv;
	if (op == ATOMIC_xchg)
		nv = data;
	else if (op == ATOMIC_cmpxchg)
		nv = b_bcsel(&r->b, b_ieq(&r->b, old->def, cmp), data, old->def);
	else
		nv = b_alu(&r->b, atomic_op_alu(op), old->def, data, NULL, NULL);
	spv_store(r, p, spv_val_def(r, old->type, nv), 0);
	return old->def;
}

static struct ssa_def *atomic_mem(struct spv *r, struct spv_ptr *p, enum atomic_op op,
				  struct ssa_def *data, struct ssa_def *cmp)
{
	struct builder *b = &r->b;
	struct mem m;
	struct mloc l = walk_mem(r, p, &m);
	struct ssa_def *off = boff_def(r, &l.off);
	if (!spv_type_is_vector_or_scalar(l.type) || l.type->kind == T_VECTOR)
		spv_fail(r, "an atomic on %s", spv_type_str(r, l.type));
	spv_budget(r, 1);
	switch (m.kind) {
	case MEM_SSBO:
		if (cmp)
			return b_intr(b, ssbo_atomic_swap, 0, data->bit_size, (m.slot, off, cmp, data),
				      .atomic_op = op, .access = (int32_t)m.access);
		return b_intr(b, ssbo_atomic, 0, data->bit_size, (m.slot, off, data), .atomic_op = op,
			      .access = (int32_t)m.access);
	case MEM_SHARED:
		if (cmp)
			return b_intr(b, shared_atomic_swap, 0, data->bit_size, (off, cmp, data),
				      .base = 0, .atomic_op = op);
		return b_intr(b, shared_atomic, 0, data->bit_size, (off, data), .base = 0,
			      .atomic_op = op);
	case MEM_GLOBAL: {
		struct ssa_def *addr = b_iadd(b, m.addr, b_u2u64(b, off));
		if (cmp)
			return b_intr(b, global_atomic_swap, 0, data->bit_size, (addr, cmp, data),
				      .atomic_op = op, .access = (int32_t)m.access);
		return b_intr(b, global_atomic, 0, data->bit_size, (addr, data), .atomic_op = op,
			      .access = (int32_t)m.access);
	}
	default:
		spv_fail(r, "an atomic on read-only memory");
	}
}

static struct ssa_def *atomic_any(struct spv *r, struct spv_ptr *p, enum atomic_op op,
				  struct ssa_def *data, struct ssa_def *cmp, struct spv_type *t)
{
	if (p->image) {
		spv_image_atomic(r, 0, p, data, cmp, op, t);
		return NULL;
	}
	struct spv_var *var = check_var(r, p);
	if (var && (var->mode == VM_LOCAL || var->mode == VM_OUTPUT))
		return atomic_on_local(r, p, op, data, cmp);
	return atomic_mem(r, p, op, data, cmp);
}

bool spv_atomic_instr(struct spv *r, uint32_t op)
{
	struct spv_ptr *p;
	struct spv_type *t;
	struct ssa_def *data = NULL, *cmp = NULL, *res;
	enum atomic_op aop = atomic_op_of(op);
	switch (op) {
	case SpvOpAtomicLoad:
		p = spv_get_ptr(r, spv_word(r, 3));
		if (p->image)
			spv_unsupported(r, "an atomic load of an image texel");
		spv_set_val(r, spv_result_id(r), spv_load(r, p, 0));
		return true;
	case SpvOpAtomicStore:
		p = spv_get_ptr(r, spv_word(r, 1));
		if (p->image)
			spv_unsupported(r, "an atomic store to an image texel");
		spv_store(r, p, spv_get_val(r, spv_word(r, 4)), 0);
		return true;
	default:
		if (aop == ATOMIC_none)
			return false;
	}
	t = spv_result_type(r);
	p = spv_get_ptr(r, spv_word(r, 3));
	if (!spv_type_is_vector_or_scalar(t) || t->kind == T_VECTOR || t->kind == T_BOOL)
		spv_fail(r, "an atomic of %s", spv_type_str(r, t));
	switch (op) {
	case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
		data = b_imm_intN(&r->b, op == SpvOpAtomicIIncrement ? 1 : -1, t->bit_size);
		break;
	case SpvOpAtomicCompareExchange: case SpvOpAtomicCompareExchangeWeak:
		data = spv_get_def(r, spv_word(r, 7));
		cmp = spv_get_def(r, spv_word(r, 8));
		if (t->kind == T_FLOAT)
			aop = ATOMIC_fcmpxchg;
		break;
	case SpvOpAtomicISub:
		data = b_ineg(&r->b, spv_get_def(r, spv_word(r, 6)));
		break;
	default:
		data = spv_get_def(r, spv_word(r, 6));
		break;
	}
	res = atomic_any(r, p, aop, data, cmp, t);
	if (res)
		spv_set_def(r, spv_result_id(r), res);
	return true;
}

/* ---- the instructions ---- */

static void load_instr(struct spv *r)
{
	uint32_t id = spv_result_id(r);
	struct spv_ptr *p = spv_get_ptr(r, spv_word(r, 3));
	struct spv_type *t = spv_result_type(r);
	if (p->var && p->var->mode == VM_ACCEL) {
		spv_set_val(r, id, spv_val_def(r, t, spv_load_accel(r, p)));
		return;
	}
	if (spv_type_is_opaque(t) || (p->var && (p->var->mode == VM_RESOURCE ||
						  p->var->mode == VM_HANDLE))) {
		struct spv_id *x = spv_id(r, id);
		x->kind = ID_HANDLE;
		x->handle = spv_load_handle(r, p);
		x->type = t;
		return;
	}
	if (!spv_types_match(t, p->type))
		spv_fail(r, "loading %s through a pointer to %s", spv_type_str(r, t),
			 spv_type_str(r, p->type));
	struct spv_val *v = spv_load(r, p, 0);
	if (v->type != t) {
		struct spv_val *copy = arena_new(&r->arena, struct spv_val);
		*copy = *v;
		copy->type = t;
		v = copy;
	}
	spv_set_val(r, id, v);
}

static void store_instr(struct spv *r)
{
	struct spv_ptr *p = spv_get_ptr(r, spv_word(r, 1));
	uint32_t obj = spv_word(r, 2);
	if (p->var && p->var->mode == VM_HANDLE) {
		if (p->n)
			spv_unsupported(r, "an array of images or samplers in a function variable");
		p->var->held = spv_get_handle(r, obj);
		return;
	}
	struct spv_val *v = spv_get_val(r, obj);
	if (!spv_types_match(v->type, p->type))
		spv_fail(r, "storing %s through a pointer to %s", spv_type_str(r, v->type),
			 spv_type_str(r, p->type));
	spv_store(r, p, v, 0);
}

bool spv_memory_instr(struct spv *r, uint32_t op)
{
	switch (op) {
	case SpvOpLoad:
		load_instr(r);
		return true;
	case SpvOpStore:
		store_instr(r);
		return true;
	case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
	case SpvOpInBoundsPtrAccessChain:
		access_chain(r, op);
		return true;
	case SpvOpCopyMemory: {
		struct spv_ptr *dst = spv_get_ptr(r, spv_word(r, 1));
		struct spv_ptr *src = spv_get_ptr(r, spv_word(r, 2));
		spv_store(r, dst, spv_load(r, src, 0), 0);
		return true;
	}
	case SpvOpArrayLength:
		spv_set_def(r, spv_result_id(r),
			    spv_array_length(r, spv_get_ptr(r, spv_word(r, 3)), spv_word(r, 4)));
		return true;
	}
	return false;
}

unsigned spv_storage_modes(SpvStorageClass sc)
{
	switch (sc) {
	case SpvStorageClassStorageBuffer: case SpvStorageClassUniform: return MODE_SSBO;
	case SpvStorageClassWorkgroup: return MODE_SHARED;
	case SpvStorageClassImage: case SpvStorageClassUniformConstant: return MODE_IMAGE;
	case SpvStorageClassPhysicalStorageBuffer: return MODE_GLOBAL;
	case SpvStorageClassOutput: return MODE_OUTPUT;
	default: return 0;
	}
}
