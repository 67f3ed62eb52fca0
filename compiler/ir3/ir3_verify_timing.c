/*
 * Timing verifier, written apart from legalisation: it replays the final
 * program cycle by cycle from the hardware rules of targets.md §1.6 and
 * checks that every read comes late enough and every sync is in place.
 *
 *  - Cycles: an ALU or flow instruction (not jump/br/braa/brao) takes
 *    1 + repeat + nop cycles; SFU, texture, memory and cat7 take none.
 *    With (rptN) element e is read at issue + e and written at issue + 1 + e.
 *  - An ALU result written at cycle w may be read by an ALU instruction of
 *    the same register size at w + alu_to_alu, by anything else (or with a
 *    half/full mismatch in a merged file) at w + non_alu; mad/madsh read
 *    src2, gat/swz source n, later.  p0 and a0 results: w + non_alu.
 *    `end` and `chmask` wait for nothing.
 *  - SFU, local-memory and other (ss) producers leave their destination
 *    pending until an (ss); texture, global, const and private loads and
 *    global atomics until a (sy).  Reading or writing a pending register
 *    without the flag is an error, and so is writing a register a texture,
 *    memory or SFU instruction may still be reading (store/SFU sources need
 *    (ss), load/texture sources (ss) or (sy)).  After a cat7 barrier both
 *    flags come before the next instruction (one may ride on a nop just
 *    before it); cat5/cat6 carry no (ss).
 *  - alias.tex sources are read by the texture instruction that follows.
 * States are merged over predecessors (latest writes, union of pendings)
 * and iterated to a fixed point over loops before anything is reported.
 */
#include "compiler/ir3/ir3_passes.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

#define NUNITS 1024			/* GPR units; predicates and a0 after them */
#define P_SLOT 1000
#define A_SLOT 1010
#define NSLOT 1012
#define NONE INT_MIN

enum { W_FULL, W_HALF, W_KINDS };

struct tstate {
	int written[NSLOT][W_KINDS];	/* cycle an ALU result was written, relative */
	bitset_word pend_ss[BITSET_WORDS(NSLOT)], pend_sy[BITSET_WORDS(NSLOT)];
	bitset_word war_ss[BITSET_WORDS(NSLOT)], war_any[BITSET_WORDS(NSLOT)];
	bitset_word const_ss[BITSET_WORDS(2048)];
	bool barrier_ss, barrier_sy;	/* a barrier still waits for these flags */
	int cycle;
};

struct tctx {
	struct ir3 *ir;
	const struct ir3_info *t;
	struct tstate *exit;
	bool *done;
	bool report, failed;
	struct strbuf *err;
	/* alias.tex sources waiting for their texture instruction */
	const struct ir3_register *deferred[32];
	unsigned ndeferred;
	bitset_word alias_units[BITSET_WORDS(NSLOT)];
};

__attribute__((format(printf, 3, 4)))
static void fail(struct tctx *c, const struct ir3_instruction *i, const char *fmt, ...)
{
	if (!c->report || c->failed)
		return;
	c->failed = true;
	strbuf_addstr(c->err, "timing: ");
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(c->err, fmt, ap);
	va_end(ap);
	strbuf_addf(c->err, " in b%u: ", i->block->index);
	ir3_print_instr(c->err, i);
}

/* ------------------------------------------------------------------ */

static bool is_alu(const struct ir3_instruction *i)
{
	unsigned cat = ir3_cat(i);
	return cat >= 1 && cat <= 3;
}

static bool takes_cycles(const struct ir3_instruction *i)
{
	if (is_alu(i))
		return true;
	if (ir3_cat(i) != 0)
		return false;
	return i->opc != OPC_JUMP && i->opc != OPC_BR && i->opc != OPC_BRAA && i->opc != OPC_BRAO;
}

static unsigned late_read(const struct tctx *c, const struct ir3_instruction *i, unsigned n)
{
	if (i->opc == OPC_GAT || i->opc == OPC_SWZ)
		return n;
	bool mad = i->opc == OPC_MAD_U16 || i->opc == OPC_MADSH_U16 || i->opc == OPC_MAD_S16 ||
		   i->opc == OPC_MADSH_M16 || i->opc == OPC_MAD_U24 || i->opc == OPC_MAD_S24 ||
		   i->opc == OPC_MAD_F16 || i->opc == OPC_MAD_F32;
	return mad && n == 2 ? c->t->delay.cat3_src2_read : 0;
}

