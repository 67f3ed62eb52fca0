/*
 * opt_dead_shared: shared memory nothing reads is not written.  A compute
 * shader with no load_shared and no shared atomic loses its store_shared
 * (the GL state tracker's nir_remove_dead_variables on nir_var_mem_shared
 * drops a shared variable only stored to, with its stores; here shared
 * memory is one block, so the rule is taken for the whole of it).
 *
 *	@store_shared %v, %o    (no shared read anywhere)   →   (nothing)
 */
#include "compiler/opt/opt.h"

static bool reads_shared(const struct intrinsic_instr *intr)
{
	return intr->op == INTR_load_shared || intr->op == INTR_shared_atomic ||
	       intr->op == INTR_shared_atomic_swap;
}

bool opt_dead_shared(struct shader *s)
{
	bool stores = false;
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			if (in->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(in);
			if (reads_shared(intr))
				return shader_progress(s, false, META_ALL);
			stores |= intr->op == INTR_store_shared;
		}
	if (stores)
		foreach_block(blk, s->fn)
			foreach_instr_safe(in, blk)
				if (in->type == INSTR_intrinsic &&
				    instr_as_intrinsic(in)->op == INTR_store_shared)
					instr_remove(in);
	return shader_progress(s, stores, META_CONTROL_FLOW);
}
