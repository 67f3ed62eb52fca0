/*
 * opt_dead_write_mem: a store of SSBO or shared memory that a later store
 * of the same block overwrites, with nothing between that may read those
 * bytes, is removed — Mesa's nir_opt_dead_write_vars for buffer and shared
 * variables, which runs in ir3_optimize_loop after copy_prop_vars
 * (../../shared/reference/targets.md §2.1), here on the lowered accesses:
 *
 *	@store_ssbo %a, %s, %o			(removed)
 *	32 %x = @load_ssbo %s, %p	=>	32 %x = @load_ssbo %s, %p
 *	@store_ssbo %b, %s, %o			@store_ssbo %b, %s, %o
 *
 * when %p's bytes cannot be %o's (opt_mem_may_alias).  Without a barrier
 * no other invocation may rely on seeing the first value.  What makes a
 * pending store used: a load or atomic that may read its bytes, a barrier
 * that releases its kind of memory, and — conservatively — any other
 * intrinsic that is not reorderable (a global or image access may reach the
 * same memory; a discard or demote stops the later store).  A volatile
 * store is never removed nor removes one; a partial write mask removes an
 * earlier store only when it covers the components that one wrote.  As
 * Mesa's, the pass looks within one block.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"
#include "compiler/util/array.h"

struct pending {
	struct opt_mem_range r;		/* the bytes it writes, first to last */
	struct intrinsic_instr *store;
};

typedef ARRAY(struct pending) pending_list;

/* The bytes a store writes, from its first written component to its last;
 * whether it writes every component.  False with r->bytes 0: none. */
static bool written(struct intrinsic_instr *intr, struct opt_mem_range *r)
{
	opt_mem_describe(intr, r);
	struct ssa_def *v = intr->src[0].ssa;
	unsigned all = (1u << v->num_components) - 1;
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask) & all;
	if (!mask) {
		r->bytes = 0;
		return false;
	}
	unsigned bytes = v->bit_size / 8, first = (unsigned)__builtin_ctz(mask);
	unsigned last = 31 - (unsigned)__builtin_clz(mask);
	r->off += first * bytes;
	r->bytes = (last + 1 - first) * bytes;
	return mask == all;
}

/* Whether the store of `w`, every component written, covers `p`. */
static bool covers(const struct opt_mem_range *w, const struct opt_mem_range *p)
{
	return opt_mem_same_buffer(w, p) && !w->whole && !p->whole && w->base == p->base &&
	       w->off <= p->off && p->off + (int64_t)p->bytes <= w->off + (int64_t)w->bytes;
}

/* Forget the pending stores `read` may read: they are used. */
static void drop_read(pending_list *l, const struct opt_mem_range *read)
{
	size_t n = 0;
	for (size_t i = 0; i < l->len; i++)
		if (!opt_mem_may_alias(&l->data[i].r, read))
			l->data[n++] = l->data[i];
	l->len = n;
}

static void drop_modes(pending_list *l, bool ssbo, bool shared)
{
	size_t n = 0;
	for (size_t i = 0; i < l->len; i++)
		if (!(l->data[i].r.slot ? ssbo : shared))
			l->data[n++] = l->data[i];
	l->len = n;
}

static bool visit(pending_list *l, struct intrinsic_instr *intr)
{
	if (intr->op == INTR_barrier) {
		if (intrinsic_get(intr, INTR_IDX_memory_semantics) & SEMANTICS_RELEASE) {
			unsigned modes = (unsigned)intrinsic_get(intr, INTR_IDX_memory_modes);
			drop_modes(l, modes & (1u << MODE_BIT_ssbo), modes & (1u << MODE_BIT_shared));
		}
		return false;
	}
	if (!opt_is_ssbo_access(intr->op) && !opt_is_shared_access(intr->op)) {
		if (!(intrinsic_infos[intr->op].flags & INTR_CAN_REORDER))
			l->len = 0;
		return false;
	}
	struct opt_mem_range r;
	if (!opt_is_mem_store(intr->op)) {
		opt_mem_describe(intr, &r);
		drop_read(l, &r);	/* a load, or an atomic: reads (all of) it */
		return false;
	}
	unsigned access = opt_is_ssbo_access(intr->op) ? (unsigned)intrinsic_get(intr, INTR_IDX_access)
						       : 0;
	if (access & ACCESS_VOLATILE)
		return false;
	bool whole = written(intr, &r);
	if (!r.bytes)
		return false;
	bool progress = false;
	size_t n = 0;
	for (size_t i = 0; i < l->len; i++) {
		if (whole && covers(&r, &l->data[i].r)) {
			instr_remove(&l->data[i].store->instr);
			progress = true;
		} else {
			l->data[n++] = l->data[i];
		}
	}
	l->len = n;
	array_push(l, ((struct pending){ r, intr }));
	return progress;
}

bool opt_dead_write_mem(struct shader *s)
{
	bool progress = false;
	pending_list l = { 0 };
	foreach_block(blk, s->fn) {
		l.len = 0;
		foreach_instr_safe(i, blk)
			if (i->type == INSTR_intrinsic)
				progress |= visit(&l, instr_as_intrinsic(i));
	}
	array_free(&l);
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
