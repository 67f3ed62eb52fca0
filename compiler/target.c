/*
 * The target table.  Values from ../shared/reference/targets.md §1.2 (Mesa's
 * ir3_compiler.c `ir3_compiler_create` and freedreno_devices.py); a7xx uses the
 * newer, shorter delays of current Mesa ([new] `delay_slots`).
 *
 * Which Mesa.  Issue 5 asks for [new] Mesa's rules by name only where it
 * names them: the a7xx delays, alias.tex and alias.rt.  Everything else
 * follows Mesa 24.3, the compiler ../shared/reference/mesa-ir3-dev.tsv was
 * made with: in particular no VS constlen minimum (newer Mesa pads a6xx+ VS
 * constlen to 8; 24.3 reports VS constlen 0 and 4 on a630, 596 of its VS).
 */
#include "compiler/target.h"

#include <string.h>

/* Defaults every generation shares; later macros override per generation. */
#define IR3_COMMON \
	.max_waves = 16, .wave_granularity = 2, .branchstack_size = 64, \
	.supports_double_threadsize = true, \
	.max_const_pipeline = 512, .max_const_geom = 512, .max_const_frag = 512, \
	.max_const_compute = 512, .max_const_safe = 256, \
	.cs_shared_mem_size = 32 * 1024, .num_predicates = 1, \
	.instr_align = 16, .constlen_align = 4, .const_upload_unit = 1, \
	.delay = { .alu_to_alu = 3, .non_alu = 6, .cat3_src2_read = 2, .half_full_penalty = 3 }

#define IR3_A3XX IR3_COMMON, .gen = 3, .threadsize_base = 8, .reg_size_vec4 = 96, \
	.instr_align = 4, .constlen_align = 1, .const_upload_unit = 8
#define IR3_A4XX IR3_COMMON, .gen = 4, .threadsize_base = 32, .reg_size_vec4 = 48
#define IR3_A5XX IR3_COMMON, .gen = 5, .threadsize_base = 32, .reg_size_vec4 = 48, \
	.has_shared_regfile = true, .has_pvtmem = true
#define IR3_A6XX IR3_COMMON, .gen = 6, .threadsize_base = 64, .const_upload_unit = 4, \
	.max_const_compute = 256, .max_const_safe = 100, .num_predicates = 4, \
	.mergedregs = true, .has_shared_regfile = true, .has_pvtmem = true, \
	.has_nop_flag = true, .has_predication = true, .has_rpt_bary_f = true, \
	.has_preamble = true, .has_fs_tex_prefetch = true
#define IR3_A6XX_GEN1 IR3_A6XX, .reg_size_vec4 = 96
#define IR3_A6XX_GEN4 IR3_A6XX, .reg_size_vec4 = 64, .has_scalar_alu = true, \
	.tess_use_shared = true, \
	.predtf_nop_quirk = true, .prede_nop_quirk = true
#define IR3_A7XX IR3_A6XX, .gen = 7, .reg_size_vec4 = 96, .max_const_compute = 512, \
	.has_scalar_alu = true, .has_alias_tex = true, .tess_use_shared = true, \
	.predtf_nop_quirk = true, .prede_nop_quirk = true, \
	.delay = { .alu_to_alu = 2, .non_alu = 5, .cat3_src2_read = 1, .half_full_penalty = 3 }

static const struct ir3_info a306 = { IR3_A3XX, .chip_id = 306 };
static const struct ir3_info a420 = { IR3_A4XX, .chip_id = 420 };
static const struct ir3_info a530 = { IR3_A5XX, .chip_id = 530 };
static const struct ir3_info a618 = { IR3_A6XX_GEN1, .chip_id = 618 };
static const struct ir3_info a630 = { IR3_A6XX_GEN1, .chip_id = 630 };
static const struct ir3_info a660 = { IR3_A6XX_GEN4, .chip_id = 660 };
static const struct ir3_info a690 = { IR3_A6XX_GEN4, .chip_id = 690 };
static const struct ir3_info a730 = { IR3_A7XX, .chip_id = 730, .fs_min_constlen = 4 };
static const struct ir3_info a740 = { IR3_A7XX, .chip_id = 740, .fs_min_constlen = 4 };
static const struct ir3_info a750 = { IR3_A7XX, .chip_id = 750, .has_alias_rt = true };

#define IR3_TARGET(n, desc) \
	(&(const struct target){ .name = #n, .description = desc, \
				 .family = TARGET_FAMILY_IR3, .ir3 = &n })

const struct target *const targets[] = {
	IR3_TARGET(a306, "Adreno 306 (a3xx)"),
	IR3_TARGET(a420, "Adreno 420 (a4xx)"),
	IR3_TARGET(a530, "Adreno 530 (a5xx)"),
	IR3_TARGET(a618, "Adreno 618 (a6xx gen1)"),
	IR3_TARGET(a630, "Adreno 630 (a6xx gen1)"),
	IR3_TARGET(a660, "Adreno 660 (a6xx gen4)"),
	IR3_TARGET(a690, "Adreno 690 (a6xx gen4)"),
	IR3_TARGET(a730, "Adreno 730 (a7xx gen1)"),
	IR3_TARGET(a740, "Adreno 740 (a7xx gen2)"),
	IR3_TARGET(a750, "Adreno 750 (a7xx gen3)"),
};

const size_t num_targets = sizeof(targets) / sizeof(targets[0]);

const struct target *target_find(const char *name)
{
	for (size_t i = 0; i < num_targets; i++)
		if (!strcmp(targets[i]->name, name))
			return targets[i];
	return NULL;
}

const char *target_family_name(enum target_family f)
{
	switch (f) {
	case TARGET_FAMILY_IR3:
		return "ir3";
	}
	return "?";
}
