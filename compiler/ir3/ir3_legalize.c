/*
 * Legalisation: every nop and sync flag of the program comes from here,
 * following Mesa's ir3_legalize.c as targets.md §1.6 describes it.
 *
 *  1. Per block, with the state merged from the predecessors (OR of the
 *     sync masks, max of the ready cycles shifted to the block start) and
 *     iterated over the CFG until no block's output state changes:
 *     - (ss) on the first instruction that reads or writes a register an
 *       SFU, local load, shfl, getfiberid, resinfo or local atomic wrote,
 *       and on a write to a register an unfinished tex/mem/SFU still reads;
 *       (sy) on the first reader of a tex, global/const/private load or
 *       global atomic result (or on such a WAR, for tex/load sources);
 *       both after a cat7 barrier and on shpe.  cat5/cat6 have no (ss) bit:
 *       an (ss) goes on a nop before them (reused when it is the previous
 *       instruction).
 *     - the delay each source needs from its register's ready cycle (ALU
 *       result: +alu_to_alu for an ALU reader of the same size, +non_alu
 *       otherwise; a0/p0: +non_alu; an SFU/tex/mem result resets it, the
 *       sync flag covers it), filled by (nopN) on the previous cat2/cat3
 *       without repeat (a6xx+, at most 3), then by growing a previous
 *       (rptN)nop up to (rpt5), then by a new nop.  Only non-scalar ALU and
 *       flow (not jump/br/braa/brao) instructions advance the cycle; (rptN)
 *       reads and writes one element per cycle.
 *     - (ei) on the last varying fetch when all of them are in the first
 *       block.
 *  2. Branches: a conditional block end becomes `br !cond, else` plus
 *     `br cond, then`; jumps to the next block disappear, branches to a
 *     block that only jumps go straight on (forward only).
 *  3. FS: a kill in a block that does not always lead to the end gets a
 *     `br` to the end (branchstack + 1); (eq) on a nop after the last
 *     instruction that needs helper invocations (a6xx+ with pixlod).
 *  4. (jp) on join points, jump offsets.
 *  5. a7xx compute: lock/unlock before the end (cs_lock_unlock).
 *
 * Meta instructions stay in place (they emit nothing) so the verifiers can
 * see the values they define; every rule here looks past them.
 */
#include "compiler/ir3/ir3_passes.h"

#include <string.h>

#include "compiler/util/error.h"

#define GPR_SIZE IR3_GPR_COMPS
#define MASK_BITS 1024
#define MASK_WORDS BITSET_WORDS(MASK_BITS)

typedef struct {
	bitset_word w[MASK_WORDS];
} regmask;

struct nop_state {
	unsigned full_ready[GPR_SIZE];
	unsigned half_ready[GPR_SIZE];
};

struct lstate {
	regmask needs_ss, needs_ss_war, needs_sy, needs_sy_war, needs_ss_or_sy_war;
	bitset_word ss_const[BITSET_WORDS(4 * 512)];	/* const comps written by stc */
	bool force_ss, force_sy;
	bool a1_war;			/* an stc may still read a1.x */
	unsigned cycle;
	struct nop_state alu, non_alu;
	unsigned pred_ready[4], addr_ready[2];
};

struct lblock {
	bool valid;
	struct lstate begin, state;
};

struct lctx {
	struct ir3 *ir;
	const struct ir3_info *t;
	struct lblock *blocks;
	bool early_input_release;
	int max_bary;
};

/* ------------------------------------------------------------------ */
/* register masks: merged files alias a full register with two halves */

static void reg_bits(const struct lctx *c, const struct ir3_register *r, unsigned *first,
		     unsigned *count)
{
	unsigned e0, n = ir3_reg_span(r, &e0);
	*first = ir3_reg_unit(c->t->mergedregs, r->flags & IR3_REG_HALF, r->num + e0);
	*count = n * ir3_reg_elem_size(r);
}

static bool mask_get(const struct lctx *c, const regmask *m, const struct ir3_register *r)
{
	unsigned first, count;
	reg_bits(c, r, &first, &count);
	for (unsigned b = first; b < first + count && b < MASK_BITS; b++)
		if (bitset_test(m->w, b))
			return true;
	return false;
}

static void mask_set(const struct lctx *c, regmask *m, const struct ir3_register *r)
{
	unsigned first, count;
	reg_bits(c, r, &first, &count);
	for (unsigned b = first; b < first + count && b < MASK_BITS; b++)
		bitset_set(m->w, b);
}

static void mask_or(regmask *a, const regmask *b)
{
	bitset_union(a->w, b->w, MASK_BITS);
}

static bool is_gpr(const struct ir3_register *r)
{
	/* hr0–hr95 in a merged file: twice as many half components as full */
	return ir3_reg_is_gpr(r) && !(r->flags & IR3_REG_SHARED) && r->num < 2 * IR3_GPR_COMPS;
}

