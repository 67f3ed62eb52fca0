/*
 * The ALU opcode table and its constant folder, both expanded from
 * alu_ops.def.  Each opcode gets a fold_<name>() that evaluates the .def's
 * expression on every component; <tgmath.h> makes sqrt(), floor() … pick the
 * float or double function from the operand type, so an f32 operation is
 * computed in single precision.  The helpers below fix the results SPIR-V
 * leaves undefined (alu_ops.def lists them); the interpreter and the
 * optimiser both fold through this file, so they always agree.
 */
#include <limits.h>
#include <string.h>
#include <tgmath.h>

#include "compiler/ir/ir.h"

/* <complex.h> (through <tgmath.h>) defines I, a type name of alu_ops.def */
#undef I

/* ---- bit-level helpers ---- */

static inline uint64_t mask_(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : v & (((uint64_t)1 << bits) - 1);
}

static inline int64_t sext_(uint64_t v, unsigned bits)
{
	if (bits >= 64)
		return (int64_t)v;
	uint64_t sign = (uint64_t)1 << (bits - 1);
	v = mask_(v, bits);
	return (int64_t)((v ^ sign) - sign);
}

static inline double double_from_bits(uint64_t b)
{
	double d;
	memcpy(&d, &b, sizeof(d));
	return d;
}

static inline uint64_t double_bits(double d)
{
	uint64_t b;
	memcpy(&b, &d, sizeof(b));
	return b;
}

static inline float float_from_bits(uint32_t b)
{
	float f;
	memcpy(&f, &b, sizeof(f));
	return f;
}

static inline uint32_t float_bits(float f)
{
	uint32_t b;
	memcpy(&b, &f, sizeof(b));
	return b;
}

/* ---- half precision ---- */

static double half_to_double(uint64_t h)
{
	uint64_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
	if (exp == 0x1f)	/* inf or NaN, payload kept */
		return double_from_bits(sign << 63 | (uint64_t)0x7ff << 52 | mant << 42);
	double v = exp ? ldexp((double)(mant | 0x400), (int)exp - 25) : ldexp((double)mant, -24);
	return sign ? -v : v;
}

/* v >> s rounded to nearest, ties to even (s in 1..63). */
static uint64_t shift_rne(uint64_t v, unsigned s)
{
	uint64_t q = v >> s, rem = v & (((uint64_t)1 << s) - 1), half = (uint64_t)1 << (s - 1);
	return rem > half || (rem == half && (q & 1)) ? q + 1 : q;
}

/* Round a double to half precision; rtz: toward zero, else nearest even. */
static uint16_t half_from_double_mode(double d, bool rtz)
{
	uint64_t b = double_bits(d);
	uint16_t sign = (uint16_t)(b >> 63 << 15);
	int exp = (int)((b >> 52) & 0x7ff);
	uint64_t mant = b & (((uint64_t)1 << 52) - 1);

	if (exp == 0x7ff)	/* inf, or a quiet NaN keeping the payload's top */
		return sign | 0x7c00 | (mant ? (uint16_t)(0x200 | (mant >> 42)) : 0);
	int e = exp - 1023;
	if (exp == 0 || e < -25)
		return sign;
	if (e > 15)
		return sign | (rtz ? 0x7bff : 0x7c00);
	uint64_t q;
	if (e >= -14) {
		uint64_t v = (uint64_t)(e + 15) << 52 | mant;
		q = rtz ? v >> 42 : shift_rne(v, 42);
	} else {
		uint64_t m = mant | (uint64_t)1 << 52;
		unsigned s = (unsigned)(42 - 14 - e);
		q = rtz ? m >> s : shift_rne(m, s);
	}
	if (q >= 0x7c00)
		q = rtz ? 0x7bff : 0x7c00;
	return sign | (uint16_t)q;
}

static inline uint64_t f16_bits_(double d)
{
	return half_from_double_mode(d, false);
}

static inline double f16_value_(uint64_t h)
{
	return half_to_double(h & 0xffff);
}

static inline double f16_rtz_(double d)
{
	return half_to_double(half_from_double_mode(d, true));
}

/* OpQuantizeToF16: round to half, flushing half denormals to zero. */
static inline float quantize_f16_(float f)
{
	uint16_t h = half_from_double_mode(f, false);
	if ((h & 0x7c00) == 0)
		h &= 0x8000;
	return (float)half_to_double(h);
}

