/*
 * lower_ir3_io_8bit: ir3 has no 8-bit registers — an 8-bit value lives in
 * a half register, and 8-bit operations are 16-bit ones with u8/s8 types
 * (ir3_type_is_half) — so an 8-bit stage input or output
 * (GL_EXT_shader_8bit_storage, `u8vec2 m0` in a block) travels as a 16-bit
 * one: its declaration becomes 16 bits wide, a load reads 16 bits and
 * takes the low byte, a store writes the byte zero-extended.
 *
 *	8x2  %v = @load_input %0 base=1   →  16x2 %w = @load_input %0 base=1
 *	                                      8x2  %v = u2u8 %w
 *	@store_output %b@8, %0 base=0     →  16   %h = u2u16 %b
 *	                                      @store_output %h, %0 base=0
 *
 * Both ends of a varying are lowered alike, so what the producer wrote is
 * what the consumer reads.  (The SPIR-V reader keeps such I/O 8-bit, as
 * Mesa's does: Vivante reads it into a 32-bit register with one i2i.)
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

static bool widen_decls(struct io_decl **decls, unsigned n)
{
	bool any = false;
	for (unsigned i = 0; i < n; i++)
		if (decls[i]->bit_size == 8) {
			decls[i]->bit_size = 16;
			any = true;
		}
	return any;
}

static bool is_io_load(enum intrinsic op)
{
	return op == INTR_load_input || op == INTR_load_per_vertex_input || op == INTR_load_output ||
	       op == INTR_load_per_vertex_output;
}

static bool is_io_store(enum intrinsic op)
{
	return op == INTR_store_output || op == INTR_store_per_vertex_output;
}

bool lower_ir3_io_8bit(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	bool in = widen_decls(s->inputs, s->num_inputs);
	bool out = widen_decls(s->outputs, s->num_outputs);
	if (!in && !out)
		return false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr_safe(i, blk) {
			if (i->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(i);
			if (is_io_load(intr->op) && intr->def.bit_size == 8) {
				intr->def.bit_size = 16;
				builder_init(&b, s, cursor_after_instr(i));
				struct ssa_def *v = b_u2u8(&b, &intr->def);
				ssa_def_rewrite_uses_after(&intr->def, v, v->parent);
			} else if (is_io_store(intr->op) && intr->src[0].ssa->bit_size == 8) {
				builder_init(&b, s, cursor_before_instr(i));
				src_rewrite(&intr->src[0], b_u2u16(&b, intr->src[0].ssa));
			}
		}
	return shader_progress(s, true, META_BLOCK_INDEX | META_DOMINANCE);
}
