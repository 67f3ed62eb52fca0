/*
 * lower_ir3_locals: of the local arrays left after lower_vars_to_ssa and
 * lower_ir3_large_constants — read or written at a dynamic index, and not
 * constant — those larger than the target's pvtmem_array_min (16 × 16
 * bytes, natural size: 4 bytes a boolean) go to memory on a5xx+ (Mesa's
 * nir_lower_vars_to_scratch): ldp/stp at the array's bytes, elements at
 * their natural size.  The others, and all of them on a3xx/a4xx (no private
 * memory), stay load_local/store_local: selection makes them ir3 arrays in
 * registers (ir3_isel_local.c; mova a0.x and relative movs r<a0.x + n>).
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

/* glsl_get_natural_size_align_bytes of the local. */
static unsigned natural_size(const struct local_decl *d)
{
	unsigned bytes = d->bit_size == 1 ? 4 : d->bit_size / 8;
	return d->num_elements * d->num_components * bytes;
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
	for (unsigned l = 0; l < n && t->has_pvtmem; l++) {
		if (!used[l] || natural_size(s->locals[l]) <= t->pvtmem_array_min) {
			used[l] = false;
			continue;
		}
		any = true;
		const struct local_decl *d = s->locals[l];
		unsigned align = d->bit_size / 8;
		s->info.scratch_size = (s->info.scratch_size + align - 1) / align * align;
		at[l] = s->info.scratch_size;
		s->info.scratch_size += d->num_elements * d->num_components * d->bit_size / 8;
	}
	if (any) {
		struct builder b;
		foreach_block(blk, s->fn)
			foreach_instr_safe(in, blk) {
				struct intrinsic_instr *intr;
				if (!local_op(in, &intr) || intrinsic_get(intr, INTR_IDX_local) >= (int)n ||
				    !used[intrinsic_get(intr, INTR_IDX_local)])
					continue;
				builder_init(&b, s, cursor_before_instr(in));
				to_scratch(s, &b, intr, at);
				instr_remove(in);
			}
	}
	free(used);
	free(at);
	return shader_progress(s, any, META_BLOCK_INDEX | META_DOMINANCE);
}
