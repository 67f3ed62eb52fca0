/*
 * lower_ir3_int64: ir3 has no 64-bit registers; Mesa lowers 64-bit values
 * before selection (targets.md §2.1: ir3_nir_lower_64b_intrinsics and
 * nir_lower_int64) and so does this pass:
 *
 *	memory       a 64-bit load or store moves twice the 32-bit components
 *	             (loads: pack_64_2x32_split of their pairs)
 *	integers     add/sub with a carry, logic per half, shifts across the
 *	             halves, imul from mul of the low halves and umul_high,
 *	             compares high half first, conversions to and from 32 bits,
 *	             bcsel per half — each on unpack_64_2x32_split_x/_y of the
 *	             sources, packed again (selection moves packs for free)
 *
 * 64-bit floats are left alone: selection refuses them, as Mesa 24.3's ir3
 * fails fp64 shaders.  Only 32-bit-pair vectors of up to 4 components.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

struct halves {
	struct ssa_def *lo, *hi;
};

static struct halves split(struct builder *b, struct ssa_def *v)
{
	/* the halves of a pack (a lowered load's, an earlier result's) are
	 * its sources, through the movs that carry it (Mesa's algebraic
	 * folds unpack of pack the same way) */
	for (;;) {
		if (v->parent->type != INSTR_alu || v->num_components != 1)
			break;
		struct alu_instr *a = instr_as_alu(v->parent);
		if (a->op == OP_mov) {
			if (a->src[0].src.ssa->bit_size != 64)
				break;
			struct ssa_def *from = a->src[0].src.ssa;
			if (from->num_components != 1)
				break;
			v = from;
			continue;
		}
		if (a->op == OP_pack_64_2x32_split)
			return (struct halves){ b_channel(b, a->src[0].src.ssa, a->src[0].swizzle[0]),
						b_channel(b, a->src[1].src.ssa, a->src[1].swizzle[0]) };
		break;
	}
	return (struct halves){ b_unpack_64_2x32_split_x(b, v), b_unpack_64_2x32_split_y(b, v) };
}

static struct ssa_def *pack(struct builder *b, struct halves h)
{
	return b_pack_64_2x32_split(b, h.lo, h.hi);
}

static struct ssa_def *u32(struct builder *b, uint32_t v) { return b_imm_int(b, v); }

/* Source `i` of a per-component op, component `k`, as a scalar. */
static struct ssa_def *comp(struct builder *b, struct alu_instr *alu, unsigned i, unsigned k)
{
	return b_channel(b, alu->src[i].src.ssa, alu->src[i].swizzle[k]);
}

static struct halves add(struct builder *b, struct halves x, struct halves y, bool sub)
{
	struct ssa_def *lo = sub ? b_isub(b, x.lo, y.lo) : b_iadd(b, x.lo, y.lo);
	struct ssa_def *carry = b_b2i32(b, sub ? b_ult(b, x.lo, y.lo) : b_ult(b, lo, x.lo));
	struct ssa_def *hi = sub ? b_isub(b, b_isub(b, x.hi, y.hi), carry)
				 : b_iadd(b, b_iadd(b, x.hi, y.hi), carry);
	return (struct halves){ lo, hi };
}

/* a shift by a 32-bit amount (mod 64), across the halves */
static struct halves shift(struct builder *b, enum alu_op op, struct halves x, struct ssa_def *n)
{
	n = b_iand(b, n, u32(b, 63));
	struct ssa_def *big = b_uge(b, n, u32(b, 32));
	struct ssa_def *m = b_iand(b, n, u32(b, 31));
	struct ssa_def *nz = b_ine(b, m, u32(b, 0));
	struct ssa_def *inv = b_isub(b, u32(b, 32), m);
	struct halves small, large;
	if (op == OP_ishl) {
		struct ssa_def *spill = b_bcsel(b, nz, b_ushr(b, x.lo, inv), u32(b, 0));
		small = (struct halves){ b_ishl(b, x.lo, m), b_ior(b, b_ishl(b, x.hi, m), spill) };
		large = (struct halves){ u32(b, 0), b_ishl(b, x.lo, m) };
	} else {
		bool s = op == OP_ishr;
		struct ssa_def *spill = b_bcsel(b, nz, b_ishl(b, x.hi, inv), u32(b, 0));
		struct ssa_def *hi = s ? b_ishr(b, x.hi, m) : b_ushr(b, x.hi, m);
		small = (struct halves){ b_ior(b, b_ushr(b, x.lo, m), spill), hi };
		large = (struct halves){ hi, s ? b_ishr(b, x.hi, u32(b, 31)) : u32(b, 0) };
	}
	return (struct halves){ b_bcsel(b, big, large.lo, small.lo), b_bcsel(b, big, large.hi, small.hi) };
}

