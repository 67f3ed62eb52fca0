/*
 * lower_etna_matrix_rows: a row-major matrix in the uniform file times a
 * vector, from the matrix's rows.  The uniform file holds vec4 slots: push
 * constants and the default block on every target, and on HALTI0 (no UBOs)
 * the UBOs' contents too (etna_isel_intr.c); a row-major matrix there has
 * each row in a slot.
 *
 * The SPIR-V reader loads a row-major matrix column by column, each column
 * gathered from one component of every row (as Mesa's spirv_to_nir and
 * nir_lower_explicit_io do), and v × M — HLSL's mul(M, v) — is one dot of
 * v with each gathered column; in the uniform file every gather costs
 * movs.  Mesa's figures (../../shared/reference/mesa-etnaviv-dev.tsv) show
 * the rows' code instead wherever the matrix is in the uniform file: HLSL
 * mul(M, float4(p, 1.0)) costs on GC2000 exactly what GLSL's
 * M * vec4(p, 1.0) does (a mul and three mads, or a mov and three mads when
 * the 1.0 leaves the last row itself: 4 instructions, 2 temps, 16 uniform
 * words), and so with push constants on GC2000, GC3000 and GC7000 (3
 * instructions there: no one-uniform limit), while a UBO that GC3000 and
 * GC7000 load from memory keeps the columns (35 instructions).  That code
 * is vtn's matrix_multiply() for a matrix whose columns are at hand: from
 * the last row, one fmul then ffmas.  So here every
 *
 *	%c_j = vecK (load r_0 + 4j), …, (load r_{K-1} + 4j)   (column j)
 *	%d_j = fdotK %v, %c_j
 * becomes component j of
 *	%p   = ffma (load r_0), %v.0, (… ffma (load r_{K-2}), %v.{K-2},
 *	                               (fmul (load r_{K-1}), %v.{K-1}))
 *
 * one %p for the dots of one vector with one matrix in a block, its rows
 * loaded as wide as the highest column read; rows are whole slots (at a
 * multiple of 16 bytes, 16 or more apart).
 */
#include "compiler/etna/etna_nir.h"
#include "compiler/ir/builder.h"
#include "compiler/util/array.h"

static enum alu_op vec_op(unsigned n)
{
	return n == 2 ? OP_vec2 : n == 3 ? OP_vec3 : OP_vec4;
}

/* Where a word of the uniform file comes from: a load's intrinsic, its
 * block (a UBO's slot) or base, and its constant byte offset. */
struct word {
	enum intrinsic op;
	uint32_t space, off;
};

static bool same_space(const struct word *a, const struct word *b)
{
	return a->op == b->op && a->space == b->space;
}

/* A scalar 32-bit load of the uniform file at a constant offset: push
 * constants and the default block on every target, UBOs without UBO
 * support (`in_uniforms`). */
static bool uniform_word(const struct ssa_def *def, bool ubo_in_uniforms, struct word *w)
{
	if (def->parent->type != INSTR_intrinsic || def->num_components != 1 || def->bit_size != 32)
		return false;
	const struct intrinsic_instr *intr = instr_as_intrinsic(def->parent);
	const struct load_const_instr *space, *off;
	w->op = intr->op;
	switch (intr->op) {
	case INTR_load_ubo:
		if (!ubo_in_uniforms)
			return false;
		space = ssa_def_as_const(intr->src[0].ssa);
		off = ssa_def_as_const(intr->src[1].ssa);
		if (!space || !off)
			return false;
		w->space = (uint32_t)space->value[0];
		w->off = (uint32_t)off->value[0];
		return true;
	case INTR_load_push_constant: case INTR_load_uniform:
		off = ssa_def_as_const(intr->src[0].ssa);
		if (!off)
			return false;
		w->space = (uint32_t)intrinsic_get(intr, INTR_IDX_base);
		w->off = (uint32_t)off->value[0];
		return true;
	default:
		return false;
	}
}

/* A vecK of such words from one space: their offsets. */
static bool gathered(const struct ssa_def *def, unsigned k, bool ubo_in_uniforms,
		     struct word *first, uint32_t *off)
{
	if (def->parent->type != INSTR_alu || def->num_components != k)
		return false;
	const struct alu_instr *vec = instr_as_alu(def->parent);
	if (vec->op != vec_op(k))
		return false;
	for (unsigned i = 0; i < k; i++) {
		struct word w = { 0 };
		if (!uniform_word(vec->src[i].src.ssa, ubo_in_uniforms, &w) ||
		    (i && !same_space(&w, first)))
			return false;
		if (!i)
			*first = w;
		off[i] = w.off;
	}
	return true;
}

/*
 * A product: a vector times the rows of a row-major matrix of K rows, row
 * i of its space at `first` + i·stride, one vec4 slot each.  Its dots are
 * fdotK(v, column j), j < n.
 */
