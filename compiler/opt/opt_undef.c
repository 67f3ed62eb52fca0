/*
 * opt_undef: what an undefined value lets go (Mesa's nir_opt_undef, which
 * the GL state tracker's optimisation loop runs): a select with an
 * undefined operand takes the other one, a vecN all of whose components
 * are undefined is undefined, a store of an undefined value is no store
 * (opt_undef_store: outputs, locals, buffers, shared and scratch memory).
 *
 *	%r = bcsel %c, %x, %u (undef)   →   %r = %x
 *	@store_ssbo %u, …               →   (nothing)
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

static bool is_undef(const struct ssa_def *d)
{
	return d->parent->type == INSTR_undef;
}

static bool opt_alu(struct shader *s, struct alu_instr *alu)
{
	struct builder b;
	struct ssa_def *r = NULL;
	unsigned n = alu->def.num_components, sw[16];
	if (alu->op == OP_bcsel) {
		for (unsigned i = 1; i < 3 && !r; i++) {
			if (!is_undef(alu->src[i].src.ssa))
				continue;
			unsigned other = 3 - i;
			for (unsigned k = 0; k < n; k++)
				sw[k] = alu->src[other].swizzle[k];
			builder_init(&b, s, cursor_before_instr(&alu->instr));
			r = b_swizzle(&b, alu->src[other].src.ssa, sw, n);
		}
	} else if (alu->op == OP_vec2 || alu->op == OP_vec3 || alu->op == OP_vec4) {
		for (unsigned i = 0; i < n; i++)
			if (!is_undef(alu->src[i].src.ssa))
				return false;
		builder_init(&b, s, cursor_before_instr(&alu->instr));
		r = b_undef(&b, n, alu->def.bit_size);
	}
	if (!r)
		return false;
	ssa_def_rewrite_uses(&alu->def, r);
	instr_remove(&alu->instr);
	return true;
}

/* A store whose value (source 0) is undefined. */
static bool opt_store(struct intrinsic_instr *intr)
{
	switch (intr->op) {
	case INTR_store_output: case INTR_store_per_vertex_output: case INTR_store_local:
	case INTR_store_ssbo: case INTR_store_shared: case INTR_store_global:
	case INTR_store_scratch:
		break;
	default:
		return false;
	}
	if (!is_undef(intr->src[0].ssa))
		return false;
	instr_remove(&intr->instr);
	return true;
}

bool opt_undef(struct shader *s)
{
	bool progress = false;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type == INSTR_alu)
				progress |= opt_alu(s, instr_as_alu(in));
			else if (in->type == INSTR_intrinsic)
				progress |= opt_store(instr_as_intrinsic(in));
		}
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
