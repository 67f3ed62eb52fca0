/*
 * Pre-RA list scheduler, one block at a time over a dependency DAG, with
 * Mesa's ir3_sched.c policy (targets.md §2.2 step 9):
 *
 *  0. Phis, inputs and then texture prefetches lead the block, in their
 *     order, outside the DAG (Mesa schedules every meta:input first, then
 *     every meta:tex_prefetch).
 *  1. Meta instructions other than collect go first (splits: a split lets
 *     RA reuse the vector's registers as soon as possible), the longest
 *     critical path first.
 *  2. Otherwise prefer an instruction that frees registers, then one that
 *     leaves the pressure unchanged (Goodman/Hsu "CSR"); among those the
 *     ready one (no nop needed) first, then the longest critical path.
 *  3. Only then an instruction that grows the pressure: ready ones first,
 *     then the one whose nearest use comes first in the original order
 *     (Mesa's nearest_use; an input's distance is halved, so bary.f and
 *     flat.b come early and the varying storage is released sooner).
 *  Steps 2 and 3 are tried first while deferring instructions that would
 *  need an (ss)/(sy) while an SFU or texture result is still far from
 *  ready, or a ninth outstanding SFU or texture instruction; step 3 first
 *  leaves out outputs (values only `end` reads, and instructions no value
 *  reads), then takes anything.
 *
 * Pressure is the number of components of values live in the block
 * (Mesa's live_effect); once one source of a collect is scheduled the
 * others cost nothing (the vector is live), and until then the first one
 * counts the whole vector.  Latency comes from ir3_delayslots: hard delays
 * for readiness, soft ones for the critical path; edges from and to meta
 * instructions have none, as in Mesa.  The cycle counter advances only on
 * ALU and flow instructions.  a0.x holds one value at a time and p0
 * `num_predicates` values: a writer waits until the registers are free;
 * when everything is blocked on them, the current value's writer is cloned
 * for its remaining users.  Texture and memory instructions wait for
 * pending kills they do not feed; a kill waits for every varying fetch of
 * its block (the hardware wants (ei) before the thread dies).  The
 * terminator stays at the end.  False dependencies keep memory accesses of
 * the same kind, barriers and kills in order.
 */
#include "compiler/ir3/ir3_passes.h"
#include "compiler/ir3/ir3_ra.h"

#include <limits.h>
#include <string.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"

struct sched_edge {
	struct sched_node *to;
	unsigned delay;			/* hard delay slots */
};

struct sched_node {
	struct ir3_instruction *instr;
	ARRAY(struct sched_edge) succs;
	unsigned npreds;		/* unscheduled predecessors */
	unsigned delay;			/* largest soft delay after a producer */
	unsigned max_delay;		/* critical path to the block's end */
	unsigned earliest;		/* first cycle it issues without nops */
	unsigned order;			/* original position */
	unsigned ss_index, sy_index;	/* when scheduled as a producer */
	struct ir3_instruction *collect;/* a collect of this block reading it */
	bool scheduled, kill_path;
	bool partially_live;		/* a source of its collect is scheduled */
	bool output;			/* only `end` reads it, or nothing does */
	unsigned props;			/* SN_*: what the instruction is, computed once */
	/* caches for choose(): what can only change when marked */
	bool effect_valid, sync_valid, dist_valid;
	int ss_src, sy_src;		/* highest (ss)/(sy) index read, -1 none, INT_MAX
					   for a producer in another block */
	unsigned dist;			/* nearest_use() */
	/* per choice, computed once */
	int effect;
	bool ok, defer;
};

enum {
	SN_ADDR = 1 << 0,		/* writes a0.x */
	SN_PRED = 1 << 1,		/* writes p0 */
	SN_TEXMEM = 1 << 2,		/* cat5/cat6 */
	SN_KILL = 1 << 3,		/* kill, demote */
	SN_INPUT = 1 << 4,		/* varying fetch */
	SN_SS = 1 << 5,			/* (ss) producer */
	SN_SY = 1 << 6,			/* (sy) producer */
	SN_REL = 1 << 7,		/* reads a0.x */
	SN_PRIO = 1 << 8,		/* meta but collect: scheduled first */
};