static bool has_relative(const struct ir3_instruction *i)
{
	for (unsigned n = 0; n < i->nsrc; n++)
		if (i->srcs[n]->flags & IR3_REG_RELATIV)
			return true;
	return i->ndst && (i->dsts[0]->flags & IR3_REG_RELATIV);	/* r<a0.x + n> = … */
}

/* ------------------------------------------------------------------ */
/* sync flags */

static void apply_ss(struct lstate *s)
{
	memset(&s->needs_ss, 0, sizeof(regmask));
	memset(&s->needs_ss_war, 0, sizeof(regmask));
	memset(&s->needs_ss_or_sy_war, 0, sizeof(regmask));
	memset(s->ss_const, 0, sizeof(s->ss_const));
	s->force_ss = false;
	s->a1_war = false;
}

static void apply_sy(struct lstate *s)
{
	memset(&s->needs_sy, 0, sizeof(regmask));
	memset(&s->needs_sy_war, 0, sizeof(regmask));
	memset(&s->needs_ss_or_sy_war, 0, sizeof(regmask));
	s->force_sy = false;
}

static unsigned required_sync(struct lctx *c, struct lstate *s, struct ir3_instruction *n)
{
	if (n->opc == OPC_SHPE)
		return IR3_INSTR_SS | IR3_INSTR_SY;
	unsigned flags = (s->force_ss ? IR3_INSTR_SS : 0) | (s->force_sy ? IR3_INSTR_SY : 0);
	for (unsigned k = 0; k < n->ndst + n->nsrc; k++) {
		const struct ir3_register *r = k < n->ndst ? n->dsts[k] : n->srcs[k - n->ndst];
		if (r->flags & IR3_REG_RT)
			continue;
		if (is_gpr(r)) {
			if (mask_get(c, &s->needs_ss, r))
				flags |= IR3_INSTR_SS;
			if (mask_get(c, &s->needs_sy, r))
				flags |= IR3_INSTR_SY;
		} else if (r->flags & IR3_REG_CONST) {
			bool any = false;
			for (size_t w = 0; w < BITSET_WORDS(4 * 512); w++)
				any |= s->ss_const[w] != 0;
			if ((r->flags & IR3_REG_RELATIV) ? any : (r->num < 4 * 512 && bitset_test(s->ss_const, r->num)))
				flags |= IR3_INSTR_SS;
		}
	}
	for (unsigned k = 0; k < n->ndst; k++) {
		const struct ir3_register *d = n->dsts[k];
		if ((d->flags & IR3_REG_ADDR) && (d->num & 1) && s->a1_war)
			flags |= IR3_INSTR_SS;
		if ((d->flags & IR3_REG_RT) || !is_gpr(d))
			continue;
		if (mask_get(c, &s->needs_sy_war, d))
			flags |= IR3_INSTR_SY;
		if (mask_get(c, &s->needs_ss_war, d) ||
		    (!(flags & IR3_INSTR_SY) && mask_get(c, &s->needs_ss_or_sy_war, d)))
			flags |= IR3_INSTR_SS;
	}
	return flags;
}

static void sync_update(struct lctx *c, struct lstate *s, struct ir3_instruction *n)
{
	if (n->flags & IR3_INSTR_SS)
		apply_ss(s);
	if (n->flags & IR3_INSTR_SY)
		apply_sy(s);
	s->force_ss = s->force_sy = ir3_syncs_next(n);

	struct ir3_register *d0 = n->ndst ? n->dsts[0] : NULL;
	if (d0 && !is_gpr(d0))
		d0 = NULL;
	if (d0 && (ir3_is_sfu(n) || n->opc == OPC_SHFL))
		mask_set(c, &s->needs_ss, d0);
	if (ir3_is_tex(n) && d0)
		mask_set(c, &s->needs_sy, d0);
	else if (n->opc == OPC_RESINFO && d0)
		mask_set(c, &s->needs_ss, d0);
	else if (ir3_has_flag(n, IR3_OP_LOAD) && d0)
		mask_set(c, ir3_has_flag(n, IR3_OP_LOCAL) ? &s->needs_ss : &s->needs_sy, d0);
	else if (ir3_has_flag(n, IR3_OP_ATOMIC) && d0)
		mask_set(c, ir3_has_flag(n, IR3_OP_LOCAL) ? &s->needs_ss : &s->needs_sy, d0);
	else if (n->opc == OPC_GETFIBERID && d0)
		mask_set(c, &s->needs_ss, d0);
	else if (n->opc == OPC_STC && n->nsrc >= 2 && (n->srcs[0]->flags & IR3_REG_IMMED)) {
		unsigned first = ir3_stc_dst(n), count = ir3_reg_elems(n->srcs[1]);
		for (unsigned k = first; k < first + count && k < 4 * 512; k++)
			bitset_set(s->ss_const, k);
		/* a1.x, read after issue like the value (Mesa's regmask holds it) */
		s->a1_war |= n->nsrc > 2;
	}

	/* tex, mem and SFU may read their sources after issue */
	if (ir3_is_war_producer(n) || n->opc == OPC_STC) {
		bool ss = ir3_is_ss_producer(n) || ir3_has_flag(n, IR3_OP_STORE) || n->opc == OPC_STC;
		regmask *m = ss ? &s->needs_ss_war : &s->needs_ss_or_sy_war;
		for (unsigned k = 0; k < n->nsrc; k++)
			if (is_gpr(n->srcs[k]))
				mask_set(c, m, n->srcs[k]);
	}
}