struct product {
	struct ssa_def *v;
	uint8_t swz[4];			/* the components of v the dots read */
	unsigned k, n;
	struct word first;
	uint32_t stride;
	struct ssa_def *value;		/* Σ v_i · row_i, once built */
};

/* Whether `dot` is fdotK(v, column j) of a row-major matrix in the uniform
 * file: its product (n = j + 1) and j. */
static bool product_dot(const struct alu_instr *dot, bool ubo_in_uniforms, struct product *p,
			unsigned *j)
{
	unsigned k = dot->op == OP_fdot2 ? 2 : dot->op == OP_fdot3 ? 3 : dot->op == OP_fdot4 ? 4 : 0;
	if (!k || dot->def.bit_size != 32)
		return false;
	for (unsigned s = 0; s < 2; s++) {
		const struct alu_src *col = &dot->src[s], *v = &dot->src[!s];
		uint32_t off[4];
		struct word w = { 0 };
		if (!gathered(col->src.ssa, k, ubo_in_uniforms, &w, off))
			continue;
		for (unsigned i = 0; i < k; i++)
			if (col->swizzle[i] != i)
				return false;
		/* rows are whole slots: the column's place in its slot is j */
		uint32_t at = w.off + (w.op == INTR_load_ubo ? 0 : w.space);
		uint32_t stride = k > 1 ? off[1] - off[0] : 16;
		if (stride % 16 || stride < 16)
			return false;
		*j = at % 16 / 4;
		for (unsigned i = 0; i < k; i++)
			if (off[i] != off[0] + i * stride)
				return false;
		*p = (struct product){ .v = v->src.ssa, .k = k, .n = *j + 1, .first = w,
				       .stride = stride };
		p->first.off -= 4 * *j;
		memcpy(p->swz, v->swizzle, k);
		return true;
	}
	return false;
}

static bool same_product(const struct product *a, const struct product *b)
{
	return a->v == b->v && a->k == b->k && !memcmp(a->swz, b->swz, a->k) &&
	       same_space(&a->first, &b->first) && a->first.off == b->first.off &&
	       a->stride == b->stride;
}

/* Row i of the product's matrix, its first n words. */
static struct ssa_def *load_row(struct builder *b, const struct product *p, unsigned i)
{
	struct ssa_def *off = b_imm_int(b, (int64_t)(p->first.off + i * p->stride));
	if (p->first.op == INTR_load_ubo)
		return b_intr(b, load_ubo, p->n, 32, (b_imm_int(b, (int64_t)p->first.space), off),
			      .align_mul = 16, .align_offset = 0);
	if (p->first.op == INTR_load_push_constant)
		return b_intr(b, load_push_constant, p->n, 32, (off), .base = (int32_t)p->first.space);
	return b_intr(b, load_uniform, p->n, 32, (off), .base = (int32_t)p->first.space);
}

/* Σ v_i · row_i from the last row, as vtn's matrix_multiply(). */
static struct ssa_def *build_product(struct builder *b, const struct product *p)
{
	struct ssa_def *acc = NULL;
	for (unsigned i = p->k; i-- > 0;) {
		struct ssa_def *row = load_row(b, p, i);
		struct ssa_def *vi = b_channel(b, p->v, p->swz[i]);
		acc = acc ? b_ffma(b, row, vi, acc) : b_fmul(b, row, vi);
	}
	return acc;
}

typedef ARRAY(struct product) product_array;

static struct product *find_product(product_array *ps, const struct product *p)
{
	for (size_t i = 0; i < ps->len; i++)
		if (same_product(&ps->data[i], p))
			return &ps->data[i];
	return NULL;
}

/* A block's products: first each one's columns (n), then every dot
 * replaced by its component of the product, built before its first dot. */
static bool block_products(struct shader *s, struct block *blk, bool ubo_in_uniforms)
{
	product_array ps = ARRAY_INIT;
	struct product p;
	unsigned j;
	foreach_instr(in, blk)
		if (in->type == INSTR_alu && product_dot(instr_as_alu(in), ubo_in_uniforms, &p, &j)) {
			struct product *q = find_product(&ps, &p);
			if (!q)
				array_push(&ps, p);
			else if (p.n > q->n)
				q->n = p.n;
		}
	foreach_instr_safe(in, blk) {
		if (in->type != INSTR_alu || !product_dot(instr_as_alu(in), ubo_in_uniforms, &p, &j))
			continue;
		struct product *q = find_product(&ps, &p);
		if (!q)		/* its vector was a dot replaced above */
			continue;
		struct builder b;
		builder_init(&b, s, cursor_before_instr(in));
		if (!q->value)
			q->value = build_product(&b, q);
		ssa_def_rewrite_uses(instr_def(in), b_channel(&b, q->value, j));
		instr_remove(in);
	}
	bool progress = ps.len > 0;
	array_free(&ps);
	return progress;
}

bool lower_etna_matrix_rows(struct shader *s, const struct etna_lowering *t)
{
	bool progress = false;
	foreach_block(blk, s->fn)
		progress |= block_products(s, blk, !t->has_ubo);
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
