/*
 * opt_load_store_vectorize: adjacent buffer accesses of one block become
 * one access of several components, as Mesa's nir_opt_load_store_vectorize
 * (which ir3_optimize_loop runs for UBOs and SSBOs), the backend saying by a
 * callback which combined accesses it can execute (ir3:
 * ir3_nir_should_vectorize_mem).
 *
 *	32 %a = @load_ssbo %s, %o            32x2 %v = @load_ssbo %s, %o
 *	32 %b = @load_ssbo %s, %o4    →      (uses of %a: %v.x, of %b: %v.y)
 *	   (%o4 = iadd %o, 4)
 *
 *	@store_ssbo %x, %s, %o              @store_ssbo vec2(%x, %y), %s, %o
 *	@store_ssbo %y, %s, %o4       →      (at the second store's place)
 *
 * Two accesses combine when they are of one kind (load_ubo, load_ssbo,
 * store_ssbo) and bit size, of one buffer (the same slot value), at offsets
 * of one base value plus constants, the second's bytes following the
 * first's, each whole (a store's write mask its components from the
 * first), and nothing between them may touch the memory moved over (Mesa's
 * may_alias): for loads, a store or atomic to an SSBO or a barrier, unless
 * a load is can_reorder (nothing in the shader writes it); for stores, any
 * such access that may overlap the first store (the same buffer at
 * overlapping constant offsets, another buffer unless both are restrict, a
 * load unless can_reorder), and anything with a side effect other than an
 * SSBO access (a barrier, a discard: moving a store down past one would
 * drop it).  A combined load goes to the first load's place, a combined
 * store to the second store's.  Different offset bases, holes and overlaps
 * are left alone (Mesa combines overlapping loads too).
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"
#include "compiler/util/error.h"

#include <stdlib.h>

/* One access of a block, as the pass sees it. */
struct access {
	struct intrinsic_instr *intr;	/* NULL: merged into another */
	bool store;
	struct ssa_def *slot;		/* the buffer */
	struct ssa_def *base;		/* offset = base + off; NULL: constant */
	int64_t off;
	unsigned bytes, n;		/* component size and count */
};

/* Up to how many accesses later a partner is looked for (keeps the pass
 * linear on a block of thousands of stores). */
#define WINDOW 32

static bool is_access(const struct intrinsic_instr *intr)
{
	return intr->op == INTR_load_ubo || intr->op == INTR_load_ssbo || intr->op == INTR_store_ssbo;
}

static struct src *slot_src(struct intrinsic_instr *intr)
{
	return &intr->src[intr->op == INTR_store_ssbo ? 1 : 0];
}

static struct src *offset_src(struct intrinsic_instr *intr)
{
	return &intr->src[intr->op == INTR_store_ssbo ? 2 : 1];
}

static unsigned access_of(const struct intrinsic_instr *intr)
{
	return intr->op == INTR_load_ubo ? 0 : (unsigned)intrinsic_get(intr, INTR_IDX_access);
}

static bool describe(struct intrinsic_instr *intr, struct access *a)
{
	a->intr = intr;
	a->store = intr->op == INTR_store_ssbo;
	struct ssa_def *v = a->store ? intr->src[0].ssa : &intr->def;
	a->bytes = v->bit_size / 8;
	a->n = a->store ? intr->num_components : v->num_components;
	if (!a->bytes || a->n > 4)
		return false;
	if (a->store && (unsigned)intrinsic_get(intr, INTR_IDX_write_mask) != (1u << a->n) - 1)
		return false;
	if ((access_of(intr) & ACCESS_VOLATILE))
		return false;
	a->slot = slot_src(intr)->ssa;
	opt_split_offset(offset_src(intr)->ssa, &a->base, &a->off);
	return true;
}

/* Whether the bytes [off, off + len) of `a`'s buffer and base may be those
 * `intr` touches (an SSBO access of the block). */
