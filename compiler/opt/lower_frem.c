/*
 * lower_frem: SPIR-V's OpFRem (the remainder of truncated division, with
 * the sign of a) from a quotient, made exact:
 *
 *	q  = trunc(a / b)			may be one off: a / b is rounded
 *	r0 = fma(-b, q, a)
 *	q' = q - step   if r0 is non-zero with the sign opposite to a
 *	     q + step   if |r0| >= |b|		(step = sign(a / b))
 *	     q          otherwise
 *	r  = fma(-b, q', a)			exact: q' is the true quotient
 *
 * Mesa stops at a - b * trunc(a / b), which is off by b whenever a / b
 * rounds across an integer.  Left open, as Vulkan leaves them: b = 0, a
 * quotient too large for its fraction, infinities, and the sign of a zero
 * remainder (+0 here where the folder's C fmod keeps a's sign).
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_frem)
		return NULL;
	unsigned bits = alu->def.bit_size;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *y = b_alu_src(b, alu, 1);
	struct ssa_def *zero = b_imm_floatN(b, 0.0, bits);
	struct ssa_def *ratio = b_fdiv(b, x, y);
	struct ssa_def *q = b_ftrunc(b, ratio);
	struct ssa_def *step = b_fsign(b, ratio);
	struct ssa_def *ny = b_fneg(b, y);
	struct ssa_def *r0 = b_ffma(b, ny, q, x);

	struct ssa_def *r_neg = b_flt(b, r0, zero);
	struct ssa_def *x_neg = b_flt(b, x, zero);
	struct ssa_def *flipped = b_ine(b, r_neg, x_neg);
	struct ssa_def *too_big = b_iand(b, b_fneu(b, r0, zero), flipped);
	struct ssa_def *abs_r = b_fabs(b, r0);
	struct ssa_def *abs_y = b_fabs(b, y);
	struct ssa_def *too_small = b_fge(b, abs_r, abs_y);
	struct ssa_def *down = b_fsub(b, q, step);
	struct ssa_def *up = b_fadd(b, q, step);
	struct ssa_def *q1 = b_bcsel(b, too_small, up, q);
	q1 = b_bcsel(b, too_big, down, q1);
	return b_ffma(b, ny, q1, x);
}

bool lower_frem(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
