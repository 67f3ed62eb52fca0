/*
 * The shdb IR: a typeless SSA IR modelled on Mesa's NIR
 * (../../shared/reference/seeds/nir-readme-2015.txt).
 *
 * A `struct shader` is one stage: its declarations (inputs, outputs,
 * buffers, textures, locals …), stage information and one entry function.
 * Everything a shader owns comes from its arena and is freed by
 * shader_free().  Nothing here has mutable global state: many shaders may
 * be built, optimised and freed on several threads at once.
 *
 * Values.  An SSA value (`struct ssa_def`) has a component count (1–4, 8 or
 * 16) and a bit size (1, 8, 16, 32 or 64) and no type: the opcode says how
 * its bits are read.  Each value has a dense index (`%12` in the text form),
 * unique in its function, below fn->ssa_alloc.  Every source (`struct src`)
 * is linked into the use list of the value it reads, so "who uses this" is a
 * list walk (ssa_def_rewrite_uses, copy propagation, DCE).
 *
 * Booleans are 1-bit values, true = 1 (NIR's choice): comparisons return
 * 1-bit results, `bcsel`, `if` and discard_if read them, iand/ior/ixor/inot
 * are also the logical operators, b2i32/b2f32 convert.
 *
 * Instructions (struct instr, in a block's intrusive list):
 *   alu        an opcode of alu_ops.def; sources have swizzles
 *   load_const a constant vector
 *   undef      an undefined value (SPIR-V OpUndef)
 *   intrinsic  anything else: memory, I/O, system values, control, barriers,
 *              derivatives, subgroups (intrinsics.def)
 *   tex        a texture operation with typed sources
 *   phi        at the top of a block, one source per predecessor
 *   jump       break, continue, return: always the last instruction of its
 *              block
 *
 * Control flow is structured, as in NIR: a function body is a list of CF
 * nodes (block, if, loop) that starts and ends with a block and never has two
 * blocks in a row; an if has a then list and an else list, a loop a body
 * list, each of the same shape.  A loop runs its body until a `break`;
 * `continue` and falling off the end of the body go back to its first block
 * (the header).  `return` goes to the function's end block, which holds no
 * instruction.  An if's condition is read at the end of the block before it.
 *
 * The CFG (successors and predecessors of every block) is derived from that
 * structure.  Every structural edit (a CF node inserted or removed, a block
 * split, a jump added or removed) marks it stale — and drops the metadata
 * that depends on it — and block_preds() / block_succ() rebuild it on demand
 * with one walk: read the CFG only through them.  Phis are the caller's
 * business: a pass that changes the predecessors of a block fixes its phis.
 *
 * Metadata (NIR's): analyses store their results in the IR (block->idom,
 * block->live_in, loop->info …) and record what is valid in
 * fn->valid_metadata.  metadata_require() computes what is missing; a pass
 * that changes the shader returns shader_progress(s, true, preserved), which
 * drops every kind not in `preserved`.  The PASS() macro (compiler/opt/opt.h)
 * checks that a pass reporting progress did so.
 *
 * Stage interface.  Values that flow from the previous stage (or the API)
 * to this one are input declarations; values this stage hands on are output
 * declarations.  Both include builtins that travel like varyings (position,
 * point_size, clip/cull distances, layer, viewport, frag_depth,
 * sample_mask, stencil_ref, tess levels, primitive_id written by a geometry
 * shader).  Values the hardware generates (frag_coord, front_face,
 * vertex_id, instance_id, the compute IDs, sample id/pos/mask, tess_coord,
 * invocation_id, primitive_id, subgroup ids …) are read with their own
 * `load_*` system-value intrinsic and have no declaration.
 *
 * Constants are raw bits per component, zero-extended to 64 bits (booleans 0
 * or 1); floats are IEEE bit patterns (ir_float_to_bits()).  Memory and I/O
 * intrinsics always have their offset source: a direct access reads a
 * load_const offset.
 *
 * Memory: instructions, blocks and declarations come from the shader's
 * arena; a removed instruction stays there until shader_free().  A value
 * gets its index when its instruction is inserted.
 *
 * Local variables before SSA: a front end declares function-local and
 * private variables as `local` declarations and accesses them with
 * load_local/store_local (local = the declaration, base = first element, a
 * source with a dynamic element offset, a write mask); a vars-to-SSA pass
 * promotes the directly addressed ones.
 *
 * The text form is specified in compiler/ir/FORMAT.md.
 */
#ifndef SHDB_IR_H
#define SHDB_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/stage.h"
#include "compiler/util/arena.h"
#include "compiler/util/bitset.h"
#include "compiler/util/error.h"
#include "compiler/util/list.h"
#include "compiler/util/strbuf.h"

struct shader;
struct function;
struct block;
struct instr;
struct cf_if;
struct cf_loop;

/* ------------------------------------------------------------------------
 * Enumerations with printable names.  Each is an X-macro list so the
 * printer, the parser and the validator agree; names are those of the text
 * form.
 */
#define UNPAREN(...) __VA_ARGS__

#define IR_BASE_TYPES(X) X(none) X(float) X(int) X(uint) X(bool)
enum base_type {
#define X(n) BASE_##n,
	IR_BASE_TYPES(X)
#undef X
	BASE_COUNT
};

/* Bit-size masks (intrinsics table). */
#define IR_BITS_1 0x01u
#define IR_BITS_8 0x02u
#define IR_BITS_16 0x04u
#define IR_BITS_32 0x08u
#define IR_BITS_64 0x10u
/* The mask bit for a bit size (0 for an invalid size). */
unsigned ir_bits_mask(unsigned bit_size);
bool ir_valid_bit_size(unsigned bit_size);
bool ir_valid_num_components(unsigned n);

#define IR_BUILTINS(X) \
	X(none) X(position) X(point_size) X(clip_distance) X(cull_distance) X(layer) \
	X(viewport) X(primitive_id) X(frag_depth) X(sample_mask) X(stencil_ref) \
	X(tess_level_outer) X(tess_level_inner) X(primitive_indices) X(cull_primitive) \
	X(primitive_shading_rate)
enum builtin {
#define X(n) BUILTIN_##n,
	IR_BUILTINS(X)
#undef X
	BUILTIN_COUNT
};

#define IR_INTERPS(X) X(none) X(smooth) X(flat) X(noperspective)
enum interp {
#define X(n) INTERP_##n,
	IR_INTERPS(X)
#undef X
	INTERP_COUNT
};

#define IR_DIMS(X) X(none) X(1d) X(2d) X(3d) X(cube) X(rect) X(buffer) X(subpass)
enum image_dim {
#define X(n) DIM_##n,
	IR_DIMS(X)
#undef X
	DIM_COUNT
};
/* Coordinate components of a dimensionality, without the array layer. */
unsigned image_dim_coords(enum image_dim dim);

