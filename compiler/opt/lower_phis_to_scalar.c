/*
 * lower_phis_to_scalar: split vector phis into one phi per component, for
 * scalar ISAs (NIR's nir_lower_phis_to_scalar, in ir3's optimisation loop;
 * targets.md §2.1).  Each predecessor gets a mov per component before its
 * jump; a vecN after the phis gathers them for the phi's users:
 *
 *	32x2 %5 = phi b1: %3, b2: %4	=>	b1: 32 %6 = mov %3.x  32 %7 = mov %3.y
 *						b2: 32 %8 = mov %4.x  32 %9 = mov %4.y
 *						32 %10 = phi b1: %6, b2: %8
 *						32 %11 = phi b1: %7, b2: %9
 *						32x2 %5' = vec2 %10, %11
 *
 * Copy propagation then reads the components straight from where they are
 * made (a vecN from lower_alu_to_scalar, usually).  Phis whose sources come
 * from an unreachable predecessor are split the same way.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

/* A mov of component `c` of `def` at the end of `pred` (before its jump). */
static struct ssa_def *channel_at_end(struct block *pred, struct ssa_def *def, unsigned c)
{
	struct builder b;
	struct jump_instr *j = block_jump(pred);
	builder_init(&b, pred->fn->shader,
		     j ? cursor_before_instr(&j->instr) : cursor_after_block(pred));
	return b_channel(&b, def, c);
}

static void split_phi(struct phi_instr *phi)
{
	struct block *block = phi->instr.block;
	struct shader *s = phi->instr.shader;
	unsigned n = phi->def.num_components;
	struct ssa_def *chan[16];
	for (unsigned c = 0; c < n; c++) {
		struct phi_instr *p = phi_instr_create(s);
		ssa_def_init(&p->instr, &p->def, 1, phi->def.bit_size);
		instr_insert(cursor_before_instr(&phi->instr), &p->instr);
		foreach_phi_src(ps, phi)
			phi_add_src(p, ps->pred, channel_at_end(ps->pred, ps->src.ssa, c));
		chan[c] = &p->def;
	}
	struct builder b;
	builder_init(&b, s, cursor_after_phis(block));
	struct ssa_def *vec = b_vec(&b, chan, n);
	ssa_def_rewrite_uses(&phi->def, vec);
	instr_remove(&phi->instr);
}

bool lower_phis_to_scalar(struct shader *s)
{
	bool progress = false;
	foreach_block(b, s->fn) {
		foreach_instr_safe(i, b) {
			if (i->type != INSTR_phi)
				break;
			if (instr_as_phi(i)->def.num_components > 1) {
				split_phi(instr_as_phi(i));
				progress = true;
			}
		}
	}
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
