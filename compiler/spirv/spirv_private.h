/*
 * The SPIR-V reader's shared state (spirv.h).  One `struct spv` per call of
 * spirv_to_ir(): the module's words, one `struct spv_id` per result id, the
 * IR shader being built and a jmp_buf that every error unwinds to.
 *
 * Phases:
 *   module.c    the words: header, framing, the module-level sections (ids,
 *               names, decorations, types, constants, variables, execution
 *               modes) and each function's blocks and merges;
 *   types.c     types, layouts (explicit offsets and strides, natural
 *               layout of shared memory) and leaf counts;
 *   constant.c  constants, spec constants and OpSpecConstantOp;
 *   cfg.c       the entry point's body: structured control flow, function
 *               inlining, phis through locals, escapes by flags;
 *   instr.c     the instruction dispatcher and composites;
 *   alu.c       arithmetic, logic, conversions, matrices;
 *   glsl450.c   the GLSL.std.450 extended instructions;
 *   memory.c    variables, access chains, loads and stores of locals,
 *               buffers, push constants, shared and global memory, atomics;
 *   io.c        stage inputs and outputs: locations, components, builtins,
 *               system values;
 *   image.c     textures, samplers, storage images;
 *   misc.c      barriers, derivatives, subgroups, geometry, fragment control;
 *   stages.c    ray tracing, ray queries, mesh and task shaders;
 *   amd.c       the AMD extended instruction sets;
 *   grammar.c   the opcode and enum tables generated from SPIRV-Headers.
 *
 * Errors: spv_fail() records "name: error: word N: OpFoo: message" in the
 * diag and longjmps to spirv_to_ir(), which frees everything: the IR shader
 * and the reader's arena.  Nothing the reader allocates outlives the call
 * except the shader it returns.
 *
 * Values.  A SPIR-V value of a scalar or vector type is one IR value; a
 * matrix, array or struct is a tree (`struct spv_val`) whose leaves are IR
 * values; booleans are 1-bit; a physical pointer is a 64-bit address.
 * Pointers into variables are not IR values but access paths
 * (`struct spv_ptr`), resolved when loaded or stored; opaque values
 * (images, samplers) are handles naming declarations.  Every call is
 * inlined, so parameters simply take the caller's values, paths and handles.
 */
#ifndef SHDB_SPIRV_PRIVATE_H
#define SHDB_SPIRV_PRIVATE_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "compiler/ir/builder.h"
#include "compiler/spirv/grammar.h"
#include "compiler/spirv/spirv.h"
#include "compiler/util/arena.h"
#include "compiler/util/hash.h"

#define SPV_HEADER_WORDS 5
/* Limits that keep hostile modules from exhausting time or memory. */
#define SPV_MAX_NESTING 400		/* structured constructs and calls, nested */
#define SPV_MAX_AGGREGATE 65536		/* leaves of one aggregate load, store or copy */
#define SPV_MAX_INSTRS (1u << 22)	/* IR instructions emitted for one shader */
/* Slots given to a runtime array of descriptors (its size is the API's). */
#define SPV_RUNTIME_DESCRIPTORS 64

/* ---- types ---- */

enum spv_type_kind {
	T_VOID, T_BOOL, T_INT, T_FLOAT, T_VECTOR, T_MATRIX, T_ARRAY, T_RUNTIME_ARRAY,
	T_STRUCT, T_POINTER, T_FUNCTION, T_IMAGE, T_SAMPLER, T_SAMPLED_IMAGE, T_OPAQUE,
	T_ACCEL,	/* an acceleration structure: a 64-bit address */
};

struct spv_member {
	struct spv_type *type;
	uint32_t offset;		/* Offset decoration (explicit layouts) */
	uint32_t matrix_stride;		/* MatrixStride, for a matrix or array of them */
	bool row_major;
	bool has_offset;
};

