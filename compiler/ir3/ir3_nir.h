/*
 * The IR side of the ir3 backend: the lowering passes Mesa runs on NIR for
 * ir3 (targets.md §2.1: ir3_finalize_nir, ir3_nir_post_finalize,
 * ir3_nir_lower_variant) and instruction selection from the IR to the
 * machine IR (ir3.h).  compile.c runs, per target, on a clone of the
 * optimised shader:
 *
 *	ir3_lower_nir()  →  ir3_isel()  →  ir3_compile_machine()
 *
 * What runs where.  Everything here is per target: the passes that depend
 * on the GPU (texture lowering, UBO ranges, locals) and those that
 * do not but only ir3 wants (dot products scalarised into mul/mad, fdiv as
 * rcp+mul).  Target-independent optimisation runs once per file before
 * (compiler/opt, opt_default).  The lowering sees only ir3_lowering_view()
 * of its target, so one lowered shader serves every target with the same
 * view (a618 and a630 share one, a660 … a750 another); selection and the
 * backend see the whole target.
 *
 * The const file (targets.md §2.1, ir3_setup_const_state), in vec4:
 *
 *	[0, user)            push constants / loose uniforms (load_uniform,
 *	                     load_push_constant: byte offsets from c0.x)
 *	[user, ubo_end)      UBO ranges pushed by ir3_nir_analyze_ubo_ranges
 *	[preamble, …)        a6xx+: the values the preamble stores
 *	                     (ir3_nir_opt_preamble: load/store_preamble)
 *	[ubo_ptrs, …)        a3xx–a5xx: UBO addresses for ldg (2 dwords each
 *	                     from a5xx, 1 before)
 *	[driver, …)          driver params (VS base vertex/instance, draw id;
 *	                     CS number of workgroups)
 *	[primitive, …)       TCS/TES: 2 vec4 of primitive params, GS: 1, then
 *	                     the primitive map (one dword per input slot)
 *	[const_size, …)      immediates the backend lowers (ir3_const_add_imm)
 *
 * After ir3_nir_analyze_ubo_ranges a pushed load_ubo is a load_uniform
 * whose base is its byte offset in the const file.
 */
#ifndef SHDB_IR3_NIR_H
#define SHDB_IR3_NIR_H

#include <stdbool.h>
#include <string.h>

#include "compiler/ir/ir.h"
#include "compiler/ir3/ir3_info.h"

struct pipeline;
struct ir3;
struct arena;
struct strbuf;

#define IR3_MAX_UBO_RANGES 32

/* One UBO range pushed to the const file (Mesa's ir3_ubo_range). */
struct ir3_ubo_range {
	unsigned slot;			/* the UBO */
	unsigned start, end;		/* bytes in the UBO, 16-byte aligned */
	unsigned offset;		/* bytes in the const file */
};

struct ir3_const_layout {
	unsigned user_vec4;		/* push constants / loose uniforms */
	struct ir3_ubo_range ranges[IR3_MAX_UBO_RANGES];
	unsigned num_ranges;
	unsigned ubo_vec4;		/* end of the pushed ranges */
	unsigned preamble_vec4;		/* the preamble's values start here … */
	unsigned preamble_size_vec4;	/* … and take this much */
	unsigned num_ubos;		/* UBO slots the shader has (pointers, a3xx–a5xx) */
	bool ubo_ptrs;			/* ldg reads UBO addresses from the const file */
	unsigned ubo_ptr_vec4;		/* where they start */
	unsigned driver_vec4;		/* where the driver params start */
	unsigned num_driver_params;	/* dwords */
	/* tessellation and geometry (Mesa's offsets.primitive_param/_map) */
	unsigned primitive_param_vec4;	/* IR3_PP_* dwords */
	unsigned primitive_map_vec4;	/* the producer's slot locations */
	unsigned size_vec4;		/* const_size: everything before the immediates */
	/* the constant data UBO (lower_ir3_large_constants), -1 none: loads
	 * at dynamic offsets push its whole range */
	int const_data_slot;
	unsigned const_data_size;
	uint8_t *const_data;		/* its bytes (the lowered shader's arena) */
};

/* Driver params (Mesa 24.3's ir3_driver_param), dword offsets from
 * driver_vec4, per stage; the block is as long as the highest one the
 * shader reads, in whole vec4 (ir3_nir_scan_driver_consts). */
