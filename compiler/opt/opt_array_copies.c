/*
 * opt_array_copies: a local array that only ever holds a copy of an input
 * array is read from the input, and a local that nothing reads loses its
 * stores (Mesa's nir_opt_find_array_copies + nir_opt_copy_prop_vars, then
 * nir_opt_dead_write_vars, which its optimisation loops run on derefs).
 *
 *	vec4 tmp[32] = vInputs;			(a TCS: gl_in's copy)
 *	out[gl_InvocationID] = tmp[gl_InvocationID];
 *
 * The front end writes the copy element by element:
 *
 *	32x4 %3 = @load_per_vertex_input %c0, %c0 base=0 component=0
 *	@store_local %3, %c0 local=0 base=0 write_mask=xyzw
 *	…					(one per vertex)
 *	32x4 %9 = @load_local %id local=0 base=0
 *		→ 32x4 %9 = @load_per_vertex_input %id, %c0 base=0 component=0
 *
 * A local qualifies when every store to it writes a whole element at a
 * constant index with the value of an input load at constant indices (a
 * per-vertex input's vertex and slot offset, or an input's slot offset),
 * all of one declaration and component, element e holding vertex
 * v0 + (e - e0) / S and slot o0 + (e - e0) % S for some stride S (the
 * slots of one vertex: an array of matrices or of arrays per vertex; a
 * non-per-vertex input has slots only), and no element ever receives two
 * values.  Inputs do not change, so every element holds its input's value
 * or is still undefined wherever the local is read: the read may take the
 * input's value, at any index, with no ordering to prove.
 *
 * A dynamic element index `x` (plus the load's base) becomes the vertex and
 * offset: directly when S is 1; from y when x is y * S (imul or ishl, as
 * the front end scales an index into a struct's member array); else by
 * udiv and umod of S.
 */
#include <stdlib.h>

#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"
#include "compiler/util/array.h"

/* A store of the copy: the element, and the vertex and slot offset it holds. */
struct copied {
	uint64_t elem, vert, slot;
};

/* What is known of one local (its element size is the declaration's). */
struct copy {
	bool stored, loaded, rejected;
	enum intrinsic op;		/* load_input or load_per_vertex_input */
	int32_t base, component;
	bool have_first;
	uint64_t e0;			/* an element's index, and the vertex and slot */
	uint64_t v0, o0;		/* offset it holds */
	uint64_t vmax, omax;		/* the largest vertex and slot offset seen */
	ARRAY(struct copied) stores;
};

static bool const_u32(struct ssa_def *d, uint64_t *v)
{
	struct load_const_instr *c = ssa_def_as_const(d);
	if (!c || d->num_components != 1)
		return false;
	*v = c->value[0];
	return true;
}

/* The input load a store of `local` writes, with its constant indices. */
static bool input_source(struct intrinsic_instr *store, const struct local_decl *d,
			 struct intrinsic_instr **load, uint64_t *vertex, uint64_t *slot)
{
	struct ssa_def *v = store->src[0].ssa;
	unsigned full = (1u << d->num_components) - 1;
	unsigned mask = (unsigned)intrinsic_get(store, INTR_IDX_write_mask);
	if ((mask & full) != full || v->parent->type != INSTR_intrinsic ||
	    v->num_components != d->num_components || v->bit_size != d->bit_size)
		return false;
	*load = instr_as_intrinsic(v->parent);
	if ((*load)->op == INTR_load_input) {
		*vertex = 0;
		return const_u32((*load)->src[0].ssa, slot);
	}
	if ((*load)->op == INTR_load_per_vertex_input)
		return const_u32((*load)->src[0].ssa, vertex) &&
		       const_u32((*load)->src[1].ssa, slot);
	return false;
}

static void note_store(struct copy *c, struct intrinsic_instr *store, const struct local_decl *d)
{
	struct intrinsic_instr *load;
	uint64_t elem, vertex, slot;
	if (!const_u32(local_access_offset(store)->ssa, &elem) ||
	    !input_source(store, d, &load, &vertex, &slot)) {
		c->rejected = true;
		return;
	}
	elem += (uint64_t)intrinsic_get(store, INTR_IDX_base);
	int32_t base = intrinsic_get(load, INTR_IDX_base);
	int32_t component = intrinsic_get(load, INTR_IDX_component);
	if (!c->have_first) {
		c->have_first = true;
		c->op = load->op;
		c->base = base;
		c->component = component;
		c->e0 = elem, c->v0 = vertex, c->o0 = slot;
		c->vmax = vertex, c->omax = slot;
	} else if (load->op != c->op || base != c->base || component != c->component) {
		c->rejected = true;
		return;
	}
	if (elem < c->e0)
		c->e0 = elem, c->v0 = vertex, c->o0 = slot;
	c->vmax = vertex > c->vmax ? vertex : c->vmax;
	c->omax = slot > c->omax ? slot : c->omax;
	array_push(&c->stores, (struct copied){ elem, vertex, slot });
}

/*
 * The stride: the slots one vertex takes (the offsets seen, from the
 * first element's), 0 when the local is not one affine copy.  A
 * non-per-vertex input has one "vertex" and its stride is never used.
 */
static uint64_t stride_of(const struct copy *c)
{
	if (c->o0 > c->omax || c->omax - c->o0 >= 1u << 16 || c->vmax >= 1u << 16)
		return 0;
	uint64_t s = c->omax - c->o0 + 1;
	for (size_t k = 0; k < c->stores.len; k++) {
		const struct copied *st = &c->stores.data[k];
		/* same element twice: one value (the same vertex and slot) */
		if (st->slot < c->o0 || st->vert < c->v0)
			return 0;
		if (st->elem != c->e0 + (st->vert - c->v0) * s + (st->slot - c->o0))
			return 0;
	}
	return s;
}

