/*
 * lower_ir3_mediump_io: on a6xx+ mediump (RelaxedPrecision) values are
 * 16-bit, as Mesa 24.3 makes them with Turnip's SPIR-V options
 * (spirv_to_nir's mediump_16bit_alu, every stage) and ir3_nir_post_finalize
 * (nir_lower_mediump_io, gen >= 6, fragment shaders):
 *
 *  - an ALU instruction marked mediump whose sources and result are 32-bit
 *    floats is computed at 16 bits: its sources are narrowed, its result
 *    widened where it is read (a comparison keeps its boolean);
 *  - a fragment input declared mediump and not flat is read rounded to 16 bits
 *    (flat.b has no destination type to narrow to), f2f32(f2f16(x)): the
 *    narrowing folds into bary.f (ir3_cf), which then writes a half
 *    register as Mesa's 16-bit load_interpolated_input.  Texture
 *    coordinates read the 32-bit value: the prefetch interpolates at 32
 *    bits whatever the NIR says (a sam that is not prefetched reads full
 *    registers here where Mesa's reads half ones);
 *  - a fragment output declared mediump is written from a half register.
 *
 * A narrowing folds where it can: a constant is narrowed, a widened 16-bit
 * value is taken as it was (Mesa's algebraic folds f2f16(f2f32(a@16)) to
 * a), so a chain of mediump operations stays at 16 bits; opt_phi_precision
 * carries that across phis, and ir3_cf folds the remaining conversions of
 * results into the instructions making them (add.f, mul.f, mad.f16/f32,
 * bary.f write the other size).
 *
 *	32x2 %v = @load_input …            16x2 %h = f2f16 %v
 *	32x2 %a = fadd mediump %v, %k  →   16x2 %a = fadd %h, %k16
 *	@store_output vec4(%a, …)          @store_output vec4(%a, …)
 *
 * Only 32-bit float I/O declarations and locals are mediump (the SPIR-V
 * reader), and only float operations are narrowed: Mesa also narrows
 * mediump integers (i2imp) and integer locals, which stay 32-bit here
 * (float locals: lower_ir3_mediump_locals.c).  Shaders these lowerings
 * change have info.precision_lowered: their results may differ from the
 * source's beyond float rounding (the execution check compares them with
 * the lowered shader).
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

static bool is_vec(const struct alu_instr *a)
{
	return a && (a->op == OP_vec2 || a->op == OP_vec3 || a->op == OP_vec4);
}

/* A mediump float operation computed per component: float sources of the
 * result's size and a float result (or a comparison's boolean). */
static bool narrowable(const struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	enum base_type out = alu_type_base(info->output_type);
	if (!alu->mediump || info->output_size || alu_type_bits(info->output_type) > 1 ||
	    (out != BASE_float && out != BASE_bool) ||
	    (out == BASE_float && alu->def.bit_size != 32) || !info->num_inputs)
		return false;
	for (unsigned k = 0; k < info->num_inputs; k++)
		if (info->input_sizes[k] || alu_type_base(info->input_types[k]) != BASE_float ||
		    alu_type_bits(info->input_types[k]) || alu->src[k].src.ssa->bit_size != 32)
			return false;
	return true;
}

