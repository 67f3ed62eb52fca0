/*
 * opt_loop_unroll: complete unrolling of loops with a small known trip
 * count (NIR's simple unrolling; ir3 allows max_unroll_iterations = 32,
 * ../../shared/reference/targets.md §2.1).
 *
 * A loop qualifies when the loop analysis (ir.h, "loop_info") knows an
 * exact trip count n ≤ 32 — its only way out is the break of a simple
 * terminator, it has no continue and no return, and no loop is left
 * inside it unless n is 1 (NIR's has_nested_loop) — and its instructions
 * times n stay under 26 × 32 (Mesa's LOOP_UNROLL_LIMIT × max iterations),
 * unless it is marked `unroll`; never when marked `dont_unroll`.  The part
 * of the body before the terminator runs n + 1 times, the rest n times:
 *
 *	loop {				i0 = 0
 *		i = phi(0, i1)		(i0 < 2 holds)	A(i0)	i1 = i0 + 1
 *		if (i >= 2) break;	=>	(i1 < 2 holds)	A(i1)	i2 = i1 + 1
 *		A(i)			(i2 >= 2: the break)
 *		i1 = i + 1
 *	}
 *
 * The copies are emitted just before the loop, one iteration after the
 * other: header phis take their entry value in the first copy and the
 * previous copy's back-edge value after that; the terminator's branch
 * that does not break is spliced in; nested ifs and loops are rebuilt
 * with cf_insert_if/cf_insert_loop and their phis filled in at the end of
 * each copy, when every block they name exists.  Values the loop hands on
 * (header phis, the part before the terminator) are read from the last
 * copy, and the loop goes.  The copied comparisons fold away later
 * (opt_constant_folding, opt_dce).  Loops are visited innermost first; the
 * analysis is redone after each round of unrolling.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"
#include "compiler/util/array.h"

#define MAX_UNROLL_ITERATIONS 32
#define LOOP_UNROLL_LIMIT 26

struct phi_fixup {
	struct phi_instr *old, *copy;
};

/*
 * The copy of a value of the loop is in its instruction's pass_data (NULL
 * until copied); `inside` marks the loop's values by index.  The loop's
 * blocks are numbered in block->index for `bmap` (block index metadata is
 * gone anyway once the CFG changes).
 */
struct unroll {
	struct function *fn;
	struct cf_loop *loop;
	struct loop_terminator *term;
	bitset_word *inside;		/* values defined in the loop */
	unsigned num_defs;
	struct block **bmap;		/* by local block number: its current copy */
	unsigned num_blocks;
	struct block *cur;		/* where instructions go */
	struct block *pending;		/* the original block whose copy `cur` holds */
	ARRAY(struct phi_fixup) fixups;
};

static struct ssa_def *mapped(struct unroll *u, struct ssa_def *d)
{
	if (d->index < u->num_defs && bitset_test(u->inside, d->index) && d->parent->pass_data)
		return d->parent->pass_data;
	return d;
}

static void map_def(struct unroll *u, struct ssa_def *old, struct ssa_def *copy)
{
	(void)u;
	old->parent->pass_data = copy;
}

/* ---- copying instructions ---- */

static struct ssa_def *mapped_cb(struct ssa_def *d, void *data)
{
	return mapped(data, d);
}

static struct instr *copy_instr(struct unroll *u, struct instr *i)
{
	struct instr *n = instr_clone_shell(i->shader, i);
	instr_clone_srcs(i, n, mapped_cb, u);
	struct ssa_def *d = instr_def(i);
	if (d)
		map_def(u, d, instr_def(n));
	return n;
}

/* A phi of a nested block: one source is a plain value; several make a
 * new phi whose sources are filled in once the whole copy exists. */
static void copy_phi(struct unroll *u, struct phi_instr *phi)
{
	struct ssa_def *single = phi_single_src(phi);
	if (single) {
		map_def(u, &phi->def, mapped(u, single));
		return;
	}
	struct phi_instr *n = phi_instr_create(phi->instr.shader);
	ssa_def_init(&n->instr, &n->def, phi->def.num_components, phi->def.bit_size);
	instr_insert(cursor_after_phis(u->cur), &n->instr);
	map_def(u, &phi->def, &n->def);
	array_push(&u->fixups, ((struct phi_fixup){ phi, n }));
}

static void copy_block(struct unroll *u, struct block *b, bool skip_phis)
{
	foreach_instr(i, b) {
		if (i->type == INSTR_phi) {
			if (!skip_phis)
				copy_phi(u, instr_as_phi(i));
			continue;
		}
		instr_insert(cursor_after_block(u->cur), copy_instr(u, i));
	}
	u->pending = b;
}

static void copy_list(struct unroll *u, struct list *list);

/* The copy of `pending` is the block before a node just inserted. */
static void node_inserted(struct unroll *u, struct cf_node *node)
{
	if (u->pending)
		u->bmap[u->pending->index] = cf_as_block(cf_node_prev(node));
	u->pending = NULL;
}

