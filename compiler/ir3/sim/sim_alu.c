/*
 * cat1–cat4 in the simulator: moves and conversions, the two- and
 * three-source ALU, the SFU.  Float arithmetic is the IR's constant folder
 * (alu_fold) on the operands' size, so the simulator computes what the
 * operation the selection chose means and a difference from the
 * interpreter is the compiler's; integer operations follow the hardware
 * (Mesa's ir3 opcode semantics: mull.u is umul_low, madsh.m16
 * imadsh_mix16, clz of 0 is -1).
 *
 * (rptN) runs the instruction N+1 times, the destination and the sources
 * marked (r) one component further each time.  A result is poison where a
 * source it reads is (sel: the condition and the source chosen).
 */
#include "compiler/ir3/sim/sim_priv.h"

#include <string.h>

uint32_t sim_f16_to_f32(uint32_t h)
{
	uint64_t s = h & 0xffff, d;
	const uint64_t *src[1] = { &s };
	alu_fold(OP_f2f32, 1, 16, src, &d);
	return (uint32_t)d;
}

uint32_t sim_f32_to_f16(uint32_t f)
{
	uint64_t s = f, d;
	const uint64_t *src[1] = { &s };
	alu_fold(OP_f2f16_rtne, 1, 32, src, &d);
	return (uint32_t)d & 0xffff;
}

static uint32_t fold1(enum alu_op op, unsigned bits, uint32_t a)
{
	uint64_t s = a, d;
	const uint64_t *src[1] = { &s };
	alu_fold(op, 1, bits, src, &d);
	return (uint32_t)d;
}

static uint32_t fold2(enum alu_op op, unsigned bits, uint32_t a, uint32_t b)
{
	uint64_t s0 = a, s1 = b, d;
	const uint64_t *src[2] = { &s0, &s1 };
	alu_fold(op, 1, bits, src, &d);
	return (uint32_t)d;
}

static uint32_t fold3(enum alu_op op, unsigned bits, uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t s0 = a, s1 = b, s2 = c, d;
	const uint64_t *src[3] = { &s0, &s1, &s2 };
	alu_fold(op, 1, bits, src, &d);
	return (uint32_t)d;
}

static uint32_t mask_of(unsigned bits)
{
	return bits >= 32 ? UINT32_MAX : (1u << bits) - 1;
}

static int32_t sext(uint32_t v, unsigned bits)
{
	return bits >= 32 ? (int32_t)v : (int32_t)(v << (32 - bits)) >> (32 - bits);
}

/* ---- conversions (cov) ---- */

static unsigned type_bits(enum ir3_type t)
{
	switch (t) {
	case TYPE_F16: case TYPE_U16: case TYPE_S16: return 16;
	case TYPE_U8: case TYPE_S8: return 8;
	default: return 32;
	}
}

static bool type_signed(enum ir3_type t)
{
	return t == TYPE_S16 || t == TYPE_S32 || t == TYPE_S8;
}

static uint32_t convert(uint32_t v, enum ir3_type from, enum ir3_type to)
{
	unsigned fb = type_bits(from), tb = type_bits(to);
	bool ff = ir3_type_is_float(from), tf = ir3_type_is_float(to);
	if (from == to)
		return v & mask_of(tb == 8 ? 16 : tb);
	if (ff && tf)
		return fold1(tb == 16 ? OP_f2f16_rtne : OP_f2f32, fb, v & mask_of(fb));
	if (ff) {
		static const enum alu_op s[3] = { OP_f2i8, OP_f2i16, OP_f2i32 };
		static const enum alu_op u[3] = { OP_f2u8, OP_f2u16, OP_f2u32 };
		unsigned k = tb == 8 ? 0 : tb == 16 ? 1 : 2;
		return fold1(type_signed(to) ? s[k] : u[k], fb, v & mask_of(fb)) & mask_of(tb);
	}
	if (tf) {
		enum alu_op op = type_signed(from) ? (tb == 16 ? OP_i2f16 : OP_i2f32)
						   : (tb == 16 ? OP_u2f16 : OP_u2f32);
		return fold1(op, fb, v & mask_of(fb));
	}
	/* integer to integer: extend by the source's sign, keep the low bits */
	uint32_t x = type_signed(from) ? (uint32_t)sext(v, fb) : v & mask_of(fb);
	return x & mask_of(tb == 8 ? 16 : tb);
}

