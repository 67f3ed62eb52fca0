/*
 * Helpers shared by the passes of compiler/opt: what the opcode and
 * intrinsic tables say an instruction may undergo, and control-flow
 * surgery that keeps the IR valid (phis, uses of deleted code).
 *
 * Instruction properties, from the tables (never from lists of opcodes):
 *
 *	eliminable	no side effect: removable when its value is unused
 *			(alu, load_const, undef, tex, phi, ELIM intrinsics)
 *	reorderable	its value depends only on its sources and on state
 *			fixed for the invocation, so two copies with the same
 *			sources are equal and it may move (alu, load_const,
 *			undef, tex, REORDER intrinsics)
 *	speculatable	reorderable and safe to run where the program would
 *			not have run it: no memory access that could fault or
 *			read out of bounds, no implicit derivatives (alu,
 *			load_const, undef, REORDER intrinsics with constant
 *			sources only)
 *
 * CF surgery.  The IR's own edits (ir.h) insert and remove whole ifs and
 * loops; the passes also need to delete unreachable nodes and to splice a
 * branch or a loop body into its parent.  After any of these, call
 * cf_fixup_phis(): it rebuilds the CFG and drops phi sources from blocks
 * that are no longer predecessors (and gives an undef to a new edge, which
 * can only come from unreachable code).  Values defined in deleted code that
 * are still used elsewhere (only possible from code that is itself
 * unreachable) are replaced by undefs.
 */
#ifndef SHDB_OPT_UTIL_H
#define SHDB_OPT_UTIL_H

#include "compiler/ir/builder.h"

bool instr_is_eliminable(const struct instr *i);
bool instr_is_reorderable(const struct instr *i);
bool instr_is_speculatable(const struct instr *i);

/* An undef of this size at the start of the function. */
struct ssa_def *opt_undef_def(struct shader *s, unsigned num_components, unsigned bit_size);

/* Remove an instruction; uses its value still has become undefs. */
void opt_remove_instr(struct instr *i);

/* A buffer offset as base + constant (`base` NULL: a constant), seeing
 * through iadd(x, c). */
void opt_split_offset(struct ssa_def *o, struct ssa_def **base, int64_t *off);
/* The same value: one SSA value, or two equal scalar constants. */
bool opt_same_scalar(struct ssa_def *x, struct ssa_def *y);

/*
 * SSBO and shared memory accesses (opt_copy_prop_mem, opt_dead_write_mem),
 * with nir_compare_deref_paths' answer to whether two may touch the same
 * bytes: accesses of one buffer (the same slot value) alias unless their
 * offsets, seen as one base value plus constants, give disjoint byte
 * ranges; accesses of two buffers may alias unless either is restrict;
 * shared memory is one buffer, never an SSBO's.
 */
struct opt_mem_range {
	struct ssa_def *slot;		/* the SSBO slot; NULL: shared memory */
	struct ssa_def *base;		/* base + [off, off + bytes); NULL: a constant */
	int64_t off;
	unsigned bytes;
	bool restrict_;
	bool whole;			/* an atomic: all of the buffer */
};
bool opt_is_ssbo_access(enum intrinsic op);
bool opt_is_shared_access(enum intrinsic op);
bool opt_is_mem_store(enum intrinsic op);
bool opt_is_mem_load(enum intrinsic op);
/* The range an SSBO or shared access touches, and its offset source. */
struct ssa_def *opt_mem_describe(struct intrinsic_instr *intr, struct opt_mem_range *r);
bool opt_mem_same_buffer(const struct opt_mem_range *a, const struct opt_mem_range *b);
/* Whether a write of `w` may change the bytes of `k`. */
bool opt_mem_may_alias(const struct opt_mem_range *w, const struct opt_mem_range *k);

/* Whether an ALU source reads its value's components 0..n-1 in order, n
 * being both the components read and the value's size. */
bool alu_src_is_identity(const struct alu_instr *alu, unsigned src);

/*
 * ALU lowering: `lower` sees each ALU instruction with a builder placed
 * before it (exact if the instruction is); it returns a value of the same
 * size to replace it, or NULL to keep it.  Returns whether anything was
 * replaced; the caller reports progress with shader_progress().
 */
typedef struct ssa_def *(*alu_lower_fn)(struct builder *b, struct alu_instr *alu,
					const void *data);
bool lower_alu_instrs(struct shader *s, alu_lower_fn lower, const void *data);
/* ALU source `k` as a value of the components the instruction reads: the
 * value itself when read whole and in order, else a mov applying the
 * swizzle (copy propagation folds it back into the users). */
struct ssa_def *b_alu_src(struct builder *b, struct alu_instr *alu, unsigned k);

/* Delete every CF node after `node` in its list (`node` is a block; its
 * list then ends with it). */
void cf_delete_after(struct cf_node *node);
/* Remove every instruction of a block. */
void cf_empty_block(struct block *b);
/*
 * Replace the if or loop `node` by the contents of `list`, one of its own
 * lists: the first block of `list` joins the block before `node`, the last
 * the block after it, the nodes between move to the parent.  The rest of
 * `node` is deleted.  The caller first removes the phis of the first block
 * of `list` and of the block after `node`; when `list` ends in a jump, the
 * block after `node` must be empty and last in its list.
 */
void cf_inline_list(struct cf_node *node, struct list *list);
/* Move every instruction of `from` (no phis, no jump) to the end of `to`
 * (before its jump, if any). */
void block_move_instrs_to_end(struct block *from, struct block *to);
/* Phi sources naming `old` as predecessor now name `new_pred`; where a phi
 * has one from `new_pred` already, that one stays (`old` was merged after
 * it, behind its jump). */
void phis_rename_pred(struct function *fn, struct block *old, struct block *new_pred);
/* Rebuild the CFG, drop phi sources whose block is not a predecessor and
 * give predecessors without a source an undef. */
void cf_fixup_phis(struct function *fn);
/* The phi's only source when it has exactly one, else NULL. */
struct ssa_def *phi_single_src(struct phi_instr *phi);
/* Replace every phi of a block that has a single source by that source. */
void block_remove_single_src_phis(struct block *b);
/* Whether the block has phis. */
bool block_has_phis(struct block *b);

#endif
