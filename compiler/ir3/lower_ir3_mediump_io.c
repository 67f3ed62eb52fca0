/*
 * lower_ir3_mediump_io: on a6xx+ a fragment shader's mediump
 * (RelaxedPrecision) float outputs are written from half registers, as
 * Mesa 24.3's ir3_nir_post_finalize has them (nir_lower_mediump_io on the
 * outputs, gen >= 6, fragment shaders only): the value is narrowed before
 * the store, component by component through the vecN that assembles it
 * (a constant narrowed, a widened 16-bit value taken as it was), and ir3_cf
 * folds each remaining narrowing into the instruction computing it
 * (add.f, mul.f, mad.f32, bary.f write the half register themselves).
 *
 *	@store_output %c, %0 base=0       →  16x4 %n = vec4 f2f16(%c.x) …
 *	                                      @store_output %n, %0 base=0
 *
 * Inputs stay 32-bit: lowering mediump inputs came after 24.3.  Only
 * 32-bit float declarations are marked mediump (the SPIR-V reader): Mesa
 * also narrows mediump integer outputs (i2imp), which stay 32-bit here.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

/* Component `c` of `d` at 16 bits: a constant's narrowed, a widened 16-bit
 * value's own (Mesa's algebraic folds f2f16(f2f32(a@16)) to a), else an
 * f2f16 of it. */
static struct ssa_def *narrow_comp(struct builder *b, struct ssa_def *d, unsigned c)
{
	struct load_const_instr *k = ssa_def_as_const(d);
	if (k) {
		uint64_t v = ir_float_to_bits(ir_float_from_bits(k->value[c], 32), 16);
		return b_const(b, 1, 16, &v);
	}
	if (d->parent->type == INSTR_alu) {
		struct alu_instr *a = instr_as_alu(d->parent);
		if (a->op == OP_f2f32 && a->src[0].src.ssa->bit_size == 16)
			return b_channel(b, a->src[0].src.ssa, a->src[0].swizzle[c]);
	}
	return b_f2f16(b, b_channel(b, d, c));
}

/* The value an output stores, narrowed component by component through the
 * vecN or mov that assembles it (Mesa narrows after lower_alu_to_scalar,
 * where each component folds on its own). */
static struct ssa_def *narrow(struct builder *b, struct ssa_def *v)
{
	struct ssa_def *c[16];
	struct alu_instr *a = v->parent->type == INSTR_alu ? instr_as_alu(v->parent) : NULL;
	bool vec = a && (a->op == OP_mov || a->op == OP_vec2 || a->op == OP_vec3 || a->op == OP_vec4);
	for (unsigned k = 0; k < v->num_components; k++)
		c[k] = vec ? narrow_comp(b, a->src[a->op == OP_mov ? 0 : k].src.ssa,
					 a->src[a->op == OP_mov ? 0 : k].swizzle[a->op == OP_mov ? k : 0])
			   : narrow_comp(b, v, k);
	return b_vec(b, c, v->num_components);
}

bool lower_ir3_mediump_io(struct shader *s, const struct ir3_lowering *t)
{
	if (!t->fs_mediump_io || s->stage != STAGE_FRAGMENT)
		return false;
	bool any = false;
	bool *out = arena_array(&s->arena, bool, s->num_outputs + 1);
	for (unsigned k = 0; k < s->num_outputs; k++) {
		struct io_decl *d = s->outputs[k];
		out[k] = d->mediump && d->bit_size == 32 && d->location >= 0;
		any |= out[k];
	}
	if (!any)
		return false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr_safe(i, blk) {
			if (i->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(i);
			if (intr->op != INTR_store_output)
				continue;
			unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
			if (base < s->num_outputs && out[base] &&
			    intr->src[0].ssa->bit_size == 32) {
				builder_init(&b, s, cursor_before_instr(i));
				src_rewrite(&intr->src[0], narrow(&b, intr->src[0].ssa));
			}
		}
	for (unsigned k = 0; k < s->num_outputs; k++)
		if (out[k])
			s->outputs[k]->bit_size = 16;
	return shader_progress(s, true, META_BLOCK_INDEX | META_DOMINANCE);
}