/* ------------------------------------------------------------------ */
/* delays */

static bool counts_cycle(const struct ir3_instruction *n)
{
	if (ir3_is_alu(n))
		return true;
	return ir3_is_flow(n) && !ir3_has_flag(n, IR3_OP_NOCOUNT);
}

/*
 * The ready cycle of a register for a consumer class.  Mesa looks up the
 * other size's slots (a full write also times the two halves it contains,
 * a half write its full register) on every generation; here that aliasing
 * only applies where the files are merged (a6xx+): before a6xx hr0.x is not
 * part of r0.x, and a texture write to r0.x must not clear hr0.x's delay.
 */
static unsigned *ready_slot(struct lctx *c, struct lstate *s, const struct ir3_register *r,
			    unsigned num, bool consumer_alu, bool matching)
{
	if (!matching && !c->t->mergedregs && !(r->flags & (IR3_REG_PREDICATE | IR3_REG_ADDR)))
		return NULL;
	if (r->flags & IR3_REG_PREDICATE)
		return &s->pred_ready[num & 3];
	if (r->flags & IR3_REG_ADDR)
		return &s->addr_ready[num & 1];
	struct nop_state *ns = consumer_alu ? &s->alu : &s->non_alu;
	if (r->flags & IR3_REG_HALF) {
		if (matching)
			return num < GPR_SIZE ? &ns->half_ready[num] : NULL;
		return num / 2 < GPR_SIZE ? &ns->full_ready[num / 2] : NULL;
	}
	if (matching)
		return num < GPR_SIZE ? &ns->full_ready[num] : NULL;
	return num * 2 + 1 < GPR_SIZE ? &ns->half_ready[num * 2] : NULL;
}

static unsigned required_delay(struct lctx *c, struct lstate *s, struct ir3_instruction *n)
{
	if (n->opc == OPC_END || n->opc == OPC_CHMASK)
		return 0;
	unsigned delay = 0;
	bool alu = ir3_is_alu(n);
	for (unsigned k = 0; k < n->nsrc; k++) {
		const struct ir3_register *r = n->srcs[k];
		if (r->flags & (IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_SHARED | IR3_REG_RT))
			continue;
		unsigned e0, elems = ir3_reg_span(r, &e0), num = r->num + e0;
		unsigned src_cycle = s->cycle + ir3_src_read_delay(c->t, n, k);
		for (unsigned e = 0; e < elems; e++, num++) {
			unsigned *slot = ready_slot(c, s, r, num, alu, true);
			if (slot) {
				unsigned ready = *slot > src_cycle ? *slot : src_cycle;
				if (ready - src_cycle > delay)
					delay = ready - src_cycle;
			}
			if (n->repeat && !(r->flags & IR3_REG_RELATIV))
				src_cycle++;
		}
	}
	/* a relative access reads a0.x */
	if (has_relative(n)) {
		unsigned ready = s->addr_ready[0];
		if (ready > s->cycle && ready - s->cycle > delay)
			delay = ready - s->cycle;
	}
	return delay;
}

static void delay_update(struct lctx *c, struct lstate *s, struct ir3_instruction *n)
{
	for (unsigned k = 0; k < n->ndst; k++) {
		const struct ir3_register *d = n->dsts[k];
		if (d->flags & (IR3_REG_RT | IR3_REG_SHARED))
			continue;
		unsigned e0, elems = ir3_reg_span(d, &e0), num = d->num + e0;
		unsigned cycle = s->cycle;
		if (n->opc == OPC_SCT || n->opc == OPC_SWZ)
			cycle += k;
		for (unsigned e = 0; e < elems; e++, num++) {
			if (!(d->flags & IR3_REG_ARRAY) && !(d->wrmask & (1u << e)))
				continue;
			for (int calu = 0; calu < 2; calu++)
				for (int match = 0; match < 2; match++) {
					unsigned *slot = ready_slot(c, s, d, num, calu, match);
					if (!slot)
						continue;
					bool reset = false;
					unsigned delay = 0;
					if (!ir3_is_alu(n)) {
						reset = true;
					} else if (d->flags & (IR3_REG_PREDICATE | IR3_REG_ADDR)) {
						delay = c->t->delay.non_alu;
						if (!match)
							continue;
					} else {
						delay = calu && match ? c->t->delay.alu_to_alu : c->t->delay.non_alu;
					}
					unsigned count = match ? 1 : ir3_reg_elem_size(d);
					for (unsigned x = 0; x < count; x++) {
						unsigned v = cycle + delay;
						slot[x] = reset ? 0 : (slot[x] > v ? slot[x] : v);
					}
				}
			if (n->repeat)
				cycle++;
		}
	}
}

