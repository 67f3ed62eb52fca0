/*
 * lower_ldexp: ldexp(x, e) = x * 2^e for targets without the instruction
 * (NIR's lower_ldexp option, set by ir3 and etnaviv, targets.md §2.1 and
 * §4.3): e is clamped to ±254 and split in two halves, each made a power
 * of two by writing it into a float's exponent field, so neither factor
 * overflows where the product does not.  32-bit floats only.
 *
 *	ldexp x, e   →   e' = clamp(e, -254, 254); h = e' >> 1
 *	                 x * float(h + 127 << 23) * float(e' - h + 127 << 23)
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_ldexp || alu->def.bit_size != 32)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	struct ssa_def *e = b_alu_src(b, alu, 1);
	e = b_imax(b, b_imin(b, e, b_imm_int(b, 254)), b_imm_int(b, -254));
	struct ssa_def *e1 = b_ishr(b, e, b_imm_int(b, 1)), *e2 = b_isub(b, e, e1);
	struct ssa_def *p1 = b_ishl(b, b_iadd(b, e1, b_imm_int(b, 127)), b_imm_int(b, 23));
	struct ssa_def *p2 = b_ishl(b, b_iadd(b, e2, b_imm_int(b, 127)), b_imm_int(b, 23));
	return b_fmul(b, b_fmul(b, x, p1), p2);
}

bool lower_ldexp(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
