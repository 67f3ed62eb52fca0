/*
 * opt_loop_jumps: fewer breaks and continues in loops, as Mesa's nir_opt_loop
 * (src/compiler/nir/nir_opt_loop.c, in ir3's and etnaviv's optimisation
 * loops since Mesa 24.1), so that opt_dead_cf, opt_peephole_select and
 * opt_loop_unroll see the loops their rules know:
 *
 *  - both branches of an if end in the same jump, and nothing comes after
 *    the if in its list (merge_break_continue):
 *	if %c { A; break } else { B; break }	=>	if %c { A } else { B } break
 *    the values the target's phis took from the two branches meet in phis
 *    after the if;
 *  - a continue at the very end of a loop's body goes (falling off the end
 *    continues anyway: opt_loop_last_block's trivial continue);
 *  - a block ending in a break or continue (or the end of a loop's body)
 *    after an if one of whose branches ends in the same jump: everything
 *    from the if to the jump — blocks, ifs, loops — moves into the other
 *    branch, whose jump is then trivial (opt_loop_last_block):
 *	if %c { X; break } else { E }  M; break	=>	if %c { X } else { E; M } break
 *    the form UE4's DXC code gives its select-like loops, and a for loop's
 *    early `continue` takes.
 *
 * A loop whose body then ends in its only break, `loop { A; if … ; break }`
 * (a switch lowered to a do-while(false), SPIR-V's selection constructs
 * that end in OpUnreachable), is left for opt_dead_cf to inline.
 *
 * Not done (yet): the rest of opt_loop_last_block (several ifs merged in
 * one walk, trivial jumps of nested branches, moved code whose values are
 * read after the loop: Mesa rebuilds SSA there), opt_loop_terminator,
 * opt_loop_peel_initial_break and opt_loop_merge_terminators.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static bool is_jump(struct block *b, enum jump_type type)
{
	struct jump_instr *j = block_jump(b);
	return j && j->type == type;
}

/* An empty block that ends its CF list (Mesa's is_block_empty). */
static bool is_empty_last(struct block *b)
{
	return !cf_node_next(&b->cf) && !block_first_instr(b);
}

static bool in_blocks(const struct block *b, struct block *const *blocks, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (blocks[k] == b)
			return true;
	return false;
}

/* The jumps of `from` to `t` went: they now fall into `y`, which goes to
 * `t` (ends in a jump of the same kind, or is the end of the loop's body
 * for a continue).  The values `t`'s phis took from `from` come through
 * `y`, joined in phis there with what `y` handed on for its other
 * predecessors (an undef where `y` had no edge to `t`). */
static void route_phis(struct block *t, struct block *const *from, unsigned nfrom, struct block *y)
{
	unsigned n;
	struct block *const *preds = block_preds(y, &n);
	foreach_instr(i, t) {
		if (i->type != INSTR_phi)
			break;
		struct phi_instr *phi = instr_as_phi(i);
		struct phi_instr *join = phi_instr_create(i->shader);
		ssa_def_init(&join->instr, &join->def, phi->def.num_components, phi->def.bit_size);
		struct ssa_def *undef = NULL;
		for (unsigned k = 0; k < n; k++) {
			struct phi_src *ps = phi_get_src(phi, in_blocks(preds[k], from, nfrom) ? preds[k] : y);
			if (!ps && !undef)
				undef = opt_undef_def(i->shader, phi->def.num_components, phi->def.bit_size);
			phi_add_src(join, preds[k], ps ? ps->src.ssa : undef);
		}
		instr_insert(cursor_after_phis(y), &join->instr);
		foreach_phi_src_safe(ps, phi)
			if (ps->pred == y || in_blocks(ps->pred, from, nfrom))
				phi_remove_src(phi, ps);
		phi_add_src(phi, y, &join->def);
	}
}

static bool merge_break_continue(struct cf_if *nif)
{
	struct block *after = cf_block_after(&nif->cf);
	if (block_num_preds(after) > 0 || !is_empty_last(after))
		return false;
	struct block *from[2] = { cf_list_last_block(&nif->then_list),
				  cf_list_last_block(&nif->else_list) };
	if (!(is_jump(from[0], JUMP_break) && is_jump(from[1], JUMP_break)) &&
	    !(is_jump(from[0], JUMP_continue) && is_jump(from[1], JUMP_continue)))
		return false;
	/* one jump, at the end of `after`, where the branches meet */
	struct block *t = block_succ(from[0], 0);
	struct jump_instr *kept = block_jump(from[0]);
	instr_remove(&kept->instr);
	instr_remove(&block_jump(from[1])->instr);
	instr_insert(cursor_after_block(after), &kept->instr);
	route_phis(t, from, 2, after);
	return true;
}

/* A continue ending a loop's body goes: falling off the end continues
 * from the same block (Mesa's opt_loop_last_block with a trivial continue;
 * the header's phis keep their source). */
static bool trivial_continue(struct cf_loop *loop)
{
	struct block *last = cf_list_last_block(&loop->body);
	if (!is_jump(last, JUMP_continue) || block_num_preds(last) == 0)
		return false;
	instr_remove(&block_jump(last)->instr);
	return true;
}

/* Whether `blk` is one of the blocks from `a` to `b` of one CF list, or
 * inside a node between them. */
static bool in_range(struct block *blk, struct block *a, struct block *b)
{
	for (struct cf_node *n = &a->cf;; n = cf_node_next(n)) {
		if (n == &blk->cf || (n->type != CF_BLOCK && cf_node_is_inside(&blk->cf, n)))
			return true;
		if (n == &b->cf)
			return false;
	}
}

/* Whether every use of what the range from `a` to `b` defines stays in the
 * range or is a source of one of `t`'s phis from `b`: what moving the range
 * into a branch keeps valid, since phis then route those. */
