/*
 * The per-target part of the IR pipeline for ir3 (targets.md §2.1), a
 * readable list of passes run with the pipeline's PASS() (validation after
 * each, --print-after dumps).  Order, as Mesa's:
 *
 *	opt_dead_shared              (nir_remove_dead_variables on shared
 *	                              memory: Mesa 24.3's front end drops
 *	                              shared stores nothing reads, as for
 *	                              etnaviv: functions.comp is 1 instruction)
 *	lower_ir3_io_8bit            (8-bit stage I/O as 16-bit: half registers)
 *	opt_algebraic                (its bit-op rules, which the shared
 *	                              pipeline leaves out: ir3 has no
 *	                              lower_bitops, so Mesa's state tracker
 *	                              made shifts and masks of powers of two)
 *	lower_ir3_tess               (ir3_nir_lower_to_explicit_input,
 *	                              ir3_nir_lower_tess_ctrl/eval)
 *	lower_ir3_gs                 (ir3_nir_lower_gs)
 *	lower_io_to_temps            (nir_lower_io_to_temporaries, outputs)
 *	lower_vars_to_ssa            (the temporaries become SSA values)
 *	lower_ir3_large_constants    (nir_opt_large_constants +
 *	                              ir3_nir_lower_load_constant)
 *	lower_ir3_mediump_locals     (a6xx+: Turnip's nir_lower_mediump_vars)
 *	lower_ir3_locals             (nir_lower_vars_to_scratch on a5xx+ of
 *	                              locals > 256 bytes; the rest become ir3
 *	                              arrays in selection, as Mesa's
 *	                              nir_lower_locals_to_regs), lower_vars_to_ssa
 *	                              again
 *	lower_ir3_sysvals            (nir_lower_compute_system_values)
 *	lower_tex_projector          (nir_lower_tex, ir3_nir_lower_array_sampler)
 *	lower_ir3_tex
 *	lower_ir3_interp             (ir3_nir_lower_load_barycentric_at_offset,
 *	                              _at_sample)
 *	lower_ir3_mediump_io         (a6xx+: spirv_to_nir's mediump_16bit_alu;
 *	                              fragment shaders: ir3_nir_post_finalize's
 *	                              nir_lower_mediump_io)
 *	lower_ir3_trig               (ir3_nir_apply_trig_workarounds: sin and cos
 *	                              of the argument reduced to one period)
 *	lower_ir3_subgroups          (nir_lower_subgroups)
 *	lower_ir3_ssbo_scalar        (a6xx without isam.v: isam's SSBO loads
 *	                              scalar, ir3_nir_should_scalarize_mem)
 *	lower_ir3_int64              (ir3_nir_lower_64b_intrinsics,
 *	                              nir_lower_int64)
 *	lower_fpow … lower_ldexp     (the generic lowerings behind
 *	                              ir3_base_options' lower_* flags)
 *	lower_ir3_alu                (lower_alu_to_scalar's horizontal ops, the
 *	                              ops ir3 lacks)
 *	lower_ir3_fold_scalar        (lower_alu_to_scalar where a constant's
 *	                              components fold differently)
 *	opt_fuse_ffma_scalar         (nir_opt_algebraic's fuse_ffma rules, after
 *	                              Mesa's lower_alu_to_scalar: per component)
 *	ir3_nir_load_store_vectorize (the loop's nir_opt_load_store_vectorize:
 *	                              before it, and after it again with the
 *	                              loop once more if that combined any)
 *	opt_loop                     (ir3_optimize_loop again)
 *	lower_ir3_alu                (what the loop's algebra re-forms: fltu …)
 *	ir3_nir_opt_preamble         (a6xx+: uniform work to the preamble;
 *	                              before the UBO ranges, which it takes
 *	                              room from), opt_dce (what it replaced)
 *	ir3_nir_opt_16bit_tex        (a5xx+: the end of ir3_nir_lower_variant's
 *	                              nir_opt_16bit_tex_image, then copy
 *	                              propagation and DCE)
 *	ir3_nir_analyze_ubo_ranges   (ranges, const layout; late, so it sees
 *	                              every UBO load)
 *	lower_ir3_ubo_vec4           (a6xx+: what is left for ldc in whole vec4s)
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"
#include "compiler/opt/opt.h"

void ir3_lower_nir(struct pipeline *pl, const struct ir3_lowering *t, struct ir3_const_layout *layout)
{
	bool progress = false;
	pl->shader->info.algebraic_bitops = true;
	PASS(progress, pl, opt_dead_shared);
	PASS(progress, pl, lower_ir3_io_8bit, t);
	PASS(progress, pl, opt_algebraic);
	PASS(progress, pl, lower_ir3_tess, t);
	PASS(progress, pl, lower_ir3_gs, t);
	PASS(progress, pl, lower_io_to_temps);
	PASS(progress, pl, lower_vars_to_ssa);
	PASS(progress, pl, lower_ir3_large_constants, t, layout);
	PASS(progress, pl, lower_ir3_mediump_locals, t);
	PASS(progress, pl, lower_ir3_locals, t);
	PASS(progress, pl, lower_vars_to_ssa);
	PASS(progress, pl, lower_ir3_sysvals, t);
	PASS(progress, pl, lower_tex_projector);
	PASS(progress, pl, lower_ir3_tex, t);
	PASS(progress, pl, lower_ir3_interp, t);
	PASS(progress, pl, lower_ir3_mediump_io, t);
	PASS(progress, pl, lower_ir3_trig, t);
	PASS(progress, pl, lower_ir3_subgroups, t);
	PASS(progress, pl, lower_ir3_ssbo_scalar, t);
	PASS(progress, pl, lower_ir3_int64, t);
	PASS(progress, pl, lower_fpow);
	PASS(progress, pl, lower_flrp);
	PASS(progress, pl, lower_fmod);
	PASS(progress, pl, lower_frem);
	PASS(progress, pl, lower_idiv);
	PASS(progress, pl, lower_fdiv);
	PASS(progress, pl, lower_ffract);
	PASS(progress, pl, lower_isign);
	PASS(progress, pl, lower_bitfield);
	PASS(progress, pl, lower_mul_high);
	PASS(progress, pl, lower_ldexp);
	PASS(progress, pl, lower_ir3_alu, t);
	PASS(progress, pl, lower_ir3_fold_scalar, t);
	PASS(progress, pl, opt_fuse_ffma_scalar);
	PASS(progress, pl, ir3_nir_load_store_vectorize, t);
	opt_loop(pl);
	/* what the loop folded (offsets of lowered system values) may make
	 * more accesses adjacent: Mesa's vectorizer runs in each round */
	bool more = false;
	PASS(more, pl, ir3_nir_load_store_vectorize, t);
	if (more)
		opt_loop(pl);
	PASS(progress, pl, lower_ir3_alu, t);
	PASS(progress, pl, ir3_nir_opt_preamble, t);
	PASS(progress, pl, opt_dce);
	PASS(progress, pl, ir3_nir_opt_16bit_tex, t);
	PASS(progress, pl, ir3_nir_analyze_ubo_ranges, t, layout);
	PASS(progress, pl, lower_ir3_ubo_vec4, t);
	(void)progress;
}