static bool needs_ss_result(const struct ir3_instruction *i)
{
	unsigned cat = ir3_cat(i);
	if (cat == 4)
		return true;
	switch (i->opc) {
	case OPC_LDL: case OPC_LDLW: case OPC_LDLV: case OPC_SHFL: case OPC_GETFIBERID:
	case OPC_RESINFO:
	case OPC_ATOMIC_ADD: case OPC_ATOMIC_XCHG: case OPC_ATOMIC_CMPXCHG: case OPC_ATOMIC_MIN:
	case OPC_ATOMIC_MAX: case OPC_ATOMIC_AND: case OPC_ATOMIC_OR: case OPC_ATOMIC_XOR:
		return true;
	default:
		return false;
	}
}

static bool needs_sy_result(const struct ir3_instruction *i)
{
	if (ir3_cat(i) == 5)
		return i->ndst > 0;
	switch (i->opc) {
	case OPC_LDG: case OPC_LDG_A: case OPC_LDP: case OPC_LDIB: case OPC_LDC:
	case OPC_ATOMIC_G_ADD: case OPC_ATOMIC_G_XCHG: case OPC_ATOMIC_G_CMPXCHG:
	case OPC_ATOMIC_G_MIN: case OPC_ATOMIC_G_MAX: case OPC_ATOMIC_G_AND:
	case OPC_ATOMIC_G_OR: case OPC_ATOMIC_G_XOR:
	case OPC_LDGB: case OPC_ATOMIC_B_ADD: case OPC_ATOMIC_B_XCHG: case OPC_ATOMIC_B_CMPXCHG:
	case OPC_ATOMIC_B_MIN: case OPC_ATOMIC_B_MAX: case OPC_ATOMIC_B_AND: case OPC_ATOMIC_B_OR:
	case OPC_ATOMIC_B_XOR:
		return true;
	default:
		return false;
	}
}

static bool is_store(const struct ir3_instruction *i)
{
	switch (i->opc) {
	case OPC_STG: case OPC_STG_A: case OPC_STL: case OPC_STP: case OPC_STLW: case OPC_STIB:
	case OPC_STGB: case OPC_STC: case OPC_STSC:
		return true;
	default:
		return false;
	}
}

/* An array operand: the first component it touches (its element, or the
 * whole array through a0.x; nothing for a write's tied source). */
static unsigned elem0(const struct ir3_register *r)
{
	unsigned first = 0;
	if (r->flags & IR3_REG_ARRAY)
		ir3_reg_span(r, &first);
	return first;
}

/* The slots component `comp` of a register covers. */
static unsigned slots(const struct tctx *c, const struct ir3_register *r, unsigned comp,
		      unsigned *first)
{
	unsigned num = r->num + elem0(r) + comp;
	if (r->flags & IR3_REG_PREDICATE) {
		*first = P_SLOT + (num & 3);
		return 1;
	}
	if (r->flags & IR3_REG_ADDR) {
		*first = A_SLOT + (num & 1);
		return 1;
	}
	if (r->flags & (IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_RT | IR3_REG_SHARED) ||
	    num >= IR3_GPR_COMPS)
		return 0;
	*first = ir3_reg_unit(c->t->mergedregs, r->flags & IR3_REG_HALF, num);
	return ir3_reg_elem_size(r);
}

static unsigned elems(const struct ir3_register *r)
{
	unsigned first;
	if (r->flags & IR3_REG_ARRAY)
		return ir3_reg_span(r, &first);
	return r->wrmask ? 32 - (unsigned)__builtin_clz(r->wrmask) : 1;
}

/* ------------------------------------------------------------------ */

static void check_delay(struct tctx *c, struct tstate *s, const struct ir3_instruction *i,
			const struct ir3_register *r, unsigned n, int issue)
{
	if (i->opc == OPC_END || i->opc == OPC_CHMASK)
		return;
	bool half = r->flags & IR3_REG_HALF;
	bool pred = r->flags & (IR3_REG_PREDICATE | IR3_REG_ADDR);
	int at = issue + (int)late_read(c, i, n);
	for (unsigned e = 0; e < elems(r); e++) {
		unsigned first, count = slots(c, r, e, &first);
		for (unsigned u = first; u < first + count; u++)
			for (int k = 0; k < W_KINDS; k++) {
				int w = s->written[u][k];
				if (w == NONE)
					continue;
				bool same = pred || (k == W_HALF) == half;
				int need = w + (int)(is_alu(i) && same && !pred ? c->t->delay.alu_to_alu
										 : c->t->delay.non_alu);
				if (at < need) {
					fail(c, i, "reads %s%s%u.%c %d cycle(s) too early",
					     pred ? "" : half ? "hr" : "r", pred ? "p0." : "",
					     pred ? 0 : (r->num + e) >> 2, "xyzw"[(r->num + e) & 3], need - at);
					return;
				}
			}
		if (i->repeat && !(r->flags & IR3_REG_RELATIV))
			at++;
	}
}