static struct ssa_def *compare(struct builder *b, enum alu_op op, struct halves x, struct halves y)
{
	switch (op) {
	case OP_ieq: return b_iand(b, b_ieq(b, x.lo, y.lo), b_ieq(b, x.hi, y.hi));
	case OP_ine: return b_ior(b, b_ine(b, x.lo, y.lo), b_ine(b, x.hi, y.hi));
	default: break;
	}
	bool less = op == OP_ilt || op == OP_ult;
	bool sign = op == OP_ilt || op == OP_ige;
	struct ssa_def *hi_lt = sign ? b_ilt(b, x.hi, y.hi) : b_ult(b, x.hi, y.hi);
	struct ssa_def *lt = b_ior(b, hi_lt, b_iand(b, b_ieq(b, x.hi, y.hi), b_ult(b, x.lo, y.lo)));
	return less ? lt : b_inot(b, lt);
}

/* The high 64 bits of a 64×64 product from 32×32 products (nir_lower_int64's
 * lower_mul_high64 does it with its own pieces): the middle word's carries
 * go into the high half; the signed product subtracts each operand where the
 * other is negative. */
static struct halves mul_high(struct builder *b, struct halves x, struct halves y, bool sign)
{
	struct ssa_def *z = u32(b, 0);
	struct ssa_def *p00_hi = b_umul_high(b, x.lo, y.lo);
	struct halves p01 = { b_imul(b, x.lo, y.hi), b_umul_high(b, x.lo, y.hi) };
	struct halves p10 = { b_imul(b, x.hi, y.lo), b_umul_high(b, x.hi, y.lo) };
	struct halves p11 = { b_imul(b, x.hi, y.hi), b_umul_high(b, x.hi, y.hi) };
	struct ssa_def *t = b_iadd(b, p00_hi, p01.lo);
	struct ssa_def *c = b_b2i32(b, b_ult(b, t, p00_hi));
	struct ssa_def *t2 = b_iadd(b, t, p10.lo);
	c = b_iadd(b, c, b_b2i32(b, b_ult(b, t2, t)));
	struct halves h = add(b, p11, (struct halves){ p01.hi, z }, false);
	h = add(b, h, (struct halves){ p10.hi, z }, false);
	h = add(b, h, (struct halves){ c, z }, false);
	if (sign) {
		struct ssa_def *xn = b_ilt(b, x.hi, z), *yn = b_ilt(b, y.hi, z);
		h = add(b, h, (struct halves){ b_bcsel(b, xn, y.lo, z), b_bcsel(b, xn, y.hi, z) }, true);
		h = add(b, h, (struct halves){ b_bcsel(b, yn, x.lo, z), b_bcsel(b, yn, x.hi, z) }, true);
	}
	return h;
}

/* A 64-bit unsigned value to float, rounded once (as nir_lower_int64's
 * lower_2f): with a high half, the value shifted right by the high half's
 * width into 32 bits, the dropped bits kept as a sticky bit 0 (below the
 * rounding position), converted, then scaled by 2^shift exactly. */
static struct ssa_def *u2f32(struct builder *b, struct halves x)
{
	struct ssa_def *n = b_iadd(b, b_ufind_msb(b, x.hi), u32(b, 1));	/* 0 when hi is 0 */
	struct halves r = shift(b, OP_ushr, x, n);
	struct ssa_def *low = b_bcsel(b, b_ieq(b, n, u32(b, 32)), x.lo,
				      b_ishl(b, x.lo, b_isub(b, u32(b, 32), n)));
	struct ssa_def *sticky = b_b2i32(b, b_iand(b, b_ine(b, n, u32(b, 0)), b_ine(b, low, u32(b, 0))));
	struct ssa_def *f = b_u2f32(b, b_ior(b, r.lo, sticky));
	struct ssa_def *scale = b_ishl(b, b_iadd(b, n, u32(b, 127)), u32(b, 23));
	return b_fmul(b, f, scale);
}

