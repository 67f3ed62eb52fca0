/*
 * SSA register allocation after Mesa's ir3_ra.c (targets.md §3): no graph
 * colouring, no backtracking.  The program is made conventional (a parallel
 * copy per phi predecessor), values are grouped into merge sets, the maximum
 * pressure is measured, and then each block is allocated in program
 * (dominance) order, one instruction at a time.
 *
 * The file is in half-register units (ir3_ra.h).  Its size is not the whole
 * register file but the occupancy-neutral target (ir3_target_full_pressure,
 * Mesa's calc_target_full_pressure): as many registers as keep the number of
 * waves of the real pressure.  Free space is searched round-robin from where
 * the last search ended, so the footprint (`full`) tends to that target, as
 * Mesa's does.  Half values live in a separate file before a6xx and in the
 * lower half of the full file (r0–r23) from a6xx on.
 *
 * A value's register is chosen, in order (get_reg):
 *  1. its merge set's preferred register, when free;
 *     then, for a repeat group whose merge set is its own, the register of
 *     a source that dies here (so the group reuses its sources' range);
 *  2. if the set has no register yet, room for the whole set;
 *  3. for ALU/SFU, the register of a source that dies here;
 *  4. the next free gap, round-robin;
 *  5. a place made by moving the fewest live values elsewhere (parallel
 *     copies before the instruction), or swapping one with a dying source;
 *  6. as a last resort, all live values packed to the left.
 * Values of one merge set that are live together and overlap in the set sit
 * inside one another ("children" follow their parent).  At block boundaries
 * moved values are put back with copies at the end of the predecessors.
 *
 * Pressure above the register file first spills (ir3_spill.c, a5xx+: values
 * to private memory until what is live fits); before a5xx it fails the
 * shader ("register pressure N exceeds M", in 32-bit registers).  The
 * stress mode (`ra_limit`) spills down to a smaller limit; the file is then
 * chosen as always, from what is live.
 */
#include "compiler/ir3/ir3_passes.h"
#include "compiler/ir3/ir3_ra.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/hash.h"

struct ra_val {
	struct ir3_register *def;
	unsigned physreg;		/* where it is (top-level) */
	struct ra_val *parent;		/* the live top-level value it sits in */
	bool live, killed, frozen;
};

struct ra_file {
	unsigned size;			/* half-register units */
	unsigned start;			/* round-robin position */
	struct ra_val *owner[RA_FULL_SIZE];	/* top-level value per unit */
};

struct ra_copy {
	struct ra_val *val;
	unsigned src;
};

struct ra_block {
	struct u64map renames;		/* value name → physreg at the block's end */
	struct u64map entry;		/* physregs at entry, for back edges */
	bool visited, has_entry;
};

struct ra_ctx {
	struct ir3 *ir;
	struct arena *a;
	struct ir3_liveness *live;
	bool merged;
	struct ra_file full, half;
	struct ra_val *vals;		/* by value name */
	ARRAY(struct ra_copy) copies;
	struct ra_block *blocks;
	struct ir3_instruction *instr;	/* being allocated */
	struct { struct ra_file *file; unsigned start, end; } dsts[8];
	unsigned ndsts;
	ARRAY(struct ra_val *) touched;	/* values made live in this block */
};

/* ------------------------------------------------------------------ */
/* values and files */

static struct ra_val *val(struct ra_ctx *c, const struct ir3_register *def)
{
	return &c->vals[def->name];
}

static struct ra_file *file_of(struct ra_ctx *c, const struct ir3_register *def)
{
	return (c->merged || !(def->flags & IR3_REG_HALF)) ? &c->full : &c->half;
}

/* Half values only fit in the lower half of a merged file. */
static unsigned file_limit(struct ra_ctx *c, struct ra_file *f, const struct ir3_register *def)
{
	if (c->merged && (def->flags & IR3_REG_HALF) && f->size > RA_HALF_SIZE)
		return RA_HALF_SIZE;
	return f->size;
}

static unsigned to_num(unsigned physreg, const struct ir3_register *def)
{
	return (def->flags & IR3_REG_HALF) ? physreg : physreg / 2;
}

static bool contains(const struct ra_val *a, const struct ra_val *b)
{
	const struct ir3_register *x = a->def, *y = b->def;
	return x->merge_set && x->merge_set == y->merge_set &&
	       x->merge_set_offset <= y->merge_set_offset &&
	       y->merge_set_offset + ir3_reg_size(y) <= x->merge_set_offset + ir3_reg_size(x);
}

static unsigned phys_of(const struct ra_val *v)
{
	if (!v->parent)
		return v->physreg;
	return v->parent->physreg + v->def->merge_set_offset - v->parent->def->merge_set_offset;
}

static void mark(struct ra_ctx *c, struct ra_val *v, struct ra_val *owner)
{
	struct ra_file *f = file_of(c, v->def);
	unsigned size = ir3_reg_size(v->def);
	for (unsigned u = v->physreg; u < v->physreg + size; u++) {
		if (u >= f->size)
			BUG("value %%%u placed outside the register file", v->def->name);
		f->owner[u] = owner;
	}
}