/* ---- loading and storing typed values ---- */

static inline double load_f(uint64_t raw, unsigned bits)
{
	if (bits == 16)
		return half_to_double(raw);
	if (bits == 32)
		return float_from_bits((uint32_t)raw);
	return double_from_bits(raw);
}

/* NaN results are canonical (positive, quiet, no payload): the host's
 * default NaN differs between CPUs, the text form must not. */
static inline uint64_t store_f(double v, unsigned bits)
{
	if (v != v)
		return bits == 16 ? 0x7e00 : bits == 32 ? 0x7fc00000 : 0x7ff8000000000000;
	if (bits == 16)
		return half_from_double_mode(v, false);
	if (bits == 32)
		return float_bits((float)v);
	return double_bits(v);
}

/* ---- the results SPIR-V leaves undefined, fixed ---- */

static inline double fmin_(double a, double b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static inline double fmax_(double a, double b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static inline int64_t f2i_(double v, unsigned bits)
{
	double lo = -ldexp(1.0, (int)bits - 1), hi = ldexp(1.0, (int)bits - 1);
	if (v != v)
		return 0;
	if (v <= lo)
		return bits >= 64 ? INT64_MIN : (int64_t)lo;
	if (v >= hi)
		return bits >= 64 ? INT64_MAX : (int64_t)hi - 1;
	return (int64_t)v;
}

static inline uint64_t f2u_(double v, unsigned bits)
{
	double hi = ldexp(1.0, (int)bits);
	if (v != v || v <= 0)
		return 0;
	if (v >= hi)
		return bits >= 64 ? UINT64_MAX : (uint64_t)hi - 1;
	return (uint64_t)v;
}

static inline int64_t idiv_(int64_t a, int64_t b)
{
	if (b == 0)
		return 0;
	if (a == INT64_MIN && b == -1)
		return a;
	return a / b;
}

/* Remainder with the sign of the dividend (SPIR-V OpSRem). */
static inline int64_t irem_(int64_t a, int64_t b)
{
	if (b == 0 || (a == INT64_MIN && b == -1))
		return 0;
	return a % b;
}

/* Remainder with the sign of the divisor (SPIR-V OpSMod). */
static inline int64_t imod_(int64_t a, int64_t b)
{
	int64_t r = irem_(a, b);
	if (r != 0 && ((r < 0) != (b < 0)))
		r += b;
	return r;
}

static inline uint64_t umul_high_(uint64_t a, uint64_t b, unsigned bits)
{
	if (bits >= 64)
		return (uint64_t)(((unsigned __int128)a * b) >> 64);
	return (a * b) >> bits;
}

static inline int64_t imul_high_(int64_t a, int64_t b, unsigned bits)
{
	if (bits >= 64)
		return (int64_t)(((__int128)a * b) >> 64);
	return (a * b) >> bits;
}

static inline uint64_t uadd_sat_(uint64_t a, uint64_t b, unsigned bits)
{
	uint64_t max = mask_(UINT64_MAX, bits), s = a + b;
	if (s < a || s > max)
		return max;
	return s;
}

static inline int64_t iclamp_(__int128 v, unsigned bits)
{
	__int128 hi = ((__int128)1 << (bits - 1)) - 1, lo = -hi - 1;
	return (int64_t)(v < lo ? lo : v > hi ? hi : v);
}

static inline uint64_t bitfield_reverse_(uint64_t v, unsigned bits)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < bits; i++)
		r |= ((v >> i) & 1) << (bits - 1 - i);
	return r;
}

static inline int ifind_msb_(int64_t v, unsigned bits)
{
	uint64_t x = mask_((uint64_t)(v < 0 ? ~v : v), bits);
	return x ? 63 - __builtin_clzll(x) : -1;
}

static inline int find_lsb_(int64_t v, unsigned bits)
{
	uint64_t x = mask_((uint64_t)v, bits);
	return x ? __builtin_ctzll(x) : -1;
}

static inline bool bitfield_in_range(int64_t offset, int64_t count, unsigned bits)
{
	return offset >= 0 && count >= 0 && offset + count <= bits;
}