static void update_state(struct lctx *c, struct lstate *s, struct ir3_instruction *n)
{
	sync_update(c, s, n);
	bool count = counts_cycle(n);
	if (count)
		s->cycle += 1;
	delay_update(c, s, n);
	if (count)
		s->cycle += n->repeat + n->nop;
}

/* ------------------------------------------------------------------ */
/* one block */

static struct ir3_instruction *new_nop(struct lctx *c, struct ir3_block *b)
{
	struct ir3_instruction *nop = ir3_instr_new(c->ir, OPC_NOP, 0, 0);
	ir3_instr_append(b, nop);
	return nop;
}

/* An (ss)/(sy) that needs a nop to carry it: reuse the previous nop. */
static struct ir3_instruction *nop_with_flags(struct lctx *c, struct lstate *s,
					      struct ir3_instruction *last, struct ir3_block *b,
					      unsigned flags)
{
	if (last && last->opc == OPC_NOP) {
		last->flags |= flags;
		sync_update(c, s, last);
		return last;
	}
	struct ir3_instruction *nop = new_nop(c, b);
	nop->flags |= flags;
	update_state(c, s, nop);
	return nop;
}

static void merge_preds(struct lctx *c, struct lstate *s, struct ir3_block *b)
{
	for (unsigned p = 0; p < b->npreds; p++) {
		const struct lstate *ps = &c->blocks[b->preds[p]->index].state;
		mask_or(&s->needs_ss, &ps->needs_ss);
		mask_or(&s->needs_ss_war, &ps->needs_ss_war);
		mask_or(&s->needs_sy_war, &ps->needs_sy_war);
		mask_or(&s->needs_ss_or_sy_war, &ps->needs_ss_or_sy_war);
		mask_or(&s->needs_sy, &ps->needs_sy);
		bitset_union(s->ss_const, ps->ss_const, 4 * 512);
		s->force_ss |= ps->force_ss;
		s->force_sy |= ps->force_sy;
		s->a1_war |= ps->a1_war;
#define SHIFT(field) do { \
		unsigned v = ps->field > ps->cycle ? ps->field - ps->cycle : 0; \
		if (v > s->field) s->field = v; \
	} while (0)
		for (unsigned k = 0; k < 4; k++)
			SHIFT(pred_ready[k]);
		for (unsigned k = 0; k < 2; k++)
			SHIFT(addr_ready[k]);
		for (unsigned k = 0; k < GPR_SIZE; k++) {
			SHIFT(alu.full_ready[k]);
			SHIFT(alu.half_ready[k]);
			SHIFT(non_alu.full_ready[k]);
			SHIFT(non_alu.half_ready[k]);
		}
#undef SHIFT
	}
}

static bool legalize_block(struct lctx *c, struct ir3_block *b)
{
	struct lblock *bd = &c->blocks[b->index];
	if (bd->valid)
		return false;

	struct lstate prev = bd->state;
	merge_preds(c, &bd->begin, b);
	bd->state = bd->begin;
	struct lstate *s = &bd->state;
	s->cycle = 0;

	unsigned inputs = 0;
	foreach_instr(i, b)
		inputs += ir3_is_input(i);
	bool last_input_needs_ss = false;

	struct ir3_instruction *list = b->first;
	b->first = b->last = NULL;
	struct ir3_instruction *last = NULL;

	for (struct ir3_instruction *n = list, *next; n; n = next) {
		next = n->next;
		n->prev = n->next = NULL;
		n->flags &= ~(IR3_INSTR_SS | IR3_INSTR_SY);

		if (ir3_is_meta(n)) {
			ir3_instr_append(b, n);
			continue;
		}
		if (ir3_is_input(n) && n->nsrc && (n->srcs[0]->flags & IR3_REG_IMMED)) {
			int inloc = (int)n->srcs[0]->uim + ((n->srcs[0]->flags & IR3_REG_R) ? (int)n->repeat : 0);
			if (inloc > c->max_bary)
				c->max_bary = inloc;
		}

		unsigned sync = required_sync(c, s, n);
		if (n->flags & IR3_INSTR_FIXED_SYNC)
			sync |= IR3_INSTR_SS | IR3_INSTR_SY;
		n->flags |= sync;
		if (sync & IR3_INSTR_SS)
			last_input_needs_ss = false;

		if ((n->flags & IR3_INSTR_SS) && !ir3_supports_ss(n)) {
			last = nop_with_flags(c, s, last, b, IR3_INSTR_SS);
			n->flags &= ~IR3_INSTR_SS;
		}

		unsigned delay = required_delay(c, s, n);
		if (c->ir->test_break & IR3_BREAK_NOPS)
			delay = 0;
		if (delay && c->t->has_nop_flag && last && (ir3_cat(last) == 2 || ir3_cat(last) == 3) &&
		    !last->repeat) {
			unsigned room = 3 - last->nop, t = delay < room ? delay : room;
			last->nop += t;
			delay -= t;
			s->cycle += t;
		}
		if (delay && last && last->opc == OPC_NOP) {
			unsigned room = 5 - last->repeat, t = delay < room ? delay : room;
			last->repeat += t;
			delay -= t;
			s->cycle += t;
		}
		if (delay) {
			if (delay > 6) {
				struct strbuf sb = STRBUF_INIT;
				ir3_print_instr(&sb, n);
				BUG("delay of %u cycles needs more than one nop: %s", delay, sb.buf);
			}
			new_nop(c, b)->repeat = delay - 1;
			s->cycle += delay;
		}

		ir3_instr_append(b, n);

		if (n->opc == OPC_RESINFO) {
			update_state(c, s, n);
			n = new_nop(c, b);
			n->flags |= IR3_INSTR_SS;
			last_input_needs_ss = false;
		}

		if (c->early_input_release && ir3_is_input(n)) {
			last_input_needs_ss |= n->opc == OPC_LDLV;
			if (--inputs == 0) {
				if (n->ndst)
					n->dsts[0]->flags |= IR3_REG_EI;
				if (last_input_needs_ss)
					n->flags |= IR3_INSTR_SS;
			}
		}

		update_state(c, s, n);
		last = n;
	}

	bd->valid = true;
	if (memcmp(&prev, s, sizeof(*s)))
		for (int k = 0; k < 2; k++)
			if (b->succ[k])
				c->blocks[b->succ[k]->index].valid = false;
	return true;
}

