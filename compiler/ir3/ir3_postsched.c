/*
 * Post-RA scheduler (targets.md §2.2 step 13, Mesa's ir3_postsched.c
 * policy): with registers known, reorder each block to fill delay slots and
 * hide SFU/texture latency, before legalisation adds the nops.  Dependencies
 * are on physical registers (read after write with the latency of
 * ir3_delayslots, write after write, write after read; a merged file
 * makes a full register conflict with its two halves), plus values after
 * their definitions, the order of memory accesses, barriers and flow with
 * effects, kills before texture and memory instructions, varying fetches
 * before kills.  The choice, in order:
 *
 *  1. meta instructions (they emit nothing);
 *  2. varying fetches (the last bary.f releases varying storage);
 *  3. a kill that is ready;
 *  4. an SFU/texture/memory producer that is ready, counting the soft
 *     delay of the (ss)/(sy) results it reads;
 *  5. the instruction with the smallest soft delay, at most 3 cycles;
 *  6. a ready one;
 *  7. otherwise the longest critical path.
 * Ties go to the longest critical path, then to the original order.
 */
#include "compiler/ir3/ir3_passes.h"

#include <string.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"

#define UNITS 1024		/* half-register units; predicates and a0 after them */
#define PRED_UNIT 1000
#define ADDR_UNIT 1010
#define NUNITS 1012

struct pedge {
	struct pnode *to;
	unsigned delay;
};

struct pnode {
	struct ir3_instruction *instr;
	ARRAY(struct pedge) succs;
	unsigned npreds, order;
	unsigned delay, max_delay, earliest;
	bool has_ss_src, has_sy_src, done;
};

struct pctx {
	struct ir3 *ir;
	const struct ir3_info *t;
	struct arena *a;
	ARRAY(struct pnode *) nodes;
	ARRAY(struct pnode *) ready;
	unsigned ip;
	unsigned ss_delay, sy_delay;
	struct pnode *writer[NUNITS];	/* last writer of each unit, in the direction walked */
	unsigned writer_dst[NUNITS];
};

static void edge(struct pnode *from, struct pnode *to, unsigned delay)
{
	if (!from || !to || from == to)
		return;
	for (size_t k = 0; k < from->succs.len; k++)
		if (from->succs.data[k].to == to) {
			if (delay > from->succs.data[k].delay)
				from->succs.data[k].delay = delay;
			return;
		}
	array_push(&from->succs, (struct pedge){ .to = to, .delay = delay });
	to->npreds++;
}

/* The units a register component occupies; 0 when it is not a register. */
static unsigned units(const struct pctx *c, const struct ir3_register *r, unsigned comp,
		      unsigned *first)
{
	unsigned num = r->num + comp;
	if (r->flags & IR3_REG_PREDICATE) {
		*first = PRED_UNIT + (num & 3);
		return 1;
	}
	if (r->flags & IR3_REG_ADDR) {
		*first = ADDR_UNIT + (num & 1);
		return 1;
	}
	if ((r->flags & (IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_RT | IR3_REG_SHARED)) ||
	    !(r->flags & IR3_REG_ASSIGNED) || num >= IR3_GPR_COMPS)
		return 0;
	*first = ir3_reg_unit(c->t->mergedregs, r->flags & IR3_REG_HALF, num);
	return ir3_reg_elem_size(r);
}

static bool reads_a0(const struct ir3_instruction *i)
{
	for (unsigned n = 0; n < i->nsrc; n++)
		if (i->srcs[n]->flags & IR3_REG_RELATIV)
			return true;
	return i->ndst && (i->dsts[0]->flags & IR3_REG_RELATIV);	/* r<a0.x + n> = … */
}

/* Forward walk: read-after-write (with latency) and write-after-write. */
static void forward_deps(struct pctx *c)
{
	memset(c->writer, 0, sizeof(c->writer));
	for (size_t k = 0; k < c->nodes.len; k++) {
		struct pnode *n = c->nodes.data[k];
		struct ir3_instruction *i = n->instr;
		bool meta = ir3_is_meta(i);
		for (unsigned s = 0; s < i->nsrc + (reads_a0(i) ? 1 : 0); s++) {
			struct ir3_register a0 = { .flags = IR3_REG_ADDR | IR3_REG_ASSIGNED, .wrmask = 1 };
			const struct ir3_register *r = s < i->nsrc ? i->srcs[s] : &a0;
			unsigned e0, ne = ir3_reg_span(r, &e0);
			for (unsigned e = e0; e < e0 + ne; e++) {
				unsigned first, count = units(c, r, e, &first);
				for (unsigned u = first; u < first + count; u++) {
					struct pnode *w = c->writer[u];
					if (!w)
						continue;
					unsigned hard = meta ? 0 : ir3_delayslots(c->t, w->instr, i, s, false);
					unsigned soft = meta ? 0 : ir3_delayslots(c->t, w->instr, i, s, true);
					if (soft > n->delay)
						n->delay = soft;
					n->has_sy_src |= ir3_is_sy_producer(w->instr);
					n->has_ss_src |= ir3_is_ss_producer(w->instr);
					edge(w, n, hard);
				}
			}
		}
		/* meta instructions stand for the registers they name: keep them
		 * after the writers of their destinations too */
		for (unsigned d = 0; d < i->ndst; d++) {
			const struct ir3_register *r = i->dsts[d];
			unsigned e0, ne = ir3_reg_span(r, &e0);
			for (unsigned e = e0; e < e0 + ne; e++) {
				unsigned first, count = units(c, r, e, &first);
				for (unsigned u = first; u < first + count; u++) {
					edge(c->writer[u], n, 0);
					if (!meta) {
						c->writer[u] = n;
						c->writer_dst[u] = d;
					}
				}
			}
		}
	}
}

