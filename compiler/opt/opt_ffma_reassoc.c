/*
 * opt_ffma_reassoc: the final addition of a multiply-add chain joins its
 * innermost product (Mesa's nir_opt_algebraic_late, the "things that look
 * like DPH" rules): a matrix times vec4(v, 1.0) — fmul, ffma, ffma, then
 * the translation added — takes one instruction fewer.
 *
 *	~fadd(ffma(a, b, ffma(c, d, fmul(e, f))), g)  →  ffma(a, b, ffma(c, d, ffma(e, f, g)))
 *	~fadd(ffma(a, b, fmul(e, f)), g)              →  ffma(a, b, ffma(e, f, g))
 *
 * The outer ffma used once, e, f and g not constants, e and f no fsign,
 * nothing exact (`~`); the add's sources are tried in order.
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

static struct alu_instr *alu_of(const struct ssa_def *d)
{
	return d->parent->type == INSTR_alu ? instr_as_alu(d->parent) : NULL;
}

static bool is_const(const struct ssa_def *d)
{
	return d->parent->type == INSTR_load_const;
}

/* e(is_not_const_and_not_fsign) */
static bool plain(const struct ssa_def *d)
{
	struct alu_instr *a = alu_of(d);
	return !is_const(d) && !(a && a->op == OP_fsign);
}

/* Source `i` of `alu`, read through its swizzle composed with `outer`. */
static struct ssa_def *operand(struct builder *b, struct alu_instr *alu, unsigned i,
			       const uint8_t *outer, unsigned n)
{
	unsigned sw[16] = { 0 };
	for (unsigned k = 0; k < n && k < 16; k++)
		sw[k] = alu->src[i].swizzle[outer[k]];
	return b_swizzle(b, alu->src[i].src.ssa, sw, n);
}

/* Whether `x`'s source 2 is fmul(e, f), or ffma(c, d, fmul(e, f)) at
 * depth 0. */
static bool matches(const struct alu_instr *x, unsigned depth)
{
	struct alu_instr *y = alu_of(x->src[2].src.ssa);
	if (!y || y->exact)
		return false;
	if (y->op == OP_fmul)
		return plain(y->src[0].src.ssa) && plain(y->src[1].src.ssa);
	return y->op == OP_ffma && !depth && matches(y, 1);
}

/* The product at the bottom of `x`'s source 2 — fmul(e, f) directly or
 * under one more ffma — rebuilt with `g` added: ffma(e, f, g). */
static struct ssa_def *rebuild(struct builder *b, struct alu_instr *x, const uint8_t *sw,
			       unsigned n, struct ssa_def *g, unsigned depth)
{
	uint8_t inner[16];
	for (unsigned k = 0; k < n; k++)
		inner[k] = x->src[2].swizzle[sw[k]];
	struct alu_instr *y = alu_of(x->src[2].src.ssa);
	if (y->op == OP_fmul)
		return b_ffma(b, operand(b, y, 0, inner, n), operand(b, y, 1, inner, n), g);
	struct ssa_def *r = rebuild(b, y, inner, n, g, depth + 1);
	return b_ffma(b, operand(b, y, 0, inner, n), operand(b, y, 1, inner, n), r);
}

static bool reassoc(struct shader *s, struct alu_instr *add)
{
	if (add->op != OP_fadd || add->exact)
		return false;
	unsigned n = add->def.num_components;
	for (unsigned i = 0; i < 2; i++) {
		struct alu_instr *x = alu_of(add->src[i].src.ssa);
		const struct ssa_def *gd = add->src[1 - i].src.ssa;
		if (!x || x->op != OP_ffma || x->exact || ssa_def_num_uses(&x->def) != 1 ||
		    is_const(gd) || !matches(x, 0))
			continue;
		struct builder b;
		builder_init(&b, s, cursor_before_instr(&add->instr));
		b.exact = false;
		uint8_t sw[16];
		for (unsigned k = 0; k < n; k++)
			sw[k] = add->src[i].swizzle[k];
		unsigned gsw[16];
		for (unsigned k = 0; k < n; k++)
			gsw[k] = add->src[1 - i].swizzle[k];
		struct ssa_def *g = b_swizzle(&b, add->src[1 - i].src.ssa, gsw, n);
		struct ssa_def *inner = rebuild(&b, x, sw, n, g, 0);
		struct ssa_def *r = b_ffma(&b, operand(&b, x, 0, sw, n), operand(&b, x, 1, sw, n), inner);
		ssa_def_rewrite_uses(&add->def, r);
		instr_remove(&add->instr);
		return true;
	}
	return false;
}

bool opt_ffma_reassoc(struct shader *s)
{
	bool progress = false;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk)
			if (in->type == INSTR_alu)
				progress |= reassoc(s, instr_as_alu(in));
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