static inline uint64_t ubfe_(uint64_t base, int64_t offset, int64_t count, unsigned bits)
{
	if (count == 0 || !bitfield_in_range(offset, count, bits))
		return 0;
	return mask_(base >> offset, (unsigned)count);
}

static inline int64_t ibfe_(int64_t base, int64_t offset, int64_t count, unsigned bits)
{
	if (count == 0 || !bitfield_in_range(offset, count, bits))
		return 0;
	return sext_((uint64_t)base >> offset, (unsigned)count);
}

static inline uint64_t bfi_(uint64_t base, uint64_t insert, int64_t offset, int64_t count,
			    unsigned bits)
{
	if (count == 0 || !bitfield_in_range(offset, count, bits))
		return base;
	uint64_t m = mask_(UINT64_MAX, (unsigned)count) << offset;
	return (base & ~m) | ((insert << offset) & m);
}

static inline int64_t dot_4x8_(uint64_t a, uint64_t b, bool a_signed, bool b_signed)
{
	int64_t sum = 0;
	for (unsigned i = 0; i < 4; i++) {
		uint64_t x = (a >> 8 * i) & 0xff, y = (b >> 8 * i) & 0xff;
		sum += (a_signed ? sext_(x, 8) : (int64_t)x) * (b_signed ? sext_(y, 8) : (int64_t)y);
	}
	return sum;
}

static inline double frexp_sig_(double v)
{
	int e;
	if (v != v || isinf(v))
		return v;
	return frexp(v, &e);
}

static inline int frexp_exp_(double v)
{
	int e = 0;
	if (v != v || isinf(v))
		return 0;
	frexp(v, &e);
	return e;
}

static inline int ldexp_exp_(int64_t e)
{
	return e < -4096 ? -4096 : e > 4096 ? 4096 : (int)e;
}

static inline uint64_t snorm_(double v, unsigned bits)
{
	double max = ldexp(1.0, (int)bits - 1) - 1;
	return mask_((uint64_t)(int64_t)nearbyint(fmin_(fmax_(v, -1), 1) * max), bits);
}

static inline uint64_t unorm_(double v, unsigned bits)
{
	double max = ldexp(1.0, (int)bits) - 1;
	return (uint64_t)nearbyint(fmin_(fmax_(v, 0), 1) * max);
}

static inline double unsnorm_(uint64_t raw, unsigned bits)
{
	double max = ldexp(1.0, (int)bits - 1) - 1;
	return fmax_((double)sext_(raw, bits) / max, -1);
}

static inline double ununorm_(uint64_t raw, unsigned bits)
{
	return (double)mask_(raw, bits) / (ldexp(1.0, (int)bits) - 1);
}

/* ---- per-type C types, loads and stores (see alu_ops.def) ---- */

#define CT_F tf
#define CT_F16 float
#define CT_F32 float
#define CT_F64 double
#define CT_I int64_t
#define CT_I8 int64_t
#define CT_I16 int64_t
#define CT_I32 int64_t
#define CT_I64 int64_t
#define CT_U uint64_t
#define CT_U8 uint64_t
#define CT_U16 uint64_t
#define CT_U32 uint64_t
#define CT_U64 uint64_t
#define CT_B1 bool

#define LD_F(r, ub) ((tf)load_f(r, ub))
#define LD_F16(r, ub) ((float)load_f(r, 16))
#define LD_F32(r, ub) ((float)load_f(r, 32))
#define LD_F64(r, ub) load_f(r, 64)
#define LD_I(r, ub) sext_(r, ub)
#define LD_I8(r, ub) sext_(r, 8)
#define LD_I16(r, ub) sext_(r, 16)
#define LD_I32(r, ub) sext_(r, 32)
#define LD_I64(r, ub) sext_(r, 64)
#define LD_U(r, ub) mask_(r, ub)
#define LD_U8(r, ub) mask_(r, 8)
#define LD_U16(r, ub) mask_(r, 16)
#define LD_U32(r, ub) mask_(r, 32)
#define LD_U64(r, ub) (r)
#define LD_B1(r, ub) (((r) & 1) != 0)

