/*
 * lower_ir3_ubo_vec4: on a6xx+ a UBO is read by ldc, a whole vec4 at a
 * time (ir3_isel_intr.c's emit_ldc: ldc.offsetN of the vec4 at offset/16).
 * A 32-bit load_ubo whose components may not lie in one known place of one
 * vec4 — a float array indexed by a value, `splits[c]` — becomes loads of
 * the vec4s it can touch and a choice of components by the offset, as
 * Mesa's nir_lower_ubo_vec4 (targets.md §2.1):
 *
 *	32   %v = @load_ubo %u, %o align_mul=4 align_offset=0
 *	→	32x4 %a = @load_ubo %u, (%o & ~15) align_mul=16 align_offset=0
 *		%c = (%o >> 2) & 3
 *		%v = bcsel(%c == 3, %a.w, bcsel(%c == 2, %a.z, bcsel(%c == 1, %a.y, %a.x)))
 *
 * A load of several components reads the next vec4 too and chooses each
 * component among the eight.  A constant offset needs no choice: each
 * vec4's part is its own aligned load.  Runs after
 * ir3_nir_analyze_ubo_ranges, on the loads left for ldc.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

/* Does emit_ldc take this load as it is? */
static bool ldc_ready(const struct intrinsic_instr *intr)
{
	unsigned mul = (unsigned)intrinsic_get(intr, INTR_IDX_align_mul);
	unsigned off = (unsigned)intrinsic_get(intr, INTR_IDX_align_offset);
	return mul >= 16 && !(off & 3) && (off % 16) / 4 + intr->def.num_components <= 4;
}

/* `n` components from byte offset `at`, which is `first` dwords into its vec4 */
static struct ssa_def *load_vec4(struct builder *b, struct ssa_def *ubo, struct ssa_def *at,
				 unsigned first, unsigned n)
{
	return b_intr(b, load_ubo, n, 32, (ubo, at), .align_mul = 16, .align_offset = first * 4);
}

/* Constant offset: one aligned load per vec4 the components lie in. */
static struct ssa_def *lower_const(struct builder *b, struct intrinsic_instr *intr, uint32_t off)
{
	struct ssa_def *ubo = intr->src[0].ssa, *c[4];
	unsigned n = intr->def.num_components;
	for (unsigned k = 0; k < n;) {
		unsigned dw = off / 4 + k, first = dw % 4, m = n - k < 4 - first ? n - k : 4 - first;
		struct ssa_def *v = load_vec4(b, ubo, b_imm_int(b, (int64_t)dw * 4), first, m);
		for (unsigned j = 0; j < m; j++)
			c[k + j] = m == 1 ? v : b_channel(b, v, j);
		k += m;
	}
	return n == 1 ? c[0] : b_vec(b, c, n);
}

/* channels[idx], idx a value in [0, count) */
static struct ssa_def *choose(struct builder *b, struct ssa_def *idx, struct ssa_def *const *channels,
			      unsigned count)
{
	struct ssa_def *r = channels[0];
	for (unsigned j = 1; j < count; j++)
		r = b_bcsel(b, b_ieq(b, idx, b_imm_int(b, j)), channels[j], r);
	return r;
}

static struct ssa_def *lower_dynamic(struct builder *b, struct intrinsic_instr *intr)
{
	struct ssa_def *ubo = intr->src[0].ssa, *o = intr->src[1].ssa, *ch[8], *c[4];
	unsigned n = intr->def.num_components, nvec = n == 1 ? 1 : 2;
	struct ssa_def *at = b_iand(b, o, b_imm_int(b, ~15));
	for (unsigned v = 0; v < nvec; v++) {
		struct ssa_def *a = load_vec4(b, ubo, v ? b_iadd(b, at, b_imm_int(b, 16)) : at, 0, 4);
		for (unsigned j = 0; j < 4; j++)
			ch[4 * v + j] = b_channel(b, a, j);
	}
	struct ssa_def *start = b_iand(b, b_ushr(b, o, b_imm_int(b, 2)), b_imm_int(b, 3));
	for (unsigned k = 0; k < n; k++)
		c[k] = choose(b, k ? b_iadd(b, start, b_imm_int(b, k)) : start, ch, 4 * nvec);
	return n == 1 ? c[0] : b_vec(b, c, n);
}

static struct ssa_def *lower(struct builder *b, struct intrinsic_instr *intr, void *data)
{
	(void)data;
	if (intr->op != INTR_load_ubo || intr->def.bit_size != 32 || intr->def.num_components > 4 ||
	    ldc_ready(intr))
		return NULL;
	struct load_const_instr *lc = ssa_def_as_const(intr->src[1].ssa);
	return lc ? lower_const(b, intr, (uint32_t)lc->value[0]) : lower_dynamic(b, intr);
}

bool lower_ir3_ubo_vec4(struct shader *s, const struct ir3_lowering *t)
{
	bool progress = t->ubo_ldc && b_lower_intrinsics(s, lower, NULL);
	return shader_progress(s, progress, progress ? META_BLOCK_INDEX | META_DOMINANCE : META_ALL);
}
