/*
 * Repeat groups (Mesa 24.3's ir3_rpt.c).  Selection gives the scalar
 * instructions it makes for the components of one vector ALU operation a
 * common rpt_id (ir3_isel_alu.c, Mesa's _rpt builders).  Two passes:
 *
 *  ir3_cleanup_rpt (after the pre-RA scheduler): a group stays a group only
 *    as far as its members follow one another in creation order, with the
 *    same opcode, (sat), destination class and source kinds (modifiers,
 *    const, immediate — the same immediate —, half); it is split at the
 *    first member that does not, and the rest is checked again.  RA then
 *    gives a group's values one merge set (ir3_merge.c), so they get
 *    consecutive registers where they can; a group whose set is its own
 *    takes the registers of a source that dies there first (ir3_ra.c).
 *
 *  ir3_merge_rpt (after RA and its copies, before the post-RA scheduler):
 *    a member that still follows the group's head, writes the register
 *    after its last one, and reads either the same registers or the next
 *    ones (those sources take (r)) becomes part of the head: (rptN), up to
 *    (rpt3).  A member that does not ends the merge there and starts the
 *    rest of the group as a new head.  The merged instruction keeps the
 *    instructions it stands for (rpt_orig), which the register verifier
 *    follows one by one.
 */
#include "compiler/ir3/ir3_passes.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

/* Source flags two members must share (Mesa's srcs_can_rpt). */
#define RPT_SRC_FLAGS (IR3_REG_MODS | IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_SSA | IR3_REG_HALF | \
		       IR3_REG_SHARED)

/* bary.f and flat.b step their inloc immediates with (r) (Mesa's
 * supports_imm_r): a vector varying is one (rptN) */
static bool imm_r(const struct ir3_instruction *i)
{
	return i->opc == OPC_BARY_F || i->opc == OPC_FLAT_B;
}

/* Whether the n-th repetition's source `b` goes with the head's `a`. */
static bool srcs_can_rpt(const struct ir3_instruction *head, const struct ir3_register *a,
			 const struct ir3_register *b, unsigned n)
{
	if ((a->flags | b->flags) & (IR3_REG_ARRAY | IR3_REG_RELATIV))
		return false;
	if ((a->flags & RPT_SRC_FLAGS) != (b->flags & RPT_SRC_FLAGS))
		return false;
	return !(a->flags & IR3_REG_IMMED) || a->uim == b->uim ||
	       (imm_r(head) && b->uim == a->uim + n);
}

/* Whether `m` may follow `head` as its n-th repetition (Mesa's can_rpt). */
static bool can_rpt(const struct ir3_instruction *head, const struct ir3_instruction *m,
		    unsigned n)
{
	if (m->ip != head->ip + n || m->opc != head->opc || n >= IR3_RPT_MAX)
		return false;
	if (head->opc == OPC_BARY_F && !head->ir->target->has_rpt_bary_f)
		return false;
	if ((m->flags & IR3_INSTR_SAT) != (head->flags & IR3_INSTR_SAT))
		return false;
	if (m->ndst != 1 || head->ndst != 1 || m->nsrc != head->nsrc || m->type != head->type ||
	    m->dst_type != head->dst_type || m->cond != head->cond)
		return false;
	unsigned dflags = IR3_REG_SSA | IR3_REG_HALF | IR3_REG_SHARED;
	if ((m->dsts[0]->flags & dflags) != (head->dsts[0]->flags & dflags))
		return false;
	for (unsigned k = 0; k < m->nsrc; k++)
		if (!srcs_can_rpt(head, head->srcs[k], m->srcs[k], n))
			return false;
	return true;
}

static void number(struct ir3_block *b)
{
	unsigned ip = 0;
	foreach_instr(i, b)
		i->ip = ip++;
}

static int by_group(const void *pa, const void *pb)
{
	const struct ir3_instruction *a = *(struct ir3_instruction *const *)pa;
	const struct ir3_instruction *b = *(struct ir3_instruction *const *)pb;
	if (a->rpt_id != b->rpt_id)
		return a->rpt_id < b->rpt_id ? -1 : 1;
	return a->serial < b->serial ? -1 : a->serial > b->serial;
}

/* The block's repeat group members, by group and, within one, in creation
 * order (a scheduler may have swapped them); the caller frees the array. */
static struct ir3_instruction **grouped(struct ir3_block *b, unsigned *n)
{
	*n = 0;
	foreach_instr(i, b)
		*n += i->rpt_id != 0;
	if (!*n)
		return NULL;
	struct ir3_instruction **m = xmalloc(*n * sizeof(*m)), **p = m;
	foreach_instr(i, b)
		if (i->rpt_id)
			*p++ = i;
	qsort(m, *n, sizeof(*m), by_group);
	return m;
}

/* The end of the group that starts at m[s]. */
static unsigned group_end(struct ir3_instruction **m, unsigned n, unsigned s)
{
	unsigned e = s + 1;
	while (e < n && m[e]->rpt_id == m[s]->rpt_id)
		e++;
	return e;
}