static void list_done(struct unroll *u)
{
	if (u->pending)
		u->bmap[u->pending->index] = u->cur;
	u->pending = NULL;
}

static void copy_if(struct unroll *u, struct cf_if *nif)
{
	struct cf_if *n = cf_insert_if(cursor_after_block(u->cur), mapped(u, nif->condition.ssa));
	struct block *after = u->cur;
	n->hint = nif->hint;
	node_inserted(u, &n->cf);
	u->cur = cf_if_then_block(n);
	copy_list(u, &nif->then_list);
	u->cur = cf_if_else_block(n);
	copy_list(u, &nif->else_list);
	u->cur = after;
}

static void copy_loop(struct unroll *u, struct cf_loop *loop)
{
	struct cf_loop *n = cf_insert_loop(cursor_after_block(u->cur));
	struct block *after = u->cur;
	n->hint = loop->hint;
	node_inserted(u, &n->cf);
	u->cur = cf_loop_header(n);
	copy_list(u, &loop->body);
	u->cur = after;
}

static void copy_node(struct unroll *u, struct cf_node *n)
{
	switch (n->type) {
	case CF_BLOCK: copy_block(u, cf_as_block(n), false); break;
	case CF_IF: copy_if(u, cf_as_if(n)); break;
	case CF_LOOP: copy_loop(u, cf_as_loop(n)); break;
	default: break;
	}
}

static void copy_list(struct unroll *u, struct list *list)
{
	foreach_cf_node(n, list)
		copy_node(u, n);
	list_done(u);
}

static void fill_phis(struct unroll *u)
{
	for (size_t k = 0; k < u->fixups.len; k++) {
		struct phi_fixup *f = &u->fixups.data[k];
		foreach_phi_src(ps, f->old) {
			struct block *pred = u->bmap[ps->pred->index];
			if (!pred)
				BUG("unroll: a phi names a block that was not copied");
			phi_add_src(f->copy, pred, mapped(u, ps->src.ssa));
		}
	}
	u->fixups.len = 0;
}

/* One copy of the body; `last`: the copy in which the terminator breaks. */
static void copy_iteration(struct unroll *u, bool last)
{
	struct cf_if *term = u->term->nif;
	struct list *stay = u->term->break_in_then ? &term->else_list : &term->then_list;
	foreach_cf_node(n, &u->loop->body) {
		if (n == &term->cf) {
			if (last)
				break;
			copy_list(u, stay);
			continue;
		}
		if (n == &cf_loop_header(u->loop)->cf)
			copy_block(u, cf_as_block(n), true);	/* its phis are mapped */
		else
			copy_node(u, n);
	}
	list_done(u);
	fill_phis(u);
}

/* The loop's values read outside it now read their last copy. */
static void rewrite_outside_uses(struct unroll *u, struct list *list)
{
	foreach_cf_node(n, list) {
		if (n->type == CF_IF) {
			rewrite_outside_uses(u, &cf_as_if(n)->then_list);
			rewrite_outside_uses(u, &cf_as_if(n)->else_list);
			continue;
		}
		if (n->type == CF_LOOP) {
			rewrite_outside_uses(u, &cf_as_loop(n)->body);
			continue;
		}
		foreach_instr(i, cf_as_block(n)) {
			struct ssa_def *def = instr_def(i);
			if (!def)
				continue;
			foreach_use_safe(use, def) {
				struct cf_node *user = use->parent_if ? &use->parent_if->cf
						       : &use->parent_instr->block->cf;
				if (cf_node_is_inside(user, &u->loop->cf))
					continue;
				struct ssa_def *v = mapped(u, def);
				if (v == def)
					v = opt_undef_def(i->shader, def->num_components, def->bit_size);
				src_rewrite(use, v);
			}
		}
	}
}

/* Number the loop's blocks, clear its instructions' copies, mark its values. */
static void prepare_list(struct unroll *u, struct list *list)
{
	foreach_cf_node(n, list) {
		if (n->type == CF_IF) {
			prepare_list(u, &cf_as_if(n)->then_list);
			prepare_list(u, &cf_as_if(n)->else_list);
			continue;
		}
		if (n->type == CF_LOOP) {
			prepare_list(u, &cf_as_loop(n)->body);
			continue;
		}
		struct block *b = cf_as_block(n);
		b->index = u->num_blocks++;
		foreach_instr(i, b) {
			struct ssa_def *def = instr_def(i);
			i->pass_data = NULL;
			if (def && def->index < u->num_defs)
				bitset_set(u->inside, def->index);
		}
	}
}

static struct block *unroll(struct cf_loop *loop)
{
	struct block *before = cf_as_block(cf_node_prev(&loop->cf));
	struct block *exit = cf_as_block(cf_node_next(&loop->cf));
	struct block *header = cf_loop_header(loop), *latch = cf_list_last_block(&loop->body);
	struct function *fn = before->fn;
	struct unroll u = { .fn = fn, .loop = loop, .term = loop->info->limiting };
	int64_t trips = loop->info->trip_count;

