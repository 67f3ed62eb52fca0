/*
 * The graph-colouring allocator of register_allocate.h: register sets, the q table,
 * interference graphs, simplify and select.  The policy (pq test,
 * optimistic push of the lowest q_total, lowest register first) and the
 * order in which nodes are pushed are Mesa's util/register_allocate.c
 * (../../shared/reference/targets.md §5), so a backend that describes its
 * file as Mesa's driver does gets the same colouring.
 */
#include "compiler/util/register_allocate.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/bitset.h"
#include "compiler/util/error.h"

/* Mesa sweeps its node bitsets in words of 32 (BITSET_WORD): the order in
 * which trivially colourable nodes are pushed depends on it. */
#define RA_SWEEP_WORD 32

struct ra_regs {
	unsigned num_banks, bank_size, count;
	size_t type_words;		/* words of one row of type_conflicts */
	bitset_word *type_conflicts;	/* bank_size rows of bank_size bits */
	unsigned num_classes;
	bitset_word *class_types[RA_MAX_CLASSES];	/* bank_size bits each */
	bitset_word *class_regs[RA_MAX_CLASSES];	/* count bits each (finalize) */
	unsigned p[RA_MAX_CLASSES];
	unsigned q[RA_MAX_CLASSES][RA_MAX_CLASSES];
	bool round_robin;
	bool finalized;
};

struct ra_node {
	unsigned cls;
	unsigned q_total;		/* over every neighbour */
	unsigned tmp_q;			/* simplify: over the neighbours left */
	unsigned reg;			/* the colour, or RA_NO_REG */
	unsigned forced;		/* precoloured register, or RA_NO_REG */
	float spill_cost;
	unsigned *adj;
	unsigned num_adj, cap_adj;
	bool pq;			/* simplify: q_total < p */
	bool in_stack;
};

struct ra_graph {
	const struct ra_regs *regs;
	unsigned count;
	struct ra_node *nodes;
	bitset_word *adjacency;		/* triangular: bit n1*(n1-1)/2 + n2, n1 > n2 */
	unsigned *stack;
	unsigned stack_count;
	unsigned optimistic_start;
	bitset_word *avail;		/* select: count bits */
};

/* ---- register sets ---- */

struct ra_regs *ra_regs_create(unsigned num_banks, unsigned bank_size)
{
	if (!num_banks || !bank_size)
		BUG("empty register set");
	struct ra_regs *r = xcalloc(1, sizeof(*r));
	r->num_banks = num_banks;
	r->bank_size = bank_size;
	r->count = num_banks * bank_size;
	r->type_words = BITSET_WORDS(bank_size);
	r->type_conflicts = xcalloc(bank_size * r->type_words, sizeof(bitset_word));
	for (unsigned t = 0; t < bank_size; t++)
		bitset_set(r->type_conflicts + t * r->type_words, t);
	return r;
}

void ra_regs_free(struct ra_regs *regs)
{
	if (!regs)
		return;
	for (unsigned c = 0; c < regs->num_classes; c++) {
		free(regs->class_types[c]);
		free(regs->class_regs[c]);
	}
	free(regs->type_conflicts);
	free(regs);
}

unsigned ra_regs_count(const struct ra_regs *regs)
{
	return regs->count;
}

unsigned ra_regs_bank_size(const struct ra_regs *regs)
{
	return regs->bank_size;
}

static const bitset_word *type_row(const struct ra_regs *regs, unsigned t)
{
	return regs->type_conflicts + t * regs->type_words;
}

void ra_add_type_conflict(struct ra_regs *regs, unsigned t1, unsigned t2)
{
	if (regs->finalized || t1 >= regs->bank_size || t2 >= regs->bank_size)
		BUG("bad type conflict %u %u", t1, t2);
	bitset_set(regs->type_conflicts + t1 * regs->type_words, t2);
	bitset_set(regs->type_conflicts + t2 * regs->type_words, t1);
}

