/*
 * Index analyses: block and instruction numbering in program order
 * (META_BLOCK_INDEX, META_INSTR_INDEX) and SSA renumbering.
 */
#include "compiler/ir/ir.h"

void calc_block_index(struct function *fn)
{
	unsigned n = 0;
	foreach_block(b, fn)
		n++;
	if (n + 1 > fn->blocks_cap) {
		fn->blocks = arena_array(&fn->shader->arena, struct block *, n + 1);
		fn->blocks_cap = n + 1;
	}
	n = 0;
	foreach_block(b, fn) {
		b->index = n;
		fn->blocks[n++] = b;
	}
	fn->end_block->index = n;
	fn->blocks[n] = fn->end_block;
	fn->num_blocks = n;
	fn->valid_metadata |= META_BLOCK_INDEX;
}

void calc_instr_index(struct function *fn)
{
	unsigned n = 0;
	foreach_block(b, fn)
		foreach_instr(i, b)
			i->index = n++;
	fn->num_instrs = n;
	fn->valid_metadata |= META_INSTR_INDEX;
}

bool shader_reindex(struct shader *s)
{
	struct function *fn = s->fn;
	unsigned n = 0;
	bool changed = false;
	foreach_block(b, fn) {
		foreach_instr(i, b) {
			struct ssa_def *def = instr_def(i);
			if (!def)
				continue;
			changed |= def->index != n;
			def->index = n++;
		}
	}
	changed |= fn->ssa_alloc != n;
	fn->ssa_alloc = n;
	if (changed)
		metadata_invalidate(fn, META_LIVENESS);
	return changed;
}
