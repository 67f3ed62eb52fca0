/*
 * ALU selection, one machine instruction (or a short sequence) per
 * component, as Mesa's emit_alu: cat2 for the one- and two-source ops, cat3
 * mad/sel, cat4 for the SFU, cov for conversions.  Vector IR ALU ops are
 * selected per component here: the scalarisation Mesa does on NIR
 * (lower_alu_to_scalar) happens at selection, and the horizontal ops are
 * lowered before (lower_ir3_alu.c).
 *
 *	32x4 %3 = fmul %1, %2	→  mul.f ×4
 *	32   %4 = ffma %a, %b, %c	→  mad.f32
 *	32   %5 = imul %a, %b	→  mull.u; madsh.m16; madsh.m16 (ir3_nir_imul.py)
 *	1    %6 = flt %a, %b	→  cmps.f.lt (a half 0/1 from a5xx on)
 *
 * Ops that should have been lowered earlier (fpow, flrp, fmod, idiv, …)
 * fail the shader with "unsupported ALU op 'NAME'".
 */
#include "compiler/ir3/ir3_isel.h"

/* The simple ones: op → opcode, a condition, flags on the second source. */
struct alu_map {
	enum ir3_opc opc;
	int cond;		/* -1: none */
	unsigned src1_flags;
	unsigned src0_flags;
	unsigned instr_flags;
};

static bool simple_map(enum alu_op op, struct alu_map *m)
{
	*m = (struct alu_map){ .cond = -1 };
	switch (op) {
#define M(o, opc_) case OP_##o: m->opc = OPC_##opc_; return true;
#define C(o, opc_, cond_) case OP_##o: m->opc = OPC_##opc_; m->cond = COND_##cond_; return true;
	M(fadd, ADD_F) M(fmul, MUL_F) M(fmin, MIN_F) M(fmax, MAX_F)
	M(ffloor, FLOOR_F) M(fceil, CEIL_F) M(ftrunc, TRUNC_F) M(fround_even, RNDNE_F)
	M(fsign, SIGN_F)
	M(frsq, RSQ) M(fsqrt, SQRT) M(fexp2, EXP2) M(flog2, LOG2) M(fsin, SIN) M(fcos, COS)
	M(frcp, RCP)
	M(iadd, ADD_U) M(isub, SUB_U) M(imin, MIN_S) M(imax, MAX_S) M(umin, MIN_U) M(umax, MAX_U)
	M(iand, AND_B) M(ior, OR_B) M(ixor, XOR_B)
	M(ishl, SHL_B) M(ishr, ASHR_B) M(ushr, SHR_B)
	M(bitfield_reverse, BFREV_B) M(imul24, MUL_S24)
	C(flt, CMPS_F, LT) C(fge, CMPS_F, GE) C(feq, CMPS_F, EQ) C(fneu, CMPS_F, NE)
	C(ilt, CMPS_S, LT) C(ige, CMPS_S, GE) C(ieq, CMPS_S, EQ) C(ine, CMPS_S, NE)
	C(ult, CMPS_U, LT) C(uge, CMPS_U, GE)
#undef M
#undef C
	case OP_fsub: m->opc = OPC_ADD_F; m->src1_flags = IR3_REG_FNEG; return true;
	case OP_fneg: m->opc = OPC_ABSNEG_F; m->src0_flags = IR3_REG_FNEG; return true;
	case OP_fabs: m->opc = OPC_ABSNEG_F; m->src0_flags = IR3_REG_FABS; return true;
	case OP_ineg: m->opc = OPC_ABSNEG_S; m->src0_flags = IR3_REG_SNEG; return true;
	case OP_iabs: m->opc = OPC_ABSNEG_S; m->src0_flags = IR3_REG_SABS; return true;
	case OP_uadd_sat: m->opc = OPC_ADD_U; m->instr_flags = IR3_INSTR_SAT; return true;
	case OP_iadd_sat: m->opc = OPC_ADD_S; m->instr_flags = IR3_INSTR_SAT; return true;
	case OP_usub_sat: m->opc = OPC_SUB_U; m->instr_flags = IR3_INSTR_SAT; return true;
	case OP_isub_sat: m->opc = OPC_SUB_S; m->instr_flags = IR3_INSTR_SAT; return true;
	default:
		return false;
	}
}

