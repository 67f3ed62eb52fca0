/*
 * opt_dead_cf: remove control flow that cannot matter.
 *
 *  - An if on a constant becomes the branch it takes:
 *	if %c { A } else { B }  with %c = true	=>	A
 *    (phis after it take the value from that branch).
 *  - Code that cannot run goes: nodes after a jump in the same list, and
 *    a block without predecessors that follows an if or a loop (both
 *    branches jumped away, or a loop that never breaks) with everything
 *    after it in its list.  Values such code defined and something still
 *    reads become undefs (opt_util.h).
 *  - An if whose branches are both empty, when the phis after it (if any)
 *    take the same value from both, is removed.
 *  - A loop that never loops — its body ends in its only break, or in a
 *    return with no break, and has no continue — becomes its body:
 *	loop { A; break }	=>	A
 *	loop { A; return }	=>	A; return
 *  - A dead loop is removed: one that has no side effect and no return,
 *    and whose values nothing after it reads — whether or not it is sure
 *    to end, as Mesa's node_is_dead (a loop that could only spin forever
 *    doing nothing is taken to end).
 *
 * Each change restarts the walk (changes are rare, the walk is cheap) and
 * is followed by cf_fixup_phis(), which drops phi sources from edges that
 * went away.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

/* Replace each phi of `b` by its source from `pred` (an undef if none). */
static void resolve_phis(struct block *b, struct block *pred)
{
	foreach_instr_safe(i, b) {
		if (i->type != INSTR_phi)
			break;
		struct phi_instr *phi = instr_as_phi(i);
		struct phi_src *ps = phi_get_src(phi, pred);
		struct ssa_def *v = ps && ps->src.ssa != &phi->def ? ps->src.ssa
				    : opt_undef_def(i->shader, phi->def.num_components, phi->def.bit_size);
		ssa_def_rewrite_uses(&phi->def, v);
		instr_remove(i);
	}
}

static bool constant_if(struct cf_if *nif)
{
	struct load_const_instr *lc = ssa_def_as_const(nif->condition.ssa);
	if (!lc)
		return false;
	struct list *taken = lc->value[0] ? &nif->then_list : &nif->else_list;
	struct block *last = cf_list_last_block(taken), *next = cf_block_after(&nif->cf);
	block_remove_single_src_phis(cf_list_first_block(taken));
	if (block_ends_in_jump(last)) {
		/* nothing after the if can run */
		cf_empty_block(next);
		cf_delete_after(&next->cf);
	} else {
		resolve_phis(next, last);
	}
	cf_inline_list(&nif->cf, taken);
	return true;
}

static bool is_single_empty_block(struct list *list)
{
	struct block *b = cf_list_first_block(list);
	return b == cf_list_last_block(list) && !block_first_instr(b);
}

static bool empty_if(struct cf_if *nif)
{
	if (!is_single_empty_block(&nif->then_list) || !is_single_empty_block(&nif->else_list))
		return false;
	struct block *next = cf_block_after(&nif->cf);
	foreach_instr(i, next) {
		if (i->type != INSTR_phi)
			break;
		struct ssa_def *same = NULL;
		foreach_phi_src(ps, instr_as_phi(i)) {
			if (same && ps->src.ssa != same)
				return false;
			same = ps->src.ssa;
		}
	}
	resolve_phis(next, cf_if_then_block(nif));
	cf_remove(&nif->cf);
	return true;
}