#define IR_FORMATS(X) \
	X(unknown) X(rgba32f) X(rgba16f) X(r32f) X(rgba8) X(rgba8_snorm) X(rg32f) X(rg16f) \
	X(r11f_g11f_b10f) X(r16f) X(rgba16) X(rgb10_a2) X(rg16) X(rg8) X(r16) X(r8) \
	X(rgba16_snorm) X(rg16_snorm) X(rg8_snorm) X(r16_snorm) X(r8_snorm) X(rgba32i) \
	X(rgba16i) X(rgba8i) X(r32i) X(rg32i) X(rg16i) X(rg8i) X(r16i) X(r8i) X(rgba32ui) \
	X(rgba16ui) X(rgba8ui) X(r32ui) X(rgb10_a2ui) X(rg32ui) X(rg16ui) X(rg8ui) X(r16ui) \
	X(r8ui) X(r64ui) X(r64i)
enum image_format {
#define X(n) FORMAT_##n,
	IR_FORMATS(X)
#undef X
	FORMAT_COUNT
};

#define IR_PRIMITIVES(X) \
	X(none) X(points) X(lines) X(lines_adjacency) X(triangles) X(triangles_adjacency) \
	X(line_strip) X(triangle_strip) X(quads) X(isolines)
enum primitive {
#define X(n) PRIM_##n,
	IR_PRIMITIVES(X)
#undef X
	PRIM_COUNT
};

#define IR_SPACINGS(X) X(none) X(equal) X(fractional_even) X(fractional_odd)
enum tess_spacing {
#define X(n) SPACING_##n,
	IR_SPACINGS(X)
#undef X
	SPACING_COUNT
};

#define IR_DEPTH_LAYOUTS(X) X(none) X(any) X(greater) X(less) X(unchanged)
enum depth_layout {
#define X(n) DEPTH_##n,
	IR_DEPTH_LAYOUTS(X)
#undef X
	DEPTH_COUNT
};

/* Memory and execution scopes (SPIR-V Scope). */
#define IR_SCOPES(X) X(none) X(invocation) X(subgroup) X(workgroup) X(queue_family) X(device)
enum scope {
#define X(n) SCOPE_##n,
	IR_SCOPES(X)
#undef X
	SCOPE_COUNT
};

/* What rq_load reads (its `component` index is the value times two, plus
 * one for the committed intersection). */
#define RAY_QUERY_VALUES(X) \
	X(intersection_type) X(t) X(t_min) X(ray_flags) X(instance_custom_index) \
	X(instance_id) X(sbt_offset) X(geometry_index) X(primitive_index) X(barycentrics) \
	X(front_face) X(candidate_aabb_opaque) X(object_direction) X(object_origin) \
	X(world_direction) X(world_origin) X(object_to_world) X(world_to_object)
enum ray_query_value {
#define X(n) RQ_##n,
	RAY_QUERY_VALUES(X)
#undef X
	RQ_COUNT
};

#define IR_ATOMIC_OPS(X) \
	X(none) X(iadd) X(imin) X(umin) X(imax) X(umax) X(iand) X(ior) X(ixor) X(xchg) \
	X(cmpxchg) X(fadd) X(fmin) X(fmax) X(fcmpxchg)
enum atomic_op {
#define X(n) ATOMIC_##n,
	IR_ATOMIC_OPS(X)
#undef X
	ATOMIC_COUNT
};

/* Bit sets, printed as `a|b` (or `none`).  One name per bit, in bit order. */
#define IR_SEMANTICS(X) X(acquire) X(release) X(make_available) X(make_visible)
#define IR_MODES(X) X(ssbo) X(shared) X(image) X(global) X(output) X(local)
#define IR_ACCESS(X) X(coherent) X(volatile) X(restrict) X(non_readable) X(non_writeable) X(can_reorder)
#define IR_FLOAT_CONTROLS(X) \
	X(denorm_preserve16) X(denorm_preserve32) X(denorm_preserve64) \
	X(denorm_flush16) X(denorm_flush32) X(denorm_flush64) \
	X(rte16) X(rte32) X(rte64) X(rtz16) X(rtz32) X(rtz64) \
	X(szinp16) X(szinp32) X(szinp64)
#define X(n) SEMANTICS_BIT_##n,
enum { IR_SEMANTICS(X) SEMANTICS_BIT_COUNT };
#undef X
#define X(n) MODE_BIT_##n,
enum { IR_MODES(X) MODE_BIT_COUNT };
#undef X
#define X(n) ACCESS_BIT_##n,
enum { IR_ACCESS(X) ACCESS_BIT_COUNT };
#undef X
#define X(n) FLOAT_CONTROL_BIT_##n,
enum { IR_FLOAT_CONTROLS(X) FLOAT_CONTROL_BIT_COUNT };
#undef X
#define SEMANTICS_ACQUIRE (1u << SEMANTICS_BIT_acquire)
#define SEMANTICS_RELEASE (1u << SEMANTICS_BIT_release)
#define SEMANTICS_MAKE_AVAILABLE (1u << SEMANTICS_BIT_make_available)
#define SEMANTICS_MAKE_VISIBLE (1u << SEMANTICS_BIT_make_visible)
#define MODE_SSBO (1u << MODE_BIT_ssbo)
#define MODE_SHARED (1u << MODE_BIT_shared)
#define MODE_IMAGE (1u << MODE_BIT_image)
#define MODE_GLOBAL (1u << MODE_BIT_global)
#define MODE_OUTPUT (1u << MODE_BIT_output)
#define MODE_LOCAL (1u << MODE_BIT_local)
#define ACCESS_COHERENT (1u << ACCESS_BIT_coherent)
#define ACCESS_VOLATILE (1u << ACCESS_BIT_volatile)
#define ACCESS_RESTRICT (1u << ACCESS_BIT_restrict)
#define ACCESS_NON_READABLE (1u << ACCESS_BIT_non_readable)
#define ACCESS_NON_WRITEABLE (1u << ACCESS_BIT_non_writeable)
/* two loads of one address give one value, wherever they run (opt_access) */
#define ACCESS_CAN_REORDER (1u << ACCESS_BIT_can_reorder)

/* Names of the lists above ("smooth", "2d", …) and lookups by name (-1 when
 * unknown).  The `_names` arrays have the enum's COUNT entries. */
extern const char *const base_type_names[BASE_COUNT];
extern const char *const builtin_names[BUILTIN_COUNT];
extern const char *const interp_names[INTERP_COUNT];
extern const char *const dim_names[DIM_COUNT];
extern const char *const format_names[FORMAT_COUNT];
extern const char *const primitive_names[PRIM_COUNT];
extern const char *const spacing_names[SPACING_COUNT];
extern const char *const depth_layout_names[DEPTH_COUNT];
extern const char *const scope_names[SCOPE_COUNT];
extern const char *const atomic_op_names[ATOMIC_COUNT];
extern const char *const semantics_names[SEMANTICS_BIT_COUNT];
extern const char *const mode_names[MODE_BIT_COUNT];
extern const char *const access_names[ACCESS_BIT_COUNT];
extern const char *const float_control_names[FLOAT_CONTROL_BIT_COUNT];
int ir_name_lookup(const char *const *names, unsigned count, const char *s, size_t len);

