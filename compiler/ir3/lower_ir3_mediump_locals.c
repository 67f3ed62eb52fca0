/*
 * lower_ir3_mediump_locals: on a6xx+ a mediump float local (an array the
 * optimisation could not make SSA values: indexed at run time) is kept at
 * 16 bits, as Turnip's nir_lower_mediump_vars on function temporaries:
 * stores narrow what they write, loads widen what they read (and the
 * mediump arithmetic reading it takes the 16 bits as they are).  Before
 * lower_ir3_locals, which then sizes the array at 16 bits an element.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

bool lower_ir3_mediump_locals(struct shader *s, const struct ir3_lowering *t)
{
	if (!t->mediump_16bit)
		return false;
	bool *mark = arena_array(&s->arena, bool, s->num_locals + 1), any = false;
	for (unsigned k = 0; k < s->num_locals; k++) {
		mark[k] = s->locals[k]->mediump && s->locals[k]->bit_size == 32;
		any |= mark[k];
	}
	if (!any)
		return false;
	struct builder b = { .shader = s };
	foreach_block(blk, s->fn)
		foreach_instr_safe(i, blk) {
			if (i->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(i);
			if (intr->op != INTR_load_local && intr->op != INTR_store_local)
				continue;
			unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
			if (l >= s->num_locals || !mark[l])
				continue;
			if (intr->op == INTR_load_local) {
				intr->def.bit_size = 16;
				builder_init(&b, s, cursor_after_instr(i));
				struct ssa_def *w = b_f2f32(&b, &intr->def);
				ssa_def_rewrite_uses_after(&intr->def, w, w->parent);
			} else {
				builder_init(&b, s, cursor_before_instr(i));
				src_rewrite(&intr->src[0], ir3_nir_narrow16(&b, intr->src[0].ssa));
			}
		}
	for (unsigned k = 0; k < s->num_locals; k++)
		if (mark[k])
			s->locals[k]->bit_size = 16;
	s->info.precision_lowered = true;
	return shader_progress(s, true, META_BLOCK_INDEX | META_DOMINANCE);
}
