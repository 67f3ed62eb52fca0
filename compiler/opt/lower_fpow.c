/*
 * lower_fpow: pow(a, b) = exp2(log2(a) * b), as Mesa for targets without
 * a pow instruction (ir3's lower_fpow; ../../shared/reference/targets.md
 * §2.1).  Not exact: it rounds three times where the folder's pow rounds
 * once, and where pow is undefined (a < 0, or a = 0 with b <= 0) it gives
 * what exp2 and log2 give.  Vulkan specifies pow's precision as that of
 * this very expression.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_fpow)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *y = b_alu_src(b, alu, 1);
	struct ssa_def *l = b_flog2(b, x);
	return b_fexp2(b, b_fmul(b, l, y));
}

bool lower_fpow(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