/* One component of a 64-bit integer op; NULL when not handled. */
static struct ssa_def *lower_comp(struct builder *b, struct alu_instr *alu, unsigned k)
{
	enum alu_op op = alu->op;
	unsigned n = alu_op_infos[op].num_inputs;
	struct halves s[3];
	for (unsigned i = 0; i < n && i < 3; i++)
		if (alu->src[i].src.ssa->bit_size == 64)
			s[i] = split(b, comp(b, alu, i, k));
	switch (op) {
	case OP_iadd: return pack(b, add(b, s[0], s[1], false));
	case OP_isub: return pack(b, add(b, s[0], s[1], true));
	case OP_ineg: return pack(b, add(b, (struct halves){ u32(b, 0), u32(b, 0) }, s[0], true));
	case OP_iand: return pack(b, (struct halves){ b_iand(b, s[0].lo, s[1].lo), b_iand(b, s[0].hi, s[1].hi) });
	case OP_ior: return pack(b, (struct halves){ b_ior(b, s[0].lo, s[1].lo), b_ior(b, s[0].hi, s[1].hi) });
	case OP_ixor: return pack(b, (struct halves){ b_ixor(b, s[0].lo, s[1].lo), b_ixor(b, s[0].hi, s[1].hi) });
	case OP_inot: return pack(b, (struct halves){ b_inot(b, s[0].lo), b_inot(b, s[0].hi) });
	case OP_iabs: {
		struct halves neg = add(b, (struct halves){ u32(b, 0), u32(b, 0) }, s[0], true);
		struct ssa_def *sign = b_ilt(b, s[0].hi, u32(b, 0));
		return pack(b, (struct halves){ b_bcsel(b, sign, neg.lo, s[0].lo),
						b_bcsel(b, sign, neg.hi, s[0].hi) });
	}
	case OP_ishl: case OP_ishr: case OP_ushr:
		return pack(b, shift(b, op, s[0], comp(b, alu, 1, k)));
	case OP_imul: {
		struct ssa_def *lo = b_imul(b, s[0].lo, s[1].lo);
		struct ssa_def *hi = b_iadd(b, b_umul_high(b, s[0].lo, s[1].lo),
					    b_iadd(b, b_imul(b, s[0].lo, s[1].hi), b_imul(b, s[0].hi, s[1].lo)));
		return pack(b, (struct halves){ lo, hi });
	}
	case OP_umul_high: case OP_imul_high:
		return pack(b, mul_high(b, s[0], s[1], op == OP_imul_high));
	case OP_ieq: case OP_ine: case OP_ilt: case OP_ige: case OP_ult: case OP_uge:
		return compare(b, op, s[0], s[1]);
	case OP_bcsel: {
		struct ssa_def *c = comp(b, alu, 0, k);
		return pack(b, (struct halves){ b_bcsel(b, c, s[1].lo, s[2].lo), b_bcsel(b, c, s[1].hi, s[2].hi) });
	}
	case OP_imin: case OP_imax: case OP_umin: case OP_umax: {
		bool sign = op == OP_imin || op == OP_imax, min = op == OP_imin || op == OP_umin;
		struct ssa_def *lt = compare(b, sign ? OP_ilt : OP_ult, s[0], s[1]);
		struct halves a = min ? s[0] : s[1], c = min ? s[1] : s[0];
		return pack(b, (struct halves){ b_bcsel(b, lt, a.lo, c.lo), b_bcsel(b, lt, a.hi, c.hi) });
	}
	case OP_u2u64: case OP_i2i64: {
		struct ssa_def *x = b_u2u32(b, comp(b, alu, 0, k));
		if (op == OP_i2i64)
			x = b_i2i32(b, comp(b, alu, 0, k));
		struct ssa_def *hi = op == OP_i2i64 ? b_ishr(b, x, u32(b, 31)) : u32(b, 0);
		return pack(b, (struct halves){ x, hi });
	}
	case OP_b2i64:
		return pack(b, (struct halves){ b_b2i32(b, comp(b, alu, 0, k)), u32(b, 0) });
	case OP_u2u32: case OP_i2i32:
		return s[0].lo;
	case OP_u2u16: case OP_i2i16:
		return b_u2u16(b, s[0].lo);
	case OP_u2u8: case OP_i2i8:
		return b_u2u8(b, s[0].lo);
	case OP_i2b1:
		return b_ior(b, b_ine(b, s[0].lo, u32(b, 0)), b_ine(b, s[0].hi, u32(b, 0)));
	case OP_u2f32:
		return u2f32(b, s[0]);
	case OP_i2f32: {
		struct ssa_def *neg = b_ilt(b, s[0].hi, u32(b, 0));
		struct halves m = add(b, (struct halves){ u32(b, 0), u32(b, 0) }, s[0], true);
		struct ssa_def *f = u2f32(b, (struct halves){ b_bcsel(b, neg, m.lo, s[0].lo),
								b_bcsel(b, neg, m.hi, s[0].hi) });
		return b_bcsel(b, neg, b_fneg(b, f), f);
	}
	default:
		return NULL;
	}
}

