/*
 * Dominance (META_DOMINANCE): immediate dominators by Cooper, Harvey and
 * Kennedy's "A Simple, Fast Dominance Algorithm" (iterate over reverse
 * postorder until nothing changes), the dominator tree with pre/post DFS
 * numbers for O(1) dominance queries, and dominance frontiers (the same
 * paper, figure 5).  Only blocks reachable from the start block take part;
 * the end block does when a path reaches it.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>

struct dom_ctx {
	struct function *fn;
	unsigned n;			/* blocks, end block included */
	unsigned *po;			/* postorder number by block index, ~0u if unreachable */
	struct block **rpo;		/* reachable blocks in reverse postorder */
	unsigned num_rpo;
};

/* Postorder numbering by an iterative DFS over successors. */
static void number_postorder(struct dom_ctx *c)
{
	struct block **stack = xmalloc(c->n * sizeof(*stack));
	unsigned *next_succ = xcalloc(c->n, sizeof(*next_succ));
	bool *seen = xcalloc(c->n, sizeof(*seen));
	struct block **post = xmalloc(c->n * sizeof(*post));
	unsigned sp = 0, np = 0;

	struct block *start = function_start_block(c->fn);
	stack[sp++] = start;
	seen[start->index] = true;
	while (sp) {
		struct block *b = stack[sp - 1];
		struct block *s = next_succ[b->index] < 2 ? block_succ(b, next_succ[b->index]) : NULL;
		if (next_succ[b->index] < 2) {
			next_succ[b->index]++;
			if (s && !seen[s->index]) {
				seen[s->index] = true;
				stack[sp++] = s;
			}
			continue;
		}
		c->po[b->index] = np;
		post[np++] = b;
		sp--;
	}
	c->num_rpo = np;
	for (unsigned i = 0; i < np; i++)
		c->rpo[i] = post[np - 1 - i];
	free(post);
	free(seen);
	free(next_succ);
	free(stack);
}

static struct block *intersect(struct dom_ctx *c, struct block *a, struct block *b)
{
	while (a != b) {
		while (c->po[a->index] < c->po[b->index])
			a = a->idom;
		while (c->po[b->index] < c->po[a->index])
			b = b->idom;
	}
	return a;
}

static void compute_idoms(struct dom_ctx *c)
{
	struct block *start = c->rpo[0];
	start->idom = start;
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned i = 1; i < c->num_rpo; i++) {
			struct block *b = c->rpo[i], *new_idom = NULL;
			unsigned np;
			struct block *const *preds = block_preds(b, &np);
			for (unsigned k = 0; k < np; k++) {
				struct block *p = preds[k];
				if (c->po[p->index] == ~0u || !p->idom)
					continue;
				new_idom = new_idom ? intersect(c, p, new_idom) : p;
			}
			if (new_idom != b->idom) {
				b->idom = new_idom;
				changed = true;
			}
		}
	}
	start->idom = NULL;
}

/* Children lists and pre/post numbers of the dominator tree. */
static void build_tree(struct dom_ctx *c, struct block **storage)
{
	struct block **all = c->fn->blocks;
	for (unsigned i = 1; i < c->num_rpo; i++)
		c->rpo[i]->idom->num_dom_children++;
	for (unsigned i = 0; i < c->n; i++) {
		all[i]->dom_children = storage;
		storage += all[i]->num_dom_children;
		all[i]->num_dom_children = 0;
	}
	for (unsigned i = 1; i < c->num_rpo; i++) {
		struct block *p = c->rpo[i]->idom;
		p->dom_children[p->num_dom_children++] = c->rpo[i];
	}

	/* iterative DFS: pre number on the way down, post on the way up */
	struct block **stack = xmalloc(c->n * sizeof(*stack));
	unsigned *next = xcalloc(c->n, sizeof(*next));
	unsigned sp = 0, pre = 0, post = 0;
	stack[sp++] = c->rpo[0];
	c->rpo[0]->dom_pre_index = pre++;
	while (sp) {
		struct block *b = stack[sp - 1];
		if (next[b->index] < b->num_dom_children) {
			struct block *ch = b->dom_children[next[b->index]++];
			ch->dom_pre_index = pre++;
			stack[sp++] = ch;
		} else {
			b->dom_post_index = post++;
			sp--;
		}
	}
	free(next);
	free(stack);
}

/* Frontiers: count them, or (fill) store them in the laid-out arrays; a
 * block appears once per frontier. */
static void walk_frontiers(struct dom_ctx *c, bool fill)
{
	unsigned *last = xmalloc(c->n * sizeof(*last));
	memset(last, 0xff, c->n * sizeof(*last));
	for (unsigned i = 0; i < c->num_rpo; i++) {
		struct block *b = c->rpo[i];
		unsigned np;
		struct block *const *preds = block_preds(b, &np);
		if (np < 2)
			continue;
		for (unsigned k = 0; k < np; k++) {
			struct block *runner = preds[k];
			if (c->po[runner->index] == ~0u)
				continue;
			while (runner && runner != b->idom && last[runner->index] != b->index) {
				last[runner->index] = b->index;
				if (fill)
					runner->dom_frontier[runner->num_dom_frontier] = b;
				runner->num_dom_frontier++;
				runner = runner->idom;
			}
		}
	}
	free(last);
}

void calc_dominance(struct function *fn)
{
	metadata_require(fn, META_BLOCK_INDEX);
	struct dom_ctx c = { .fn = fn, .n = fn->num_blocks + 1 };
	c.po = xmalloc(c.n * sizeof(*c.po));
	c.rpo = xmalloc(c.n * sizeof(*c.rpo));
	memset(c.po, 0xff, c.n * sizeof(*c.po));
	for (unsigned i = 0; i < c.n; i++) {
		struct block *b = fn->blocks[i];
		b->idom = NULL;
		b->num_dom_children = b->num_dom_frontier = 0;
		b->dom_pre_index = b->dom_post_index = ~0u;
	}
	number_postorder(&c);
	compute_idoms(&c);

	/* storage: the tree's children, then the frontiers */
	walk_frontiers(&c, false);
	unsigned frontier_total = 0;
	for (unsigned i = 0; i < c.n; i++)
		frontier_total += fn->blocks[i]->num_dom_frontier;
	free(fn->dom_storage);
	struct block **storage = xmalloc((c.n + frontier_total + 1) * sizeof(*storage));
	fn->dom_storage = storage;
	build_tree(&c, storage);
	struct block **p = storage + c.n;
	for (unsigned i = 0; i < c.n; i++) {
		struct block *b = fn->blocks[i];
		b->dom_frontier = p;
		p += b->num_dom_frontier;
		b->num_dom_frontier = 0;
	}
	walk_frontiers(&c, true);

	free(c.po);
	free(c.rpo);
	fn->valid_metadata |= META_DOMINANCE;
}

bool block_is_reachable(const struct block *b)
{
	return b->dom_pre_index != ~0u;
}

bool block_dominates(const struct block *a, const struct block *b)
{
	if (a == b)
		return true;
	if (!block_is_reachable(a) || !block_is_reachable(b))
		return false;
	return a->dom_pre_index <= b->dom_pre_index && b->dom_post_index <= a->dom_post_index;
}

struct block *block_dominance_lca(struct block *a, struct block *b)
{
	if (!block_is_reachable(a))
		return b;
	if (!block_is_reachable(b))
		return a;
	while (!block_dominates(a, b))
		a = a->idom;
	return a;
}
