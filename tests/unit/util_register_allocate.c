/*
 * Unit tests of the generic graph-colouring allocator
 * (compiler/util/register_allocate.h): the q table from conflicts, the pq
 * test, optimistic colouring, select's lowest-register-first policy,
 * precoloured nodes, round robin, failure and the choice of a spill
 * candidate.
 */
#include <stdlib.h>

#include "compiler/util/register_allocate.h"
#include "tap.h"

/* One bank of `k` plain registers in one class. */
static struct ra_regs *plain_file(unsigned k)
{
	struct ra_regs *r = ra_regs_create(1, k);
	unsigned c = ra_add_class(r);
	for (unsigned t = 0; t < k; t++)
		ra_class_add_type(r, c, t);
	ra_regs_finalize(r, NULL);
	return r;
}

static void clique(struct ra_graph *g, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < i; j++)
			ra_add_node_interference(g, i, j);
}

static void test_plain(void)
{
	struct ra_regs *r = plain_file(4);
	is_int(ra_class_p(r, 0), 4, "plain file: p = 4");
	is_int(ra_class_q(r, 0, 0), 1, "plain file: q = 1 (a register conflicts with itself)");

	struct ra_graph *g = ra_graph_create(r, 4);
	clique(g, 4);
	is_int(ra_node_q_total(g, 0), 3, "clique of 4: q_total 3");
	ok(ra_allocate(g), "a clique of 4 colours with 4 registers");
	unsigned seen = 0;
	for (unsigned n = 0; n < 4; n++)
		seen |= 1u << ra_get_node_reg(g, n);
	is_int(seen, 0xf, "… each node its own register");
	ra_graph_free(g);

	g = ra_graph_create(r, 5);
	clique(g, 5);
	ok(!ra_allocate(g), "a clique of 5 does not colour with 4 registers");
	int failed = 0;
	for (unsigned n = 0; n < 5; n++)
		failed += ra_get_node_reg(g, n) == RA_NO_REG;
	is_int(failed, 1, "… exactly one node is left without a register");
	ra_graph_free(g);

	/* independent nodes all take the lowest register */
	g = ra_graph_create(r, 3);
	ok(ra_allocate(g), "no edges");
	is_int(ra_get_node_reg(g, 0) + ra_get_node_reg(g, 1) + ra_get_node_reg(g, 2), 0,
	       "… every node gets register 0");
	ra_graph_free(g);
	ra_regs_free(r);
}

/* The push order is Mesa's: trivially colourable nodes from the highest
 * index down, so select (popping in reverse) colours the lowest first. */
static void test_order(void)
{
	struct ra_regs *r = plain_file(8);
	struct ra_graph *g = ra_graph_create(r, 3);
	/* a chain 0 - 1 - 2 */
	ra_add_node_interference(g, 0, 1);
	ra_add_node_interference(g, 1, 2);
	ok(ra_allocate(g), "chain colours");
	is_int(ra_get_node_reg(g, 0), 0, "chain: node 0 popped first takes r0");
	is_int(ra_get_node_reg(g, 1), 1, "chain: node 1 takes r1");
	is_int(ra_get_node_reg(g, 2), 0, "chain: node 2 takes r0 again");
	ra_graph_free(g);
	ra_regs_free(r);
}

/* Optimistic colouring: a 4-cycle with 2 registers fails the pq test
 * (every q_total is 2) but colours. */
static void test_optimistic(void)
{
	struct ra_regs *r = plain_file(2);
	struct ra_graph *g = ra_graph_create(r, 4);
	for (unsigned i = 0; i < 4; i++)
		ra_add_node_interference(g, i, (i + 1) % 4);
	ok(ra_allocate(g), "a 4-cycle colours with 2 registers optimistically");
	for (unsigned i = 0; i < 4; i++)
		ok(ra_get_node_reg(g, i) != ra_get_node_reg(g, (i + 1) % 4),
		   "cycle edge %u-%u has two colours", i, (i + 1) % 4);
	ra_graph_free(g);
	ra_regs_free(r);
}

