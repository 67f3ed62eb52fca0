/*
 * The ir3 machine IR: one instruction per hardware instruction (categories
 * 0–7, Mesa's opcode names), plus meta instructions (input, split, collect,
 * phi, parallel copy) that exist only before register allocation is lowered.
 * ../shared/reference/targets.md §1 has every rule this IR is checked against.
 *
 * Values are SSA: a value is the destination register of the instruction
 * that defines it (`struct ir3_register`, with a dense `name`); a source
 * points at its value through `def`.  A value has a class and a size:
 *
 *	full   32-bit components (rN.c), 1–16 contiguous components
 *	half   16-bit components (hrN.c)                       IR3_REG_HALF
 *	pred   p0.x–p0.w, written by cmps, read by br/kill     IR3_REG_PREDICATE
 *	addr   a0.x, written by mova, read by relative access  IR3_REG_ADDR
 *
 * After register allocation every GPR operand also carries its physical
 * register in `num` (component index: r1.y = 5, hr0.z = 2) and the value
 * names stay, so the verifiers can check what each read sees.  Copies that
 * allocation inserts carry IR3_INSTR_COPY and no names: they move values.
 *
 * Building (what instruction selection produces):
 *
 *	struct ir3 *ir = ir3_create(arena, STAGE_FRAGMENT);
 *	struct ir3_block *b = ir3_block_create(ir);
 *	struct ir3_builder bld = ir3_builder_at_end(b);
 *	struct ir3_register *ij = ir3_b_input(&bld, 0, 2, true);
 *	struct ir3_register *v = ir3_b_bary(&bld, 0, ij);
 *	struct ir3_register *x = ir3_b_alu2(&bld, OPC_MUL_F, v, ir3_b_const(&bld, TYPE_F32, 0));
 *	ir3_b_end(&bld, 1, &x);
 *
 * Every instruction lives in one block; blocks form the CFG through their
 * successors (a block ends with at most one terminator: jump, br, …).
 */
#ifndef SHDB_IR3_H
#define SHDB_IR3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/ir3/ir3_info.h"
#include "compiler/stage.h"
#include "compiler/util/arena.h"
#include "compiler/util/bitset.h"
#include "compiler/util/strbuf.h"

enum ir3_opc {
#define OP(id, name, cat, nd, ns, fl, s0, s1, s2, s3) OPC_##id,
#include "compiler/ir3/ir3_ops.def"
	OPC_COUNT
};

/* Opcode properties (the `flags` column of ir3_ops.def). */
enum {
	IR3_OP_RPT = 1 << 0,		/* (rptN) allowed (ir3_supports_rpt) */
	IR3_OP_COMM = 1 << 1,		/* src0 and src1 may be swapped */
	IR3_OP_FLOAT = 1 << 2,		/* float ALU: immediates from the float table */
	IR3_OP_COND = 1 << 3,		/* has a condition (cmps.f.lt) */
	IR3_OP_MAD = 1 << 4,		/* reads src2 late (mad/madsh) */
	IR3_OP_ALT = 1 << 5,		/* cat3 alternative encoding (12-bit immediates) */
	IR3_OP_TERM = 1 << 6,		/* ends a block */
	IR3_OP_NOCOUNT = 1 << 7,	/* flow that costs no cycle in legalize */
	IR3_OP_SIDE = 1 << 8,		/* has effects beyond its destinations */
	IR3_OP_LOAD = 1 << 9,
	IR3_OP_STORE = 1 << 10,
	IR3_OP_ATOMIC = 1 << 11,
	IR3_OP_LOCAL = 1 << 12,		/* local (shared) memory: results need (ss) */
	IR3_OP_GLOBAL = 1 << 13,	/* global/image memory: results need (sy) */
	IR3_OP_PRIVATE = 1 << 14,	/* private memory (ldp/stp: spills) */
	IR3_OP_CONSTMEM = 1 << 15,	/* ldc/stc */
	IR3_OP_SSDST = 1 << 16,		/* other (ss) producers: resinfo, getfiberid, shfl */
	IR3_OP_INPUT = 1 << 17,		/* varying fetch: bary.f, flat.b, ldlv ((ei)) */
	IR3_OP_HELPERS = 1 << 18,	/* implicit derivatives: needs helper invocations */
	IR3_OP_BARRIER = 1 << 19,	/* orders all memory accesses */
	IR3_OP_NOALIAS = 1 << 20,	/* tex that never takes alias.tex sources */
	IR3_OP_WAVE = 1 << 21,		/* reads other fibres or which fibres run: not
					   merged (CSE), keeps helper fibres alive */
};

