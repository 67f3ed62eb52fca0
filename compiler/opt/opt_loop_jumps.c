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
 *    continues anyway: opt_loop_last_block's trivial continue).
 *
 * A loop whose body then ends in its only break, `loop { A; if … ; break }`
 * (a switch lowered to a do-while(false), SPIR-V's selection constructs
 * that end in OpUnreachable), is left for opt_dead_cf to inline.
 *
 * Not done (yet): the rest of opt_loop_last_block (trivial jumps at the
 * ends of branches, a block's jump merged into an earlier if),
 * opt_loop_terminator, opt_loop_peel_initial_break and
 * opt_loop_merge_terminators.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct block *block_after(struct cf_node *node)
{
	return cf_as_block(cf_node_next(node));
}

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

/* The jumps of `from` (each ending in a jump to `target`) become one jump
 * at the end of `to`, the empty block they all fall into instead: phis of
 * `target` take their value from `to`, where phis join the values of
 * `from`. */
static void move_jumps(struct block *target, struct block **from, unsigned n, struct block *to)
{
	foreach_instr_safe(i, target) {
		if (i->type != INSTR_phi)
			break;
		struct phi_instr *phi = instr_as_phi(i);
		struct phi_instr *join = phi_instr_create(i->shader);
		ssa_def_init(&join->instr, &join->def, phi->def.num_components, phi->def.bit_size);
		for (unsigned k = 0; k < n; k++) {
			struct phi_src *ps = phi_get_src(phi, from[k]);
			struct ssa_def *v = ps ? ps->src.ssa
					       : opt_undef_def(i->shader, phi->def.num_components,
							       phi->def.bit_size);
			phi_add_src(join, from[k], v);
			if (ps)
				phi_remove_src(phi, ps);
		}
		instr_insert(cursor_after_phis(to), &join->instr);
		/* `to` had no predecessor: what it handed on was never used */
		struct phi_src *old = phi_get_src(phi, to);
		if (old)
			phi_remove_src(phi, old);
		phi_add_src(phi, to, &join->def);
	}
	struct jump_instr *kept = block_jump(from[0]);
	instr_remove(&kept->instr);
	for (unsigned k = 1; k < n; k++)
		instr_remove(&block_jump(from[k])->instr);
	instr_insert(cursor_after_block(to), &kept->instr);
}

static bool merge_break_continue(struct cf_if *nif)
{
	struct block *after = block_after(&nif->cf);
	if (block_num_preds(after) > 0 || !is_empty_last(after))
		return false;
	struct block *from[2] = { cf_list_last_block(&nif->then_list),
				  cf_list_last_block(&nif->else_list) };
	if (!(is_jump(from[0], JUMP_break) && is_jump(from[1], JUMP_break)) &&
	    !(is_jump(from[0], JUMP_continue) && is_jump(from[1], JUMP_continue)))
		return false;
	move_jumps(block_succ(from[0], 0), from, 2, after);
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
	foreach_cf_node(n, list)
		if (loop_cf_node(n))
			return true;
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