enum {
	/* vertex */
	IR3_DP_DRAWID = 0, IR3_DP_VTXID_BASE = 1, IR3_DP_INSTID_BASE = 2,
	/* compute */
	IR3_DP_NUM_WORK_GROUPS_X = 0, IR3_DP_CS_SUBGROUP_SIZE = 7, IR3_DP_SUBGROUP_ID_SHIFT = 11,
	IR3_DP_WORKGROUP_ID_X = 12,	/* a3xx/a4xx: the hardware injects it there */
	/* fragment */
	IR3_DP_FS_SUBGROUP_SIZE = 0, IR3_DP_FS_FRAG_INVOCATION_COUNT = 4, IR3_DP_FS_FRAG_SIZE = 8,
};
/* The driver param an intrinsic reads in `stage` (its first dword), or -1;
 * `shared_regfile`: the target has one (the workgroup id comes in a shared
 * register there, else in driver params). */
int ir3_driver_param(enum shader_stage stage, enum intrinsic op, bool shared_regfile);

/* The primitive param block of TCS, TES and GS (dwords; GS has the first
 * vec4 only) and the largest primitive map (Mesa's unique varying index). */
enum {
	IR3_PP_VS_PRIMITIVE_STRIDE = 0, IR3_PP_VS_VERTEX_STRIDE = 1,
	IR3_PP_HS_PATCH_STRIDE = 2, IR3_PP_PATCH_VERTICES_IN = 3,
	IR3_PP_TESS_PARAM_BASE = 4, IR3_PP_TESS_FACTOR_BASE = 6,
};
#define IR3_MAX_MAP_SLOTS (13 + 32)

/*
 * What of a target the lowering may see: a struct of its own, so a lowering
 * that reads any other field of ir3_info does not build.  Every field is
 * named once, in IR3_LOWERING_FIELDS, which both declares it and copies it
 * from the target (ir3_lowering_view), so none can be declared and left
 * uncopied.  Targets with equal views get the same lowered shader and const
 * layout, and compile.c lowers once for all of them (ir3_shader.c): a618 and
 * a630 share one, a660 … a750 another.  A lowering that needs another target
 * field adds one line here.
 */
#define IR3_LOWERING_FIELDS(X) \
	X(bool, array_index_add_half)	/* lower_ir3_tex */ \
	X(bool, ubo_ldc)		/* UBO ranges without pointers; lower_ir3_ubo_vec4 */ \
	X(bool, is_64bit)		/* UBO pointer size */ \
	X(unsigned, max_const_geom)	/* UBO ranges pushed up to the stage's … */ \
	X(unsigned, max_const_frag) \
	X(unsigned, max_const_compute) \
	X(unsigned, const_upload_unit)	/* … and their alignment */ \
	X(bool, has_pvtmem)		/* large locals to scratch (lower_ir3_locals) … */ \
	X(unsigned, pvtmem_array_min)	/* … above this many bytes */ \
	X(bool, tess_use_shared)	/* VS → TCS through local memory */ \
	X(bool, has_preamble)		/* ir3_nir_opt_preamble */ \
	X(bool, has_isam_ssbo)		/* ir3_nir_load_store_vectorize, lower_ir3_ssbo_scalar */ \
	X(bool, has_isam_v) \
	X(bool, has_shared_regfile)	/* workgroup id: a shared register, or driver params */ \
	X(bool, mediump_16bit)		/* lower_ir3_mediump_io */ \
	X(bool, tex_16bit)		/* ir3_nir_opt_16bit_tex */

struct ir3_lowering {
#define IR3_LOWERING_FIELD(type, name) type name;
	IR3_LOWERING_FIELDS(IR3_LOWERING_FIELD)
#undef IR3_LOWERING_FIELD
};

static inline struct ir3_lowering ir3_lowering_view(const struct ir3_info *t)
{
	struct ir3_lowering v;
	memset(&v, 0, sizeof(v));	/* padding too: views are compared with memcmp */
#define IR3_LOWERING_FIELD(type, name) v.name = t->name;
	IR3_LOWERING_FIELDS(IR3_LOWERING_FIELD)
#undef IR3_LOWERING_FIELD
	return v;
}

