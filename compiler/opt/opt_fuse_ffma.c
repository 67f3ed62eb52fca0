/*
 * opt_fuse_ffma: a multiply used only by an add becomes one ffma (ir3's
 * mad.f32/mad.f16, etnaviv's mad), as Mesa's nir_opt_algebraic does under
 * the backends' fuse_ffma16/32/64 options (targets.md §2.1, §4.3):
 *
 *	~fadd(fmul(a, b), c)                →  ffma(a, b, c)
 *	~fadd(fneg(fmul(a, b)), c)          →  ffma(-a, b, c)
 *	~fadd(fabs(fmul(a, b)), c)          →  ffma(|a|, |b|, c)
 *	~fadd(fneg(fabs(fmul(a, b))), c)    →  ffma(-|a|, |b|, c)
 *
 * each inner op used once (is_used_once) and none of them exact (`~`: the
 * rewrite rounds once instead of twice; NoContraction/precise forbid it).
 * fsub(x, y) is fadd(x, -y).  The sources of the add are tried in order,
 * as the search of a commutative pattern does.
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

struct mul_chain {
	struct alu_instr *mul;
	bool neg, abs;
	uint8_t swz[16];	/* the add's components → the multiply's */
};

static struct alu_instr *single_use_alu(struct ssa_def *d)
{
	if (d->parent->type != INSTR_alu || ssa_def_num_uses(d) != 1)
		return NULL;
	struct alu_instr *alu = instr_as_alu(d->parent);
	return alu->exact ? NULL : alu;
}

/* Source `i` of `add` as fmul, fneg(fmul), fabs(fmul) or fneg(fabs(fmul)). */
static bool match_mul(struct alu_instr *add, unsigned i, struct mul_chain *m)
{
	unsigned n = add->def.num_components;
	for (unsigned k = 0; k < n; k++)
		m->swz[k] = add->src[i].swizzle[k];
	m->neg = m->abs = false;
	struct alu_instr *a = single_use_alu(add->src[i].src.ssa);
	if (a && a->op == OP_fneg) {
		m->neg = true;
		for (unsigned k = 0; k < n; k++)
			m->swz[k] = a->src[0].swizzle[m->swz[k]];
		a = single_use_alu(a->src[0].src.ssa);
	}
	if (a && a->op == OP_fabs) {
		m->abs = true;
		for (unsigned k = 0; k < n; k++)
			m->swz[k] = a->src[0].swizzle[m->swz[k]];
		a = single_use_alu(a->src[0].src.ssa);
	}
	m->mul = a && a->op == OP_fmul ? a : NULL;
	return m->mul != NULL;
}

static struct ssa_def *mul_src(struct builder *b, const struct mul_chain *m, unsigned j,
			       unsigned n)
{
	unsigned sw[16];
	for (unsigned k = 0; k < n; k++)
		sw[k] = m->mul->src[j].swizzle[m->swz[k]];
	return b_swizzle(b, m->mul->src[j].src.ssa, sw, n);
}

static bool fuse(struct builder *b, struct alu_instr *add)
{
	if (add->exact || (add->op != OP_fadd && add->op != OP_fsub))
		return false;
	unsigned n = add->def.num_components;
	struct mul_chain m;
	for (unsigned i = 0; i < 2; i++) {
		if (!match_mul(add, i, &m))
			continue;
		/* fsub(x, mul) negates the product, fsub(mul, y) the addend */
		bool neg = m.neg ^ (add->op == OP_fsub && i == 1);
		unsigned sw[16];
		for (unsigned k = 0; k < n; k++)
			sw[k] = add->src[1 - i].swizzle[k];
		struct ssa_def *c = b_swizzle(b, add->src[1 - i].src.ssa, sw, n);
		if (add->op == OP_fsub && i == 0)
			c = b_fneg(b, c);
		struct ssa_def *x = mul_src(b, &m, 0, n), *y = mul_src(b, &m, 1, n);
		if (m.abs) {
			x = b_fabs(b, x);
			y = b_fabs(b, y);
		}
		if (neg)
			x = b_fneg(b, x);
		ssa_def_rewrite_uses(&add->def, b_ffma(b, x, y, c));
		instr_remove(&add->instr);
		return true;
	}
	return false;
}

bool opt_fuse_ffma(struct shader *s)
{
	bool progress = false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_alu)
				continue;
			builder_init(&b, s, cursor_before_instr(in));
			progress |= fuse(&b, instr_as_alu(in));
		}
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
