/*
 * lower_isign: sign(a) = imax(imin(a, 1), -1) for integers (ir3's
 * lower_isign, targets.md §2.1).  Exact.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_isign)
		return NULL;
	unsigned bits = alu->def.bit_size;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *one = b_imm_intN(b, 1, bits);
	struct ssa_def *minus_one = b_imm_intN(b, -1, bits);
	return b_imax(b, b_imin(b, x, one), minus_one);
}

bool lower_isign(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