struct ir3_opc_info {
	const char *name;
	unsigned char cat;		/* 0–7, 8 for meta */
	signed char ndst, nsrc;		/* -1: variable */
	unsigned flags;			/* IR3_OP_* */
	unsigned src_flags[4];		/* IR3_REG_* a source in slot 0, 1, 2, 3+ may carry */
};

extern const struct ir3_opc_info ir3_opc_info[OPC_COUNT];

static inline const struct ir3_opc_info *ir3_op(enum ir3_opc opc)
{
	return &ir3_opc_info[opc];
}

/* Register flags. */
enum {
	IR3_REG_HALF = 1 << 0,
	IR3_REG_CONST = 1 << 1,
	IR3_REG_IMMED = 1 << 2,
	IR3_REG_RELATIV = 1 << 3,	/* c<a0.x + n> */
	IR3_REG_SHARED = 1 << 4,	/* r48.x–r55.w: not allocated by RA; selection
					   places what it puts there (IR3_SHARED_FIRST) */
	IR3_REG_FNEG = 1 << 5,
	IR3_REG_FABS = 1 << 6,
	IR3_REG_SNEG = 1 << 7,
	IR3_REG_SABS = 1 << 8,
	IR3_REG_BNOT = 1 << 9,
	IR3_REG_R = 1 << 10,		/* (r): the register advances with (rptN) */
	IR3_REG_EI = 1 << 11,		/* (ei) on the last varying fetch */
	IR3_REG_PREDICATE = 1 << 12,	/* p0.x–p0.w */
	IR3_REG_ADDR = 1 << 13,		/* a0.x (num 0), a1.x (num 1) */
	IR3_REG_SSA = 1 << 14,		/* a value (dst) or a use of one (src) */
	IR3_REG_ALIAS = 1 << 15,	/* a7xx: a tex source read through alias.tex */
	IR3_REG_FIRST_ALIAS = 1 << 16,	/* the first source of an alias group */
	IR3_REG_RT = 1 << 17,		/* alias.rt destination rtN.c */
	IR3_REG_KILL = 1 << 18,		/* liveness: the value dies here */
	IR3_REG_FIRST_KILL = 1 << 19,	/* … and this is its first source in the instr */
	IR3_REG_UNUSED = 1 << 20,	/* a destination nothing reads */
	IR3_REG_EARLY_CLOBBER = 1 << 21,/* may not share a register with a source */
	IR3_REG_ASSIGNED = 1 << 22,	/* `num` holds a physical register */
	IR3_REG_ARRAY = 1 << 23,	/* an ir3 array (`size` components): a value of the
					   whole array, or an access of element `rel_offset`
					   (+ a0.x with IR3_REG_RELATIV) of it */
	IR3_REG_TIED = 1 << 24,		/* an array write's source: the array it updates,
					   whose register the new value takes */
};

#define IR3_SHARED_FIRST (48 * 4)	/* r48.x, the first shared register */
#define IR3_RPT_MAX 4			/* members of a repeat group: up to (rpt3) */

#define IR3_REG_MODS (IR3_REG_FNEG | IR3_REG_FABS | IR3_REG_SNEG | IR3_REG_SABS | IR3_REG_BNOT)

/* Instruction flags. */
enum {
	IR3_INSTR_SS = 1 << 0,		/* (ss) */
	IR3_INSTR_SY = 1 << 1,		/* (sy) */
	IR3_INSTR_JP = 1 << 2,		/* (jp) reconvergence point */
	IR3_INSTR_EQ = 1 << 3,		/* (eq) end of helper invocations */
	IR3_INSTR_SAT = 1 << 4,		/* (sat) */
	IR3_INSTR_3D = 1 << 5,		/* cat5 .3d */
	IR3_INSTR_A = 1 << 6,		/* cat5 .a (array) */
	IR3_INSTR_O = 1 << 7,		/* cat5 .o (offset) */
	IR3_INSTR_S = 1 << 8,		/* cat5 .s (shadow) */
	IR3_INSTR_P = 1 << 9,		/* cat5 .p */
	IR3_INSTR_INV = 1 << 10,	/* br !p0.x */
	IR3_INSTR_COPY = 1 << 11,	/* inserted by RA to move a value */
	IR3_INSTR_NEEDS_HELPERS = 1 << 12,
	IR3_INSTR_MARK = 1 << 13,	/* scratch for passes */
	IR3_INSTR_FIXED_SYNC = 1 << 14,	/* selection wants (ss)(sy) here: legalize adds them */
	IR3_INSTR_S2EN = 1 << 15,	/* cat5 .s2en: sampler and texture from the last source */
	IR3_INSTR_SSBO = 1 << 16,	/* isam of SSBO `tex` at the element src0.x */
};