static bool is_int64(struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	if (alu->op == OP_pack_64_2x32_split || alu->op == OP_unpack_64_2x32_split_x ||
	    alu->op == OP_unpack_64_2x32_split_y || alu->op == OP_mov || info->output_size)
		return false;
	bool any = alu->def.bit_size == 64;
	for (unsigned i = 0; i < info->num_inputs; i++) {
		any |= alu->src[i].src.ssa->bit_size == 64;
		if (alu_type_base(info->input_types[i]) == BASE_float && alu->src[i].src.ssa->bit_size == 64)
			return false;
	}
	if (alu_type_base(info->output_type) == BASE_float && alu->def.bit_size == 64)
		return false;
	return any;
}

static bool lower_alu(struct builder *b, struct alu_instr *alu)
{
	struct ssa_def *c[4];
	unsigned n = alu->def.num_components;
	if (n > 4)
		return false;
	for (unsigned k = 0; k < n; k++)
		if (!(c[k] = lower_comp(b, alu, k)))
			return false;
	ssa_def_rewrite_uses(&alu->def, b_vec(b, c, n));
	instr_remove(&alu->instr);
	return true;
}

/* 64-bit memory: twice the 32-bit components */
static bool lower_mem(struct builder *b, struct intrinsic_instr *intr)
{
	const struct intrinsic_info *info = &intrinsic_infos[intr->op];
	bool load = info->dest_components == 0 && intr->def.bit_size == 64;
	bool store = info->dest_components == INTR_NO_DEST && info->num_srcs && intr->num_components &&
		     info->src_components[0] == 0 && intr->src[0].ssa->bit_size == 64;
	switch (intr->op) {
	case INTR_load_ssbo: case INTR_load_ubo: case INTR_load_global: case INTR_load_shared:
	case INTR_load_push_constant: case INTR_load_scratch: case INTR_store_ssbo: case INTR_store_global:
	case INTR_store_shared: case INTR_store_scratch:
		break;
	default:
		return false;
	}
	if ((!load && !store) || intr->num_components > 4)
		return false;
	unsigned n = intr->num_components;
	/* a vec3 of 64-bit values moves 6 dwords: as 8, the last two unused */
	unsigned w = n == 3 ? 8 : 2 * n;
	if (store) {
		struct ssa_def *parts[8];
		for (unsigned k = 0; k < n; k++) {
			struct halves h = split(b, b_channel(b, intr->src[0].ssa, k));
			parts[2 * k] = h.lo;
			parts[2 * k + 1] = h.hi;
		}
		for (unsigned k = 2 * n; k < w; k++)
			parts[k] = b_undef(b, 1, 32);
		src_rewrite(&intr->src[0], b_vec(b, parts, w));
		unsigned m = intrinsic_has(intr->op, INTR_IDX_write_mask)
				     ? (unsigned)intrinsic_get(intr, INTR_IDX_write_mask)
				     : (1u << n) - 1, wm = 0;
		for (unsigned k = 0; k < n; k++)
			if (m & (1u << k))
				wm |= 3u << (2 * k);
		if (intrinsic_has(intr->op, INTR_IDX_write_mask))
			intrinsic_set(intr, INTR_IDX_write_mask, (int32_t)wm);
		intr->num_components = (uint8_t)w;
		return true;
	}
	intr->num_components = (uint8_t)w;
	intr->def.num_components = (uint8_t)w;
	intr->def.bit_size = 32;
	b->cursor = cursor_after_instr(&intr->instr);
	struct ssa_def *c[4];
	for (unsigned k = 0; k < n; k++)
		c[k] = b_pack_64_2x32_split(b, b_channel(b, &intr->def, 2 * k),
					     b_channel(b, &intr->def, 2 * k + 1));
	struct ssa_def *v = b_vec(b, c, n);
	ssa_def_rewrite_uses_after(&intr->def, v, v->parent);
	return true;
}

bool lower_ir3_int64(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	bool progress = false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			builder_init(&b, s, cursor_before_instr(in));
			if (in->type == INSTR_alu && is_int64(instr_as_alu(in)))
				progress |= lower_alu(&b, instr_as_alu(in));
			else if (in->type == INSTR_intrinsic)
				progress |= lower_mem(&b, instr_as_intrinsic(in));
		}
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
