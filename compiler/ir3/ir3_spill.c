/*
 * Spilling before register allocation (targets.md §1.8; STYLE.md practice 8:
 * spill first, then assign): Braun and Hack, "Register Spilling and
 * Live-Range Splitting for SSA-Form Programs", the way Mesa's ir3_spill.c
 * does it.  ir3_ra() calls it when the live values exceed the whole file
 * (48 vec4, or what a compute shader with a barrier may use; never to gain
 * occupancy), on GPUs with private memory (a5xx+).
 *
 * Policy.  The blocks are walked in program order keeping the values in
 * registers at or under the limit.  When an instruction needs more room
 * (its sources, then its destinations), values leave the registers:
 * rematerialisable ones first (a mov of an immediate or a const is emitted
 * again where needed, never stored unless its merge set needs the slot),
 * then the one read farthest ahead (next-use distance in cycles, 100000
 * more across an edge into a loop, as Mesa's code does).  A value is stored once
 * per block walk, to its slot: one per merge set (a vector and the
 * components split from it share it), otherwise one per value.  A source
 * not in a register is reloaded just before its reader.
 *
 * Values are counted as RA counts them: a value inside a live value of its
 * merge set (a component split from a vector, a collect's source) costs
 * nothing; its "parent" holds it, and leaves the registers with it.
 *
 * At a block entry: after a branch, what the branching block had in
 * registers; at a join, what the predecessors agree on, then what was in
 * registers in some of them while room remains (others are stored at the
 * end of the predecessors that have them, those that stay are reloaded at
 * the end of those that do not); at a loop header, the same from the entry,
 * and each back edge then stores and reloads at its end to match.  Reloads
 * are new SSA values: phis join them at entries (trivial ones are removed
 * afterwards), and phi copies are rebuilt.  Critical edges are split first.
 *
 *	%7 = mad.f %1, %2, %3			spill %base, %4, 1, off=8
 *						%7 = mad.f %1, %2, %3
 *	…					%9 = reload %base, 8, 1
 *	%8 = add.f %4, %7			%8 = add.f %9, %7
 *
 * The base register is a mov of 0 at the start, counted against the limit
 * everywhere; the spills and reloads are meta instructions until
 * ir3_lower_spill.c makes them stp/ldp after allocation.  Each reload,
 * rematerialised mov and phi joining them names the value it copies
 * (`spill_of`), so the register verifier follows values through memory.
 */
#include "compiler/ir3/ir3_ra.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/hash.h"

#define NO_USE UINT_MAX
#define LOOP_EXIT_DISTANCE 100000	/* farther than any path through a loop */

struct sp_val {
	struct ir3_register *def;	/* the value (a pcopy temporary: a stand-in) */
	struct ir3_register *cur;	/* what holds it now: an SSA value, or an
					   immediate/const source of a phi copy */
	struct ir3_register *ident;	/* what its slot holds (spill_of) */
	struct sp_val *parent;		/* the live value of its merge set containing it */
	unsigned next_use, seq, idx;
	bool live, stored, needs_reload, cant_spill, remat;
};

struct sp_block {
	struct u64map next_start, next_end;	/* name → next read, from the start / end */
	struct u64map remap;			/* name → what holds it at the end (pointer) */
	bitset_word *live_out;			/* back edge: what the header wants */
	unsigned cycles, loop_depth;
	bool visited;
};

struct sp_ctx {
	struct ir3 *ir;
	struct arena *a;
	struct ir3_liveness *live;
	bool merged;
	struct ir3_pressure limit, cur;
	ARRAY(struct sp_val *) vals;		/* by name; pcopy temporaries after */
	ARRAY(struct sp_val *) in_regs;		/* the live values */
	struct sp_block *blocks;
	struct ir3_register *base;
	struct u64map slots;			/* name → slot of a value without a set */
	unsigned ndefs;				/* names before spilling */
	unsigned seq;
};

/* ------------------------------------------------------------------ */
/* small helpers */

static bool is_imm(const struct ir3_register *r)
{
	return r->flags & (IR3_REG_IMMED | IR3_REG_CONST);
}

static bool is_new(struct sp_ctx *c, const struct ir3_instruction *i)
{
	if (i->opc == OPC_META_SPILL)
		return true;
	return i->ndst && (i->dsts[0]->flags & IR3_REG_SSA) && i->dsts[0]->name >= c->ndefs;
}

static struct sp_val *val(struct sp_ctx *c, const struct ir3_register *def)
{
	if (def->name >= c->ndefs)
		BUG("spilling: %%%u is not a value of the program", def->name);
	return c->vals.data[def->name];
}

static struct ir3_builder before(struct ir3_instruction *i)
{
	return (struct ir3_builder){ .block = i->block, .before = i };
}

static struct ir3_builder at_end(struct ir3_block *b)
{
	return (struct ir3_builder){ .block = b, .before = ir3_block_terminator(b) };
}

static struct ir3_builder after_phis(struct ir3_block *b)
{
	struct ir3_instruction *i = b->first;
	while (i && i->opc == OPC_META_PHI)
		i = i->next;
	return (struct ir3_builder){ .block = b, .before = i };
}

/* Mesa's can_rematerialize: a mov of an immediate or a (direct) const. */
static bool can_remat(const struct ir3_register *d)
{
	const struct ir3_instruction *i = d->instr;
	return i->opc == OPC_MOV && i->nsrc == 1 && is_imm(i->srcs[0]) &&
	       !(i->srcs[0]->flags & IR3_REG_RELATIV) && !i->repeat;
}

static void copy_place(struct ir3_register *to, const struct ir3_register *from, unsigned comp)
{
	unsigned units = comp * ir3_reg_elem_size(from);
	to->merge_set = from->merge_set;
	to->merge_set_offset = from->merge_set_offset + units;
	to->interval_start = from->interval_start + units;
	to->interval_end = to->interval_start + ir3_reg_size(to);
}

/* ------------------------------------------------------------------ */
/* the values in registers (Mesa's interval forest, flattened: a value
 * inside another live value of its merge set points at the outermost) */

static bool contains(const struct ir3_register *a, const struct ir3_register *b)
{
	return a->merge_set && a->merge_set == b->merge_set &&
	       a->merge_set_offset <= b->merge_set_offset &&
	       b->merge_set_offset + ir3_reg_size(b) <= a->merge_set_offset + ir3_reg_size(a);
}

static bool is_half(const struct sp_val *v)
{
	return v->def->flags & IR3_REG_HALF;
}

static void count(struct sp_ctx *c, struct sp_val *v, int sign)
{
	int size = sign * (int)ir3_reg_size(v->def);
	if (is_half(v))
		c->cur.half = (unsigned)((int)c->cur.half + size);
	if (!is_half(v) || c->merged)
		c->cur.full = (unsigned)((int)c->cur.full + size);
}

