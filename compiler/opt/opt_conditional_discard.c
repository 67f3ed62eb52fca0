/*
 * opt_conditional_discard: an if whose one branch only discards and whose
 * other branch is empty becomes a conditional discard (Mesa's
 * nir_opt_conditional_discard, which the GL state tracker's optimisation
 * loop runs):
 *
 *	if %c { @discard } else { }     →   @discard_if %c
 *	if %c { } else { @terminate }   →   @terminate_if (inot %c)
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

/* The kill a CF list holds alone, or NULL. */
static struct intrinsic_instr *lone_kill(struct list *list)
{
	struct cf_node *n = cf_node_of(list_first(list));
	if (cf_node_next(n))
		return NULL;
	struct block *b = cf_as_block(n);
	struct instr *first = block_first_instr(b);
	if (!first || first != block_last_instr(b) || first->type != INSTR_intrinsic)
		return NULL;
	struct intrinsic_instr *intr = instr_as_intrinsic(first);
	return intr->op == INTR_discard || intr->op == INTR_terminate ? intr : NULL;
}

static bool empty(struct list *list)
{
	struct cf_node *n = cf_node_of(list_first(list));
	return !cf_node_next(n) && list_empty(&cf_as_block(n)->instrs);
}

static bool fold(struct shader *s, struct cf_if *nif)
{
	struct intrinsic_instr *kill = lone_kill(&nif->then_list);
	bool in_else = false;
	if (!kill || !empty(&nif->else_list)) {
		kill = lone_kill(&nif->else_list);
		in_else = true;
		if (!kill || !empty(&nif->then_list))
			return false;
	}
	struct instr *after = block_first_instr(cf_as_block(cf_node_next(&nif->cf)));
	if (after && after->type == INSTR_phi)
		return false;
	struct builder b;
	builder_init(&b, s, cursor_before_cf(&nif->cf));
	struct ssa_def *cond = nif->condition.ssa;
	if (in_else)
		cond = b_inot(&b, cond);
	if (kill->op == INTR_discard)
		b_intr(&b, discard_if, 0, 0, (cond));
	else
		b_intr(&b, terminate_if, 0, 0, (cond));
	cf_remove(&nif->cf);
	return true;
}

static bool fold_list(struct shader *s, struct list *list)
{
	bool progress = false;
	for (struct list_node *l = list->head.next; l != &list->head;) {
		struct cf_node *n = cf_node_of(l);
		l = l->next;
		if (n->type == CF_IF) {
			struct cf_if *nif = cf_as_if(n);
			progress |= fold_list(s, &nif->then_list);
			progress |= fold_list(s, &nif->else_list);
			if (fold(s, nif)) {
				progress = true;
				l = list->head.next;	/* blocks merged: start again */
			}
		} else if (n->type == CF_LOOP) {
			progress |= fold_list(s, &cf_as_loop(n)->body);
		}
	}
	return progress;
}

bool opt_conditional_discard(struct shader *s)
{
	bool progress = s->stage == STAGE_FRAGMENT && fold_list(s, &s->fn->body);
	return shader_progress(s, progress, 0);
}
