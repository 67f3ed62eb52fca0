/*
 * lower_ir3_alu: the ALU ops ir3 has no instruction for, rewritten into ops
 * it has (Mesa: nir_lower_alu_to_scalar for the horizontal ops, and the
 * lower_* options of ir3_base_options, targets.md §2.1).
 *
 *	fdot4 a, b      →  fmul a.w, b.w; ffma a.z, b.z, t; … (exact: from .x)
 *	ball_fequal3    →  feq per component, iand
 *	fltu/fgeu/…     →  inot of the ordered compare
 *	uadd_carry, usub_borrow, extract_u8/i8/u16/i16 (constant byte)
 *	frexp_sig/exp          exponent arithmetic        (lower_frexp)
 *	pack/unpack_{u,s}norm  scale, round, shift        (nir_lower_pack)
 *	pack/unpack_half_2x16, pack/unpack_32_2x16(_split), pack/unpack_64_2x32
 *
 * fdiv, ffract, isign, fpow, flrp, fmod/frem, the integer divisions, the
 * multiply-highs, ldexp and the bitfield ops are the generic lowering passes'
 * (compiler/opt), which ir3_lower_nir runs before this one.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

/* Source `i` with its swizzle, as a value of `n` components. */
static struct ssa_def *src_n(struct builder *b, struct alu_instr *alu, unsigned i, unsigned n)
{
	struct ssa_def *d = alu->src[i].src.ssa;
	bool identity = d->num_components == n;
	unsigned sw[16];
	for (unsigned k = 0; k < n; k++) {
		sw[k] = alu->src[i].swizzle[k];
		identity &= sw[k] == k;
	}
	return identity ? d : b_swizzle(b, d, sw, n);
}

static struct ssa_def *src(struct builder *b, struct alu_instr *alu, unsigned i)
{
	unsigned n = alu_op_infos[alu->op].input_sizes[i];
	return src_n(b, alu, i, n ? n : alu->def.num_components);
}

/* From the last component, unless the dot is exact (Mesa's lower_fdot:
 * "Reversed order can result in lower instruction count because it creates
 * more MAD/FMA in the case of fdot(a, vec4(b, 1.0))"). */
static struct ssa_def *lower_dot(struct builder *b, struct alu_instr *alu, unsigned n)
{
	struct ssa_def *x = src_n(b, alu, 0, n), *y = src_n(b, alu, 1, n);
	bool reverse = !alu->exact;
	unsigned first = reverse ? n - 1 : 0;
	struct ssa_def *acc = b_fmul(b, b_channel(b, x, first), b_channel(b, y, first));
	for (unsigned i = 1; i < n; i++) {
		unsigned k = reverse ? n - 1 - i : i;
		acc = b_ffma(b, b_channel(b, x, k), b_channel(b, y, k), acc);
	}
	return acc;
}

static struct ssa_def *lower_all_any(struct builder *b, struct alu_instr *alu, unsigned n,
				     enum alu_op cmp, enum alu_op join)
{
	struct ssa_def *x = src_n(b, alu, 0, n), *y = src_n(b, alu, 1, n);
	struct ssa_def *acc = NULL;
	for (unsigned k = 0; k < n; k++) {
		struct ssa_def *c = b_alu(b, cmp, b_channel(b, x, k), b_channel(b, y, k), NULL, NULL);
		acc = acc ? b_alu(b, join, acc, c, NULL, NULL) : c;
	}
	return acc;
}

static struct ssa_def *lower_extract(struct builder *b, struct alu_instr *alu, unsigned width,
				     bool sign)
{
	struct load_const_instr *lc = ssa_def_as_const(alu->src[1].src.ssa);
	if (!lc || lc->instr.type != INSTR_load_const)
		return NULL;
	unsigned k = (unsigned)lc->value[alu->src[1].swizzle[0]];
	for (unsigned c = 1; c < alu->def.num_components; c++)
		if (lc->value[alu->src[1].swizzle[c]] != k)
			return NULL;	/* one shift for every component */
	struct ssa_def *v = src(b, alu, 0);
	unsigned bits = v->bit_size;
	unsigned lsb = (k * width) % bits;
	struct ssa_def *up = b_ishl(b, v, b_imm_int(b, (int64_t)(bits - width - lsb)));
	struct ssa_def *sh = b_imm_int(b, (int64_t)(bits - width));
	return sign ? b_ishr(b, up, sh) : b_ushr(b, up, sh);
}

static struct ssa_def *pack_2x16(struct builder *b, struct ssa_def *lo, struct ssa_def *hi)
{
	return b_ior(b, b_u2u32(b, lo), b_ishl(b, b_u2u32(b, hi), b_imm_int(b, 16)));
}

