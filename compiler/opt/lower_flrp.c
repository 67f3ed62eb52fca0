/*
 * lower_flrp: flrp(x, y, t) = x * (1 - t) + y * t, the constant folder's
 * own expression — but, as Mesa's nir_lower_flrp does (ir3 and etnaviv both
 * ask for it, without precise), in a cheaper form where its sources make
 * that one close:
 *
 *	x and y constants whose exponents are
 *	within 11 (23 / 2; 64-bit: 26) of each other   x + t * (y - x)
 *	x = 1                                          (x - t) + y * t
 *	x = -1                                         (x + t) + y * t
 *
 * y - x folds and the rest fuses into one ffma: mix(colour0, colour1, t) is
 * one mad per component, as in Mesa.  The differences from the strict form
 * are roundings of values of like magnitude (the pass's tolerance).
 *
 * Mesa also picks x + t * (y - x) for variable x and y, and fused forms when
 * another flrp shares x or y with this one's t; those differ from the strict
 * form by more than any tolerance when t is large (x * (1 - t) and y * t
 * cancel), so the execution checks could no longer hold the lowered shader
 * to the source's result.  They are not taken: flrps of variable x and y
 * cost one instruction more than Mesa's.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

#include <math.h>
#include <stdlib.h>

static bool const_comp(const struct alu_instr *alu, unsigned k, unsigned c, double *v)
{
	struct load_const_instr *lc = ssa_def_as_const(alu->src[k].src.ssa);
	if (!lc)
		return false;
	*v = ir_float_from_bits(lc->value[alu->src[k].swizzle[c]], lc->def.bit_size);
	return true;
}

/* Mesa's all_same_constant: every component of source `k` the constant v. */
static bool all_same_constant(const struct alu_instr *alu, unsigned k, double v)
{
	for (unsigned c = 0; c < alu->def.num_components; c++) {
		double f;
		if (!const_comp(alu, k, c, &f) || f != v)
			return false;
	}
	return true;
}

/* Mesa's sources_are_constants_with_similar_magnitudes: y - x loses little. */
static bool similar_constants(const struct alu_instr *alu)
{
	int limit = alu->def.bit_size == 64 ? 52 / 2 : 23 / 2;
	for (unsigned c = 0; c < alu->def.num_components; c++) {
		double x, y;
		int ex, ey;
		if (!const_comp(alu, 0, c, &x) || !const_comp(alu, 1, c, &y))
			return false;
		frexp(x, &ex);
		frexp(y, &ey);
		if (abs(ex - ey) > limit)
			return false;
	}
	return true;
}

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_flrp)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *y = b_alu_src(b, alu, 1);
	struct ssa_def *t = b_alu_src(b, alu, 2);
	if (!alu->exact && similar_constants(alu))
		return b_fadd(b, x, b_fmul(b, t, b_fsub(b, y, x)));
	/* one statement per instruction: the order they are made in is fixed */
	struct ssa_def *first;
	if (!alu->exact && all_same_constant(alu, 0, 1.0))
		first = b_fsub(b, x, t);
	else if (!alu->exact && all_same_constant(alu, 0, -1.0))
		first = b_fadd(b, x, t);
	else
		first = b_fmul(b, x, b_fsub(b, b_imm_floatN(b, 1.0, alu->def.bit_size), t));
	struct ssa_def *yt = b_fmul(b, y, t);
	return b_fadd(b, first, yt);
}

bool lower_flrp(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