enum ir3_type {
	TYPE_F16, TYPE_F32, TYPE_U16, TYPE_U32, TYPE_S16, TYPE_S32, TYPE_U8, TYPE_S8,
	TYPE_ATOMIC_U64,	/* 64-bit SSBO atomics only (Mesa's TYPE_ATOMIC_U64) */
	TYPE_COUNT
};

enum ir3_cond { COND_LT, COND_LE, COND_GT, COND_GE, COND_EQ, COND_NE, COND_COUNT };

enum ir3_alias_scope { ALIAS_TEX = 0, ALIAS_RT = 3, ALIAS_MEM = 4 };

struct ir3_merge_set;
struct ir3_iface;

struct ir3_register {
	unsigned flags;			/* IR3_REG_* */
	unsigned num;			/* physical register (component index) when assigned;
					   const component for IR3_REG_CONST */
	unsigned wrmask;		/* components: contiguous bits from bit 0 */
	union {
		uint32_t uim;		/* immediate bits */
		int32_t iim;
		float fim;
		int rel_offset;		/* relative: c<a0.x + rel_offset>; array
					   access: the element (+ a0.x if relative) */
	};
	unsigned size;			/* IR3_REG_ARRAY: the array's components */
	unsigned array_id;		/* IR3_REG_ARRAY: which array (for the text form) */
	struct ir3_register *def;	/* src: the value it reads */
	struct ir3_instruction *instr;	/* the instruction this register belongs to */
	unsigned name;			/* dst: dense value index */
	int slot;			/* end/chmask src: output slot (0–31: rt0.x–rt7.w), -1 none */
	struct ir3_block *pred;		/* phi src: the predecessor it comes from */

	/* register allocation (ir3_merge.c, ir3_ra.c) */
	struct ir3_merge_set *merge_set;
	unsigned merge_set_offset;	/* in half-register units */
	unsigned interval_start, interval_end;
	unsigned next_use;		/* spilling (ir3_spill.c): cycles to the next read */
};

struct ir3_instruction {
	struct ir3_instruction *prev, *next;
	struct ir3 *ir;
	struct ir3_block *block;
	enum ir3_opc opc;
	unsigned flags;			/* IR3_INSTR_* */
	unsigned repeat;		/* (rptN) */
	unsigned nop;			/* (nopN), cat2/cat3 on a6xx+ */

	unsigned ndst, nsrc, dst_cap, src_cap;
	struct ir3_register **dsts, **srcs;

	enum ir3_type type;		/* cat1 source type; cat5/cat6/alias data type */
	enum ir3_type dst_type;		/* cat1 destination type */
	enum ir3_cond cond;		/* cmps/cmpv */
	unsigned tex, samp;		/* cat5 t#, s# */
	int off;			/* split: component offset; cat6 stp: byte offset */
	unsigned alias_scope, alias_table;	/* alias.tex/.rt */
	bool bary_input;		/* input: barycentrics feeding bary.f */

	struct ir3_block *target;	/* branch target */
	struct ir3_instruction *address;/* the mova whose a0.x a relative operand uses */

	/* spilling: a reload, a rematerialised mov or a phi joining them holds
	 * a copy of this value; a spill or reload (stp/ldp after lowering)
	 * moves its components from `spill_comp` on.  The verifier sees them
	 * as one. */
	struct ir3_register *spill_of;
	unsigned spill_comp;

	unsigned serial;		/* creation order, for stable output */
	/* repeat group (Mesa 24.3's rpt groups, ir3_rpt.c): the scalar
	 * instructions selection made for the components of one vector ALU
	 * operation share an id (0: none).  After the pre-RA scheduler a
	 * group is a run of adjacent instructions of one id, in creation
	 * order; RA gives its values consecutive registers where it can and
	 * ir3_merge_rpt makes one (rptN) instruction of those that got them.
	 * `rpt_orig`: after that merge, the instructions it stands for (this
	 * one as it was first), for the register verifier; NULL otherwise. */
	unsigned rpt_id;
	struct ir3_instruction **rpt_orig;
	unsigned ip;			/* position; set by passes that need it */
	void *data;			/* per-pass scratch */
};

struct ir3_block {
	struct ir3 *ir;
	struct ir3_block *prev, *next;	/* program order */
	struct ir3_instruction *first, *last;
	struct ir3_block *succ[2];
	struct ir3_block **preds;
	unsigned npreds, preds_cap;
	unsigned index;			/* program order, set by ir3_index_blocks */
	const char *name;		/* label in the text form */