bool ra_regs_conflict(const struct ra_regs *regs, unsigned r1, unsigned r2)
{
	unsigned k = regs->bank_size;
	return r1 / k == r2 / k && bitset_test(type_row(regs, r1 % k), r2 % k);
}

unsigned ra_add_class(struct ra_regs *regs)
{
	if (regs->finalized || regs->num_classes == RA_MAX_CLASSES)
		BUG("cannot add a register class");
	unsigned c = regs->num_classes++;
	regs->class_types[c] = xcalloc(regs->type_words, sizeof(bitset_word));
	return c;
}

void ra_class_add_type(struct ra_regs *regs, unsigned c, unsigned t)
{
	if (regs->finalized || c >= regs->num_classes || t >= regs->bank_size)
		BUG("bad class type %u %u", c, t);
	if (!bitset_test(regs->class_types[c], t)) {
		bitset_set(regs->class_types[c], t);
		regs->p[c] += regs->num_banks;
	}
}

bool ra_class_has_reg(const struct ra_regs *regs, unsigned c, unsigned r)
{
	return bitset_test(regs->class_types[c], r % regs->bank_size);
}

void ra_regs_set_round_robin(struct ra_regs *regs)
{
	regs->round_robin = true;
}

/* q(B, C): the most registers of B one register of C conflicts with.  Banks
 * are alike and never conflict with each other: one bank says it all. */
static unsigned compute_q(const struct ra_regs *regs, unsigned b, unsigned c)
{
	unsigned best = 0;
	for (unsigned tc = 0; tc < regs->bank_size; tc++) {
		if (!bitset_test(regs->class_types[c], tc))
			continue;
		unsigned n = 0;
		for (unsigned tb = 0; tb < regs->bank_size; tb++)
			n += bitset_test(regs->class_types[b], tb) && bitset_test(type_row(regs, tc), tb);
		if (n > best)
			best = n;
	}
	return best;
}

void ra_regs_finalize(struct ra_regs *regs, const unsigned *q)
{
	unsigned nc = regs->num_classes;
	for (unsigned b = 0; b < nc; b++)
		for (unsigned c = 0; c < nc; c++)
			regs->q[b][c] = q ? q[b * nc + c] : compute_q(regs, b, c);
	for (unsigned c = 0; c < nc; c++) {
		regs->class_regs[c] = xcalloc(BITSET_WORDS(regs->count), sizeof(bitset_word));
		for (unsigned r = 0; r < regs->count; r++)
			if (ra_class_has_reg(regs, c, r))
				bitset_set(regs->class_regs[c], r);
	}
	regs->finalized = true;
}

unsigned ra_class_p(const struct ra_regs *regs, unsigned c)
{
	return regs->p[c];
}

unsigned ra_class_q(const struct ra_regs *regs, unsigned b, unsigned c)
{
	return regs->q[b][c];
}

unsigned ra_num_classes(const struct ra_regs *regs)
{
	return regs->num_classes;
}

/* ---- graphs ---- */

struct ra_graph *ra_graph_create(const struct ra_regs *regs, unsigned count)
{
	if (!regs->finalized)
		BUG("register set used before ra_regs_finalize");
	struct ra_graph *g = xcalloc(1, sizeof(*g));
	g->regs = regs;
	g->count = count;
	g->nodes = xcalloc(count ? count : 1, sizeof(*g->nodes));
	for (unsigned n = 0; n < count; n++)
		g->nodes[n].reg = g->nodes[n].forced = RA_NO_REG;
	size_t bits = (size_t)count * (count ? count - 1 : 0) / 2;
	g->adjacency = xcalloc(BITSET_WORDS(bits) + 1, sizeof(bitset_word));
	g->stack = xcalloc(count ? count : 1, sizeof(unsigned));
	g->avail = xcalloc(BITSET_WORDS(regs->count), sizeof(bitset_word));
	return g;
}

void ra_graph_free(struct ra_graph *g)
{
	if (!g)
		return;
	for (unsigned n = 0; n < g->count; n++)
		free(g->nodes[n].adj);
	free(g->nodes);
	free(g->adjacency);
	free(g->stack);
	free(g->avail);
	free(g);
}