#define ST_F(v, ub) store_f(v, ub)
#define ST_F16(v, ub) store_f(v, 16)
#define ST_F32(v, ub) store_f(v, 32)
#define ST_F64(v, ub) store_f(v, 64)
#define ST_I(v, ub) mask_((uint64_t)(v), ub)
#define ST_I8(v, ub) mask_((uint64_t)(v), 8)
#define ST_I16(v, ub) mask_((uint64_t)(v), 16)
#define ST_I32(v, ub) mask_((uint64_t)(v), 32)
#define ST_I64(v, ub) ((uint64_t)(v))
#define ST_U(v, ub) mask_((uint64_t)(v), ub)
#define ST_U8(v, ub) mask_((uint64_t)(v), 8)
#define ST_U16(v, ub) mask_((uint64_t)(v), 16)
#define ST_U32(v, ub) mask_((uint64_t)(v), 32)
#define ST_U64(v, ub) ((uint64_t)(v))
#define ST_B1(v, ub) ((uint64_t)((v) != 0))

/* ---- fold functions: `tf` is float, or double for 64-bit unsized floats ---- */

#define FOLD_FN(name, body) \
	static void fold_##name(uint64_t *dst, unsigned nc, unsigned ub, \
				const uint64_t *const *src) \
	{ \
		(void)nc; \
		if (ub == 64) { \
			typedef double tf; \
			(void)sizeof(tf); \
			body \
		} else { \
			typedef float tf; \
			(void)sizeof(tf); \
			body \
		} \
	}

#define PER_COMPONENT(out, loads, expr) \
	for (unsigned c_ = 0; c_ < nc; c_++) { \
		unsigned bits = ub; \
		(void)bits; \
		loads \
		CT_##out r_ = (CT_##out)(expr); \
		dst[c_] = ST_##out(r_, ub); \
	}