/* Backward walk: a write waits for the earlier reads of its registers. */
static void reverse_deps(struct pctx *c)
{
	memset(c->writer, 0, sizeof(c->writer));
	for (size_t k = c->nodes.len; k-- > 0;) {
		struct pnode *n = c->nodes.data[k];
		struct ir3_instruction *i = n->instr;
		bool meta = ir3_is_meta(i);
		for (unsigned s = 0; s < i->nsrc + (reads_a0(i) ? 1 : 0); s++) {
			struct ir3_register a0 = { .flags = IR3_REG_ADDR | IR3_REG_ASSIGNED, .wrmask = 1 };
			const struct ir3_register *r = s < i->nsrc ? i->srcs[s] : &a0;
			unsigned e0, ne = ir3_reg_span(r, &e0);
			for (unsigned e = e0; e < e0 + ne; e++) {
				unsigned first, count = units(c, r, e, &first);
				for (unsigned u = first; u < first + count; u++)
					edge(n, c->writer[u], 0);
			}
		}
		for (unsigned d = 0; d < i->ndst; d++) {
			const struct ir3_register *r = i->dsts[d];
			unsigned e0, ne = ir3_reg_span(r, &e0);
			for (unsigned e = e0; e < e0 + ne; e++) {
				unsigned first, count = units(c, r, e, &first);
				for (unsigned u = first; u < first + count; u++) {
					edge(n, c->writer[u], 0);
					if (!meta)
						c->writer[u] = n;
				}
			}
		}
	}
}

static bool is_kill(const struct ir3_instruction *i)
{
	return i->opc == OPC_KILL || i->opc == OPC_DEMOTE;
}

/* Memory, barriers, kills and flow keep their relative order. */
static void order_deps(struct pctx *c)
{
	struct pnode *last_ordered = NULL;
	ARRAY(struct pnode *) kills = ARRAY_INIT, inputs = ARRAY_INIT;
	for (size_t k = 0; k < c->nodes.len; k++) {
		struct pnode *n = c->nodes.data[k];
		struct ir3_instruction *i = n->instr;
		/* values stay after their definitions (meta ones included) */
		for (unsigned s = 0; s < i->nsrc; s++) {
			struct ir3_register *d = i->srcs[s]->def;
			if (d && d->instr->block == i->block && d->instr->data)
				edge(d->instr->data, n, 0);
		}
		if (ir3_is_mem(i) || ir3_is_barrier(i) || (ir3_is_flow(i) && !ir3_is_terminator(i)) ||
		    (ir3_is_tex(i) && !i->ndst)) {
			edge(last_ordered, n, 0);
			last_ordered = n;
		}
		if (ir3_is_input(i)) {
			array_push(&inputs, n);
		} else if (is_kill(i)) {
			for (size_t m = 0; m < inputs.len; m++)
				edge(inputs.data[m], n, 0);
			array_push(&kills, n);
		} else if (ir3_is_tex(i) || ir3_is_mem(i)) {
			for (size_t m = 0; m < kills.len; m++)
				edge(kills.data[m], n, 0);
		}
		/* the terminator goes last */
		if (ir3_is_terminator(i) || i->opc == OPC_END)
			for (size_t m = 0; m < k; m++)
				edge(c->nodes.data[m], n, 0);
	}
	array_free(&kills);
	array_free(&inputs);
}

static bool stays_first(const struct ir3_instruction *i)
{
	return i->opc == OPC_META_PHI || i->opc == OPC_META_INPUT || i->opc == OPC_META_TEX_PREFETCH;
}

static void build(struct pctx *c, struct ir3_block *b)
{
	c->nodes.len = 0;
	foreach_instr(i, b) {
		if (stays_first(i))
			continue;
		struct pnode *n = arena_new(c->a, struct pnode);
		n->instr = i;
		n->order = (unsigned)c->nodes.len;
		i->data = n;
		array_push(&c->nodes, n);
	}
	forward_deps(c);
	if (!(c->ir->test_break & IR3_BREAK_POSTSCHED))
		reverse_deps(c);
	order_deps(c);
	for (size_t k = c->nodes.len; k-- > 0;) {
		struct pnode *n = c->nodes.data[k];
		unsigned m = 0;
		for (size_t e = 0; e < n->succs.len; e++)
			if (n->succs.data[e].to->max_delay > m)
				m = n->succs.data[e].to->max_delay;
		n->max_delay = m + n->delay;
	}
}