	struct ir3_block *idom;		/* ir3_calc_dominance */
	unsigned dom_pre, dom_post;	/* dominator-tree numbering */
	bool reconvergence;		/* first instruction gets (jp) */
	void *data;			/* per-pass scratch */
};

/* ir3.test_break: what a test asks to break (SHDB_IR3_BREAK=ra,postsched,nops) */
enum {
	IR3_BREAK_RA = 1 << 0,		/* RA's parallel copies are lost (phi moves, splits) */
	IR3_BREAK_POSTSCHED = 1 << 1,	/* the post-RA scheduler ignores write-after-read */
	IR3_BREAK_NOPS = 1 << 2,	/* legalize adds no nops for delays */
};

struct ir3_input {
	unsigned num;			/* first component */
	unsigned wrmask;
	bool half;
	bool bary;
};

/* A shader's machine program.  Everything is allocated from `arena`. */
struct ir3 {
	struct arena *arena;
	enum shader_stage stage;
	struct ir3_block *first, *last;
	unsigned nblocks;
	unsigned ndefs;			/* value names handed out */
	unsigned serial;		/* instructions created */
	unsigned rpt_ids;		/* repeat groups made (ids 1 … rpt_ids) */

	/* interface, set by instruction selection (or the text form) */
	unsigned const_size;		/* vec4 of the const file used before immediates */
	uint32_t *immediates;		/* lowered immediates, placed after const_size */
	unsigned nimmediates, immediates_cap;
	unsigned local_size[3];		/* compute */
	unsigned shared_size;		/* compute: bytes of local memory */
	unsigned pvtmem_size;		/* bytes of private memory per fiber: scratch
					   arrays, then spill slots (ir3_spill.c) */
	int branchstack;		/* -1: computed (ir3_calc_reconvergence) */
	int loops;			/* -1: count of back edges */
	bool need_pixlod;		/* FS uses implicit derivatives */
	bool legalized;			/* branches resolved, nops and syncs in place */
	bool prefetch_end_of_quad;	/* FS: helpers end with the prefetches */

	/* test only: passes that break their own rules on purpose, so the
	 * tests can show the simulator catches them (IR3_BREAK_*) */
	unsigned test_break;

	/* what selection bound the registers, varyings and outputs to
	 * (ir3_iface.h), or NULL: the simulator reads it */
	struct ir3_iface *iface;

	/* filled by the pipeline */
	const struct ir3_info *target;
	struct ir3_input *inputs;	/* input registers after RA (for `full`) */
	unsigned ninputs;
	unsigned max_bary;
};

/* ------------------------------------------------------------------ */
/* creation and editing (ir3.c) */

struct ir3 *ir3_create(struct arena *arena, enum shader_stage stage);
struct ir3_block *ir3_block_create(struct ir3 *ir);
/* Create an instruction at the end of `block` (before nothing: callers add
 * terminators last) with room for the given number of registers. */
struct ir3_instruction *ir3_instr_create(struct ir3_block *block, enum ir3_opc opc,
					 unsigned ndst, unsigned nsrc);
/* A new unlinked instruction; insert it with ir3_instr_insert_*. */
struct ir3_instruction *ir3_instr_new(struct ir3 *ir, enum ir3_opc opc, unsigned ndst,
				      unsigned nsrc);
void ir3_instr_insert_before(struct ir3_instruction *pos, struct ir3_instruction *i);
void ir3_instr_insert_after(struct ir3_instruction *pos, struct ir3_instruction *i);
void ir3_instr_append(struct ir3_block *b, struct ir3_instruction *i);
void ir3_instr_prepend(struct ir3_block *b, struct ir3_instruction *i);
void ir3_instr_remove(struct ir3_instruction *i);
/* Insert before the block's terminator (or at its end when it has none). */
void ir3_instr_insert_before_terminator(struct ir3_block *b, struct ir3_instruction *i);
struct ir3_instruction *ir3_instr_clone(struct ir3_instruction *i);
/* A new unlinked instruction with i's fields, in no repeat group, and
 * register arrays of its own for the caller to fill (ndst/nsrc entries). */
struct ir3_instruction *ir3_instr_copy_shell(struct ir3_instruction *i);

/* A new value: `ncomp` components, IR3_REG_HALF/PREDICATE/ADDR in flags. */
struct ir3_register *ir3_dst_create(struct ir3_instruction *i, unsigned flags, unsigned ncomp);
/* A destination that is a physical register, not a value (nops, copies). */
struct ir3_register *ir3_dst_phys(struct ir3_instruction *i, unsigned flags, unsigned num,
				  unsigned ncomp);