/* Mesa's ir3_nir_should_vectorize_mem: a UBO access of dwords within one
 * vec4 (its worst placement given the alignment), anything else of at most
 * 4 components of at most 32 bits, aligned to a component; not an SSBO load
 * isam can take (nothing writes it) on a GPU without isam.v, which stays
 * scalar for the texture cache. */
static bool vectorize_ok(const struct intrinsic_instr *low, unsigned bits, unsigned n,
			 unsigned align_mul, unsigned align_offset, const void *data)
{
	const struct ir3_lowering *t = data;
	unsigned bytes = bits / 8;
	if (low->op == INTR_load_ubo) {
		if (bits != 32)
			return false;
		align_mul = align_mul < 16 ? align_mul : 16;
		align_offset &= 15;
		return align_mul >= 4 && 16 - align_mul + align_offset + n * bytes <= 16;
	}
	if (low->op == INTR_load_ssbo && t->has_isam_ssbo && !t->has_isam_v &&
	    ((unsigned)intrinsic_get(low, INTR_IDX_access) & ACCESS_CAN_REORDER))
		return false;
	return bits <= 32 && bytes && align_mul >= bytes && align_offset % bytes == 0 && n <= 4;
}

bool ir3_nir_load_store_vectorize(struct shader *s, const struct ir3_lowering *t)
{
	const struct vectorize_mem_options o = { vectorize_ok, t };
	return opt_load_store_vectorize(s, &o);
}

/* Mesa's ir3 options: coordinates, lod, bias, offset, comparator, min_lod,
 * sample index and derivatives (opt_16bit_tex narrows the float ones). */
bool ir3_nir_opt_16bit_tex(struct shader *s, const struct ir3_lowering *t)
{
	if (!t->tex_16bit)
		return false;
	unsigned srcs = 1u << TEX_SRC_coord | 1u << TEX_SRC_lod | 1u << TEX_SRC_bias |
			1u << TEX_SRC_offset | 1u << TEX_SRC_comparator | 1u << TEX_SRC_min_lod |
			1u << TEX_SRC_ms_index | 1u << TEX_SRC_ddx | 1u << TEX_SRC_ddy;
	if (!opt_16bit_tex(s, srcs))
		return false;
	opt_copy_prop(s);
	opt_dce(s);
	return true;
}

/* ---- 16-bit narrowing shared by the mediump lowerings ---- */

/* Component `c` of `d` at 16 bits: a constant's narrowed, a widened 16-bit
 * value's own (Mesa's algebraic folds f2f16(f2f32(a@16)) to a), else an
 * f2f16 of it. */
struct ssa_def *ir3_nir_narrow16_comp(struct builder *b, struct ssa_def *d, unsigned c)
{
	struct load_const_instr *k = ssa_def_as_const(d);
	if (k) {
		uint64_t v = ir_float_to_bits(ir_float_from_bits(k->value[c], 32), 16);
		return b_const(b, 1, 16, &v);
	}
	if (d->parent->type == INSTR_alu) {
		struct alu_instr *a = instr_as_alu(d->parent);
		if (a->op == OP_f2f32 && a->src[0].src.ssa->bit_size == 16)
			return b_channel(b, a->src[0].src.ssa, a->src[0].swizzle[c]);
	}
	return b_f2f16(b, b_channel(b, d, c));
}

/* A value a store writes (an output, a mediump local), narrowed component
 * by component through the vecN or mov that assembles it (Mesa narrows after
 * lower_alu_to_scalar, where each component folds on its own). */
struct ssa_def *ir3_nir_narrow16(struct builder *b, struct ssa_def *v)
{
	struct ssa_def *c[16];
	struct alu_instr *a = v->parent->type == INSTR_alu ? instr_as_alu(v->parent) : NULL;
	bool vec = a && (a->op == OP_mov || a->op == OP_vec2 || a->op == OP_vec3 || a->op == OP_vec4);
	for (unsigned k = 0; k < v->num_components; k++)
		c[k] = vec ? ir3_nir_narrow16_comp(b, a->src[a->op == OP_mov ? 0 : k].src.ssa,
						   a->src[a->op == OP_mov ? 0 : k].swizzle[a->op == OP_mov ? k : 0])
			   : ir3_nir_narrow16_comp(b, v, k);
	return b_vec(b, c, v->num_components);
}