	u.num_defs = fn->ssa_alloc;
	u.inside = xcalloc(BITSET_WORDS(u.num_defs) + 1, sizeof(*u.inside));
	prepare_list(&u, &loop->body);
	u.bmap = xcalloc(u.num_blocks, sizeof(*u.bmap));
	u.cur = before;

	/* header phis: entry values first, then each copy's back-edge values */
	unsigned num_phis = 0;
	foreach_instr(i, header)
		num_phis += i->type == INSTR_phi;
	struct ssa_def **next = xcalloc(num_phis ? num_phis : 1, sizeof(*next));
	unsigned k = 0;
	foreach_instr(i, header) {
		if (i->type != INSTR_phi)
			break;
		struct phi_src *entry = phi_get_src(instr_as_phi(i), before);
		next[k++] = entry->src.ssa;
	}
	for (int64_t it = 0; it <= trips; it++) {
		k = 0;
		foreach_instr(i, header) {
			if (i->type != INSTR_phi)
				break;
			map_def(&u, &instr_as_phi(i)->def, next[k++]);
		}
		copy_iteration(&u, it == trips);
		if (it == trips)
			break;
		k = 0;
		foreach_instr(i, header) {
			if (i->type != INSTR_phi)
				break;
			next[k++] = mapped(&u, phi_get_src(instr_as_phi(i), latch)->src.ssa);
		}
	}
	free(next);

	/* the exit's phis have one source, from the terminator's break */
	foreach_instr_safe(i, exit) {
		if (i->type != INSTR_phi)
			break;
		struct ssa_def *v = phi_single_src(instr_as_phi(i));
		if (!v)
			BUG("unroll: an exit phi with several sources");
		ssa_def_rewrite_uses(instr_def(i), mapped(&u, v));
		instr_remove(i);
	}
	rewrite_outside_uses(&u, &loop->body);
	struct block *merged = cf_remove(&loop->cf);
	array_free(&u.fixups);
	free(u.inside);
	free(u.bmap);
	return merged;
}

/* Whether `list` holds a loop at any depth. */
static bool has_loop(struct list *list)
{
	for (struct cf_node *n = cf_node_of(list->head.next); &n->link != &list->head;
	     n = cf_node_next(n)) {
		if (n->type == CF_LOOP)
			return true;
		if (n->type == CF_IF && (has_loop(&cf_as_if(n)->then_list) ||
					 has_loop(&cf_as_if(n)->else_list)))
			return true;
		if (!cf_node_next(n))
			break;
	}
	return false;
}

static bool can_unroll(struct cf_loop *loop)
{
	struct loop_info *info = loop->info;
	if (loop->hint == LOOP_HINT_dont_unroll || !info->exact_trip_count || info->has_continue ||
	    info->trip_count < 0 || info->trip_count > MAX_UNROLL_ITERATIONS)
		return false;
	/* a loop that still holds a loop is not unrolled unless it runs once
	 * (nir_opt_loop_unroll's process_loops: has_nested_loop) */
	if (info->trip_count != 1 && has_loop(&loop->body))
		return false;
	if (loop->hint != LOOP_HINT_unroll &&
	    (uint64_t)info->num_instrs * (uint64_t)info->trip_count >
	    (uint64_t)LOOP_UNROLL_LIMIT * MAX_UNROLL_ITERATIONS)
		return false;
	/* the analysis found the terminator at the top of the body */
	return info->limiting && info->limiting->nif->cf.parent == &loop->cf;
}

/*
 * Unroll the loops of `list` that qualify, innermost first, with the loop
 * analysis made before: a loop with an unrolled loop inside waits for the
 * next round, when the analysis is redone.  Unrolling a loop touches only
 * its own place, so the analysis of the others stays true.  Returns
 * whether it unrolled anything.
 */
static bool unroll_list(struct list *list)
{
	bool progress = false;
	for (struct cf_node *n = cf_node_of(list->head.next), *next; &n->link != &list->head;
	     n = next) {
		next = cf_node_next(n);
		if (n->type == CF_IF) {
			progress |= unroll_list(&cf_as_if(n)->then_list);
			progress |= unroll_list(&cf_as_if(n)->else_list);
		} else if (n->type == CF_LOOP) {
			struct cf_loop *loop = cf_as_loop(n);
			if (unroll_list(&loop->body)) {
				progress = true;
			} else if (can_unroll(loop)) {
				/* the blocks around the loop merged into one */
				next = cf_node_next(&unroll(loop)->cf);
				progress = true;
			}
		}
		if (!next)
			break;
	}
	return progress;
}

bool opt_loop_unroll(struct shader *s)
{
	bool progress = false;
	for (;;) {
		metadata_require(s->fn, META_LOOP_ANALYSIS);
		if (!unroll_list(&s->fn->body))
			break;
		progress = true;
	}
	return shader_progress(s, progress, 0);
}