static bool uses_stay(struct block *a, struct block *b, struct block *t)
{
	for (struct cf_node *n = &a->cf;; n = cf_node_next(n)) {
		if (n->type != CF_BLOCK) {
			if (n == &b->cf)
				return true;
			continue;
		}
		foreach_instr(i, cf_as_block(n)) {
			struct ssa_def *def = instr_def(i);
			if (!def || (n == &a->cf && i->type == INSTR_phi))
				continue;	/* a's phis go: their one source stays */
			foreach_use(u, def) {
				/* an if reads its condition at the end of the block
				 * before it */
				struct block *ub = u->parent_instr
					? u->parent_instr->block
					: cf_as_block(cf_node_prev(&u->parent_if->cf));
				if (in_range(ub, a, b))
					continue;
				if (u->parent_instr && u->parent_instr->type == INSTR_phi &&
				    ub == t && container_of(u, struct phi_src, src)->pred == b)
					continue;
				return false;
			}
		}
		if (n == &b->cf)
			return true;
	}
}

/*
 * Mesa's opt_loop_last_block: `b` ends in a break or continue (or,
 * `loop_end`, is the end of the loop's body, which continues), and an
 * earlier if of its list has one branch ending in the same jump:
 *	if %c { X; break } else { E }  M; break	=>	if %c { X } else { E; M } break
 * M, the code from the if to the jump (blocks, ifs and loops), moves to
 * the end of the other branch; then the branch's jump is trivial and goes.
 * Only when what M defines is read in M or handed on to the jump's target.
 */
static bool merge_into_if(struct block *b, bool loop_end)
{
	if (block_num_preds(b) == 0)
		return false;
	struct jump_instr *j = block_jump(b);
	enum jump_type type;
	if (j && (j->type == JUMP_break || j->type == JUMP_continue))
		type = j->type;
	else if (!j && loop_end)
		type = JUMP_continue;
	else
		return false;
	struct cf_if *nif = NULL;
	struct block *x = NULL, *other = NULL;
	for (struct cf_node *n = cf_node_prev(&b->cf); n && !nif; n = cf_node_prev(n)) {
		if (n->type != CF_IF)
			continue;
		struct block *lt = cf_list_last_block(&cf_as_if(n)->then_list);
		struct block *le = cf_list_last_block(&cf_as_if(n)->else_list);
		bool then_j = is_jump(lt, type), else_j = is_jump(le, type);
		if (then_j == else_j)
			continue;
		nif = cf_as_if(n);
		x = then_j ? lt : le;
		other = then_j ? le : lt;
	}
	if (!nif || block_ends_in_jump(other))
		return false;
	struct function *fn = b->fn;
	struct block *a = cf_as_block(cf_node_next(&nif->cf));
	struct block *t = block_succ(x, 0);
	/* a's one predecessor is `other`: its phis have one source each */
	foreach_instr(i, a)
		if (i->type == INSTR_phi && !phi_single_src(instr_as_phi(i)))
			return false;
	if (!uses_stay(a, b, t))
		return false;
	block_remove_single_src_phis(a);
	/* M to the end of the other branch: a's instructions, the nodes up to
	 * b, b's instructions in a new block after them; b's jump to a, b
	 * goes */
	foreach_instr_safe(i, a)
		if (i->type != INSTR_jump)
			instr_move(cursor_after_block(other), i);
	if (a != b) {
		struct list *list = other->cf.list;
		struct cf_node *parent = other->cf.parent;
		for (struct cf_node *n = cf_node_next(&a->cf); n != &b->cf;) {
			struct cf_node *next = cf_node_next(n);
			list_del(&n->link);
			list_add_tail(list, &n->link);
			n->parent = parent;
			n->list = list;
			n = next;
		}
		struct block *nb = cf_append_block(fn, list, parent);
		foreach_instr_safe(i, b)
			if (i->type != INSTR_jump)
				instr_move(cursor_after_block(nb), i);
		if (j)
			instr_move(cursor_after_block(a), &j->instr);
		list_del(&b->cf.link);
		function_cfg_stale(fn);
		/* the first moved node follows `other` now, the target is
		 * reached from `a` */
		phis_rename_pred(fn, a, other);
		phis_rename_pred(fn, b, a);
	}
	/* the branch's jump is trivial now */
	instr_remove(&block_jump(x)->instr);
	route_phis(t, &x, 1, a);
	return true;
}

static bool loop_cf_list(struct list *list);

static bool loop_cf_node(struct cf_node *n)
{
	switch (n->type) {
	case CF_IF: {
		struct cf_if *nif = cf_as_if(n);
		return loop_cf_list(&nif->then_list) || loop_cf_list(&nif->else_list) ||
		       merge_break_continue(nif);
	}
	case CF_LOOP: {
		struct cf_loop *loop = cf_as_loop(n);
		return loop_cf_list(&loop->body) || trivial_continue(loop);
	}
	default:
		return false;
	}
}

/* Make one change in `list`; returns whether it did. */
static bool loop_cf_list(struct list *list)
{
	foreach_cf_node(n, list) {
		if (n->type == CF_BLOCK) {
			struct block *b = cf_as_block(n);
			bool loop_end = !cf_node_next(n) && n->parent && n->parent->type == CF_LOOP;
			if (merge_into_if(b, loop_end))
				return true;
			continue;
		}
		if (loop_cf_node(n))
			return true;
	}
	return false;
}

bool opt_loop_jumps(struct shader *s)
{
	bool progress = false;
	while (loop_cf_list(&s->fn->body)) {
		cf_fixup_phis(s->fn);
		progress = true;
	}
	return shader_progress(s, progress, 0);
}