struct ir3_register *ir3_src_ssa(struct ir3_instruction *i, struct ir3_register *def,
				 unsigned flags);
struct ir3_register *ir3_src_imm(struct ir3_instruction *i, uint32_t bits, unsigned flags);
struct ir3_register *ir3_src_const(struct ir3_instruction *i, unsigned comp, unsigned flags);
struct ir3_register *ir3_src_phys(struct ir3_instruction *i, unsigned flags, unsigned num,
				  unsigned ncomp);
struct ir3_register *ir3_reg_clone(struct ir3 *ir, const struct ir3_register *r);
/* Give `r` the class half/full, components and array of `like`. */
void ir3_reg_set_shape(struct ir3_register *r, const struct ir3_register *like);
/* The tied source of an array write (IR3_REG_TIED), or NULL. */
static inline struct ir3_register *ir3_tied_src(const struct ir3_instruction *i)
{
	if (i->nsrc && (i->srcs[i->nsrc - 1]->flags & IR3_REG_TIED))
		return i->srcs[i->nsrc - 1];
	return NULL;
}
/* An access of element rel_offset of array `id` (`size` components), or a
 * whole-array source (IR3_REG_TIED …) whose value ir3_array_to_ssa finds. */
struct ir3_register *ir3_src_array(struct ir3_instruction *i, unsigned id, unsigned size,
				   unsigned flags);
/* A new version of array `id`, written at element rel_offset. */
struct ir3_register *ir3_dst_array(struct ir3_instruction *i, unsigned id, unsigned size,
				   unsigned flags);
/* Selection wrote array accesses naming no version: give each the version
 * it reads (phis where paths meet, undef where nothing wrote yet).  Mesa's
 * ir3_array_to_ssa (ir3_array_to_ssa.c). */
void ir3_array_to_ssa(struct ir3 *ir);
void ir3_add_src(struct ir3_instruction *i, struct ir3_register *r);
void ir3_add_dst(struct ir3_instruction *i, struct ir3_register *r);

void ir3_block_link(struct ir3_block *from, struct ir3_block *to);	/* next free succ */
/* Recompute every block's predecessors from the successors. */
void ir3_calc_preds(struct ir3 *ir);
void ir3_block_add_pred(struct ir3_block *b, struct ir3_block *pred);
void ir3_block_remove_pred(struct ir3_block *b, struct ir3_block *pred);
void ir3_index_blocks(struct ir3 *ir);
void ir3_block_remove(struct ir3_block *b);
struct ir3_instruction *ir3_block_terminator(struct ir3_block *b);
unsigned ir3_pred_index(struct ir3_block *b, struct ir3_block *pred);
/* Immediate dominators over the CFG (blocks in program order reachable from
 * the first); also the pre/post numbering for ir3_block_dominates(). */
void ir3_calc_dominance(struct ir3 *ir);
bool ir3_block_dominates(const struct ir3_block *a, const struct ir3_block *b);
/* The dominator tree as lists (after ir3_calc_dominance): `first[b]` is the
 * index of b's first child, `sibling[c]` the next child; ~0u ends a list. */
void ir3_dom_children(struct ir3 *ir, unsigned *first, unsigned *sibling);

/* An immediate lowered to the const file: returns its const component. */
unsigned ir3_const_add_imm(struct ir3 *ir, uint32_t bits);

/* ------------------------------------------------------------------ */
/* building (ir3.c): values in, values out */

struct ir3_builder {
	struct ir3_block *block;
	struct ir3_instruction *before;	/* NULL: append to the block */
};

static inline struct ir3_builder ir3_builder_at_end(struct ir3_block *b)
{
	return (struct ir3_builder){ .block = b };
}

struct ir3_instruction *ir3_b_instr(struct ir3_builder *b, enum ir3_opc opc, unsigned ndst,
				   unsigned nsrc);
struct ir3_register *ir3_b_input(struct ir3_builder *b, unsigned flags, unsigned ncomp,
				 bool bary);
struct ir3_register *ir3_b_mov(struct ir3_builder *b, enum ir3_type type, struct ir3_register *src);
struct ir3_register *ir3_b_cov(struct ir3_builder *b, enum ir3_type from, enum ir3_type to,
			       struct ir3_register *src);
struct ir3_register *ir3_b_imm(struct ir3_builder *b, enum ir3_type type, uint32_t bits);
struct ir3_register *ir3_b_const(struct ir3_builder *b, enum ir3_type type, unsigned comp);
/* cat2/cat3/cat4: the result has the size of the first source (cmps: full
 * unless `flags` says IR3_REG_PREDICATE or IR3_REG_HALF). */
