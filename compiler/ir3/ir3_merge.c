/*
 * Conventional SSA and merge sets (targets.md §3, Boissinot et al.,
 * "Revisiting Out-of-SSA Translation").  First every phi source is copied in
 * its predecessor by a parallel copy, which makes the phi webs
 * interference-free (critical edges are split so the copy has a place).
 * Then values are coalesced into merge sets: phis with their copies first,
 * which always succeeds, then the copies, splits and collects whenever their
 * values do not interfere.  A set is a small register image: each member
 * sits at an offset (half-register units) inside it, so a collect's sources
 * sit where the vector's components will be and a split's result inside its
 * vector.  Two members that overlap in the set and are live at once must be
 * the same value; RA then gives them the same register, without copies.
 *
 * Interference uses the dominance-forest walk over members in dominance
 * order, checking each against the members that dominate it (is the
 * dominating value live after the other's definition?), with the paper's
 * value-chasing through splits and collects.
 */
#include "compiler/ir3/ir3_ra.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* conventional SSA */

static struct ir3_block *split_edge(struct ir3 *ir, struct ir3_block *pred, struct ir3_block *succ)
{
	struct ir3_block *mid = ir3_block_create(ir);
	/* place it just before its successor, where it falls through */
	ir3_block_remove(mid);
	mid->next = succ;
	mid->prev = succ->prev;
	if (succ->prev)
		succ->prev->next = mid;
	else
		ir->first = mid;
	succ->prev = mid;

	for (int s = 0; s < 2; s++)
		if (pred->succ[s] == succ)
			pred->succ[s] = mid;
	foreach_instr(i, pred)
		if (i->target == succ)
			i->target = mid;
	struct ir3_builder b = ir3_builder_at_end(mid);
	ir3_b_jump(&b, succ);
	foreach_instr(phi, succ) {
		if (phi->opc != OPC_META_PHI)
			break;
		for (unsigned n = 0; n < phi->nsrc; n++)
			if (phi->srcs[n]->pred == pred)
				phi->srcs[n]->pred = mid;
	}
	return mid;
}

void ir3_split_critical_edges(struct ir3 *ir, bool all)
{
	ir3_calc_preds(ir);
	bool changed = false;
	foreach_block(b, ir) {
		if (!b->succ[1])
			continue;
		for (int s = 0; s < 2; s++) {
			struct ir3_block *succ = b->succ[s];
			if (succ && succ->npreds > 1 &&
			    (all || (succ->first && succ->first->opc == OPC_META_PHI))) {
				split_edge(ir, b, succ);
				changed = true;
			}
		}
	}
	if (changed)
		ir3_calc_preds(ir);
}

