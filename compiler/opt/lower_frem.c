/*
 * lower_frem: SPIR-V's OpFRem (remainder with the sign of a) as
 * a - b * trunc(a / b), Mesa's lowering.  Not exact: the folder's frem is
 * C's fmod, exact by definition, while the quotient here is rounded (the
 * error grows with a / b).
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_frem)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *y = b_alu_src(b, alu, 1);
	struct ssa_def *q = b_ftrunc(b, b_fdiv(b, x, y));
	return b_fsub(b, x, b_fmul(b, y, q));
}

bool lower_frem(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