struct ir3_register *ir3_b_alu1(struct ir3_builder *b, enum ir3_opc opc, struct ir3_register *a);
struct ir3_register *ir3_b_alu2(struct ir3_builder *b, enum ir3_opc opc, struct ir3_register *a,
				struct ir3_register *c);
struct ir3_register *ir3_b_alu3(struct ir3_builder *b, enum ir3_opc opc, struct ir3_register *a,
				struct ir3_register *c, struct ir3_register *d);
struct ir3_register *ir3_b_cmp(struct ir3_builder *b, enum ir3_opc opc, enum ir3_cond cond,
			       unsigned dst_flags, struct ir3_register *a, struct ir3_register *c);
struct ir3_register *ir3_b_bary(struct ir3_builder *b, unsigned inloc, struct ir3_register *ij);
struct ir3_register *ir3_b_collect(struct ir3_builder *b, unsigned n, struct ir3_register **srcs);
struct ir3_register *ir3_b_split(struct ir3_builder *b, struct ir3_register *vec, unsigned comp);
struct ir3_register *ir3_b_tex(struct ir3_builder *b, enum ir3_opc opc, enum ir3_type type,
			       unsigned wrmask, unsigned tex, unsigned samp, unsigned nsrc,
			       struct ir3_register **srcs);
/* A phi at the top of `block`; its sources come with ir3_phi_add_src. */
struct ir3_register *ir3_b_phi(struct ir3_block *block, unsigned flags, unsigned ncomp);
void ir3_phi_add_src(struct ir3_register *phi, struct ir3_block *pred, struct ir3_register *value);
/* The phi source coming from `pred`, or NULL. */
struct ir3_register *ir3_phi_src(struct ir3_instruction *phi, struct ir3_block *pred);
struct ir3_instruction *ir3_b_end(struct ir3_builder *b, unsigned n, struct ir3_register **srcs);
struct ir3_instruction *ir3_b_jump(struct ir3_builder *b, struct ir3_block *to);
struct ir3_instruction *ir3_b_br(struct ir3_builder *b, struct ir3_register *pred,
				 struct ir3_block *then, struct ir3_block *otherwise);

/* ------------------------------------------------------------------ */
/* queries */

static inline unsigned ir3_cat(const struct ir3_instruction *i) { return ir3_op(i->opc)->cat; }
static inline bool ir3_is_meta(const struct ir3_instruction *i) { return ir3_cat(i) == 8; }
static inline bool ir3_is_flow(const struct ir3_instruction *i) { return ir3_cat(i) == 0; }
static inline bool ir3_is_alu(const struct ir3_instruction *i)
{
	return ir3_cat(i) >= 1 && ir3_cat(i) <= 3;
}
static inline bool ir3_is_sfu(const struct ir3_instruction *i) { return ir3_cat(i) == 4; }
static inline bool ir3_is_tex(const struct ir3_instruction *i) { return ir3_cat(i) == 5; }
static inline bool ir3_is_mem(const struct ir3_instruction *i) { return ir3_cat(i) == 6; }
static inline bool ir3_is_barrier(const struct ir3_instruction *i) { return ir3_cat(i) == 7; }
/* A cat7 barrier the next instruction of its block waits for with (ss)(sy)
 * (Mesa's legalize_block): not alias, nor a7xx's lock/unlock, which Mesa
 * adds after legalisation and leaves unlock and end bare after. */
static inline bool ir3_syncs_next(const struct ir3_instruction *i)
{
	return ir3_is_barrier(i) && i->opc != OPC_ALIAS && i->opc != OPC_LOCK &&
	       i->opc != OPC_UNLOCK;
}
static inline bool ir3_has_flag(const struct ir3_instruction *i, unsigned f)
{
	return (ir3_op(i->opc)->flags & f) != 0;
}
/* The first const component an stc writes: its immediate (8 bits), plus
 * a1.x when it has a third source (Mesa's store_const_ir3: a1.x holds the
 * high part, a multiple of 256, set by a mova1 of an immediate, or of a
 * mov of one when the immediate does not fit mova1). */