struct spv_type {
	enum spv_type_kind kind;
	uint32_t id;
	unsigned bit_size;		/* bool 1, int, float: its size; vector: component's */
	bool is_signed;
	unsigned length;		/* vector components, matrix columns, array length,
					 * struct members, function parameters */
	struct spv_type *elem;		/* vector component, matrix column, array element,
					 * pointee, sampled image's image, function result */
	struct spv_member *members;	/* struct */
	struct spv_type **params;	/* function */
	uint32_t array_stride;		/* arrays; pointers (OpPtrAccessChain) */
	SpvStorageClass storage;	/* pointer */
	bool block, buffer_block;	/* struct decorations */
	bool spec_length;		/* array whose length is a spec constant */
	/* image */
	SpvDim dim;
	unsigned depth, sampled;
	bool arrayed, ms;
	SpvImageFormat format;
	/* cached: leaves of the type in a local variable (see memory.c) */
	unsigned num_leaves;
	/* natural layout (shared memory), 0 until computed */
	uint32_t nat_size, nat_align;
};

/* ---- decorations ---- */

/* OpMemberName is kept as a decoration of this made-up number; its
 * arguments are the name's words. */
#define SPV_DECO_MEMBER_NAME 0xfffffffeu

struct spv_deco {
	struct spv_deco *next;
	int32_t member;			/* -1: the id itself */
	uint32_t deco;			/* SpvDecoration */
	const uint32_t *args;		/* the operands after the decoration */
	uint32_t num_args;
};

/* ---- constants ---- */

struct spv_const {
	struct spv_type *type;
	uint64_t v[4];			/* scalar, vector: raw bits per component */
	struct spv_const **elems;	/* matrix columns, array elements, struct members */
	bool undef;			/* OpUndef at module scope */
	bool spec;			/* a spec constant (its value is the chosen one) */
	struct spv_val *val;		/* materialised in the shader, NULL until used */
};

/* ---- values ---- */

struct spv_val {
	struct spv_type *type;
	struct ssa_def *def;		/* scalar, vector, physical pointer */
	struct spv_val **elems;		/* composites */
	struct spv_val *transposed;	/* a matrix made by a transpose: the
					 * matrix it transposes (Mesa's lazily
					 * transposed vtn_ssa_value) */
};

/* ---- variables and pointers ---- */

enum var_mode {
	VM_LOCAL,	/* Function, Private: `local` declarations */
	VM_INPUT,	/* stage inputs: input declarations */
	VM_OUTPUT,	/* stage outputs */
	VM_SYSVAL,	/* builtin inputs the hardware provides */
	VM_UBO, VM_SSBO, VM_PUSH, VM_SHARED, VM_UNIFORM,
	VM_RESOURCE,	/* textures, samplers, images */
	VM_ATOMIC,	/* GL atomic counters: an SSBO per binding */
	VM_HANDLE,	/* a Function/Private variable holding images or samplers */
	VM_ACCEL,	/* acceleration structures: an SSBO holding the address */
	VM_SCRATCH,	/* outgoing ray payloads and callable data: scratch memory */
	VM_CALL_DATA,	/* incoming payloads and callable data */
	VM_HIT_ATTRIB,	/* hit attributes */
	VM_RECORD,	/* the shader binding table record */
	VM_TASK_PAYLOAD,	/* the task shader's payload for its mesh shaders */
	VM_TASK_COUNT,	/* NV task shaders: TaskCountNV, the mesh workgroups to launch */
	VM_RAYQUERY,	/* a ray query object: rq_* intrinsics with its index */
	VM_OPAQUE,	/* ray queries and such: unsupported when used */
};

/* One IR declaration made for an I/O variable (created when first used). */
struct io_group {
	struct io_group *next;
	int64_t key;			/* location and component, or -(builtin + 1) */
	bool patch;
	unsigned decl;			/* index in inputs or outputs */
};