/* ---- operands ---- */

struct actx {
	struct srun *r;
	uint32_t pc;
	const struct ir3_instruction *i;
	unsigned f, e;			/* fibre, (rptN) element */
	bool poison;
	uint32_t cause;
};

/* Source n, element e when it advances, with its modifiers for a value of
 * `bits` bits (float: fneg/fabs on the sign bit; integer: sneg/sabs, bnot). */
static uint32_t src(struct actx *o, unsigned n, unsigned bits, bool is_float)
{
	const struct ir3_register *s = o->i->srcs[n];
	unsigned e = (s->flags & IR3_REG_R) ? o->e : 0;
	struct sval v = sim_read(o->r, o->pc, o->f, s, e);
	if (v.poison && !o->poison) {
		o->poison = true;
		o->cause = v.cause;
	}
	uint32_t x = v.bits & mask_of(bits);
	uint32_t sign = 1u << (bits - 1);
	if (is_float) {
		if (s->flags & IR3_REG_FABS)
			x &= ~sign;
		if (s->flags & IR3_REG_FNEG)
			x ^= sign;
	} else {
		if (s->flags & IR3_REG_SABS)
			x = (uint32_t)(sext(x, bits) < 0 ? -sext(x, bits) : sext(x, bits)) & mask_of(bits);
		if (s->flags & IR3_REG_SNEG)
			x = (uint32_t)(-sext(x, bits)) & mask_of(bits);
		if (s->flags & IR3_REG_BNOT)
			x = ~x & mask_of(bits);
	}
	return x;
}

static unsigned size_of(const struct ir3_register *r)
{
	return (r->flags & IR3_REG_HALF) ? 16 : 32;
}

/* The operand size of a cat2/cat3 instruction: its first source's, as the
 * encoding's `full` bit (a const or an immediate carries its size too;
 * the destination may differ: compares write a boolean of another size,
 * ir3_cf's folded conversions a value of the other precision). */
static unsigned operand_bits(const struct ir3_instruction *i)
{
	return size_of(i->nsrc ? i->srcs[0] : i->dsts[0]);
}

static bool compare(enum ir3_cond c, int cmp_lt, int cmp_eq, bool unordered)
{
	if (unordered)
		return c == COND_NE;
	switch (c) {
	case COND_LT: return cmp_lt;
	case COND_LE: return cmp_lt || cmp_eq;
	case COND_GT: return !cmp_lt && !cmp_eq;
	case COND_GE: return !cmp_lt;
	case COND_EQ: return cmp_eq;
	default: return !cmp_eq;
	}
}

static uint32_t cmp_f(enum ir3_cond c, unsigned bits, uint32_t a, uint32_t b)
{
	double x = ir_float_from_bits(a, bits), y = ir_float_from_bits(b, bits);
	return compare(c, x < y, x == y, x != x || y != y);
}

static uint32_t cmp_i(enum ir3_cond c, bool sign, unsigned bits, uint32_t a, uint32_t b)
{
	if (sign)
		return compare(c, sext(a, bits) < sext(b, bits), a == b, false);
	return compare(c, a < b, a == b, false);
}

static uint32_t clz(uint32_t v, unsigned bits)
{
	if (!v)
		return mask_of(bits);
	return (uint32_t)__builtin_clz(v) - (32 - bits);
}

