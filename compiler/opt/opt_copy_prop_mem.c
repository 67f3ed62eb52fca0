/*
 * opt_copy_prop_mem: a load of SSBO or shared memory that an earlier load
 * or store of the same bytes already has, with nothing between that may
 * write them, reads that value instead — what Mesa's nir_opt_copy_prop_vars
 * does for buffer and shared variables in ir3_optimize_loop
 * (../../shared/reference/targets.md §2.1), here on the lowered accesses:
 *
 *	32x3 %a = @load_ssbo %s, %o		32x3 %a = @load_ssbo %s, %o
 *	@store_ssbo %v, %t, %p		=>	@store_ssbo %v, %t, %p
 *	if %c {					if %c {
 *		32x3 %b = @load_ssbo %s, %o		(uses of %b read %a)
 *
 *	@store_ssbo %v, %s, %o			@store_ssbo %v, %s, %o
 *	32x4 %b = @load_ssbo %s, %o	=>	(uses of %b read %v)
 *
 * when %t's buffer cannot be %s's.  Which accesses may touch the same bytes
 * is nir_compare_deref_paths' answer for buffer variables: accesses of one
 * buffer (the same slot value) alias unless their offsets, seen as one base
 * value plus constants, give disjoint byte ranges; accesses of two buffers
 * may alias unless either is restrict; shared memory is one buffer.  An
 * atomic may write its whole buffer; a barrier that acquires the memory
 * kinds it names makes every earlier value of them stale; volatile
 * accesses are never reused.  Only exact matches are reused (the same
 * slot, offset, components and bit size; a store whose write mask covers
 * every component).
 *
 * The walk follows the structured CFG as copy_prop_vars does: a branch
 * starts from what is known before its if, and after the if what either
 * branch may have written is forgotten (values found inside a branch do
 * not dominate what follows); a loop body starts from what is known before
 * the loop minus anything the loop may write, which is also what remains
 * after it.  Reused values always dominate their new readers.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"
#include "compiler/util/array.h"

/* A value the memory is known to hold. */
struct known {
	struct opt_mem_range r;
	struct ssa_def *offset;		/* the access's offset source */
	unsigned num_components, bit_size;
	struct ssa_def *value;
};

typedef ARRAY(struct known) known_set;
typedef ARRAY(struct opt_mem_range) range_list;

static void forget(known_set *set, const struct opt_mem_range *w)
{
	size_t n = 0;
	for (size_t i = 0; i < set->len; i++)
		if (!opt_mem_may_alias(w, &set->data[i].r))
			set->data[n++] = set->data[i];
	set->len = n;
}

/* A barrier acquiring `modes` makes earlier values of them stale. */
static void forget_modes(known_set *set, bool ssbo, bool shared)
{
	size_t n = 0;
	for (size_t i = 0; i < set->len; i++) {
		bool is_ssbo = set->data[i].r.slot != NULL;
		if (!(is_ssbo ? ssbo : shared))
			set->data[n++] = set->data[i];
	}
	set->len = n;
}

static const struct known *lookup(const known_set *set, const struct opt_mem_range *r,
				  struct ssa_def *offset, unsigned nc, unsigned bits)
{
	for (size_t i = set->len; i-- > 0;) {
		const struct known *k = &set->data[i];
		if (k->num_components == nc && k->value->bit_size == bits && opt_mem_same_buffer(&k->r, r) &&
		    (k->offset == offset || (k->r.base == r->base && k->r.off == r->off)))
			return k;
	}
	return NULL;
}

struct walk {
	range_list writes;	/* what the current walk may write, for its parent */
	bool barrier_ssbo, barrier_shared;
	bool scan;		/* only collect the writes (a loop, before its body) */
	bool progress;
};

static void note_write(struct walk *w, known_set *set, const struct opt_mem_range *r)
{
	forget(set, r);
	array_push(&w->writes, *r);
}