struct sched_ctx {
	struct ir3 *ir;
	const struct ir3_info *t;
	struct arena *a;
	struct ir3_liveness *live;
	struct ir3_block *block;
	ARRAY(struct sched_node *) nodes;
	ARRAY(struct sched_node *) ready;	/* unscheduled, all predecessors done */
	unsigned *uses;			/* by value name: unscheduled reads, +1 if live-out */
	unsigned nuses;
	ARRAY(unsigned) touched;	/* names whose `uses` to clear after the block */
	unsigned ip;
	unsigned ss_delay, sy_delay;
	unsigned ss_index, sy_index, first_ss, first_sy;
	unsigned kills, texs;		/* unscheduled kills, (sy) producers */
	unsigned inputs;		/* unscheduled varying fetches */
	/* every value's readers, over the whole program (nearest_use) */
	unsigned *use_start;		/* by name: first entry in use_list */
	struct ir3_instruction **use_list;
	unsigned use_names;
	struct ir3_register *addr;	/* the value in a0.x */
	unsigned live_preds;
};

/* Phis, inputs and texture prefetches lead the block outside the DAG. */
static bool stays_first(const struct ir3_instruction *i)
{
	return i->opc == OPC_META_PHI || i->opc == OPC_META_INPUT || i->opc == OPC_META_TEX_PREFETCH;
}

static struct sched_node *node_of(const struct ir3_instruction *i)
{
	return i ? i->data : NULL;
}

static bool in_block(struct sched_ctx *c, const struct ir3_instruction *i)
{
	return i && i->block == c->block && i->data && !stays_first(i);
}

static void add_edge(struct sched_node *from, struct sched_node *to, unsigned delay)
{
	if (from == to)
		return;
	for (size_t k = 0; k < from->succs.len; k++)
		if (from->succs.data[k].to == to) {
			if (from->succs.data[k].delay < delay)
				from->succs.data[k].delay = delay;
			return;
		}
	array_push(&from->succs, (struct sched_edge){ .to = to, .delay = delay });
	to->npreds++;
}

/* The dependency of `n` on the producer of its source `srcn` (Mesa's
 * sched_node_add_dep: meta instructions are producers like any other, with
 * no delay). */
static void add_src_dep(struct sched_ctx *c, struct sched_node *n, struct ir3_instruction *src,
			unsigned srcn)
{
	if (!in_block(c, src))
		return;
	unsigned hard = ir3_delayslots(c->t, src, n->instr, srcn, false);
	unsigned soft = ir3_delayslots(c->t, src, n->instr, srcn, true);
	add_edge(node_of(src), n, hard);
	if (soft > n->delay)
		n->delay = soft;
	if (n->instr->opc == OPC_META_COLLECT)
		node_of(src)->collect = n->instr;
}

enum mem_kind { MEM_LOCAL, MEM_GLOBAL, MEM_PRIVATE, MEM_CONST, MEM_KINDS };

static int mem_kind(const struct ir3_instruction *i)
{
	if (ir3_has_flag(i, IR3_OP_LOCAL))
		return MEM_LOCAL;
	if (ir3_has_flag(i, IR3_OP_PRIVATE))
		return MEM_PRIVATE;
	if (ir3_has_flag(i, IR3_OP_CONSTMEM))
		return MEM_CONST;
	if (ir3_has_flag(i, IR3_OP_GLOBAL) || ir3_is_tex(i))
		return MEM_GLOBAL;
	return -1;
}

static bool writes_mem(const struct ir3_instruction *i)
{
	return ir3_has_flag(i, IR3_OP_STORE) || ir3_has_flag(i, IR3_OP_ATOMIC);
}

/* Memory order, barriers, kills, flow with effects. */
static void add_false_deps(struct sched_ctx *c)
{
	struct sched_node *last_store[MEM_KINDS] = { 0 }, *last_barrier = NULL, *last_kill = NULL;
	struct sched_node *last_side = NULL;
	ARRAY(struct sched_node *) loads[MEM_KINDS] = { 0 };

	for (size_t k = 0; k < c->nodes.len; k++) {
		struct sched_node *n = c->nodes.data[k];
		struct ir3_instruction *i = n->instr;
		int kind = mem_kind(i);
		bool barrier = ir3_has_flag(i, IR3_OP_BARRIER);

		if (barrier) {
			for (int m = 0; m < MEM_KINDS; m++) {
				if (last_store[m])
					add_edge(last_store[m], n, 0);
				for (size_t l = 0; l < loads[m].len; l++)
					add_edge(loads[m].data[l], n, 0);
				loads[m].len = 0;
				last_store[m] = n;
			}
		} else if (kind >= 0) {
			if (last_barrier)
				add_edge(last_barrier, n, 0);
			if (last_store[kind])
				add_edge(last_store[kind], n, 0);
			if (writes_mem(i)) {
				for (size_t l = 0; l < loads[kind].len; l++)
					add_edge(loads[kind].data[l], n, 0);
				loads[kind].len = 0;
				last_store[kind] = n;
				if (last_kill)
					add_edge(last_kill, n, 0);
			} else {
				array_push(&loads[kind], n);
			}
		}
		if (i->opc == OPC_KILL || i->opc == OPC_DEMOTE) {
			if (last_kill)
				add_edge(last_kill, n, 0);
			for (int m = 0; m < MEM_KINDS; m++)
				if (last_store[m])
					add_edge(last_store[m], n, 0);
			last_kill = n;
		}
		if (barrier)
			last_barrier = n;
		/* other flow with effects keeps its order */
		if (ir3_is_flow(i) || ir3_is_barrier(i)) {
			if (last_side)
				add_edge(last_side, n, 0);
			last_side = n;
		}
	}
	for (int m = 0; m < MEM_KINDS; m++)
		array_free(&loads[m]);
}

