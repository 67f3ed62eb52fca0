/*
 * lower_ir3_trig: ir3's sin and cos take their argument reduced to one
 * period first, as Mesa's ir3_nir_apply_trig_workarounds (ir3_nir_trig.py,
 * every generation, 32-bit only) has it:
 *
 *	fsin(x)  →  fsin(ffma!(2π, ffract(ffma!(1/2π, x, 0.5)), -π))
 *
 * and the same for fcos: x moved into [-π, π) by whole periods.  The two
 * ffmas are exact (`!`: nothing refolds them); ffract is lowered later
 * (lower_ffract: x - floor(x)).  A constant argument folds as before.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if ((alu->op != OP_fsin && alu->op != OP_fcos) || alu->def.bit_size != 32)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	if (ssa_def_as_const(x))
		return NULL;
	bool exact = b->exact;
	b->exact = true;
	struct ssa_def *t = b_ffma(b, b_imm_float(b, 0.15915494), x, b_imm_float(b, 0.5));
	b->exact = exact;
	struct ssa_def *f = b_ffract(b, t);
	b->exact = true;
	struct ssa_def *y = b_ffma(b, b_imm_float(b, 6.2831853), f, b_imm_float(b, -3.14159265));
	b->exact = exact;
	return alu->op == OP_fsin ? b_fsin(b, y) : b_fcos(b, y);
}

bool lower_ir3_trig(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