static struct ir3_register *emit_n(struct isel *c, enum ir3_opc opc, unsigned dflags, unsigned n,
				   struct ir3_register **srcs)
{
	struct ir3_instruction *i = ir3_b_instr(&c->b, opc, 1, n);
	struct ir3_register *d = ir3_dst_create(i, dflags, 1);
	for (unsigned k = 0; k < n; k++)
		ir3_src_ssa(i, srcs[k], 0);
	return d;
}

static struct ir3_register *alu2(struct isel *c, enum ir3_opc opc, struct ir3_register *a,
				 struct ir3_register *b)
{
	struct ir3_register *s[2] = { a, b };
	return emit_n(c, opc, a->flags & IR3_REG_HALF, 2, s);
}

static struct ir3_register *alu3(struct isel *c, enum ir3_opc opc, struct ir3_register *a,
				 struct ir3_register *b, struct ir3_register *d)
{
	struct ir3_register *s[3] = { a, b, d };
	return emit_n(c, opc, a->flags & IR3_REG_HALF, 3, s);
}

static struct ir3_register *emit_simple(struct isel *c, const struct alu_map *m, unsigned nsrc,
					struct ir3_register **src, unsigned dflags)
{
	if (m->opc == OPC_SHL_B || m->opc == OPC_ASHR_B || m->opc == OPC_SHR_B)
		src[1] = isel_resize(c, src[1], src[0]->flags & IR3_REG_HALF);	/* resize_shift_amount */
	unsigned flags = m->cond >= 0 ? dflags : src[0]->flags & IR3_REG_HALF;
	struct ir3_register *d = emit_n(c, m->opc, flags, nsrc, src);
	struct ir3_instruction *i = d->instr;
	if (m->cond >= 0)
		i->cond = (enum ir3_cond)m->cond;
	i->srcs[0]->flags |= m->src0_flags;
	if (nsrc > 1)
		i->srcs[1]->flags |= m->src1_flags;
	i->flags |= m->instr_flags;
	return d;
}

/* ---- conversions (Mesa's create_cov) ---- */

static enum ir3_type ir3_type_of(enum base_type base, unsigned bits, enum ir3_type bool_type)
{
	if (base == BASE_bool)
		return bool_type;
	switch (bits) {
	case 8: return base == BASE_int ? TYPE_S8 : TYPE_U8;
	case 16: return base == BASE_float ? TYPE_F16 : base == BASE_int ? TYPE_S16 : TYPE_U16;
	default: return base == BASE_float ? TYPE_F32 : base == BASE_int ? TYPE_S32 : TYPE_U32;
	}
}

static struct ir3_register *emit_cov(struct isel *c, struct alu_instr *alu, struct ir3_register *s)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	unsigned in_bits = alu->src[0].src.ssa->bit_size;
	enum ir3_type from = ir3_type_of(alu_type_base(info->input_types[0]), in_bits, c->bool_type);
	enum ir3_type to = ir3_type_of(alu_type_base(info->output_type), alu->def.bit_size,
				       c->bool_type);
	if (from == to)
		return s;
	/* integer resizes between 8 and 16 bits live in the same half register */
	if (!ir3_type_is_float(from) && !ir3_type_is_float(to) &&
	    ir3_type_is_half(from) == ir3_type_is_half(to) && alu_type_base(info->input_types[0]) != BASE_bool)
		return s;
	return ir3_b_cov(&c->b, from, to, s);
}

/* ---- the ops with a sequence of their own ---- */

/* 32-bit imul: mull.u + madsh.m16 ×2 (ir3_nir_imul.py); 16-bit: mul.s24. */
static struct ir3_register *emit_imul(struct isel *c, struct ir3_register *a, struct ir3_register *b)
{
	if (a->flags & IR3_REG_HALF)
		return alu2(c, OPC_MUL_S24, a, b);
	struct ir3_register *lo = alu2(c, OPC_MULL_U, a, b);
	struct ir3_register *t = alu3(c, OPC_MADSH_M16, a, b, lo);
	return alu3(c, OPC_MADSH_M16, b, a, t);
}

static struct ir3_register *emit_bcsel(struct isel *c, struct ir3_register *cond,
				       struct ir3_register *a, struct ir3_register *b)
{
	bool half = a->flags & IR3_REG_HALF;
	cond = isel_resize(c, cond, half);
	return alu3(c, half ? OPC_SEL_B16 : OPC_SEL_B32, a, cond, b);
}