#define foreach_member(m, c, v) \
	for (unsigned m##_k = 0; (v)->def->merge_set && m##_k < (v)->def->merge_set->nregs; m##_k++) \
		for (struct sp_val *m = (v)->def->merge_set->regs[m##_k]->name < (c)->ndefs ? \
						val((c), (v)->def->merge_set->regs[m##_k]) : NULL; \
		     m; m = NULL) \
			if (m->live && m != (v) && m->def == (v)->def->merge_set->regs[m##_k])

static void enter(struct sp_ctx *c, struct sp_val *v)
{
	if (v->live)
		BUG("spilling: %%%u entered the registers twice", v->def->name);
	v->live = true;
	v->seq = c->seq++;
	v->idx = (unsigned)c->in_regs.len;
	array_push(&c->in_regs, v);
}

static void leave(struct sp_ctx *c, struct sp_val *v)
{
	struct sp_val *last = array_pop(&c->in_regs);
	if (last != v) {
		c->in_regs.data[v->idx] = last;
		last->idx = v->idx;
	}
	v->live = false;
	v->parent = NULL;
}

/* Mesa's ir3_reg_interval_insert. */
static void insert(struct sp_ctx *c, struct sp_val *v)
{
	enter(c, v);
	v->parent = NULL;
	foreach_member(m, c, v) {
		struct sp_val *top = m->parent ? m->parent : m;
		if (contains(top->def, v->def)) {
			v->parent = top;
			return;
		}
	}
	count(c, v, 1);
	foreach_member(m, c, v) {
		if (!m->parent && contains(v->def, m->def)) {
			m->parent = v;
			count(c, m, -1);
		}
	}
	foreach_member(m, c, v) {
		if (m->parent && m->parent != v && m->parent->parent == v)
			m->parent = v;
	}
}

static int by_size_desc(const void *a, const void *b)
{
	const struct sp_val *x = *(struct sp_val *const *)a, *y = *(struct sp_val *const *)b;
	if (ir3_reg_size(x->def) != ir3_reg_size(y->def))
		return (int)ir3_reg_size(y->def) - (int)ir3_reg_size(x->def);
	return (int)x->def->name - (int)y->def->name;
}

/* The value dies: what it held becomes top-level (Mesa's interval_readd). */
static void remove_val(struct sp_ctx *c, struct sp_val *v)
{
	if (v->parent) {
		leave(c, v);
		return;
	}
	leave(c, v);
	count(c, v, -1);
	ARRAY(struct sp_val *) kids = ARRAY_INIT;
	foreach_member(m, c, v)
		if (m->parent == v)
			array_push(&kids, m);
	if (kids.len > 1)
		qsort(kids.data, kids.len, sizeof(kids.data[0]), by_size_desc);
	for (size_t k = 0; k < kids.len; k++) {
		struct sp_val *kid = kids.data[k];
		kid->parent = NULL;
		for (size_t j = 0; j < k; j++)
			if (!kids.data[j]->parent && contains(kids.data[j]->def, kid->def)) {
				kid->parent = kids.data[j];
				break;
			}
		if (!kid->parent)
			count(c, kid, 1);
	}
	array_free(&kids);
}

/* The value and everything inside it leave the registers (spilled). */
static void remove_all(struct sp_ctx *c, struct sp_val *v)
{
	if (v->parent)
		BUG("spilling: %%%u is spilled inside another value", v->def->name);
	foreach_member(m, c, v)
		if (m->parent == v)
			leave(c, m);
	leave(c, v);
	count(c, v, -1);
}

/* ------------------------------------------------------------------ */
/* slots, spills, reloads */

static unsigned align_to(unsigned x, unsigned a)
{
	return (x + a - 1) / a * a;
}

/* Mesa's get_spill_slot: bytes, 2 per half-register unit. */
static unsigned slot_of(struct sp_ctx *c, const struct ir3_register *d)
{
	struct ir3_merge_set *set = d->merge_set;
	if (set) {
		if (set->spill_slot == ~0u) {
			set->spill_slot = align_to(c->ir->pvtmem_size, set->alignment * 2);
			c->ir->pvtmem_size = set->spill_slot + set->size * 2;
		}
		return set->spill_slot + d->merge_set_offset * 2;
	}
	uint64_t slot;
	if (!u64map_get(&c->slots, d->name, &slot)) {
		slot = align_to(c->ir->pvtmem_size, ir3_reg_elem_size(d) * 2);
		c->ir->pvtmem_size = (unsigned)slot + ir3_reg_size(d) * 2;
		u64map_set(&c->slots, d->name, slot);
	}
	return (unsigned)slot;
}

static enum ir3_type mem_type(const struct ir3_register *r)
{
	return (r->flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32;
}

/* A phi copy's immediate or const source in a register: a mov. */
static struct ir3_register *materialize(struct ir3_builder *b, const struct ir3_register *imm)
{
	struct ir3_instruction *mov = ir3_b_instr(b, OPC_MOV, 1, 1);
	mov->type = mov->dst_type = mem_type(imm);
	ir3_dst_create(mov, imm->flags & IR3_REG_HALF, 1);
	struct ir3_register *s = ir3_reg_clone(b->block->ir, imm);
	s->flags &= IR3_REG_IMMED | IR3_REG_CONST | IR3_REG_HALF;
	s->def = NULL;
	s->pred = NULL;
	ir3_add_src(mov, s);
	return mov->dsts[0];
}

/* Store `what` (what holds the value) to `slot`; returns the SSA value
 * stored.  `ident`: the value whose copy it is, NULL for itself. */
static struct ir3_register *spill(struct sp_ctx *c, struct ir3_register *what,
				  struct ir3_register *ident, unsigned slot, struct ir3_builder b)
{
	struct ir3_register *reg = is_imm(what) ? materialize(&b, what) : what;
	struct ir3_instruction *st = ir3_b_instr(&b, OPC_META_SPILL, 0, 3);
	st->type = mem_type(reg);
	st->off = (int)slot;
	st->spill_of = ident ? ident : reg;
	ir3_src_ssa(st, c->base, 0);
	ir3_src_ssa(st, reg, 0);
	ir3_src_imm(st, ir3_reg_elems(reg), 0);
	return reg;
}

/* A reload of `v` (the copy of `ident`) from the slot of `owner`. */
static struct ir3_register *reload(struct sp_ctx *c, const struct ir3_register *owner,
				   struct ir3_register *ident, struct ir3_builder b)
{
	unsigned slot = slot_of(c, owner);
	struct ir3_instruction *ld = ir3_b_instr(&b, OPC_META_RELOAD, 1, 3);
	ld->type = mem_type(owner);
	ld->spill_of = ident;
	/* may not take the base register: a reload in pieces reads it to the end */
	struct ir3_register *d = ir3_dst_create(ld, 0, 1);
	ir3_reg_set_shape(d, owner);
	d->flags |= IR3_REG_EARLY_CLOBBER;
	copy_place(d, owner, 0);
	ir3_src_ssa(ld, c->base, 0);
	ir3_src_imm(ld, slot, 0);
	ir3_src_imm(ld, ir3_reg_elems(owner), 0);
	return d;
}

static struct ir3_register *rematerialize(const struct ir3_register *def, struct ir3_builder b)
{
	struct ir3_instruction *mov = ir3_instr_clone(def->instr);
	mov->spill_of = (struct ir3_register *)def;
	if (b.before)
		ir3_instr_insert_before(b.before, mov);
	else
		ir3_instr_append(b.block, mov);
	copy_place(mov->dsts[0], def, 0);
	return mov->dsts[0];
}

/* Components [comp, comp + n) of `vec` as one value: splits (and a collect). */
static struct ir3_register *extract(struct ir3_register *vec, unsigned comp, unsigned n,
				    struct ir3_builder b)
{
	if (comp == 0 && n == ir3_reg_elems(vec))
		return vec;
	struct ir3_register *parts[16];
	for (unsigned k = 0; k < n; k++) {
		parts[k] = ir3_b_split(&b, vec, comp + k);
		copy_place(parts[k], vec, comp + k);
	}
	if (n == 1)
		return parts[0];
	struct ir3_register *d = ir3_b_collect(&b, n, parts);
	copy_place(d, vec, comp);
	return d;
}

/* Where `kid` starts inside `top`, in components. */
static unsigned comp_in(const struct ir3_register *top, const struct ir3_register *kid)
{
	return (kid->merge_set_offset - top->merge_set_offset) / ir3_reg_elem_size(kid);
}

/* `v` is now held by `def`: so are the values inside it. */
static void rewrite_cur(struct sp_ctx *c, struct sp_val *v, struct ir3_register *def,
			struct ir3_builder b)
{
	v->cur = def;
	v->needs_reload = false;
	foreach_member(m, c, v) {
		if (m->parent != v)
			continue;
		m->cur = extract(def, comp_in(v->def, m->def), ir3_reg_elems(m->def), b);
		m->needs_reload = false;
	}
}

static void reload_def(struct sp_ctx *c, struct sp_val *v, struct ir3_builder b)
{
	if (v->parent && !v->parent->needs_reload) {
		v->cur = extract(v->parent->cur, comp_in(v->parent->def, v->def),
				 ir3_reg_elems(v->def), b);
		v->needs_reload = false;
		return;
	}
	struct ir3_register *d = v->remat ? rematerialize(v->def, b) : reload(c, v->def, v->ident, b);
	rewrite_cur(c, v, d, b);
}

/* Store `v` (top-level) before it leaves the registers, unless it is
 * rematerialised and no merge set needs its slot. */
static void spill_val(struct sp_ctx *c, struct sp_val *v, struct ir3_builder b)
{
	if (v->remat && !v->def->merge_set)
		return;
	struct ir3_register *r = spill(c, v->cur, v->ident, slot_of(c, v->def), b);
	if (!v->ident)
		v->ident = r;
}

/* ------------------------------------------------------------------ */
/* keeping under the limit (Mesa's limit()) */

/* rematerialisable first, then the farthest next use, then the oldest */
static int spill_order(const void *a, const void *b)
{
	const struct sp_val *x = *(struct sp_val *const *)a, *y = *(struct sp_val *const *)b;
	if (x->remat != y->remat)
		return x->remat ? -1 : 1;
	if (x->next_use != y->next_use)
		return x->next_use > y->next_use ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The candidates to leave the registers, in order; the caller frees. */
static struct sp_val **candidates(struct sp_ctx *c, bool half, size_t *n)
{
	struct sp_val **list = xmalloc(sizeof(*list) * (c->in_regs.len + 1));
	*n = 0;
	for (size_t k = 0; k < c->in_regs.len; k++) {
		struct sp_val *v = c->in_regs.data[k];
		if (!v->parent && (half ? is_half(v) : (!is_half(v) || c->merged)))
			list[(*n)++] = v;
	}
	qsort(list, *n, sizeof(*list), spill_order);
	return list;
}

static void limit_file(struct sp_ctx *c, bool half, struct ir3_builder b)
{
	unsigned *cur = half ? &c->cur.half : &c->cur.full;
	unsigned lim = half ? c->limit.half : c->limit.full;
	if (*cur <= lim)
		return;
	size_t n;
	struct sp_val **list = candidates(c, half, &n);
	for (size_t k = 0; k < n && *cur > lim; k++) {
		struct sp_val *v = list[k];
		if (v->cant_spill)
			continue;
		if (!v->stored)
			spill_val(c, v, b);
		remove_all(c, v);
	}
	free(list);
	if (*cur > lim)
		BUG("spilling: %s pressure %u stays over %u", half ? "half" : "full", *cur, lim);
}

static void limit(struct sp_ctx *c, struct ir3_builder b)
{
	limit_file(c, true, b);
	limit_file(c, false, b);
}

/* ------------------------------------------------------------------ */
/* instructions */

static void init_val(struct sp_ctx *c, struct ir3_register *def)
{
	struct sp_val *v = val(c, def);
	if (v->live)
		BUG("spilling: %%%u defined while live", def->name);
	*v = (struct sp_val){ .def = def, .cur = def, .ident = def, .next_use = def->next_use,
			      .remat = can_remat(def) };
}

static void insert_dst(struct sp_ctx *c, struct ir3_register *d)
{
	struct sp_val *v = val(c, d);
	if (v->live)
		return;
	insert(c, v);
	v->cant_spill = true;
}

static struct sp_val *top(struct sp_val *v)
{
	return v->parent ? v->parent : v;
}

static void insert_src(struct sp_ctx *c, struct ir3_register *s)
{
	struct sp_val *v = val(c, s->def);
	if (!v->live) {
		insert(c, v);
		v->needs_reload = true;
		v->stored = true;
	}
	top(v)->cant_spill = true;
}

static void reload_src(struct sp_ctx *c, struct ir3_register *s, struct ir3_builder b)
{
	struct sp_val *v = val(c, s->def);
	if (v->needs_reload)
		reload_def(c, v, b);
	top(v)->cant_spill = false;
}

/* The next read moves on: the value's place in the order changes. */
static void update_next_use(struct sp_ctx *c, struct ir3_register *s)
{
	struct sp_val *v = val(c, s->def);
	v->next_use = s->next_use;
	v->seq = c->seq++;
}

static void set_src(struct ir3_register *s, struct ir3_register *what)
{
	if (is_imm(what)) {
		s->flags = (what->flags & (IR3_REG_IMMED | IR3_REG_CONST | IR3_REG_HALF));
		s->uim = what->uim;
		s->num = what->num;
		s->def = NULL;
		return;
	}
	s->def = what;
}

static bool has_kids(struct sp_ctx *c, struct sp_val *v)
{
	foreach_member(m, c, v)
		if (m->parent == v)
			return true;
	return false;
}

static void handle_instr(struct sp_ctx *c, struct ir3_instruction *i)
{
	struct ir3_builder b = before(i);
	for (unsigned n = 0; n < i->ndst; n++)
		if (ir3_ra_def(i->dsts[n]))
			init_val(c, i->dsts[n]);
	for (unsigned n = 0; n < i->nsrc; n++)
		if (ir3_ra_src(i->srcs[n]))
			insert_src(c, i->srcs[n]);
	/* an early-clobber destination may not share the sources' registers */
	for (unsigned n = 0; n < i->ndst; n++)
		if (ir3_ra_def(i->dsts[n]) && (i->dsts[n]->flags & IR3_REG_EARLY_CLOBBER))
			insert_dst(c, i->dsts[n]);
	limit(c, b);
	for (unsigned n = 0; n < i->nsrc; n++)
		if (ir3_ra_src(i->srcs[n])) {
			reload_src(c, i->srcs[n], b);
			update_next_use(c, i->srcs[n]);
		}
	/* dying sources make room first, unless they share their registers */
	for (unsigned n = 0; n < i->nsrc; n++) {
		struct ir3_register *s = i->srcs[n];
		if (!ir3_ra_src(s) || !(s->flags & IR3_REG_FIRST_KILL) ||
		    s->def->instr->opc == OPC_META_COLLECT)
			continue;
		struct sp_val *v = val(c, s->def);
		if (v->live && !v->parent && !has_kids(c, v))
			remove_val(c, v);
	}
	for (unsigned n = 0; n < i->ndst; n++)
		if (ir3_ra_def(i->dsts[n]))
			insert_dst(c, i->dsts[n]);
	/* A dying collect stays through the instruction: once reloads are
	 * merged into it again, RA cannot free it first (it has children), so
	 * storing it would make no room. */
	for (unsigned n = 0; n < i->nsrc; n++) {
		struct ir3_register *s = i->srcs[n];
		if (ir3_ra_src(s) && (s->flags & IR3_REG_FIRST_KILL) && val(c, s->def)->live &&
		    s->def->instr->opc == OPC_META_COLLECT)
			top(val(c, s->def))->cant_spill = true;
	}
	limit(c, b);
	for (unsigned n = 0; n < i->nsrc; n++) {
		struct ir3_register *s = i->srcs[n];
		if (ir3_ra_src(s) && (s->flags & IR3_REG_FIRST_KILL) && val(c, s->def)->live) {
			top(val(c, s->def))->cant_spill = false;
			remove_val(c, val(c, s->def));
		}
	}
	for (unsigned n = 0; n < i->nsrc; n++)
		if (ir3_ra_src(i->srcs[n]))
			set_src(i->srcs[n], val(c, i->srcs[n]->def)->cur);
	for (unsigned n = 0; n < i->ndst; n++) {
		struct ir3_register *d = i->dsts[n];
		if (!ir3_ra_def(d))
			continue;
		struct sp_val *v = val(c, d);
		v->cant_spill = false;
		if ((d->flags & IR3_REG_UNUSED) && v->live)
			remove_val(c, v);
	}
}

/* ------------------------------------------------------------------ */
/* phi copies (Mesa's handle_pcopy): as if each source went first to a
 * temporary, then each temporary to its destination, so that stores and
 * reloads never clobber a slot another entry still reads */

static struct sp_val *new_temp(struct sp_ctx *c, struct ir3_register *like)
{
	struct ir3_register *r = arena_new(c->a, struct ir3_register);
	*r = *like;
	r->name = (unsigned)c->vals.len;	/* ≥ ndefs: never an IR value */
	r->merge_set = NULL;
	struct sp_val *v = arena_new(c->a, struct sp_val);
	*v = (struct sp_val){ .def = r };
	array_push(&c->vals, v);
	return v;
}

static bool coalesced(const struct ir3_register *s, const struct ir3_register *d)
{
	return ir3_ra_src(s) && s->def->merge_set && s->def->merge_set == d->merge_set &&
	       s->def->merge_set_offset == d->merge_set_offset;
}

static bool last_read(const struct ir3_instruction *pc, unsigned n)
{
	if (!(pc->srcs[n]->flags & IR3_REG_KILL))
		return false;
	for (unsigned k = n + 1; k < pc->nsrc; k++)
		if (pc->srcs[k]->def == pc->srcs[n]->def)
			return false;
	return true;
}

/* Make `v` live as the copy of `what` (limit first: it is new room). */
static void copy_into(struct sp_ctx *c, struct sp_val *v, struct ir3_register *what,
		      struct ir3_builder b)
{
	v->cant_spill = true;
	insert(c, v);
	limit(c, b);
	v->cant_spill = false;
	v->cur = what;
	v->ident = is_imm(what) ? NULL : what;
}

static void handle_pcopy(struct sp_ctx *c, struct ir3_instruction *pc)
{
	struct ir3_builder b = before(pc);
	struct sp_val **temps = arena_array(c->a, struct sp_val *, pc->ndst + 1);
	for (unsigned n = 0; n < pc->ndst; n++)
		init_val(c, pc->dsts[n]);
	for (unsigned n = 0; n < pc->ndst; n++) {
		struct ir3_register *s = pc->srcs[n], *d = pc->dsts[n];
		if (coalesced(s, d)) {
			struct sp_val *sv = val(c, s->def), *dv = val(c, d);
			if (!sv->live)
				continue;	/* in the slot they share */
			update_next_use(c, s);
			struct ir3_register *what = sv->cur;
			struct ir3_register *ident = sv->ident;
			if (last_read(pc, n))
				remove_val(c, sv);
			copy_into(c, dv, what, b);
			dv->ident = ident;
		} else if (ir3_ra_src(s)) {
			struct sp_val *t = new_temp(c, d);
			t->next_use = s->next_use;
			insert_src(c, s);
			limit(c, b);
			reload_src(c, s, b);
			update_next_use(c, s);
			struct sp_val *sv = val(c, s->def);
			struct ir3_register *what = sv->cur;
			if (last_read(pc, n))
				remove_val(c, sv);
			copy_into(c, t, what, b);
			temps[n] = t;
		}
	}
	for (unsigned n = 0; n < pc->ndst; n++) {
		struct ir3_register *s = pc->srcs[n], *d = pc->dsts[n];
		if (coalesced(s, d))
			continue;
		struct sp_val *dv = val(c, d);
		if (!ir3_ra_src(s)) {
			copy_into(c, dv, s, b);
			continue;
		}
		struct sp_val *t = temps[n];
		if (!t->live) {
			insert(c, t);
			t->needs_reload = true;
			t->stored = true;
			t->cant_spill = true;
			limit(c, b);
			reload_def(c, t, b);
			t->cant_spill = false;
		}
		struct ir3_register *what = t->cur, *ident = t->ident;
		remove_val(c, t);
		insert(c, dv);
		dv->cur = what;
		dv->ident = ident ? ident : (is_imm(what) ? NULL : what);
	}
	pc->flags |= IR3_INSTR_MARK;	/* rebuilt after spilling */
}

/* ------------------------------------------------------------------ */
/* block entries and exits */

static struct sp_block *blk(struct sp_ctx *c, const struct ir3_block *b)
{
	return &c->blocks[b->index];
}

static bool is_phi_of(const struct ir3_register *d, const struct ir3_block *b)
{
	return d->instr->opc == OPC_META_PHI && d->instr->block == b;
}

/* The value `d` stands for at the end of `pred` (a phi: its source). */
static struct ir3_register *through_phi(struct ir3_register *d, struct ir3_block *b,
					struct ir3_block *pred)
{
	if (!is_phi_of(d, b))
		return d;
	struct ir3_register *s = ir3_phi_src(d->instr, pred);
	return s && s->def && ir3_ra_def(s->def) ? s->def : NULL;
}

/* What holds `d` (as seen from `b`) at the end of `pred`, or NULL. */
static struct ir3_register *read_live_in(struct sp_ctx *c, struct ir3_register *d,
					 struct ir3_block *b, struct ir3_block *pred)
{
	struct ir3_register *x = through_phi(d, b, pred);
	uint64_t p;
	if (!x || !u64map_get(&blk(c, pred)->remap, x->name, &p))
		return NULL;
	return (struct ir3_register *)(uintptr_t)p;
}

static bool all_preds_visited(struct sp_ctx *c, struct ir3_block *b)
{
	for (unsigned p = 0; p < b->npreds; p++)
		if (!blk(c, b->preds[p])->visited)
			return false;
	return true;
}

static bool in_all_preds(struct sp_ctx *c, struct sp_val *v, struct ir3_block *b)
{
	for (unsigned p = 0; p < b->npreds; p++)
		if (!read_live_in(c, v->def, b, b->preds[p]))
			return false;
	return true;
}

/* `v` enters `b` in memory: store it where a predecessor has it. */
static void spill_live_in(struct sp_ctx *c, struct sp_val *v, struct ir3_block *b)
{
	for (unsigned p = 0; p < b->npreds; p++) {
		struct ir3_block *pred = b->preds[p];
		if (!blk(c, pred)->visited)
			continue;
		struct ir3_register *x = read_live_in(c, v->def, b, pred);
		if (x)
			spill(c, x, through_phi(v->def, b, pred), slot_of(c, v->def), at_end(pred));
	}
}

static void spill_live_ins(struct sp_ctx *c, struct ir3_block *b)
{
	bool all = all_preds_visited(c, b);
	for (int half = 1; half >= 0; half--) {
		unsigned *cur = half ? &c->cur.half : &c->cur.full;
		unsigned lim = half ? c->limit.half : c->limit.full;
		if (*cur <= lim)
			continue;
		size_t n;
		struct sp_val **list = candidates(c, half, &n);
		for (size_t k = 0; k < n && *cur > lim; k++) {
			struct sp_val *v = list[k];
			if (all && in_all_preds(c, v, b))
				continue;
			if (!half || v->def->merge_set || !v->remat)
				spill_live_in(c, v, b);
			remove_all(c, v);
		}
		free(list);
		if (*cur > lim)
			BUG("spilling: %s pressure %u at the entry of b%u stays over %u",
			    half ? "half" : "full", *cur, b->index, lim);
	}
}

static void set_remap(struct sp_ctx *c, struct ir3_block *b, struct ir3_register *d,
		      struct ir3_register *what)
{
	u64map_set(&blk(c, b)->remap, d->name, (uint64_t)(uintptr_t)what);
}

/* `v` enters `b` in a register: reload it where a predecessor has it not. */
static void reload_live_in(struct sp_ctx *c, struct sp_val *v, struct ir3_block *b)
{
	for (unsigned p = 0; p < b->npreds; p++) {
		struct ir3_block *pred = b->preds[p];
		if (!blk(c, pred)->visited)
			continue;
		struct ir3_register *x = through_phi(v->def, b, pred);
		if (!x)
			continue;	/* an undefined phi source */
		if (read_live_in(c, v->def, b, pred))
			continue;
		struct ir3_register *r = v->remat ? rematerialize(v->def, at_end(pred))
						  : reload(c, v->def, x, at_end(pred));
		set_remap(c, pred, x, r);
	}
}

static void reload_live_ins(struct sp_ctx *c, struct ir3_block *b)
{
	for (size_t k = 0; k < c->in_regs.len; k++)
		reload_live_in(c, c->in_regs.data[k], b);
}

/* Each unvisited predecessor (a back edge) must end with what is live now. */
static void record_pred_live_outs(struct sp_ctx *c, struct ir3_block *b)
{
	for (unsigned p = 0; p < b->npreds; p++) {
		struct ir3_block *pred = b->preds[p];
		struct sp_block *pb = blk(c, pred);
		if (pb->visited)
			continue;
		pb->live_out = arena_array(c->a, bitset_word, BITSET_WORDS(c->ndefs) + 1);
		for (size_t k = 0; k < c->in_regs.len; k++) {
			struct ir3_register *x = through_phi(c->in_regs.data[k]->def, b, pred);
			if (x)
				bitset_set(pb->live_out, x->name);
		}
	}
}

static void rewrite_phi(struct sp_ctx *c, struct ir3_instruction *phi)
{
	struct ir3_register *d = phi->dsts[0];
	if (!ir3_ra_def(d))
		return;
	if (!val(c, d)->live) {
		phi->flags |= IR3_INSTR_MARK;	/* it lives in memory */
		return;
	}
	for (unsigned n = 0; n < phi->nsrc; n++) {
		struct ir3_register *s = phi->srcs[n];
		if (!blk(c, s->pred)->visited || !s->def)
			continue;
		uint64_t p;
		if (!u64map_get(&blk(c, s->pred)->remap, s->def->name, &p))
			BUG("spilling: phi source %%%u not in a register", s->def->name);
		set_src(s, (struct ir3_register *)(uintptr_t)p);
	}
}

static void add_live_in_phi(struct sp_ctx *c, struct sp_val *v, struct ir3_register *parent_cur,
			    struct sp_val *parent, struct ir3_block *b)
{
	bool needs_phi = false;
	struct ir3_register *same = NULL;
	for (unsigned p = 0; p < b->npreds && !needs_phi; p++) {
		struct ir3_block *pred = b->preds[p];
		uint64_t x;
		if (!blk(c, pred)->visited) {
			needs_phi = true;
		} else if (!u64map_get(&blk(c, pred)->remap, v->def->name, &x)) {
			BUG("spilling: live-in %%%u not in a register in b%u", v->def->name,
			    pred->index);
		} else {
			struct ir3_register *r = (struct ir3_register *)(uintptr_t)x;
			needs_phi = is_imm(r) || (same && same != r);
			same = r;
		}
	}
	if (!needs_phi) {
		v->cur = same;
		foreach_member(m, c, v)
			if (m->parent == v && bitset_test(c->live->live_in[b->index], m->def->name))
				add_live_in_phi(c, m, same, v, b);
		return;
	}
	if (parent_cur) {
		v->cur = extract(parent_cur, comp_in(parent->def, v->def), ir3_reg_elems(v->def),
				 after_phis(b));
		return;
	}
	struct ir3_register *d = ir3_b_phi(b, 0, 1);
	ir3_reg_set_shape(d, v->def);
	copy_place(d, v->def, 0);
	d->instr->spill_of = v->def;
	for (unsigned p = 0; p < b->npreds; p++) {
		struct ir3_block *pred = b->preds[p];
		ir3_phi_add_src(d, pred, v->def);
		uint64_t x;
		if (blk(c, pred)->visited && u64map_get(&blk(c, pred)->remap, v->def->name, &x))
			set_src(d->instr->srcs[p], (struct ir3_register *)(uintptr_t)x);
	}
	rewrite_cur(c, v, d, after_phis(b));
}

static void add_live_in_phis(struct sp_ctx *c, struct ir3_block *b)
{
	/* the list changes under extract(): take the top-level values first */
	size_t n = c->in_regs.len;
	struct sp_val **tops = xmalloc(sizeof(*tops) * (n + 1));
	size_t nt = 0;
	for (size_t k = 0; k < n; k++)
		if (!c->in_regs.data[k]->parent)
			tops[nt++] = c->in_regs.data[k];
	qsort(tops, nt, sizeof(*tops), by_size_desc);
	for (size_t k = 0; k < nt; k++) {
		struct sp_val *v = tops[k];
		if (bitset_test(c->live->live_in[b->index], v->def->name)) {
			add_live_in_phi(c, v, NULL, NULL, b);
			continue;
		}
		/* a phi: what lives inside it comes out of it */
		foreach_member(m, c, v)
			if (m->parent == v)
				m->cur = extract(v->cur, comp_in(v->def, m->def), ir3_reg_elems(m->def),
						 after_phis(b));
	}
	free(tops);
}

/* A branch target: exactly what the branching block had in registers. */
static void single_pred_live_ins(struct sp_ctx *c, struct ir3_block *b)
{
	struct ir3_block *pred = b->preds[0];
	BITSET_FOREACH(name, c->live->live_in[b->index], c->ndefs) {
		struct sp_val *v = c->vals.data[name];
		if (!v->live)
			continue;
		uint64_t x;
		if (u64map_get(&blk(c, pred)->remap, name, &x))
			v->cur = (struct ir3_register *)(uintptr_t)x;
		else
			remove_val(c, v);
	}
}

/* Store and drop the top-level values of one file the header does not want. */
static void drop_unwanted(struct sp_ctx *c, struct ir3_block *b, bool half)
{
	size_t n;
	struct sp_val **list = candidates(c, half, &n);
	for (size_t k = 0; k < n; k++) {
		struct sp_val *v = list[k];
		if (v->live && !v->parent && !bitset_test(blk(c, b)->live_out, v->def->name)) {
			if (v->def->merge_set || !v->remat)
				spill(c, v->cur, v->ident, slot_of(c, v->def), at_end(b));
			remove_all(c, v);
		}
	}
	free(list);
}

/* A back edge: end with what the loop header wants in registers. */
static void fix_back_edge(struct sp_ctx *c, struct ir3_block *b)
{
	struct sp_block *sb = blk(c, b);
	struct ir3_block *succ = b->succ[0];
	if (b->succ[1])
		BUG("spilling: back edge from b%u is a critical edge", b->index);
	drop_unwanted(c, b, false);
	if (!c->merged)
		drop_unwanted(c, b, true);
	BITSET_FOREACH(name, sb->live_out, c->ndefs) {
		struct sp_val *v = c->vals.data[name];
		if (v->live)
			continue;
		insert(c, v);
		reload_def(c, v, at_end(b));
	}
	foreach_instr(phi, succ) {
		if (phi->opc != OPC_META_PHI)
			break;
		struct ir3_register *s = ir3_phi_src(phi, b);
		if (s && s->def && s->def->name < c->ndefs && ir3_ra_def(s->def) &&
		    val(c, s->def)->live)
			set_src(s, val(c, s->def)->cur);
	}
}

static void record_live_outs(struct sp_ctx *c, struct ir3_block *b)
{
	for (size_t k = 0; k < c->in_regs.len; k++) {
		struct sp_val *v = c->in_regs.data[k];
		if (v->def->name < c->ndefs)
			set_remap(c, b, v->def, v->cur);
	}
}

static bool is_top(const struct ir3_instruction *i)
{
	return i->opc == OPC_META_PHI || i->opc == OPC_META_INPUT ||
	       i->opc == OPC_META_TEX_PREFETCH;
}

static void handle_block(struct sp_ctx *c, struct ir3_block *b)
{
	while (c->in_regs.len)
		leave(c, array_last(&c->in_regs));
	c->cur = (struct ir3_pressure){ 0 };

	BITSET_FOREACH(name, c->live->live_in[b->index], c->ndefs) {
		struct ir3_register *d = c->live->defs[name];
		if (!d || !ir3_ra_def(d))
			continue;
		init_val(c, d);
		uint64_t nu;
		val(c, d)->next_use = u64map_get(&blk(c, b)->next_start, name, &nu) ? (unsigned)nu
										    : NO_USE;
		insert(c, val(c, d));
	}
	foreach_instr(i, b) {
		if (!is_top(i))
			break;
		if (is_new(c, i) || !ir3_ra_def(i->dsts[0]))
			continue;
		init_val(c, i->dsts[0]);
		insert(c, val(c, i->dsts[0]));
	}

	bool phis = b->first && b->first->opc == OPC_META_PHI;
	if (b->npreds == 1 && b->preds[0]->succ[1] && !phis) {
		single_pred_live_ins(c, b);
	} else if (b->npreds) {
		spill_live_ins(c, b);
		reload_live_ins(c, b);
		record_pred_live_outs(c, b);
		foreach_instr(phi, b) {
			if (phi->opc != OPC_META_PHI)
				break;
			if (!is_new(c, phi))
				rewrite_phi(c, phi);
		}
		add_live_in_phis(c, b);
	}

	foreach_instr(i, b) {
		if (is_new(c, i))
			continue;
		if (is_top(i)) {
			if (!ir3_ra_def(i->dsts[0]))
				continue;
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (ir3_ra_src(s) && (s->flags & IR3_REG_FIRST_KILL) &&
				    val(c, s->def)->live)
					remove_val(c, val(c, s->def));
			}
			if ((i->dsts[0]->flags & IR3_REG_UNUSED) && val(c, i->dsts[0])->live)
				remove_val(c, val(c, i->dsts[0]));
		} else if (i->opc == OPC_META_PCOPY) {
			handle_pcopy(c, i);
		} else {
			handle_instr(c, i);
		}
	}

	struct ir3_block *succ = b->succ[0];
	if (succ && blk(c, succ)->visited)
		fix_back_edge(c, b);
	record_live_outs(c, b);
	blk(c, b)->visited = true;
}

/* ------------------------------------------------------------------ */
/* next-use distances (Mesa's compute_next_distance) */

static unsigned instr_cycles(const struct ir3_instruction *i)
{
	unsigned n = 0;
	if (i->opc == OPC_META_PCOPY) {
		for (unsigned k = 0; k < i->ndst; k++)
			if (!i->srcs[k]->def || i->srcs[k]->def->merge_set != i->dsts[k]->merge_set)
				n += ir3_reg_elems(i->srcs[k]);
		return n;
	}
	if (i->opc == OPC_META_COLLECT) {
		for (unsigned k = 0; k < i->nsrc; k++)
			if (!i->srcs[k]->def || i->srcs[k]->def->merge_set != i->dsts[0]->merge_set)
				n++;
		return n;
	}
	return ir3_is_meta(i) ? 0 : 1 + i->repeat;
}

static unsigned map_get(const struct u64map *m, unsigned name)
{
	uint64_t v;
	return u64map_get(m, name, &v) ? (unsigned)v : NO_USE;
}

static void map_min(struct u64map *m, unsigned name, unsigned d, bool *progress)
{
	if (d < map_get(m, name)) {
		u64map_set(m, name, d);
		*progress = true;
	}
}

static bool block_next_uses(struct sp_ctx *c, struct ir3_block *b, struct u64map *tmp)
{
	struct sp_block *sb = blk(c, b);
	u64map_release(tmp);
	size_t it = 0;
	uint64_t key, v;
	while (u64map_next(&sb->next_end, &it, &key, &v))
		u64map_set(tmp, key, v);
	unsigned cycle = sb->cycles;
	foreach_instr_rev(i, b) {
		for (unsigned n = 0; n < i->ndst; n++)
			if (i->dsts[n]->flags & IR3_REG_SSA)
				i->dsts[n]->next_use = map_get(tmp, i->dsts[n]->name);
		for (unsigned n = 0; n < i->nsrc; n++)
			if (ir3_ra_src(i->srcs[n]))
				i->srcs[n]->next_use = map_get(tmp, i->srcs[n]->def->name);
		cycle -= instr_cycles(i);
		if (i->opc == OPC_META_PCOPY) {
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (!ir3_ra_src(s))
					continue;
				if (coalesced(s, i->dsts[n]))
					u64map_set(tmp, s->def->name, map_get(tmp, i->dsts[n]->name));
				else
					u64map_set(tmp, s->def->name, cycle);
			}
		} else if (i->opc != OPC_META_PHI) {
			for (unsigned n = 0; n < i->nsrc; n++)
				if (ir3_ra_src(i->srcs[n]))
					u64map_set(tmp, i->srcs[n]->def->name, cycle);
		}
		for (unsigned n = 0; n < i->ndst; n++)
			if (i->dsts[n]->flags & IR3_REG_SSA)
				u64map_set(tmp, i->dsts[n]->name, NO_USE);
	}
	u64map_release(&sb->next_start);
	it = 0;
	while (u64map_next(tmp, &it, &key, &v))
		if (v != NO_USE)
			u64map_set(&sb->next_start, key, v);

	bool progress = false;
	for (unsigned p = 0; p < b->npreds; p++) {
		struct ir3_block *pred = b->preds[p];
		struct sp_block *pb = blk(c, pred);
		/* Mesa's test: its comment means the edges leaving a loop (values
		 * live through a loop unused go first), its code takes those
		 * entering one, as here */
		unsigned dist = pb->cycles + (pb->loop_depth < sb->loop_depth ? LOOP_EXIT_DISTANCE : 0);
		it = 0;
		while (u64map_next(&sb->next_start, &it, &key, &v))
			map_min(&pb->next_end, (unsigned)key, (unsigned)v + dist, &progress);
		foreach_instr(phi, b) {
			if (phi->opc != OPC_META_PHI)
				break;
			struct ir3_register *s = ir3_phi_src(phi, pred);
			if (s && s->def && phi->dsts[0]->next_use != NO_USE)
				map_min(&pb->next_end, s->def->name, phi->dsts[0]->next_use + dist,
					&progress);
		}
	}
	return progress;
}

/* Loop depth from the back edges (a successor not after its block). */
static void calc_loop_depth(struct sp_ctx *c)
{
	foreach_block(b, c->ir)
		for (int s = 0; s < 2; s++) {
			struct ir3_block *h = b->succ[s];
			if (!h || h->index > b->index)
				continue;
			for (struct ir3_block *x = h; x; x = x->next) {
				blk(c, x)->loop_depth++;
				if (x == b)
					break;
			}
		}
}

static void calc_next_uses(struct sp_ctx *c)
{
	foreach_block(b, c->ir)
		foreach_instr(i, b)
			blk(c, b)->cycles += instr_cycles(i);
	calc_loop_depth(c);
	struct u64map tmp = { 0 };
	bool progress = true;
	while (progress) {
		progress = false;
		foreach_block_rev(b, c->ir)
			progress |= block_next_uses(c, b, &tmp);
	}
	u64map_release(&tmp);
}

/* ------------------------------------------------------------------ */
/* after the walk */

static struct ir3_register *resolve(struct ir3_register *d)
{
	while (d && d->instr->opc == OPC_META_PHI && d->instr->data)
		d = d->instr->data;
	return d;
}

/* A phi whose sources are all one value (or itself) is that value. */
static void simplify_phis(struct ir3 *ir)
{
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = NULL;
	bool progress = true;
	while (progress) {
		progress = false;
		foreach_block(b, ir)
			foreach_instr(phi, b) {
				if (phi->opc != OPC_META_PHI)
					break;
				if (phi->data || (phi->flags & IR3_INSTR_MARK) || !ir3_ra_def(phi->dsts[0]))
					continue;
				struct ir3_register *same = NULL;
				bool trivial = true;
				for (unsigned n = 0; n < phi->nsrc && trivial; n++) {
					struct ir3_register *s = phi->srcs[n];
					struct ir3_register *d = s->def ? resolve(s->def) : NULL;
					if (d == phi->dsts[0])
						continue;
					trivial = d && (!same || same == d);
					same = d;
				}
				if (trivial && same) {
					phi->data = same;
					phi->flags |= IR3_INSTR_MARK;
					progress = true;
				}
			}
	}
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->nsrc; n++)
				if (i->srcs[n]->def)
					i->srcs[n]->def = resolve(i->srcs[n]->def);
}

/* Remove the rebuilt copies, the phis in memory or simplified away, and
 * the rematerialisable movs no one reads any more. */
static void cleanup(struct sp_ctx *c)
{
	bool *read = arena_array(c->a, bool, c->ir->ndefs + 1);
	foreach_block(b, c->ir)
		foreach_instr(i, b) {
			if (i->flags & IR3_INSTR_MARK)
				continue;
			for (unsigned n = 0; n < i->nsrc; n++)
				if (i->srcs[n]->def)
					read[i->srcs[n]->def->name] = true;
		}
	foreach_block(b, c->ir)
		foreach_instr_safe(i, b) {
			bool dead = i->flags & IR3_INSTR_MARK;
			if (i->opc == OPC_MOV && i->dsts[0]->name < c->ndefs && can_remat(i->dsts[0]) &&
			    !read[i->dsts[0]->name])
				dead = true;
			if (dead) {
				i->flags &= ~IR3_INSTR_MARK;
				ir3_instr_remove(i);
			}
		}
}

static void add_base_reg(struct sp_ctx *c)
{
	struct ir3_block *start = c->ir->first;
	struct ir3_instruction *after = start->first;
	while (after && (after->opc == OPC_META_INPUT || after->opc == OPC_META_TEX_PREFETCH))
		after = after->next;
	struct ir3_builder b = { .block = start, .before = after };
	c->base = ir3_b_imm(&b, TYPE_U32, 0);
	c->limit.full -= ir3_reg_size(c->base);
}

void ir3_spill(struct ir3 *ir, struct ir3_liveness *l, struct ir3_pressure limit)
{
	struct arena a = ARENA_INIT;
	struct sp_ctx c = { .ir = ir, .a = &a, .live = l, .merged = ir->target->mergedregs,
			    .limit = limit, .ndefs = l->ndefs };
	ir3_calc_preds(ir);
	c.blocks = arena_array(&a, struct sp_block, ir->nblocks);
	for (unsigned n = 0; n < c.ndefs; n++)
		array_push(&c.vals, arena_new(&a, struct sp_val));
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->flags &= ~IR3_INSTR_MARK;

	add_base_reg(&c);
	calc_next_uses(&c);
	foreach_block(b, ir)
		handle_block(&c, b);

	simplify_phis(ir);
	cleanup(&c);
	ir3_create_parallel_copies(ir);

	for (unsigned n = 0; n < ir->nblocks; n++) {
		u64map_release(&c.blocks[n].next_start);
		u64map_release(&c.blocks[n].next_end);
		u64map_release(&c.blocks[n].remap);
	}
	u64map_release(&c.slots);
	array_free(&c.vals);
	array_free(&c.in_regs);
	arena_release(&a);
}

/* ------------------------------------------------------------------ */
/* the lowest limit (Mesa's calc_min_limit_pressure) */

static void add_size(struct ir3_pressure *p, const struct ir3_register *r, bool merged)
{
	if (r->flags & IR3_REG_HALF)
		p->half += ir3_reg_size(r);
	if (!(r->flags & IR3_REG_HALF) || merged)
		p->full += ir3_reg_size(r);
}

static void raise_to(struct ir3_pressure *lim, struct ir3_pressure p)
{
	if (p.full > lim->full)
		lim->full = p.full;
	if (p.half > lim->half)
		lim->half = p.half;
}

struct ir3_pressure ir3_spill_min_limit(struct ir3 *ir, struct ir3_liveness *l)
{
	bool merged = ir->target->mergedregs;
	struct arena a = ARENA_INIT;
	struct sp_ctx c = { .ir = ir, .a = &a, .live = l, .merged = merged, .ndefs = l->ndefs };
	struct ir3_pressure lim = { 0 }, p = { 0 };
	for (unsigned n = 0; n < c.ndefs; n++)
		array_push(&c.vals, arena_new(&a, struct sp_val));

	/* the inputs, and the holes between precoloured ones */
	foreach_instr(i, ir->first) {
		if (i->opc != OPC_META_INPUT && i->opc != OPC_META_TEX_PREFETCH)
			break;
		struct ir3_register *d = i->dsts[0];
		if (!ir3_ra_def(d))
			continue;
		add_size(&p, d, merged);
		if (d->flags & IR3_REG_ASSIGNED) {
			unsigned end = ((d->flags & IR3_REG_HALF) ? d->num : d->num * 2) + ir3_reg_size(d);
			struct ir3_pressure e = { .full = (!(d->flags & IR3_REG_HALF) || merged) ? end : 0,
						  .half = (d->flags & IR3_REG_HALF) ? end : 0 };
			raise_to(&lim, e);
		}
	}
	raise_to(&lim, p);

	foreach_block(b, ir) {
		while (c.in_regs.len)
			leave(&c, array_last(&c.in_regs));
		c.cur = (struct ir3_pressure){ 0 };
		BITSET_FOREACH(name, l->live_in[b->index], c.ndefs) {
			struct ir3_register *d = l->defs[name];
			if (!d || !ir3_ra_def(d))
				continue;
			init_val(&c, d);
			insert(&c, val(&c, d));
		}
		foreach_instr(i, b) {
			if (i->opc == OPC_META_PCOPY)
				continue;	/* spilling may remove them */
			for (unsigned n = 0; n < i->ndst; n++)
				if (ir3_ra_def(i->dsts[n]) && !val(&c, i->dsts[n])->live)
					init_val(&c, i->dsts[n]);
			if (i->opc == OPC_META_PHI) {
				if (ir3_ra_def(i->dsts[0]))
					insert(&c, val(&c, i->dsts[0]));
				continue;
			}
			/* the sources (all of a value a source sits in), early-clobber
			 * destinations, then the destinations alone */
			p = (struct ir3_pressure){ 0 };
			for (unsigned n = 0; n < i->ndst; n++)
				if (ir3_ra_def(i->dsts[n]) &&
				    (i->dsts[n]->flags & IR3_REG_EARLY_CLOBBER))
					add_size(&p, i->dsts[n], merged);
			for (unsigned n = i->nsrc; n-- > 0;) {
				struct ir3_register *s = i->srcs[n];
				if (!ir3_ra_src(s))
					continue;
				struct sp_val *v = val(&c, s->def);
				add_size(&p, v->live ? top(v)->def : s->def, merged);
				if ((s->flags & IR3_REG_FIRST_KILL) && v->live)
					remove_val(&c, v);
			}
			raise_to(&lim, p);
			p = (struct ir3_pressure){ 0 };
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (ir3_ra_src(s) && (s->flags & IR3_REG_FIRST_KILL) &&
				    s->def->instr->opc == OPC_META_COLLECT)
					add_size(&p, s->def, merged);
			}
			for (unsigned n = 0; n < i->ndst; n++) {
				struct ir3_register *d = i->dsts[n];
				if (!ir3_ra_def(d))
					continue;
				if (!val(&c, d)->live)
					insert(&c, val(&c, d));
				add_size(&p, d, merged);
			}
			raise_to(&lim, p);
		}
	}
	lim.full += 2;	/* the base register, everywhere */
	array_free(&c.vals);
	array_free(&c.in_regs);
	arena_release(&a);
	return lim;
}
