/*
 * The etnaviv machine IR: one instruction per 128-bit Vivante instruction
 * (../../shared/reference/targets.md §4.1), in blocks that mirror the IR's,
 * plus meta instructions that emit nothing (`output`: a value the stage
 * hands on, read at the end).
 *
 * Values.  Before register allocation a temporary is a value: 1–4
 * components that allocation places in one of the 22 virtual registers of
 * a vec4 temporary (etna_ra.c).  An instruction writes some components of
 * its destination value — the components of a vecN are written by the
 * instructions that compute them, Mesa's "real def" — and a value written in
 * several blocks is a phi web.  Each channel of an instruction is in the
 * instruction's own space:
 *
 *	dst.map[k]   the instruction channel written to value component k
 *	             (components outside dst.mask are not written)
 *	src.swiz[c]  the source value's component that channel c reads
 *
 * For per-component opcodes a channel c computes from channel c of each
 * source; dp2/3/4 read their sources' channels 0…n-1 and replicate the
 * result; scalar opcodes read channel 0 of the first written channel's
 * composition (etna_ops.def).  Uniform sources name a vec4 of the uniform
 * file and, in cmap, where each of their value's components sits in it;
 * immediates (HALTI2+) are 20-bit scalars.
 *
 * After allocation (etna_ra_assign) every temporary is physical: dst.reg
 * and dst.mask are the register and write mask, src.reg and src.swiz the
 * register and the swizzle the hardware reads, composed as Mesa's
 * ra_def/ra_src/src_swizzle do.  The disassembler prints that form.
 */
#ifndef SHDB_ETNA_H
#define SHDB_ETNA_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/etna/etna_info.h"
#include "compiler/stage.h"
#include "compiler/util/arena.h"
#include "compiler/util/array.h"
#include "compiler/util/list.h"
#include "compiler/util/strbuf.h"
#include "stats/stat.h"

/* ---- opcodes (etna_ops.def) ---- */

enum {
	ETNA_PER_COMP = 1 << 0,
	ETNA_SCALAR = 1 << 1,
	ETNA_HORIZ = 1 << 2,
	ETNA_TEX = 1 << 3,
	ETNA_FLOW = 1 << 4,
	ETNA_INT = 1 << 5,
	ETNA_LOAD = 1 << 6,
	ETNA_META = 1 << 7,
};

enum etna_opc {
#define ETNA_OP(name, srcs, flags) ETNA_OP_##name,
#include "compiler/etna/etna_ops.def"
#undef ETNA_OP
	ETNA_OP_input,			/* meta: dst arrives in its register (emits nothing) */
	ETNA_OP_output,			/* meta: src2 is handed on (emits nothing) */
	ETNA_OP_undef,			/* meta: dst is undefined from here on this path (a
					 * phi's undefined source; emits nothing) */
	ETNA_OP_COUNT
};

struct etna_op_info {
	const char *name;
	uint8_t srcs;			/* bits: hardware source slots read */
	unsigned flags;
};
extern const struct etna_op_info etna_op_infos[ETNA_OP_COUNT];

/* Operand types and conditions, in the hardware's encoding order. */
#define ETNA_TYPES(X) X(f32) X(s32) X(s8) X(u16) X(f16) X(s16) X(u32) X(u8)
enum etna_type {
#define X(n) ETNA_TYPE_##n,
	ETNA_TYPES(X)
#undef X
};
#define ETNA_CONDS(X) \
	X(true) X(gt) X(lt) X(ge) X(le) X(eq) X(ne) X(and) X(or) X(xor) X(not) X(nz) \
	X(gez) X(gz) X(lez) X(lz)
enum etna_cond {
#define X(n) ETNA_COND_##n,
	ETNA_CONDS(X)
#undef X
};
enum etna_rounding { ETNA_ROUND_DEFAULT, ETNA_ROUND_RTZ, ETNA_ROUND_RTNE };

extern const char *const etna_type_names[];
extern const char *const etna_cond_names[];

