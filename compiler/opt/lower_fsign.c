/*
 * lower_fsign: sign(a) with two comparisons and two selects,
 *
 *	bcsel(0 < a, 1.0, bcsel(a < 0, -1.0, a))
 *
 * which keeps the folder's answers for ±0 (the zero itself) and NaN (a NaN)
 * where Mesa's form gives +0.  Exact.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_fsign)
		return NULL;
	unsigned bits = alu->def.bit_size;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *zero = b_imm_floatN(b, 0.0, bits);
	struct ssa_def *one = b_imm_floatN(b, 1.0, bits);
	struct ssa_def *minus_one = b_imm_floatN(b, -1.0, bits);
	struct ssa_def *neg = b_bcsel(b, b_flt(b, x, zero), minus_one, x);
	return b_bcsel(b, b_flt(b, zero, x), one, neg);
}

bool lower_fsign(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