/* ------------------------------------------------------------------ */
/* branches */

static bool is_invertible(enum ir3_opc opc)
{
	return opc == OPC_BR || opc == OPC_BANY || opc == OPC_BALL || opc == OPC_BRAA ||
	       opc == OPC_BRAO;
}

static void invert(struct ir3_instruction *br)
{
	switch (br->opc) {
	case OPC_BANY: br->opc = OPC_BALL; break;
	case OPC_BALL: br->opc = OPC_BANY; break;
	case OPC_BRAA: br->opc = OPC_BRAO; break;
	case OPC_BRAO: br->opc = OPC_BRAA; break;
	default: break;
	}
	br->flags ^= IR3_INSTR_INV;
}

static void block_sched(struct lctx *c)
{
	foreach_block(b, c->ir) {
		struct ir3_instruction *t = ir3_block_terminator(b);
		if (b->succ[1]) {
			if (!t)
				BUG("block b%u has two successors and no terminator", b->index);
			struct ir3_instruction *second;
			if (t->opc == OPC_GETONE || t->opc == OPC_SHPS || t->opc == OPC_GETLAST) {
				t->target = b->succ[1];
				second = ir3_instr_new(c->ir, OPC_JUMP, 0, 0);
			} else if (is_invertible(t->opc)) {
				second = ir3_instr_clone(t);
				invert(t);
				t->target = b->succ[1];
			} else {
				/* predt/predf: no prede scheduling is modelled */
				t->target = b->succ[0];
				continue;
			}
			second->target = b->succ[0];
			ir3_instr_insert_after(t, second);
		} else if (b->succ[0]) {
			if (t && t->opc == OPC_SHPE) {
				struct ir3_instruction *j = ir3_instr_new(c->ir, OPC_JUMP, 0, 0);
				ir3_instr_insert_after(t, j);
				t = j;
			}
			if (!t)
				BUG("block b%u falls through without a jump", b->index);
			t->target = b->succ[0];
		}
	}
}

static struct ir3_instruction *first_real(struct ir3_block *b)
{
	foreach_instr(i, b)
		if (!ir3_is_meta(i))
			return i;
	return NULL;
}

static unsigned count_real(struct ir3_block *b, bool *has_phi)
{
	unsigned n = 0;
	*has_phi = false;
	foreach_instr(i, b) {
		*has_phi |= i->opc == OPC_META_PHI;
		n += !ir3_is_meta(i);
	}
	return n;
}

/* A branch to an empty block or a block that only jumps (forward) goes on. */
static struct ir3_block *resolve_dest(struct ir3_block *b)
{
	bool phi;
	if (!b->succ[0] || b->succ[1])
		return b;
	unsigned n = count_real(b, &phi);
	if (phi)
		return b;
	if (n == 0)
		return b->succ[0];
	struct ir3_instruction *i = first_real(b);
	if (n == 1 && i->opc == OPC_JUMP) {
		if (b->succ[0]->index <= b->index)
			return b;
		return b->succ[0];
	}
	return b;
}

/* Phis of `to` that took a value from `old` take it from `from` too (the
 * verifier follows phis along the final CFG). */
static void move_phi_srcs(struct ir3 *ir, struct ir3_block *to, struct ir3_block *old,
			  struct ir3_block *from)
{
	foreach_instr(phi, to) {
		if (phi->opc != OPC_META_PHI)
			break;
		struct ir3_register *src = ir3_phi_src(phi, old);
		if (!src || ir3_phi_src(phi, from))
			continue;
		struct ir3_register *r = ir3_reg_clone(ir, src);
		r->pred = from;
		ir3_add_src(phi, r);
	}
}