static void mark_kill_path(struct sched_node *n)
{
	if (n->kill_path)
		return;
	n->kill_path = true;
	struct ir3_instruction *i = n->instr;
	for (unsigned k = 0; k < i->nsrc; k++) {
		struct ir3_instruction *d = i->srcs[k]->def ? i->srcs[k]->def->instr : NULL;
		if (d && d->data && d->block == i->block && d->opc != OPC_META_PHI)
			mark_kill_path(d->data);
	}
}

/* Only `end`/`chmask` read its values (through collects), or nothing
 * does: Mesa's is_output_only, which such instructions leave for last. */
static bool is_output_only(struct sched_ctx *c, const struct ir3_instruction *i)
{
	for (unsigned k = 0; k < i->ndst; k++) {
		unsigned name = i->dsts[k]->name;
		if (name >= c->use_names)
			return false;
		for (unsigned u = c->use_start[name]; u < c->use_start[name + 1]; u++) {
			const struct ir3_instruction *col = c->use_list[u];
			if (col->opc != OPC_META_COLLECT)
				return false;
			unsigned cn = col->dsts[0]->name;
			for (unsigned v = c->use_start[cn]; v < c->use_start[cn + 1]; v++)
				if (c->use_list[v]->opc != OPC_END && c->use_list[v]->opc != OPC_CHMASK)
					return false;
		}
	}
	return true;
}

static void use(struct sched_ctx *c, unsigned name)
{
	if (!c->uses[name]++)
		array_push(&c->touched, name);
}

static void count_uses(struct sched_ctx *c)
{
	foreach_instr(i, c->block) {
		if (i->opc == OPC_META_PHI)
			continue;
		for (unsigned k = 0; k < i->nsrc; k++)
			if (i->srcs[k]->def)
				use(c, i->srcs[k]->def->name);
		if (i->address)
			use(c, i->address->dsts[0]->name);
	}
	BITSET_FOREACH(v, c->live->live_out[c->block->index], c->live->ndefs)
		use(c, (unsigned)v);
}

static struct sched_node *new_node(struct sched_ctx *c, struct ir3_instruction *i)
{
	struct sched_node *n = arena_new(c->a, struct sched_node);
	n->instr = i;
	n->order = (unsigned)c->nodes.len;
	n->props = (ir3_writes_addr(i) ? SN_ADDR : 0) | (ir3_writes_pred(i) ? SN_PRED : 0) |
		   (ir3_is_tex(i) || ir3_is_mem(i) ? SN_TEXMEM : 0) |
		   (i->opc == OPC_KILL || i->opc == OPC_DEMOTE ? SN_KILL : 0) |
		   (ir3_is_input(i) ? SN_INPUT : 0) | (ir3_is_ss_producer(i) ? SN_SS : 0) |
		   (ir3_is_sy_producer(i) ? SN_SY : 0) | (i->address ? SN_REL : 0) |
		   (ir3_is_meta(i) && i->opc != OPC_META_COLLECT ? SN_PRIO : 0);
	i->data = n;
	array_push(&c->nodes, n);
	return n;
}

/* An array write comes after every read of the version it updates (the
 * versions share one register: Mesa's array barriers). */
static void add_array_deps(struct sched_ctx *c)
{
	for (size_t k = 0; k < c->nodes.len; k++) {
		struct sched_node *w = c->nodes.data[k];
		struct ir3_register *t = ir3_tied_src(w->instr);
		if (!t || !t->def)
			continue;
		for (size_t m = 0; m < c->nodes.len; m++) {
			struct ir3_instruction *u = c->nodes.data[m]->instr;
			if (m == k)
				continue;
			foreach_src(r, u)
				if (r->def == t->def) {
					add_edge(c->nodes.data[m], w, 0);
					break;
				}
		}
	}
}