static uint32_t clz_s(uint32_t v, unsigned bits)
{
	int32_t x = sext(v, bits);
	if (x == 0 || x == -1)
		return mask_of(bits);
	return clz((uint32_t)(x < 0 ? ~x : x) & mask_of(bits), bits);
}

static uint32_t add_sat(const struct ir3_instruction *i, unsigned bits, uint32_t a, uint32_t b,
			bool sub)
{
	if (i->opc == OPC_ADD_U || i->opc == OPC_SUB_U) {
		uint64_t m = mask_of(bits);
		if (sub)
			return b > a ? 0 : a - b;
		return (uint64_t)a + b > m ? (uint32_t)m : a + b;
	}
	int64_t x = sext(a, bits), y = sext(b, bits), v = sub ? x - y : x + y;
	int64_t hi = (int64_t)(mask_of(bits) >> 1), lo = -hi - 1;
	return (uint32_t)(v > hi ? hi : v < lo ? lo : v) & mask_of(bits);
}

/* ---- cat2 ---- */

static uint32_t cat2_float(struct actx *o, unsigned bits)
{
	const struct ir3_instruction *i = o->i;
	uint32_t a = src(o, 0, bits, true);
	uint32_t b = i->nsrc > 1 ? src(o, 1, bits, true) : 0;
	switch (i->opc) {
	case OPC_ADD_F: return fold2(OP_fadd, bits, a, b);
	case OPC_MUL_F: return fold2(OP_fmul, bits, a, b);
	case OPC_MIN_F: return fold2(OP_fmin, bits, a, b);
	case OPC_MAX_F: return fold2(OP_fmax, bits, a, b);
	case OPC_SIGN_F: return fold1(OP_fsign, bits, a);
	case OPC_FLOOR_F: return fold1(OP_ffloor, bits, a);
	case OPC_CEIL_F: return fold1(OP_fceil, bits, a);
	case OPC_RNDNE_F: return fold1(OP_fround_even, bits, a);
	case OPC_TRUNC_F: return fold1(OP_ftrunc, bits, a);
	case OPC_ABSNEG_F: return a;
	case OPC_CMPS_F: return cmp_f(i->cond, bits, a, b);
	default:
		sim_error(o->r, "the simulator does not run %s", ir3_op(i->opc)->name);
		return 0;
	}
}

static uint32_t cat2_int(struct actx *o, unsigned bits)
{
	const struct ir3_instruction *i = o->i;
	uint32_t a = src(o, 0, bits, false);
	uint32_t b = i->nsrc > 1 ? src(o, 1, bits, false) : 0;
	uint32_t m = mask_of(bits);
	bool sat = i->flags & IR3_INSTR_SAT;
	switch (i->opc) {
	case OPC_ADD_U: case OPC_ADD_S: return sat ? add_sat(i, bits, a, b, false) : (a + b) & m;
	case OPC_SUB_U: case OPC_SUB_S: return sat ? add_sat(i, bits, a, b, true) : (a - b) & m;
	case OPC_CMPS_U: return cmp_i(i->cond, false, bits, a, b);
	case OPC_CMPS_S: return cmp_i(i->cond, true, bits, a, b);
	case OPC_MIN_U: return a < b ? a : b;
	case OPC_MAX_U: return a > b ? a : b;
	case OPC_MIN_S: return sext(a, bits) < sext(b, bits) ? a : b;
	case OPC_MAX_S: return sext(a, bits) > sext(b, bits) ? a : b;
	case OPC_ABSNEG_S: return a;
	case OPC_AND_B: return a & b;
	case OPC_OR_B: return a | b;
	case OPC_XOR_B: return a ^ b;
	case OPC_NOT_B: return ~a & m;
	case OPC_SHL_B: return fold2(OP_ishl, bits, a, b);
	case OPC_SHR_B: return fold2(OP_ushr, bits, a, b);
	case OPC_ASHR_B: return fold2(OP_ishr, bits, a, b);
	case OPC_MUL_U24: return (uint32_t)((uint64_t)(a & 0xffffff) * (b & 0xffffff)) & m;
	case OPC_MUL_S24: return (uint32_t)((int64_t)sext(a & 0xffffff, 24) * sext(b & 0xffffff, 24)) & m;
	case OPC_MULL_U: return ((a & 0xffff) * (b & 0xffff)) & m;
	case OPC_BFREV_B: return fold1(OP_bitfield_reverse, bits, a);
	case OPC_CLZ_B: return clz(a, bits);
	case OPC_CLZ_S: return clz_s(a, bits);
	case OPC_CBITS_B: return (uint32_t)__builtin_popcount(a);
	default:
		sim_error(o->r, "the simulator does not run %s", ir3_op(i->opc)->name);
		return 0;
	}
}

