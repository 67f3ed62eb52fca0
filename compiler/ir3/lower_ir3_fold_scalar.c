/*
 * lower_ir3_fold_scalar: Mesa runs ir3's ALU operations scalar
 * (nir_lower_alu_to_scalar in ir3_optimize_loop, targets.md §2.1), so its
 * algebra folds a constant component by component.  Ours keeps vectors
 * until selection; where that would hide a fold — a product or sum reading
 * a constant some of whose components are 0, 1 or -1 and others not, as a
 * constant matrix's rows are in v × M (a rotation built in the shader) —
 * the operation is split into scalar ones here, before the optimisation
 * loop, and the loop folds them:
 *
 *	32x4 %r = ffma (0.0, 1.0, 0.0, 0.0), %v.yyyy, %acc
 *	  → x: ffma 0.0, %v.y, %acc.x → %acc.x;  y: ffma 1.0, … → fadd …
 *
 * Everything else stays vector (splitting all of it changes the
 * allocation's footprint away from Mesa's, the `full` statistic).
 */
#include "compiler/ir3/ir3_nir.h"
#include "compiler/opt/opt.h"

static bool folds_per_component(const struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_fmul && alu->op != OP_ffma && alu->op != OP_fadd)
		return false;
	unsigned n = alu->def.num_components;
	if (n < 2)
		return false;
	for (unsigned i = 0; i < alu_op_infos[alu->op].num_inputs; i++) {
		struct load_const_instr *lc = ssa_def_as_const(alu->src[i].src.ssa);
		if (!lc || lc->instr.type != INSTR_load_const)
			continue;
		bool folds = false, mixed = false;
		uint64_t first = lc->value[alu->src[i].swizzle[0]];
		for (unsigned k = 0; k < n; k++) {
			uint64_t v = lc->value[alu->src[i].swizzle[k]];
			double f = ir_float_from_bits(v, lc->def.bit_size);
			folds |= f == 0.0 || f == 1.0 || f == -1.0;
			mixed |= v != first;
		}
		if (folds && mixed)
			return true;
	}
	return false;
}

bool lower_ir3_fold_scalar(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	return lower_alu_to_scalar_filter(s, folds_per_component, NULL);
}