void ir3_create_parallel_copies(struct ir3 *ir)
{
	ir3_split_critical_edges(ir, false);
	foreach_block(b, ir) {
		for (unsigned p = 0; p < b->npreds; p++) {
			struct ir3_block *pred = b->preds[p];
			struct ir3_instruction *pcopy = NULL;
			foreach_instr(phi, b) {
				if (phi->opc != OPC_META_PHI)
					break;
				struct ir3_register *src = ir3_phi_src(phi, pred);
				if (!src || (!src->def && !(src->flags & (IR3_REG_IMMED | IR3_REG_CONST))))
					continue;
				if (src->def && !ir3_ra_def(src->def))
					continue;
				if (!pcopy) {
					pcopy = ir3_instr_new(ir, OPC_META_PCOPY, 1, 1);
					ir3_instr_insert_before_terminator(pred, pcopy);
				}
				struct ir3_register *dst = ir3_dst_create(pcopy, 0, 1);
				ir3_reg_set_shape(dst, phi->dsts[0]);
				struct ir3_register *copy = ir3_reg_clone(ir, src);
				copy->pred = NULL;
				ir3_add_src(pcopy, copy);
				src->def = dst;
				src->flags = IR3_REG_SSA;
				ir3_reg_set_shape(src, dst);
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* merge sets */

struct merge_ctx {
	struct ir3 *ir;
	struct ir3_liveness *live;
	struct arena *a;
};

/* Instruction positions in a preorder walk of the dominator tree. */
static unsigned index_dom(struct ir3_block **blocks, const unsigned *first,
			  const unsigned *sibling, struct ir3_block *b, unsigned ip)
{
	foreach_instr(i, b)
		i->ip = ip++;
	for (unsigned c = first[b->index]; c != ~0u; c = sibling[c])
		ip = index_dom(blocks, first, sibling, blocks[c], ip);
	return ip;
}

static bool def_after(const struct ir3_register *a, const struct ir3_register *b)
{
	return a->instr->ip > b->instr->ip;
}

static bool def_dominates(const struct ir3_register *a, const struct ir3_register *b)
{
	if (def_after(a, b))
		return false;
	if (a->instr->block == b->instr->block)
		return def_after(b, a);
	return ir3_block_dominates(a->instr->block, b->instr->block);
}

struct def_value {
	const struct ir3_register *reg;
	unsigned offset, size;
};

/* Value(a) of the paper: follow splits and collects to the original. */
static struct def_value chase_copies(struct def_value v)
{
	for (;;) {
		const struct ir3_instruction *i = v.reg->instr;
		if (i->opc == OPC_META_SPLIT) {
			v.offset += (unsigned)i->off * ir3_reg_elem_size(v.reg);
			v.reg = i->srcs[0]->def;
		} else if (i->opc == OPC_META_COLLECT) {
			unsigned es = ir3_reg_elem_size(v.reg);
			if (v.offset % es || v.size > es || v.offset + v.size > ir3_reg_size(v.reg))
				break;
			const struct ir3_register *src = i->srcs[v.offset / es];
			if (!src->def)
				break;
			v.offset = 0;
			v.reg = src->def;
		} else {
			break;
		}
	}
	return v;
}

struct merge_def {
	struct ir3_register *reg;
	unsigned offset;
};

static bool can_skip_interference(const struct merge_def *a, const struct merge_def *b)
{
	unsigned a_start = a->offset, b_start = b->offset;
	unsigned a_end = a_start + ir3_reg_size(a->reg), b_end = b_start + ir3_reg_size(b->reg);
	if (a_end <= b_start || b_end <= a_start)
		return true;
	/* only when one contains the other: live members then form a tree */
	if (!((a_start <= b_start && a_end >= b_end) || (b_start <= a_start && b_end >= a_end)))
		return false;
	unsigned start = a_start > b_start ? a_start : b_start;
	unsigned end = a_end < b_end ? a_end : b_end;
	struct def_value av = chase_copies((struct def_value){ a->reg, start - a_start, end - start });
	struct def_value bv = chase_copies((struct def_value){ b->reg, start - b_start, end - start });
	return av.reg == bv.reg && av.offset == bv.offset;
}

static struct ir3_merge_set *get_merge_set(struct merge_ctx *c, struct ir3_register *def)
{
	if (def->merge_set)
		return def->merge_set;
	struct ir3_merge_set *set = arena_new(c->a, struct ir3_merge_set);
	set->preferred_reg = ~0u;
	set->interval_start = ~0u;
	set->spill_slot = ~0u;
	set->size = ir3_reg_size(def);
	set->alignment = (def->flags & IR3_REG_HALF) ? 1 : 2;
	set->regs = arena_array(c->a, struct ir3_register *, 1);
	set->regs[0] = def;
	set->nregs = 1;
	def->merge_set = set;
	def->merge_set_offset = 0;
	return set;
}

static void merge_merge_sets(struct merge_ctx *c, struct ir3_merge_set *a, struct ir3_merge_set *b,
			     int b_offset)
{
	if (b_offset < 0) {
		merge_merge_sets(c, b, a, -b_offset);
		return;
	}
	struct ir3_register **regs = arena_array(c->a, struct ir3_register *, a->nregs + b->nregs);
	unsigned ai = 0, bi = 0, n = 0;
	while (ai < a->nregs || bi < b->nregs) {
		if (bi < b->nregs && (ai == a->nregs || def_after(a->regs[ai], b->regs[bi]))) {
			regs[n] = b->regs[bi++];
			regs[n]->merge_set_offset += (unsigned)b_offset;
		} else {
			regs[n] = a->regs[ai++];
		}
		regs[n++]->merge_set = a;
	}
	if (b->alignment > a->alignment)
		a->alignment = b->alignment;
	a->regs = regs;
	a->nregs = n;
	if (b->size + (unsigned)b_offset > a->size)
		a->size = b->size + (unsigned)b_offset;
}

static bool merge_sets_interfere(struct merge_ctx *c, struct ir3_merge_set *a,
				 struct ir3_merge_set *b, int b_offset)
{
	if (b_offset < 0)
		return merge_sets_interfere(c, b, a, -b_offset);
	if ((unsigned)b_offset % a->alignment)
		return true;

	unsigned total = a->nregs + b->nregs;
	struct merge_def *dom = arena_array(c->a, struct merge_def, total);
	unsigned ai = 0, bi = 0;
	int top = -1;
	while (ai < a->nregs || bi < b->nregs) {
		struct merge_def cur;
		if (bi < b->nregs && (ai == a->nregs || def_after(a->regs[ai], b->regs[bi]))) {
			cur.reg = b->regs[bi++];
			cur.offset = cur.reg->merge_set_offset + (unsigned)b_offset;
		} else {
			cur.reg = a->regs[ai++];
			cur.offset = cur.reg->merge_set_offset;
		}
		while (top >= 0 && !def_dominates(dom[top].reg, cur.reg))
			top--;
		for (int k = 0; k <= top; k++) {
			if (can_skip_interference(&cur, &dom[k]))
				continue;
			if (ir3_def_live_after(c->live, dom[k].reg, cur.reg->instr))
				return true;
		}
		dom[++top] = cur;
	}
	return false;
}

static void try_merge_defs(struct merge_ctx *c, struct ir3_register *a, struct ir3_register *b,
			   unsigned b_offset)
{
	if (!ir3_ra_def(a) || !ir3_ra_def(b) || (a->flags & IR3_REG_HALF) != (b->flags & IR3_REG_HALF))
		return;
	struct ir3_merge_set *as = get_merge_set(c, a), *bs = get_merge_set(c, b);
	if (as == bs)
		return;
	int off = (int)a->merge_set_offset + (int)b_offset - (int)b->merge_set_offset;
	if (!merge_sets_interfere(c, as, bs, off))
		merge_merge_sets(c, as, bs, off);
}

/* A split or collect whose value the spiller counted as one with a source
 * (they overlap on its interval line and the source lives on): one set,
 * whatever the interference test would say (Mesa's fixup_merge_sets). */
static void force_spilled_merges(struct merge_ctx *c)
{
	foreach_block(b, c->ir)
		foreach_instr(i, b) {
			if (i->opc != OPC_META_SPLIT && i->opc != OPC_META_COLLECT)
				continue;
			struct ir3_register *d = i->dsts[0];
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (!ir3_ra_src(s) || (s->flags & IR3_REG_KILL) ||
				    (s->def->flags & IR3_REG_HALF) != (d->flags & IR3_REG_HALF) ||
				    s->def->interval_start >= d->interval_end ||
				    d->interval_start >= s->def->interval_end)
					continue;
				struct ir3_merge_set *ds = get_merge_set(c, d), *ss = get_merge_set(c, s->def);
				if (ds != ss)
					merge_merge_sets(c, ds, ss,
							 (int)d->merge_set_offset +
								 (int)s->def->interval_start -
								 (int)d->interval_start -
								 (int)s->def->merge_set_offset);
			}
		}
}

void ir3_merge_regs(struct ir3 *ir, struct ir3_liveness *l, bool after_spill)
{
	struct merge_ctx c = { .ir = ir, .live = l, .a = ir->arena };
	ir3_calc_dominance(ir);
	unsigned *first = arena_array(ir->arena, unsigned, ir->nblocks);
	unsigned *sibling = arena_array(ir->arena, unsigned, ir->nblocks);
	struct ir3_block **blocks = arena_array(ir->arena, struct ir3_block *, ir->nblocks);
	foreach_block(b, ir)
		blocks[b->index] = b;
	ir3_dom_children(ir, first, sibling);
	index_dom(blocks, first, sibling, ir->first, 0);
	ir3_index_last_uses(l, ir, ir->arena);
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->ndst; n++) {
				i->dsts[n]->merge_set = NULL;
				i->dsts[n]->merge_set_offset = 0;
			}
	if (after_spill)
		force_spilled_merges(&c);

	/* phis and their copies: always succeeds thanks to the copies */
	foreach_block(b, ir)
		foreach_instr(phi, b) {
			if (phi->opc != OPC_META_PHI)
				break;
			for (unsigned n = 0; n < phi->nsrc; n++)
				if (phi->srcs[n]->def)
					try_merge_defs(&c, phi->dsts[0], phi->srcs[n]->def, 0);
		}

	/* an array write and the version it updates (they never interfere) */
	foreach_block(b, ir)
		foreach_instr(i, b) {
			struct ir3_register *t = ir3_tied_src(i);
			if (t && t->def)
				try_merge_defs(&c, i->dsts[0], t->def, 0);
		}

	/* then the copies, splits and collects that do not interfere */
	foreach_block(b, ir)
		foreach_instr(i, b) {
			switch (i->opc) {
			case OPC_META_SPLIT:
				try_merge_defs(&c, i->srcs[0]->def, i->dsts[0],
					       (unsigned)i->off * ir3_reg_elem_size(i->dsts[0]));
				break;
			case OPC_META_COLLECT: {
				unsigned off = 0;
				for (unsigned n = 0; n < i->nsrc; n++) {
					if (i->srcs[n]->def)
						try_merge_defs(&c, i->dsts[0], i->srcs[n]->def, off);
					off += ir3_reg_elem_size(i->dsts[0]);
				}
				break;
			}
			case OPC_META_PCOPY:
				for (unsigned n = 0; n < i->ndst; n++)
					if (i->srcs[n]->def)
						try_merge_defs(&c, i->dsts[n], i->srcs[n]->def, 0);
				break;
			default:
				break;
			}
		}

	/* last, what is left for repeat groups (Mesa's aggressive_coalesce_rpt):
	 * the members' values at consecutive offsets of the first one's set,
	 * and likewise each source slot's values where they differ */
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (!i->rpt_id || (i->prev && i->prev->rpt_id == i->rpt_id) || i->ndst != 1)
				continue;
			unsigned def_off = 0, src_off[8] = { 0 };
			for (struct ir3_instruction *m = i->next; m && m->rpt_id == i->rpt_id; m = m->next) {
				def_off += ir3_reg_elem_size(i->dsts[0]);
				try_merge_defs(&c, i->dsts[0], m->dsts[0], def_off);
				for (unsigned n = 0; n < i->nsrc && n < 8 && n < m->nsrc; n++) {
					struct ir3_register *a = i->srcs[n], *r = m->srcs[n];
					if (!a->def || !r->def || a->def == r->def)
						continue;
					src_off[n] += ir3_reg_elem_size(a->def);
					try_merge_defs(&c, a->def, r->def, src_off[n]);
				}
			}
		}

	/* lay the sets and lone values out on one interval line */
	unsigned offset = 0;
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->ndst; n++) {
				struct ir3_register *d = i->dsts[n];
				if (!ir3_ra_def(d))
					continue;
				struct ir3_merge_set *set = d->merge_set;
				if (set) {
					if (set->interval_start == ~0u) {
						set->interval_start = offset;
						offset += set->size;
					}
					d->interval_start = set->interval_start + d->merge_set_offset;
				} else {
					d->interval_start = offset;
					offset += ir3_reg_size(d);
				}
				d->interval_end = d->interval_start + ir3_reg_size(d);
			}
}