/* bary.f: the varying at the barycentrics of the second source; flat.b
 * the varying itself. */
static uint32_t cat2_input(struct actx *o)
{
	const struct ir3_instruction *i = o->i;
	unsigned inloc = src(o, 0, 32, false);
	float ij[2] = { 0, 0 };
	bool flat = i->opc == OPC_FLAT_B;
	if (!flat) {
		for (unsigned k = 0; k < 2; k++) {
			struct sval v = sim_read(o->r, o->pc, o->f, i->srcs[1], k);
			if (v.poison && !o->poison) {
				o->poison = true;
				o->cause = v.cause;
			}
			memcpy(&ij[k], &v.bits, 4);
		}
	}
	struct sval v = sim_varying(o->r, o->f, inloc, ij[0], ij[1], flat);
	if (v.poison && !o->poison) {
		o->poison = true;
		o->cause = v.cause;
	}
	return v.bits;
}

/* ---- cat3 ---- */

static uint32_t cat3(struct actx *o, unsigned bits)
{
	const struct ir3_instruction *i = o->i;
	bool is_float = ir3_has_flag(i, IR3_OP_FLOAT);
	if (i->opc >= OPC_SEL_B16 && i->opc <= OPC_SEL_F32) {
		/* sel: src1 ? src0 : src2 (the condition's size is its own) */
		uint32_t c = src(o, 1, size_of(i->srcs[1]), false);
		bool take = c != 0;
		if (i->opc == OPC_SEL_F16 || i->opc == OPC_SEL_F32)
			take = (c & mask_of(size_of(i->srcs[1]) - 1)) != 0;
		return src(o, take ? 0 : 2, bits, is_float);
	}
	uint32_t a = src(o, 0, bits, is_float), b = src(o, 1, bits, is_float);
	uint32_t c = src(o, 2, bits, is_float), m = mask_of(bits);
	switch (i->opc) {
	case OPC_MAD_F32: case OPC_MAD_F16: return fold3(OP_ffma, bits, a, b, c);
	case OPC_MAD_U16: return ((a & 0xffff) * (b & 0xffff) + c) & m;
	case OPC_MAD_S16: return (uint32_t)(sext(a, 16) * sext(b, 16) + (int32_t)c) & m;
	case OPC_MADSH_M16: return ((((a >> 16) & 0xffff) * (b & 0xffff)) << 16) + c;
	case OPC_MADSH_U16: return ((((a & 0xffff) * (b & 0xffff)) >> 16) + c) & m;
	case OPC_MAD_U24: return (uint32_t)((uint64_t)(a & 0xffffff) * (b & 0xffffff) + c) & m;
	case OPC_MAD_S24:
		return (uint32_t)((int64_t)sext(a & 0xffffff, 24) * sext(b & 0xffffff, 24) + (int32_t)c) & m;
	default:
		sim_error(o->r, "the simulator does not run %s", ir3_op(i->opc)->name);
		return 0;
	}
}

/* ---- cat4 ---- */

