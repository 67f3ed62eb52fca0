/*
 * lower_ir3_locals: the local arrays left after lower_vars_to_ssa and
 * lower_ir3_large_constants — read or written at a dynamic index, and not
 * constant — go to memory or to selects:
 *
 *	a5xx+     private memory (Mesa's nir_lower_vars_to_scratch): ldp/stp at
 *	          the array's bytes, elements at their natural size
 *	a3xx/a4xx no private memory: one local per element, a dynamic read is a
 *	          chain of bcsel over the elements, a dynamic write writes every
 *	          element with a bcsel keeping the old value (an if-ladder, as
 *	          nir_lower_indirect_derefs, after if-conversion); lower_vars_to_ssa
 *	          then promotes the elements
 *
 * Approximation: Mesa 24.3 keeps arrays of at most 16 × 16 bytes in
 * registers (ir3 arrays: mova a0.x and relative movs r<a0.x + n>) and sends
 * only larger ones to scratch; this model has no register arrays.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"
#include "compiler/util/error.h"

#include <stdlib.h>

static bool local_op(struct instr *in, struct intrinsic_instr **out)
{
	if (in->type != INSTR_intrinsic)
		return false;
	*out = instr_as_intrinsic(in);
	return (*out)->op == INTR_load_local || (*out)->op == INTR_store_local;
}

static struct src *offset_of(struct intrinsic_instr *intr)
{
	return &intr->src[intr->op == INTR_load_local ? 0 : 1];
}

/* ---- a5xx+: scratch ---- */

static void to_scratch(struct shader *s, struct builder *b, struct intrinsic_instr *intr,
		       const unsigned *at)
{
	unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
	const struct local_decl *d = s->locals[l];
	unsigned stride = d->num_components * d->bit_size / 8;
	unsigned base = at[l] + (unsigned)intrinsic_get(intr, INTR_IDX_base) * stride;
	struct ssa_def *off = b_imul24(b, offset_of(intr)->ssa, b_imm_int(b, stride));
	unsigned align = d->bit_size / 8;
	if (intr->op == INTR_load_local) {
		struct ssa_def *v = b_intr(b, load_scratch, d->num_components, d->bit_size, (off),
					   .base = (int32_t)base, .align_mul = (int32_t)align,
					   .align_offset = 0);
		ssa_def_rewrite_uses(&intr->def, v);
	} else {
		b_intr(b, store_scratch, d->num_components, 0, (intr->src[0].ssa, off),
		       .base = (int32_t)base,
		       .write_mask = intrinsic_get(intr, INTR_IDX_write_mask),
		       .align_mul = (int32_t)align, .align_offset = 0);
	}
}

/* ---- a3xx/a4xx: one local per element, selects ---- */

static void to_selects(struct shader *s, struct builder *b, struct intrinsic_instr *intr,
		       const unsigned *first)
{
	unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
	const struct local_decl *d = s->locals[l];
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	struct ssa_def *idx = b_iadd(b, offset_of(intr)->ssa, b_imm_int(b, base));
	struct ssa_def *zero = b_imm_int(b, 0);
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

bool lower_ir3_locals(struct shader *s, const struct ir3_lowering *t)
{
	unsigned n = s->num_locals;
	bool *used = xcalloc(n + 1, sizeof(bool));
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			struct intrinsic_instr *intr;
			if (local_op(in, &intr))
				used[intrinsic_get(intr, INTR_IDX_local)] = true;
		}
	unsigned *at = xcalloc(n + 1, sizeof(unsigned));
	bool any = false;
	for (unsigned l = 0; l < n; l++) {
		if (!used[l])
			continue;
		any = true;
		const struct local_decl *d = s->locals[l];
		if (t->has_pvtmem) {
			unsigned align = d->bit_size / 8;
			s->info.scratch_size = (s->info.scratch_size + align - 1) / align * align;
			at[l] = s->info.scratch_size;
			s->info.scratch_size += d->num_elements * d->num_components * d->bit_size / 8;
		} else {
			at[l] = s->num_locals;
			for (unsigned e = 0; e < d->num_elements; e++) {
				struct local_decl *el = shader_add_local(s);
				el->num_elements = 1;
				el->num_components = d->num_components;
				el->bit_size = d->bit_size;
				el->name = d->name;
			}
		}
	}
	if (any) {
		struct builder b;
		foreach_block(blk, s->fn)
			foreach_instr_safe(in, blk) {
				struct intrinsic_instr *intr;
				if (!local_op(in, &intr) || intrinsic_get(intr, INTR_IDX_local) >= (int)n)
					continue;
				builder_init(&b, s, cursor_before_instr(in));
				if (t->has_pvtmem)
					to_scratch(s, &b, intr, at);
				else
					to_selects(s, &b, intr, at);
				instr_remove(in);
			}
	}
	free(used);
	free(at);
	return shader_progress(s, any, META_BLOCK_INDEX | META_DOMINANCE);
}