static bool narrow_alu(struct builder *b, struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	unsigned n = alu->def.num_components;
	builder_init(b, b->shader, cursor_before_instr(&alu->instr));
	for (unsigned k = 0; k < info->num_inputs; k++) {
		struct alu_src *as = &alu->src[k];
		struct ssa_def *d = as->src.ssa;
		struct alu_instr *p = d->parent->type == INSTR_alu ? instr_as_alu(d->parent) : NULL;
		if (p && p->op == OP_f2f32 && p->src[0].src.ssa->bit_size == 16) {
			/* a widened 16-bit value: read it as it was */
			for (unsigned i = 0; i < n; i++)
				as->swizzle[i] = p->src[0].swizzle[as->swizzle[i]];
			src_rewrite(&as->src, p->src[0].src.ssa);
		} else if (!ssa_def_as_const(d) && !is_vec(p)) {
			/* one f2f16 of the vector, as vtn's f2fmp of the operand */
			src_rewrite(&as->src, b_f2f16(b, d));
		} else {
			/* component by component (through a vecN, as Mesa's scalar
			 * code narrows each component on its own) */
			struct ssa_def *c[16];
			for (unsigned i = 0; i < n; i++)
				c[i] = is_vec(p) ? ir3_nir_narrow16_comp(b, p->src[as->swizzle[i]].src.ssa,
									 p->src[as->swizzle[i]].swizzle[0])
						 : ir3_nir_narrow16_comp(b, d, as->swizzle[i]);
			src_rewrite(&as->src, b_vec(b, c, n));
			for (unsigned i = 0; i < 16; i++)
				as->swizzle[i] = (uint8_t)(i < n ? i : 0);
		}
	}
	alu->mediump = false;
	if (alu_type_base(info->output_type) != BASE_float)
		return true;
	alu->def.bit_size = 16;
	builder_init(b, b->shader, cursor_after_instr(&alu->instr));
	struct ssa_def *wide = b_f2f32(b, &alu->def);
	ssa_def_rewrite_uses_after(&alu->def, wide, wide->parent);
	return true;
}

static bool is_fs_input_load(enum intrinsic op)
{
	return op == INTR_load_input || op == INTR_interp_at_centroid ||
	       op == INTR_interp_at_barycentric;
}

/* A mediump input as Mesa's 16-bit load_interpolated_input: its uses read
 * it rounded to 16 bits (f2f32(f2f16(x)), the f2f16 folding into bary.f:
 * ir3_cf), but for texture coordinates, which read the 32-bit value the
 * prefetch interpolates whatever the NIR says (the prefetch is the usual
 * case; a sam that is not prefetched reads full registers where Mesa's
 * reads half ones). */
static bool narrow_input(struct builder *b, struct intrinsic_instr *load)
{
	builder_init(b, b->shader, cursor_after_instr(&load->instr));
	struct ssa_def *h = b_f2f16(b, &load->def);
	struct ssa_def *w = b_f2f32(b, h);
	bool any = false;
	foreach_use_safe(use, &load->def) {
		if (use->parent_if || use->parent_instr == h->parent ||
		    use->parent_instr->type == INSTR_tex)
			continue;
		src_rewrite(use, w);
		any = true;
	}
	if (!any) {
		instr_remove(w->parent);
		instr_remove(h->parent);
	}
	return any;
}

bool lower_ir3_mediump_io(struct shader *s, const struct ir3_lowering *t)
{
	if (!t->mediump_16bit)
		return false;
	bool fs = s->stage == STAGE_FRAGMENT, progress = false;
	bool *in = arena_array(&s->arena, bool, s->num_inputs + 1);
	bool *out = arena_array(&s->arena, bool, s->num_outputs + 1);
	for (unsigned k = 0; fs && k < s->num_inputs; k++) {
		struct io_decl *d = s->inputs[k];
		in[k] = d->mediump && d->bit_size == 32 && d->interp != INTERP_flat && d->location >= 0;
	}
	for (unsigned k = 0; fs && k < s->num_outputs; k++) {
		struct io_decl *d = s->outputs[k];
		out[k] = d->mediump && d->bit_size == 32 && d->location >= 0;
	}
	struct builder b = { .shader = s };
	foreach_block(blk, s->fn)
		foreach_instr_safe(i, blk) {
			if (i->type == INSTR_alu) {
				if (narrowable(instr_as_alu(i)))
					progress |= narrow_alu(&b, instr_as_alu(i));
				continue;
			}
			if (i->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(i);
			if (is_fs_input_load(intr->op)) {
				unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
				if (base >= s->num_inputs || !in[base] || intr->def.bit_size != 32)
					continue;
				progress |= narrow_input(&b, intr);
			} else if (intr->op == INTR_store_output) {
				unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
				if (base >= s->num_outputs || !out[base] || intr->src[0].ssa->bit_size != 32)
					continue;
				builder_init(&b, s, cursor_before_instr(i));
				src_rewrite(&intr->src[0], ir3_nir_narrow16(&b, intr->src[0].ssa));
				progress = true;
			}
		}
	for (unsigned k = 0; fs && k < s->num_outputs; k++)
		if (out[k])
			s->outputs[k]->bit_size = 16;
	if (progress)
		s->info.precision_lowered = true;
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
