/*
 * The per-target part of the IR pipeline for etnaviv, a readable list of
 * passes run with the pipeline's PASS() (validation after each,
 * --print-after dumps), in the order of Mesa's etna_compile_shader and the
 * options of etna_compiler_create (../../shared/reference/targets.md §4.3):
 *
 *	opt_dead_shared                        (the state tracker's
 *	                                        nir_remove_dead_variables)
 *	lower_io_to_temps, lower_vars_to_ssa   (lower_all_io_to_temps)
 *	lower_locals_to_selects,               (nir_lower_indirect_derefs)
 *	lower_vars_to_ssa
 *	lower_samplers                         (the state tracker's
 *	                                        nir_lower_samplers: a dynamic
 *	                                        texture index clamped)
 *	lower_tex_projector                    (etna_nir_lower_texture: txp)
 *	lower_txs_lod                          (… and lower_txs_lod)
 *	lower_etna_sysvals                     (no start instance: the base
 *	                                        instance is 0)
 *	lower_fpow … lower_find_msb            (the lower_* options: fpow,
 *	                                        flrp32, fmod, idiv on HALTI2+,
 *	                                        fdiv always, bitops, mul_high,
 *	                                        ldexp, find_lsb, [iu]find_msb
 *	                                        with has_uclz)
 *	lower_etna_alu                         (ftrunc, fround_even, fsub,
 *	                                        vector compares, bool casts)
 *	lower_etna_scalar                      (etna_alu_to_scalar_filter_cb)
 *	opt_fuse_ffma, opt_loop                (fuse_ffma32, etna_optimize_loop)
 *	opt_undef, opt_conditional_discard     (the GL state tracker's loop has
 *	                                        them; the loop again after)
 *	opt_shrink_vectors                     (… and its nir_opt_shrink_vectors)
 *	lower_etna_int_to_float                (HALTI0: nir_lower_int_to_float)
 *	lower_etna_alu                         (what the loop re-formed)
 *	opt_vectorize                          (until no progress, as Mesa)
 *	lower_etna_scalar                      (the scalar-only ops again)
 *	opt_ffma_reassoc                       (nir_opt_algebraic_late)
 *	lower_etna_transcendental              (etna_lower_alu: sin/cos scale,
 *	                                        fast transcendentals as vec2)
 *	opt_dce
 *
 * Selection does the rest of etna_lower_io: lod or bias packed with the
 * coordinate before HALTI5, front face compared with 0.
 */
#include "compiler/etna/etna_nir.h"
#include "compiler/opt/opt.h"

void etna_lower_nir(struct pipeline *pl, const struct etna_lowering *t)
{
	bool progress = false;
	PASS(progress, pl, opt_dead_shared);
	PASS(progress, pl, lower_io_to_temps);
	PASS(progress, pl, lower_vars_to_ssa);
	PASS(progress, pl, lower_locals_to_selects);
	PASS(progress, pl, lower_vars_to_ssa);
	PASS(progress, pl, lower_samplers);
	PASS(progress, pl, lower_tex_projector);
	PASS(progress, pl, lower_txs_lod);
	PASS(progress, pl, lower_etna_sysvals, t);
	PASS(progress, pl, lower_fpow);
	PASS(progress, pl, lower_flrp);
	PASS(progress, pl, lower_fmod);
	PASS(progress, pl, lower_frem);
	if (t->has_integers)
		PASS(progress, pl, lower_idiv);
	PASS(progress, pl, lower_fdiv);
	PASS(progress, pl, lower_bitfield);
	PASS(progress, pl, lower_mul_high);
	PASS(progress, pl, lower_ldexp);
	PASS(progress, pl, lower_find_msb);
	PASS(progress, pl, lower_etna_alu, t);
	PASS(progress, pl, lower_etna_scalar, t);
	PASS(progress, pl, opt_fuse_ffma);
	opt_loop(pl);
	bool again = false;
	PASS(again, pl, opt_undef);
	PASS(again, pl, opt_conditional_discard);
	if (again)
		opt_loop(pl);
	PASS(progress, pl, opt_shrink_vectors);
	PASS(progress, pl, opt_copy_prop);
	PASS(progress, pl, opt_dce);
	PASS(progress, pl, lower_etna_int_to_float, t);
	PASS(progress, pl, lower_etna_alu, t);
	/* while (OPT(s, nir_opt_vectorize)) — each run joins chains already */
	for (bool vec = true; vec && !pl->failed;) {
		vec = false;
		PASS(vec, pl, opt_vectorize);
	}
	PASS(progress, pl, lower_etna_scalar, t);
	PASS(progress, pl, opt_fuse_ffma);
	PASS(progress, pl, opt_ffma_reassoc);
	PASS(progress, pl, lower_etna_transcendental, t);
	PASS(progress, pl, opt_copy_prop);
	PASS(progress, pl, opt_dce);
	PASS(progress, pl, opt_cse);
	(void)progress;
}