bool ir3_cleanup_rpt(struct ir3 *ir)
{
	bool progress = false;
	foreach_block(b, ir) {
		unsigned total;
		struct ir3_instruction **all = grouped(b, &total);
		if (!total)
			continue;
		number(b);
		for (unsigned s = 0, e; s < total; s = e) {
			e = group_end(all, total, s);
			struct ir3_instruction **m = all + s;
			unsigned n = e - s;
			/* split into runs: each run's head is its first member */
			unsigned head = 0;
			for (unsigned k = 1; k <= n; k++) {
				if (k < n && can_rpt(m[head], m[k], k - head))
					continue;
				/* members head … k-1 stay together, alone no group */
				unsigned id = k - head > 1 ? (head ? ++ir->rpt_ids : m[head]->rpt_id) : 0;
				for (unsigned j = head; j < k; j++) {
					progress |= m[j]->rpt_id != id;
					m[j]->rpt_id = id;
				}
				head = k;
			}
		}
		free(all);
	}
	return progress;
}

/* How source `s` of the head continues into the member's `t` after
 * `repeat` repetitions: 0 incompatible, 1 the same register (or
 * immediate), 2 the next one ((r); for bary.f and flat.b the next
 * immediate). */
static int src_continues(const struct ir3_instruction *head, const struct ir3_register *s,
			 const struct ir3_register *t, unsigned repeat)
{
	if ((s->flags & IR3_REG_SHARED) != (t->flags & IR3_REG_SHARED))
		return 0;
	unsigned at = s->flags & IR3_REG_IMMED ? s->uim : s->num;
	unsigned next = t->flags & IR3_REG_IMMED ? t->uim : t->num;
	bool steps = !(s->flags & IR3_REG_IMMED) || imm_r(head);
	if (steps && next == at + repeat + 1 && ((s->flags & IR3_REG_R) || repeat == 0))
		return 2;
	if (next == at && !(s->flags & IR3_REG_R))
		return 1;
	return 0;
}

/* Whether `m` can be the n-th repetition of `head` (Mesa's try_merge):
 * it follows the head (the members merged before it are gone), writes the
 * next register and reads the same or the next ones; `how` says which,
 * per source. */
static bool can_merge(const struct ir3_instruction *head, const struct ir3_instruction *m,
		      unsigned n, int *how)
{
	if (n >= IR3_RPT_MAX || head->nsrc > 8 || m != head->next ||
	    m->dsts[0]->num != head->dsts[0]->num + n)
		return false;
	for (unsigned k = 0; k < head->nsrc; k++)
		if (!(how[k] = src_continues(head, head->srcs[k], m->srcs[k], head->repeat)))
			return false;
	return true;
}

/* The head repeats once more: (r) on the sources that advance. */
static void absorb(struct ir3_instruction *head, const int *how)
{
	for (unsigned k = 0; k < head->nsrc; k++)
		if (how[k] == 2) {
			head->srcs[k]->flags |= IR3_REG_R;
			head->srcs[k]->wrmask = (head->srcs[k]->wrmask << 1) | 1;
		}
	head->dsts[0]->wrmask = (head->dsts[0]->wrmask << 1) | 1;
	head->repeat++;
}

/* What the register verifier follows for a merged head: the head as it
 * was, its destination the value its readers name; the head itself gets a
 * copy of that register to grow. */
static struct ir3_instruction *keep_original(struct ir3 *ir, struct ir3_instruction *i)
{
	struct ir3_instruction *o = ir3_instr_copy_shell(i);
	for (unsigned k = 0; k < i->ndst; k++) {
		o->dsts[k] = i->dsts[k];
		i->dsts[k] = ir3_reg_clone(ir, o->dsts[k]);
		i->dsts[k]->instr = i;
	}
	for (unsigned k = 0; k < i->nsrc; k++) {
		o->srcs[k] = ir3_reg_clone(ir, i->srcs[k]);
		o->srcs[k]->instr = o;
	}
	return o;
}

bool ir3_merge_rpt(struct ir3 *ir)
{
	bool progress = false;
	foreach_block(b, ir) {
		unsigned total;
		struct ir3_instruction **all = grouped(b, &total);
		for (unsigned s = 0, e; s < total; s = e) {
			e = group_end(all, total, s);
			/* a member that cannot follow ends the merge; the rest of
			 * the group starts again from it (Mesa's try_merge) */
			for (unsigned h = s, merged = 1; h + 1 < e; h += merged) {
				struct ir3_instruction *i = all[h];
				int how[8];
				merged = 1;
				if (!can_merge(i, all[h + 1], 1, how))
					continue;
				struct ir3_instruction *orig = keep_original(ir, i);
				do {
					absorb(i, how);
					/* its value is made by the merged instruction now */
					ir3_instr_remove(all[h + merged]);
					all[h + merged]->dsts[0]->instr = i;
					merged++;
				} while (h + merged < e && can_merge(i, all[h + merged], merged, how));
				i->rpt_orig = arena_array(ir->arena, struct ir3_instruction *, merged + 1);
				i->rpt_orig[0] = orig;
				for (unsigned k = 1; k < merged; k++)
					i->rpt_orig[k] = all[h + k];
				i->rpt_orig[merged] = NULL;
				progress = true;
			}
		}
		for (unsigned k = 0; k < total; k++)
			all[k]->rpt_id = 0;
		free(all);
	}
	return progress;
}

void ir3_drop_rpt(struct ir3 *ir)
{
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->rpt_id = 0;
}
