/*
 * What the ir3 backend needs to know about one Adreno GPU.  Every value comes
 * from ../shared/reference/targets.md §1 (Mesa's ir3_compiler.c and
 * freedreno_devices.py); passes ask these fields, never the generation or the
 * chip: every difference between GPUs is a named field here, set per
 * generation in the table (ir3_targets.c).  `gen` and `chip_id` are for
 * display only (`shdb targets`).
 */
#ifndef SHDB_IR3_INFO_H
#define SHDB_IR3_INFO_H

#include <stdbool.h>

#include "compiler/stage.h"

/* Delay slots, targets.md §1.2 and §1.6 (ir3_delay.c). */
struct ir3_delays {
	unsigned char alu_to_alu;	/* ALU → ALU, same register size */
	unsigned char non_alu;		/* ALU → flow/SFU/tex/mem consumer; a0/a1/p0 writers */
	unsigned char cat3_src2_read;	/* cat3 src2 is read this many cycles after issue */
	unsigned char half_full_penalty;/* extra delay on a half/full mismatch (merged regs) */
};

struct ir3_info {
	unsigned gen;			/* 3 … 7 (display only) */
	unsigned chip_id;		/* 306, 630, 740, … (display only) */

	/* occupancy, targets.md §1.3 */
	unsigned reg_size_vec4;		/* register file per fiber, in vec4 */
	unsigned threadsize_base;	/* fibers per wave */
	unsigned wave_granularity;
	unsigned max_waves;
	unsigned branchstack_size;
	bool supports_double_threadsize;

	/* code layout */
	unsigned instr_align;		/* instructions; dwords padded to this */

	/* const file, in vec4 */
	unsigned max_const_pipeline;
	unsigned max_const_geom;
	unsigned max_const_frag;
	unsigned max_const_compute;
	unsigned max_const_safe;
	unsigned constlen_align;	/* 1 (a3xx) or 4 */
	/* vec4: UBO ranges pushed to the const file start and end on this
	 * (Mesa's const_upload_unit: 8 on a3xx, 4 on a6xx+).  a4xx/a5xx keep 1:
	 * with 4 there, agreement with mesa-ir3-dev.tsv drops (constlen within
	 * 10% of Mesa: a420 56% → 51%, a530 61% → 57%), a layout difference
	 * not understood yet. */
	unsigned const_upload_unit;
	unsigned fs_min_constlen;	/* a725/a730/a735/a740 quirk: 4 */
	unsigned vs_min_constlen;	/* [new] Mesa: 8 on a6xx+; 0 here (24.3, ir3_targets.c) */

	unsigned cs_shared_mem_size;	/* bytes of local memory */
	unsigned num_predicates;

	/* features */
	bool mergedregs;		/* half regs alias the full file (a6xx+) */
	bool has_shared_regfile;	/* a5xx+ */
	bool has_scalar_alu;
	bool folds_relative;		/* a relative read (c<a0.x + n>, r<a0.x + n>) folds
					   into the instruction using it (a6xx+; Mesa's
					   ir3_valid_flags refuses RELATIV before) */
	bool has_pvtmem;		/* spilling through stp/ldp (a5xx+) */
	unsigned pvtmem_array_min;	/* with private memory, a dynamically indexed local
					   larger than this many bytes (natural size) goes
					   there, smaller ones stay ir3 arrays in registers
					   (Mesa's 16 × 16 of nir_lower_vars_to_scratch) */
	bool has_nop_flag;		/* (nopN) on cat2/cat3 (a6xx+) */
	bool has_predication;
	bool has_rpt_bary_f;
	bool has_preamble;
	bool has_fs_tex_prefetch;
	bool fold_conversions;		/* ir3_cf: all but a4xx */
	bool mediump_16bit;		/* a6xx+: mediump arithmetic (and fragment I/O) at 16 bits */
	bool tex_16bit;			/* a5xx+: texel fetches with 16-bit sources and results */
	bool has_isam_ssbo;		/* a6xx+: SSBO loads nothing writes may read through
					   the texture cache (isam) */
	bool has_isam_v;		/* a660+: isam.v reads a vector at a 1D offset; without
					   it those loads are scalar isams at (offset, 0) */
	bool has_ssbo_imm_offsets;	/* a660+: ldib/stib take an immediate element offset
					   below 128, isam.v below 256 */
	bool has_alias_tex;		/* a7xx */
	bool has_alias_rt;		/* a750 */
	bool tess_use_shared;		/* a650+: VS→TCS through ldl/stl, the TCS's local
					   primitive id at bit 16 of its header */
	bool predtf_nop_quirk;
	bool prede_nop_quirk;
	bool cs_lock_unlock;		/* a7xx: lock/unlock before a compute shader's
					   end (Mesa 24.3: gen >= 7; [new]: the
					   cs_lock_unlock_quirk of a7xx gen1 only) */

	/* instructions and encodings (Mesa: the field of the same name in
	 * ir3_compiler.h, else the generation test it replaces) */
	bool bool_16bit;		/* a5xx+: booleans are 16-bit (Mesa's bool_type) */
	bool is_64bit;			/* a5xx+: GPU addresses take two dwords (UBO
					   pointers, ldg/stg, global atomics) */
	bool cbits_16bit;		/* a5xx+: cbits.b counts at most 16 bits: a
					   32-bit count is two halves added */
	bool has_swz;			/* a5xx+: swz swaps two registers (else 3 xors) */
	bool array_index_add_half;	/* a4xx+: + 0.5 on a texture's array index */
	bool ubo_ldc;			/* a6xx+: UBOs read with ldc from their
					   descriptor; before, ldg from addresses in
					   the const file */
	bool ibo_ssbo;			/* a6xx+: SSBOs through ldib/stib/resinfo with
					   dword offsets; before, ldgb/stgb and bytes */
	bool has_ldg_a;			/* a6xx+: ldg.a/stg.a take an offset register */
	bool ldg_a_bytes;		/* a7xx: … counting bytes, so selection shifts a
					   dword offset left by 2 first (Mesa's
					   emit_intrinsic_load/store_global_ir3, gen >= 7) */
	bool flat_bypass;		/* flat varyings read with ldlv, not bary.f
					   (Mesa: a4xx+; modelled from a6xx) */
	bool inloc_per_vec4;		/* a6xx+: each varying slot takes 4 inlocs,
					   used or not; before, packed per component */
	bool has_demote;		/* a6xx+: demote (else kill) */
	bool has_eq_flag;		/* a6xx+: (eq) ends helper invocations early */
	bool cs_double_threadsize_to_fit;	/* before a6xx: a compute shader doubles
					   its threadsize only when its workgroup
					   would not fit otherwise */

	struct ir3_delays delay;
};

/* The GPU `t` as Mesa 24.3 compiles for it (shdb's --mesa 24.3): the a7xx
 * delays of 24.3 and no alias.tex/alias.rt, which came later; the same as `t`
 * on a3xx-a6xx.  Written into `buf`, which is returned. */
const struct ir3_info *ir3_info_mesa_24_3(const struct ir3_info *t, struct ir3_info *buf);

/* The vec4 of the const file a stage's shader may use (Mesa's
 * ir3_max_const() for a shader compiled alone: max_const_safe only binds a
 * variant recompiled to fit a pipeline). */
static inline unsigned ir3_stage_max_const(enum shader_stage stage, unsigned geom, unsigned frag,
					   unsigned compute)
{
	switch (stage) {
	case STAGE_FRAGMENT: return frag;
	case STAGE_COMPUTE: return compute;
	default: return geom;
	}
}

#endif
