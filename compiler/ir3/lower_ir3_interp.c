/*
 * lower_ir3_interp: interpolation at an offset or a sample is arithmetic
 * on the barycentrics, then the input at the result (Mesa's
 * ir3_nir_lower_load_barycentric_at_offset and _at_sample, targets.md
 * §2.1):
 *
 *	interp_at_offset(off)   ij  = load_barycentric_pixel
 *	                        ij' = ffma(off.y, ddy(ij), ffma(off.x, ddx(ij), ij))
 *	                        interp_at_barycentric(ij')          (bary.f)
 *	interp_at_sample(s)     the same at off = sample_pos(s) - 0.5  (rgetpos)
 *
 * The machine rounds ij' to 32 bits, so the result is not the exact value
 * at the offset: a shader summing many may drift past the exact tolerance,
 * and the differential test then finds the machine computing what this
 * lowered shader says (agree-lowered).  Mesa also corrects smooth inputs
 * for perspective through the centre's 1/w; these barycentrics are linear
 * in the screen (the interpreter's and the simulator's).
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

static struct ssa_def *lower(struct builder *b, struct intrinsic_instr *intr, void *data)
{
	(void)data;
	if (intr->op != INTR_interp_at_offset && intr->op != INTR_interp_at_sample)
		return NULL;
	int32_t base = intrinsic_get(intr, INTR_IDX_base);
	struct ssa_def *off[2];
	if (intr->op == INTR_interp_at_sample) {
		struct ssa_def *pos = b_intr(b, load_sample_pos_from_id, 2, 32, (intr->src[0].ssa));
		for (unsigned k = 0; k < 2; k++)
			off[k] = b_fadd(b, b_channel(b, pos, k), b_imm_float(b, -0.5));
	} else {
		for (unsigned k = 0; k < 2; k++)
			off[k] = b_channel(b, intr->src[0].ssa, k);
	}
	struct ssa_def *ij = b_intr(b, load_barycentric_pixel, 2, 32, (), .base = base);
	struct ssa_def *dx = b_intr(b, ddx, 2, 32, (ij)), *dy = b_intr(b, ddy, 2, 32, (ij)), *at[2];
	for (unsigned k = 0; k < 2; k++) {
		at[k] = b_ffma(b, off[0], b_channel(b, dx, k), b_channel(b, ij, k));
		at[k] = b_ffma(b, off[1], b_channel(b, dy, k), at[k]);
	}
	return b_intr(b, interp_at_barycentric, intr->def.num_components, intr->def.bit_size,
		      (b_vec2(b, at[0], at[1]), intr->src[intrinsic_infos[intr->op].num_srcs - 1].ssa),
		      .base = base, .component = intrinsic_get(intr, INTR_IDX_component));
}

bool lower_ir3_interp(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	if (s->stage != STAGE_FRAGMENT)
		return false;
	return shader_progress(s, b_lower_intrinsics(s, lower, NULL),
			       META_BLOCK_INDEX | META_DOMINANCE);
}