static void build_dag(struct sched_ctx *c)
{
	c->nodes.len = 0;
	foreach_instr(i, c->block)
		i->data = NULL;
	foreach_instr(i, c->block)
		if (!stays_first(i))
			new_node(c, i);
	for (size_t k = 0; k < c->nodes.len; k++) {
		struct sched_node *n = c->nodes.data[k];
		struct ir3_instruction *i = n->instr;
		for (unsigned s = 0; s < i->nsrc; s++)
			if (i->srcs[s]->def)
				add_src_dep(c, n, i->srcs[s]->def->instr, s);
		if (i->address && in_block(c, i->address))
			add_edge(node_of(i->address), n, ir3_delayslots(c->t, i->address, i, 0, false));
	}
	add_false_deps(c);
	add_array_deps(c);
	/* the terminator and end come after everything */
	for (size_t k = 0; k < c->nodes.len; k++) {
		struct sched_node *n = c->nodes.data[k];
		if (!ir3_is_terminator(n->instr) && n->instr->opc != OPC_END)
			continue;
		for (size_t m = 0; m < c->nodes.len; m++)
			if (m != k)
				add_edge(c->nodes.data[m], n, 0);
	}
	/* critical paths, in reverse topological (= original) order */
	for (size_t k = c->nodes.len; k-- > 0;) {
		struct sched_node *n = c->nodes.data[k];
		unsigned m = 0;
		for (size_t e = 0; e < n->succs.len; e++)
			if (n->succs.data[e].to->max_delay > m)
				m = n->succs.data[e].to->max_delay;
		n->max_delay = m + n->delay;
	}
	for (size_t k = 0; k < c->nodes.len; k++) {
		struct sched_node *n = c->nodes.data[k];
		struct ir3_instruction *i = n->instr;
		/* every varying fetch comes before a kill: both are prioritised */
		if (i->opc == OPC_KILL || i->opc == OPC_DEMOTE || ir3_is_input(i))
			mark_kill_path(n);
		c->kills += i->opc == OPC_KILL || i->opc == OPC_DEMOTE;
		c->inputs += ir3_is_input(i);
		c->texs += ir3_is_sy_producer(i);
		n->output = is_output_only(c, i);
	}
}

/* ------------------------------------------------------------------ */
/* choosing */

static unsigned dst_comps(const struct ir3_register *r)
{
	return ir3_ra_def(r) ? ir3_reg_elems(r) : 0;
}

/* Components the instruction's values take (Mesa's new_regs). */
static unsigned new_regs(const struct ir3_instruction *i)
{
	unsigned n = 0;
	for (unsigned k = 0; k < i->ndst; k++)
		n += dst_comps(i->dsts[k]);
	return n;
}

static int live_effect(struct sched_ctx *c, struct sched_node *n)
{
	struct ir3_instruction *i = n->instr;
	bool used = false;
	for (unsigned k = 0; k < i->ndst; k++)
		used |= c->uses[i->dsts[k]->name] != 0;
	int new_live = n->partially_live || !used ? 0 : (int)new_regs(i);
	/* the first source of a collect makes the whole vector live */
	if (n->collect)
		new_live *= (int)n->collect->nsrc;
	int freed = 0;
	for (unsigned k = 0; k < i->nsrc; k++) {
		struct ir3_register *d = i->srcs[k]->def;
		if (!d || d->instr->block != c->block || !ir3_ra_def(d))
			continue;
		bool dup = false;
		for (unsigned m = 0; m < k; m++)
			dup |= i->srcs[m]->def == d;
		if (!dup && c->uses[d->name] == 1)
			freed += (int)new_regs(d->instr);
	}
	return new_live - freed;
}

/* Does `i` read, directly or through splits and collects, an (ss) / (sy)
 * producer's result not yet waited for?  A producer in another block
 * counts as outstanding (Mesa's is_outstanding_ss/sy). */
static bool reads_outstanding(struct sched_ctx *c, struct ir3_instruction *i, bool ss)
{
	for (unsigned k = 0; k < i->nsrc; k++) {
		struct ir3_register *d = i->srcs[k]->def;
		if (!d)
			continue;
		struct ir3_instruction *p = d->instr;
		if (p->opc == OPC_META_SPLIT || p->opc == OPC_META_COLLECT) {
			if (reads_outstanding(c, p, ss))
				return true;
			continue;
		}
		if (ss ? !ir3_is_ss_producer(p) : !ir3_is_sy_producer(p))
			continue;
		if (p->block != c->block)
			return true;
		struct sched_node *pn = p->data;
		if (pn && (ss ? pn->ss_index >= c->first_ss : pn->sy_index >= c->first_sy))
			return true;
	}
	return false;
}

