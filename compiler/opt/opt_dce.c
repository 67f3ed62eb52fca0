/*
 * opt_dce: dead code elimination by mark and sweep, as NIR's.
 *
 * Use counts are not enough: two phis of a loop can keep each other alive
 *
 *	loop {
 *		32 %1 = phi b0: %0, b2: %2	neither is read by anything else,
 *		...
 *		32 %2 = iadd %1, %3		yet each has a use
 *	}
 *
 * so liveness starts from the roots — instructions the tables say cannot
 * be eliminated (side effects, jumps) and the conditions of ifs — and
 * flows to the instructions defining their sources.  Everything not
 * reached is removed.  pass_flags holds the mark.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"
#include "compiler/util/array.h"

typedef ARRAY(struct instr *) instr_array;

static void mark(instr_array *work, struct instr *i)
{
	if (!i->pass_flags) {
		i->pass_flags = 1;
		array_push(work, i);
	}
}

static bool mark_src_cb(struct src *src, void *data)
{
	mark(data, src->ssa->parent);
	return true;
}

static void mark_conditions(instr_array *work, struct list *list)
{
	foreach_cf_node(n, list) {
		if (n->type == CF_IF) {
			struct cf_if *nif = cf_as_if(n);
			mark(work, nif->condition.ssa->parent);
			mark_conditions(work, &nif->then_list);
			mark_conditions(work, &nif->else_list);
		} else if (n->type == CF_LOOP) {
			mark_conditions(work, &cf_as_loop(n)->body);
		}
	}
}

bool opt_dce(struct shader *s)
{
	struct function *fn = s->fn;
	instr_array work = ARRAY_INIT;
	bool progress = false;

	foreach_block(b, fn)
		foreach_instr(i, b)
			i->pass_flags = 0;
	foreach_block(b, fn)
		foreach_instr(i, b)
			if (!instr_is_eliminable(i))
				mark(&work, i);
	mark_conditions(&work, &fn->body);
	while (work.len)
		instr_foreach_src(array_pop(&work), mark_src_cb, &work);
	array_free(&work);

	foreach_block_reverse(b, fn) {
		foreach_instr_reverse_safe(i, b) {
			if (!i->pass_flags) {
				instr_remove(i);
				progress = true;
			}
		}
	}
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