struct spv_var {
	uint32_t id;
	struct spv_type *type;		/* the pointee */
	SpvStorageClass sc;
	enum var_mode mode;
	uint32_t init;			/* initializer id, or 0 */
	const char *name;
	/* VM_LOCAL: its leaves are locals first_local .. first_local + type leaves */
	bool has_locals;
	unsigned first_local;
	/* VM_UBO, VM_SSBO, VM_ATOMIC: the declaration (slots slot .. slot + array) */
	struct buffer_decl *buf;
	bool buf_array;			/* the variable is an array of blocks */
	/* VM_SHARED, VM_UNIFORM: byte offset in shared memory / the default block */
	uint32_t offset;
	bool placed;
	/* VM_INPUT, VM_OUTPUT */
	struct io_group *groups;
	bool per_vertex;		/* the outer array indexes vertices */
	/* VM_RESOURCE */
	struct resource_decl *tex, *smp, *img;
	/* VM_HANDLE: the handle last stored */
	struct spv_handle *held;
	/* VM_RAYQUERY: its index, or -1 until first used */
	int rq_index;
	/* an output kept in locals until the shader ends or emits a vertex:
	 * `out` is the real output; which struct members were written */
	struct spv_var *out;
	uint64_t written;		/* member bits (bit 63: members 63 and up) */
	bool written_all;
};

/* One step of an access path: a constant or a 32-bit value. */
struct spv_index {
	uint32_t c;
	struct ssa_def *d;		/* NULL: constant `c` */
};

struct spv_ptr {
	struct spv_var *var;		/* root variable; NULL for a physical address */
	struct ssa_def *addr;		/* physical: the 64-bit address of the root */
	struct spv_type *root;		/* the root's pointee type */
	struct spv_type *type;		/* the pointee type here */
	struct spv_type *ptr_type;	/* the pointer type (ArrayStride for elements) */
	unsigned n;
	struct spv_index *path;
	bool oob;			/* a constant index past the end: loads are
					 * undefined, stores do nothing */
	/* an image texel pointer (OpImageTexelPointer) */
	struct spv_handle *image;
	struct ssa_def *coord, *sample;
};

/* Images, samplers, sampled images: declarations and descriptor indices. */
struct spv_handle {
	struct spv_type *type;
	struct resource_decl *tex, *smp, *img;
	struct spv_index tex_i, smp_i, img_i;	/* descriptor array index */
};

/* ---- functions and blocks ---- */

struct spv_block {
	uint32_t label;
	size_t begin;			/* first instruction after OpLabel */
	size_t merge;			/* OpSelectionMerge / OpLoopMerge, or 0 */
	size_t term;			/* the terminator */
	uint32_t merge_label, continue_label;
	bool loop;			/* a loop header */
	bool visiting;			/* switch fall-through search */
};

struct spv_func {
	uint32_t id;
	struct spv_type *type;
	size_t begin, end;		/* OpFunction .. OpFunctionEnd */
	uint32_t *params;
	unsigned num_params;
	uint32_t first_label;
	bool active;			/* being inlined: a call now is recursion */
};

enum id_kind {
	ID_NONE, ID_TYPE, ID_CONST, ID_VAR, ID_FUNC, ID_LABEL, ID_EXTSET, ID_STRING, ID_GROUP,
	ID_VALUE, ID_PTR, ID_HANDLE, ID_IGNORED,
};

enum extset {
	EXTSET_UNKNOWN, EXTSET_GLSL450, EXTSET_NONSEMANTIC, EXTSET_DEBUG,
	EXTSET_AMD_MINMAX, EXTSET_AMD_GCN, EXTSET_AMD_BALLOT,
};

struct spv_id {
	uint8_t kind;			/* enum id_kind */
	bool in_function;		/* a result of an instruction inside a function */
	uint32_t word;			/* the defining instruction's offset */
	struct spv_type *type;		/* values and constants: their type; variables: pointer */
	struct spv_deco *decos;
	const char *name;		/* OpName */
	union {
		struct spv_type *t;
		struct spv_const *c;
		struct spv_var *var;
		struct spv_func *func;
		struct spv_block *block;
		struct spv_val *val;
		struct spv_ptr *ptr;
		struct spv_handle *handle;
		unsigned extset;
	};
	struct spv_var *phi_var;	/* OpPhi: the local it travels through */
};

/* ---- the reader ---- */

struct spv_exec_mode {
	uint32_t mode;
	const uint32_t *args;
	uint32_t num_args;
	bool by_id;			/* OpExecutionModeId */
};

struct cf_region;

struct spv {
	const uint32_t *w;
	size_t num_words;
	uint32_t bound;
	uint32_t version;
	const char *name;
	struct diag *diag;
	jmp_buf fail;
	struct arena arena;		/* everything but the shader */
	const struct spirv_options *opts;