/* ------------------------------------------------------------------------
 * ALU opcodes (alu_ops.def).
 */
enum alu_op {
#define UNOP(n, ...) OP_##n,
#define BINOP(n, ...) OP_##n,
#define TRIOP(n, ...) OP_##n,
#define QUADOP(n, ...) OP_##n,
#define HORIZ1(n, ...) OP_##n,
#define HORIZ2(n, ...) OP_##n,
#define VECOP(n, ...) OP_##n,
#include "compiler/ir/alu_ops.def"
	OP_COUNT
};

/* The ALU op an arithmetic atomic applies to the old value and its data
 * (iadd … fmax); OP_mov for none, xchg and the compare-exchanges. */
enum alu_op atomic_op_alu(enum atomic_op op);

/* An ALU type: a base type and a bit size (0 = unsized). */
#define ALU_TYPE(base, bits) ((base) << 8 | (bits))
enum alu_type {
	TYPE_NONE = 0,
	TYPE_F = ALU_TYPE(BASE_float, 0),
	TYPE_F16 = ALU_TYPE(BASE_float, 16),
	TYPE_F32 = ALU_TYPE(BASE_float, 32),
	TYPE_F64 = ALU_TYPE(BASE_float, 64),
	TYPE_I = ALU_TYPE(BASE_int, 0),
	TYPE_I8 = ALU_TYPE(BASE_int, 8),
	TYPE_I16 = ALU_TYPE(BASE_int, 16),
	TYPE_I32 = ALU_TYPE(BASE_int, 32),
	TYPE_I64 = ALU_TYPE(BASE_int, 64),
	TYPE_U = ALU_TYPE(BASE_uint, 0),
	TYPE_U8 = ALU_TYPE(BASE_uint, 8),
	TYPE_U16 = ALU_TYPE(BASE_uint, 16),
	TYPE_U32 = ALU_TYPE(BASE_uint, 32),
	TYPE_U64 = ALU_TYPE(BASE_uint, 64),
	TYPE_B1 = ALU_TYPE(BASE_bool, 1),
};
static inline enum base_type alu_type_base(enum alu_type t) { return (enum base_type)(t >> 8); }
static inline unsigned alu_type_bits(enum alu_type t) { return t & 0xff; }

#define ALU_MAX_INPUTS 16

enum {
	ALU_COMMUTATIVE = 1 << 0,	/* sources 0 and 1 may be swapped */
	ALU_ASSOCIATIVE = 1 << 1,
	ALU_CONVERSION = 1 << 2,
};

/*
 * Constant folding: dst[c] = op(src[0][c], src[1][c], …) for every component
 * (per-component ops: `num_components` of the result; horizontal ops: the
 * table's sizes).  Values are raw bits, zero-extended to 64 bits; booleans
 * are 0 or 1.  `bit_size` is the unsized bit size of the instruction (that
 * of its unsized sources, or of its result when no source is unsized).
 */
typedef void (*alu_fold_fn)(uint64_t *dst, unsigned num_components, unsigned bit_size,
			    const uint64_t *const *src);

struct alu_op_info {
	const char *name;
	uint8_t num_inputs;
	uint8_t output_size;		/* 0: per component */
	uint8_t input_sizes[ALU_MAX_INPUTS];	/* 0: per component */
	enum alu_type output_type;
	enum alu_type input_types[ALU_MAX_INPUTS];
	unsigned props;			/* ALU_COMMUTATIVE … */
	alu_fold_fn fold;
};

extern const struct alu_op_info alu_op_infos[OP_COUNT];
struct alu_instr;
/* The unsized bit size of an instruction: what alu_fold() takes. */
unsigned alu_instr_bit_size(const struct alu_instr *alu);
/* Evaluate an instruction on the values of its sources: src[i] holds every
 * component of the value source i reads (swizzles are applied here); dst
 * gets one value per result component.  The interpreter's ALU step. */
void alu_instr_eval(const struct alu_instr *alu, const uint64_t *const *src, uint64_t *dst);
/* When every source is a load_const, fold the instruction into `dst` (one
 * value per result component) and return true. */
bool alu_instr_fold_const(const struct alu_instr *alu, uint64_t *dst);
/* Floats of 16, 32 or 64 bits to raw bits and back (round to nearest even). */
uint64_t ir_float_to_bits(double v, unsigned bit_size);
double ir_float_from_bits(uint64_t bits, unsigned bit_size);
/* The opcode called `name` (of length `len`), or -1. */
int alu_op_lookup(const char *name, size_t len);
/* Fold `op` on constants (see alu_fold_fn). */
void alu_fold(enum alu_op op, unsigned num_components, unsigned bit_size,
	      const uint64_t *const *src, uint64_t *dst);

/* ------------------------------------------------------------------------
 * Intrinsics (intrinsics.def).
 */
#define INTR_INDICES(X) \
	X(none, INT) X(base, INT) X(component, INT) X(write_mask, WRMASK) \
	X(align_mul, INT) X(align_offset, INT) X(access, ACCESS) X(atomic_op, ATOMIC) \
	X(execution_scope, SCOPE) X(memory_scope, SCOPE) X(memory_semantics, SEMANTICS) \
	X(memory_modes, MODES) X(reduction_op, ALU_OP) X(cluster_size, INT) X(stream, INT) \
	X(local, INT) X(image_dim, DIM) X(image_array, INT) X(format, FORMAT) \
	X(dest_type, BASE_TYPE) X(src_type, BASE_TYPE) X(range_base, OPT_INT) X(range, OPT_INT)

enum intr_index {
#define X(n, kind) INTR_IDX_##n,
	INTR_INDICES(X)
#undef X
	INTR_IDX_COUNT
};

/* How a const index is printed and parsed. */
enum intr_index_kind {
	INDEX_KIND_INT, INDEX_KIND_WRMASK, INDEX_KIND_ACCESS, INDEX_KIND_ATOMIC,
	INDEX_KIND_SCOPE, INDEX_KIND_SEMANTICS, INDEX_KIND_MODES, INDEX_KIND_ALU_OP,
	INDEX_KIND_DIM, INDEX_KIND_FORMAT, INDEX_KIND_BASE_TYPE,
	INDEX_KIND_OPT_INT,	/* a number, printed only when not 0 */
};

struct intr_index_info {
	const char *name;
	enum intr_index_kind kind;
};
extern const struct intr_index_info intr_index_infos[INTR_IDX_COUNT];

/* Every const index by name, for builders: b_intr(b, load_input, …, .base = 2). */
struct intr_indices {
#define X(n, kind) int32_t n;
	INTR_INDICES(X)
#undef X
};

enum intrinsic {
#define INTRINSIC(n, ...) INTR_##n,
#include "compiler/ir/intrinsics.def"
	INTR_COUNT
};

#define INTR_MAX_SRCS 5
#define INTR_MAX_INDICES 6
#define INTR_NO_DEST (-1)
#define INTR_IMAGE_COORD (-1)

enum {
	INTR_CAN_ELIMINATE = 1 << 0,
	INTR_CAN_REORDER = 1 << 1,
	INTR_HAS_SIDE_EFFECTS = 1 << 2,
};

