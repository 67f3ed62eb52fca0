/*
 * What the etnaviv backend needs to know about one Vivante GPU: the
 * parameters that decide code and statistics, as Mesa's etnaviv driver
 * derives them from the chip database (../../shared/reference/targets.md
 * §4.2: etna_get_specs, etna_determine_uniform_limits,
 * etna_compiler_create).  Every difference between GPUs is a named field
 * here, set per feature level in the table (etna_targets.c); passes ask
 * these fields, never the chip.  `model`, `revision` and `halti` are for
 * display only (`shdb targets`).
 */
#ifndef SHDB_ETNA_INFO_H
#define SHDB_ETNA_INFO_H

#include <stdbool.h>

struct etna_info {
	unsigned model;			/* 0x2000, 0x7000: the chip id (display only) */
	unsigned revision;		/* 0x5108 … (display only) */
	unsigned halti;			/* 0, 2, 5: the feature level (display only) */

	/* limits (etna_compile_check_limits, etna_get_specs) */
	unsigned max_temps;		/* vec4 temporaries (max_registers, 64) */
	unsigned max_instructions;	/* without an instruction cache (256) */
	bool has_icache;		/* longer programs run from memory */
	unsigned max_vs_uniforms;	/* vec4 */
	unsigned max_ps_uniforms;
	unsigned max_varyings;
	unsigned max_vs_outputs;	/* position and point size included */
	unsigned vertex_sampler_count;	/* samplers a VS may use … */
	unsigned fragment_sampler_count;	/* … and an FS */
	unsigned vertex_sampler_offset;	/* VS texture ids follow the FS's */

	/* what the instruction set has */
	bool has_halti2_instructions;	/* dp2 and the other HALTI2 forms (else fdot2
					 * is a multiply and an add) */
	bool has_new_transcendentals;	/* fast div/log/sin/cos: a vec2 result and a mul */
	bool has_no_oneconst_limit;	/* an instruction may read several uniforms */
	bool has_integers;		/* HALTI2+: integer ALU (else ints as floats) */
	bool has_immediates;		/* HALTI2+: 20-bit inline immediates */
	bool has_halti5_tex;		/* HALTI5: lod/bias need not share the coordinate */
	bool has_ubo;			/* HALTI2+: LOAD from UBOs (else UBOs in uniforms) */
};

#endif