	struct spv_id *ids;
	size_t cur;			/* the instruction being read (for messages) */

	/* the entry point */
	uint32_t entry_id;
	SpvExecutionModel model;
	enum shader_stage stage;
	const char *entry_name;
	const uint32_t *interface;
	unsigned num_interface;
	struct spv_exec_mode *modes;
	unsigned num_modes;

	bool has_physical;		/* PhysicalStorageBuffer addressing */
	bool output_temps;		/* outputs live in locals (io.c) */
	bool gl_spirv;			/* OpenGL-flavour SPIR-V */
	uint32_t workgroup_size_id;	/* a constant decorated BuiltIn WorkgroupSize */

	struct spv_var **vars;		/* module-scope variables, in order */
	unsigned num_vars;
	struct spv_func **funcs;
	unsigned num_funcs;

	/* the IR */
	struct shader *s;
	struct builder b;
	struct instr *last_const;	/* constants go after it, at the top */
	struct strmap consts;		/* (size, bits) → load_const at the top */
	unsigned emitted;		/* SPIR-V instructions translated (budget) */
	unsigned depth;			/* nesting of constructs and calls */
	struct cf_region *region;	/* the innermost region being emitted */
	uint32_t scratch_top, payload_top, attrib_top;
						/* bytes placed so far */
	unsigned atomic_bindings;
	unsigned num_ray_queries;
};

/* ---- errors (module.c) ---- */

/* Fail at the current instruction: "word N: OpFoo: message". */
NORETURN PRINTF_LIKE(2, 3) void spv_fail(struct spv *r, const char *fmt, ...);
/* An unsupported feature: "word N: OpFoo: unsupported: message". */
NORETURN PRINTF_LIKE(2, 3) void spv_unsupported(struct spv *r, const char *fmt, ...);
#define spv_check(r, cond, ...) do { if (!(cond)) spv_fail((r), __VA_ARGS__); } while (0)

/* ---- the word stream (module.c) ---- */

static inline uint32_t spv_opcode(const struct spv *r, size_t at) { return r->w[at] & 0xffff; }
static inline uint32_t spv_count(const struct spv *r, size_t at) { return r->w[at] >> 16; }
/* Operand `i` (1 = the word after the opcode) of the current instruction;
 * fails when the instruction is shorter. */
uint32_t spv_word(struct spv *r, unsigned i);
/* Words in the current instruction. */
static inline unsigned spv_nwords(const struct spv *r) { return spv_count(r, r->cur); }
/* A NUL-terminated literal string starting at operand `i`; *next gets the
 * operand after it. */
const char *spv_string(struct spv *r, unsigned i, unsigned *next);
const char *spv_cur_name(struct spv *r, char buf[24]);

/* ---- ids (module.c) ---- */

struct spv_id *spv_id(struct spv *r, uint32_t id);
struct spv_type *spv_get_type(struct spv *r, uint32_t id);
struct spv_const *spv_get_const(struct spv *r, uint32_t id);
/* The constant's value as an unsigned integer (scalar integer or bool). */
uint64_t spv_const_uint(struct spv *r, uint32_t id);
/* A literal or constant as a 32-bit scalar; false when not constant. */
bool spv_id_const_u32(struct spv *r, uint32_t id, uint32_t *out);
/* The name of an id (OpName) for messages and declarations, or NULL. */
const char *spv_id_name(struct spv *r, uint32_t id);

/* ---- decorations (module.c) ---- */

const struct spv_deco *spv_deco(struct spv *r, uint32_t id, int member, SpvDecoration d);
bool spv_has_deco(struct spv *r, uint32_t id, int member, SpvDecoration d);
/* The first argument of a decoration, or `dflt` when absent. */
uint32_t spv_deco_arg(struct spv *r, uint32_t id, int member, SpvDecoration d, uint32_t dflt);
/* A struct member's name (OpMemberName), or NULL. */
const char *spv_member_name(struct spv *r, uint32_t struct_id, unsigned member);

/* ---- types (types.c) ---- */