static uint32_t cat4(struct actx *o, unsigned bits)
{
	static const struct { enum ir3_opc opc; enum alu_op op; } map[] = {
		{ OPC_RCP, OP_frcp }, { OPC_RSQ, OP_frsq }, { OPC_LOG2, OP_flog2 },
		{ OPC_EXP2, OP_fexp2 }, { OPC_SIN, OP_fsin }, { OPC_COS, OP_fcos },
		{ OPC_SQRT, OP_fsqrt },
	};
	uint32_t a = src(o, 0, bits, true);
	for (unsigned k = 0; k < sizeof(map) / sizeof(map[0]); k++)
		if (map[k].opc == o->i->opc)
			return fold1(map[k].op, bits, a);
	sim_error(o->r, "the simulator does not run %s", ir3_op(o->i->opc)->name);
	return 0;
}

/* ---- cat1 ---- */

static uint32_t movmsk(struct actx *o)
{
	const struct swave *w = o->r->wave;
	uint32_t m = 0;
	for (unsigned f = w->first; f < w->first + w->count; f++) {
		unsigned bit = f - w->first;
		if (o->r->active[f] && bit / 32 == o->e)
			m |= 1u << (bit % 32);
	}
	return m;
}

static uint32_t cat1(struct actx *o)
{
	const struct ir3_instruction *i = o->i;
	switch (i->opc) {
	case OPC_MOV: {
		unsigned bits = type_bits(i->type) == 32 ? 32 : 16;
		return convert(src(o, 0, bits, false), i->type, i->dst_type);
	}
	case OPC_MOVA: case OPC_MOVA1:
		return src(o, 0, size_of(i->srcs[0]), false) & 0xffff;
	case OPC_MOVMSK:
		return movmsk(o);
	default:
		sim_error(o->r, "the simulator does not run %s", ir3_op(i->opc)->name);
		return 0;
	}
}

/* ---- the instruction ---- */

static uint32_t one(struct actx *o)
{
	const struct ir3_instruction *i = o->i;
	unsigned cat = ir3_cat(i);
	uint32_t v;
	if (cat == 1)
		return cat1(o);
	if (cat == 4)
		v = cat4(o, size_of(i->dsts[0]));
	else if (i->opc == OPC_BARY_F || i->opc == OPC_FLAT_B)
		v = cat2_input(o);
	else if (cat == 3)
		v = cat3(o, operand_bits(i));
	else if (ir3_has_flag(i, IR3_OP_FLOAT))
		v = cat2_float(o, operand_bits(i));
	else
		v = cat2_int(o, operand_bits(i));
	/* a 32-bit operation writing a half register converts its result
	 * (bary.f and the folded output conversions of ir3_cf): a float to
	 * f16, anything else its low bits; a 16-bit operation writing a full
	 * register converts a float to f32 and extends an integer, with its
	 * sign for the signed ones (Mesa's ir3_output_conv_type: add.s, sub.s,
	 * min/max.s, absneg.s, mul.s24, mad.s24) */
	bool input = i->opc == OPC_BARY_F || i->opc == OPC_FLAT_B;
	bool fp = (ir3_has_flag(i, IR3_OP_FLOAT) && !ir3_has_flag(i, IR3_OP_COND)) || i->opc == OPC_BARY_F;
	if (cat != 4 && i->ndst && (i->dsts[0]->flags & IR3_REG_HALF) &&
	    (input || operand_bits(i) == 32))
		v = fp ? convert(v, TYPE_F32, TYPE_F16) : v & 0xffff;
	else if (cat != 4 && !input && i->ndst && !(i->dsts[0]->flags & IR3_REG_HALF) &&
		 operand_bits(i) == 16) {
		bool sign = i->opc == OPC_ADD_S || i->opc == OPC_SUB_S || i->opc == OPC_MIN_S ||
			    i->opc == OPC_MAX_S || i->opc == OPC_ABSNEG_S || i->opc == OPC_MUL_S24 ||
			    i->opc == OPC_MAD_S24;
		v = fp ? convert(v, TYPE_F16, TYPE_F32) : sign ? (uint32_t)sext(v, 16) : v & 0xffff;
	}
	if ((i->flags & IR3_INSTR_SAT) && ir3_has_flag(i, IR3_OP_FLOAT) && !ir3_has_flag(i, IR3_OP_COND))
		v = fold1(OP_fsat, size_of(i->dsts[0]), v);
	return v;
}