/* ---- operands ---- */

enum etna_file {
	ETNA_FILE_NONE,
	ETNA_FILE_TEMP,			/* a value, or (fixed) a physical temporary */
	ETNA_FILE_UNIFORM,		/* a vec4 of the uniform file */
	ETNA_FILE_IMMED,		/* a 20-bit immediate */
	ETNA_FILE_INTERNAL,		/* the front-face flag */
	ETNA_FILE_ADDR,			/* destinations: the address register a0 */
};

/* Immediate kinds (Mesa's const_src): a float's top 20 bits, a signed or an
 * unsigned 20-bit integer. */
enum etna_imm { ETNA_IMM_FLOAT20, ETNA_IMM_INT20, ETNA_IMM_UINT20 };

#define ETNA_NO_VALUE (~0u)

struct etna_src {
	uint8_t file;			/* enum etna_file */
	bool neg, abs;
	bool rel;			/* uniforms: indexed by a0.x */
	bool fixed;			/* temporaries: `reg` is physical (t0: position) */
	unsigned value;			/* temporaries, before assignment */
	uint16_t reg;			/* uniform vec4, or the physical temporary */
	uint8_t swiz[4];		/* see the header comment */
	uint8_t cmap[4];		/* uniforms: value component → channel */
	uint8_t imm_type;		/* enum etna_imm */
	uint32_t imm;			/* the 20 bits */
	uint8_t vswiz[4];		/* after assignment: the swiz it had before */
};

struct etna_dst {
	uint8_t file;			/* NONE, TEMP or ADDR */
	bool fixed;			/* `reg` is physical */
	unsigned value;
	uint8_t mask;			/* value components written; after: channels */
	uint8_t map[4];
	uint16_t reg;
	uint8_t vmask, vmap[4];		/* after assignment: mask and map before */
};

struct etna_block;

struct etna_instr {
	struct list_node link;
	struct etna_block *block;
	enum etna_opc opc;
	uint8_t type;			/* enum etna_type */
	uint8_t cond;			/* enum etna_cond */
	uint8_t rounding;		/* enum etna_rounding */
	bool sat;
	struct etna_dst dst;
	struct etna_src src[3];
	unsigned tex_id;		/* texture fetches: the sampler */
	uint8_t tex_swiz[4];		/* after assignment: result component per channel */
	struct etna_block *target;	/* branches */
	unsigned ip;			/* position in the program (etna_finish) */
};

struct etna_shader;

struct etna_block {
	struct list_node link;
	struct etna_shader *shader;
	struct list instrs;		/* struct etna_instr */
	unsigned index;
	struct etna_block *succ[2];
	ARRAY(struct etna_block *) preds;
	unsigned ip;			/* first instruction's position */
	bool follows_loop_end;		/* the IR block after a loop (for printing) */
};

/* Register classes of values (etna_ra.c, Mesa's reg_class). */
enum etna_reg_class {
	ETNA_CLASS_SCALAR, ETNA_CLASS_VEC2, ETNA_CLASS_VEC3, ETNA_CLASS_VEC4,
	ETNA_CLASS_VEC2T,		/* fast transcendentals: XY or ZW */
	ETNA_CLASS_VEC2C,		/* LOAD: contiguous components */
	ETNA_CLASS_VEC3C,
	ETNA_NUM_CLASSES,
};

struct etna_value {
	uint8_t num_components;
	uint8_t cls;			/* enum etna_reg_class */
	int forced;			/* virtual register (etna_ra.h), or -1 */
	bool live_in;			/* an input: live from the start */
	bool written;			/* selection: a writer was emitted (the first
					 * writer decides the class) */
	unsigned vreg;			/* after allocation: the virtual register */
};

/* The uniform file as Mesa's etna_compile builds it: 64-bit entries, the
 * kind in the high word (ETNA_UNIFORM_*), the payload in the low word. */