void spv_type_instr(struct spv *r, uint32_t op);
struct spv_type *spv_type_scalar(struct spv *r, const struct spv_type *t);
unsigned spv_type_components(const struct spv_type *t);
/* The pointee of a pointer type (resolved late after OpTypeForwardPointer). */
struct spv_type *spv_pointee(struct spv *r, struct spv_type *t);
bool spv_type_is_vector_or_scalar(const struct spv_type *t);
bool spv_type_is_composite(const struct spv_type *t);
bool spv_type_is_float(const struct spv_type *t);
bool spv_type_is_int(const struct spv_type *t);
bool spv_type_is_bool(const struct spv_type *t);
bool spv_type_is_opaque(const struct spv_type *t);
/* The type of element/member `i` of a composite. */
struct spv_type *spv_type_child(struct spv *r, const struct spv_type *t, uint32_t i);
unsigned spv_type_num_children(const struct spv_type *t);
/* A vector type of n components of `scalar` (made up if the module has none). */
struct spv_type *spv_type_vector(struct spv *r, struct spv_type *scalar, unsigned n);
struct spv_type *spv_type_make_scalar(struct spv *r, enum spv_type_kind kind, unsigned bits,
				      bool is_signed);
/* Natural (std430-like) size and alignment, for shared memory. */
void spv_type_natural(struct spv *r, struct spv_type *t);
/* Size of a type in an explicit layout (the end of its last member). */
uint32_t spv_type_explicit_size(struct spv *r, const struct spv_type *t);
const char *spv_type_str(struct spv *r, const struct spv_type *t);
/* Whether two types have the same shape (decorations aside). */
bool spv_types_match(const struct spv_type *a, const struct spv_type *b);

/* ---- constants (constant.c) ---- */

void spv_const_instr(struct spv *r, uint32_t op);
struct spv_val *spv_const_val(struct spv *r, struct spv_const *c);
struct spv_const *spv_const_zero(struct spv *r, struct spv_type *t);

/* ---- values (instr.c) ---- */

struct spv_val *spv_val_new(struct spv *r, struct spv_type *t);
struct spv_val *spv_val_def(struct spv *r, struct spv_type *t, struct ssa_def *def);
/* The value of an id (constant, undef or result), as a tree. */
struct spv_val *spv_get_val(struct spv *r, uint32_t id);
/* The IR value of a scalar or vector id. */
struct ssa_def *spv_get_def(struct spv *r, uint32_t id);
/* A 32-bit unsigned scalar from any integer scalar id (for indices). */
struct ssa_def *spv_get_index32(struct spv *r, uint32_t id);
void spv_set_val(struct spv *r, uint32_t id, struct spv_val *v);
void spv_set_def(struct spv *r, uint32_t id, struct ssa_def *def);
struct spv_val *spv_val_undef(struct spv *r, struct spv_type *t);
struct spv_val *spv_val_bcsel(struct spv *r, struct ssa_def *cond, struct spv_val *a,
			      struct spv_val *b);
/* The type of result and result id of the current instruction. */
struct spv_type *spv_result_type(struct spv *r);
uint32_t spv_result_id(struct spv *r);
/* Translate one instruction of a function body (not a terminator). */
void spv_instr(struct spv *r);
/* A constant at the top of the shader (dominating every use). */
struct ssa_def *spv_imm(struct spv *r, unsigned comps, unsigned bits, const uint64_t *v);
struct ssa_def *spv_imm_u32(struct spv *r, uint32_t v);
/* The end of the constants at the top of the shader (after r->last_const). */
struct cursor spv_top_cursor(struct spv *r);
/* Count one emitted instruction against the budget. */
void spv_budget(struct spv *r, unsigned n);

/* ---- ALU (alu.c) ---- */

bool spv_alu_instr(struct spv *r, uint32_t op);
/* The ALU op of a SPIR-V opcode on operands of `bits` (for spec constants
 * too); -1 when it is not a single ALU op. */
int spv_alu_op(struct spv *r, uint32_t op, unsigned src_bits, unsigned dst_bits, bool *swap);
struct ssa_def *spv_convert(struct spv *r, struct ssa_def *x, const struct spv_type *from,
			    const struct spv_type *to);
struct ssa_def *spv_matrix_times_vector(struct spv *r, struct spv_val *m, struct ssa_def *v);

