/*
 * lower_ir3_ssbo_scalar: on a6xx without isam.v (a618, a630), an SSBO load
 * nothing in the shader writes to (access can_reorder) is read through the
 * texture cache with isam, one component at a time, and Mesa keeps such
 * loads scalar for it: nir_lower_io_to_scalar with
 * ir3_nir_should_scalarize_mem, and ir3_nir_should_vectorize_mem leaves
 * them so (ir3_nir_load_store_vectorize).  a660 and a7xx read a vector
 * with isam.v and keep them whole.
 *
 *	32x4 %v = @load_ssbo %s, %o access=can_reorder align_mul=16 align_offset=0
 *	  → 32 %x = @load_ssbo %s, %o         align_offset=0
 *	    32 %y = @load_ssbo %s, %o + 4     align_offset=4  …
 *	    32x4 %v = vec4 %x, %y, %z, %w
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

static struct ssa_def *lower(struct builder *b, struct intrinsic_instr *intr, void *data)
{
	(void)data;
	if (intr->op != INTR_load_ssbo || intr->def.num_components == 1 ||
	    !((unsigned)intrinsic_get(intr, INTR_IDX_access) & ACCESS_CAN_REORDER))
		return NULL;
	unsigned n = intr->def.num_components, bits = intr->def.bit_size, bytes = bits / 8;
	int32_t access = intrinsic_get(intr, INTR_IDX_access);
	unsigned mul = (unsigned)intrinsic_get(intr, INTR_IDX_align_mul);
	unsigned at = (unsigned)intrinsic_get(intr, INTR_IDX_align_offset);
	struct ssa_def *c[16];
	for (unsigned k = 0; k < n; k++) {
		struct ssa_def *off = k ? b_iadd(b, intr->src[1].ssa, b_imm_int(b, (int64_t)(k * bytes)))
					: intr->src[1].ssa;
		c[k] = b_intr(b, load_ssbo, 1, bits, (intr->src[0].ssa, off), .access = access,
			      .align_mul = (int32_t)mul, .align_offset = (int32_t)((at + k * bytes) % mul));
	}
	return b_vec(b, c, n);
}

bool lower_ir3_ssbo_scalar(struct shader *s, const struct ir3_lowering *t)
{
	if (!t->has_isam_ssbo || t->has_isam_v)
		return false;
	return shader_progress(s, b_lower_intrinsics(s, lower, NULL), META_BLOCK_INDEX | META_DOMINANCE);
}
