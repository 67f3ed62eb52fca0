/*
 * Instruction selection, shared by its files (ir3_isel*.c): the context and
 * the helpers that read and define values.
 *
 * Every IR value maps to an array of scalar machine values, one per
 * component (64-bit: two 32-bit halves per component, low first).  A 1-bit
 * boolean is a half register holding 0 or 1 from a5xx on, a full one before
 * (Mesa's bool_type).  Each IR block becomes exactly one machine block, so
 * phis and branches map one to one; the IR's end block holds `end`.
 */
#ifndef SHDB_IR3_ISEL_H
#define SHDB_IR3_ISEL_H

#include "compiler/ir3/ir3_iface.h"
#include "compiler/ir3/ir3_nir.h"
#include "compiler/ir3/ir3_ir.h"	/* ir3's foreach_* and TYPE_* (see there) */

#define ISEL_MAX_OUTPUT_SLOTS 64

/* The FS barycentrics inputs (Mesa's ir3_bary), pixel/centroid/sample of
 * perspective and of linear interpolation. */
enum isel_ij {
	ISEL_IJ_PERSP_PIXEL, ISEL_IJ_PERSP_CENTROID, ISEL_IJ_PERSP_SAMPLE,
	ISEL_IJ_LINEAR_PIXEL, ISEL_IJ_LINEAR_CENTROID, ISEL_IJ_LINEAR_SAMPLE,
	ISEL_IJ_COUNT
};

struct isel {
	struct shader *s;
	const struct ir3_info *t;
	const struct ir3_const_layout *cl;
	struct ir3 *ir;
	struct ir3_builder b;		/* where the current IR instruction's code goes */
	struct strbuf *err;
	bool failed;

	struct ir3_register ***vals;	/* by SSA index: the components */
	struct ir3_block **blocks;	/* by IR block index; [num_blocks] is the end */
	unsigned num_blocks;
	unsigned loops;
	struct ir3_block *main_start;	/* after the preamble, or NULL */
	struct ir3_register *a1;	/* the last a1.x set (stc), and its value */
	unsigned a1_value;
	/* the movas to a0.x made in the current block, by the byte offset they
	 * hold in dwords (Mesa's addr0_ht, reset for each block) */
	struct isel_addr0 {
		struct ssa_def *off;
		struct ir3_instruction *mova;
	} addr0[8];
	unsigned num_addr0;
	struct ir3_block *addr0_block;

	unsigned bool_flags;		/* IR3_REG_HALF (a5xx+) or 0 */
	enum ir3_type bool_type;	/* TYPE_U16 or TYPE_U32 */

	/* inputs, created once in the first block */
	struct ir3_register *ijs[ISEL_IJ_COUNT];	/* FS: barycentrics inputs by kind */
	struct ir3_register *point_coord[2];	/* FS: gl_PointCoord's bary.f */
	unsigned point_coord_inloc;
	unsigned prefetches;		/* FS: texture prefetches made */
	unsigned *input_slot;		/* by input decl: its first slot (elements in order) */
	unsigned num_input_slots;
	struct ir3_register **input_vals;	/* by input slot × 4 components */
	struct ir3_register *sysvals[INTR_COUNT][4];
	bool shared_values;		/* a shared system value was placed (shared_reads) */
	unsigned *inloc;		/* FS: the varying location of input slot × 4 */
	unsigned *input_mask;		/* by input slot: the components load_input reads */

	/* outputs, per exit (a block before the end): the value last stored
	 * by output slot × 4 components; a located output's slot is its
	 * location (+ its dual-source index), so the declarations sharing a
	 * location share its slot (Mesa's slots: one vector per location),
	 * the builtins' slots follow (output_slot) */
	unsigned *output_slot;		/* by output decl: its first slot */
	unsigned num_output_slots;
	struct isel_exit {
		struct ir3_block *block;
		struct ir3_register **vals;
	} *exits;
	unsigned num_exits;