/* ---- GLSL.std.450 (glsl450.c) ---- */

void spv_glsl450(struct spv *r, uint32_t inst);
/* SPV_AMD_shader_trinary_minmax, SPV_AMD_gcn_shader, SPV_AMD_shader_ballot (amd.c). */
void spv_amd(struct spv *r, unsigned set, uint32_t inst);

/* ---- memory (memory.c) ---- */

void spv_variable(struct spv *r, bool in_function);
bool spv_memory_instr(struct spv *r, uint32_t op);
struct spv_ptr *spv_get_ptr(struct spv *r, uint32_t id);
struct spv_val *spv_load(struct spv *r, struct spv_ptr *p, unsigned access);
void spv_store(struct spv *r, struct spv_ptr *p, struct spv_val *v, unsigned access);
struct spv_ptr *spv_var_ptr(struct spv *r, struct spv_var *var);
/* A Function variable of `t` made by the reader (phis, return values, flags). */
struct spv_var *spv_temp_var(struct spv *r, struct spv_type *t, const char *name);
void spv_init_private(struct spv *r);
/* A pointer value (an id of pointer type) as a 64-bit address, and back. */
struct ssa_def *spv_ptr_address(struct spv *r, struct spv_ptr *p);
/* Atomics on any pointer. */
bool spv_atomic_instr(struct spv *r, uint32_t op);
/* Memory of a storage class, for barriers. */
unsigned spv_storage_modes(SpvStorageClass sc);
/* Index of the block member holding a runtime array. */
struct ssa_def *spv_array_length(struct spv *r, struct spv_ptr *p, uint32_t member);

/* ---- I/O (io.c) ---- */

/* The ACCESS_* flags of a variable's NonWritable, NonReadable, Coherent,
 * Volatile and Restrict decorations (memory.c). */
unsigned spv_access_decorations(struct spv *r, uint32_t id);
enum var_mode spv_io_mode(struct spv *r, struct spv_var *var);
struct spv_val *spv_io_load(struct spv *r, struct spv_ptr *p);
void spv_io_store(struct spv *r, struct spv_ptr *p, struct spv_val *v);
/* Outputs as temporaries: whether this stage keeps them; make a variable
 * one; note a store through a path; copy them to the real outputs (stream
 * -1: all). */
bool spv_io_outputs_as_temps(struct spv *r);
void spv_io_make_temp(struct spv *r, struct spv_var *var);
void spv_io_note_store(struct spv_ptr *p);
void spv_io_find_output_writes(struct spv *r);
void spv_io_copy_outputs(struct spv *r, int stream);
struct ssa_def *spv_io_interp(struct spv *r, uint32_t inst, struct spv_ptr *p, struct ssa_def *arg);
struct spv_val *spv_sysval_load(struct spv *r, struct spv_ptr *p);

/* ---- images (image.c) ---- */

void spv_resource_decl(struct spv *r, struct spv_var *var);
struct spv_handle *spv_load_handle(struct spv *r, struct spv_ptr *p);
struct spv_handle *spv_get_handle(struct spv *r, uint32_t id);
bool spv_image_instr(struct spv *r, uint32_t op);
bool spv_image_atomic(struct spv *r, uint32_t op, struct spv_ptr *p, struct ssa_def *value,
		      struct ssa_def *cmp, enum atomic_op aop, struct spv_type *t);

/* ---- ray tracing, mesh and task shaders (stages.c) ---- */

bool spv_stage_instr(struct spv *r, uint32_t op);
/* The byte offset in scratch memory of an outgoing payload variable. */
uint32_t spv_scratch_offset(struct spv *r, struct spv_var *var);
/* The acceleration structure a variable holds (its path: descriptor indices). */
struct ssa_def *spv_load_accel(struct spv *r, struct spv_ptr *p);

/* ---- misc (misc.c) ---- */

bool spv_misc_instr(struct spv *r, uint32_t op);
enum scope spv_scope(struct spv *r, uint32_t id);
unsigned spv_semantics_modes(uint32_t semantics);

/* ---- control flow (cfg.c) ---- */

void spv_emit_entry(struct spv *r);
void spv_call(struct spv *r);

#endif
