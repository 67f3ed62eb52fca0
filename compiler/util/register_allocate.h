/*
 * A graph-colouring register allocator for irregular register files, in the
 * manner of Mesa's util/register_allocate.c (../../shared/reference/targets.md
 * §5): Runeson and Nyström's "Retargetable Graph-Coloring Register
 * Allocation for Irregular Architectures" with optimistic colouring.  No
 * backend's types appear here: a backend describes its registers, classes
 * and conflicts once, then colours one interference graph per shader.
 *
 * Registers.  A register set is `num_banks` identical banks of `bank_size`
 * registers; register r is type r % bank_size of bank r / bank_size.  Two
 * registers conflict only within one bank, when their types conflict
 * (ra_add_type_conflict); a register conflicts with itself.  A vec4 file
 * whose registers carry sub-vector shapes is 64 banks of shapes (etnaviv:
 * 22 shapes per vec4 temporary); a plain file is one bank.
 *
 * Classes.  A class is a set of types, in every bank (ra_class_add_type);
 * p(C) is its number of registers.  q(B, C) is the most registers of class B
 * that one register of class C conflicts with; ra_regs_finalize computes it
 * from the conflicts, or takes a driver's table.
 *
 * Graph.  Nodes have a class and edges where two values may not share
 * conflicting registers.  A node may be precoloured (ra_set_node_reg): it
 * takes part as a neighbour and is never pushed.  q_total(n) is the sum of
 * q(class(n), class(m)) over the neighbours m.
 *
 * ra_allocate: simplify then select.
 *  - Simplify pushes every node whose q_total < p(class) (the pq test that
 *    replaces "degree < k") and takes its q from its neighbours; when none
 *    is left, it pushes optimistically the node of lowest q_total, the
 *    highest-numbered of equals.  Nodes are visited as Mesa does: from the
 *    highest index down, in words of 32 nodes, each sweep pushing what it
 *    finds before starting again from the top.
 *  - Select pops the stack and gives each node the lowest-numbered register
 *    of its class that conflicts with no coloured neighbour (with round
 *    robin, the search starts after the last register given, below the
 *    first optimistic node).  Only optimistic nodes can fail: ra_allocate
 *    then returns false and the failed node's register is RA_NO_REG.
 *
 * Spilling is the caller's: ra_set_node_spill_cost marks candidates and
 * ra_get_best_spill_node picks the one of best benefit/cost, benefit being
 * the sum over neighbours of q(C_n, C_m) / p(C_n).
 *
 * Everything is malloc'ed and freed by ra_regs_free / ra_graph_free; a
 * finalised register set is read-only and may be shared by graphs on
 * several threads.
 */
#ifndef SHDB_UTIL_REGISTER_ALLOCATE_H
#define SHDB_UTIL_REGISTER_ALLOCATE_H

#include <stdbool.h>

#define RA_NO_REG (~0u)
#define RA_MAX_CLASSES 32

struct ra_regs;
struct ra_graph;

/* A register set of `num_banks` banks of `bank_size` registers. */
struct ra_regs *ra_regs_create(unsigned num_banks, unsigned bank_size);
void ra_regs_free(struct ra_regs *regs);
unsigned ra_regs_count(const struct ra_regs *regs);
unsigned ra_regs_bank_size(const struct ra_regs *regs);

/* Types t1 and t2 of one bank may not be used at once (symmetric). */
void ra_add_type_conflict(struct ra_regs *regs, unsigned t1, unsigned t2);
/* Whether registers r1 and r2 conflict (true when equal). */
bool ra_regs_conflict(const struct ra_regs *regs, unsigned r1, unsigned r2);

/* A new class; classes are numbered 0, 1, … in creation order. */
unsigned ra_add_class(struct ra_regs *regs);
/* Type t of every bank belongs to class c. */
void ra_class_add_type(struct ra_regs *regs, unsigned c, unsigned t);
bool ra_class_has_reg(const struct ra_regs *regs, unsigned c, unsigned r);

/* Select starts each search after the last register given (Mesa's
 * ra_set_allocate_round_robin). */
void ra_regs_set_round_robin(struct ra_regs *regs);

/* Compute q (or take q[b * num_classes + c] from `q` when not NULL).  The
 * set must be finalised before a graph uses it and not changed after. */
void ra_regs_finalize(struct ra_regs *regs, const unsigned *q);
unsigned ra_class_p(const struct ra_regs *regs, unsigned c);
unsigned ra_class_q(const struct ra_regs *regs, unsigned b, unsigned c);
unsigned ra_num_classes(const struct ra_regs *regs);

/* An interference graph of `count` nodes, all of class 0, no edges. */
struct ra_graph *ra_graph_create(const struct ra_regs *regs, unsigned count);
void ra_graph_free(struct ra_graph *g);

void ra_set_node_class(struct ra_graph *g, unsigned n, unsigned c);
unsigned ra_get_node_class(const struct ra_graph *g, unsigned n);
/* Precolour node n with register r. */
void ra_set_node_reg(struct ra_graph *g, unsigned n, unsigned r);
void ra_add_node_interference(struct ra_graph *g, unsigned n1, unsigned n2);
bool ra_nodes_interfere(const struct ra_graph *g, unsigned n1, unsigned n2);
/* The node's q_total (the sum over its neighbours). */
unsigned ra_node_q_total(const struct ra_graph *g, unsigned n);

/* Colour the graph; false when an optimistically pushed node found no
 * register (the graph can be coloured again after changes). */
bool ra_allocate(struct ra_graph *g);
/* The register of node n, or RA_NO_REG. */
unsigned ra_get_node_reg(const struct ra_graph *g, unsigned n);

/* Spill candidates: nodes with a cost > 0. */
void ra_set_node_spill_cost(struct ra_graph *g, unsigned n, float cost);
/* The candidate of best benefit/cost among the nodes coloured or failed
 * by the last ra_allocate, or -1. */
int ra_get_best_spill_node(const struct ra_graph *g);

#endif