static void drop_phi_srcs(struct ir3_block *to, struct ir3_block *old)
{
	foreach_instr(phi, to) {
		if (phi->opc != OPC_META_PHI)
			break;
		unsigned out = 0;
		for (unsigned n = 0; n < phi->nsrc; n++)
			if (phi->srcs[n]->pred != old)
				phi->srcs[out++] = phi->srcs[n];
		phi->nsrc = out;
	}
}

static bool retarget(struct ir3 *ir, struct ir3_instruction *br, struct ir3_block *to)
{
	struct ir3_block *old = br->target, *b = br->block;
	move_phi_srcs(ir, to, old, b);
	for (int s = 0; s < 2; s++)
		if (b->succ[s] == old) {
			b->succ[s] = to;
			break;
		}
	br->target = to;
	if (b->succ[0] != old && b->succ[1] != old)
		ir3_block_remove_pred(old, b);
	ir3_block_add_pred(to, b);
	if (old->npreds == 0 && old != ir->first) {
		for (int k = 0; k < 2; k++)
			if (old->succ[k]) {
				drop_phi_srcs(old->succ[k], old);
				ir3_block_remove_pred(old->succ[k], old);
			}
		ir3_block_remove(old);
		return true;
	}
	return false;
}

static bool opt_jump(struct ir3 *ir)
{
	bool progress = false;
	ir3_index_blocks(ir);
	foreach_block(b, ir) {
		foreach_instr(i, b) {
			if (!ir3_is_flow(i) || !i->target)
				continue;
			struct ir3_block *t = resolve_dest(i->target);
			if (t != i->target) {
				progress = true;
				if (retarget(ir, i, t))
					return true;
			}
		}
		/* drop a jump to the next block, or one of two opposite branches */
		struct ir3_instruction *j0 = b->last, *j1;
		while (j0 && ir3_is_meta(j0))
			j0 = j0->prev;
		if (!j0)
			continue;
		j1 = j0->prev;
		while (j1 && ir3_is_meta(j1))
			j1 = j1->prev;
		if (j0->opc == OPC_JUMP)
			j1 = NULL;
		else if (!is_invertible(j0->opc) || !j1 || !is_invertible(j1->opc))
			continue;
		struct ir3_instruction *js[2] = { j0, j1 };
		for (int k = 0; k < 2; k++) {
			if (js[k] && js[k]->target == b->next) {
				ir3_instr_remove(js[k]);
				progress = true;
				break;
			}
		}
	}
	return progress;
}

/* ------------------------------------------------------------------ */
/* kills and helper invocations (FS) */

static unsigned count_instructions(struct ir3 *ir)
{
	unsigned ip = 0;
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (!ir3_is_meta(i))
				i->ip = ip++;
	return ip;
}

static unsigned block_start_ip(struct ir3_block *b)
{
	for (struct ir3_block *x = b; x; x = x->next) {
		struct ir3_instruction *i = first_real(x);
		if (i)
			return i->ip;
	}
	return ~0u;
}

static unsigned block_end_ip(struct ir3_block *b)
{
	foreach_instr_rev(i, b)
		if (!ir3_is_meta(i))
			return i->ip;
	return block_start_ip(b);
}

static bool kill_sched(struct lctx *c)
{
	struct ir3 *ir = c->ir;
	count_instructions(ir);
	bool always_ends = true, added = false;
	foreach_block_rev(b, ir) {
		for (int s = 0; s < 2; s++)
			if (b->succ[s] && block_start_ip(b->succ[s]) < block_end_ip(b))
				always_ends = false;
		if (always_ends)
			continue;
		foreach_instr_safe(i, b) {
			if (i->opc != OPC_KILL)
				continue;
			struct ir3_instruction *br = ir3_instr_new(ir, OPC_BR, 0, 1);
			ir3_add_src(br, ir3_reg_clone(ir, i->srcs[0]));
			br->target = ir->last;
			ir3_instr_insert_after(i, br);
			added = true;
		}
	}
	if (added) {
		struct ir3_instruction *f = first_real(ir->last);
		if (f)
			f->flags |= IR3_INSTR_JP;
	}
	return added;
}

struct hblock {
	regmask needs;
	bool valid;
	bool begin, end;		/* feature used from the start / at the end */
};