static struct ssa_def *u32(struct builder *b, uint32_t v) { return b_imm_int(b, v); }

/* frexp (nir_lower_frexp, 32-bit): the exponent field, zero for zero */
static struct ssa_def *lower_frexp(struct builder *b, struct ssa_def *x, bool sig)
{
	struct ssa_def *zero = b_fneu(b, b_fabs(b, x), b_imm_float(b, 0));
	if (sig) {
		struct ssa_def *s = b_ior(b, b_iand(b, x, u32(b, 0x807fffff)), u32(b, 0x3f000000));
		return b_bcsel(b, zero, s, x);
	}
	struct ssa_def *e = b_isub(b, b_iand(b, b_ushr(b, x, u32(b, 23)), u32(b, 0xff)), u32(b, 126));
	return b_bcsel(b, zero, e, u32(b, 0));
}

/* pack_{u,s}norm_NxM (nir_lower_pack): each component scaled, rounded,
 * converted and shifted into place */
static struct ssa_def *pack_norm(struct builder *b, struct ssa_def *v, unsigned n, bool snorm)
{
	unsigned bits = 32 / n;
	double scale = snorm ? (double)((1u << (bits - 1)) - 1) : (double)((1u << bits) - 1);
	struct ssa_def *r = NULL;
	for (unsigned k = 0; k < n; k++) {
		struct ssa_def *c = b_channel(b, v, k);
		c = snorm ? b_fmin(b, b_fmax(b, c, b_imm_float(b, -1)), b_imm_float(b, 1)) : b_fsat(b, c);
		c = b_fround_even(b, b_fmul(b, c, b_imm_float(b, scale)));
		c = snorm ? b_f2i32(b, c) : b_f2u32(b, c);
		c = b_iand(b, c, u32(b, (1u << bits) - 1));
		if (k)
			c = b_ishl(b, c, u32(b, k * bits));
		r = r ? b_ior(b, r, c) : c;
	}
	return r;
}

static struct ssa_def *unpack_norm(struct builder *b, struct ssa_def *v, unsigned n, bool snorm)
{
	unsigned bits = 32 / n;
	double scale = snorm ? (double)((1u << (bits - 1)) - 1) : (double)((1u << bits) - 1);
	struct ssa_def *c[4];
	for (unsigned k = 0; k < n; k++) {
		struct ssa_def *f;
		if (snorm) {
			struct ssa_def *x = b_ishl(b, v, u32(b, 32 - bits - k * bits));
			f = b_i2f32(b, b_ishr(b, x, u32(b, 32 - bits)));
		} else {
			f = b_u2f32(b, b_iand(b, b_ushr(b, v, u32(b, k * bits)), u32(b, (1u << bits) - 1)));
		}
		f = b_fmul(b, f, b_imm_float(b, 1.0 / scale));
		c[k] = snorm ? b_fmax(b, f, b_imm_float(b, -1)) : f;
	}
	return b_vec(b, c, n);
}