static void check_sync(struct tctx *c, struct tstate *s, const struct ir3_instruction *i,
		       const struct ir3_register *r, bool write)
{
	for (unsigned e = 0; e < elems(r); e++) {
		unsigned first, count = slots(c, r, e, &first);
		for (unsigned u = first; u < first + count; u++) {
			if (bitset_test(s->pend_ss, u)) {
				fail(c, i, "uses an SFU/local-memory result without (ss)");
				return;
			}
			if (bitset_test(s->pend_sy, u)) {
				fail(c, i, "uses a texture/memory result without (sy)");
				return;
			}
			if (write && (bitset_test(s->war_ss, u) || bitset_test(s->war_any, u))) {
				fail(c, i, "overwrites a register a texture/memory/SFU instruction may still read");
				return;
			}
		}
	}
}

static void set_units(struct tctx *c, bitset_word *set, const struct ir3_register *r)
{
	for (unsigned e = 0; e < elems(r); e++) {
		unsigned first, count = slots(c, r, e, &first);
		for (unsigned u = first; u < first + count; u++)
			bitset_set(set, u);
	}
}

static void record_writes(struct tctx *c, struct tstate *s, const struct ir3_instruction *i,
			  int issue)
{
	for (unsigned n = 0; n < i->ndst; n++) {
		const struct ir3_register *d = i->dsts[n];
		int w = issue + 1 + ((i->opc == OPC_SWZ || i->opc == OPC_SCT) ? (int)n : 0);
		for (unsigned e = 0; e < elems(d); e++) {
			unsigned first, count = slots(c, d, e, &first);
			for (unsigned u = first; u < first + count; u++) {
				if (is_alu(i)) {
					int k = (d->flags & IR3_REG_HALF) ? W_HALF : W_FULL;
					s->written[u][W_FULL] = s->written[u][W_HALF] = NONE;
					s->written[u][k] = w;
				} else {
					s->written[u][W_FULL] = s->written[u][W_HALF] = NONE;
				}
			}
			if (i->repeat)
				w++;
		}
	}
}

static void run_instr(struct tctx *c, struct tstate *s, const struct ir3_instruction *i)
{
	if (ir3_is_meta(i))
		return;
	unsigned f = i->flags;
	if ((f & IR3_INSTR_SS) && (ir3_cat(i) == 5 || ir3_cat(i) == 6))
		fail(c, i, "cat%u has no (ss) bit", ir3_cat(i));
	/* after a barrier both syncs come before anything but a nop carrying them */
	if (f & IR3_INSTR_SS)
		s->barrier_ss = false;
	if (f & IR3_INSTR_SY)
		s->barrier_sy = false;
	if ((s->barrier_ss || s->barrier_sy) && i->opc != OPC_NOP)
		fail(c, i, "follows a barrier without (ss)(sy)");
	if (f & IR3_INSTR_SS) {
		memset(s->pend_ss, 0, sizeof(s->pend_ss));
		memset(s->war_ss, 0, sizeof(s->war_ss));
		memset(s->war_any, 0, sizeof(s->war_any));
		memset(s->const_ss, 0, sizeof(s->const_ss));
	}
	if (f & IR3_INSTR_SY) {
		memset(s->pend_sy, 0, sizeof(s->pend_sy));
		memset(s->war_any, 0, sizeof(s->war_any));
	}

	if (i->opc == OPC_ALIAS && i->alias_scope == ALIAS_TEX) {
		/* read by the texture instruction that follows */
		for (unsigned n = 0; n < i->nsrc && c->ndeferred < 32; n++)
			c->deferred[c->ndeferred++] = i->srcs[n];
		for (unsigned n = 0; n < i->ndst; n++)
			set_units(c, c->alias_units, i->dsts[n]);
		return;
	}

	int issue = s->cycle;
	for (unsigned n = 0; n < i->nsrc; n++) {
		const struct ir3_register *r = i->srcs[n];
		if ((r->flags & IR3_REG_CONST) && !(r->flags & IR3_REG_RELATIV) && r->num < 2048 &&
		    bitset_test(s->const_ss, r->num) && !(f & IR3_INSTR_SS))
			fail(c, i, "reads a const stc wrote without (ss)");
		unsigned first;
		if (ir3_cat(i) == 5 && slots(c, r, 0, &first) && bitset_test(c->alias_units, first))
			continue;
		check_sync(c, s, i, r, false);
		check_delay(c, s, i, r, n, issue);
	}
	for (unsigned n = 0; n < i->ndst; n++)
		check_sync(c, s, i, i->dsts[n], true);
	for (unsigned n = 0; n < i->nsrc + (i->ndst ? 1 : 0); n++)
		if ((n < i->nsrc ? i->srcs[n] : i->dsts[0])->flags & IR3_REG_RELATIV) {
			struct ir3_register a0 = { .flags = IR3_REG_ADDR, .num = 0, .wrmask = 1 };
			check_delay(c, s, i, &a0, n < i->nsrc ? n : 0, issue);
			break;
		}
	if (ir3_cat(i) == 5) {
		for (unsigned k = 0; k < c->ndeferred; k++) {
			check_sync(c, s, i, c->deferred[k], false);
			check_delay(c, s, i, c->deferred[k], 0, issue);
		}
		c->ndeferred = 0;
		memset(c->alias_units, 0, sizeof(c->alias_units));
	}

	/* what this instruction leaves pending */
	if (ir3_syncs_next(i))
		s->barrier_ss = s->barrier_sy = true;
	else if (i->opc != OPC_NOP)
		s->barrier_ss = s->barrier_sy = false;
	if (i->ndst && needs_ss_result(i))
		set_units(c, s->pend_ss, i->dsts[0]);
	if (i->ndst && needs_sy_result(i))
		set_units(c, s->pend_sy, i->dsts[0]);
	for (unsigned n = 0; n < i->ndst; n++)
		if (i->dsts[n]->flags & IR3_REG_SHARED)
			set_units(c, s->pend_ss, i->dsts[n]);
	if (ir3_cat(i) >= 4 && ir3_cat(i) <= 6) {
		bool ss = needs_ss_result(i) || is_store(i);
		for (unsigned n = 0; n < i->nsrc; n++)
			set_units(c, ss ? s->war_ss : s->war_any, i->srcs[n]);
	}
	if (i->opc == OPC_STC && i->nsrc >= 2 && (i->srcs[0]->flags & IR3_REG_IMMED))
		for (unsigned k = ir3_stc_dst(i); k < ir3_stc_dst(i) + elems(i->srcs[1]) && k < 2048; k++)
			bitset_set(s->const_ss, k);

	record_writes(c, s, i, issue);
	if (takes_cycles(i))
		s->cycle += 1 + (int)i->repeat + (int)i->nop;
}

