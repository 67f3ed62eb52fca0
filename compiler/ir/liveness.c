/*
 * Liveness (META_LIVENESS): the SSA values live at entry and exit of every
 * block, as bitsets over def indices, by the classic backward dataflow
 * iterated to a fixed point:
 *
 *	live_out(B) = phi_uses(B) ∪ ⋃ live_in(S) over successors S
 *	live_in(B)  = uses(B) ∪ (live_out(B) − defs(B))
 *
 * A phi's sources are used at the end of their predecessor (phi_uses), not
 * in the phi's block; a phi defines its value at the top of its block.  An
 * if's condition is used at the end of the block before the if.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>

struct live_ctx {
	unsigned words;
	bitset_word *gen, *kill, *phi_out;	/* per block, `words` each */
};

static bitset_word *row(bitset_word *base, unsigned words, unsigned block)
{
	return base + (size_t)block * words;
}

/* The if right after a block, whose condition the block evaluates. */
static struct cf_if *following_if(struct block *b)
{
	struct cf_node *next = cf_node_next(&b->cf);
	return next && next->type == CF_IF && !block_ends_in_jump(b) ? cf_as_if(next) : NULL;
}

static bool gen_cb(struct src *src, void *data)
{
	if (src->ssa)
		bitset_set(data, src->ssa->index);
	return true;
}

static void local_sets(struct live_ctx *c, struct block *b)
{
	bitset_word *gen = row(c->gen, c->words, b->index);
	bitset_word *kill = row(c->kill, c->words, b->index);
	struct cf_if *nif = following_if(b);
	if (nif && nif->condition.ssa)
		bitset_set(gen, nif->condition.ssa->index);
	foreach_instr_reverse(i, b) {
		struct ssa_def *def = instr_def(i);
		if (def) {
			bitset_set(kill, def->index);
			bitset_clear(gen, def->index);
		}
		if (i->type != INSTR_phi)
			instr_foreach_src(i, gen_cb, gen);
	}
	/* phi sources this block feeds */
	for (unsigned s = 0; s < 2; s++) {
		struct block *succ = block_succ(b, s);
		if (!succ)
			continue;
		foreach_instr(i, succ) {
			if (i->type != INSTR_phi)
				break;
			struct phi_src *ps = phi_get_src(instr_as_phi(i), b);
			if (ps && ps->src.ssa)
				bitset_set(row(c->phi_out, c->words, b->index), ps->src.ssa->index);
		}
	}
}

void calc_liveness(struct function *fn)
{
	metadata_require(fn, META_BLOCK_INDEX);
	unsigned n = fn->num_blocks + 1, nbits = fn->ssa_alloc;
	struct live_ctx c = { .words = (unsigned)BITSET_WORDS(nbits ? nbits : 1) };
	size_t per = (size_t)n * c.words;

	free(fn->live_storage);
	bitset_word *storage = xcalloc(2 * per, sizeof(bitset_word));
	fn->live_storage = storage;
	c.gen = xcalloc(3 * per, sizeof(bitset_word));
	c.kill = c.gen + per;
	c.phi_out = c.kill + per;
	for (unsigned i = 0; i < n; i++) {
		struct block *b = fn->blocks[i];
		b->live_in = row(storage, c.words, i);
		b->live_out = row(storage + per, c.words, i);
		local_sets(&c, b);
	}

	/* a worklist, popped in reverse program order first: a block is redone
	 * only when the live-in of a successor grew */
	bitset_word *tmp = xmalloc(c.words * sizeof(bitset_word));
	unsigned *stack = xmalloc(n * sizeof(*stack)), sp = 0;
	bool *queued = xmalloc(n * sizeof(*queued));
	for (unsigned i = 0; i < n; i++) {
		stack[sp++] = i;
		queued[i] = true;
	}
	while (sp) {
		unsigned i = stack[--sp];
		struct block *b = fn->blocks[i];
		queued[i] = false;
		bitset_copy(b->live_out, row(c.phi_out, c.words, i), nbits);
		for (unsigned s = 0; s < 2; s++)
			if (block_succ(b, s))
				bitset_union(b->live_out, block_succ(b, s)->live_in, nbits);
		bitset_copy(tmp, b->live_out, nbits);
		bitset_subtract(tmp, row(c.kill, c.words, i), nbits);
		bitset_union(tmp, row(c.gen, c.words, i), nbits);
		if (bitset_equal(tmp, b->live_in, nbits))
			continue;
		bitset_copy(b->live_in, tmp, nbits);
		unsigned np;
		struct block *const *preds = block_preds(b, &np);
		for (unsigned k = 0; k < np; k++) {
			if (!queued[preds[k]->index]) {
				queued[preds[k]->index] = true;
				stack[sp++] = preds[k]->index;
			}
		}
	}
	free(queued);
	free(stack);
	free(tmp);
	free(c.gen);
	fn->valid_metadata |= META_LIVENESS;
}

bool ssa_def_is_live_after(struct ssa_def *def, struct instr *instr)
{
	struct block *b = instr->block;
	metadata_require(b->fn, META_LIVENESS | META_INSTR_INDEX);
	struct instr *d = def->parent;
	if (d->block == b && d->index > instr->index)
		return false;
	if (bitset_test(b->live_out, def->index))
		return true;
	foreach_use(use, def) {
		struct instr *u = use->parent_instr;
		if (u && u->block == b && u->type != INSTR_phi && u->index > instr->index)
			return true;
		if (use->parent_if && following_if(b) == use->parent_if)
			return true;
	}
	return false;
}
