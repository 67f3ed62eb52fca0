/*
 * opt_sink: code sinking.  An instruction whose value is only needed in
 * some branches moves down to the nearest block dominating all its uses,
 * so paths that do not need it do not compute it (NIR's nir_opt_sink, which
 * ir3 runs after its optimisation loop; targets.md §2.1).
 *
 *	32 %3 = fmul %1, %2			if %c {
 *	if %c {				=>		32 %3 = fmul %1, %2
 *		… %3 …					… %3 …
 *
 * Candidates are constants, undefs, ALU instructions and reorderable
 * intrinsics (not texture instructions: their implicit derivatives need
 * the neighbouring invocations the branch may have left).  A use by a phi
 * counts at the end of the predecessor it comes from, an if's condition at
 * the end of the block before the if.  The target never enters a loop the
 * instruction is not already in (it would run on every iteration): it
 * stops before the outermost such loop.  In the target block the
 * instruction goes before its first use there, else at the end.
 * Instructions are visited bottom-up, so a whole chain follows its last
 * user down in one run.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static bool can_sink(const struct instr *i)
{
	switch (i->type) {
	case INSTR_load_const: case INSTR_undef: case INSTR_alu:
		return true;
	case INSTR_intrinsic:
		return instr_is_reorderable(i) && instr_def((struct instr *)i);
	default:
		return false;
	}
}

/* The block at whose end or in which a use happens. */
static struct block *use_block(struct src *use)
{
	if (use->parent_if)
		return cf_as_block(cf_node_prev(&use->parent_if->cf));
	if (use->parent_instr->type == INSTR_phi)
		return container_of(use, struct phi_src, src)->pred;
	return use->parent_instr->block;
}

/* Move `target` out of every loop that does not hold `home`: the block
 * before the outermost such loop. */
static struct block *outside_loops(struct block *target, struct block *home)
{
	struct cf_loop *outermost = NULL;
	for (struct cf_node *n = target->cf.parent; n; n = n->parent)
		if (n->type == CF_LOOP && !cf_node_is_inside(&home->cf, n))
			outermost = cf_as_loop(n);
	return outermost ? cf_as_block(cf_node_prev(&outermost->cf)) : target;
}

static bool sink(struct instr *i)
{
	struct ssa_def *def = instr_def(i);
	struct block *target = NULL;
	foreach_use(use, def) {
		struct block *b = use_block(use);
		if (!block_is_reachable(b))
			return false;
		target = target ? block_dominance_lca(target, b) : b;
	}
	if (!target)
		return false;
	target = outside_loops(target, i->block);
	if (target == i->block || !block_dominates(i->block, target))
		return false;

	/* before the first use in the target block, else at its end */
	struct instr *first = NULL;
	foreach_instr(j, target) {
		if (j->type == INSTR_phi)
			continue;
		foreach_use(use, def) {
			if (use->parent_instr == j && j->type != INSTR_phi) {
				first = j;
				break;
			}
		}
		if (first)
			break;
	}
	struct jump_instr *jump = block_jump(target);
	struct cursor at = first ? cursor_before_instr(first)
			   : jump ? cursor_before_instr(&jump->instr) : cursor_after_block(target);
	instr_move(at, i);
	return true;
}

bool opt_sink(struct shader *s)
{
	bool progress = false;
	metadata_require(s->fn, META_DOMINANCE);
	foreach_block_reverse(b, s->fn)
		foreach_instr_reverse_safe(i, b)
			if (can_sink(i) && block_is_reachable(b))
				progress |= sink(i);
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