static inline unsigned ir3_stc_dst(const struct ir3_instruction *i)
{
	unsigned dst = i->srcs[0]->uim;
	const struct ir3_register *v = i->nsrc > 2 ? i->srcs[2] : NULL;
	for (int k = 0; k < 2 && v && !(v->flags & IR3_REG_IMMED); k++)
		v = v->def && v->def->instr->nsrc ? v->def->instr->srcs[0] : NULL;
	return v && (v->flags & IR3_REG_IMMED) ? dst + v->uim : dst;
}
static inline bool ir3_is_terminator(const struct ir3_instruction *i)
{
	return ir3_has_flag(i, IR3_OP_TERM);
}
static inline bool ir3_is_local_load(const struct ir3_instruction *i)
{
	return ir3_has_flag(i, IR3_OP_LOAD) && ir3_has_flag(i, IR3_OP_LOCAL);
}
static inline bool ir3_is_input(const struct ir3_instruction *i)
{
	return ir3_has_flag(i, IR3_OP_INPUT);
}
/* Needs (ss) before its result is used (targets.md §1.6). */
bool ir3_is_ss_producer(const struct ir3_instruction *i);
/* Needs (sy) before its result is used. */
bool ir3_is_sy_producer(const struct ir3_instruction *i);
/* Reads its sources after issue: writing them needs a sync (WAR). */
bool ir3_is_war_producer(const struct ir3_instruction *i);
/* cat5/cat6 have no (ss) bit ([new]: alias has one). */
bool ir3_supports_ss(const struct ir3_instruction *i);
bool ir3_writes_addr(const struct ir3_instruction *i);
bool ir3_writes_pred(const struct ir3_instruction *i);
/* A copy that may be folded into its users: a mov that does not convert,
 * an absneg without (sat), a single-source phi (Mesa's is_same_type_mov). */
bool ir3_is_same_type_mov(const struct ir3_instruction *i);

static inline unsigned ir3_reg_elems(const struct ir3_register *r)
{
	if (r->flags & IR3_REG_ARRAY)
		return r->size;
	return r->wrmask ? 32 - (unsigned)__builtin_clz(r->wrmask) : 1;
}
/* Half-register units per component: 1 for half, 2 for full. */
static inline unsigned ir3_reg_elem_size(const struct ir3_register *r)
{
	return (r->flags & IR3_REG_HALF) ? 1 : 2;
}
static inline unsigned ir3_reg_size(const struct ir3_register *r)
{
	return ir3_reg_elems(r) * ir3_reg_elem_size(r);
}
/* An access of one element of an array (not the whole array value, as
 * meta instructions, a write's tied source and spills' stp/ldp name it). */
static inline bool ir3_reg_is_array_access(const struct ir3_register *r)
{
	return (r->flags & (IR3_REG_ARRAY | IR3_REG_TIED)) == IR3_REG_ARRAY && r->instr &&
	       ir3_op(r->instr->opc)->cat != 8 && !(ir3_op(r->instr->opc)->flags & IR3_OP_PRIVATE);
}
/* The component an access of a non-relative array element names (after RA). */
static inline unsigned ir3_array_elem_num(const struct ir3_register *r)
{
	return r->num + (unsigned)r->rel_offset;
}
/* The components of its register an operand touches, from *first: one
 * element for an array access at a constant index, the whole array through
 * a0.x, none for an array write's tied source (no hardware operand), all
 * of them otherwise. */
static inline unsigned ir3_reg_span(const struct ir3_register *r, unsigned *first)
{
	*first = 0;
	if (r->flags & IR3_REG_TIED)
		return 0;
	if (ir3_reg_is_array_access(r) && !(r->flags & IR3_REG_RELATIV)) {
		*first = (unsigned)r->rel_offset;
		return 1;
	}
	return ir3_reg_elems(r);
}
/* A register in the GPR file (not const/immediate/predicate/address/rt). */
static inline bool ir3_reg_is_gpr(const struct ir3_register *r)
{
	return !(r->flags & (IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_PREDICATE | IR3_REG_ADDR |
			     IR3_REG_RT));
}
/* A source that reads a value allocated in the GPR file. */
static inline bool ir3_reg_is_gpr_value(const struct ir3_register *r)
{
	return r->def && ir3_reg_is_gpr(r) && !(r->flags & IR3_REG_RELATIV);
}

/*
 * Register units: how every pass that tracks physical registers (RA,
 * legalize, postsched, the verifiers, the statistics) numbers the GPR file,
 * in half-register units.  A full component rN.c (component number
 * num = 4N+c) is the two units 2·num and 2·num+1; a half component hrN.c is
 * unit num in a merged file (a6xx+: the low or high half of r(N/2)), or
 * IR3_SPLIT_HALF_UNIT + num in a split one (its own file, aliasing nothing).
 */
