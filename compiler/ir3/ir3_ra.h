/*
 * What the scheduler, register allocation and the stages after it share:
 * liveness, merge sets and the half-register units RA counts in.
 *
 * The register file is measured in half-register units ("physregs"): a full
 * component takes 2, a half component 1.  Full rN.c is physreg 2*(4N+c);
 * half hrN.c is physreg 4N+c, which on merged-register GPUs (a6xx+) is the
 * low or high half of r(N/2).  Before a6xx the half file is separate.
 */
#ifndef SHDB_IR3_RA_H
#define SHDB_IR3_RA_H

#include "compiler/ir3/ir3.h"

#define RA_FULL_SIZE IR3_FULL_UNITS	/* r0.x–r47.w (ir3.h) */
#define RA_HALF_SIZE IR3_GPR_COMPS	/* hr0.x–hr47.w */

struct ir3_use_pos;

struct ir3_liveness {
	unsigned ndefs, nblocks;
	struct ir3_register **defs;	/* by name */
	bitset_word **live_in, **live_out;	/* by block index */
	/* by name, after ir3_index_last_uses: the last read of the value in
	 * each block that reads it (phis excluded), by instruction ip */
	struct ir3_use_pos **last_use;
};

struct ir3_liveness *ir3_calc_liveness(struct ir3 *ir, struct arena *a);
/* Index the last read of every value in each block, by the `ip` the
 * instructions have now (increasing within a block), so that
 * ir3_def_live_after answers without scanning the block; valid until
 * instructions move or ips change. */
void ir3_index_last_uses(struct ir3_liveness *l, struct ir3 *ir, struct arena *a);
/* Is `def` read after `instr` (later in its block, or live-out)? */
bool ir3_def_live_after(const struct ir3_liveness *l, const struct ir3_register *def,
			const struct ir3_instruction *instr);

/* A merge set (ir3_merge.c): values that share a register when they can. */
struct ir3_merge_set {
	unsigned size;			/* half-register units */
	unsigned alignment;		/* 1 (all half) or 2 */
	unsigned preferred_reg;		/* ~0u: none yet */
	unsigned interval_start;
	struct ir3_register **regs;	/* members, in dominance order */
	unsigned nregs;
	void *coverage;			/* ir3_ra.c's pressure count, per unit */
	unsigned spill_slot;		/* ir3_spill.c: byte offset of the set's slot, ~0u none */
};

/* Register pressure in half-register units (a full component counts 2). */
struct ir3_pressure {
	unsigned full, half;
};

/* IR3_REG_KILL on the sources that read a value for the last time
 * (FIRST_KILL on the first of them in an instruction), UNUSED on
 * destinations nothing reads (ir3_liveness.c). */
void ir3_calc_kills(struct ir3 *ir, struct ir3_liveness *l, struct arena *a);

/* Split the critical edges that lead to a block with phis, or every one
 * (`all`: the spiller places code at the end of predecessors). */
void ir3_split_critical_edges(struct ir3 *ir, bool all);
/* Give every phi a parallel copy at the end of each predecessor (CSSA);
 * splits critical edges first. */
void ir3_create_parallel_copies(struct ir3 *ir);
/* Coalesce phis, then splits, collects and parallel copies into merge sets,
 * and lay every value out on the global interval line.  `after_spill`:
 * first force together the splits and collects whose value overlaps its
 * source on the interval line the spiller kept (it counted them as one). */
void ir3_merge_regs(struct ir3 *ir, struct ir3_liveness *l, bool after_spill);

/* ir3_spill.c (a5xx+): bring the pressure at or under `limit` with stores
 * and reloads of private memory (meta spill/reload, made stp/ldp by
 * ir3_lower_spill after allocation).  Needs liveness, merge sets and kills;
 * they are stale afterwards.  ir->pvtmem_size grows by the slots. */
void ir3_spill(struct ir3 *ir, struct ir3_liveness *l, struct ir3_pressure limit);
/* The lowest limit spilling can meet: what one instruction needs at once
 * (Mesa's calc_min_limit_pressure, for the stress mode). */
struct ir3_pressure ir3_spill_min_limit(struct ir3 *ir, struct ir3_liveness *l);
/* ir3_lower_spill.c: spill/reload → stp/ldp of at most 4 components, offsets
 * past the 13-bit field through the base register. */
void ir3_lower_spill(struct ir3 *ir);

/* GPR values: those the register file holds. */
static inline bool ir3_ra_def(const struct ir3_register *r)
{
	return (r->flags & IR3_REG_SSA) &&
	       !(r->flags & (IR3_REG_PREDICATE | IR3_REG_ADDR | IR3_REG_SHARED));
}

static inline bool ir3_ra_src(const struct ir3_register *r)
{
	return r->def && (r->flags & IR3_REG_SSA) && ir3_ra_def(r->def) &&
	       !(r->flags & (IR3_REG_CONST | IR3_REG_IMMED));
}

#endif
