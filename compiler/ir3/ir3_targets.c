/*
 * The Adreno rows of the target table: one const struct ir3_info per GPU,
 * named ir3_<target> (compiler/targets.def lists the targets).  Values from ../shared/reference/targets.md §1.2 (Mesa's
 * ir3_compiler.c `ir3_compiler_create` and freedreno_devices.py); a7xx uses the
 * newer, shorter delays of current Mesa ([new] `delay_slots`).
 *
 * Which Mesa.  Issue 5 asks for [new] Mesa's rules by name only where it
 * names them: the a7xx delays, alias.tex and alias.rt; ir3_info_mesa_24_3()
 * takes them back to 24.3's (`--mesa 24.3`).  Everything else
 * follows Mesa 24.3, the compiler ../shared/reference/mesa-ir3-dev.tsv was
 * made with: in particular no VS constlen minimum (newer Mesa pads a6xx+ VS
 * constlen to 8; 24.3 reports VS constlen 0 and 4 on a630, 596 of its VS).
 */
#include "compiler/ir3/ir3_info.h"

/* Defaults every generation shares; later macros override per generation. */
/* Mesa 24.3's delay slots, every generation's (ir3_delay.c before the
 * per-GPU delay_slots came); a7xx's are shorter in current Mesa. */
#define IR3_DELAYS_24_3 { .alu_to_alu = 3, .non_alu = 6, .cat3_src2_read = 2, .half_full_penalty = 3 }

#define IR3_COMMON \
	.max_waves = 16, .wave_granularity = 2, .branchstack_size = 64, \
	.supports_double_threadsize = true, \
	.max_const_pipeline = 512, .max_const_geom = 512, .max_const_frag = 512, \
	.max_const_compute = 512, .max_const_safe = 256, \
	.cs_shared_mem_size = 32 * 1024, .num_predicates = 1, .pvtmem_array_min = 16 * 16, \
	.instr_align = 16, .constlen_align = 4, .const_upload_unit = 1, \
	.delay = IR3_DELAYS_24_3

/* What each generation adds, and keeps after (ir3_info.h says what each does). */
#define IR3_FROM_A4XX .array_index_add_half = true
#define IR3_FROM_A5XX IR3_FROM_A4XX, .bool_16bit = true, .is_64bit = true, .cbits_16bit = true, \
	.has_swz = true
#define IR3_FROM_A6XX IR3_FROM_A5XX, .folds_relative = true, .ubo_ldc = true, .ibo_ssbo = true, .has_ldg_a = true, \
	.has_isam_ssbo = true, .flat_bypass = true, .inloc_per_vec4 = true, .has_demote = true, .has_eq_flag = true

#define IR3_BEFORE_A6XX .cs_double_threadsize_to_fit = true

#define IR3_A3XX IR3_COMMON, IR3_BEFORE_A6XX, .gen = 3, .threadsize_base = 8, .reg_size_vec4 = 96, \
	.instr_align = 4, .constlen_align = 1, .const_upload_unit = 8, .fold_conversions = true
#define IR3_A4XX IR3_COMMON, IR3_BEFORE_A6XX, IR3_FROM_A4XX, .gen = 4, .threadsize_base = 32, .reg_size_vec4 = 48
#define IR3_A5XX IR3_COMMON, IR3_BEFORE_A6XX, IR3_FROM_A5XX, .gen = 5, .threadsize_base = 32, .reg_size_vec4 = 48, \
	.has_shared_regfile = true, .has_pvtmem = true, .fold_conversions = true, .tex_16bit = true
#define IR3_A6XX IR3_COMMON, IR3_FROM_A6XX, .gen = 6, .threadsize_base = 64, .const_upload_unit = 4, \
	.max_const_compute = 256, .max_const_safe = 100, .num_predicates = 4, \
	.mergedregs = true, .has_shared_regfile = true, .has_pvtmem = true, .fold_conversions = true, \
	.mediump_16bit = true, .tex_16bit = true, \
	.has_nop_flag = true, .has_predication = true, .has_rpt_bary_f = true, \
	.has_preamble = true, .has_fs_tex_prefetch = true
#define IR3_A6XX_GEN1 IR3_A6XX, .reg_size_vec4 = 96
#define IR3_A6XX_GEN4 IR3_A6XX, .reg_size_vec4 = 64, .has_scalar_alu = true, .has_isam_v = true, \
	.has_ssbo_imm_offsets = true, .tess_use_shared = true, \
	.predtf_nop_quirk = true, .prede_nop_quirk = true
#define IR3_A7XX IR3_A6XX, .gen = 7, .reg_size_vec4 = 96, .max_const_compute = 512, \
	.has_scalar_alu = true, .has_isam_v = true, .has_ssbo_imm_offsets = true, \
	.has_alias_tex = true, .tess_use_shared = true, \
	.predtf_nop_quirk = true, .prede_nop_quirk = true, .cs_lock_unlock = true, .ldg_a_bytes = true, \
	.delay = { .alu_to_alu = 2, .non_alu = 5, .cat3_src2_read = 1, .half_full_penalty = 3 }

const struct ir3_info ir3_a306 = { IR3_A3XX, .chip_id = 306 };
const struct ir3_info ir3_a420 = { IR3_A4XX, .chip_id = 420 };
const struct ir3_info ir3_a530 = { IR3_A5XX, .chip_id = 530 };
const struct ir3_info ir3_a618 = { IR3_A6XX_GEN1, .chip_id = 618 };
const struct ir3_info ir3_a630 = { IR3_A6XX_GEN1, .chip_id = 630 };
const struct ir3_info ir3_a660 = { IR3_A6XX_GEN4, .chip_id = 660 };
const struct ir3_info ir3_a690 = { IR3_A6XX_GEN4, .chip_id = 690 };
const struct ir3_info ir3_a730 = { IR3_A7XX, .chip_id = 730, .fs_min_constlen = 4 };
const struct ir3_info ir3_a740 = { IR3_A7XX, .chip_id = 740, .fs_min_constlen = 4 };
const struct ir3_info ir3_a750 = { IR3_A7XX, .chip_id = 750, .has_alias_rt = true };

const struct ir3_info *ir3_info_mesa_24_3(const struct ir3_info *t, struct ir3_info *buf)
{
	*buf = *t;
	buf->delay = (struct ir3_delays)IR3_DELAYS_24_3;
	buf->has_alias_tex = false;	/* ir3_alias.c is newer than 24.3 */
	buf->has_alias_rt = false;
	return buf;
}
