/*
 * lower_mul_high: umul_high and imul_high (32-bit) from 16-bit pieces, for
 * targets without a multiply-high (Mesa's nir_lower_alu with lower_mul_high;
 * ir3, etnaviv).  No partial sum overflows:
 *
 *	umul_high x, y  →  xh*yh + (t >> 16) + ((xl*yh + (t & 0xffff)) >> 16),
 *	                   t = xh*yl + (xl*yl >> 16)
 *	imul_high x, y  →  umul_high x, y - (x < 0 ? y : 0) - (y < 0 ? x : 0)
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

static struct ssa_def *u32(struct builder *b, uint32_t v) { return b_imm_int(b, v); }

static struct ssa_def *umul_high(struct builder *b, struct ssa_def *x, struct ssa_def *y)
{
	struct ssa_def *m = u32(b, 0xffff), *s16 = u32(b, 16);
	struct ssa_def *xl = b_iand(b, x, m), *xh = b_ushr(b, x, s16);
	struct ssa_def *yl = b_iand(b, y, m), *yh = b_ushr(b, y, s16);
	struct ssa_def *t = b_iadd(b, b_imul24(b, xh, yl), b_ushr(b, b_imul24(b, xl, yl), s16));
	struct ssa_def *w1 = b_iadd(b, b_imul24(b, xl, yh), b_iand(b, t, m));
	return b_iadd(b, b_iadd(b, b_imul24(b, xh, yh), b_ushr(b, t, s16)), b_ushr(b, w1, s16));
}

/* imul_high from umul_high: subtract the other operand for each negative one */
static struct ssa_def *imul_high(struct builder *b, struct ssa_def *x, struct ssa_def *y)
{
	struct ssa_def *z = u32(b, 0), *h = umul_high(b, x, y);
	h = b_isub(b, h, b_bcsel(b, b_ilt(b, x, z), y, z));
	return b_isub(b, h, b_bcsel(b, b_ilt(b, y, z), x, z));
}

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if ((alu->op != OP_umul_high && alu->op != OP_imul_high) || alu->def.bit_size != 32)
		return NULL;
	unsigned n = alu->def.num_components, sw[2][16];
	for (unsigned k = 0; k < n; k++) {
		sw[0][k] = alu->src[0].swizzle[k];
		sw[1][k] = alu->src[1].swizzle[k];
	}
	struct ssa_def *x = b_swizzle(b, alu->src[0].src.ssa, sw[0], n);
	struct ssa_def *y = b_swizzle(b, alu->src[1].src.ssa, sw[1], n);
	return alu->op == OP_umul_high ? umul_high(b, x, y) : imul_high(b, x, y);
}

bool lower_mul_high(struct shader *s)
{
	return shader_progress(s, b_lower_alus(s, lower, NULL), META_BLOCK_INDEX | META_DOMINANCE);
}