/* What a ready node reads that may need a sync: the highest (ss) and (sy)
 * indices among its producers (all scheduled, as it is ready), seen
 * through splits and collects. */
static void sync_srcs(struct sched_ctx *c, struct ir3_instruction *i, int *ss, int *sy)
{
	for (unsigned k = 0; k < i->nsrc; k++) {
		struct ir3_register *d = i->srcs[k]->def;
		if (!d)
			continue;
		struct ir3_instruction *p = d->instr;
		if (p->opc == OPC_META_SPLIT || p->opc == OPC_META_COLLECT) {
			sync_srcs(c, p, ss, sy);
			continue;
		}
		bool is_ss = ir3_is_ss_producer(p), is_sy = ir3_is_sy_producer(p);
		if (!is_ss && !is_sy)
			continue;
		struct sched_node *pn = p->block == c->block ? p->data : NULL;
		int idx = p->block != c->block ? INT_MAX : pn ? (int)(is_ss ? pn->ss_index : pn->sy_index) : -1;
		if (is_ss && idx > *ss)
			*ss = idx;
		if (is_sy && idx > *sy)
			*sy = idx;
	}
}

static bool should_defer(struct sched_ctx *c, struct sched_node *n)
{
	if (!n->sync_valid) {
		n->ss_src = n->sy_src = -1;
		sync_srcs(c, n->instr, &n->ss_src, &n->sy_src);
		n->sync_valid = true;
	}
	if (c->ss_delay && n->ss_src >= (int)c->first_ss)
		return true;
	if (c->sy_delay && c->texs && n->sy_src >= (int)c->first_sy)
		return true;
	if (c->sy_index - c->first_sy >= 8 && (n->props & SN_SY))
		return true;
	if (c->ss_index - c->first_ss >= 8 && (n->props & SN_SS))
		return true;
	return false;
}

static bool eligible(struct sched_ctx *c, struct sched_node *n)
{
	struct ir3_instruction *i = n->instr;
	if ((n->props & SN_ADDR) && c->addr && c->uses[c->addr->name])
		return false;
	if ((n->props & SN_REL) && i->address->dsts[0] != c->addr && node_of(i->address) &&
	    node_of(i->address)->scheduled)
		return false;
	if ((n->props & SN_PRED) && c->live_preds >= c->t->num_predicates)
		return false;
	if (c->kills && (n->props & SN_TEXMEM) && !n->kill_path)
		return false;
	if ((n->props & SN_KILL) && c->inputs)
		return false;
	return true;
}

static bool is_ready(struct sched_ctx *c, struct sched_node *n)
{
	return n->earliest <= c->ip;
}

/* Whether a reader of a value still waits: later in this block, or in a
 * later block (earlier blocks are scheduled). */
static bool use_pending(struct sched_ctx *c, const struct ir3_instruction *u)
{
	if (u->block == c->block)
		return u->data && !node_of(u)->scheduled;
	return u->block->index > c->block->index;
}

/* Mesa's nearest_use: the original position of the first reader still to
 * come; halved for inputs, which we want early. */
static unsigned nearest_use(struct sched_ctx *c, struct sched_node *n)
{
	unsigned nearest = ~0u;
	struct ir3_instruction *i = n->instr;
	for (unsigned k = 0; k < i->ndst; k++) {
		unsigned name = i->dsts[k]->name;
		if (name >= c->use_names)
			continue;	/* a clone made by rematerialize() */
		for (unsigned u = c->use_start[name]; u < c->use_start[name + 1]; u++)
			if (use_pending(c, c->use_list[u]) && c->use_list[u]->ip < nearest)
				nearest = c->use_list[u]->ip;
	}
	if (ir3_is_input(i))
		nearest /= 2;
	return nearest;
}

/* Mesa's choose_instr_dec: CSR, pressure-freeing or neutral only. */
static struct sched_node *choose_dec(struct sched_ctx *c, bool defer)
{
	struct sched_node *best = NULL;
	int best_rank = -1;
	for (size_t k = 0; k < c->ready.len; k++) {
		struct sched_node *n = c->ready.data[k];
		if (!n->ok || n->effect > 0 || (defer && n->defer))
			continue;
		int rank = (n->effect < 0 ? 2 : 0) + is_ready(c, n);
		if (!best || rank > best_rank ||
		    (rank == best_rank && n->max_delay > best->max_delay)) {
			best = n;
			best_rank = rank;
		}
	}
	return best;
}