/* The replacement of one instruction, or NULL to keep it. */
static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	switch (alu->op) {
	case OP_fdot2: return lower_dot(b, alu, 2);
	case OP_fdot3: return lower_dot(b, alu, 3);
	case OP_fdot4: return lower_dot(b, alu, 4);
	case OP_ball_fequal2: return lower_all_any(b, alu, 2, OP_feq, OP_iand);
	case OP_ball_fequal3: return lower_all_any(b, alu, 3, OP_feq, OP_iand);
	case OP_ball_fequal4: return lower_all_any(b, alu, 4, OP_feq, OP_iand);
	case OP_bany_fnequal2: return lower_all_any(b, alu, 2, OP_fneu, OP_ior);
	case OP_bany_fnequal3: return lower_all_any(b, alu, 3, OP_fneu, OP_ior);
	case OP_bany_fnequal4: return lower_all_any(b, alu, 4, OP_fneu, OP_ior);
	case OP_ball_iequal2: return lower_all_any(b, alu, 2, OP_ieq, OP_iand);
	case OP_ball_iequal3: return lower_all_any(b, alu, 3, OP_ieq, OP_iand);
	case OP_ball_iequal4: return lower_all_any(b, alu, 4, OP_ieq, OP_iand);
	case OP_bany_inequal2: return lower_all_any(b, alu, 2, OP_ine, OP_ior);
	case OP_bany_inequal3: return lower_all_any(b, alu, 3, OP_ine, OP_ior);
	case OP_bany_inequal4: return lower_all_any(b, alu, 4, OP_ine, OP_ior);
	case OP_fltu: return b_inot(b, b_fge(b, src(b, alu, 0), src(b, alu, 1)));
	case OP_fgeu: return b_inot(b, b_flt(b, src(b, alu, 0), src(b, alu, 1)));
	case OP_fneo: case OP_fequ: {
		struct ssa_def *x = src(b, alu, 0), *y = src(b, alu, 1);
		struct ssa_def *ne = b_ior(b, b_flt(b, x, y), b_flt(b, y, x));
		return alu->op == OP_fneo ? ne : b_inot(b, ne);
	}
	case OP_ford: case OP_funord: {
		struct ssa_def *x = src(b, alu, 0), *y = src(b, alu, 1);
		struct ssa_def *o = b_iand(b, b_feq(b, x, x), b_feq(b, y, y));
		return alu->op == OP_ford ? o : b_inot(b, o);
	}
	case OP_uadd_carry: {
		struct ssa_def *x = src(b, alu, 0);
		return b_b2i32(b, b_ult(b, b_iadd(b, x, src(b, alu, 1)), x));
	}
	case OP_usub_borrow: return b_b2i32(b, b_ult(b, src(b, alu, 0), src(b, alu, 1)));
	case OP_frexp_sig: case OP_frexp_exp:
		return alu->src[0].src.ssa->bit_size == 32 ? lower_frexp(b, src(b, alu, 0), alu->op == OP_frexp_sig)
							   : NULL;
	case OP_pack_unorm_4x8: return pack_norm(b, src(b, alu, 0), 4, false);
	case OP_pack_snorm_4x8: return pack_norm(b, src(b, alu, 0), 4, true);
	case OP_pack_unorm_2x16: return pack_norm(b, src(b, alu, 0), 2, false);
	case OP_pack_snorm_2x16: return pack_norm(b, src(b, alu, 0), 2, true);
	case OP_unpack_unorm_4x8: return unpack_norm(b, src(b, alu, 0), 4, false);
	case OP_unpack_snorm_4x8: return unpack_norm(b, src(b, alu, 0), 4, true);
	case OP_unpack_unorm_2x16: return unpack_norm(b, src(b, alu, 0), 2, false);
	case OP_unpack_snorm_2x16: return unpack_norm(b, src(b, alu, 0), 2, true);
	case OP_extract_u8: return lower_extract(b, alu, 8, false);
	case OP_extract_i8: return lower_extract(b, alu, 8, true);
	case OP_extract_u16: return lower_extract(b, alu, 16, false);
	case OP_extract_i16: return lower_extract(b, alu, 16, true);
	case OP_pack_32_2x16_split: return pack_2x16(b, src(b, alu, 0), src(b, alu, 1));
	case OP_pack_half_2x16_split:
		return pack_2x16(b, b_f2f16(b, src(b, alu, 0)), b_f2f16(b, src(b, alu, 1)));
	case OP_unpack_32_2x16_split_x: return b_u2u16(b, src(b, alu, 0));
	case OP_unpack_32_2x16_split_y:
		return b_u2u16(b, b_ushr(b, src(b, alu, 0), b_imm_int(b, 16)));
	case OP_pack_32_2x16: {
		struct ssa_def *v = src(b, alu, 0);
		return pack_2x16(b, b_channel(b, v, 0), b_channel(b, v, 1));
	}
	case OP_unpack_32_2x16: {
		struct ssa_def *v = src(b, alu, 0);
		return b_vec2(b, b_u2u16(b, v), b_u2u16(b, b_ushr(b, v, b_imm_int(b, 16))));
	}
	case OP_pack_half_2x16: {
		struct ssa_def *v = src(b, alu, 0);
		return pack_2x16(b, b_f2f16(b, b_channel(b, v, 0)), b_f2f16(b, b_channel(b, v, 1)));
	}
	case OP_unpack_half_2x16: {
		struct ssa_def *v = src(b, alu, 0);
		struct ssa_def *lo = b_u2u16(b, v), *hi = b_u2u16(b, b_ushr(b, v, b_imm_int(b, 16)));
		return b_vec2(b, b_f2f32(b, lo), b_f2f32(b, hi));
	}
	case OP_pack_64_2x32: {
		struct ssa_def *v = src(b, alu, 0);
		return b_pack_64_2x32_split(b, b_channel(b, v, 0), b_channel(b, v, 1));
	}
	case OP_unpack_64_2x32: {
		struct ssa_def *v = src(b, alu, 0);
		return b_vec2(b, b_unpack_64_2x32_split_x(b, v), b_unpack_64_2x32_split_y(b, v));
	}
	default:
		return NULL;
	}
}

bool lower_ir3_alu(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	return shader_progress(s, b_lower_alus(s, lower, NULL), META_BLOCK_INDEX | META_DOMINANCE);
}