/* Registers of different shapes: one bank of x, y and the pair xy. */
static void test_pairs(void)
{
	struct ra_regs *r = ra_regs_create(2, 3);	/* two banks: x y xy */
	ra_add_type_conflict(r, 0, 2);
	ra_add_type_conflict(r, 1, 2);
	unsigned single = ra_add_class(r), pair = ra_add_class(r);
	ra_class_add_type(r, single, 0);
	ra_class_add_type(r, single, 1);
	ra_class_add_type(r, pair, 2);
	ra_regs_finalize(r, NULL);
	is_int(ra_class_p(r, single), 4, "pairs: p(single) = 2 per bank × 2 banks");
	is_int(ra_class_p(r, pair), 2, "pairs: p(pair) = 2");
	is_int(ra_class_q(r, single, pair), 2, "q(single, pair) = 2: a pair blocks x and y");
	is_int(ra_class_q(r, pair, single), 1, "q(pair, single) = 1");
	is_int(ra_class_q(r, single, single), 1, "q(single, single) = 1");
	ok(ra_regs_conflict(r, 0, 2) && !ra_regs_conflict(r, 0, 1), "x conflicts with xy, not y");
	ok(!ra_regs_conflict(r, 0, 5), "banks never conflict");

	/* a pair and two singles all live at once: the singles go to the other bank */
	struct ra_graph *g = ra_graph_create(r, 3);
	ra_set_node_class(g, 0, pair);
	ra_set_node_class(g, 1, single);
	ra_set_node_class(g, 2, single);
	clique(g, 3);
	ok(ra_allocate(g), "a pair and two singles colour");
	unsigned p = ra_get_node_reg(g, 0), s1 = ra_get_node_reg(g, 1), s2 = ra_get_node_reg(g, 2);
	ok(p % 3 == 2 && s1 % 3 < 2 && s2 % 3 < 2, "… each in its class");
	ok(!ra_regs_conflict(r, p, s1) && !ra_regs_conflict(r, p, s2) &&
	   !ra_regs_conflict(r, s1, s2), "… without conflicts");
	ra_graph_free(g);

	/* a given q table replaces the computed one */
	unsigned q[4] = { 7, 8, 9, 10 };
	struct ra_regs *r2 = ra_regs_create(1, 3);
	ra_add_class(r2);
	ra_add_class(r2);
	ra_regs_finalize(r2, q);
	is_int(ra_class_q(r2, 1, 0), 9, "a driver's q table is taken as it is");
	ra_regs_free(r2);
	ra_regs_free(r);
}

static void test_precolour(void)
{
	struct ra_regs *r = plain_file(3);
	struct ra_graph *g = ra_graph_create(r, 3);
	ra_set_node_reg(g, 0, 0);
	ra_set_node_reg(g, 1, 2);
	clique(g, 3);
	ok(ra_allocate(g), "precoloured neighbours");
	is_int(ra_get_node_reg(g, 0), 0, "precoloured node keeps r0");
	is_int(ra_get_node_reg(g, 1), 2, "precoloured node keeps r2");
	is_int(ra_get_node_reg(g, 2), 1, "the free node takes what is left");
	ra_graph_free(g);
	ra_regs_free(r);
}

static void test_round_robin(void)
{
	struct ra_regs *r = ra_regs_create(1, 4);
	unsigned c = ra_add_class(r);
	for (unsigned t = 0; t < 4; t++)
		ra_class_add_type(r, c, t);
	ra_regs_set_round_robin(r);
	ra_regs_finalize(r, NULL);
	struct ra_graph *g = ra_graph_create(r, 3);
	ok(ra_allocate(g), "round robin");
	/* pushed 2, 1, 0: popped 0, 1, 2 */
	is_int(ra_get_node_reg(g, 0), 0, "round robin: the first popped takes r0");
	is_int(ra_get_node_reg(g, 1), 1, "round robin: the next r1, not r0 again");
	is_int(ra_get_node_reg(g, 2), 2, "round robin: then r2");
	ra_graph_free(g);
	ra_regs_free(r);
}

static void test_spill(void)
{
	struct ra_regs *r = plain_file(2);
	struct ra_graph *g = ra_graph_create(r, 4);
	/* a star around node 0 plus a triangle 1-2-3: no 2-colouring */
	clique(g, 3);
	ra_add_node_interference(g, 0, 3);
	ok(!ra_allocate(g), "a triangle does not colour with 2 registers");
	is_int(ra_get_best_spill_node(g), -1, "no candidate without a spill cost");
	for (unsigned n = 0; n < 4; n++)
		ra_set_node_spill_cost(g, n, 1.0f);
	ra_set_node_spill_cost(g, 0, 100.0f);
	int best = ra_get_best_spill_node(g);
	ok(best > 0, "the cheap, well-connected node is chosen, not the costly one (got %d)", best);
	ra_graph_free(g);
	ra_regs_free(r);
}

int main(void)
{
	test_plain();
	test_order();
	test_optimistic();
	test_pairs();
	test_precolour();
	test_round_robin();
	test_spill();
	return done_testing();
}