/* fsat: fold (sat) into a sole-use producer, else max.f (sat) x, x. */
static struct ir3_register *emit_fsat(struct isel *c, struct alu_instr *alu, struct ir3_register *s)
{
	struct ir3_instruction *p = s->instr;
	unsigned cat = ir3_cat(p);
	if (ssa_def_num_uses(alu->src[0].src.ssa) == 1 && (cat == 2 || cat == 3) &&
	    !ir3_has_flag(p, IR3_OP_COND) && !ir3_has_flag(p, IR3_OP_INPUT) && p->block == c->b.block) {
		p->flags |= IR3_INSTR_SAT;
		return s;
	}
	struct ir3_register *d = alu2(c, OPC_MAX_F, s, s);
	d->instr->flags |= IR3_INSTR_SAT;
	return d;
}

static struct ir3_register *emit_bit_count(struct isel *c, struct ir3_register *s)
{
	if (!c->t->cbits_16bit || (s->flags & IR3_REG_HALF))
		return emit_n(c, OPC_CBITS_B, s->flags & IR3_REG_HALF, 1, &s);
	/* 16 bits at a time on a5xx/a6xx (Mesa) */
	struct ir3_register *hi = ir3_b_cov(&c->b, TYPE_U32, TYPE_U16,
					    alu2(c, OPC_SHR_B, s, isel_imm(c, 16, false)));
	struct ir3_register *lo = ir3_b_cov(&c->b, TYPE_U32, TYPE_U16, s);
	hi = emit_n(c, OPC_CBITS_B, IR3_REG_HALF, 1, &hi);
	lo = emit_n(c, OPC_CBITS_B, IR3_REG_HALF, 1, &lo);
	return ir3_b_cov(&c->b, TYPE_U16, TYPE_U32, alu2(c, OPC_ADD_S, hi, lo));
}

static struct ir3_register *emit_find_msb(struct isel *c, struct ir3_register *s, bool sign)
{
	struct ir3_register *clz = emit_n(c, sign ? OPC_CLZ_S : OPC_CLZ_B, 0, 1, &s);
	struct ir3_register *msb = alu2(c, OPC_SUB_U, isel_imm(c, 31, false), clz);
	struct ir3_register *cond = s;
	if (sign)
		cond = ir3_b_cmp(&c->b, OPC_CMPS_S, COND_GE, 0, clz, isel_imm(c, 0, false));
	return alu3(c, OPC_SEL_B32, msb, cond, clz);
}

/* One component of a per-component op; NULL when unsupported. */
static struct ir3_register *emit_comp(struct isel *c, struct alu_instr *alu,
				      struct ir3_register **s)
{
	unsigned dflags = isel_reg_flags(c, alu->def.bit_size);
	struct alu_map m;
	if (simple_map(alu->op, &m))
		return emit_simple(c, &m, alu_op_infos[alu->op].num_inputs, s, dflags);
	if (alu_op_infos[alu->op].props & ALU_CONVERSION) {
		switch (alu->op) {
		case OP_f2b1: case OP_i2b1: {
			struct alu_map cmp = { alu->op == OP_f2b1 ? OPC_CMPS_F : OPC_CMPS_S, COND_NE, 0, 0, 0 };
			struct ir3_register *z[2] = { s[0], isel_imm(c, 0, s[0]->flags & IR3_REG_HALF) };
			return emit_simple(c, &cmp, 2, z, dflags);
		}
		case OP_f2f64: case OP_f2i64: case OP_f2u64: case OP_i2f64: case OP_u2f64:
		case OP_i2i64: case OP_u2u64: case OP_b2f64: case OP_b2i64:
			return NULL;
		default:
			return emit_cov(c, alu, s[0]);
		}
	}
	switch (alu->op) {
	case OP_mov:
		return s[0];
	case OP_fsat:
		return emit_fsat(c, alu, s[0]);
	case OP_ffma:
		return alu3(c, (s[0]->flags & IR3_REG_HALF) ? OPC_MAD_F16 : OPC_MAD_F32, s[0], s[1], s[2]);
	case OP_imul:
		return emit_imul(c, s[0], s[1]);
	case OP_bcsel:
		return emit_bcsel(c, s[0], s[1], s[2]);
	case OP_inot:
		if (alu->def.bit_size == 1)
			return alu2(c, OPC_SUB_U, ir3_b_imm(&c->b, c->bool_type, 1), s[0]);
		return emit_n(c, OPC_NOT_B, s[0]->flags & IR3_REG_HALF, 1, s);
	case OP_fquantize2f16:
		return ir3_b_cov(&c->b, TYPE_F16, TYPE_F32, ir3_b_cov(&c->b, TYPE_F32, TYPE_F16, s[0]));
	case OP_bit_count:
		return emit_bit_count(c, s[0]);
	case OP_ifind_msb:
		return emit_find_msb(c, s[0], true);
	case OP_ufind_msb:
		return emit_find_msb(c, s[0], false);
	case OP_find_lsb: {
		struct ir3_register *r = emit_n(c, OPC_BFREV_B, 0, 1, s);
		return emit_n(c, OPC_CLZ_B, 0, 1, &r);
	}
	default:
		return NULL;
	}
}

