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
 * A loop whose limiting terminator gives only the latest trip (`while (h <
 * r && i < 32)`: at most 32) — alone, or as one of two terminators with
 * the other exact — is unrolled as nir_opt_loop_unroll's complex_unroll:
 * the terminator whose count is not exact becomes, in every copy, an if
 * whose staying branch holds the rest of the copies:
 *
 *	loop {				if (h0 < r && 0 < 32) {
 *		h = phi(h0, h1)			A(0)
 *		i = phi(0, i1)			if (h1 < r && 1 < 32) {
 *		if (!(h < r && i < 32))			A(1) …
 *			break;	   =>		}
 *		A(i)				i' = phi(…, 1)
 *		h1 = …; i1 = i + 1	}
 *	}				i'' = phi(i', 0)
 *
 * and the values the loop hands on meet in phis where the ifs end, from
 * the copy that left.
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
 * A value the loop hands on: a phi of the block after the loop, or a value
 * of the loop read after it.  Its value as the loop leaves by a terminator
 * is, in the copy that leaves there, the phi's source from that break or
 * the value itself.
 */
struct live_out {
	struct phi_instr *exit_phi;	/* or NULL: */
	struct ssa_def *def;		/* a value of the loop read after it */
};

/* An if made from the nesting terminator in one copy: the copies after it
 * are in its staying branch; `leaving` holds the live-outs as the loop
 * leaves there. */
struct nest_frame {
	struct cf_if *nif;
	bool stay_in_then;
	struct ssa_def **leaving;
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
	struct loop_terminator *term;	/* the limiting one: the last copy leaves there */
	struct loop_terminator *nest;	/* the one that nests the copies, or NULL */
	bitset_word *inside;		/* values defined in the loop */
	unsigned num_defs;
	struct block **bmap;		/* by local block number: its current copy */
	unsigned num_blocks;
	struct block *cur;		/* where instructions go */
	struct block *pending;		/* the original block whose copy `cur` holds */
	ARRAY(struct phi_fixup) fixups;
	ARRAY(struct live_out) outs;
	ARRAY(struct nest_frame) frames;
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

static struct list *stay_list(struct loop_terminator *t)
{
	return t->break_in_then ? &t->nif->else_list : &t->nif->then_list;
}

static struct block *break_block(struct loop_terminator *t)
{
	return cf_list_first_block(t->break_in_then ? &t->nif->then_list : &t->nif->else_list);
}

static struct loop_terminator *terminator_of(struct unroll *u, struct cf_node *n)
{
	struct loop_info *info = u->loop->info;
	for (unsigned k = 0; k < info->num_terminators; k++)
		if (&info->terminators[k].nif->cf == n)
			return &info->terminators[k];
	return NULL;
}

/* A live-out's value, in the current copy, as the loop leaves by `t`. */
static struct ssa_def *leaving_value(struct unroll *u, struct live_out *o, struct loop_terminator *t)
{
	struct ssa_def *v = o->exit_phi ? phi_get_src(o->exit_phi, break_block(t))->src.ssa : o->def;
	struct ssa_def *m = mapped(u, v);
	if (m == v && v->index < u->num_defs && bitset_test(u->inside, v->index))
		return opt_undef_def(u->fn->shader, v->num_components, v->bit_size);
	return m;
}

/* The nesting terminator in a copy that goes on: an if whose staying
 * branch takes the rest of the copies. */
static void nest(struct unroll *u, struct loop_terminator *t)
{
	struct cf_if *n = cf_insert_if(cursor_after_block(u->cur), mapped(u, t->nif->condition.ssa));
	n->hint = t->nif->hint;
	node_inserted(u, &n->cf);
	struct nest_frame f = { n, !t->break_in_then, xcalloc(u->outs.len + 1, sizeof(*f.leaving)) };
	for (size_t k = 0; k < u->outs.len; k++)
		f.leaving[k] = leaving_value(u, &u->outs.data[k], t);
	array_push(&u->frames, f);
	u->cur = f.stay_in_then ? cf_if_then_block(n) : cf_if_else_block(n);
	copy_list(u, stay_list(t));
}

/* One copy of the body; `last`: the copy in which the limiting terminator
 * breaks.  Other terminators stay (their counts are larger) or nest. */
static void copy_iteration(struct unroll *u, bool last)
{
	foreach_cf_node(n, &u->loop->body) {
		struct loop_terminator *t = terminator_of(u, n);
		if (t == u->term && last)
			break;
		if (t && t == u->nest) {
			nest(u, t);
			continue;
		}
		if (t) {
			copy_list(u, stay_list(t));
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

/*
 * Where the loop was left, each live-out's value: from the last copy, then
 * out through the nested ifs, innermost first, a phi wherever the value
 * differs between staying and leaving.  Then its readers read that.
 */
static void hand_on(struct unroll *u)
{
	struct ssa_def **cur = xcalloc(u->outs.len + 1, sizeof(*cur));
	for (size_t k = 0; k < u->outs.len; k++)
		cur[k] = leaving_value(u, &u->outs.data[k], u->term);
	for (size_t j = u->frames.len; j-- > 0;) {
		struct nest_frame *f = &u->frames.data[j];
		struct block *merge = cf_as_block(cf_node_next(&f->nif->cf));
		struct block *then_end = cf_list_last_block(&f->nif->then_list);
		struct block *else_end = cf_list_last_block(&f->nif->else_list);
		for (size_t k = 0; k < u->outs.len; k++) {
			if (cur[k] == f->leaving[k])
				continue;
			struct phi_instr *phi = phi_instr_create(u->fn->shader);
			ssa_def_init(&phi->instr, &phi->def, cur[k]->num_components, cur[k]->bit_size);
			instr_insert(cursor_after_phis(merge), &phi->instr);
			phi_add_src(phi, then_end, f->stay_in_then ? cur[k] : f->leaving[k]);
			phi_add_src(phi, else_end, f->stay_in_then ? f->leaving[k] : cur[k]);
			cur[k] = &phi->def;
		}
		free(f->leaving);
	}
	for (size_t k = 0; k < u->outs.len; k++) {
		struct live_out *o = &u->outs.data[k];
		if (o->exit_phi) {
			ssa_def_rewrite_uses(&o->exit_phi->def, cur[k]);
			instr_remove(&o->exit_phi->instr);
			continue;
		}
		foreach_use_safe(use, o->def) {
			struct cf_node *user = use->parent_if ? &use->parent_if->cf
					       : &use->parent_instr->block->cf;
			if (!cf_node_is_inside(user, &u->loop->cf))
				src_rewrite(use, cur[k]);
		}
	}
	free(cur);
}

/* Whether a value of the loop is read after it, but by the exit's phis. */
static bool read_after(struct unroll *u, struct ssa_def *def)
{
	struct block *exit = cf_as_block(cf_node_next(&u->loop->cf));
	foreach_use(use, def) {
		if (use->parent_if) {
			if (!cf_node_is_inside(&use->parent_if->cf, &u->loop->cf))
				return true;
			continue;
		}
		struct instr *user = use->parent_instr;
		if (user->type == INSTR_phi && user->block == exit)
			continue;
		if (!cf_node_is_inside(&user->block->cf, &u->loop->cf))
			return true;
	}
	return false;
}

/* Number the loop's blocks, clear its instructions' copies, mark its
 * values and those read after it. */
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
			if (!def)
				continue;
			if (def->index < u->num_defs)
				bitset_set(u->inside, def->index);
			if (read_after(u, def))
				array_push(&u->outs, ((struct live_out){ NULL, def }));
		}
	}
}

/*
 * The terminator that nests the copies when the trip count is not exact
 * (nir_opt_loop_unroll's process_loops): with two terminators and the
 * limiting one exact, the other (complex_unroll); with one, itself
 * (complex_unroll_single_terminator).  NULL when the count is exact
 * (simple_unroll).
 */
static struct loop_terminator *nesting_terminator(struct loop_info *info)
{
	if (info->exact_trip_count)
		return NULL;
	if (info->num_terminators == 1)
		return info->limiting;
	if (info->num_terminators == 2 && info->limiting->exact)
		return &info->terminators[info->limiting == &info->terminators[0]];
	return NULL;
}

static struct block *unroll(struct cf_loop *loop)
{
	struct block *before = cf_as_block(cf_node_prev(&loop->cf));
	struct block *exit = cf_as_block(cf_node_next(&loop->cf));
	struct block *header = cf_loop_header(loop), *latch = cf_list_last_block(&loop->body);
	struct function *fn = before->fn;
	struct unroll u = { .fn = fn, .loop = loop, .term = loop->info->limiting,
			    .nest = nesting_terminator(loop->info) };
	int64_t trips = loop->info->trip_count;

	u.num_defs = fn->ssa_alloc;
	foreach_instr(i, exit) {
		if (i->type != INSTR_phi)
			break;
		array_push(&u.outs, ((struct live_out){ instr_as_phi(i), NULL }));
	}
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

	hand_on(&u);
	struct block *merged = cf_remove(&loop->cf);
	array_free(&u.fixups);
	array_free(&u.outs);
	array_free(&u.frames);
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
	if (loop->hint == LOOP_HINT_dont_unroll || !info->limiting || info->has_continue ||
	    info->has_return || info->trip_count < 0 || info->trip_count > MAX_UNROLL_ITERATIONS)
		return false;
	/* every way out is a terminator; the count is exact, or one
	 * terminator nests the copies */
	if (info->num_breaks != info->num_terminators ||
	    (!info->exact_trip_count && !nesting_terminator(info)))
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
