/*
 * The per-target part of the IR pipeline for ir3 (targets.md §2.1), a
 * readable list of passes run with the pipeline's PASS() (validation after
 * each, --print-after dumps).  Order, as Mesa's:
 *
 *	lower_ir3_tess               (ir3_nir_lower_to_explicit_input,
 *	                              ir3_nir_lower_tess_ctrl/eval)
 *	lower_ir3_sysvals            (nir_lower_compute_system_values)
 *	lower_ir3_tex                (nir_lower_tex, ir3_nir_lower_array_sampler)
 *	lower_ir3_alu                (lower_alu_to_scalar's horizontal ops, the
 *	                              lower_* options)
 *	ir3_nir_analyze_ubo_ranges   (ranges, const layout; last, so it sees
 *	                              every UBO load)
 *
 * The generic passes Mesa runs here as well (idiv, pow, flrp, fmod, the
 * optimisation loop again) come from compiler/opt when they exist.
 */
#include "compiler/ir3/ir3_nir.h"
#include "compiler/opt/opt.h"

void ir3_lower_nir(struct pipeline *pl, const struct ir3_info *t, struct ir3_const_layout *layout)
{
	bool progress = false;
	PASS(progress, pl, lower_ir3_tess, t);
	PASS(progress, pl, lower_ir3_sysvals, t);
	PASS(progress, pl, lower_ir3_tex, t);
	PASS(progress, pl, lower_ir3_alu, t);
	PASS(progress, pl, ir3_nir_analyze_ubo_ranges, t, layout);
	(void)progress;
}