static bool may_alias(const struct access *a, struct intrinsic_instr *intr)
{
	unsigned acc = access_of(intr);
	if (intr->op == INTR_load_ssbo && (acc & ACCESS_CAN_REORDER))
		return false;
	struct access b;
	bool described = is_access(intr) && describe(intr, &b);
	if (!described)
		return true;	/* an atomic: somewhere in some buffer */
	if (!opt_same_scalar(a->slot, b.slot))
		return !((access_of(a->intr) & ACCESS_RESTRICT) && (acc & ACCESS_RESTRICT));
	if (a->base != b.base)
		return true;
	int64_t a_end = a->off + (int64_t)(a->n * a->bytes), b_end = b.off + (int64_t)(b.n * b.bytes);
	return a->off < b_end && b.off < a_end;
}

/* Whether moving the access `a` from its place to `to` (a load up, a
 * store down) passes over an instruction that may change what it sees or
 * does.  `from` and `to` are in the same block, `from` first. */
static bool conflict_between(const struct access *a, struct instr *from, struct instr *to)
{
	/* nothing writes a UBO or a can_reorder buffer: a load of one moves freely */
	if (!a->store && (a->intr->op == INTR_load_ubo || (access_of(a->intr) & ACCESS_CAN_REORDER)))
		return false;
	for (struct instr *i = instr_next(from); i && i != to; i = instr_next(i)) {
		if (i->type != INSTR_intrinsic)
			continue;
		struct intrinsic_instr *x = instr_as_intrinsic(i);
		bool ssbo_write = x->op == INTR_store_ssbo || x->op == INTR_ssbo_atomic ||
				  x->op == INTR_ssbo_atomic_swap;
		if (!a->store) {
			if (x->op == INTR_barrier || (ssbo_write && may_alias(a, x)))
				return true;
			continue;
		}
		if (ssbo_write || x->op == INTR_load_ssbo) {
			if (may_alias(a, x))
				return true;
			continue;
		}
		if (intrinsic_infos[x->op].flags & INTR_HAS_SIDE_EFFECTS)
			return true;
	}
	return false;
}

static unsigned align_of_offset(struct intrinsic_instr *intr, int64_t delta, unsigned *offset)
{
	unsigned mul = (unsigned)intrinsic_get(intr, INTR_IDX_align_mul);
	unsigned off = (unsigned)intrinsic_get(intr, INTR_IDX_align_offset);
	if (!mul)
		mul = 1;
	*offset = (unsigned)(((int64_t)off + delta) & (int64_t)(mul - 1));
	return mul;
}

static struct ssa_def *offset_value(struct builder *b, const struct access *a, int64_t off)
{
	if (!a->base)
		return b_imm_int(b, off);
	return off ? b_iadd(b, a->base, b_imm_int(b, off)) : a->base;
}

static struct ssa_def *channels(struct builder *b, struct ssa_def *v, unsigned first, unsigned n)
{
	unsigned sw[4];
	for (unsigned k = 0; k < n; k++)
		sw[k] = first + k;
	return b_swizzle(b, v, sw, n);
}

/* The bytes two UBO loads at dynamic offsets may reach, together (as
 * Mesa's vectorizer merges range_base and range); unknown if either is. */
static void ubo_range_union(const struct intrinsic_instr *x, const struct intrinsic_instr *y,
			    int32_t *base, int32_t *range)
{
	int64_t xb = intrinsic_get(x, INTR_IDX_range_base), xn = intrinsic_get(x, INTR_IDX_range);
	int64_t yb = intrinsic_get(y, INTR_IDX_range_base), yn = intrinsic_get(y, INTR_IDX_range);
	*base = *range = 0;
	if (!xn || !yn)
		return;
	int64_t lo = xb < yb ? xb : yb, hi = xb + xn > yb + yn ? xb + xn : yb + yn;
	*base = (int32_t)lo;
	*range = (int32_t)(hi - lo);
}

/* Combine x (earlier in the block) and y; the result replaces x (loads) or
 * y (stores); the other is set dead. */
