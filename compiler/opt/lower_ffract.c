/*
 * lower_ffract: fract(a) = a - floor(a), the folder's expression (exact at
 * 32 and 64 bits).  ir3 asks for it (lower_ffract, targets.md §2.1).
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_ffract)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	return b_fsub(b, x, b_ffloor(b, x));
}

bool lower_ffract(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