enum etna_uniform_kind {
	ETNA_UNIFORM_UNUSED, ETNA_UNIFORM_CONSTANT, ETNA_UNIFORM_UNIFORM,
	ETNA_UNIFORM_TEXTURE_SIZE, ETNA_UNIFORM_UBO_ADDR,
	ETNA_UNIFORM_DRIVER,		/* a draw parameter the driver fills */
};
#define ETNA_MAX_IMM 1024		/* 32-bit words of the uniform image */
#define ETNA_UNIFORM(kind, v) ((uint64_t)(kind) << 32 | (uint32_t)(v))


struct etna_shader {
	struct arena *arena;
	enum shader_stage stage;
	const struct etna_info *info;
	struct list blocks;		/* struct etna_block */
	unsigned num_blocks;
	ARRAY(struct etna_value) values;
	uint64_t consts[ETNA_MAX_IMM];	/* the uniform image */
	unsigned const_count;		/* vec4 used */
	unsigned num_inputs;		/* input registers (VS attributes, FS varyings) */
	unsigned num_outputs;		/* VS varyings (position and point size apart) */
	bool has_point_size;
	unsigned num_loops;
	bool assigned;			/* registers are physical */
	unsigned num_temps;		/* after assignment */
	unsigned num_instrs;		/* after etna_finish */
};

/* A shader in arena `a`; its growable arrays are freed by
 * etna_shader_release, before the arena. */
struct etna_shader *etna_shader_create(struct arena *a, enum shader_stage stage,
				       const struct etna_info *info);
void etna_shader_release(struct etna_shader *s);
struct etna_block *etna_block_create(struct etna_shader *s);
struct etna_instr *etna_instr_create(struct etna_block *b, enum etna_opc opc);
/* A new value of `n` components (its class from n). */
unsigned etna_value_create(struct etna_shader *s, unsigned n);
void etna_block_add_pred(struct etna_block *b, struct etna_block *pred);

#define etna_foreach_block(b, s) list_for_each_entry(struct etna_block, b, &(s)->blocks, link)
#define etna_foreach_instr(i, b) list_for_each_entry(struct etna_instr, i, &(b)->instrs, link)
#define etna_foreach_instr_safe(i, b) \
	list_for_each_entry_safe(struct etna_instr, i, &(b)->instrs, link)
#define etna_foreach_instr_rev(i, b) \
	list_for_each_entry_rev(struct etna_instr, i, &(b)->instrs, link)

/* Swizzle helpers: a swizzle is 4 channels of 2 bits in a byte (Mesa's
 * INST_SWIZ), or four bytes in the structures above. */
static inline bool etna_src_used(const struct etna_instr *i, unsigned slot)
{
	return i->src[slot].file != ETNA_FILE_NONE;
}

/* The stages of the backend (one file each). */
struct strbuf;
/* Registers: virtual register classes, liveness, interference, colouring,
 * then the physical form.  False with a message when a value finds no
 * register (no spilling, as Mesa). */
bool etna_ra(struct etna_shader *s, struct strbuf *err);
/* Positions and branch targets; an empty program gets one nop (a pass:
 * returns true). */
bool etna_finish(struct etna_shader *s);
/* The statistics, by ID (etna_stats.c). */
void etna_collect_stats(const struct etna_shader *s, struct stat_values *v);
/* Whether the machine IR is well formed (blocks, values, operands); else
 * why, in `err`.  Run after every pass in test builds. */
bool etna_validate(const struct etna_shader *s, struct strbuf *err);
/* etnaviv's assembly syntax, one instruction per line. */
void etna_disasm(struct strbuf *out, const struct etna_shader *s);
/* The machine IR before assignment (values as %N), for dumps. */
void etna_print(struct strbuf *out, const struct etna_shader *s);
/* Independent checks of the result: every read of a temporary sees the
 * value its source names (the allocation, write masks and swizzles), and
 * the target's limits.  False with a message naming the instruction. */
bool etna_verify_regs(const struct etna_shader *s, struct strbuf *err);
bool etna_verify_limits(const struct etna_shader *s, struct strbuf *err);

#endif