static bool combine(struct shader *s, struct access *x, struct access *y,
		    const struct vectorize_mem_options *o)
{
	if (x->store != y->store || x->intr->op != y->intr->op || x->bytes != y->bytes ||
	    !opt_same_scalar(x->slot, y->slot) || x->base != y->base)
		return false;
	struct access *lo = x->off <= y->off ? x : y, *hi = lo == x ? y : x;
	if (lo->off + (int64_t)(lo->n * lo->bytes) != hi->off)
		return false;
	unsigned n = lo->n + hi->n, align_off;
	unsigned align_mul = align_of_offset(lo->intr, 0, &align_off);
	if (n > 4 || !o->allowed(lo->intr, lo->bytes * 8, n, align_mul, align_off, o->data))
		return false;
	struct access *moved = x->store ? x : y;
	if (conflict_between(moved, &x->intr->instr, &y->intr->instr))
		return false;

	struct access *keep = x->store ? y : x;
	struct builder b;
	builder_init(&b, s, cursor_before_instr(&keep->intr->instr));
	struct ssa_def *at = offset_value(&b, lo, lo->off);
	unsigned acc = access_of(x->intr) & access_of(y->intr);
	struct intrinsic_instr *nw;
	if (x->store) {
		struct ssa_def *c[4];
		for (unsigned k = 0; k < lo->n; k++)
			c[k] = b_channel(&b, lo->intr->src[0].ssa, k);
		for (unsigned k = 0; k < hi->n; k++)
			c[lo->n + k] = b_channel(&b, hi->intr->src[0].ssa, k);
		struct ssa_def *v = b_vec(&b, c, n);
		b_intr(&b, store_ssbo, n, 0, (v, lo->slot, at), .write_mask = (int32_t)((1u << n) - 1),
		       .access = (int32_t)acc, .align_mul = (int32_t)align_mul,
		       .align_offset = (int32_t)align_off);
		nw = instr_as_intrinsic(instr_prev(&keep->intr->instr));
	} else {
		struct ssa_def *v;
		if (x->intr->op == INTR_load_ubo) {
			int32_t rb, rn;
			ubo_range_union(x->intr, y->intr, &rb, &rn);
			v = b_intr(&b, load_ubo, n, lo->bytes * 8, (lo->slot, at),
				   .align_mul = (int32_t)align_mul, .align_offset = (int32_t)align_off,
				   .range_base = rb, .range = rn);
		} else
			v = b_intr(&b, load_ssbo, n, lo->bytes * 8, (lo->slot, at), .access = (int32_t)acc,
				   .align_mul = (int32_t)align_mul, .align_offset = (int32_t)align_off);
		nw = instr_as_intrinsic(v->parent);
		ssa_def_rewrite_uses(&lo->intr->def, channels(&b, v, 0, lo->n));
		ssa_def_rewrite_uses(&hi->intr->def, channels(&b, v, lo->n, hi->n));
	}
	instr_remove(&x->intr->instr);
	instr_remove(&y->intr->instr);
	struct access *dead = x->store ? x : y;
	dead->intr = NULL;
	describe(nw, keep);
	return true;
}

static bool vectorize_block(struct shader *s, struct block *blk, const struct vectorize_mem_options *o)
{
	struct access *acc = NULL;
	size_t n = 0, cap = 0;
	foreach_instr(in, blk) {
		if (in->type != INSTR_intrinsic || !is_access(instr_as_intrinsic(in)))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			acc = xrealloc(acc, cap * sizeof(*acc));
		}
		if (describe(instr_as_intrinsic(in), &acc[n]))
			n++;
	}
	bool progress = false;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; acc[i].intr && j < n && j <= i + WINDOW; j++) {
			if (!acc[j].intr || !combine(s, &acc[i], &acc[j], o))
				continue;
			progress = true;
			if (!acc[i].intr)
				break;		/* a store: it lives on as j */
			j = i;			/* a load: try the others again */
		}
	}
	free(acc);
	return progress;
}

bool opt_load_store_vectorize(struct shader *s, const struct vectorize_mem_options *o)
{
	bool progress = false;
	foreach_block(blk, s->fn)
		progress |= vectorize_block(s, blk, o);
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
