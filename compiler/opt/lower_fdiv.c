/*
 * lower_fdiv: a / b = a * (1 / b), for targets without a divide (ir3's
 * lower_fdiv, targets.md §2.1).  Not exact: two roundings instead of one,
 * and 1 / b may overflow or underflow where a / b would not.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_fdiv)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *y = b_alu_src(b, alu, 1);
	return b_fmul(b, x, b_frcp(b, y));
}

bool lower_fdiv(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