/* 64-bit values that only move: pack/unpack of 2×32 and vectors. */
static bool emit_64(struct isel *c, struct alu_instr *alu)
{
	struct ir3_register **d = isel_def(c, &alu->def);
	switch (alu->op) {
	case OP_pack_64_2x32_split:
		d[0] = isel_get(c, alu->src[0].src.ssa)[alu->src[0].swizzle[0]];
		d[1] = isel_get(c, alu->src[1].src.ssa)[alu->src[1].swizzle[0]];
		return true;
	case OP_unpack_64_2x32_split_x:
	case OP_unpack_64_2x32_split_y: {
		struct ir3_register **s = isel_get(c, alu->src[0].src.ssa);
		d[0] = s[2 * alu->src[0].swizzle[0] + (alu->op == OP_unpack_64_2x32_split_y)];
		return true;
	}
	case OP_mov:
	case OP_vec2: case OP_vec3: case OP_vec4: {
		if (alu->def.bit_size != 64)
			return false;
		for (unsigned k = 0; k < alu->def.num_components; k++) {
			unsigned in = alu->op == OP_mov ? 0 : k;
			unsigned sw = alu->src[in].swizzle[alu->op == OP_mov ? k : 0];
			struct ir3_register **s = isel_get(c, alu->src[in].src.ssa);
			d[2 * k] = s[2 * sw];
			d[2 * k + 1] = s[2 * sw + 1];
		}
		return true;
	}
	default:
		return false;
	}
}

static bool is_64(struct alu_instr *alu)
{
	if (alu->def.bit_size == 64)
		return true;
	for (unsigned k = 0; k < alu_op_infos[alu->op].num_inputs; k++)
		if (alu->src[k].src.ssa->bit_size == 64)
			return true;
	return false;
}

/* iadd(imul24(a, b), c) is mad.s24(a, b, c) (Mesa's ir3_nir_lower_imul,
 * run late: the imul24 stays for its other uses, dead otherwise): source
 * n of `alu`, component k, when it is an imul24's.  NULL otherwise. */
static struct alu_instr *imul24_src(struct alu_instr *alu, unsigned n)
{
	struct ssa_def *v = alu->src[n].src.ssa;
	if (v->parent->type != INSTR_alu)
		return NULL;
	struct alu_instr *mul = instr_as_alu(v->parent);
	return mul->op == OP_imul24 && mul->def.bit_size == 32 ? mul : NULL;
}

static struct ir3_register *emit_imad24(struct isel *c, struct alu_instr *alu, unsigned k)
{
	for (unsigned n = 0; n < 2; n++) {
		struct alu_instr *mul = imul24_src(alu, n);
		if (!mul)
			continue;
		unsigned mk = alu->src[n].swizzle[k];
		struct ir3_register *a = isel_get(c, mul->src[0].src.ssa)[mul->src[0].swizzle[mk]];
		struct ir3_register *b = isel_get(c, mul->src[1].src.ssa)[mul->src[1].swizzle[mk]];
		struct ir3_register *add = isel_get(c, alu->src[1 - n].src.ssa)[alu->src[1 - n].swizzle[k]];
		return alu3(c, OPC_MAD_S24, a, b, add);
	}
	return NULL;
}

/* Mesa's ir3_supports_vectorized_nir_op (ir3_rpt.c): the ops whose
 * components Mesa 24.3 emits as a repeat group. */
