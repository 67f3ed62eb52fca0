/*
 * The Vivante rows of the target table: one const struct etna_info per GPU,
 * named etna_<target> (compiler/targets.def lists the targets).  Values from
 * the NXP chip database entries Mesa's etnaviv reads and the limits it
 * derives (../shared/reference/targets.md §4.2: etna_get_specs,
 * etna_determine_uniform_limits, etna_compiler_create): the three GPUs of
 * ../shared/reference/mesa-etnaviv-dev.tsv, GC2000 (HALTI0, i.MX6Q), a
 * GC3000-class core (hwdb gc2000_ffff5450, HALTI2) and GC7000L (r6214,
 * HALTI5).
 */
#include "compiler/etna/etna_info.h"

/* Defaults every feature level shares; later macros override. */
#define ETNA_COMMON \
	.max_temps = 64, .max_instructions = 256, .max_vs_outputs = 16

/* HALTI0: 8 fragment and 4 vertex samplers, the vertex ones from 8
 * (etna_get_specs' halti < 1 branch). */
#define ETNA_HALTI0 ETNA_COMMON, .halti = 0, \
	.vertex_sampler_count = 4, .fragment_sampler_count = 8, .vertex_sampler_offset = 8

/* HALTI1+: 16 of each, the vertex ones from 16; HALTI2 adds its
 * instructions, integers, immediates, UBOs, the icache and the fast
 * transcendentals of these cores. */
#define ETNA_HALTI2 ETNA_COMMON, .halti = 2, \
	.vertex_sampler_count = 16, .fragment_sampler_count = 16, .vertex_sampler_offset = 16, \
	.has_icache = true, .max_vs_uniforms = 256, .max_ps_uniforms = 64, \
	.has_halti2_instructions = true, .has_new_transcendentals = true, .has_integers = true, \
	.has_immediates = true, .has_ubo = true

/* HALTI5: several uniforms per instruction, lod/bias as their own source. */
#define ETNA_HALTI5 ETNA_HALTI2, .halti = 5, .has_no_oneconst_limit = true, \
	.has_halti5_tex = true

const struct etna_info etna_gc2000 = {
	ETNA_HALTI0, .model = 0x2000, .revision = 0x5108,
	.max_vs_uniforms = 168, .max_ps_uniforms = 64, .max_varyings = 11,
};
const struct etna_info etna_gc3000 = {
	ETNA_HALTI2, .model = 0x2000, .revision = 0xffff5450, .max_varyings = 15,
};
const struct etna_info etna_gc7000 = {
	ETNA_HALTI5, .model = 0x7000, .revision = 0x6214, .max_varyings = 16,
	.max_vs_outputs = 32,
};