#define foreach_live_member(m, c, v) \
	for (unsigned m##_k = 0; (v)->def->merge_set && m##_k < (v)->def->merge_set->nregs; m##_k++) \
		for (struct ra_val *m = val((c), (v)->def->merge_set->regs[m##_k]); m; m = NULL) \
			if (m->live && m != (v))

/* Make `v` live at `physreg` (ignored when it falls inside a live value of
 * its set); live values of its set it contains become its children. */
static void insert_val(struct ra_ctx *c, struct ra_val *v, unsigned physreg)
{
	array_push(&c->touched, v);
	v->live = true;
	v->killed = false;
	v->parent = NULL;
	foreach_live_member(m, c, v) {
		struct ra_val *top = m->parent ? m->parent : m;
		if (top != v && contains(top, v)) {
			v->parent = top;
			v->physreg = phys_of(v);
			return;
		}
	}
	v->physreg = physreg;
	foreach_live_member(m, c, v) {
		if (!m->parent && contains(v, m)) {
			mark(c, m, NULL);
			m->parent = v;
		}
	}
	foreach_live_member(m, c, v) {
		if (m->parent && m->parent != v && m->parent->parent == v)
			m->parent = v;
	}
	mark(c, v, v);
}

static int by_size_desc(const void *a, const void *b)
{
	const struct ra_val *x = *(struct ra_val *const *)a, *y = *(struct ra_val *const *)b;
	return (int)ir3_reg_size(y->def) - (int)ir3_reg_size(x->def);
}

static void remove_val(struct ra_ctx *c, struct ra_val *v)
{
	v->live = false;
	v->killed = false;
	if (v->parent) {
		v->parent = NULL;
		return;
	}
	mark(c, v, NULL);
	/* the children become top-level, the largest first */
	struct ra_val *kids[64];
	unsigned n = 0;
	foreach_live_member(m, c, v) {
		if (m->parent == v && n < 64) {
			m->physreg = phys_of(m);
			kids[n++] = m;
		}
	}
	qsort(kids, n, sizeof(kids[0]), by_size_desc);
	for (unsigned k = 0; k < n; k++) {
		kids[k]->parent = NULL;
		for (unsigned j = 0; j < k; j++)
			if (!kids[j]->parent && contains(kids[j], kids[k])) {
				kids[k]->parent = kids[j];
				break;
			}
		if (!kids[k]->parent)
			mark(c, kids[k], kids[k]);
	}
}

/* Move a top-level value, remembering where it came from for the copy. */
static void move_val(struct ra_ctx *c, struct ra_val *v, unsigned physreg)
{
	bool known = false;
	for (size_t k = 0; k < c->copies.len; k++)
		known |= c->copies.data[k].val == v;
	if (!known)
		array_push(&c->copies, (struct ra_copy){ .val = v, .src = v->physreg });
	mark(c, v, NULL);
	v->physreg = physreg;
	mark(c, v, v);
}

/* ------------------------------------------------------------------ */
/* choosing a register (get_reg and its helpers) */

static bool early_clobber(const struct ir3_register *d)
{
	return d->flags & IR3_REG_EARLY_CLOBBER;
}

static bool dst_overlap(struct ra_ctx *c, struct ra_file *f, unsigned start, unsigned end)
{
	for (unsigned k = 0; k < c->ndsts; k++)
		if (c->dsts[k].file == f && c->dsts[k].start < end && start < c->dsts[k].end)
			return true;
	return false;
}

/* Free for `d`: empty, or a source that dies here (unless early-clobber). */
static bool range_free(struct ra_ctx *c, struct ra_file *f, const struct ir3_register *d,
		       unsigned start, unsigned size)
{
	if (start + size > f->size)
		return false;
	for (unsigned u = start; u < start + size; u++) {
		struct ra_val *o = f->owner[u];
		if (o && !(o->killed && !early_clobber(d)))
			return false;
	}
	return !dst_overlap(c, f, start, start + size);
}

static unsigned find_best_gap(struct ra_ctx *c, struct ra_file *f, const struct ir3_register *d,
			      unsigned limit, unsigned size, unsigned align)
{
	if (size > limit)
		return ~0u;
	unsigned start = ((f->start + align - 1) / align * align) % (limit - size + align);
	unsigned cand = start;
	do {
		if (range_free(c, f, d, cand, size)) {
			f->start = (cand + size) % limit;
			return cand;
		}
		cand += align;
		if (cand + size > limit)
			cand = 0;
	} while (cand != start);
	return ~0u;
}

/* Make room at `physreg` by moving what is there; `cost` counts units moved
 * (twice for swaps).  Speculative: only compute the cost. */
static bool try_evict(struct ra_ctx *c, struct ra_file *f, const struct ir3_register *d,
		      unsigned physreg, unsigned *cost, bool speculative)
{
	unsigned size = ir3_reg_size(d);
	bool claimed[RA_FULL_SIZE] = { false };
	struct ra_val *done[RA_FULL_SIZE / 2];
	unsigned ndone = 0;
	*cost = 0;
	for (unsigned u = physreg; u < physreg + size; u++)
		claimed[u] = true;

	for (unsigned u = physreg; u < physreg + size; u++) {
		struct ra_val *v = f->owner[u];
		if (!v)
			continue;
		bool seen = false;
		for (unsigned k = 0; k < ndone; k++)
			seen |= done[k] == v;
		if (seen || (v->killed && !early_clobber(d)))
			continue;
		if (v->frozen)
			return false;
		done[ndone++] = v;
		unsigned vsize = ir3_reg_size(v->def), valign = ir3_reg_elem_size(v->def);
		unsigned vlimit = file_limit(c, f, v->def);
		bool moved = false;
		for (unsigned p = 0; p + vsize <= vlimit && !moved; p += valign) {
			bool ok = !dst_overlap(c, f, p, p + vsize);
			for (unsigned q = p; q < p + vsize && ok; q++)
				ok = !f->owner[q] && !claimed[q];
			if (!ok)
				continue;
			for (unsigned q = p; q < p + vsize; q++)
				claimed[q] = true;
			*cost += vsize;
			if (!speculative)
				move_val(c, v, p);
			moved = true;
		}
		if (moved)
			continue;
		if (early_clobber(d))
			return false;
		/* swap with a dying source of the same size */
		struct ra_val *swap = NULL;
		for (unsigned q = 0; q < f->size && !swap; q++) {
			struct ra_val *k = f->owner[q];
			if (!k || !k->killed || k->physreg != q || ir3_reg_size(k->def) != vsize)
				continue;
			if (k->physreg + vsize > vlimit || v->physreg + vsize > file_limit(c, f, k->def))
				continue;
			if (k->physreg % 2 != v->physreg % 2)
				continue;
			bool ok = !dst_overlap(c, f, k->physreg, k->physreg + vsize);
			for (unsigned w = k->physreg; w < k->physreg + vsize && ok; w++)
				ok = !claimed[w];
			if (ok)
				swap = k;
		}
		if (!swap)
			return false;
		for (unsigned w = swap->physreg; w < swap->physreg + vsize; w++)
			claimed[w] = true;
		*cost += 2 * vsize;
		if (!speculative) {
			unsigned kp = swap->physreg, vp = v->physreg;
			mark(c, swap, NULL);
			move_val(c, v, kp);
			bool known = false;
			for (size_t k = 0; k < c->copies.len; k++)
				known |= c->copies.data[k].val == swap;
			if (!known)
				array_push(&c->copies, (struct ra_copy){ .val = swap, .src = kp });
			swap->physreg = vp;
			mark(c, swap, swap);
		}
	}
	return true;
}

static int compress_order(const void *a, const void *b)
{
	const struct ra_val *x = *(struct ra_val *const *)a, *y = *(struct ra_val *const *)b;
	/* half live-through, half dying, full dying, full live-through */
	int kx = (x->def->flags & IR3_REG_HALF) ? (x->killed ? 1 : 0) : (x->killed ? 2 : 3);
	int ky = (y->def->flags & IR3_REG_HALF) ? (y->killed ? 1 : 0) : (y->killed ? 2 : 3);
	if (kx != ky)
		return kx - ky;
	return (int)x->physreg - (int)y->physreg;
}

static unsigned next_fit(struct ra_file *f, unsigned pos, unsigned size, unsigned align)
{
	for (;;) {
		pos = (pos + align - 1) / align * align;
		bool ok = pos + size <= f->size;
		for (unsigned u = pos; u < pos + size && ok; u++)
			ok = !f->owner[u];
		if (ok || pos + size > f->size)
			return pos;
		pos += align;
	}
}

/* Last resort: pack every movable value to the left around the destination. */
static unsigned compress_regs_left(struct ra_ctx *c, struct ra_file *f, const struct ir3_register *d)
{
	struct ra_val *vals[RA_FULL_SIZE];
	unsigned n = 0;
	if (c->ndsts)
		BUG("packing registers for an instruction with several destinations");
	for (unsigned u = 0; u < f->size; u++) {
		struct ra_val *v = f->owner[u];
		if (v && v->physreg == u && !v->frozen) {
			bool known = false;
			for (size_t k = 0; k < c->copies.len; k++)
				known |= c->copies.data[k].val == v;
			if (!known)
				array_push(&c->copies, (struct ra_copy){ .val = v, .src = v->physreg });
			vals[n++] = v;
		}
	}
	for (unsigned k = 0; k < n; k++)
		mark(c, vals[k], NULL);
	qsort(vals, n, sizeof(vals[0]), compress_order);

	bool half_dst = d->flags & IR3_REG_HALF;
	unsigned dsize = ir3_reg_size(d), pos = 0, dst = ~0u, dst_end = 0;
	for (unsigned k = 0; k <= n; k++) {
		int cls = k == n ? 4 : (vals[k]->def->flags & IR3_REG_HALF) ? (vals[k]->killed ? 1 : 0)
									       : (vals[k]->killed ? 2 : 3);
		/* the destination starts where the dying values of its size do */
		if (dst == ~0u && ((half_dst && cls >= 1) || (!half_dst && cls >= 2))) {
			dst = next_fit(f, pos, dsize, half_dst ? 1 : 2);
			dst_end = dst + dsize;
		}
		if (k == n)
			break;
		struct ra_val *v = vals[k];
		unsigned start = cls == 3 && pos < dst_end ? dst_end : pos;
		unsigned p = next_fit(f, start, ir3_reg_size(v->def), ir3_reg_elem_size(v->def));
		if (p + ir3_reg_size(v->def) > file_limit(c, f, v->def))
			BUG("register pressure calculation was wrong (%%%u at %u in a file of %u)",
			    v->def->name, p, f->size);
		v->physreg = p;
		mark(c, v, v);
		pos = p + ir3_reg_size(v->def);
	}
	if (dst + dsize > file_limit(c, f, d))
		BUG("register pressure calculation was wrong");
	return dst;
}

static void update_affinity(struct ra_file *f, const struct ir3_register *d, unsigned physreg)
{
	struct ir3_merge_set *set = d->merge_set;
	if (!set || set->preferred_reg != ~0u || physreg < d->merge_set_offset)
		return;
	if (physreg - d->merge_set_offset + set->size > f->size)
		return;
	set->preferred_reg = physreg - d->merge_set_offset;
}

/* For ALU and SFU instructions: the register of a source that is free for
 * the destination (one that dies here), so no new register (Mesa's
 * try_allocate_src). */
static unsigned try_allocate_src(struct ra_ctx *c, struct ra_file *f, struct ir3_register *d,
				 unsigned limit)
{
	struct ir3_instruction *i = d->instr;
	unsigned size = ir3_reg_size(d), align = ir3_reg_elem_size(d);
	for (unsigned n = 0; n < i->nsrc; n++) {
		struct ir3_register *s = i->srcs[n];
		if (!ir3_ra_src(s) || file_of(c, s->def) != f || ir3_reg_size(s->def) < size)
			continue;
		unsigned p = phys_of(val(c, s->def));
		if (p % align == 0 && p + size <= limit && range_free(c, f, d, p, size))
			return p;
	}
	return ~0u;
}

/* What RA put between a repeat group's members (its copies) is no member. */
static struct ir3_instruction *rpt_step(struct ir3_instruction *i, bool back)
{
	do
		i = back ? i->prev : i->next;
	while (i && !i->rpt_id && ((i->flags & IR3_INSTR_COPY) || ir3_is_meta(i)));
	return i;
}

/* A repeat group whose merge set holds its values, in order, and nothing
 * else (Mesa's rpt_has_unique_merge_set). */
static bool rpt_has_unique_merge_set(struct ir3_instruction *i)
{
	struct ir3_merge_set *set = i->dsts[0]->merge_set;
	if (!set || i->ndst != 1)
		return false;
	struct ir3_instruction *first = i, *p;
	while ((p = rpt_step(first, true)) && p->rpt_id == i->rpt_id)
		first = p;
	unsigned n = 0;
	for (struct ir3_instruction *m = first; m && m->rpt_id == i->rpt_id; m = rpt_step(m, false), n++)
		if (n >= set->nregs || m->ndst != 1 || set->regs[n] != m->dsts[0])
			return false;
	return n == set->nregs;
}

static unsigned get_reg(struct ra_ctx *c, struct ra_file *f, struct ir3_register *d)
{
	unsigned limit = file_limit(c, f, d), size = ir3_reg_size(d), align = ir3_reg_elem_size(d);
	struct ir3_merge_set *set = d->merge_set;

	/* an array write: where the version it updates was (Mesa's tied
	 * destinations); the versions never interfere, so that one dies here */
	struct ir3_register *tied = ir3_tied_src(d->instr);
	if (tied && ir3_ra_src(tied)) {
		struct ra_val *v = val(c, tied->def);
		if (!v->killed || !range_free(c, f, d, phys_of(v), size))
			BUG("array write: %%%u stays live after it", tied->def->name);
		return phys_of(v);
	}

	if (set && set->preferred_reg != ~0u) {
		unsigned p = set->preferred_reg + d->merge_set_offset;
		if (p + size <= limit && p % align == 0 && range_free(c, f, d, p, size))
			return p;
	}
	struct ir3_instruction *i = d->instr;
	if (i->rpt_id && rpt_has_unique_merge_set(i)) {
		unsigned p = try_allocate_src(c, f, d, limit);
		if (p != ~0u)
			return p;
	}
	if (set && set->preferred_reg == ~0u && size < set->size) {
		unsigned p = find_best_gap(c, f, d, limit, set->size, set->alignment);
		if (p != ~0u)
			return p + d->merge_set_offset;
	}
	if (ir3_is_alu(i) || ir3_is_sfu(i)) {
		unsigned p = try_allocate_src(c, f, d, limit);
		if (p != ~0u)
			return p;
	}
	unsigned p = find_best_gap(c, f, d, limit, size, align);
	if (p != ~0u)
		return p;

	unsigned best = ~0u, best_cost = ~0u, cost;
	for (unsigned q = 0; q + size <= limit; q += align)
		if (try_evict(c, f, d, q, &cost, true) && cost < best_cost) {
			best_cost = cost;
			best = q;
		}
	if (best != ~0u) {
		if (!try_evict(c, f, d, best, &cost, false))
			BUG("eviction failed after it was planned");
		return best;
	}
	return compress_regs_left(c, f, d);
}

/* ------------------------------------------------------------------ */
/* instructions */

static void emit_copies(struct ra_ctx *c, struct ir3_instruction *before)
{
	if (!c->copies.len)
		return;
	struct ir3_instruction *pc = ir3_instr_new(c->ir, OPC_META_PCOPY, (unsigned)c->copies.len,
						   (unsigned)c->copies.len);
	ir3_instr_insert_before(before, pc);
	for (size_t k = 0; k < c->copies.len; k++) {
		struct ra_val *v = c->copies.data[k].val;
		ir3_reg_set_shape(ir3_dst_phys(pc, 0, to_num(v->physreg, v->def), 1), v->def);
		ir3_reg_set_shape(ir3_src_phys(pc, 0, to_num(c->copies.data[k].src, v->def), 1), v->def);
	}
	c->copies.len = 0;
}

static void mark_killed_srcs(struct ra_ctx *c, struct ir3_instruction *i)
{
	for (unsigned n = 0; n < i->nsrc; n++) {
		struct ir3_register *s = i->srcs[n];
		if (!ir3_ra_src(s) || !(s->flags & IR3_REG_FIRST_KILL))
			continue;
		struct ra_val *v = val(c, s->def);
		if (v->parent)
			continue;
		bool kids = false;
		foreach_live_member(m, c, v)
			kids |= m->parent == v;
		if (!kids)
			v->killed = true;
	}
}

static void assign_srcs(struct ra_ctx *c, struct ir3_instruction *i)
{
	for (unsigned n = i->nsrc; n-- > 0;) {
		struct ir3_register *s = i->srcs[n];
		if (!ir3_ra_src(s))
			continue;
		struct ra_val *v = val(c, s->def);
		if (!v->live)
			BUG("%%%u read while not in a register", s->def->name);
		s->num = to_num(phys_of(v), s->def);
		s->flags |= IR3_REG_ASSIGNED;
		if (s->flags & IR3_REG_FIRST_KILL)
			remove_val(c, v);
	}
}

static void finish_dst(struct ra_ctx *c, struct ir3_register *d, unsigned physreg)
{
	struct ra_val *v = val(c, d);
	update_affinity(file_of(c, d), d, physreg);
	insert_val(c, v, physreg);
	d->num = to_num(phys_of(v), d);
	d->flags |= IR3_REG_ASSIGNED;
	if (d->flags & IR3_REG_UNUSED)
		remove_val(c, v);
}

static void handle_normal(struct ra_ctx *c, struct ir3_instruction *i)
{
	unsigned regs[8];
	mark_killed_srcs(c, i);
	c->ndsts = 0;
	for (unsigned n = 0; n < i->ndst && n < 8; n++) {
		struct ir3_register *d = i->dsts[n];
		if (!ir3_ra_def(d))
			continue;
		struct ra_file *f = file_of(c, d);
		regs[n] = get_reg(c, f, d);
		c->dsts[c->ndsts].file = f;
		c->dsts[c->ndsts].start = regs[n];
		c->dsts[c->ndsts].end = regs[n] + ir3_reg_size(d);
		c->ndsts++;
	}
	assign_srcs(c, i);
	for (unsigned n = 0; n < i->ndst && n < 8; n++)
		if (ir3_ra_def(i->dsts[n]))
			finish_dst(c, i->dsts[n], regs[n]);
	c->ndsts = 0;
	emit_copies(c, i);
}

static void handle_split(struct ra_ctx *c, struct ir3_instruction *i)
{
	struct ir3_register *d = i->dsts[0], *s = i->srcs[0]->def;
	if (!d->merge_set || d->merge_set != s->merge_set) {
		handle_normal(c, i);
		return;
	}
	unsigned p = phys_of(val(c, s)) - s->merge_set_offset + d->merge_set_offset;
	assign_srcs(c, i);
	finish_dst(c, d, p);
}

static void handle_collect(struct ra_ctx *c, struct ir3_instruction *i)
{
	struct ir3_register *d = i->dsts[0];
	struct ir3_merge_set *set = d->merge_set;
	if (!set || set->nregs == 1) {
		handle_normal(c, i);
		return;
	}
	mark_killed_srcs(c, i);
	unsigned fixed = ~0u;
	for (unsigned n = 0; n < i->nsrc; n++) {
		struct ir3_register *s = i->srcs[n];
		if (!ir3_ra_src(s))
			continue;
		struct ra_val *v = val(c, s->def);
		if (s->def->merge_set != set || v->killed ||
		    s->def->merge_set_offset >= d->merge_set_offset + ir3_reg_size(d) ||
		    d->merge_set_offset >= s->def->merge_set_offset + ir3_reg_size(s->def))
			continue;
		struct ra_val *top = v->parent ? v->parent : v;
		if (ir3_reg_size(top->def) >= ir3_reg_size(d))
			fixed = top->physreg - top->def->merge_set_offset + d->merge_set_offset;
		else
			top->killed = true;	/* the collect moves it into place */
	}
	unsigned p = fixed != ~0u ? fixed : get_reg(c, file_of(c, d), d);
	for (unsigned n = 0; n < i->nsrc; n++) {
		struct ir3_register *s = i->srcs[n];
		if (!ir3_ra_src(s))
			continue;
		struct ra_val *v = val(c, s->def), *top = v->parent ? v->parent : v;
		if (top != v || !(s->flags & IR3_REG_KILL))
			top->killed = false;
	}
	assign_srcs(c, i);
	emit_copies(c, i);
	finish_dst(c, d, p);
}

/* Phi copies at the end of a block: only the sources are read here; the
 * destinations get the phi's register when the phi is allocated. */
static void handle_pcopy(struct ra_ctx *c, struct ir3_instruction *i)
{
	assign_srcs(c, i);
}

/* Values in registers when the shader starts: inputs and prefetches. */
static bool is_start_value(const struct ir3_instruction *i)
{
	return i->opc == OPC_META_INPUT || i->opc == OPC_META_TEX_PREFETCH;
}

static void handle_input(struct ra_ctx *c, struct ir3_instruction *i, bool precolored)
{
	struct ir3_register *d = i->dsts[0];
	if (!ir3_ra_def(d) || !!(d->flags & IR3_REG_ASSIGNED) != precolored)
		return;
	struct ra_val *v = val(c, d);
	unsigned p;
	if (precolored) {
		p = (d->flags & IR3_REG_HALF) ? d->num : d->num * 2;
		insert_val(c, v, p);
		v->frozen = true;
	} else {
		p = get_reg(c, file_of(c, d), d);
		update_affinity(file_of(c, d), d, p);
		insert_val(c, v, p);
		d->num = to_num(phys_of(v), d);
		d->flags |= IR3_REG_ASSIGNED;
	}
}

/* ------------------------------------------------------------------ */
/* block boundaries */

static unsigned read_register(struct ra_ctx *c, struct ir3_block *pred, struct ir3_register *def)
{
	uint64_t p;
	if (u64map_get(&c->blocks[pred->index].renames, def->name, &p))
		return (unsigned)p;
	return (def->flags & IR3_REG_HALF) ? def->num : def->num * 2;
}

/* A copy at the end of `b` (into its phi copies when there are some, so
 * they all happen at once). */
static void insert_liveout_copy(struct ra_ctx *c, struct ir3_block *b, unsigned dst, unsigned src,
				struct ir3_register *def)
{
	struct ir3_instruction *t = ir3_block_terminator(b);
	struct ir3_instruction *pc = t ? t->prev : b->last;
	if (!pc || pc->opc != OPC_META_PCOPY) {
		pc = ir3_instr_new(c->ir, OPC_META_PCOPY, 1, 1);
		ir3_instr_insert_before_terminator(b, pc);
	}
	ir3_reg_set_shape(ir3_dst_phys(pc, 0, to_num(dst, def), 1), def);
	ir3_reg_set_shape(ir3_src_phys(pc, 0, to_num(src, def), 1), def);
}

static void handle_live_ins(struct ra_ctx *c, struct ir3_block *b)
{
	struct ir3_block *from = NULL;
	for (unsigned p = 0; p < b->npreds && !from; p++)
		if (c->blocks[b->preds[p]->index].visited)
			from = b->preds[p];
	BITSET_FOREACH(name, c->live->live_in[b->index], c->live->ndefs) {
		struct ir3_register *def = c->live->defs[name];
		if (!def || !ir3_ra_def(def))
			continue;
		if (!from)
			BUG("block b%u has live-ins but no visited predecessor", b->index);
		insert_val(c, val(c, def), read_register(c, from, def));
	}
}

static void handle_phis(struct ra_ctx *c, struct ir3_block *b)
{
	foreach_instr(phi, b) {
		if (phi->opc != OPC_META_PHI)
			break;
		struct ir3_register *d = phi->dsts[0];
		if (!ir3_ra_def(d))
			continue;
		struct ra_val *v = val(c, d);
		unsigned p = ~0u;
		foreach_live_member(m, c, v) {
			struct ra_val *top = m->parent ? m->parent : m;
			if (contains(top, v))
				p = top->physreg + d->merge_set_offset - top->def->merge_set_offset;
		}
		if (p == ~0u)
			p = get_reg(c, file_of(c, d), d);
		update_affinity(file_of(c, d), d, p);
		insert_val(c, v, p);
	}
	c->copies.len = 0;	/* moves among entry values need no code */
}

static void live_in_moves(struct ra_ctx *c, struct ir3_block *b)
{
	bool all_visited = true;
	for (unsigned p = 0; p < b->npreds; p++)
		all_visited &= c->blocks[b->preds[p]->index].visited;

	struct ra_file *files[2] = { &c->full, &c->half };
	for (int f = 0; f < 2; f++) {
		for (unsigned u = 0; u < files[f]->size; u++) {
			struct ra_val *v = files[f]->owner[u];
			if (!v || v->physreg != u || !bitset_test(c->live->live_in[b->index], v->def->name))
				continue;
			for (unsigned p = 0; p < b->npreds; p++) {
				struct ir3_block *pred = b->preds[p];
				if (!c->blocks[pred->index].visited)
					continue;
				unsigned from = read_register(c, pred, v->def);
				if (from != v->physreg) {
					insert_liveout_copy(c, pred, v->physreg, from, v->def);
					u64map_set(&c->blocks[pred->index].renames, v->def->name, v->physreg);
				}
			}
			if (!all_visited) {
				c->blocks[b->index].has_entry = true;
				u64map_set(&c->blocks[b->index].entry, v->def->name, v->physreg);
			}
		}
	}
}

static void live_out_moves(struct ra_ctx *c, struct ir3_block *b)
{
	struct ra_file *files[2] = { &c->full, &c->half };
	for (int s = 0; s < 2; s++) {
		struct ir3_block *succ = b->succ[s];
		if (!succ || !c->blocks[succ->index].visited || !c->blocks[succ->index].has_entry)
			continue;
		for (int f = 0; f < 2; f++)
			for (unsigned u = 0; u < files[f]->size; u++) {
				struct ra_val *v = files[f]->owner[u];
				uint64_t want;
				if (!v || v->physreg != u ||
				    !u64map_get(&c->blocks[succ->index].entry, v->def->name, &want))
					continue;
				if (want != v->physreg)
					insert_liveout_copy(c, b, (unsigned)want, v->physreg, v->def);
			}
	}
}

static void record_live_outs(struct ra_ctx *c, struct ir3_block *b)
{
	BITSET_FOREACH(name, c->live->live_out[b->index], c->live->ndefs) {
		struct ir3_register *def = c->live->defs[name];
		if (!def || !ir3_ra_def(def) || def->instr->opc == OPC_META_PCOPY)
			continue;
		struct ra_val *v = val(c, def);
		unsigned home = (def->flags & IR3_REG_HALF) ? def->num : def->num * 2;
		if (v->live && phys_of(v) != home)
			u64map_set(&c->blocks[b->index].renames, name, phys_of(v));
	}
}

/* Phi destinations are known: give the copies that feed them the same register. */
/* A phi's register is where it is once all of its block's are placed (a
 * later one may have moved it out of its way), as Mesa's assign_phi reads
 * the interval's place; its sources (the predecessors' copies) take it. */
static void assign_phi(struct ra_ctx *c, struct ir3_instruction *phi)
{
	struct ir3_register *d = phi->dsts[0];
	if (ir3_ra_def(d)) {
		d->num = to_num(phys_of(val(c, d)), d);
		d->flags |= IR3_REG_ASSIGNED;
	}
	for (unsigned n = 0; n < phi->nsrc; n++) {
		struct ir3_register *s = phi->srcs[n];
		if (!s->def)
			continue;
		s->num = d->num;
		s->flags |= IR3_REG_ASSIGNED;
		s->def->num = d->num;
		s->def->flags |= IR3_REG_ASSIGNED;
	}
}

#ifdef IR3_RA_DEBUG
/* Build with -DIR3_RA_DEBUG: the file is checked after every instruction. */
static void check_files(struct ra_ctx *c, struct ir3_instruction *i)
{
	struct ra_file *files[2] = { &c->full, &c->half };
	for (int f = 0; f < 2; f++)
		for (unsigned u = 0; u < files[f]->size; u++) {
			struct ra_val *o = files[f]->owner[u];
			if (o && (!o->live || o->parent || u < o->physreg ||
				  u >= o->physreg + ir3_reg_size(o->def))) {
				struct strbuf sb = STRBUF_INIT;
				ir3_print_instr(&sb, i);
				BUG("RA inconsistency at unit %u (%%%u live %d parent %p phys %u) after %s",
				    u, o->def->name, o->live, (void *)o->parent, o->physreg, sb.buf);
			}
		}
	for (unsigned n = 0; n < c->ir->ndefs; n++) {
		struct ra_val *v = &c->vals[n];
		if (!v->live || v->parent || !v->def)
			continue;
		struct ra_file *f = file_of(c, v->def);
		for (unsigned u = v->physreg; u < v->physreg + ir3_reg_size(v->def); u++)
			if (f->owner[u] != v) {
				struct strbuf sb = STRBUF_INIT;
				ir3_print_instr(&sb, i);
				BUG("RA: %%%u at %u not owner of unit %u (owner %%%d) after %s", v->def->name,
				    v->physreg, u, f->owner[u] ? (int)f->owner[u]->def->name : -1, sb.buf);
			}
	}
}
#endif

static void allocate_block(struct ra_ctx *c, struct ir3_block *b)
{
	memset(c->full.owner, 0, sizeof(c->full.owner));
	memset(c->half.owner, 0, sizeof(c->half.owner));
	for (size_t k = 0; k < c->touched.len; k++) {
		struct ra_val *v = c->touched.data[k];
		v->live = v->killed = false;
		v->parent = NULL;
	}
	c->touched.len = 0;

	/* inputs (the first block): precoloured ones before the others, then
	 * the texture prefetch results, which the hardware also writes before
	 * the shader starts: none takes the registers of another */
	for (int pass = 1; pass >= 0; pass--)
		foreach_instr(i, b) {
			if (i->opc != OPC_META_INPUT)
				continue;
			handle_input(c, i, pass);
		}
	foreach_instr(i, b)
		if (i->opc == OPC_META_TEX_PREFETCH)
			handle_input(c, i, false);
	handle_live_ins(c, b);
	handle_phis(c, b);
	live_in_moves(c, b);
	c->copies.len = 0;

	foreach_instr(i, b) {
		c->instr = i;
		switch (i->opc) {
		case OPC_META_PHI:
			assign_phi(c, i);
			/* as Mesa's assign_phi: a phi nothing reads frees its
			 * registers once the block's phis are placed (the pressure
			 * calculation counts it so; RA kept it live to the end) */
			if (ir3_ra_def(i->dsts[0]) && (i->dsts[0]->flags & IR3_REG_UNUSED))
				remove_val(c, val(c, i->dsts[0]));
			break;
		case OPC_META_INPUT:
			if (ir3_ra_def(i->dsts[0]) && (i->dsts[0]->flags & IR3_REG_UNUSED))
				remove_val(c, val(c, i->dsts[0]));
			break;
		case OPC_META_TEX_PREFETCH:
			assign_srcs(c, i);
			if (i->dsts[0]->flags & IR3_REG_UNUSED)
				remove_val(c, val(c, i->dsts[0]));
			break;
		case OPC_META_SPLIT:
			handle_split(c, i);
			break;
		case OPC_META_COLLECT:
			handle_collect(c, i);
			break;
		case OPC_META_PCOPY:
			handle_pcopy(c, i);
			break;
		default:
			handle_normal(c, i);
			break;
		}
#ifdef IR3_RA_DEBUG
		check_files(c, i);
#endif
	}
	live_out_moves(c, b);
	record_live_outs(c, b);
	c->blocks[b->index].visited = true;
}

/* ------------------------------------------------------------------ */
/* kills, pressure, predicates */

struct pressure_ctx {
	struct ra_ctx *c;
	struct ir3_pressure cur, max;
	ARRAY(struct ir3_register *) counted;	/* values added in this block */
};

static void pressure_add(struct pressure_ctx *p, struct ir3_register *d, int dir)
{
	bool half = d->flags & IR3_REG_HALF;
	unsigned units = 0, size = ir3_reg_size(d);
	struct ir3_merge_set *set = d->merge_set;
	if (set) {
		unsigned short *cov = (unsigned short *)set->coverage;
		for (unsigned u = d->merge_set_offset; u < d->merge_set_offset + size; u++) {
			if (dir > 0 && cov[u]++ == 0)
				units++;
			else if (dir < 0 && --cov[u] == 0)
				units++;
		}
	} else {
		units = size;
	}
	if (dir > 0)
		array_push(&p->counted, d);
	int delta = dir * (int)units;
	if (half)
		p->cur.half = (unsigned)((int)p->cur.half + delta);
	if (!half || p->c->merged)
		p->cur.full = (unsigned)((int)p->cur.full + delta);
	if (p->cur.full > p->max.full)
		p->max.full = p->cur.full;
	if (p->cur.half > p->max.half)
		p->max.half = p->cur.half;
}

/* Does another live member of its merge set overlap `d`? */
static bool shares_units(const struct ir3_register *d)
{
	const struct ir3_merge_set *set = d->merge_set;
	if (!set)
		return false;
	const unsigned short *cov = set->coverage;
	for (unsigned u = d->merge_set_offset; u < d->merge_set_offset + ir3_reg_size(d); u++)
		if (cov[u] > 1)
			return true;
	return false;
}

static struct ir3_pressure calc_pressure(struct ra_ctx *c)
{
	struct pressure_ctx p = { .c = c };
	bool *live = arena_array(c->a, bool, c->ir->ndefs + 1);
	foreach_block(b, c->ir) {
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->ndst; n++)
				if (i->dsts[n]->merge_set && !i->dsts[n]->merge_set->coverage)
					i->dsts[n]->merge_set->coverage =
						arena_array(c->a, unsigned short, i->dsts[n]->merge_set->size);
	}
	foreach_block(b, c->ir) {
		p.cur = (struct ir3_pressure){ 0 };
		/* values still counted at the end of the last block: forget them */
		for (size_t k = 0; k < p.counted.len; k++) {
			struct ir3_register *d = p.counted.data[k];
			if (live[d->name] && d->merge_set)
				memset(d->merge_set->coverage, 0, sizeof(unsigned short) * d->merge_set->size);
			live[d->name] = false;
		}
		p.counted.len = 0;
		BITSET_FOREACH(name, c->live->live_in[b->index], c->live->ndefs) {
			struct ir3_register *d = c->live->defs[name];
			if (d && ir3_ra_def(d)) {
				pressure_add(&p, d, 1);
				live[name] = true;
			}
		}
		/* the inputs and texture prefetch results are all live at the
		 * start, used or not (RA places them all before anything else) */
		struct ir3_instruction *first = b->first;
		while (first && is_start_value(first)) {
			if (ir3_ra_def(first->dsts[0])) {	/* not a shared one */
				pressure_add(&p, first->dsts[0], 1);
				live[first->dsts[0]->name] = true;
			}
			first = first->next;
		}
		for (struct ir3_instruction *i = b->first; i != first; i = i->next)
			if (ir3_ra_def(i->dsts[0]) && (i->dsts[0]->flags & IR3_REG_UNUSED)) {
				pressure_add(&p, i->dsts[0], -1);
				live[i->dsts[0]->name] = false;
			}
		/* a prefetch's source (the barycentrics) may die at it */
		for (struct ir3_instruction *i = b->first; i != first; i = i->next)
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (ir3_ra_src(s) && (s->flags & IR3_REG_FIRST_KILL) && live[s->def->name]) {
					pressure_add(&p, s->def, -1);
					live[s->def->name] = false;
				}
			}
		for (struct ir3_instruction *i = first; i; i = i->next) {
			/* A dying source that shares its registers with another live
			 * value of its merge set frees nothing RA can give the
			 * destination (RA only reuses dying sources that stand alone):
			 * it goes after the destinations are counted. */
			bool deferred = false;
			for (unsigned n = 0; i->opc != OPC_META_PHI && n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (!ir3_ra_src(s) || !(s->flags & IR3_REG_FIRST_KILL) || !live[s->def->name])
					continue;
				if (shares_units(s->def)) {
					deferred = true;
					continue;
				}
				pressure_add(&p, s->def, -1);
				live[s->def->name] = false;
			}
			for (unsigned n = 0; n < i->ndst; n++) {
				struct ir3_register *d = i->dsts[n];
				if (!ir3_ra_def(d))
					continue;
				pressure_add(&p, d, 1);
				live[d->name] = true;
			}
			for (unsigned n = 0; deferred && n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (ir3_ra_src(s) && (s->flags & IR3_REG_FIRST_KILL) && live[s->def->name]) {
					pressure_add(&p, s->def, -1);
					live[s->def->name] = false;
				}
			}
			for (unsigned n = 0; n < i->ndst; n++) {
				struct ir3_register *d = i->dsts[n];
				if (ir3_ra_def(d) && (d->flags & IR3_REG_UNUSED)) {
					pressure_add(&p, d, -1);
					live[d->name] = false;
				}
			}
		}
	}
	array_free(&p.counted);
	return p.max;
}

/* p0.x–p0.w for predicate values, a0.x/a1.x for address values. */
static bool allocate_predicates(struct ir3 *ir, struct ir3_liveness *l, struct strbuf *err)
{
	unsigned n = ir->target->num_predicates;
	foreach_block(b, ir) {
		int owner[4] = { -1, -1, -1, -1 };
		BITSET_FOREACH(name, l->live_in[b->index], l->ndefs) {
			struct ir3_register *d = l->defs[name];
			if (d && (d->flags & IR3_REG_PREDICATE))
				owner[d->num & 3] = (int)name;
		}
		foreach_instr(i, b) {
			for (unsigned k = 0; k < i->nsrc; k++) {
				struct ir3_register *s = i->srcs[k];
				if (!s->def || !(s->def->flags & (IR3_REG_PREDICATE | IR3_REG_ADDR)))
					continue;
				s->num = s->def->num;
				s->flags |= IR3_REG_ASSIGNED;
				if ((s->flags & IR3_REG_FIRST_KILL) && (s->def->flags & IR3_REG_PREDICATE))
					owner[s->num & 3] = -1;
			}
			for (unsigned k = 0; k < i->ndst; k++) {
				struct ir3_register *d = i->dsts[k];
				if (d->flags & IR3_REG_ADDR) {
					d->num = i->opc == OPC_MOVA1;
					d->flags |= IR3_REG_ASSIGNED;
				}
				if (!(d->flags & IR3_REG_PREDICATE) || !(d->flags & IR3_REG_SSA))
					continue;
				unsigned c = 0;
				while (c < n && owner[c] >= 0)
					c++;
				if (c == n) {
					strbuf_addf(err, "predicate register pressure exceeds %u", n);
					return false;
				}
				d->num = c;
				d->flags |= IR3_REG_ASSIGNED;
				if (!(d->flags & IR3_REG_UNUSED))
					owner[c] = (int)d->name;
			}
		}
	}
	return true;
}

/* A compute shader with a barrier must fit all waves of its workgroup. */
static unsigned cs_barrier_limit(struct ir3 *ir, const struct ir3_occupancy *o, unsigned limit)
{
	bool barrier = false;
	foreach_block(b, ir)
		foreach_instr(i, b)
			barrier |= i->opc == OPC_BAR;
	if (ir->stage != STAGE_COMPUTE || !barrier || !ir->target->mergedregs)
		return limit;
	const struct ir3_info *t = ir->target;
	bool dbl = ir3_should_double_threadsize(o, 0);
	unsigned threads = o->local_size[0] * o->local_size[1] * o->local_size[2];
	unsigned per = t->threadsize_base * (dbl ? 2 : 1) * t->wave_granularity;
	unsigned waves = (threads + per - 1) / per;
	unsigned vec4 = t->reg_size_vec4 / (waves * (dbl ? 2 : 1));
	return vec4 * 8 < limit ? vec4 * 8 : limit;
}

/* Liveness, merge sets and kills of the program as it is now. */
static void analyse(struct ra_ctx *c)
{
	ir3_calc_preds(c->ir);
	c->live = ir3_calc_liveness(c->ir, c->a);
	ir3_merge_regs(c->ir, c->live, false);
	ir3_calc_kills(c->ir, c->live, c->a);
}

/* The file spilling must fit: the whole file (or a compute shader's
 * barrier limit), or in the stress mode `ra_limit` 32-bit registers, but
 * never less than spilling can reach. */
static struct ir3_pressure file_limit_of(struct ra_ctx *c, const struct ir3_occupancy *occ,
					 unsigned ra_limit)
{
	struct ir3_pressure lim = { cs_barrier_limit(c->ir, occ, RA_FULL_SIZE), RA_HALF_SIZE };
	if (!ra_limit || !c->ir->target->has_pvtmem)
		return lim;
	struct ir3_pressure least = ir3_spill_min_limit(c->ir, c->live);
	unsigned want = 2 * ra_limit;
	if (want < lim.full)
		lim.full = want > least.full ? want : least.full;
	if (want < lim.half)
		lim.half = want > least.half ? want : least.half;
	return lim;
}

bool ir3_ra(struct ir3 *ir, unsigned branchstack, unsigned ra_limit, struct strbuf *err)
{
	struct arena a = ARENA_INIT;
	struct ra_ctx c = { .ir = ir, .a = &a, .merged = ir->target->mergedregs };
	bool ok = false, spilled = false;

	ir3_create_parallel_copies(ir);
	analyse(&c);

	struct ir3_occupancy occ;
	ir3_occupancy_init(&occ, ir, branchstack);
	struct ir3_pressure max = calc_pressure(&c);
	struct ir3_pressure lim = file_limit_of(&c, &occ, ra_limit);
	bool over = max.full > lim.full || (!c.merged && max.half > lim.half);
	if (over && !ir->target->has_pvtmem) {
		if (max.full > lim.full)
			strbuf_addf(err, "register pressure %u exceeds %u", (max.full + 1) / 2,
				    lim.full / 2);
		else
			strbuf_addf(err, "half register pressure %u exceeds %u", max.half, lim.half);
		goto out;
	}
	if (over) {
		struct ir3_pressure least = ir3_spill_min_limit(ir, c.live);
		if (least.full > lim.full || (!c.merged && least.half > lim.half)) {
			strbuf_addf(err, "register pressure %u exceeds %u even with spilling: "
				    "one instruction needs %u at once", (max.full + 1) / 2, lim.full / 2,
				    (least.full + 1) / 2);
			goto out;
		}
		/* code goes at the end of predecessors: no critical edges */
		ir3_split_critical_edges(ir, true);
		analyse(&c);
		ir3_spill(ir, c.live, lim);
		ir3_calc_preds(ir);
		c.live = ir3_calc_liveness(ir, &a);
		ir3_calc_kills(ir, c.live, &a);
		ir3_merge_regs(ir, c.live, true);
		ir3_calc_kills(ir, c.live, &a);
		max = calc_pressure(&c);
		if (max.full > lim.full || (!c.merged && max.half > lim.half)) {
			strbuf_addf(err, "internal error: pressure %u/%u after spilling, over %u/%u",
				    max.full, max.half, lim.full, lim.half);
			goto out;
		}
		spilled = true;
	}

	/* as Mesa's (spillall too): the file that keeps the occupancy of what
	 * is live, whatever the limit spilling met */
	c.full.size = ir3_target_full_pressure(&occ, max.full);
	if (c.full.size < max.full)
		c.full.size = max.full;
	c.half.size = c.merged ? 0 : RA_HALF_SIZE;
	c.vals = arena_array(&a, struct ra_val, ir->ndefs + 1);
	for (unsigned n = 0; n < ir->ndefs; n++)
		c.vals[n].def = c.live->defs[n];
	c.blocks = arena_array(&a, struct ra_block, ir->nblocks);

	foreach_block(b, ir)
		allocate_block(&c, b);
	if (!allocate_predicates(ir, c.live, err))
		goto out;
	ok = true;
out:
	for (unsigned n = 0; n < ir->nblocks && c.blocks; n++) {
		u64map_release(&c.blocks[n].renames);
		u64map_release(&c.blocks[n].entry);
	}
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->ndst; n++)
				if (i->dsts[n]->merge_set)
					i->dsts[n]->merge_set->coverage = NULL;
	array_free(&c.copies);
	array_free(&c.touched);
	arena_release(&a);
	if (ok && spilled)
		ir3_lower_spill(ir);
	if (ok)
		ir3_lower_copies(ir);
	return ok;
}