static bool groups_components(enum alu_op op)
{
	switch (op) {
	case OP_frcp:			/* "only rcp doesn't seem to support repeat" */
	case OP_udot_4x8_uadd: case OP_udot_4x8_uadd_sat:
	case OP_sudot_4x8_iadd: case OP_sudot_4x8_iadd_sat:
		return false;
	default:
		return true;
	}
}

/* The instructions made at the builder's place since serial `start`, oldest
 * first, into `out` (at most `max`); how many there were. */
static unsigned made_since(struct isel *c, unsigned start, struct ir3_instruction **out,
			   unsigned max)
{
	struct ir3_instruction *i = c->b.before ? c->b.before->prev : c->b.block->last;
	unsigned n = 0;
	for (; i && i->serial >= start; i = i->prev)
		n++;
	if (n > max)
		return n;
	i = c->b.before ? c->b.before->prev : c->b.block->last;
	for (unsigned k = n; k > 0; k--, i = i->prev)
		out[k - 1] = i;
	return n;
}

/* Each component of a vector ALU op made the same instructions, step by
 * step: each step's instructions are one repeat group (Mesa's emit_alu
 * with the _rpt builders: one group per step of a lowering). */
static void group_components(struct isel *c, struct ir3_instruction *made[][8],
			     const unsigned *nmade, unsigned ncomp)
{
	if (nmade[0] > 8)
		return;
	for (unsigned k = 1; k < ncomp; k++)
		if (nmade[k] != nmade[0])
			return;
	for (unsigned j = 0; j < nmade[0]; j++) {
		struct ir3_instruction *first = made[0][j];
		bool same = first->ndst == 1 && !ir3_is_meta(first);
		for (unsigned k = 1; k < ncomp && same; k++)
			same = made[k][j]->opc == first->opc && made[k][j]->nsrc == first->nsrc &&
			       made[k][j]->ndst == 1;
		if (!same)
			continue;
		unsigned id = ++c->ir->rpt_ids;
		for (unsigned k = 0; k < ncomp; k++)
			made[k][j]->rpt_id = id;
	}
}

/* Component k of a (non-vecN) ALU op; NULL when the op is not supported. */
static struct ir3_register *emit_component(struct isel *c, struct alu_instr *alu, unsigned k)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	struct ir3_register *r;
	if (alu->op == OP_iadd && alu->def.bit_size == 32 && (r = emit_imad24(c, alu, k)))
		return r;
	struct ir3_register *s[4];
	for (unsigned n = 0; n < info->num_inputs; n++)
		s[n] = isel_get(c, alu->src[n].src.ssa)[alu->src[n].swizzle[k]];
	return emit_comp(c, alu, s);
}

void isel_alu(struct isel *c, struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	if (is_64(alu) || alu->op == OP_pack_64_2x32_split) {
		if (emit_64(c, alu))
			return;
		if (alu_type_base(info->output_type) == BASE_float ||
		    alu_type_base(info->input_types[0]) == BASE_float)
			isel_error(c, "64-bit floating point is not supported (%s; Mesa's ir3 fails fp64 "
				   "shaders too)", info->name);
		else
			isel_error(c, "unsupported 64-bit ALU op '%s'", info->name);
		return;
	}
	bool vec = alu->op == OP_vec2 || alu->op == OP_vec3 || alu->op == OP_vec4 ||
		   alu->op == OP_vec8 || alu->op == OP_vec16;
	if (!vec && info->output_size) {
		isel_error(c, "unsupported ALU op '%s'", info->name);
		return;
	}
	struct ir3_register **d = isel_def(c, &alu->def);
	unsigned ncomp = alu->def.num_components;
	if (vec) {
		for (unsigned k = 0; k < ncomp; k++)
			d[k] = isel_get(c, alu->src[k].src.ssa)[alu->src[k].swizzle[0]];
		return;
	}
	bool group = ncomp > 1 && ncomp <= IR3_RPT_MAX && groups_components(alu->op);
	struct ir3_instruction *made[IR3_RPT_MAX][8];
	unsigned nmade[IR3_RPT_MAX] = { 0 };
	for (unsigned k = 0; k < ncomp; k++) {
		unsigned start = c->ir->serial;
		if (!(d[k] = emit_component(c, alu, k))) {
			isel_error(c, "unsupported ALU op '%s'", info->name);
			return;
		}
		if (group)
			nmade[k] = made_since(c, start, made[k], 8);
	}
	if (group)
		group_components(c, made, nmade, ncomp);
}