/* ---- the lowering passes (one per file), each `bool pass(shader, …)` ---- */

/* SSBO loads isam will read, one component each where there is no isam.v
 * (Mesa's nir_lower_io_to_scalar with ir3_nir_should_scalarize_mem;
 * lower_ir3_ssbo_scalar.c). */
bool lower_ir3_ssbo_scalar(struct shader *s, const struct ir3_lowering *t);
/* 8-bit stage inputs and outputs carried as 16-bit ones: ir3 keeps 8-bit
 * values in half registers (lower_ir3_io_8bit.c). */
bool lower_ir3_io_8bit(struct shader *s, const struct ir3_lowering *t);
/* a6xx+: mediump arithmetic at 16 bits; fragment shaders' mediump inputs
 * (not flat) and outputs too (lower_ir3_mediump_io.c). */
bool lower_ir3_mediump_io(struct shader *s, const struct ir3_lowering *t);
/* a6xx+: mediump float locals at 16 bits (lower_ir3_mediump_locals.c). */
bool lower_ir3_mediump_locals(struct shader *s, const struct ir3_lowering *t);
/* Component `c` of `d` at 16 bits (a constant narrowed, a widened 16-bit
 * value's own, else an f2f16), and a whole value so through the vecN or mov
 * that assembles it (ir3_nir.c; the mediump lowerings). */
struct builder;
struct ssa_def *ir3_nir_narrow16_comp(struct builder *b, struct ssa_def *d, unsigned c);
struct ssa_def *ir3_nir_narrow16(struct builder *b, struct ssa_def *v);
/* sin and cos of an argument reduced to one period (lower_ir3_trig.c). */
bool lower_ir3_trig(struct shader *s, const struct ir3_lowering *t);
/* a5xx+: texel fetches at 16 bits where the shader wants 16 (opt_16bit_tex
 * with Mesa's sources for ir3). */
bool ir3_nir_opt_16bit_tex(struct shader *s, const struct ir3_lowering *t);
/* Horizontal and missing ALU ops: fdot → fmul/ffma, ball/bany → compares,
 * fdiv → frcp+fmul, ffract, isign, bitfield ops to shifts, pack/unpack of
 * halves (lower_ir3_alu.c). */
bool lower_ir3_alu(struct shader *s, const struct ir3_lowering *t);
/* A float product or sum reading a constant whose components fold
 * differently (0, 1, -1 and others), split into scalar ones as Mesa's
 * lower_alu_to_scalar leaves every op (lower_ir3_fold_scalar.c). */
bool lower_ir3_fold_scalar(struct shader *s, const struct ir3_lowering *t);
/* Compute and vertex system values ir3 builds from others
 * (lower_ir3_sysvals.c). */
bool lower_ir3_sysvals(struct shader *s, const struct ir3_lowering *t);
/* txp, the array index + 0.5 on a4xx+, explicit lod for txf
 * (lower_ir3_tex.c). */
bool lower_ir3_tex(struct shader *s, const struct ir3_lowering *t);
/* a6xx+: 32-bit UBO loads ldc cannot take as they are (a dynamic offset
 * not known to stay in one vec4) to whole-vec4 loads and a choice of
 * components, as nir_lower_ubo_vec4 (lower_ir3_ubo_vec4.c). */
bool lower_ir3_ubo_vec4(struct shader *s, const struct ir3_lowering *t);
/* Geometry shader emission: one vertex per fibre (lower_ir3_gs.c). */
bool lower_ir3_gs(struct shader *s, const struct ir3_lowering *t);
/* Constant local arrays to a constant data UBO (lower_ir3_large_constants.c);
 * sets layout's const_data_*. */
bool lower_ir3_large_constants(struct shader *s, const struct ir3_lowering *t,
			       struct ir3_const_layout *layout);
/* Dynamically indexed local arrays larger than pvtmem_array_min bytes to
 * scratch on a5xx+; the others stay for selection's ir3 arrays
 * (lower_ir3_locals.c). */
bool lower_ir3_locals(struct shader *s, const struct ir3_lowering *t);
/* Adjacent UBO and SSBO accesses as one (opt_load_store_vectorize with
 * Mesa's ir3_nir_should_vectorize_mem; ir3_nir.c). */
