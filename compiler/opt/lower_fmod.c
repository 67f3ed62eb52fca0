/*
 * lower_fmod: GLSL's mod, fmod(a, b) = a - b * floor(a / b), step by step
 * as the folder computes it (exact at 32 and 64 bits; half floats round
 * between the steps).  ir3 has no fmod (lower_fmod, targets.md §2.1).
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_fmod)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *y = b_alu_src(b, alu, 1);
	struct ssa_def *q = b_ffloor(b, b_fdiv(b, x, y));
	return b_fsub(b, x, b_fmul(b, y, q));
}

bool lower_fmod(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
