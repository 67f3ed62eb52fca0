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
 *
 * opt_fuse_ffma_scalar is the same for a scalar ISA (ir3), where Mesa fuses
 * after nir_lower_alu_to_scalar: each component of a vector multiply is a
 * multiply of its own there, so "used once" is per component — the add may
 * take the components it reads of a product whose other components others
 * read (a determinant's fmul(col0, minors) feeding fsub(p.x, p.y)).
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

/* Whether every component of `mul` that the add's components `swz` read is
 * read there once and by nothing else (a whole-value use reads them all). */
static bool components_used_once(struct alu_instr *mul, const uint8_t *swz, unsigned n)
{
	unsigned reads[16] = { 0 };
	foreach_use(use, &mul->def) {
		if (use->parent_if || use->parent_instr->type != INSTR_alu)
			return false;
		struct alu_instr *user = instr_as_alu(use->parent_instr);
		unsigned k = (unsigned)(container_of(use, struct alu_src, src) - user->src);
		for (unsigned c = 0; c < alu_src_components(user, k); c++)
			reads[user->src[k].swizzle[c] & 15]++;
	}
	for (unsigned k = 0; k < n; k++)
		if (reads[swz[k] & 15] != 1)
			return false;
	return true;
}

/* Source `i` of `add` as fmul, fneg(fmul), fabs(fmul) or fneg(fabs(fmul)). */
static bool match_mul(struct alu_instr *add, unsigned i, struct mul_chain *m, bool scalar)
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
	if (!m->mul && scalar && !m->neg && !m->abs) {
		/* a product whose other components others read */
		struct ssa_def *d = add->src[i].src.ssa;
		struct alu_instr *mul = d->parent->type == INSTR_alu ? instr_as_alu(d->parent) : NULL;
		if (mul && mul->op == OP_fmul && !mul->exact && components_used_once(mul, m->swz, n))
			m->mul = mul;
	}
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

static bool fuse(struct builder *b, struct alu_instr *add, bool scalar)
{
	if (add->exact || (add->op != OP_fadd && add->op != OP_fsub))
		return false;
	unsigned n = add->def.num_components;
	struct mul_chain m;
	for (unsigned i = 0; i < 2; i++) {
		if (!match_mul(add, i, &m, scalar))
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
		b->mediump = add->mediump && m.mul->mediump;	/* both RelaxedPrecision */
		ssa_def_rewrite_uses(&add->def, b_ffma(b, x, y, c));
		instr_remove(&add->instr);
		return true;
	}
	return false;
}

static bool fuse_all(struct shader *s, bool scalar)
{
	bool progress = false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_alu)
				continue;
			builder_init(&b, s, cursor_before_instr(in));
			progress |= fuse(&b, instr_as_alu(in), scalar);
		}
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}

bool opt_fuse_ffma(struct shader *s)
{
	return fuse_all(s, false);
}

bool opt_fuse_ffma_scalar(struct shader *s)
{
	return fuse_all(s, true);
}