static unsigned node_delay(const struct pctx *c, const struct pnode *n)
{
	return n->earliest > c->ip ? n->earliest - c->ip : 0;
}

static unsigned node_delay_soft(const struct pctx *c, const struct pnode *n)
{
	unsigned d = node_delay(c, n);
	if (n->has_ss_src && c->ss_delay > d)
		d = c->ss_delay;
	if (n->has_sy_src && c->sy_delay > d)
		d = c->sy_delay;
	return d;
}

static bool better(const struct pnode *a, const struct pnode *best)
{
	if (!best)
		return true;
	if (a->max_delay != best->max_delay)
		return a->max_delay > best->max_delay;
	return a->order < best->order;
}

static struct pnode *choose(struct pctx *c)
{
	struct pnode *best = NULL;
	for (int step = 0; step < 7 && !best; step++) {
		unsigned best_delay = ~0u;
		for (size_t k = 0; k < c->ready.len; k++) {
			struct pnode *n = c->ready.data[k];
			struct ir3_instruction *i = n->instr;
			switch (step) {
			case 0:
				if (ir3_is_meta(i) && better(n, best))
					best = n;
				break;
			case 1:
				if (ir3_is_input(i) && better(n, best))
					best = n;
				break;
			case 2:
				if (is_kill(i) && !node_delay(c, n) && better(n, best))
					best = n;
				break;
			case 3:
				if ((ir3_is_ss_producer(i) || ir3_is_sy_producer(i)) && !node_delay_soft(c, n) &&
				    better(n, best))
					best = n;
				break;
			case 4: {
				unsigned d = node_delay_soft(c, n);
				if (d > 3)
					break;
				if (d < best_delay || (d == best_delay && better(n, best))) {
					best = n;
					best_delay = d;
				}
				break;
			}
			case 5:
				if (!node_delay(c, n) && better(n, best))
					best = n;
				break;
			default:
				if (better(n, best))
					best = n;
				break;
			}
		}
	}
	return best;
}

static void schedule(struct pctx *c, struct ir3_block *b, struct pnode *n)
{
	struct ir3_instruction *i = n->instr;
	bool counts = ir3_is_alu(i) || ir3_is_flow(i);
	unsigned cycles = counts ? 1 + i->repeat : 0;
	c->ip = (n->earliest > c->ip ? n->earliest : c->ip) + cycles;
	n->done = true;
	ir3_instr_append(b, i);
	for (size_t k = 0; k < c->ready.len; k++)
		if (c->ready.data[k] == n) {
			c->ready.data[k] = array_last(&c->ready);
			c->ready.len--;
			break;
		}
	for (size_t e = 0; e < n->succs.len; e++) {
		struct pnode *s = n->succs.data[e].to;
		unsigned ready = c->ip + n->succs.data[e].delay;
		if (ready > s->earliest)
			s->earliest = ready;
		if (--s->npreds == 0)
			array_push(&c->ready, s);
	}
	if (ir3_is_meta(i))
		return;
	if (ir3_is_ss_producer(i))
		c->ss_delay = ir3_soft_ss_delay(i);
	else if (n->has_ss_src)
		c->ss_delay = 0;
	else if (c->ss_delay)
		c->ss_delay--;
	if (ir3_is_sy_producer(i))
		c->sy_delay = ir3_soft_sy_delay(i, c->ir->stage);
	else if (n->has_sy_src)
		c->sy_delay = 0;
	else if (c->sy_delay)
		c->sy_delay--;
}

static void sched_block(struct pctx *c, struct ir3_block *b)
{
	build(c, b);
	c->ip = c->ss_delay = c->sy_delay = 0;
	c->ready.len = 0;

	/* phis, inputs and texture prefetches stay first */
	struct ir3_instruction *keep = b->first;
	while (keep && stays_first(keep))
		keep = keep->next;
	for (struct ir3_instruction *i = keep, *next; i; i = next) {
		next = i->next;
		if (stays_first(i))
			BUG("phi, input or prefetch in the middle of block b%u", b->index);
		ir3_instr_remove(i);
	}
	for (size_t k = 0; k < c->nodes.len; k++)
		if (!c->nodes.data[k]->npreds)
			array_push(&c->ready, c->nodes.data[k]);
	for (size_t done = 0; done < c->nodes.len; done++) {
		struct pnode *n = choose(c);
		if (!n)
			BUG("post-RA scheduler found a cycle in block b%u", b->index);
		schedule(c, b, n);
	}
	for (size_t k = 0; k < c->nodes.len; k++) {
		array_free(&c->nodes.data[k]->succs);
		c->nodes.data[k]->instr->data = NULL;
	}
}

bool ir3_postsched(struct ir3 *ir)
{
	struct arena a = ARENA_INIT;
	struct pctx *c = arena_new(&a, struct pctx);
	c->ir = ir;
	c->t = ir->target;
	c->a = &a;
	foreach_block(b, ir)
		sched_block(c, b);
	array_free(&c->nodes);
	array_free(&c->ready);
	arena_release(&a);
	return true;
}
