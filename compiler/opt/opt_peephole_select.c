/*
 * opt_peephole_select: if-conversion of small branches (NIR's
 * nir_opt_peephole_select, which ir3 runs with a limit of 16;
 * ../../shared/reference/targets.md §2.1).
 *
 *	if %c {					32 %1 = fadd %a, %b
 *		32 %1 = fadd %a, %b	=>	32 %2 = fmul %a, %b
 *	} else {				32 %3 = bcsel %c, %1, %2
 *		32 %2 = fmul %a, %b
 *	}
 *	32 %3 = phi b1: %1, b2: %2
 *
 * An innermost if qualifies when each branch is one block without phis or
 * jumps, every instruction of both is speculatable (opt_util.h: ALU,
 * constants, undefs, and reorderable intrinsics with constant sources — no
 * memory access that could fault, no implicit derivative) and, unless the
 * if is marked `flatten`, the branches hold at most `limit` instructions
 * together (constants, undefs and move-like ALU ops are free).  An if marked `dont_flatten`
 * never does.  Both branches move before the if, each phi after it
 * becomes a bcsel on the condition, and the if goes.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

#define PEEPHOLE_SELECT_LIMIT 16

/* Moves and their like are free (NIR's block_check_for_allowed_instrs:
 * "movelike" mov, fneg, ineg, fabs, iabs and vecN do not count). */
static bool movelike(const struct instr *i)
{
	if (i->type != INSTR_alu)
		return false;
	switch (instr_as_alu((struct instr *)i)->op) {
	case OP_mov: case OP_fneg: case OP_ineg: case OP_fabs: case OP_iabs:
	case OP_vec2: case OP_vec3: case OP_vec4: case OP_vec8: case OP_vec16:
		return true;
	default:
		return false;
	}
}

/* Instructions that count against the limit in a branch, or -1 if it
 * cannot be flattened. */
static int branch_cost(struct list *list)
{
	struct block *b = cf_list_first_block(list);
	int cost = 0;
	if (b != cf_list_last_block(list))
		return -1;
	foreach_instr(i, b) {
		if (i->type == INSTR_phi || i->type == INSTR_jump || !instr_is_speculatable(i))
			return -1;
		cost += i->type != INSTR_load_const && i->type != INSTR_undef && !movelike(i);
	}
	return cost;
}

/* Flatten `nif` into selects; returns the block that takes its place, or
 * NULL when it stays. */
static struct block *select_if(struct cf_if *nif, unsigned limit)
{
	if (nif->hint == IF_HINT_dont_flatten)
		return NULL;
	int then_cost = branch_cost(&nif->then_list), else_cost = branch_cost(&nif->else_list);
	if (then_cost < 0 || else_cost < 0 ||
	    (nif->hint != IF_HINT_flatten && (unsigned)(then_cost + else_cost) > limit))
		return NULL;

	struct block *prev = cf_as_block(cf_node_prev(&nif->cf));
	struct block *next = cf_as_block(cf_node_next(&nif->cf));
	struct block *then_b = cf_if_then_block(nif), *else_b = cf_if_else_block(nif);
	struct ssa_def *cond = nif->condition.ssa;
	block_move_instrs_to_end(then_b, prev);
	block_move_instrs_to_end(else_b, prev);
	foreach_instr_safe(i, next) {
		if (i->type != INSTR_phi)
			break;
		struct phi_instr *phi = instr_as_phi(i);
		struct phi_src *t = phi_get_src(phi, then_b), *e = phi_get_src(phi, else_b);
		struct builder b;
		builder_init(&b, i->shader, cursor_after_block(prev));
		struct ssa_def *sel = b_bcsel(&b, cond, t->src.ssa, e->src.ssa);
		ssa_def_rewrite_uses(&phi->def, sel);
		instr_remove(i);
	}
	return cf_remove(&nif->cf);
}

static bool select_list(struct list *list, unsigned limit)
{
	bool progress = false;
	foreach_cf_node(n, list) {
		if (n->type == CF_IF) {
			struct cf_if *nif = cf_as_if(n);
			progress |= select_list(&nif->then_list, limit);
			progress |= select_list(&nif->else_list, limit);
		} else if (n->type == CF_LOOP) {
			progress |= select_list(&cf_as_loop(n)->body, limit);
		}
	}
	/* innermost first: a flattened if may make its parent flat */
	for (struct list_node *p = list->head.next; p != &list->head;) {
		struct cf_node *n = cf_node_of(p);
		struct block *merged = n->type == CF_IF ? select_if(cf_as_if(n), limit) : NULL;
		/* the if is gone and its neighbours merged: go on after them
		 * (the ifs before are as they were) */
		p = merged ? merged->cf.link.next : p->next;
		progress |= merged != NULL;
	}
	return progress;
}

/* With another limit than Mesa's 16 for ir3. */
bool opt_peephole_select_limit(struct shader *s, unsigned limit)
{
	bool progress = select_list(&s->fn->body, limit);
	return shader_progress(s, progress, 0);
}

bool opt_peephole_select(struct shader *s)
{
	return opt_peephole_select_limit(s, PEEPHOLE_SELECT_LIMIT);
}
