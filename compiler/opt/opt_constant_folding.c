/*
 * opt_constant_folding: an ALU instruction whose sources are all constants
 * becomes a load_const of its result, computed by the opcode table's
 * folder (alu_instr_fold_const(), so the result is exactly what the
 * interpreter computes: division by zero, shifts, NaNs … as alu_ops.def
 * documents).  Swizzles are applied; the folded instruction is removed.
 *
 *	32  %1 = load_const 0x40000000  # 2.0
 *	32  %2 = fmul %1, %1		=>	32 %3 = load_const 0x40800000  # 4.0
 *
 * Uses move to the new constant, so folding cascades through a block in
 * one walk.
 */
#include "compiler/opt/opt.h"

static bool fold_alu(struct alu_instr *alu)
{
	uint64_t value[16];
	if (!alu_instr_fold_const(alu, value))
		return false;
	struct load_const_instr *lc =
		load_const_instr_create(alu->instr.shader, alu->def.num_components, alu->def.bit_size);
	for (unsigned c = 0; c < alu->def.num_components; c++)
		lc->value[c] = value[c];
	instr_insert(cursor_before_instr(&alu->instr), &lc->instr);
	ssa_def_rewrite_uses(&alu->def, &lc->def);
	instr_remove(&alu->instr);
	return true;
}

bool opt_constant_folding(struct shader *s)
{
	bool progress = false;
	foreach_block(b, s->fn)
		foreach_instr_safe(i, b)
			if (i->type == INSTR_alu)
				progress |= fold_alu(instr_as_alu(i));
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