bool ir3_nir_load_store_vectorize(struct shader *s, const struct ir3_lowering *t);
/* 64-bit integers and memory accesses as 32-bit halves (lower_ir3_int64.c). */
bool lower_ir3_int64(struct shader *s, const struct ir3_lowering *t);
/* Interpolation at an offset or a sample as arithmetic on the barycentrics
 * (lower_ir3_interp.c). */
bool lower_ir3_interp(struct shader *s, const struct ir3_lowering *t);
/* Subgroup operations from ballot/vote/elect/read_first
 * (lower_ir3_subgroups.c). */
bool lower_ir3_subgroups(struct shader *s, const struct ir3_lowering *t);
/* Mesa's shader_io_get_unique_index: the primitive map's slot of a varying
 * (position 0, point size 1, clip/cull distances 7-8, layer 10, viewport
 * 11, shading rate 12, generic locations from 13), or -1. */
int ir3_io_unique_index(const struct io_decl *d, unsigned elem);
/* The slot and component of element `elem`, component *comp of `d`, one of
 * the `n` declarations `decls` (the stage's inputs or outputs): clip and
 * cull distance arrays are compact, as Mesa's (nir_lower_clip_cull_distance
 * _arrays): one array of floats, the cull distances after the clip
 * distances, four a slot in slots 7 and 8 — element e is component e % 4
 * of slot 7 + e / 4.  Other declarations: ir3_io_unique_index(), *comp
 * unchanged.  -1: no slot. */
int ir3_io_place(struct io_decl *const *decls, unsigned n, const struct io_decl *d, unsigned elem,
		 unsigned *comp);
/* The element of the combined clip/cull array `d`'s element 0 is (the
 * clip distances' count for the cull distances, else 0). */
unsigned ir3_io_compact_first(struct io_decl *const *decls, unsigned n, const struct io_decl *d);
static inline bool ir3_io_compact(const struct io_decl *d)
{
	return d->builtin == BUILTIN_clip_distance || d->builtin == BUILTIN_cull_distance;
}
/* The tessellation levels a primitive has (inner, outer). */
void ir3_tess_level_counts(enum primitive p, unsigned *inner, unsigned *outer);
/* Mesa's build_primitive_map for a TCS's outputs: each per-vertex output
 * slot gets vertices_out * 4 dwords of a patch, after the patch slots (4
 * dwords a location); map[unique index] = its first dword.  Returns the
 * patch's dwords. */
unsigned ir3_tcs_output_map(const struct shader *s, unsigned *map);
/* Tessellation and geometry stage I/O through memory (lower_ir3_tess.c). */
bool lower_ir3_tess(struct shader *s, const struct ir3_lowering *t);
/* The preamble: work that depends only on uniforms hoisted to run once
 * per draw, its results read from the const file
 * (ir3_nir_opt_preamble.c). */
bool ir3_nir_opt_preamble(struct shader *s, const struct ir3_lowering *t);
/* The const file's room (vec4) for what the layout places by choice, the
 * UBO ranges and the preamble's values: the stage's const size less what
 * the shader needs in any case (push constants, driver params, UBO
 * pointers, the primitive block; Mesa's free space of a worst-case
 * ir3_setup_const_state). */
unsigned ir3_const_free_vec4(struct shader *s, const struct ir3_lowering *t);
/* UBO ranges to the const file, and the const-file layout
 * (ir3_nir_analyze_ubo_ranges.c). */
bool ir3_nir_analyze_ubo_ranges(struct shader *s, const struct ir3_lowering *t,
				struct ir3_const_layout *layout);

/* Run the passes above on `pl->shader` for `t` (the per-target part of
 * Mesa's NIR pipeline).  Fills `layout`. */
void ir3_lower_nir(struct pipeline *pl, const struct ir3_lowering *t, struct ir3_const_layout *layout);

/*
 * Instruction selection: the machine IR for `s` (lowered by ir3_lower_nir)
 * in `arena`.  NULL with a message in `err` naming what is not supported
 * ("unsupported ALU op 'fpow'", …): a per-shader error, never a crash.
 */
struct ir3 *ir3_isel(struct shader *s, const struct ir3_info *t,
		     const struct ir3_const_layout *layout, struct arena *arena,
		     struct strbuf *err);

#endif