#define IR3_GPR_COMPS (4 * 48)			/* components per file: r0.x … r47.w */
#define IR3_FULL_UNITS (IR3_GPR_COMPS * 2)	/* units of the full file */
#define IR3_SPLIT_HALF_UNIT 512			/* split files: where the halves start */
#define IR3_REG_UNITS (IR3_SPLIT_HALF_UNIT + IR3_GPR_COMPS)	/* every unit, either way */

/* The first unit of component `num`, full or half. */
static inline unsigned ir3_reg_unit(bool merged, bool half, unsigned num)
{
	if (half)
		return merged ? num : IR3_SPLIT_HALF_UNIT + num;
	return num * 2;
}

const char *ir3_type_name(enum ir3_type t);
bool ir3_type_is_half(enum ir3_type t);
bool ir3_type_is_float(enum ir3_type t);
const char *ir3_cond_name(enum ir3_cond c);

/* May source `n` of `i` carry `flags` (Mesa's ir3_valid_flags, targets.md §1.5)? */
bool ir3_valid_flags(const struct ir3_instruction *i, unsigned n, unsigned flags);
/* Can `i` encode this immediate (−512..511 for most, 8 bits in cat6, any in mov)? */
bool ir3_valid_immediate(const struct ir3_instruction *i, int32_t imm);
/* Can source `r` of `i` (an immediate) be encoded as it is? */
bool ir3_imm_encodable(const struct ir3_instruction *i, const struct ir3_register *r);
/* The float-table index of an immediate for float ALU ops, or -1. */
int ir3_flut(uint32_t bits, bool half);

/* The component a relative or other register names, as "r1.y". */
void ir3_reg_name(struct strbuf *sb, unsigned num, bool half);

/* ------------------------------------------------------------------ */
/* occupancy (ir3_occupancy.c, targets.md §1.3) */

struct ir3_occupancy {
	const struct ir3_info *info;
	enum shader_stage stage;
	unsigned branchstack;
	unsigned local_size[3];
	unsigned shared_size;
};

void ir3_occupancy_init(struct ir3_occupancy *o, const struct ir3 *ir, unsigned branchstack);
bool ir3_should_double_threadsize(const struct ir3_occupancy *o, unsigned regs);
unsigned ir3_reg_independent_max_waves(const struct ir3_occupancy *o, bool dbl);
unsigned ir3_reg_dependent_max_waves(const struct ir3_occupancy *o, unsigned regs, bool dbl);
/* The RA file size (half-register units) that keeps the occupancy of
 * `pressure` (calc_target_full_pressure). */
unsigned ir3_target_full_pressure(const struct ir3_occupancy *o, unsigned pressure);

/* ------------------------------------------------------------------ */
/* iteration */

#define foreach_block(b, ir) for (struct ir3_block *b = (ir)->first; b; b = b->next)
#define foreach_block_safe(b, ir) \
	for (struct ir3_block *b = (ir)->first, *b##_next = b ? b->next : NULL; b; \
	     b = b##_next, b##_next = b ? b->next : NULL)
#define foreach_block_rev(b, ir) for (struct ir3_block *b = (ir)->last; b; b = b->prev)
#define foreach_instr(i, blk) for (struct ir3_instruction *i = (blk)->first; i; i = i->next)
#define foreach_instr_rev(i, blk) for (struct ir3_instruction *i = (blk)->last; i; i = i->prev)
#define foreach_instr_safe(i, blk) \
	for (struct ir3_instruction *i = (blk)->first, *i##_next = i ? i->next : NULL; i; \
	     i = i##_next, i##_next = i ? i->next : NULL)
#define foreach_src(r, instr) \
	for (unsigned r##_n = 0; r##_n < (instr)->nsrc; r##_n++) \
		for (struct ir3_register *r = (instr)->srcs[r##_n]; r; r = NULL)
#define foreach_dst(r, instr) \
	for (unsigned r##_n = 0; r##_n < (instr)->ndst; r##_n++) \
		for (struct ir3_register *r = (instr)->dsts[r##_n]; r; r = NULL)

/* ------------------------------------------------------------------ */
/* text form (ir3_parse.c, ir3_print.c) */

struct diag;

/* Parse the text form; NULL on error (messages in `d`, located at file:line). */
struct ir3 *ir3_parse(struct arena *arena, const char *name, const char *text, struct diag *d);
/* The shader header lines ("stage", "consts", …) the text form carries. */
void ir3_print(struct strbuf *sb, const struct ir3 *ir);
void ir3_print_instr(struct strbuf *sb, const struct ir3_instruction *i);

/* IR validation: a broken invariant is a bug; returns false with a message. */
bool ir3_validate(struct ir3 *ir, struct strbuf *err);

#endif