static void mark_instr_helpers(struct lctx *c, regmask *needs, struct ir3_instruction *i)
{
	for (unsigned k = 0; k < i->ndst; k++)
		if (is_gpr(i->dsts[k]) && mask_get(c, needs, i->dsts[k])) {
			i->flags |= IR3_INSTR_NEEDS_HELPERS;
			return;
		}
	if (ir3_has_flag(i, IR3_OP_WAVE)) {
		i->flags |= IR3_INSTR_NEEDS_HELPERS;
		return;
	}
	if (!ir3_has_flag(i, IR3_OP_HELPERS) || !i->nsrc)
		return;
	/* the coordinates were computed with helpers: their writers need them */
	unsigned n;
	if (ir3_is_tex(i) && i->opc != OPC_DSX && i->opc != OPC_DSY && i->opc != OPC_DSXPP_1 &&
	    i->opc != OPC_DSYPP_1)
		n = (i->flags & IR3_INSTR_3D) ? 3 : 2;
	else
		n = i->ndst ? ir3_reg_elems(i->dsts[0]) : 1;
	if (i->srcs[0]->flags & IR3_REG_ALIAS) {
		for (unsigned k = 0; k < n && k < i->nsrc; k++)
			if (is_gpr(i->srcs[k]))
				mask_set(c, needs, i->srcs[k]);
		return;
	}
	struct ir3_register r = *i->srcs[0];
	unsigned have = ir3_reg_elems(&r);
	r.wrmask = (1u << (n < have ? n : have)) - 1;
	if (is_gpr(&r))
		mask_set(c, needs, &r);
}

/* Mesa's mark_helpers: backwards over the registers coordinates come from. */
static bool mark_helpers(struct lctx *c, struct hblock *hb)
{
	struct ir3 *ir = c->ir;
	bool uses = false, progress = true;
	while (progress) {
		progress = false;
		foreach_block_rev(b, ir) {
			struct hblock *d = &hb[b->index];
			if (d->valid)
				continue;
			regmask prev = d->needs;
			memset(&d->needs, 0, sizeof(regmask));
			bool at_entry = true;
			for (int s = 0; s < 2; s++)
				if (b->succ[s])
					mask_or(&d->needs, &hb[b->succ[s]->index].needs);
			foreach_instr_rev(i, b) {
				if (ir3_is_meta(i))
					continue;
				if (!(i->flags & IR3_INSTR_NEEDS_HELPERS))
					mark_instr_helpers(c, &d->needs, i);
				if (i->flags & IR3_INSTR_NEEDS_HELPERS) {
					uses = true;
					memset(&d->needs, 0, sizeof(regmask));
					at_entry = false;
					break;
				}
			}
			d->valid = true;
			if (at_entry && memcmp(&prev, &d->needs, sizeof(regmask))) {
				progress = true;
				for (unsigned p = 0; p < b->npreds; p++)
					hb[b->preds[p]->index].valid = false;
			}
		}
	}
	/* inputs the helpers need: enable them from the start */
	foreach_instr(i, ir->first) {
		if (i->opc != OPC_META_INPUT || !i->ndst || !is_gpr(i->dsts[0]))
			continue;
		if (mask_get(c, &hb[ir->first->index].needs, i->dsts[0])) {
			struct ir3_instruction *f = first_real(ir->first);
			if (f)
				f->flags |= IR3_INSTR_NEEDS_HELPERS;
			uses = true;
			break;
		}
	}
	return uses;
}

static bool cheap_for_eq(const struct ir3_instruction *i)
{
	return ir3_is_alu(i) || ir3_is_sfu(i);
}

/* Mesa's feature_usage_sched for (eq). */
static void helper_sched(struct lctx *c, struct hblock *hb)
{
	struct ir3 *ir = c->ir;
	foreach_block(b, ir) {
		hb[b->index].begin = hb[b->index].end = false;
		foreach_instr(i, b) {
			if (i->flags & IR3_INSTR_NEEDS_HELPERS) {
				hb[b->index].begin = true;
				if (ir3_is_terminator(i))
					hb[b->index].end = true;
			}
			if (i->opc == OPC_SHPE)
				hb[b->index].begin = hb[b->index].end = true;
		}
	}
	bool progress = true;
	while (progress) {
		progress = false;
		foreach_block_rev(b, ir) {
			if (!hb[b->index].begin)
				continue;
			for (unsigned p = 0; p < b->npreds; p++) {
				struct hblock *pd = &hb[b->preds[p]->index];
				pd->end = true;
				if (!pd->begin) {
					pd->begin = true;
					progress = true;
				}
			}
		}
	}
	foreach_block(b, ir) {
		struct hblock *d = &hb[b->index];
		if (d->end)
			continue;
		bool pred_uses = d->begin;
		for (unsigned p = 0; p < b->npreds; p++)
			pred_uses |= hb[b->preds[p]->index].end;
		if (!pred_uses)
			continue;
		struct ir3_instruction *first = NULL;
		foreach_instr_rev(i, b) {
			if (i->flags & IR3_INSTR_NEEDS_HELPERS)
				break;
			if (!ir3_is_meta(i))
				first = i;
		}
		bool done = false, expensive = false;
		for (struct ir3_instruction *i = first; i; i = i->next) {
			if (ir3_is_meta(i))
				continue;
			if (i->opc == OPC_NOP) {
				i->flags |= IR3_INSTR_EQ;
				done = true;
				break;
			}
			if (cheap_for_eq(i) || i->opc == OPC_PREDE)
				continue;
			expensive = true;
			break;
		}
		if (!done && (expensive || b->succ[0] != ir->last)) {
			struct ir3_instruction *nop = ir3_instr_new(ir, OPC_NOP, 0, 0);
			nop->flags |= IR3_INSTR_EQ;
			if (first)
				ir3_instr_insert_before(first, nop);
			else
				ir3_instr_insert_before_terminator(b, nop);
		}
	}
}