#define UNOP(name, out, in, props, expr) \
	FOLD_FN(name, PER_COMPONENT(out, CT_##in a = LD_##in(src[0][c_], ub);, expr))
#define BINOP(name, out, in0, in1, props, expr) \
	FOLD_FN(name, PER_COMPONENT(out, CT_##in0 a = LD_##in0(src[0][c_], ub); \
				    CT_##in1 b = LD_##in1(src[1][c_], ub);, expr))
#define TRIOP(name, out, in0, in1, in2, props, expr) \
	FOLD_FN(name, PER_COMPONENT(out, CT_##in0 a = LD_##in0(src[0][c_], ub); \
				    CT_##in1 b = LD_##in1(src[1][c_], ub); \
				    CT_##in2 c = LD_##in2(src[2][c_], ub);, expr))
#define QUADOP(name, out, in0, in1, in2, in3, props, expr) \
	FOLD_FN(name, PER_COMPONENT(out, CT_##in0 a = LD_##in0(src[0][c_], ub); \
				    CT_##in1 b = LD_##in1(src[1][c_], ub); \
				    CT_##in2 c = LD_##in2(src[2][c_], ub); \
				    CT_##in3 d = LD_##in3(src[3][c_], ub);, expr))

#define HORIZONTAL(out_size, out, in_size, in, nsrc, body) \
	CT_##in a[in_size], b[in_size]; \
	CT_##out r[out_size]; \
	unsigned bits = ub; \
	(void)bits; \
	(void)b; \
	for (unsigned c_ = 0; c_ < in_size; c_++) { \
		a[c_] = LD_##in(src[0][c_], ub); \
		b[c_] = nsrc > 1 ? LD_##in(src[nsrc - 1][c_], ub) : a[c_]; \
	} \
	{ body; } \
	for (unsigned c_ = 0; c_ < out_size; c_++) \
		dst[c_] = ST_##out(r[c_], ub);

#define HORIZ1(name, out_size, out, in_size, in, props, body) \
	FOLD_FN(name, HORIZONTAL(out_size, out, in_size, in, 1, body))
#define HORIZ2(name, out_size, out, in_size, in, props, body) \
	FOLD_FN(name, HORIZONTAL(out_size, out, in_size, in, 2, body))

#define VECOP(name, n) \
	static void fold_##name(uint64_t *dst, unsigned nc, unsigned ub, \
				const uint64_t *const *src) \
	{ \
		(void)nc; \
		for (unsigned c_ = 0; c_ < (n); c_++) \
			dst[c_] = mask_(src[c_][0], ub); \
	}

#include "compiler/ir/alu_ops.def"

/* ---- the table ---- */

#define UNOP(n, out, in, p, e) \
	[OP_##n] = { .name = #n, .num_inputs = 1, .output_type = TYPE_##out, \
		     .input_types = { TYPE_##in }, .props = (p), .fold = fold_##n },
#define BINOP(n, out, in0, in1, p, e) \
	[OP_##n] = { .name = #n, .num_inputs = 2, .output_type = TYPE_##out, \
		     .input_types = { TYPE_##in0, TYPE_##in1 }, .props = (p), .fold = fold_##n },
#define TRIOP(n, out, in0, in1, in2, p, e) \
	[OP_##n] = { .name = #n, .num_inputs = 3, .output_type = TYPE_##out, \
		     .input_types = { TYPE_##in0, TYPE_##in1, TYPE_##in2 }, .props = (p), \
		     .fold = fold_##n },
#define QUADOP(n, out, in0, in1, in2, in3, p, e) \
	[OP_##n] = { .name = #n, .num_inputs = 4, .output_type = TYPE_##out, \
		     .input_types = { TYPE_##in0, TYPE_##in1, TYPE_##in2, TYPE_##in3 }, \
		     .props = (p), .fold = fold_##n },
#define HORIZ1(n, os, out, is, in, p, b) \
	[OP_##n] = { .name = #n, .num_inputs = 1, .output_size = os, .input_sizes = { is }, \
		     .output_type = TYPE_##out, .input_types = { TYPE_##in }, .props = (p), \
		     .fold = fold_##n },
#define HORIZ2(n, os, out, is, in, p, b) \
	[OP_##n] = { .name = #n, .num_inputs = 2, .output_size = os, .input_sizes = { is, is }, \
		     .output_type = TYPE_##out, .input_types = { TYPE_##in, TYPE_##in }, \
		     .props = (p), .fold = fold_##n },
#define VECOP(n, N) \
	[OP_##n] = { .name = #n, .num_inputs = N, .output_size = N, \
		     .input_sizes = { [0 ... N - 1] = 1 }, .output_type = TYPE_U, \
		     .input_types = { [0 ... N - 1] = TYPE_U }, .fold = fold_##n },

const struct alu_op_info alu_op_infos[OP_COUNT] = {
#include "compiler/ir/alu_ops.def"
};

int alu_op_lookup(const char *name, size_t len)
{
	for (int op = 0; op < OP_COUNT; op++)
		if (strlen(alu_op_infos[op].name) == len && !memcmp(alu_op_infos[op].name, name, len))
			return op;
	return -1;
}

void alu_fold(enum alu_op op, unsigned num_components, unsigned bit_size,
	      const uint64_t *const *src, uint64_t *dst)
{
	alu_op_infos[op].fold(dst, num_components, bit_size, src);
}

uint64_t ir_float_to_bits(double v, unsigned bit_size)
{
	return store_f(v, bit_size);
}

double ir_float_from_bits(uint64_t bits, unsigned bit_size)
{
	return load_f(bits, bit_size);
}

unsigned alu_instr_bit_size(const struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	for (unsigned i = 0; i < info->num_inputs; i++)
		if (!alu_type_bits(info->input_types[i]))
			return alu->src[i].src.ssa->bit_size;
	return alu->def.bit_size;
}

void alu_instr_eval(const struct alu_instr *alu, const uint64_t *const *src, uint64_t *dst)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	uint64_t vals[ALU_MAX_INPUTS][16];
	const uint64_t *srcs[ALU_MAX_INPUTS];
	for (unsigned i = 0; i < info->num_inputs; i++) {
		for (unsigned c = 0; c < alu_src_components(alu, i) && c < 16; c++)
			vals[i][c] = src[i][alu->src[i].swizzle[c]];
		srcs[i] = vals[i];
	}
	alu_fold(alu->op, alu->def.num_components, alu_instr_bit_size(alu), srcs, dst);
}

bool alu_instr_fold_const(const struct alu_instr *alu, uint64_t *dst)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	const uint64_t *srcs[ALU_MAX_INPUTS];
	for (unsigned i = 0; i < info->num_inputs; i++) {
		const struct load_const_instr *lc = ssa_def_as_const(alu->src[i].src.ssa);
		if (!lc)
			return false;
		srcs[i] = lc->value;
	}
	alu_instr_eval(alu, srcs, dst);
	return true;
}