static void visit_intrinsic(struct walk *w, known_set *set, struct intrinsic_instr *intr)
{
	if (intr->op == INTR_barrier || intr->op == INTR_begin_invocation_interlock ||
	    intr->op == INTR_end_invocation_interlock) {
		bool acquire = intr->op != INTR_barrier ||
			       (intrinsic_get(intr, INTR_IDX_memory_semantics) & SEMANTICS_ACQUIRE);
		unsigned modes = intr->op == INTR_barrier ?
				 (unsigned)intrinsic_get(intr, INTR_IDX_memory_modes) : ~0u;
		if (acquire) {
			bool ssbo = modes & (1u << MODE_BIT_ssbo), shared = modes & (1u << MODE_BIT_shared);
			forget_modes(set, ssbo, shared);
			w->barrier_ssbo |= ssbo;
			w->barrier_shared |= shared;
		}
		return;
	}
	if (!opt_is_ssbo_access(intr->op) && !opt_is_shared_access(intr->op))
		return;
	bool ssbo = opt_is_ssbo_access(intr->op);
	unsigned access = ssbo ? (unsigned)intrinsic_get(intr, INTR_IDX_access) : 0;
	struct opt_mem_range r;
	struct ssa_def *offset = opt_mem_describe(intr, &r);
	if (opt_is_mem_load(intr->op)) {
		if (w->scan || (access & ACCESS_VOLATILE))
			return;
		const struct known *k = lookup(set, &r, offset, intr->def.num_components,
					       intr->def.bit_size);
		if (k) {
			ssa_def_rewrite_uses(&intr->def, k->value);
			instr_remove(&intr->instr);
			w->progress = true;
			return;
		}
		array_push(set, ((struct known){ r, offset, intr->def.num_components,
						 intr->def.bit_size, &intr->def }));
		return;
	}
	note_write(w, set, &r);
	if (w->scan || !opt_is_mem_store(intr->op) || (access & ACCESS_VOLATILE))
		return;
	struct ssa_def *v = intr->src[0].ssa;
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	if (mask == (1u << v->num_components) - 1)
		array_push(set, ((struct known){ r, offset, v->num_components, v->bit_size, v }));
}

static void walk_list(struct walk *w, known_set *set, struct list *list);

/* What a nested walk wrote, forgotten in `set` and passed up. */
static void apply_nested(struct walk *w, known_set *set, struct walk *inner)
{
	for (size_t i = 0; i < inner->writes.len; i++)
		note_write(w, set, &inner->writes.data[i]);
	forget_modes(set, inner->barrier_ssbo, inner->barrier_shared);
	w->barrier_ssbo |= inner->barrier_ssbo;
	w->barrier_shared |= inner->barrier_shared;
	w->progress |= inner->progress;
	array_free(&inner->writes);
}

/* A branch or loop body, from a copy of what is known before it. */
static void walk_nested(const struct walk *w, const known_set *from, struct list *list,
			struct walk *inner)
{
	known_set copy = { 0 };
	for (size_t i = 0; i < from->len; i++)
		array_push(&copy, from->data[i]);
	*inner = (struct walk){ .scan = w->scan };
	walk_list(inner, &copy, list);
	array_free(&copy);
}

static void walk_list(struct walk *w, known_set *set, struct list *list)
{
	foreach_cf_node(n, list) {
		switch (n->type) {
		case CF_BLOCK:
			foreach_instr_safe(i, cf_as_block(n))
				if (i->type == INSTR_intrinsic)
					visit_intrinsic(w, set, instr_as_intrinsic(i));
			break;
		case CF_IF: {
			struct walk then_w, else_w;
			walk_nested(w, set, &cf_as_if(n)->then_list, &then_w);
			walk_nested(w, set, &cf_as_if(n)->else_list, &else_w);
			apply_nested(w, set, &then_w);
			apply_nested(w, set, &else_w);
			break;
		}
		case CF_LOOP: {
			struct walk scan = { .scan = true }, body;
			if (w->scan) {
				/* collecting writes needs one walk of the body,
				 * not two per level of nesting (2^depth walks) */
				walk_nested(w, set, &cf_as_loop(n)->body, &body);
				apply_nested(w, set, &body);
				break;
			}
			/* what the loop may write is stale in its body already */
			known_set none = { 0 };
			walk_list(&scan, &none, &cf_as_loop(n)->body);
			array_free(&none);
			apply_nested(w, set, &scan);
			walk_nested(w, set, &cf_as_loop(n)->body, &body);
			apply_nested(w, set, &body);
			break;
		}
		default:
			break;
		}
	}
}

bool opt_copy_prop_mem(struct shader *s)
{
	struct walk w = { 0 };
	known_set set = { 0 };
	walk_list(&w, &set, &s->fn->body);
	array_free(&set);
	array_free(&w.writes);
	return shader_progress(s, w.progress, META_CONTROL_FLOW);
}
