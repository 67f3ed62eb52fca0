/*
 * The branch stack depth (Mesa's branchstack, which limits the waves in
 * flight, targets.md §1.3): the largest number of divergent branches whose
 * reconvergence point has not been reached yet.  A conditional branch at
 * block B reconverges at the first block after B, in program order, that
 * post-dominates B; every block strictly between the two is inside it.
 * Instruction selection knows the control-flow nesting and may set the
 * depth itself (`ir->branchstack`), which is then used as it is.
 */
#include "compiler/ir3/ir3_passes.h"

#include <string.h>

unsigned ir3_calc_reconvergence(struct ir3 *ir)
{
	if (ir->branchstack >= 0)
		return (unsigned)ir->branchstack;
	ir3_calc_preds(ir);
	unsigned n = ir->nblocks;
	if (n <= 1)
		return 0;

	/* post-dominators: pdom(b) = {b} ∪ ⋂ pdom(successors) */
	struct arena a = ARENA_INIT;
	size_t words = BITSET_WORDS(n);
	bitset_word **pdom = arena_array(&a, bitset_word *, n);
	foreach_block(b, ir) {
		pdom[b->index] = arena_array(&a, bitset_word, words);
		if (b->succ[0])
			memset(pdom[b->index], 0xff, words * sizeof(bitset_word));
		bitset_set(pdom[b->index], b->index);
	}
	bitset_word *tmp = arena_array(&a, bitset_word, words);
	bool changed = true;
	while (changed) {
		changed = false;
		foreach_block_rev(b, ir) {
			if (!b->succ[0])
				continue;
			memset(tmp, 0xff, words * sizeof(bitset_word));
			for (int s = 0; s < 2; s++)
				if (b->succ[s])
					for (size_t w = 0; w < words; w++)
						tmp[w] &= pdom[b->succ[s]->index][w];
			bitset_set(tmp, b->index);
			if (!bitset_equal(tmp, pdom[b->index], n)) {
				bitset_copy(pdom[b->index], tmp, n);
				changed = true;
			}
		}
	}

	unsigned *depth = arena_array(&a, unsigned, n), max = 0;
	foreach_block(b, ir) {
		if (!b->succ[1])
			continue;
		struct ir3_block *r = b->next;
		while (r && !bitset_test(pdom[b->index], r->index))
			r = r->next;
		if (r)
			r->reconvergence = true;
		for (struct ir3_block *x = b->next; x && x != r; x = x->next)
			if (++depth[x->index] > max)
				max = depth[x->index];
	}
	arena_release(&a);
	return max;
}