static struct ra_node *node(const struct ra_graph *g, unsigned n)
{
	if (n >= g->count)
		BUG("node %u of %u", n, g->count);
	return &g->nodes[n];
}

void ra_set_node_class(struct ra_graph *g, unsigned n, unsigned c)
{
	if (c >= g->regs->num_classes)
		BUG("class %u of %u", c, g->regs->num_classes);
	if (node(g, n)->num_adj)
		BUG("node class changed after its edges were added");
	g->nodes[n].cls = c;
}

unsigned ra_get_node_class(const struct ra_graph *g, unsigned n)
{
	return node(g, n)->cls;
}

void ra_set_node_reg(struct ra_graph *g, unsigned n, unsigned r)
{
	if (r >= g->regs->count)
		BUG("register %u of %u", r, g->regs->count);
	node(g, n)->forced = r;
}

static size_t adjacency_bit(unsigned n1, unsigned n2)
{
	unsigned hi = n1 > n2 ? n1 : n2, lo = n1 > n2 ? n2 : n1;
	return (size_t)hi * (hi - 1) / 2 + lo;
}

bool ra_nodes_interfere(const struct ra_graph *g, unsigned n1, unsigned n2)
{
	node(g, n1);
	node(g, n2);
	return n1 != n2 && bitset_test(g->adjacency, adjacency_bit(n1, n2));
}

static void add_adjacency(struct ra_graph *g, unsigned n1, unsigned n2)
{
	struct ra_node *a = &g->nodes[n1];
	a->q_total += g->regs->q[a->cls][g->nodes[n2].cls];
	if (a->num_adj == a->cap_adj) {
		a->cap_adj = a->cap_adj ? a->cap_adj * 2 : 8;
		a->adj = xrealloc(a->adj, a->cap_adj * sizeof(unsigned));
	}
	a->adj[a->num_adj++] = n2;
}

void ra_add_node_interference(struct ra_graph *g, unsigned n1, unsigned n2)
{
	if (ra_nodes_interfere(g, n1, n2) || n1 == n2)
		return;
	bitset_set(g->adjacency, adjacency_bit(n1, n2));
	add_adjacency(g, n1, n2);
	add_adjacency(g, n2, n1);
}

unsigned ra_node_q_total(const struct ra_graph *g, unsigned n)
{
	return node(g, n)->q_total;
}

void ra_set_node_spill_cost(struct ra_graph *g, unsigned n, float cost)
{
	node(g, n)->spill_cost = cost;
}

/* ---- simplify ---- */

static bool is_forced(const struct ra_node *a)
{
	return a->forced != RA_NO_REG;
}

static void push(struct ra_graph *g, unsigned n)
{
	struct ra_node *a = &g->nodes[n];
	for (unsigned i = 0; i < a->num_adj; i++) {
		struct ra_node *b = &g->nodes[a->adj[i]];
		if (b->in_stack || is_forced(b))
			continue;
		b->tmp_q -= g->regs->q[b->cls][a->cls];
		b->pq |= b->tmp_q < g->regs->p[b->cls];
	}
	g->stack[g->stack_count++] = n;
	a->in_stack = true;
}

/* One word of the sweep: push its trivially colourable nodes, high to low
 * (a push may make lower nodes of the word colourable: they go too).
 * Returns whether it pushed any. */
static bool sweep_word(struct ra_graph *g, unsigned lo, unsigned hi)
{
	bool skip[RA_SWEEP_WORD], any = false;
	for (unsigned n = lo; n <= hi; n++) {
		const struct ra_node *a = &g->nodes[n];
		skip[n - lo] = a->in_stack || is_forced(a);
		any |= !skip[n - lo] && a->pq;
	}
	if (!any)
		return false;
	for (unsigned n = hi + 1; n-- > lo;)
		if (!skip[n - lo] && g->nodes[n].pq)
			push(g, n);
	return true;
}