/* Mesa's choose_instr_inc: the least bad pressure-increasing choice. */
static struct sched_node *choose_inc(struct sched_ctx *c, bool defer, bool avoid_output)
{
	struct sched_node *best = NULL;
	int best_rank = -1;
	unsigned best_dist = 0;
	for (size_t k = 0; k < c->ready.len; k++) {
		struct sched_node *n = c->ready.data[k];
		if (!n->ok || (defer && n->defer) || (avoid_output && n->output))
			continue;
		int rank = is_ready(c, n);
		if (!n->dist_valid) {
			n->dist = nearest_use(c, n);
			n->dist_valid = true;
		}
		unsigned dist = n->dist;
		if (!best || rank > best_rank || (rank == best_rank && dist < best_dist)) {
			best = n;
			best_rank = rank;
			best_dist = dist;
		}
	}
	return best;
}

/* The cascade of the header comment (Mesa's choose_instr); NULL when
 * nothing is eligible. */
static struct sched_node *choose(struct sched_ctx *c)
{
	struct sched_node *best = NULL;
	for (size_t k = 0; k < c->ready.len; k++) {
		struct sched_node *n = c->ready.data[k];
		n->ok = eligible(c, n);
		if (!n->ok)
			continue;
		if (!n->effect_valid) {
			n->effect = live_effect(c, n);
			n->effect_valid = true;
		}
		n->defer = should_defer(c, n);
		if ((n->props & SN_PRIO) && (!best || n->max_delay > best->max_delay))
			best = n;
	}
	if (best)
		return best;
	if ((best = choose_dec(c, true)) || (best = choose_inc(c, true, true)) ||
	    (best = choose_dec(c, false)) || (best = choose_inc(c, false, true)))
		return best;
	return choose_inc(c, false, false);
}

static void rebuild_ready(struct sched_ctx *c)
{
	c->ready.len = 0;
	for (size_t k = 0; k < c->nodes.len; k++)
		if (!c->nodes.data[k]->scheduled && !c->nodes.data[k]->npreds)
			array_push(&c->ready, c->nodes.data[k]);
}

/* ------------------------------------------------------------------ */
/* a0/p0 deadlocks: clone the current value's writer for its remaining users */

static void rematerialize(struct sched_ctx *c, struct ir3_register *value)
{
	struct ir3_instruction *orig = value->instr;
	/* like the unscheduled instructions, the clone is in no list yet */
	struct ir3_instruction *clone = ir3_instr_clone(orig);
	struct sched_node *cn = new_node(c, clone);
	struct ir3_register *nv = clone->dsts[0];
	if (nv->name >= c->nuses)
		BUG("too many rematerialised values in block b%u", c->block->index);

	for (unsigned k = 0; k < clone->nsrc; k++) {
		struct ir3_register *d = clone->srcs[k]->def;
		if (d) {
			use(c, d->name);
			if (in_block(c, d->instr) && !node_of(d->instr)->scheduled)
				add_edge(node_of(d->instr), cn, ir3_delayslots(c->t, d->instr, clone, k, false));
		}
	}
	for (size_t k = 0; k < c->nodes.len; k++) {
		struct sched_node *u = c->nodes.data[k];
		struct ir3_instruction *i = u->instr;
		if (u->scheduled || u == cn)
			continue;
		bool moved = false;
		if (i->address == orig) {
			i->address = clone;
			moved = true;
		}
		for (unsigned s = 0; s < i->nsrc; s++)
			if (i->srcs[s]->def == value) {
				i->srcs[s]->def = nv;
				moved = true;
			}
		if (moved)
			add_edge(cn, u, ir3_delayslots(c->t, clone, i, 0, false));
	}
	c->uses[nv->name] = c->uses[value->name];
	array_push(&c->touched, nv->name);
	c->uses[value->name] = 0;
	if (value->flags & IR3_REG_PREDICATE)
		c->live_preds--;
	if (c->addr == value)
		c->addr = NULL;
	cn->max_delay = node_of(orig)->max_delay;
	for (size_t k = 0; k < c->nodes.len; k++)
		c->nodes.data[k]->effect_valid = c->nodes.data[k]->sync_valid =
			c->nodes.data[k]->dist_valid = false;
}