	/* local arrays (ir3_isel_local.c): the last movas of a0.x made */
#define ISEL_ADDR_CACHE 8
	struct isel_addr {
		struct ssa_def *idx;
		unsigned stride;
		struct ir3_instruction *mova;
	} addrs[ISEL_ADDR_CACHE];
	unsigned num_addrs, next_addr;
	bool has_arrays;
};

/* Fail the shader with a message (the first one wins). */
__attribute__((format(printf, 2, 3)))
void isel_error(struct isel *c, const char *fmt, ...);

/* The machine values of an IR source / value; defining a value. */
struct ir3_register **isel_get(struct isel *c, struct ssa_def *def);
struct ir3_register **isel_def(struct isel *c, struct ssa_def *def);

/* A builder at the top of the program (the first block, after its inputs):
 * inputs, varyings and system values go there so they dominate every use
 * and the inputs stay first. */
struct ir3_builder isel_top(struct isel *c);
/* Where varyings are fetched: the top of the main shader, after the
 * preamble when there is one (its first block, after the fetches already
 * there), else isel_top(). */
struct ir3_builder isel_varying_top(struct isel *c);
/* The main shader's first block: the one after the preamble's if
 * (ir3_nir_opt_preamble) when there is one, else the function's first. */
struct block *isel_main_start(struct function *fn);

/* A scalar immediate or const-file component through a mov (cp folds it). */
struct ir3_register *isel_imm(struct isel *c, uint32_t bits, bool half);
struct ir3_register *isel_const(struct isel *c, unsigned comp);
/* A source's value as a full (half = false) or half register. */
struct ir3_register *isel_resize(struct isel *c, struct ir3_register *r, bool half);
/* The register a value of `bit_size` bits lives in: IR3_REG_HALF or 0. */
unsigned isel_reg_flags(struct isel *c, unsigned bit_size);
/* A predicate p0.x for a boolean (a compare re-emitted into p0 when it is
 * one, as Mesa's ir3_get_predicate + ir3_opt_predicates). */
struct ir3_register *isel_predicate(struct isel *c, struct ir3_register *cond);
/* A vector of `n` scalars (a collect, or the one scalar). */
struct ir3_register *isel_collect(struct isel *c, struct ir3_register **regs, unsigned n);
/* Split a vector destination into `n` scalars. */
void isel_split(struct isel *c, struct ir3_register *vec, unsigned n, struct ir3_register **out);
/* A constant source (load_const), or false. */
bool isel_src_const(struct src *src, unsigned comp, uint32_t *value);

void isel_alu(struct isel *c, struct alu_instr *alu);
void isel_intrinsic(struct isel *c, struct intrinsic_instr *intr);
void isel_tex(struct isel *c, struct tex_instr *tex);
/* load_local/store_local: an ir3 array per local (ir3_isel_local.c). */
void isel_local(struct isel *c, struct intrinsic_instr *intr);
/* Constant-index stores written by the value's producer itself. */
void isel_fold_array_stores(struct isel *c);
/* FS: the pixel barycentrics input (made on first use). */
struct ir3_register *isel_ij(struct isel *c);
struct ir3_register *isel_ij_kind(struct isel *c, enum isel_ij kind);
/* FS: a texture prefetch of `tex` when it qualifies (ir3_isel_tex.c). */
bool isel_tex_prefetch(struct isel *c, struct tex_instr *tex);

/* Record what an input's register holds (ir3_iface.h), named. */
void isel_iface_input(struct isel *c, struct ir3_register *input, struct ir3_iface_input what);
/* A declaration's name for humans: its own, its builtin's, or "location N";
 * "[elem]" for an array (in the machine program's arena). */
const char *isel_decl_name(struct isel *c, const struct io_decl *d, unsigned elem);

/* FS varyings and VS inputs before the shader body; `end` after it. */
void isel_setup_inputs(struct isel *c);
void isel_emit_end(struct isel *c);

#endif