/* Stage masks of the intrinsics table (0: every stage). */
enum {
	INTR_STAGE_VS = 1 << 0,
	INTR_STAGE_TCS = 1 << 1,
	INTR_STAGE_TES = 1 << 2,
	INTR_STAGE_GS = 1 << 3,
	INTR_STAGE_FS = 1 << 4,
	INTR_STAGE_CS = 1 << 5,		/* compute, task, mesh */
};
/* The INTR_STAGE_ bit of a stage (0 for ray-tracing stages). */
unsigned intr_stage_bit(enum shader_stage stage);

struct intrinsic_info {
	const char *name;
	uint8_t num_srcs;
	int8_t src_components[INTR_MAX_SRCS];	/* N, 0 = variable, INTR_IMAGE_COORD */
	uint8_t src_bit_sizes[INTR_MAX_SRCS];	/* IR_BITS_ masks, 0 = any */
	int8_t dest_components;			/* N, 0 = variable, INTR_NO_DEST */
	uint8_t dest_bit_sizes;
	uint8_t indices[INTR_MAX_INDICES];	/* enum intr_index, in text order, 0-ended */
	uint8_t stages;				/* INTR_STAGE_ mask, 0 = any */
	uint8_t flags;				/* INTR_CAN_ELIMINATE … */
};

extern const struct intrinsic_info intrinsic_infos[INTR_COUNT];
int intrinsic_lookup(const char *name, size_t len);
unsigned intrinsic_num_indices(enum intrinsic op);
/* Whether a source or the result has the instruction's num_components. */
bool intrinsic_has_variable_size(enum intrinsic op);
/* Position of index `idx` in the intrinsic's const_index array, or -1. */
int intrinsic_index_slot(enum intrinsic op, enum intr_index idx);

/* ------------------------------------------------------------------------
 * Texture operations.
 */
#define IR_TEX_OPS(X) \
	X(tex) X(txb) X(txl) X(txd) X(txf) X(txf_ms) X(txs) X(query_levels) X(lod) X(tg4) \
	X(texture_samples)
enum tex_op {
#define X(n) TEX_OP_##n,
	IR_TEX_OPS(X)
#undef X
	TEX_OP_COUNT
};

#define IR_TEX_SRCS(X) \
	X(coord) X(projector) X(comparator) X(offset) X(bias) X(lod) X(min_lod) X(ms_index) \
	X(ddx) X(ddy) X(texture_offset) X(sampler_offset)
enum tex_src_type {
#define X(n) TEX_SRC_##n,
	IR_TEX_SRCS(X)
#undef X
	TEX_SRC_COUNT
};
extern const char *const tex_op_names[TEX_OP_COUNT];
extern const char *const tex_src_names[TEX_SRC_COUNT];

/* ------------------------------------------------------------------------
 * SSA values and sources.
 */
struct ssa_def {
	struct instr *parent;		/* the defining instruction */
	struct list uses;		/* struct src, through src->use_link */
	unsigned index;			/* dense, unique in the function */
	uint8_t num_components;
	uint8_t bit_size;
};

struct src {
	struct ssa_def *ssa;
	struct list_node use_link;	/* in ssa->uses */
	struct instr *parent_instr;	/* the user: an instruction … */
	struct cf_if *parent_if;	/* … or an if reading its condition */
};

/* ------------------------------------------------------------------------
 * Instructions.
 */
#define IR_INSTR_TYPES(X) X(alu) X(load_const) X(undef) X(intrinsic) X(tex) X(phi) X(jump)
enum instr_type {
#define X(n) INSTR_##n,
	IR_INSTR_TYPES(X)
#undef X
};

struct instr {
	struct list_node link;		/* in block->instrs */
	struct block *block;		/* NULL until inserted, and once removed */
	struct shader *shader;
	enum instr_type type;
	uint8_t pass_flags;		/* scratch for one pass (as NIR's) */
	unsigned index;			/* META_INSTR_INDEX: program order */
	unsigned line;			/* text-form line it was parsed from, or 0 */
	void *pass_data;		/* scratch pointer for one pass */
};

struct alu_src {
	struct src src;
	uint8_t swizzle[16];		/* source component read for each component */
};

struct alu_instr {
	struct instr instr;
	enum alu_op op;
	bool exact;			/* SPIR-V NoContraction/precise: no inexact rewrites */
	bool mediump;			/* SPIR-V RelaxedPrecision: a backend may compute it
					   at 16 bits */
	bool no_signed_wrap;		/* integer ops: the result does not overflow */
	bool no_unsigned_wrap;
	struct ssa_def def;
	struct alu_src src[];		/* alu_op_infos[op].num_inputs */
};

struct load_const_instr {
	struct instr instr;
	struct ssa_def def;
	uint64_t value[];		/* per component, raw bits zero-extended */
};

struct undef_instr {
	struct instr instr;
	struct ssa_def def;
};

struct intrinsic_instr {
	struct instr instr;
	enum intrinsic op;
	uint8_t num_components;		/* the "variable" size (0 in the table) */
	int32_t const_index[INTR_MAX_INDICES];	/* in the table's order */
	struct ssa_def def;		/* when the table has a dest */
	struct src src[];		/* intrinsic_infos[op].num_srcs */
};

struct tex_src {
	struct src src;
	enum tex_src_type type;
};

struct tex_instr {
	struct instr instr;
	enum tex_op op;
	enum image_dim dim;
	bool is_array;
	bool is_shadow;
	bool is_sparse;			/* one extra result component: residency */
	enum base_type dest_type;	/* float, int or uint */
	uint8_t component;		/* tg4: the component gathered */
	unsigned texture_index;		/* texture slot */
	unsigned sampler_index;		/* sampler slot */
	struct ssa_def def;
	unsigned num_srcs;
	struct tex_src *src;		/* use tex_instr_add_src()/_remove_src() */
};

struct phi_src {
	struct list_node link;		/* in phi->srcs */
	struct block *pred;
	struct src src;
};

struct phi_instr {
	struct instr instr;
	struct ssa_def def;
	struct list srcs;		/* struct phi_src */
};

#define IR_JUMP_TYPES(X) X(break) X(continue) X(return)
enum jump_type {
#define X(n) JUMP_##n,
	IR_JUMP_TYPES(X)
#undef X
};

struct jump_instr {
	struct instr instr;
	enum jump_type type;
};