static bool break_deadlock(struct sched_ctx *c)
{
	for (size_t k = 0; k < c->nodes.len; k++) {
		struct sched_node *n = c->nodes.data[k];
		if (n->scheduled || n->npreds)
			continue;
		struct ir3_instruction *i = n->instr;
		if (ir3_writes_addr(i) && c->addr && c->uses[c->addr->name]) {
			rematerialize(c, c->addr);
			return true;
		}
		if (ir3_writes_pred(i)) {
			/* the oldest live predicate value */
			for (size_t m = 0; m < c->nodes.len; m++) {
				struct ir3_instruction *w = c->nodes.data[m]->instr;
				if (c->nodes.data[m]->scheduled && ir3_writes_pred(w) &&
				    c->uses[w->dsts[0]->name]) {
					rematerialize(c, w->dsts[0]);
					return true;
				}
			}
		}
	}
	/* tex/mem waiting for kills that are themselves blocked: let them go */
	if (c->kills) {
		c->kills = 0;
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */

/* `d` has one reader left: that reader's live effect changes. */
static void invalidate_readers(struct sched_ctx *c, struct ir3_register *d)
{
	if (d->name >= c->use_names) {
		for (size_t k = 0; k < c->nodes.len; k++)
			c->nodes.data[k]->effect_valid = false;
		return;
	}
	for (unsigned u = c->use_start[d->name]; u < c->use_start[d->name + 1]; u++) {
		struct ir3_instruction *r = c->use_list[u];
		if (r->block == c->block && r->data)
			node_of(r)->effect_valid = false;
	}
}

/* Cycles an instruction costs the soft (ss)/(sy) delays (Mesa's
 * cycle_count: a collect costs the movs of its immediates and consts). */
static unsigned cycle_count(const struct ir3_instruction *i)
{
	if (i->opc == OPC_META_COLLECT) {
		unsigned n = 0;
		for (unsigned k = 0; k < i->nsrc; k++)
			n += (i->srcs[k]->flags & (IR3_REG_IMMED | IR3_REG_CONST)) != 0;
		return n;
	}
	return ir3_is_meta(i) ? 0 : 1;
}

static void update_sync(struct sched_ctx *c, struct sched_node *n)
{
	struct ir3_instruction *i = n->instr;
	unsigned cycles = cycle_count(i);
	if (ir3_is_ss_producer(i)) {
		c->ss_delay = ir3_soft_ss_delay(i);
		n->ss_index = c->ss_index++;
	} else if (!ir3_is_meta(i) && reads_outstanding(c, i, true)) {
		c->ss_delay = 0;
		c->first_ss = c->ss_index;
	} else {
		c->ss_delay -= c->ss_delay < cycles ? c->ss_delay : cycles;
	}
	if (ir3_is_sy_producer(i)) {
		c->sy_delay = ir3_soft_sy_delay(i, c->ir->stage);
		c->texs--;
		n->sy_index = c->sy_index++;
	} else if (!ir3_is_meta(i) && reads_outstanding(c, i, false)) {
		c->sy_delay = 0;
		c->first_sy = c->sy_index;
	} else {
		c->sy_delay -= c->sy_delay < cycles ? c->sy_delay : cycles;
	}
}

static void schedule(struct sched_ctx *c, struct sched_node *n)
{
	struct ir3_instruction *i = n->instr;

	n->scheduled = true;
	ir3_instr_append(c->block, i);
	if (n->collect)
		for (unsigned k = 0; k < n->collect->nsrc; k++) {
			struct ir3_register *d = n->collect->srcs[k]->def;
			if (d && in_block(c, d->instr))
				node_of(d->instr)->partially_live = true,
				node_of(d->instr)->effect_valid = false;
		}

	/* nops up to `earliest`, then the cycles of an ALU or flow instruction
	 * (Mesa's counts_for_delay) */
	unsigned cycles = ir3_is_alu(i) || ir3_is_flow(i) ? 1 + i->repeat : 0;
	c->ip = (n->earliest > c->ip ? n->earliest : c->ip) + cycles;
	update_sync(c, n);
	if (i->opc == OPC_KILL || i->opc == OPC_DEMOTE)
		c->kills--;
	if (ir3_is_input(i))
		c->inputs--;

	for (unsigned k = 0; k < i->nsrc; k++) {
		struct ir3_register *d = i->srcs[k]->def;
		if (!d || !c->uses[d->name])
			continue;
		if (--c->uses[d->name] == 1)
			invalidate_readers(c, d);
		else if (!c->uses[d->name] && (d->flags & IR3_REG_PREDICATE) &&
			 d->instr->block == c->block)
			c->live_preds--;
	}
	if (i->address && c->uses[i->address->dsts[0]->name])
		c->uses[i->address->dsts[0]->name]--;
	if (ir3_writes_addr(i))
		c->addr = i->dsts[0];
	if (ir3_writes_pred(i) && c->uses[i->dsts[0]->name])
		c->live_preds++;

	/* the ready list keeps its order, as Mesa's DAG heads (a list: ties go
	 * to the node that became ready first) */
	for (size_t k = 0; k < c->ready.len; k++)
		if (c->ready.data[k] == n) {
			memmove(&c->ready.data[k], &c->ready.data[k + 1],
				(c->ready.len - k - 1) * sizeof(*c->ready.data));
			c->ready.len--;
			break;
		}
	for (size_t e = 0; e < n->succs.len; e++) {
		struct sched_node *s = n->succs.data[e].to;
		unsigned ready = c->ip + n->succs.data[e].delay;
		if (ready > s->earliest)
			s->earliest = ready;
		if (--s->npreds == 0)
			array_push(&c->ready, s);
	}
}

static void sched_block(struct sched_ctx *c, struct ir3_block *b)
{
	c->block = b;
	c->ip = 0;
	c->ss_delay = c->sy_delay = 0;
	c->ss_index = c->sy_index = c->first_ss = c->first_sy = 0;
	c->kills = c->texs = c->inputs = 0;
	c->addr = NULL;
	c->live_preds = 0;
	for (size_t k = 0; k < c->touched.len; k++)
		c->uses[c->touched.data[k]] = 0;
	c->touched.len = 0;
	if (c->ir->ndefs + 64 > c->nuses) {
		c->nuses = 2 * c->ir->ndefs + 64;
		c->uses = arena_array(c->a, unsigned, c->nuses);
	}
	count_uses(c);
	build_dag(c);

	/* phis, then inputs, stay in front (Mesa's sched_block schedules every
	 * meta:input before the DAG): move the rest out and append them as
	 * chosen */
	for (struct ir3_instruction *i = b->first, *next; i; i = next) {
		next = i->next;
		if (!stays_first(i))
			ir3_instr_remove(i);
	}

	size_t done = 0;
	rebuild_ready(c);
	while (done < c->nodes.len) {
		struct sched_node *n = choose(c);
		if (!n) {
			if (!break_deadlock(c))
				BUG("scheduler deadlock in block b%u", b->index);
			rebuild_ready(c);
			continue;
		}
		schedule(c, n);
		done++;
	}
	for (size_t k = 0; k < c->nodes.len; k++) {
		array_free(&c->nodes.data[k]->succs);
		c->nodes.data[k]->instr->data = NULL;
	}
}

/* Number every instruction in program order (`ip`, Mesa's
 * ir3_count_instructions_sched) and list every value's readers. */
static void find_uses(struct sched_ctx *c)
{
	unsigned ip = 0, n = c->ir->ndefs;
	c->use_names = n;
	c->use_start = arena_array(c->a, unsigned, n + 2);
	memset(c->use_start, 0, sizeof(unsigned) * (n + 2));
	foreach_block(b, c->ir)
		foreach_instr(i, b) {
			i->ip = ip++;
			for (unsigned k = 0; k < i->nsrc; k++)
				if (i->srcs[k]->def && i->srcs[k]->def->name < n)
					c->use_start[i->srcs[k]->def->name + 2]++;
			if (i->address)
				c->use_start[i->address->dsts[0]->name + 2]++;
		}
	for (unsigned k = 2; k < n + 2; k++)
		c->use_start[k] += c->use_start[k - 1];
	c->use_list = arena_array(c->a, struct ir3_instruction *, c->use_start[n + 1] + 1);
	/* use_start[name + 1] is the fill position of `name` while filling */
	foreach_block(b, c->ir)
		foreach_instr(i, b) {
			for (unsigned k = 0; k < i->nsrc; k++)
				if (i->srcs[k]->def && i->srcs[k]->def->name < n)
					c->use_list[c->use_start[i->srcs[k]->def->name + 1]++] = i;
			if (i->address)
				c->use_list[c->use_start[i->address->dsts[0]->name + 1]++] = i;
		}
}

bool ir3_sched(struct ir3 *ir)
{
	struct arena a = ARENA_INIT;
	struct sched_ctx c = { .ir = ir, .t = ir->target, .a = &a };
	c.live = ir3_calc_liveness(ir, &a);
	ir3_index_blocks(ir);
	find_uses(&c);
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = NULL;
	foreach_block(b, ir)
		sched_block(&c, b);
	array_free(&c.nodes);
	array_free(&c.ready);
	array_free(&c.touched);
	arena_release(&a);
	return true;
}
