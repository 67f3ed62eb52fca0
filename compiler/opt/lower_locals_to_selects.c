/*
 * lower_locals_to_selects: the local arrays left after lower_vars_to_ssa —
 * read or written at a dynamic index — for targets without private memory
 * or register arrays (etnaviv; ir3 keeps them in register arrays): one
 * local per element; a dynamic read is a chain of bcsel over the elements,
 * a dynamic write writes every element with a bcsel keeping the old value
 * (nir_lower_indirect_derefs' if-ladder after if-conversion).  An access at a constant index names its element
 * directly (nir_lower_indirect_derefs leaves direct derefs alone): a table
 * of N constants written element by element and read at a dynamic index
 * costs N stores and N selects per read, not N² selects.
 * lower_vars_to_ssa then promotes the elements.
 *
 *	%v = @load_local %i local=A        %v = bcsel(%i == 1, A1, A0) …
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"
#include "compiler/util/error.h"

#include <stdlib.h>

static void to_selects(struct shader *s, struct builder *b, struct intrinsic_instr *intr,
		       const unsigned *first)
{
	unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
	const struct local_decl *d = s->locals[l];
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	struct ssa_def *zero = b_imm_int(b, 0);
	struct load_const_instr *lc = ssa_def_as_const(local_access_offset(intr)->ssa);
	if (lc) {
		/* what the chain would do: a load past the end reads element 0,
		 * a store past the end writes nothing */
		uint32_t e = base + (uint32_t)lc->value[0];
		if (intr->op == INTR_load_local) {
			unsigned el = first[l] + (e < d->num_elements ? e : 0);
			ssa_def_rewrite_uses(&intr->def, b_load_local(b, el, 0, zero));
		} else if (e < d->num_elements)
			b_store_local(b, intr->src[0].ssa, first[l] + e, 0,
				      (unsigned)intrinsic_get(intr, INTR_IDX_write_mask), zero);
		return;
	}
	struct ssa_def *idx = b_iadd(b, local_access_offset(intr)->ssa, b_imm_int(b, base));
	if (intr->op == INTR_load_local) {
		struct ssa_def *v = b_load_local(b, first[l], 0, zero);
		for (unsigned e = 1; e < d->num_elements; e++)
			v = b_bcsel(b, b_ieq(b, idx, b_imm_int(b, e)),
				    b_load_local(b, first[l] + e, 0, zero), v);
		ssa_def_rewrite_uses(&intr->def, v);
		return;
	}
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	for (unsigned e = 0; e < d->num_elements; e++) {
		struct ssa_def *old = b_load_local(b, first[l] + e, 0, zero);
		struct ssa_def *v = b_bcsel(b, b_ieq(b, idx, b_imm_int(b, e)), intr->src[0].ssa, old);
		b_store_local(b, v, first[l] + e, 0, mask, zero);
	}
}

bool lower_locals_to_selects(struct shader *s)
{
	unsigned n = s->num_locals;
	bool *used = xcalloc(n + 1, sizeof(bool));
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			struct intrinsic_instr *intr;
			if (instr_is_local_access(in, &intr))
				used[intrinsic_get(intr, INTR_IDX_local)] = true;
		}
	unsigned *first = xcalloc(n + 1, sizeof(unsigned));
	bool any = false;
	for (unsigned l = 0; l < n; l++) {
		if (!used[l])
			continue;
		any = true;
		const struct local_decl *d = s->locals[l];
		first[l] = s->num_locals;
		for (unsigned e = 0; e < d->num_elements; e++) {
			struct local_decl *el = shader_add_local(s);
			el->num_elements = 1;
			el->num_components = d->num_components;
			el->bit_size = d->bit_size;
			el->name = d->name;
		}
	}
	if (any) {
		struct builder b;
		foreach_block(blk, s->fn)
			foreach_instr_safe(in, blk) {
				struct intrinsic_instr *intr;
				if (!instr_is_local_access(in, &intr) || intrinsic_get(intr, INTR_IDX_local) >= (int)n)
					continue;
				builder_init(&b, s, cursor_before_instr(in));
				to_selects(s, &b, intr, first);
				instr_remove(in);
			}
	}
	free(used);
	free(first);
	return shader_progress(s, any, META_BLOCK_INDEX | META_DOMINANCE);
}
