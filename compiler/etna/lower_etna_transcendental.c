/*
 * lower_etna_transcendental: the transcendentals as the Vivante units
 * compute them (Mesa's etna_lower_alu, ../../shared/reference/targets.md
 * §4.1):
 *
 *  - sin and cos take their argument in units of π/2 (π with the fast
 *    transcendentals): the source is multiplied first;
 *  - with the fast transcendentals (HAS_NEW_TRANSCENDENTALS) div, log2, sin
 *    and cos write two components, a mantissa-like part and a scale, and a
 *    multiply joins them (the value takes a VEC2T register: xy or zw):
 *
 *	%r = flog2 %a     →   %t = flog2 %a.xx (2 components)
 *	                      %r = fmul %t.x, %t.y
 *
 * Runs last: no optimisation may see the two-component form.
 */
#include <math.h>

#include "compiler/etna/etna_nir.h"
#include "compiler/ir/builder.h"

static bool two_parts(enum alu_op op)
{
	return op == OP_fdiv || op == OP_flog2 || op == OP_fsin || op == OP_fcos;
}

/* A two-component copy of the scalar `alu` (its sources read twice) and
 * the product of its components in place of its result. */
static void split_result(struct shader *s, struct builder *b, struct alu_instr *alu)
{
	struct alu_instr *wide = alu_instr_create(s, alu->op);
	unsigned n = alu_op_infos[alu->op].num_inputs;
	for (unsigned i = 0; i < n; i++) {
		src_init(&wide->src[i].src, &wide->instr, alu->src[i].src.ssa);
		wide->src[i].swizzle[0] = wide->src[i].swizzle[1] = alu->src[i].swizzle[0];
	}
	wide->exact = alu->exact;
	ssa_def_init(&wide->instr, &wide->def, 2, 32);
	b_insert(b, &wide->instr);
	struct ssa_def *r = b_fmul(b, b_channel(b, &wide->def, 0), b_channel(b, &wide->def, 1));
	ssa_def_rewrite_uses(&alu->def, r);
	instr_remove(&alu->instr);
}

bool lower_etna_transcendental(struct shader *s, const struct etna_lowering *t)
{
	bool progress = false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_alu)
				continue;
			struct alu_instr *alu = instr_as_alu(in);
			if (alu->def.bit_size != 32 || alu->def.num_components != 1)
				continue;
			builder_init(&b, s, cursor_before_instr(in));
			if (alu->op == OP_fsin || alu->op == OP_fcos) {
				double scale = t->has_new_transcendentals ? 1.0 / M_PI : 2.0 / M_PI;
				struct ssa_def *x = b_fmul(&b, b_channel(&b, alu->src[0].src.ssa,
									 alu->src[0].swizzle[0]),
							   b_imm_float(&b, scale));
				src_rewrite(&alu->src[0].src, x);
				alu->src[0].swizzle[0] = 0;
				progress = true;
			}
			if (t->has_new_transcendentals && two_parts(alu->op)) {
				split_result(s, &b, alu);
				progress = true;
			}
		}
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