/* y when `x` is y * s (imul by the constant, or ishl by its log2). */
static struct ssa_def *scaled_by(struct ssa_def *x, uint64_t s)
{
	if (x->parent->type != INSTR_alu || x->num_components != 1)
		return NULL;
	struct alu_instr *alu = instr_as_alu(x->parent);
	uint64_t k;
	for (unsigned i = 0; i < 2; i++) {
		struct ssa_def *other = alu->src[1 - i].src.ssa;
		struct load_const_instr *lc = ssa_def_as_const(alu->src[i].src.ssa);
		if (!lc || other->num_components != 1 || alu->src[1 - i].swizzle[0] != 0)
			continue;
		k = lc->value[alu->src[i].swizzle[0]];
		if (alu->op == OP_imul && k == s)
			return other;
		if (alu->op == OP_ishl && i == 1 && k < 32 && (1ull << k) == s)
			return other;
	}
	return NULL;
}

static struct ssa_def *add_const(struct builder *b, struct ssa_def *x, int64_t k)
{
	return k ? b_iadd(b, x, b_imm_int(b, k)) : x;
}

/* Replace a load of the copy by the input load it reads. */
static void rewrite_load(struct shader *s, struct copy *c, uint64_t stride,
			 struct intrinsic_instr *load)
{
	const struct local_decl *d = s->locals[intrinsic_get(load, INTR_IDX_local)];
	struct builder b;
	builder_init(&b, s, cursor_before_instr(&load->instr));
	struct ssa_def *x = load->src[0].ssa;
	int64_t base = (int64_t)intrinsic_get(load, INTR_IDX_base) - (int64_t)c->e0;
	struct ssa_def *vertex = NULL, *slot;
	uint64_t k;
	if (c->op == INTR_load_input) {
		slot = add_const(&b, x, (int64_t)c->o0 + base);
	} else if (const_u32(x, &k)) {
		/* before the first element: undefined, any element will do */
		int64_t rel = (int64_t)(uint32_t)k + base;
		uint64_t r = rel < 0 ? 0 : (uint64_t)rel;
		vertex = b_imm_int(&b, (int64_t)(c->v0 + r / stride));
		slot = b_imm_int(&b, (int64_t)(c->o0 + r % stride));
	} else if (stride == 1) {
		vertex = add_const(&b, x, (int64_t)c->v0 + base);
		slot = b_imm_int(&b, (int64_t)c->o0);
	} else if (base >= 0 && scaled_by(x, stride)) {
		uint64_t q = (uint64_t)base / stride, r = (uint64_t)base % stride;
		vertex = add_const(&b, scaled_by(x, stride), (int64_t)(c->v0 + q));
		slot = b_imm_int(&b, (int64_t)(c->o0 + r));
	} else {
		struct ssa_def *rel = add_const(&b, x, base);
		struct ssa_def *sd = b_imm_int(&b, (int64_t)stride);
		vertex = add_const(&b, b_udiv(&b, rel, sd), (int64_t)c->v0);
		slot = add_const(&b, b_umod(&b, rel, sd), (int64_t)c->o0);
	}
	struct ssa_def *v;
	if (c->op == INTR_load_input)
		v = b_intrinsic_def_(&b, INTR_load_input, d->num_components, d->bit_size,
				     (struct ssa_def *const[]){ slot },
				     &(struct intr_indices){ .base = c->base,
							     .component = c->component });
	else
		v = b_intrinsic_def_(&b, INTR_load_per_vertex_input, d->num_components, d->bit_size,
				     (struct ssa_def *const[]){ vertex, slot },
				     &(struct intr_indices){ .base = c->base,
							     .component = c->component });
	ssa_def_rewrite_uses(&load->def, v);
	instr_remove(&load->instr);
}

bool opt_array_copies(struct shader *s)
{
	unsigned n = s->num_locals;
	if (!n)
		return shader_progress(s, false, META_ALL);
	struct copy *c = xcalloc(n, sizeof(*c));
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			struct intrinsic_instr *intr;
			if (!instr_is_local_access(in, &intr))
				continue;
			unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
			if (intr->op == INTR_load_local) {
				c[l].loaded = true;
				if (intr->def.num_components != s->locals[l]->num_components)
					c[l].rejected = true;
			} else {
				c[l].stored = true;
				if (!c[l].rejected)
					note_store(&c[l], intr, s->locals[l]);
			}
		}
	uint64_t *stride = xcalloc(n, sizeof(*stride));
	bool any = false;
	for (unsigned l = 0; l < n; l++) {
		if (c[l].loaded && c[l].stored && !c[l].rejected && c[l].stores.len)
			stride[l] = stride_of(&c[l]);
		any |= stride[l] != 0 || (c[l].stored && !c[l].loaded);
	}
	if (any) {
		foreach_block(blk, s->fn)
			foreach_instr_safe(in, blk) {
				struct intrinsic_instr *intr;
				if (!instr_is_local_access(in, &intr))
					continue;
				unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
				if (intr->op == INTR_load_local && stride[l])
					rewrite_load(s, &c[l], stride[l], intr);
				else if (intr->op == INTR_store_local && (stride[l] || !c[l].loaded))
					instr_remove(in);
			}
	}
	for (unsigned l = 0; l < n; l++) {
		array_free(&c[l].stores);
	}
	free(c);
	free(stride);
	return shader_progress(s, any, META_BLOCK_INDEX | META_DOMINANCE);
}