/* ------------------------------------------------------------------ */

static void entry_state(struct tctx *c, struct ir3_block *b, struct tstate *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned u = 0; u < NSLOT; u++)
		s->written[u][W_FULL] = s->written[u][W_HALF] = NONE;
	for (unsigned p = 0; p < b->npreds; p++) {
		const struct tstate *ps = &c->exit[b->preds[p]->index];
		if (!c->done[b->preds[p]->index])
			continue;
		for (unsigned u = 0; u < NSLOT; u++)
			for (int k = 0; k < W_KINDS; k++) {
				int w = ps->written[u][k];
				if (w == NONE)
					continue;
				w -= ps->cycle;
				if (w > s->written[u][k])
					s->written[u][k] = w;
			}
		bitset_union(s->pend_ss, ps->pend_ss, NSLOT);
		bitset_union(s->pend_sy, ps->pend_sy, NSLOT);
		bitset_union(s->war_ss, ps->war_ss, NSLOT);
		bitset_union(s->war_any, ps->war_any, NSLOT);
		bitset_union(s->const_ss, ps->const_ss, 2048);
		/* the barrier rule is Mesa's legalize_block's: the next
		 * instruction of the same block; a block starts clear */
	}
}

static bool run(struct tctx *c)
{
	bool changed = false;
	struct tstate *s = xmalloc(sizeof(*s));
	foreach_block(b, c->ir) {
		entry_state(c, b, s);
		c->ndeferred = 0;
		memset(c->alias_units, 0, sizeof(c->alias_units));
		foreach_instr(i, b)
			run_instr(c, s, i);
		if (!c->done[b->index] || memcmp(&c->exit[b->index], s, sizeof(*s))) {
			c->exit[b->index] = *s;
			c->done[b->index] = true;
			changed = true;
		}
	}
	free(s);
	return changed;
}

bool ir3_verify_timing(struct ir3 *ir, struct strbuf *err)
{
	struct tctx c = { .ir = ir, .t = ir->target, .err = err };
	ir3_calc_preds(ir);
	c.exit = xcalloc(ir->nblocks ? ir->nblocks : 1, sizeof(*c.exit));
	c.done = xcalloc(ir->nblocks ? ir->nblocks : 1, sizeof(*c.done));
	for (unsigned round = 0; round < 4 * ir->nblocks + 8 && run(&c); round++)
		;
	c.report = true;
	run(&c);
	free(c.exit);
	free(c.done);
	return !c.failed;
}
