/*
 * lower_flrp: flrp(a, b, c) = a * (1 - c) + b * c, in the order and with
 * the roundings of the folder's own expression (alu_ops.def), so 32- and
 * 64-bit results are exact.  (16-bit ones differ by the roundings to half
 * between the steps: the folder computes half floats in single precision.)
 * Mesa's lower_flrp, which ir3 asks for, picks cheaper forms that are not
 * exact.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_flrp)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *y = b_alu_src(b, alu, 1);
	struct ssa_def *t = b_alu_src(b, alu, 2);
	struct ssa_def *one = b_imm_floatN(b, 1.0, alu->def.bit_size);
	struct ssa_def *xs = b_fmul(b, x, b_fsub(b, one, t));
	struct ssa_def *yt = b_fmul(b, y, t);
	return b_fadd(b, xs, yt);
}

bool lower_flrp(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