/* ------------------------------------------------------------------ */

static void mark_join_points(struct ir3 *ir)
{
	ir3_calc_preds(ir);
	foreach_block(b, ir) {
		bool target = false;
		for (unsigned p = 0; p < b->npreds; p++) {
			struct ir3_instruction *t = ir3_block_terminator(b->preds[p]);
			target |= t && t->target == b;
			foreach_instr(i, b->preds[p])
				target |= ir3_is_flow(i) && i->target == b;
		}
		struct ir3_instruction *f = first_real(b);
		if (f && (b->npreds > 1 || (target && b->index < b->preds[0]->index)))
			f->flags |= IR3_INSTR_JP;
	}
}

/* A texture prefetch but no varying fetch: a dummy `bary.f (ei)r63.x, 0,
 * r0.x` at the top releases the varying storage (Mesa's ir3_legalize). */
static void dummy_bary(struct ir3 *ir)
{
	struct ir3_instruction *i = ir3_instr_new(ir, OPC_BARY_F, 1, 2);
	ir3_dst_phys(i, 0, 63 * 4, 1);
	ir3_src_imm(i, 0, 0);
	ir3_src_phys(i, 0, 0, 1);
	struct ir3_instruction *f = first_real(ir->first);
	if (f)
		ir3_instr_insert_before(f, i);
	else
		ir3_instr_append(ir->first, i);
}

/* a7xx compute: `(ss)(sy)(jp)lock` and `unlock` just before the end, placed
 * after legalisation as Mesa's ir3_compile_shader_nir places them (its
 * flags set by hand: nothing after them needs waiting for). */
static void cs_lock_unlock(struct ir3 *ir)
{
	struct ir3_instruction *end = NULL, *prev = NULL;
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (i->opc == OPC_END) {
				end = i;
				break;
			}
			if (!ir3_is_meta(i))
				prev = i;
		}
	if (!end || (prev && prev->opc == OPC_UNLOCK))	/* none, or legalised already */
		return;
	struct ir3_instruction *lock = ir3_instr_new(ir, OPC_LOCK, 0, 0);
	lock->flags |= IR3_INSTR_SS | IR3_INSTR_SY | IR3_INSTR_JP;
	ir3_instr_insert_before(end, lock);
	ir3_instr_insert_before(end, ir3_instr_new(ir, OPC_UNLOCK, 0, 0));
}

bool ir3_legalize(struct ir3 *ir, unsigned *branchstack)
{
	struct arena a = ARENA_INIT;
	struct lctx c = { .ir = ir, .t = ir->target, .max_bary = -1 };
	ir3_calc_preds(ir);
	c.blocks = arena_array(&a, struct lblock, ir->nblocks);

	/* (ei) only when every varying fetch is in the first block after the
	 * preamble (Mesa's ir3_after_preamble: where the else branch of the
	 * first block's shps goes) */
	struct ir3_block *start = ir->first;
	struct ir3_instruction *t = ir3_block_terminator(start);
	if (t && t->opc == OPC_SHPS && start->succ[1] && start->succ[1]->succ[0])
		start = start->succ[1]->succ[0];
	c.early_input_release = true;
	bool inputs = false, prefetch = false;
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (ir3_is_input(i) && b != start)
				c.early_input_release = false;
			inputs |= ir3_is_input(i);
			prefetch |= i->opc == OPC_META_TEX_PREFETCH;
		}
	if (prefetch && !inputs)
		dummy_bary(ir);

	bool progress;
	do {
		progress = false;
		foreach_block(b, ir)
			progress |= legalize_block(&c, b);
	} while (progress);
	ir->max_bary = c.max_bary < 0 ? 0 : (unsigned)c.max_bary;

	block_sched(&c);
	while (opt_jump(ir))
		;
	ir3_calc_preds(ir);

	if (ir->stage == STAGE_FRAGMENT && kill_sched(&c))
		(*branchstack)++;

	ir->prefetch_end_of_quad = false;
	if (ir->stage == STAGE_FRAGMENT && ir->need_pixlod && c.t->has_eq_flag) {
		ir3_index_blocks(ir);
		struct hblock *hb = arena_array(&a, struct hblock, ir->nblocks);
		if (mark_helpers(&c, hb))
			helper_sched(&c, hb);
		else
			ir->prefetch_end_of_quad = true;
	}

	mark_join_points(ir);
	if (ir->stage == STAGE_COMPUTE && c.t->cs_lock_unlock)
		cs_lock_unlock(ir);
	count_instructions(ir);
	ir->legalized = true;
	arena_release(&a);
	return true;
}