#define IR_DEFINE_CAST(name, T, type_value) \
	static inline struct T *name(const struct instr *i) \
	{ \
		if (i->type != type_value) \
			BUG("%s of a %s instruction", #name, instr_type_name(i->type)); \
		return container_of(i, struct T, instr); \
	}

const char *instr_type_name(enum instr_type t);
IR_DEFINE_CAST(instr_as_alu, alu_instr, INSTR_alu)
IR_DEFINE_CAST(instr_as_load_const, load_const_instr, INSTR_load_const)
IR_DEFINE_CAST(instr_as_undef, undef_instr, INSTR_undef)
IR_DEFINE_CAST(instr_as_intrinsic, intrinsic_instr, INSTR_intrinsic)
IR_DEFINE_CAST(instr_as_tex, tex_instr, INSTR_tex)
IR_DEFINE_CAST(instr_as_phi, phi_instr, INSTR_phi)
IR_DEFINE_CAST(instr_as_jump, jump_instr, INSTR_jump)

/* ------------------------------------------------------------------------
 * Control flow.
 */
enum cf_type { CF_BLOCK, CF_IF, CF_LOOP, CF_FUNCTION };

struct cf_node {
	struct list_node link;		/* in `list` */
	enum cf_type type;
	struct cf_node *parent;		/* the if, loop or function holding it */
	struct list *list;		/* the parent's list holding it */
};

struct block {
	struct cf_node cf;
	struct list instrs;		/* struct instr: phis first, a jump last */
	struct function *fn;
	unsigned index;			/* META_BLOCK_INDEX: program order; end block last */

	/* CFG, derived from the structure: read with block_succ()/block_preds() */
	struct block *succ_[2];
	struct block **preds_;
	unsigned num_preds_, preds_cap_;

	/* META_DOMINANCE (unreachable blocks: idom NULL, no frontier) */
	struct block *idom;
	struct block **dom_children;
	unsigned num_dom_children;
	struct block **dom_frontier;
	unsigned num_dom_frontier;
	unsigned dom_pre_index, dom_post_index;

	/* META_LIVENESS: SSA values live at entry and exit (by def index) */
	bitset_word *live_in, *live_out;
};

/* Control hints (SPIR-V SelectionControl and LoopControl). */
#define IR_IF_HINTS(X) X(none) X(flatten) X(dont_flatten)
enum if_hint {
#define X(n) IF_HINT_##n,
	IR_IF_HINTS(X)
#undef X
	IF_HINT_COUNT
};
#define IR_LOOP_HINTS(X) X(none) X(unroll) X(dont_unroll)
enum loop_hint {
#define X(n) LOOP_HINT_##n,
	IR_LOOP_HINTS(X)
#undef X
	LOOP_HINT_COUNT
};
extern const char *const if_hint_names[IF_HINT_COUNT];
extern const char *const loop_hint_names[LOOP_HINT_COUNT];

struct cf_if {
	struct cf_node cf;
	struct src condition;		/* 1-bit scalar */
	struct list then_list;		/* struct cf_node */
	struct list else_list;
	enum if_hint hint;
};

struct loop_info;

struct cf_loop {
	struct cf_node cf;
	struct list body;		/* struct cf_node */
	enum loop_hint hint;
	struct loop_info *info;		/* META_LOOP_ANALYSIS */
};

/* Metadata kinds (fn->valid_metadata). */
enum {
	META_BLOCK_INDEX = 1 << 0,	/* block->index, fn->blocks, fn->num_blocks */
	META_INSTR_INDEX = 1 << 1,	/* instr->index, fn->num_instrs */
	META_DOMINANCE = 1 << 2,	/* idom, dominance tree and frontiers */
	META_LIVENESS = 1 << 3,		/* live_in/live_out */
	META_LOOP_ANALYSIS = 1 << 4,	/* loop->info */
	META_ALL = (1 << 5) - 1,
	META_CONTROL_FLOW = META_BLOCK_INDEX | META_DOMINANCE,
	/* Set by PASS() before a pass; shader_progress() clears it. */
	META_NOT_PROPERLY_RESET = 1 << 30,
};

struct function {
	struct cf_node cf;
	struct shader *shader;
	const char *name;
	struct list body;		/* struct cf_node */
	struct block *end_block;	/* where return goes; holds no instruction */
	unsigned ssa_alloc;		/* every def index is below */
	unsigned valid_metadata;
	bool cfg_stale;

	unsigned num_blocks;		/* META_BLOCK_INDEX: blocks in the body */
	struct block **blocks;		/* by index, then the end block */
	unsigned blocks_cap;
	unsigned num_instrs;		/* META_INSTR_INDEX */

	/* malloc'ed analysis storage, freed on recompute and by shader_free() */
	void *dom_storage;
	void *live_storage;
};

/* ------------------------------------------------------------------------
 * Declarations.
 */

/* A stage input or output.  `base` of load_input & co is its index. */
struct io_decl {
	int location;			/* -1 for builtins */
	enum builtin builtin;
	uint8_t component;		/* first component in the location */
	uint8_t num_components;
	uint8_t bit_size;
	unsigned array_size;		/* 0: one slot; N: an array of N slots */
	enum interp interp;		/* fragment inputs */
	bool centroid, sample;		/* fragment inputs: interpolation location */
	bool per_vertex;		/* tessellation and geometry per-vertex arrays */
	bool patch;			/* per-patch (tess control out, tess eval in) */
	bool per_primitive;		/* mesh outputs, fragment inputs */
	bool invariant;
	bool mediump;			/* 32-bit float declared RelaxedPrecision (mediump):
					   a backend may move it at 16 bits */
	uint8_t index;			/* fragment outputs: dual-source blend index */
	uint8_t stream;			/* geometry outputs */
	const char *name;		/* NULL or a name for humans */
};

/* A uniform or storage buffer.  It takes slots [slot, slot + max(array, 1)):
 * the first source of load_ubo/load_ssbo/… is a slot. */
struct buffer_decl {
	unsigned slot;
	unsigned set, binding;
	unsigned array_size;		/* 0: not an array of descriptors */
	unsigned size;			/* bytes; SSBO: without the runtime array */
	unsigned access;		/* ACCESS_ bits (readonly SSBO: non_writeable) */
	const char *name;
};

/* A texture, sampler or storage image; slots as buffers.  A combined image
 * sampler is a texture and a sampler with the same set and binding, both
 * marked combined. */
struct resource_decl {
	unsigned slot;
	unsigned set, binding;
	unsigned array_size;
	enum image_dim dim;		/* textures and images */
	bool is_array, is_ms;
	bool is_shadow;			/* textures and samplers: depth comparison */
	bool combined;
	enum base_type type;		/* sampled type: float, int, uint */
	enum image_format format;	/* images */
	unsigned access;		/* images: ACCESS_ bits */
	const char *name;
};

/* A local variable: num_elements × num_components × bit_size. */
struct local_decl {
	unsigned num_elements;
	uint8_t num_components;
	uint8_t bit_size;
	bool mediump;			/* a RelaxedPrecision float scalar or vector
					   (or an array of them): a backend may keep
					   it at 16 bits */
	const char *name;
};

struct shader_info {
	/* compute, task, mesh */
	uint16_t workgroup_size[3];
	bool workgroup_size_variable;	/* known at run time only: load_workgroup_size */
	uint32_t shared_size;		/* bytes of shared memory */
	/* memory */
	uint32_t push_constant_size;	/* bytes */
	uint32_t uniform_size;		/* bytes of loose (default-block) uniforms */
	uint32_t scratch_size;		/* bytes */
	/* fragment */
	bool early_fragment_tests;
	bool post_depth_coverage;
	bool origin_upper_left;
	bool pixel_center_integer;
	bool pixel_interlock;
	bool sample_interlock;
	enum depth_layout depth_layout;
	/* geometry */
	enum primitive input_primitive;
	enum primitive output_primitive;	/* geometry and mesh */
	uint16_t vertices_out;		/* geometry, tess control, mesh */
	uint16_t invocations;		/* geometry */
	/* tessellation */
	enum primitive tess_primitive;	/* triangles, quads, isolines */
	enum tess_spacing tess_spacing;
	bool tess_ccw;
	bool tess_point_mode;
	/* mesh */
	uint16_t primitives_out;
	/* every stage */
	uint32_t float_controls;	/* FLOAT_CONTROL_BIT_ set */
	/* a backend lowering computed mediump values at lower precision: what
	 * the shader gives may differ from the source's beyond floats */
	bool precision_lowered;
	uint8_t subgroup_size;		/* 0: chosen by the API */
	/* compiler option, not the shader's: opt_algebraic may turn
	 * multiplications, divisions and remainders by powers of two into
	 * shifts and masks (NIR's !lower_bitops).  Off in the
	 * target-independent pipeline, which must suit etnaviv (lower_bitops:
	 * Mesa's state tracker leaves those to its nir_lower_idiv); ir3's
	 * lowering turns it on for its clone. */
	bool algebraic_bitops;
};

#define IR_DECL_ARRAY(T, name) T **name; unsigned num_##name, cap_##name

struct shader {
	struct arena arena;		/* owns everything below */
	enum shader_stage stage;
	struct shader_info info;
	IR_DECL_ARRAY(struct io_decl, inputs);
	IR_DECL_ARRAY(struct io_decl, outputs);
	IR_DECL_ARRAY(struct buffer_decl, ubos);
	IR_DECL_ARRAY(struct buffer_decl, ssbos);
	IR_DECL_ARRAY(struct resource_decl, textures);
	IR_DECL_ARRAY(struct resource_decl, samplers);
	IR_DECL_ARRAY(struct resource_decl, images);
	IR_DECL_ARRAY(struct local_decl, locals);
	struct function *fn;		/* the entry point, after inlining */
};

/* ------------------------------------------------------------------------
 * Shaders and declarations.
 */

/* A new shader with an empty entry function `name` (one empty block). */
struct shader *shader_create(enum shader_stage stage, const char *name);
void shader_free(struct shader *s);

/* Append a declaration, zeroed except: io location -1 when builtin is set
 * later, buffer/resource slot = the next free slot (after the previous
 * declaration of the kind).  Pointers stay valid for the shader's life. */
struct io_decl *shader_add_input(struct shader *s);
struct io_decl *shader_add_output(struct shader *s);
struct buffer_decl *shader_add_ubo(struct shader *s);
struct buffer_decl *shader_add_ssbo(struct shader *s);
struct resource_decl *shader_add_texture(struct shader *s);
struct resource_decl *shader_add_sampler(struct shader *s);
struct resource_decl *shader_add_image(struct shader *s);
struct local_decl *shader_add_local(struct shader *s);
/* The declaration holding `slot`, or NULL. */
struct buffer_decl *shader_find_buffer(struct buffer_decl **decls, unsigned n, unsigned slot);
struct resource_decl *shader_find_resource(struct resource_decl **decls, unsigned n,
					   unsigned slot);
/* Slots a buffer or resource declaration takes: max(array_size, 1). */
static inline unsigned decl_num_slots(unsigned array_size) { return array_size ? array_size : 1; }

/* ------------------------------------------------------------------------
 * Instructions: create, then insert at a cursor.
 */
struct alu_instr *alu_instr_create(struct shader *s, enum alu_op op);
struct load_const_instr *load_const_instr_create(struct shader *s, unsigned num_components,
						 unsigned bit_size);
struct undef_instr *undef_instr_create(struct shader *s, unsigned num_components,
				       unsigned bit_size);
struct intrinsic_instr *intrinsic_instr_create(struct shader *s, enum intrinsic op);
struct tex_instr *tex_instr_create(struct shader *s, unsigned num_srcs);
struct phi_instr *phi_instr_create(struct shader *s);
struct jump_instr *jump_instr_create(struct shader *s, enum jump_type type);

/* Give `def` (of `instr`) a size; it gets the next free index when the
 * instruction is inserted (unless index is set before: parser, clone). */
#define SSA_INDEX_NONE UINT32_MAX
void ssa_def_init(struct instr *instr, struct ssa_def *def, unsigned num_components,
		  unsigned bit_size);
/* The value an instruction defines, or NULL (jumps, stores …). */
struct ssa_def *instr_def(struct instr *instr);

/* Point `src` (a source of `instr`) at `def`, linking it into def's uses. */
void src_init(struct src *src, struct instr *instr, struct ssa_def *def);
/* Re-point an existing source. */
void src_rewrite(struct src *src, struct ssa_def *def);
void if_set_condition(struct cf_if *nif, struct ssa_def *def);

/* Sources of any instruction, in order; stop early when cb returns false.
 * Returns false when stopped. */
typedef bool (*src_cb)(struct src *src, void *data);
bool instr_foreach_src(struct instr *instr, src_cb cb, void *data);

struct phi_src *phi_add_src(struct phi_instr *phi, struct block *pred, struct ssa_def *def);
void phi_remove_src(struct phi_instr *phi, struct phi_src *ps);
/* The source coming from `pred`, or NULL. */
struct phi_src *phi_get_src(struct phi_instr *phi, struct block *pred);

void tex_src_set(struct tex_instr *tex, unsigned i, enum tex_src_type type, struct ssa_def *def);
void tex_instr_add_src(struct tex_instr *tex, enum tex_src_type type, struct ssa_def *def);
void tex_instr_remove_src(struct tex_instr *tex, unsigned i);
/* Index of the source of that type, or -1. */
int tex_instr_src_index(const struct tex_instr *tex, enum tex_src_type type);

/* Const indices by name; BUG when the intrinsic has no such index. */
int32_t intrinsic_get(const struct intrinsic_instr *intr, enum intr_index idx);
void intrinsic_set(struct intrinsic_instr *intr, enum intr_index idx, int32_t value);
bool intrinsic_has(enum intrinsic op, enum intr_index idx);
/* Components of a source: the table's count, the variable size, or the
 * coordinate size of the image the indices name. */
unsigned intrinsic_src_components(const struct intrinsic_instr *intr, unsigned i);
bool intrinsic_has_dest(enum intrinsic op);

/* Components of ALU source `i` that the instruction reads. */
unsigned alu_src_components(const struct alu_instr *alu, unsigned i);

/* Where to insert: before or after an instruction, at the start or the end
 * of a block (the end is before a jump's place only if you say so). */
enum cursor_option {
	CURSOR_BEFORE_BLOCK, CURSOR_AFTER_BLOCK, CURSOR_BEFORE_INSTR, CURSOR_AFTER_INSTR,
};

struct cursor {
	enum cursor_option option;
	struct block *block;		/* CURSOR_*_BLOCK */
	struct instr *instr;		/* CURSOR_*_INSTR */
};

static inline struct cursor cursor_before_block(struct block *b)
{
	return (struct cursor){ .option = CURSOR_BEFORE_BLOCK, .block = b };
}
static inline struct cursor cursor_after_block(struct block *b)
{
	return (struct cursor){ .option = CURSOR_AFTER_BLOCK, .block = b };
}
static inline struct cursor cursor_before_instr(struct instr *i)
{
	return (struct cursor){ .option = CURSOR_BEFORE_INSTR, .instr = i };
}
static inline struct cursor cursor_after_instr(struct instr *i)
{
	return (struct cursor){ .option = CURSOR_AFTER_INSTR, .instr = i };
}
/* After the phis of a block. */
struct cursor cursor_after_phis(struct block *b);
/* Just before a CF node (end of the block before it) or after it (start of
 * the block after it). */
struct cursor cursor_before_cf(struct cf_node *node);
struct cursor cursor_after_cf(struct cf_node *node);
struct block *cursor_block(struct cursor c);

void instr_insert(struct cursor c, struct instr *instr);
/* Unlink an instruction and drop its sources from their use lists.  Its own
 * value must have no uses left (the validator reports any).  The memory
 * stays in the arena. */
void instr_remove(struct instr *instr);
/* Move an instruction (with its sources and uses) to another place. */
void instr_move(struct cursor c, struct instr *instr);

/* Every use of `old` now reads `new` (swizzles unchanged). */
void ssa_def_rewrite_uses(struct ssa_def *old, struct ssa_def *new_def);
/* The same, only for uses after `after` in program order within its block
 * and in other blocks (NIR's rewrite_uses_after: used when `new` is computed
 * from `old`). */
void ssa_def_rewrite_uses_after(struct ssa_def *old, struct ssa_def *new_def,
				struct instr *after);
static inline bool ssa_def_has_uses(const struct ssa_def *def) { return !list_empty(&def->uses); }
unsigned ssa_def_num_uses(const struct ssa_def *def);
/* A load_const / undef definition, or NULL. */
struct load_const_instr *ssa_def_as_const(const struct ssa_def *def);
/* Whether `i` is a load_local or store_local (then *out, if given, is it),
 * and such an access's element offset source. */
bool instr_is_local_access(struct instr *i, struct intrinsic_instr **out);
struct src *local_access_offset(struct intrinsic_instr *intr);

/* ------------------------------------------------------------------------
 * Control-flow nodes.
 */
#define IR_DEFINE_CF_CAST(name, T, type_value) \
	static inline struct T *name(const struct cf_node *n) \
	{ \
		if (n->type != type_value) \
			BUG("%s of the wrong CF node", #name); \
		return container_of(n, struct T, cf); \
	}
IR_DEFINE_CF_CAST(cf_as_block, block, CF_BLOCK)
IR_DEFINE_CF_CAST(cf_as_if, cf_if, CF_IF)
IR_DEFINE_CF_CAST(cf_as_loop, cf_loop, CF_LOOP)
IR_DEFINE_CF_CAST(cf_as_function, function, CF_FUNCTION)

static inline struct cf_node *cf_node_of(struct list_node *n)
{
	return list_entry(n, struct cf_node, link);
}

/* Create an if (with one empty block in each branch) or a loop (with one
 * empty block in its body) and insert it at `c`, splitting the block there:
 * the instructions after `c` go to a new block after the node.  The
 * original block keeps its place in the CFG as the block after the node, so
 * phis that name it as a predecessor stay right. */
struct cf_if *cf_insert_if(struct cursor c, struct ssa_def *condition);
struct cf_loop *cf_insert_loop(struct cursor c);
/* Remove an if or a loop and everything in it; the blocks before and after
 * it merge into one of the two, which is returned (the other is gone: the
 * smaller one's instructions move).  The block after must have no phis. */
struct block *cf_remove(struct cf_node *node);

/* Low-level construction for parsers and clone: append to a CF list
 * (`parent` is the if, loop or function owning the list). */
struct block *cf_append_block(struct function *fn, struct list *list, struct cf_node *parent);
struct cf_if *cf_append_if(struct function *fn, struct list *list, struct cf_node *parent);
struct cf_loop *cf_append_loop(struct function *fn, struct list *list, struct cf_node *parent);
void block_append_instr(struct block *b, struct instr *instr);

/* Navigation. */
struct block *cf_list_first_block(struct list *list);
struct block *cf_list_last_block(struct list *list);
struct cf_node *cf_node_next(struct cf_node *node);	/* NULL at the end of its list */
struct cf_node *cf_node_prev(struct cf_node *node);
/* The block after an if or a loop (its list never ends with one). */
static inline struct block *cf_block_after(struct cf_node *node)
{
	return cf_as_block(cf_node_next(node));
}
struct block *cf_if_then_block(struct cf_if *nif);	/* first block of each branch */
struct block *cf_if_else_block(struct cf_if *nif);
struct block *cf_loop_header(struct cf_loop *loop);
struct block *function_start_block(struct function *fn);
/* The innermost loop containing a node, or NULL. */
struct cf_loop *cf_node_enclosing_loop(struct cf_node *node);
/* Whether `node` is `ancestor` or inside it. */
bool cf_node_is_inside(const struct cf_node *node, const struct cf_node *ancestor);

/* Instructions of a block. */
struct instr *block_first_instr(struct block *b);
struct instr *block_last_instr(struct block *b);
struct jump_instr *block_jump(struct block *b);	/* the final jump, or NULL */
static inline bool block_ends_in_jump(struct block *b) { return block_jump(b) != NULL; }
struct instr *instr_next(struct instr *i);	/* NULL at the end of the block */
struct instr *instr_prev(struct instr *i);

/* The CFG. */
struct block *block_succ(struct block *b, unsigned i);	/* i = 0, 1; NULL if none */
unsigned block_num_succs(struct block *b);
struct block *const *block_preds(struct block *b, unsigned *num_preds);
unsigned block_num_preds(struct block *b);
bool block_has_pred(struct block *b, const struct block *pred);
/* Mark the CFG stale and drop the metadata that depends on it (done by every
 * edit above; needed only after editing lists by hand); rebuild it now. */
void function_cfg_stale(struct function *fn);
void function_cfg_ensure(struct function *fn);

/* Iteration.  Blocks in program order (the end block excluded); within a
 * block, instructions in order; the _safe forms allow removing the current
 * instruction. */
struct block *function_next_block(struct function *fn, struct block *b);
struct block *function_prev_block(struct function *fn, struct block *b);
struct block *function_last_block(struct function *fn);
#define foreach_block(b, fn) \
	for (struct block *b = function_start_block(fn); b; b = function_next_block((fn), b))
#define foreach_block_reverse(b, fn) \
	for (struct block *b = function_last_block(fn); b; b = function_prev_block((fn), b))
#define foreach_instr(i, b) list_for_each_entry(struct instr, i, &(b)->instrs, link)
#define foreach_instr_safe(i, b) list_for_each_entry_safe(struct instr, i, &(b)->instrs, link)
#define foreach_instr_reverse(i, b) list_for_each_entry_rev(struct instr, i, &(b)->instrs, link)
#define foreach_instr_reverse_safe(i, b) \
	list_for_each_entry_rev_safe(struct instr, i, &(b)->instrs, link)
#define foreach_use(s, def) list_for_each_entry(struct src, s, &(def)->uses, use_link)
#define foreach_use_safe(s, def) list_for_each_entry_safe(struct src, s, &(def)->uses, use_link)
#define foreach_phi_src(ps, phi) list_for_each_entry(struct phi_src, ps, &(phi)->srcs, link)
#define foreach_phi_src_safe(ps, phi) \
	list_for_each_entry_safe(struct phi_src, ps, &(phi)->srcs, link)
#define foreach_cf_node(n, list) list_for_each_entry(struct cf_node, n, (list), link)

/* ------------------------------------------------------------------------
 * Metadata and analyses (analyze.c, dominance.c, liveness.c, loop_analysis.c).
 */
void metadata_require(struct function *fn, unsigned kinds);
void metadata_invalidate(struct function *fn, unsigned kinds);
/*
 * A pass ends with `return shader_progress(s, progress, preserved)`: when
 * `progress`, every metadata kind not in `preserved` becomes invalid (NIR's
 * nir_progress).  Returns `progress`.
 */
bool shader_progress(struct shader *s, bool progress, unsigned preserved);

/* Each calc_ computes one kind and marks it valid; metadata_require() calls
 * them as needed. */
void calc_block_index(struct function *fn);
void calc_instr_index(struct function *fn);
void calc_dominance(struct function *fn);
void calc_liveness(struct function *fn);
void calc_loop_analysis(struct function *fn);

/* META_DOMINANCE: whether `a` dominates `b` (a block dominates itself;
 * nothing dominates an unreachable block but itself). */
bool block_dominates(const struct block *a, const struct block *b);
bool block_is_reachable(const struct block *b);
/* The nearest block dominating both. */
struct block *block_dominance_lca(struct block *a, struct block *b);

/* META_LIVENESS + META_INSTR_INDEX: whether `def` is live just after `instr`. */
bool ssa_def_is_live_after(struct ssa_def *def, struct instr *instr);

/* Renumber SSA values densely in program order (ssa_alloc shrinks to their
 * count).  Returns whether any index changed.  Keeps every metadata kind
 * but liveness. */
bool shader_reindex(struct shader *s);

/*
 * META_LOOP_ANALYSIS: facts about each loop.
 *
 * An induction variable is a scalar phi in the loop header with two
 * sources: a constant from the block before the loop and, from the loop's
 * only back edge, `alu(phi, const)` or `alu(const, phi)` (iadd, imul, fadd,
 * ishl … any two-source ALU op).
 *
 * A terminator is an if at the loop body's top level with a lone `break` in
 * one branch.  It is "simple" when its condition is a two-source ALU op
 * comparing an induction variable (or its next value) with a constant: it
 * breaks exactly after its trip count.  A comparison with min/max of a
 * constant (`i < min(x, 4)`), or such a comparison in `a && b` that breaks
 * when false (`a || b` when true, `!(a && b)` …) bounds its trip count only:
 * it breaks then at the latest (nir_loop_analyze's find_trip_count).
 *
 * trip_count: how many times control goes past the terminator that breaks
 * first (the limiting one) without breaking, so the body before it runs
 * trip_count + 1 times and the rest trip_count times; `for (i = 0; i < 4;
 * i++)` gives 4.  Found by evaluating the condition with the constant
 * folder (so wrap-around and float rounding are exact), up to
 * LOOP_MAX_TRIP_COUNT iterations; -1 when unknown: no terminator with a
 * count, a `continue` in the loop, or more iterations.  The loop may leave
 * earlier unless exact_trip_count.
 * exact_trip_count: every way out of the loop is a terminator with an exact
 * count (NIR's exact_trip_count_known), so the loop leaves by the limiting
 * one after trip_count.
 */
#define LOOP_MAX_TRIP_COUNT 65536

struct induction_var {
	struct phi_instr *phi;
	struct ssa_def *init;		/* a load_const */
	struct alu_instr *update;	/* next value: update(phi, step) */
	unsigned step_src;		/* which source of `update` is the constant */
};

struct loop_terminator {
	struct cf_if *nif;
	bool break_in_then;		/* breaks when the condition is true */
	struct alu_instr *cond;		/* the induction comparison, or NULL */
	struct induction_var *iv;	/* the variable it compares */
	bool tests_next;		/* it reads the updated value, not the phi */
	bool breaks_on;			/* the value of `cond` that breaks */
	bool exact;			/* it breaks exactly after trip_count, not by then */
	int64_t trip_count;		/* for this terminator alone, or -1 */
};

struct loop_info {
	int64_t trip_count;		/* -1 when unknown */
	bool exact_trip_count;
	struct loop_terminator *limiting;	/* the terminator giving trip_count */
	unsigned depth;			/* 1 for an outermost loop */
	unsigned num_instrs;		/* instructions in the loop, nested ones included */
	unsigned num_breaks;		/* breaks leaving this loop */
	bool has_continue;
	bool has_return;
	struct induction_var *ivs;
	unsigned num_ivs;
	struct loop_terminator *terminators;
	unsigned num_terminators;
};

/* ------------------------------------------------------------------------
 * Printing, parsing, validation, cloning.
 */

/* Append the text form of `s` (FORMAT.md) to `out`. */
void ir_print(struct shader *s, struct strbuf *out);
/* One instruction (no indentation or newline), e.g. for messages. */
void ir_print_instr(struct instr *instr, struct strbuf *out);
/* A shader printed into a malloc'ed string. */
char *ir_print_string(struct shader *s);

/*
 * Parse the text form from `data` (`len` bytes, need not be NUL-terminated).
 * On error returns NULL and adds "name:line:col: error: …" to `diag`.  The
 * result has a sane structure but is not validated: run ir_validate().
 */
struct shader *ir_parse(const char *name, const char *data, size_t len, struct diag *diag);

/*
 * Check every invariant of the IR (see validate.c).  Returns true when
 * valid; otherwise adds one error line per problem (at most a few dozen) to
 * `diag`, located at `name` and the instruction's source line when known.
 */
bool ir_validate(struct shader *s, struct diag *diag, const char *name);

/* A deep copy in a new arena: the same text form, no metadata. */
struct shader *shader_clone(struct shader *s);
/* A copy of `i` in `s` without its sources (and a phi without its sources):
 * opcode, indices, flags, line and a result of the same size (a new value).
 * instr_clone_srcs then points the copy's sources (not a phi's) at
 * map(each original source's value). */
struct instr *instr_clone_shell(struct shader *s, const struct instr *i);
typedef struct ssa_def *(*instr_clone_map_fn)(struct ssa_def *d, void *data);
void instr_clone_srcs(struct instr *old, struct instr *copy, instr_clone_map_fn map, void *data);

#endif