/* swz: every source read before any destination is written */
static void exec_swz(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	struct sval v[8];
	for (unsigned n = 0; n < i->nsrc && n < 8; n++)
		v[n] = sim_read(r, pc, f, i->srcs[n], 0);
	for (unsigned n = 0; n < i->ndst && n < i->nsrc && n < 8; n++)
		sim_write(r, pc, f, i->dsts[n], 0, v[n]);
}

/* The subgroup macros (ir3_ops.def), as Mesa's expansion computes them
 * from the fibres running the instruction: every source is read before any
 * destination is written. */
static void exec_macro(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	const struct swave *w = r->wave;
	unsigned first = w->first + w->count;
	for (unsigned f = w->first; f < w->first + w->count; f++)
		if (r->active[f] && f < first)
			first = f;
	/* the ballot of the source (any, all and ballot read it) */
	struct sval word[4] = { { 0 } }, v = { 0 };
	unsigned set = 0, running = 0;
	if (i->opc == OPC_READ_FIRST_MACRO)
		v = sim_read(r, pc, first, i->srcs[0], 0);
	for (unsigned f = w->first; f < w->first + w->count && i->nsrc &&
				    i->opc != OPC_READ_FIRST_MACRO; f++) {
		if (!r->active[f])
			continue;
		struct sval c = sim_read(r, pc, f, i->srcs[0], 0);
		unsigned bit = f - w->first;
		running++;
		for (unsigned e = 0; e < 4 && c.poison; e++)
			if (!word[e].poison)
				word[e] = (struct sval){ 0, true, c.cause };
		if (!c.poison && c.bits && bit < 128) {
			word[bit / 32].bits |= 1u << (bit % 32);
			set++;
		}
	}
	if (i->opc == OPC_ANY_MACRO || i->opc == OPC_ALL_MACRO)
		v = (struct sval){ i->opc == OPC_ANY_MACRO ? set > 0 : set == running, word[0].poison,
				   word[0].cause };
	for (unsigned f = w->first; f < w->first + w->count; f++) {
		if (!r->active[f])
			continue;
		if (i->opc == OPC_BALLOT_MACRO)
			for (unsigned e = 0; e <= i->repeat && e < 4; e++)
				sim_write(r, pc, f, i->dsts[0], e, word[e]);
		else
			sim_write(r, pc, f, i->dsts[0], 0,
				  i->opc == OPC_ELECT_MACRO ? (struct sval){ f == first, false, 0 } : v);
	}
}

void sim_exec_alu(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	const struct swave *w = r->wave;
	if (ir3_cat(i) == 1 && ir3_has_flag(i, IR3_OP_WAVE) && i->opc != OPC_MOVMSK) {
		exec_macro(r, pc);
		return;
	}
	for (unsigned f = w->first; f < w->first + w->count && !r->stop; f++) {
		if (!r->active[f])
			continue;
		if (i->opc == OPC_SWZ) {
			exec_swz(r, pc, f);
			continue;
		}
		/* every element read before any is written (rpt on itself) */
		struct sval res[8];
		unsigned n = i->repeat + 1;
		for (unsigned e = 0; e < n && e < 8; e++) {
			struct actx o = { r, pc, i, f, e, false, 0 };
			uint32_t v = one(&o);
			res[e] = (struct sval){ v, o.poison, o.cause };
		}
		for (unsigned e = 0; e < n && e < 8; e++)
			if (i->ndst)
				sim_write(r, pc, f, i->dsts[0], e, res[e]);
	}
}
