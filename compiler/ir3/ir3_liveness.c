/*
 * Liveness of SSA values per block (backward dataflow to a fixed point):
 * `live_in[b]`/`live_out[b]` are bitsets over value names.  A phi defines its
 * value at the top of its block and reads each source at the end of the
 * matching predecessor, so phi sources are live-out of the predecessor and
 * phi destinations are not live-in.  From liveness, the kill flags: which
 * read of a value is its last (ir3_calc_kills).
 */
#include "compiler/ir3/ir3_ra.h"

#include <string.h>

static void use(bitset_word *live, const struct ir3_register *r)
{
	if (r->def && (r->flags & IR3_REG_SSA))
		bitset_set(live, r->def->name);
}

/* live_in = (live_out − defs) ∪ uses, walking the block backwards. */
static void block_live_in(const struct ir3_block *b, const bitset_word *out, bitset_word *in,
			  unsigned n)
{
	bitset_copy(in, out, n);
	foreach_instr_rev(i, b) {
		for (unsigned k = 0; k < i->ndst; k++)
			if (i->dsts[k]->flags & IR3_REG_SSA)
				bitset_clear(in, i->dsts[k]->name);
		if (i->opc == OPC_META_PHI)
			continue;
		for (unsigned k = 0; k < i->nsrc; k++)
			use(in, i->srcs[k]);
		if (i->address && i->address->ndst)
			bitset_set(in, i->address->dsts[0]->name);
	}
}

struct ir3_liveness *ir3_calc_liveness(struct ir3 *ir, struct arena *a)
{
	ir3_calc_preds(ir);
	struct ir3_liveness *l = arena_new(a, struct ir3_liveness);
	unsigned n = ir->ndefs;
	l->ndefs = n;
	l->nblocks = ir->nblocks;
	l->defs = arena_array(a, struct ir3_register *, n ? n : 1);
	l->live_in = arena_array(a, bitset_word *, ir->nblocks);
	l->live_out = arena_array(a, bitset_word *, ir->nblocks);
	foreach_block(b, ir) {
		l->live_in[b->index] = arena_array(a, bitset_word, BITSET_WORDS(n) + 1);
		l->live_out[b->index] = arena_array(a, bitset_word, BITSET_WORDS(n) + 1);
		foreach_instr(i, b)
			for (unsigned k = 0; k < i->ndst; k++)
				if (i->dsts[k]->flags & IR3_REG_SSA)
					l->defs[i->dsts[k]->name] = i->dsts[k];
	}

	bitset_word *tmp = arena_array(a, bitset_word, BITSET_WORDS(n) + 1);
	bool changed = true;
	while (changed) {
		changed = false;
		foreach_block_rev(b, ir) {
			bitset_word *out = l->live_out[b->index];
			for (int s = 0; s < 2; s++) {
				struct ir3_block *succ = b->succ[s];
				if (!succ)
					continue;
				changed |= bitset_union(out, l->live_in[succ->index], n);
				foreach_instr(phi, succ) {
					if (phi->opc != OPC_META_PHI)
						break;
					struct ir3_register *src = ir3_phi_src(phi, b);
					if (src && src->def && !bitset_test(out, src->def->name)) {
						bitset_set(out, src->def->name);
						changed = true;
					}
				}
			}
			block_live_in(b, out, tmp, n);
			if (!bitset_equal(tmp, l->live_in[b->index], n)) {
				bitset_copy(l->live_in[b->index], tmp, n);
				changed = true;
			}
		}
	}
	return l;
}

void ir3_calc_kills(struct ir3 *ir, struct ir3_liveness *l, struct arena *a)
{
	bitset_word *live = arena_array(a, bitset_word, BITSET_WORDS(l->ndefs) + 1);
	foreach_block(b, ir) {
		bitset_copy(live, l->live_out[b->index], l->ndefs);
		foreach_instr_rev(i, b) {
			for (unsigned n = 0; n < i->ndst; n++) {
				struct ir3_register *d = i->dsts[n];
				if (!(d->flags & IR3_REG_SSA))
					continue;
				d->flags &= ~IR3_REG_UNUSED;
				if (!bitset_test(live, d->name))
					d->flags |= IR3_REG_UNUSED;
				bitset_clear(live, d->name);
			}
			if (i->opc == OPC_META_PHI)
				continue;
			for (unsigned n = 0; n < i->nsrc; n++)
				i->srcs[n]->flags &= ~(IR3_REG_KILL | IR3_REG_FIRST_KILL);
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (!s->def || !(s->flags & IR3_REG_SSA))
					continue;
				bool first = true;
				for (unsigned m = 0; m < n; m++)
					first &= i->srcs[m]->def != s->def;
				if (first && !bitset_test(live, s->def->name)) {
					for (unsigned m = n; m < i->nsrc; m++)
						if (i->srcs[m]->def == s->def)
							i->srcs[m]->flags |= IR3_REG_KILL;
					s->flags |= IR3_REG_FIRST_KILL;
				}
			}
			for (unsigned n = 0; n < i->nsrc; n++)
				if (i->srcs[n]->def && (i->srcs[n]->flags & IR3_REG_SSA))
					bitset_set(live, i->srcs[n]->def->name);
			if (i->address && i->address->ndst)
				bitset_set(live, i->address->dsts[0]->name);
		}
	}
}


struct ir3_use_pos {
	unsigned block, ip;
	struct ir3_use_pos *next;
};

static void note_use(struct ir3_liveness *l, const struct ir3_register *def,
		     const struct ir3_instruction *i, struct arena *a)
{
	if (!def || def->name >= l->ndefs)
		return;
	/* blocks are walked in order: this block's entry, if any, is first */
	struct ir3_use_pos *u = l->last_use[def->name];
	if (!u || u->block != i->block->index) {
		u = arena_new(a, struct ir3_use_pos);
		u->block = i->block->index;
		u->next = l->last_use[def->name];
		l->last_use[def->name] = u;
	}
	u->ip = i->ip;
}

void ir3_index_last_uses(struct ir3_liveness *l, struct ir3 *ir, struct arena *a)
{
	l->last_use = arena_array(a, struct ir3_use_pos *, l->ndefs ? l->ndefs : 1);
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (i->opc == OPC_META_PHI)
				continue;
			for (unsigned k = 0; k < i->nsrc; k++)
				note_use(l, i->srcs[k]->def, i, a);
			if (i->address && i->address->ndst)
				note_use(l, i->address->dsts[0], i, a);
		}
}

bool ir3_def_live_after(const struct ir3_liveness *l, const struct ir3_register *def,
			const struct ir3_instruction *instr)
{
	const struct ir3_block *b = instr->block;
	if (bitset_test(l->live_out[b->index], def->name))
		return true;
	if (l->last_use && def->name < l->ndefs) {
		for (const struct ir3_use_pos *u = l->last_use[def->name]; u; u = u->next)
			if (u->block == b->index)
				return u->ip > instr->ip;
		return false;
	}
	/* a later read in the same block (phis read in their predecessors) */
	for (const struct ir3_instruction *i = instr->next; i; i = i->next) {
		if (i->opc == OPC_META_PHI)
			continue;
		for (unsigned k = 0; k < i->nsrc; k++)
			if (i->srcs[k]->def == def)
				return true;
		if (i->address && i->address->ndst && i->address->dsts[0] == def)
			return true;
	}
	return false;
}