static bool loop_never_loops(struct cf_loop *loop)
{
	struct block *last = cf_list_last_block(&loop->body);
	struct jump_instr *j = block_jump(last);
	metadata_require(last->fn, META_LOOP_ANALYSIS);
	if (!j || loop->info->has_continue)
		return false;
	if (j->type == JUMP_break ? loop->info->num_breaks != 1 : loop->info->num_breaks != 0)
		return false;
	if (j->type == JUMP_return) {
		/* loop { A; return }: nothing after the loop runs (its block is
		 * emptied first, as unreachable code) */
		struct block *after = cf_block_after(&loop->cf);
		if (block_first_instr(after) || cf_node_next(&after->cf))
			return false;
	}
	/* the header's only predecessor is the block before the loop, the
	 * exit's only one the last block */
	block_remove_single_src_phis(cf_loop_header(loop));
	block_remove_single_src_phis(cf_block_after(&loop->cf));
	if (block_has_phis(cf_loop_header(loop)) || block_has_phis(cf_block_after(&loop->cf)))
		BUG("a loop without back edge has phis of several sources");
	if (j->type == JUMP_break)
		instr_remove(&j->instr);
	cf_inline_list(&loop->cf, &loop->body);
	return true;
}

struct dead_loop_ctx {
	struct cf_loop *loop;
	bool dead;
};

static bool inside(struct cf_loop *loop, struct src *use)
{
	struct cf_node *n = use->parent_if ? &use->parent_if->cf : &use->parent_instr->block->cf;
	return cf_node_is_inside(n, &loop->cf);
}

static void check_dead_list(struct dead_loop_ctx *c, struct list *list);

static void check_dead_block(struct dead_loop_ctx *c, struct block *b)
{
	foreach_instr(i, b) {
		if (i->type == INSTR_jump ? instr_as_jump(i)->type == JUMP_return
					  : !instr_is_eliminable(i)) {
			c->dead = false;
			return;
		}
		struct ssa_def *def = instr_def(i);
		if (!def)
			continue;
		foreach_use(use, def) {
			if (!inside(c->loop, use)) {
				c->dead = false;
				return;
			}
		}
	}
}

static void check_dead_list(struct dead_loop_ctx *c, struct list *list)
{
	foreach_cf_node(n, list) {
		if (!c->dead)
			return;
		if (n->type == CF_BLOCK) {
			check_dead_block(c, cf_as_block(n));
		} else if (n->type == CF_IF) {
			check_dead_list(c, &cf_as_if(n)->then_list);
			check_dead_list(c, &cf_as_if(n)->else_list);
		} else if (n->type == CF_LOOP) {
			check_dead_list(c, &cf_as_loop(n)->body);
		}
	}
}

static bool dead_loop(struct cf_loop *loop)
{
	struct block *next = cf_block_after(&loop->cf);
	if (block_has_phis(next))
		return false;
	struct dead_loop_ctx c = { loop, true };
	check_dead_list(&c, &loop->body);
	if (!c.dead)
		return false;
	cf_remove(&loop->cf);
	return true;
}

/* Whether `b`, which follows a node in its list, can never run. */
static bool unreachable_after_node(struct block *b)
{
	return cf_node_prev(&b->cf) && block_num_preds(b) == 0 &&
	       (block_first_instr(b) || cf_node_next(&b->cf));
}

/* Make one change in `list`; returns whether it did. */
static bool dead_cf_list(struct list *list)
{
	foreach_cf_node(n, list) {
		switch (n->type) {
		case CF_BLOCK: {
			struct block *b = cf_as_block(n);
			if (block_ends_in_jump(b) && cf_node_next(n)) {
				cf_delete_after(n);
				return true;
			}
			if (unreachable_after_node(b)) {
				cf_empty_block(b);
				cf_delete_after(n);
				return true;
			}
			break;
		}
		case CF_IF: {
			struct cf_if *nif = cf_as_if(n);
			if (constant_if(nif) || empty_if(nif) || dead_cf_list(&nif->then_list) ||
			    dead_cf_list(&nif->else_list))
				return true;
			break;
		}
		case CF_LOOP: {
			struct cf_loop *loop = cf_as_loop(n);
			if (loop_never_loops(loop) || dead_loop(loop) || dead_cf_list(&loop->body))
				return true;
			break;
		}
		default:
			break;
		}
	}
	return false;
}

bool opt_dead_cf(struct shader *s)
{
	bool progress = false;
	while (dead_cf_list(&s->fn->body)) {
		cf_fixup_phis(s->fn);
		progress = true;
	}
	return shader_progress(s, progress, 0);
}