static void simplify(struct ra_graph *g)
{
	g->stack_count = 0;
	g->optimistic_start = UINT_MAX;
	for (unsigned n = 0; n < g->count; n++) {
		struct ra_node *a = &g->nodes[n];
		a->in_stack = false;
		a->reg = a->forced;
		a->tmp_q = a->q_total;
		a->pq = a->tmp_q < g->regs->p[a->cls];
	}
	unsigned words = (g->count + RA_SWEEP_WORD - 1) / RA_SWEEP_WORD;
	for (bool progress = true; progress;) {
		unsigned min_q = UINT_MAX, min_node = UINT_MAX;
		progress = false;
		for (unsigned w = words; w-- > 0;) {
			unsigned lo = w * RA_SWEEP_WORD;
			unsigned hi = lo + RA_SWEEP_WORD - 1 < g->count ? lo + RA_SWEEP_WORD - 1
									 : g->count - 1;
			if (sweep_word(g, lo, hi)) {
				progress = true;
				continue;
			}
			if (progress)
				continue;
			/* lowest q_total; ties go to the highest node */
			for (unsigned n = hi + 1; n-- > lo;) {
				const struct ra_node *a = &g->nodes[n];
				if (!a->in_stack && !is_forced(a) && a->tmp_q < min_q) {
					min_q = a->tmp_q;
					min_node = n;
				}
			}
		}
		if (!progress && min_node != UINT_MAX) {
			if (g->optimistic_start == UINT_MAX)
				g->optimistic_start = g->stack_count;
			push(g, min_node);
			progress = true;
		}
	}
}

/* ---- select ---- */

/* The registers of n's class no coloured neighbour conflicts with, into
 * g->avail. */
static void available_regs(struct ra_graph *g, unsigned n)
{
	const struct ra_regs *regs = g->regs;
	const struct ra_node *a = &g->nodes[n];
	unsigned k = regs->bank_size;
	bitset_copy(g->avail, regs->class_regs[a->cls], regs->count);
	for (unsigned i = 0; i < a->num_adj; i++) {
		const struct ra_node *b = &g->nodes[a->adj[i]];
		if (b->in_stack || b->reg == RA_NO_REG)
			continue;
		unsigned base = b->reg / k * k;
		const bitset_word *row = type_row(regs, b->reg % k);
		for (unsigned t = bitset_next(row, k, 0); t < k; t = bitset_next(row, k, t + 1))
			bitset_clear(g->avail, base + t);
	}
}

static bool select_regs(struct ra_graph *g)
{
	unsigned start = 0, count = g->regs->count;
	while (g->stack_count) {
		unsigned n = g->stack[g->stack_count - 1];
		struct ra_node *a = &g->nodes[n];
		a->in_stack = false;
		available_regs(g, n);
		unsigned r = bitset_next(g->avail, count, start % count);
		if (r == count)
			r = bitset_next(g->avail, count, 0);
		if (r == count)
			return false;
		a->reg = r;
		g->stack_count--;
		if (g->regs->round_robin && g->stack_count - 1 <= g->optimistic_start)
			start = r + 1;
	}
	return true;
}

bool ra_allocate(struct ra_graph *g)
{
	simplify(g);
	return select_regs(g);
}

unsigned ra_get_node_reg(const struct ra_graph *g, unsigned n)
{
	const struct ra_node *a = node(g, n);
	return is_forced(a) ? a->forced : a->reg;
}

/* ---- spilling ---- */

int ra_get_best_spill_node(const struct ra_graph *g)
{
	int best = -1;
	float best_ratio = 0.0f;
	for (unsigned n = 0; n < g->count; n++) {
		const struct ra_node *a = &g->nodes[n];
		if (a->spill_cost <= 0.0f || a->in_stack)
			continue;
		float benefit = 0.0f;
		for (unsigned i = 0; i < a->num_adj; i++)
			benefit += (float)g->regs->q[a->cls][g->nodes[a->adj[i]].cls] /
				   (float)g->regs->p[a->cls];
		if (benefit / a->spill_cost > best_ratio) {
			best_ratio = benefit / a->spill_cost;
			best = (int)n;
		}
	}
	return best;
}
