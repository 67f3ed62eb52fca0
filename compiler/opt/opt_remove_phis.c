/*
 * opt_remove_phis: a phi whose sources are all one value is that value.
 * Sources that are the phi itself (loop back edges that do not change it)
 * do not count, and neither do undefs when the value dominates the phi
 * (an undef may be taken to be that value):
 *
 *	32 %5 = phi b0: %1, b3: %5	=>	%1
 *	32 %6 = phi b1: %2, b2: %2	=>	%2
 *	32 %7 = phi b1: %2, b2: %4	=>	%2 (%4 an undef, %2 defined above the if)
 *
 * A phi of only undefs (and itself) becomes one of those undefs.  Removing
 * one phi can make another trivial, so the walk repeats until nothing
 * changes.
 */
#include "compiler/opt/opt.h"

static bool is_undef(const struct ssa_def *d)
{
	return d->parent->type == INSTR_undef;
}

static struct ssa_def *trivial_value(struct phi_instr *phi)
{
	struct ssa_def *same = NULL, *undef = NULL;
	foreach_phi_src(ps, phi) {
		struct ssa_def *v = ps->src.ssa;
		if (v == &phi->def)
			continue;
		if (is_undef(v)) {
			undef = v;
			continue;
		}
		if (same && v != same)
			return NULL;
		same = v;
	}
	if (!same)
		return undef;
	if (undef) {
		/* a value from another block dominating this one, never a phi
		 * beside this one (its source values are not its value) */
		struct block *def_block = same->parent->block, *b = phi->instr.block;
		if (def_block == b || !block_dominates(def_block, b))
			return NULL;
	}
	return same;
}

bool opt_remove_phis(struct shader *s)
{
	bool progress = false, again = true;
	metadata_require(s->fn, META_DOMINANCE);
	while (again) {
		again = false;
		foreach_block(b, s->fn) {
			foreach_instr_safe(i, b) {
				if (i->type != INSTR_phi)
					break;
				struct phi_instr *phi = instr_as_phi(i);
				struct ssa_def *v = trivial_value(phi);
				if (!v)
					continue;
				ssa_def_rewrite_uses(&phi->def, v);
				instr_remove(i);
				again = progress = true;
			}
		}
	}
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
