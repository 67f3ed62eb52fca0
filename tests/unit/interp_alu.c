/*
 * The interpreter's ALU, family by family, on the cases SPIR-V leaves open
 * (INTERP.md, alu_ops.def): NaN, ±inf, −0.0, integer overflow, shifts by
 * the bit size or more, division by zero, conversions at their edges, f16
 * rounding, ordered and unordered comparisons, bitfield edges, find_msb,
 * pack/unpack.  Operands come from an SSBO (the interpreter computes, no
 * constant is folded) and each result is also checked against the constant
 * folder on the same operands: the two must agree exactly.
 */
#include <math.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/interp.h"
#include "tap.h"

#define F32(x) ((uint64_t)f32bits(x))
#define F64(x) f64bits(x)
#define NAN16 0x7e00u
#define NAN32 0x7fc00000u
#define NAN64 0x7ff8000000000000ull
#define INF32 0x7f800000u
#define NINF32 0xff800000u
#define NZERO32 0x80000000u
#define DENORM32 0x00000001u
#define IMIN32 0x80000000u
#define IMAX32 0x7fffffffu
#define ALL32 0xffffffffu
#define M1_64 0xffffffffffffffffull

static uint32_t f32bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static uint64_t f64bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

/* One case: op at an unsized bit size, sources (up to 4 components each),
 * the expected result components. */
struct acase {
	enum alu_op op;
	unsigned bits;
	uint64_t src[4][4];
	uint64_t want[4];
	const char *what;
};

#define S1(a) { { a } }
#define S2(a, b) { { a }, { b } }
#define S3(a, b, c) { { a }, { b }, { c } }
#define S4(a, b, c, d) { { a }, { b }, { c }, { d } }
#define W(...) { __VA_ARGS__ }

static unsigned src_bits(const struct acase *t, unsigned i)
{
	unsigned b = alu_type_bits(alu_op_infos[t->op].input_types[i]);
	return b ? b : t->bits;
}

static unsigned src_comps(const struct acase *t, unsigned i)
{
	unsigned n = alu_op_infos[t->op].input_sizes[i];
	return n ? n : 1;
}

/* A compute shader: load the sources from SSBO 0 (source i at byte 32·i),
 * apply the op, store the result at byte 128 (booleans as 32-bit 0/1). */
static struct shader *alu_shader(const struct acase *t, struct ssa_def **res)
{
	const struct alu_op_info *info = &alu_op_infos[t->op];
	struct shader *s = shader_create(STAGE_COMPUTE, "main");
	s->info.workgroup_size[0] = s->info.workgroup_size[1] = s->info.workgroup_size[2] = 1;
	shader_add_ssbo(s)->size = 256;
	struct builder b;
	builder_init_at_end(&b, s);
	struct ssa_def *zero = b_imm_int(&b, 0), *srcs[4] = { NULL };
	for (unsigned i = 0; i < info->num_inputs; i++) {
		unsigned bits = src_bits(t, i), nc = src_comps(t, i);
		struct ssa_def *off = b_imm_int(&b, 32 * i);
		if (bits == 1)
			srcs[i] = b_ine(&b, b_intr(&b, load_ssbo, nc, 32, (zero, off), .align_mul = 4),
					zero);
		else
			srcs[i] = b_intr(&b, load_ssbo, nc, bits, (zero, off), .align_mul = 4);
	}
	struct ssa_def *r = b_alu(&b, t->op, srcs[0], srcs[1], srcs[2], srcs[3]);
	*res = r;
	if (r->bit_size == 1)
		r = b_b2i32(&b, r);
	b_intr(&b, store_ssbo, r->num_components, 0, (r, zero, b_imm_int(&b, 128)), .align_mul = 4);
	return s;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void run_case(const struct acase *t)
{
	const struct alu_op_info *info = &alu_op_infos[t->op];
	struct ssa_def *res;
	struct shader *s = alu_shader(t, &res);
	struct diag d = DIAG_INIT;
	if (!ir_validate(s, &d, "case")) {
		ok(false, "%s %s: a valid shader", info->name, t->what);
		tap_diag("%s", d.text.buf);
		goto out;
	}
	struct interp_inputs *in = interp_inputs_create(s);
	for (unsigned i = 0; i < info->num_inputs; i++) {
		unsigned bits = src_bits(t, i), bytes = bits == 1 ? 4 : bits / 8;
		for (unsigned k = 0; k < src_comps(t, i); k++)
			put_le(in->ssbo[0].data + 32 * i + k * bytes, t->src[i][k], bytes);
	}
	struct interp_result *r = interp_run(s, in, NULL);
	unsigned rbits = res->bit_size == 1 ? 32 : res->bit_size, n = res->num_components;
	bool good = r->status == INTERP_OK, folds = true;
	uint64_t got[16] = { 0 }, folded[16] = { 0 };
	/* the folder on the same operands */
	const uint64_t *fsrc[4] = { t->src[0], t->src[1], t->src[2], t->src[3] };
	alu_fold(t->op, n, t->bits, fsrc, folded);
	for (unsigned k = 0; k < n && good; k++) {
		got[k] = get_le(r->ssbo[0].data + 128 + k * (rbits / 8), rbits / 8);
		good &= got[k] == t->want[k];
		folds &= folded[k] == got[k];
	}
	if (!ok(good && folds, "%s %u-bit: %s", info->name, t->bits, t->what)) {
		if (r->status != INTERP_OK)
			tap_diag("  %s: %s", interp_status_names[r->status], r->message);
		for (unsigned k = 0; k < n; k++)
			tap_diag("  component %u: got 0x%llx, expected 0x%llx, folder 0x%llx", k,
				 (unsigned long long)got[k], (unsigned long long)t->want[k],
				 (unsigned long long)folded[k]);
	}
	interp_result_free(r);
	interp_inputs_free(in);
out:
	diag_release(&d);
	shader_free(s);
}

static void run_cases(const struct acase *cases, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_case(&cases[i]);
}

#define RUN(cases) run_cases(cases, sizeof(cases) / sizeof(*cases))

static void float_family(void)
{
	const struct acase cases[] = {
		{ OP_fadd, 32, S2(INF32, NINF32), W(NAN32), "inf + -inf is the canonical NaN" },
		{ OP_fadd, 32, S2(NZERO32, NZERO32), W(NZERO32), "-0 + -0 = -0" },
		{ OP_fadd, 32, S2(NZERO32, 0), W(0), "-0 + +0 = +0" },
		{ OP_fadd, 32, S2(0x7fc00001, F32(1)), W(NAN32), "a NaN operand gives the canonical NaN" },
		{ OP_fadd, 32, S2(F32(3e38f), F32(3e38f)), W(INF32), "overflow to inf" },
		{ OP_fadd, 64, S2(F64(0.1), F64(0.2)), W(0x3fd3333333333334ull), "f64 0.1 + 0.2" },
		{ OP_fadd, 16, S2(0x3c00, 0x1000), W(0x3c00), "f16: 1 + 2^-11 ties to even (1)" },
		{ OP_fadd, 16, S2(0x3c01, 0x1000), W(0x3c02), "f16: ties to even upwards" },
		{ OP_fadd, 16, S2(0x7bff, 0x7bff), W(0x7c00), "f16 overflow to inf" },
		{ OP_fmul, 32, S2(0, INF32), W(NAN32), "0 * inf is NaN" },
		{ OP_fmul, 32, S2(NZERO32, F32(5)), W(NZERO32), "-0 * 5 = -0" },
		{ OP_fmul, 32, S2(DENORM32, F32(1)), W(DENORM32), "denormals are kept" },
		{ OP_fmul, 64, S2(1, F64(0.5)), W(0), "f64 smallest denormal / 2 rounds to 0" },
		{ OP_fdiv, 32, S2(F32(1), 0), W(INF32), "1 / 0 = inf" },
		{ OP_fdiv, 32, S2(F32(1), NZERO32), W(NINF32), "1 / -0 = -inf" },
		{ OP_fdiv, 32, S2(0, 0), W(NAN32), "0 / 0 is NaN" },
		{ OP_fdiv, 64, S2(F64(-1), 0), W(0xfff0000000000000ull), "f64 -1 / 0 = -inf" },
		{ OP_frcp, 32, S1(NZERO32), W(NINF32), "frcp(-0) = -inf" },
		{ OP_frsq, 32, S1(0), W(INF32), "frsq(0) = inf" },
		{ OP_fsqrt, 32, S1(NZERO32), W(NZERO32), "fsqrt(-0) = -0" },
		{ OP_fsqrt, 32, S1(F32(-1)), W(NAN32), "fsqrt(-1) is NaN" },
		{ OP_fneg, 32, S1(0), W(NZERO32), "fneg(0) = -0" },
		{ OP_fneg, 32, S1(0xffc00001), W(NAN32), "fneg of a NaN is the canonical NaN" },
		{ OP_fabs, 32, S1(NZERO32), W(0), "fabs(-0) = 0" },
		{ OP_fmin, 32, S2(NAN32, F32(2)), W(F32(2)), "fmin(NaN, 2) = 2 (minNum)" },
		{ OP_fmax, 32, S2(F32(2), 0x7f800001), W(F32(2)), "fmax(2, sNaN) = 2" },
		{ OP_fmin, 32, S2(0, NZERO32), W(NZERO32), "fmin(+0, -0) = -0" },
		{ OP_fmax, 32, S2(NZERO32, 0), W(0), "fmax(-0, +0) = +0" },
		{ OP_fmin, 32, S2(NAN32, NAN32), W(NAN32), "fmin(NaN, NaN) is NaN" },
		{ OP_fsat, 32, S1(NAN32), W(0), "fsat(NaN) = 0" },
		{ OP_fsat, 32, S1(NINF32), W(0), "fsat(-inf) = 0" },
		{ OP_fsign, 32, S1(NZERO32), W(NZERO32), "fsign(-0) = -0" },
		{ OP_fsign, 32, S1(NAN32), W(NAN32), "fsign(NaN) is NaN" },
		{ OP_ffloor, 32, S1(F32(-0.5f)), W(F32(-1)), "ffloor(-0.5) = -1" },
		{ OP_fceil, 32, S1(F32(-0.5f)), W(NZERO32), "fceil(-0.5) = -0" },
		{ OP_fround_even, 32, S1(F32(3.5f)), W(F32(4)), "fround_even(3.5) = 4" },
		{ OP_fround_even, 32, S1(F32(-2.5f)), W(F32(-2)), "fround_even(-2.5) = -2" },
		{ OP_ffract, 32, S1(F32(-0.25f)), W(F32(0.75f)), "ffract(-0.25) = 0.75" },
		{ OP_ffract, 32, S1(INF32), W(NAN32), "ffract(inf) is NaN" },
		{ OP_fmod, 32, S2(F32(-1), F32(3)), W(F32(2)), "fmod(-1, 3) = 2 (GLSL mod)" },
		{ OP_fmod, 32, S2(F32(1), 0), W(NAN32), "fmod by 0 is NaN" },
		{ OP_frem, 32, S2(F32(-1), F32(3)), W(F32(-1)), "frem(-1, 3) = -1" },
		{ OP_fpow, 32, S2(0, 0), W(F32(1)), "fpow(0, 0) = 1 (C pow)" },
		{ OP_fexp2, 32, S1(NINF32), W(0), "fexp2(-inf) = 0" },
		{ OP_flog2, 32, S1(NZERO32), W(NINF32), "flog2(-0) = -inf" },
		{ OP_flog2, 32, S1(F32(-1)), W(NAN32), "flog2(-1) is NaN" },
		{ OP_ffma, 32, S3(F32(1.0f + 0x1p-23f), F32(1.0f - 0x1p-24f), F32(-1)),
		  W(F32(0x1p-24f - 0x1p-47f)), "ffma rounds once" },
		{ OP_flrp, 32, S3(F32(2), F32(4), F32(0.5f)), W(F32(3)), "flrp" },
		{ OP_ldexp, 32, S2(F32(1), 200), W(INF32), "ldexp overflows to inf" },
		{ OP_ldexp, 32, S2(F32(1), IMIN32), W(0), "ldexp by INT_MIN underflows to 0" },
		{ OP_frexp_sig, 32, S1(F32(8)), W(F32(0.5f)), "frexp_sig(8) = 0.5" },
		{ OP_frexp_exp, 32, S1(F32(8)), W(4), "frexp_exp(8) = 4" },
		{ OP_frexp_exp, 32, S1(INF32), W(0), "frexp_exp(inf) = 0" },
		{ OP_fquantize2f16, 32, S1(F32(1e-5f)), W(0), "fquantize2f16 flushes f16 denormals" },
		{ OP_fquantize2f16, 32, S1(F32(-1e-5f)), W(NZERO32), "… keeping the sign" },
		{ OP_fquantize2f16, 32, S1(F32(65520)), W(INF32), "fquantize2f16(65520) = inf" },
		{ OP_fdot3, 32, { { F32(1), F32(2), F32(3) }, { F32(4), F32(5), F32(6) } }, W(F32(32)),
		  "fdot3" },
		{ OP_fdot2, 32, { { INF32, F32(1) }, { 0, F32(1) } }, W(NAN32), "fdot2 with inf * 0" },
	};
	RUN(cases);
}

static void compare_family(void)
{
	const struct acase cases[] = {
		{ OP_flt, 32, S2(NAN32, F32(1)), W(0), "flt is ordered: NaN < 1 is false" },
		{ OP_fge, 32, S2(NAN32, F32(1)), W(0), "fge(NaN, 1) is false" },
		{ OP_feq, 32, S2(NAN32, NAN32), W(0), "feq(NaN, NaN) is false" },
		{ OP_feq, 32, S2(0, NZERO32), W(1), "feq(0, -0) is true" },
		{ OP_flt, 32, S2(NZERO32, 0), W(0), "flt(-0, 0) is false" },
		{ OP_fneu, 32, S2(NAN32, NAN32), W(1), "fneu(NaN, NaN) is true" },
		{ OP_fltu, 32, S2(NAN32, F32(1)), W(1), "fltu is unordered" },
		{ OP_fgeu, 32, S2(F32(1), NAN32), W(1), "fgeu is unordered" },
		{ OP_fequ, 32, S2(NAN32, F32(1)), W(1), "fequ(NaN, 1) is true" },
		{ OP_fneo, 32, S2(NAN32, F32(1)), W(0), "fneo(NaN, 1) is false" },
		{ OP_fneo, 32, S2(F32(2), F32(1)), W(1), "fneo(2, 1) is true" },
		{ OP_ford, 32, S2(F32(1), NAN32), W(0), "ford" },
		{ OP_funord, 32, S2(F32(1), NAN32), W(1), "funord" },
		{ OP_flt, 16, S2(0xfc00, 0x7c00), W(1), "f16 -inf < inf" },
		{ OP_ilt, 32, S2(ALL32, 0), W(1), "ilt(-1, 0)" },
		{ OP_ult, 32, S2(ALL32, 0), W(0), "ult(0xffffffff, 0)" },
		{ OP_ige, 8, S2(0x80, 0x7f), W(0), "8-bit ige(-128, 127)" },
		{ OP_ieq, 64, S2(M1_64, M1_64), W(1), "64-bit ieq" },
		{ OP_ball_fequal2, 32, { { NAN32, F32(1) }, { NAN32, F32(1) } }, W(0), "ball_fequal2 with NaN" },
		{ OP_bany_fnequal2, 32, { { NAN32, F32(1) }, { NAN32, F32(1) } }, W(1), "bany_fnequal2 with NaN" },
		{ OP_bcsel, 32, S3(1, NAN32 | 1, 7), W(NAN32 | 1), "bcsel keeps NaN payloads" },
	};
	RUN(cases);
}

static void int_family(void)
{
	const struct acase cases[] = {
		{ OP_iadd, 32, S2(IMAX32, 1), W(IMIN32), "INT_MAX + 1 wraps" },
		{ OP_iadd, 8, S2(0x7f, 1), W(0x80), "8-bit 127 + 1 wraps" },
		{ OP_isub, 16, S2(0, 1), W(0xffff), "16-bit 0 - 1 wraps" },
		{ OP_imul, 32, S2(0x10000, 0x10000), W(0), "0x10000 * 0x10000 wraps to 0" },
		{ OP_imul, 64, S2(M1_64, M1_64), W(1), "64-bit -1 * -1" },
		{ OP_ineg, 32, S1(IMIN32), W(IMIN32), "ineg(INT_MIN) = INT_MIN" },
		{ OP_iabs, 32, S1(IMIN32), W(IMIN32), "iabs(INT_MIN) = INT_MIN" },
		{ OP_isign, 32, S1(IMIN32), W(ALL32), "isign(INT_MIN) = -1" },
		{ OP_umul_high, 32, S2(ALL32, ALL32), W(0xfffffffe), "umul_high" },
		{ OP_imul_high, 32, S2(IMIN32, IMIN32), W(0x40000000), "imul_high(INT_MIN, INT_MIN)" },
		{ OP_imul_high, 64, S2(M1_64, M1_64), W(0), "64-bit imul_high(-1, -1)" },
		{ OP_uadd_carry, 32, S2(ALL32, 1), W(1), "uadd_carry" },
		{ OP_usub_borrow, 32, S2(0, 1), W(1), "usub_borrow" },
		{ OP_uadd_sat, 32, S2(ALL32, 1), W(ALL32), "uadd_sat" },
		{ OP_usub_sat, 32, S2(1, 2), W(0), "usub_sat" },
		{ OP_iadd_sat, 32, S2(IMAX32, 1), W(IMAX32), "iadd_sat at INT_MAX" },
		{ OP_isub_sat, 32, S2(IMIN32, 1), W(IMIN32), "isub_sat at INT_MIN" },
		{ OP_iadd_sat, 8, S2(0x80, 0xff), W(0x80), "8-bit iadd_sat(-128, -1)" },
		/* division */
		{ OP_idiv, 32, S2(7, 0), W(0), "idiv by 0 = 0" },
		{ OP_udiv, 32, S2(7, 0), W(0), "udiv by 0 = 0" },
		{ OP_irem, 32, S2(7, 0), W(0), "irem by 0 = 0" },
		{ OP_imod, 32, S2(7, 0), W(0), "imod by 0 = 0" },
		{ OP_umod, 32, S2(7, 0), W(0), "umod by 0 = 0" },
		{ OP_idiv, 32, S2(IMIN32, ALL32), W(IMIN32), "INT_MIN / -1 wraps" },
		{ OP_irem, 32, S2(IMIN32, ALL32), W(0), "INT_MIN % -1 = 0" },
		{ OP_idiv, 32, S2(0xfffffff9, 2), W(0xfffffffd), "-7 / 2 = -3 (truncates)" },
		{ OP_irem, 32, S2(0xfffffff9, 2), W(ALL32), "irem(-7, 2) = -1 (sign of x)" },
		{ OP_imod, 32, S2(0xfffffff9, 2), W(1), "imod(-7, 2) = 1 (sign of y)" },
		{ OP_imod, 32, S2(7, 0xfffffffe), W(ALL32), "imod(7, -2) = -1" },
		{ OP_idiv, 64, S2(0x8000000000000000ull, M1_64), W(0x8000000000000000ull), "64-bit INT_MIN / -1" },
		{ OP_idiv, 8, S2(0x80, 0xff), W(0x80), "8-bit -128 / -1 wraps" },
		{ OP_udiv, 16, S2(0xffff, 0), W(0), "16-bit udiv by 0" },
		/* shifts: the count is taken modulo the bit size */
		{ OP_ishl, 32, S2(1, 32), W(1), "ishl by 32 = by 0" },
		{ OP_ishl, 32, S2(1, 33), W(2), "ishl by 33 = by 1" },
		{ OP_ishl, 32, S2(1, ALL32), W(IMIN32), "ishl by -1 = by 31" },
		{ OP_ishr, 32, S2(IMIN32, 31), W(ALL32), "ishr sign-extends" },
		{ OP_ishr, 32, S2(0xfffffff8, 35), W(ALL32), "ishr(-8, 35) = -8 >> 3" },
		{ OP_ushr, 32, S2(IMIN32, 32), W(IMIN32), "ushr by 32 = by 0" },
		{ OP_ishl, 64, S2(1, 64), W(1), "64-bit ishl by 64 = by 0" },
		{ OP_ishl, 64, S2(1, 63), W(0x8000000000000000ull), "64-bit ishl by 63" },
		{ OP_ishl, 16, S2(1, 17), W(2), "16-bit ishl by 17 = by 1" },
		{ OP_ushr, 8, S2(0x80, 9), W(0x40), "8-bit ushr by 9 = by 1" },
		{ OP_ishr, 8, S2(0x80, 7), W(0xff), "8-bit ishr(-128, 7) = -1" },
	};
	RUN(cases);
}

static void conv_family(void)
{
	const struct acase cases[] = {
		{ OP_f2i32, 32, S1(NAN32), W(0), "f2i32(NaN) = 0" },
		{ OP_f2i32, 32, S1(INF32), W(IMAX32), "f2i32(inf) saturates" },
		{ OP_f2i32, 32, S1(NINF32), W(IMIN32), "f2i32(-inf) saturates" },
		{ OP_f2i32, 32, S1(F32(3e9f)), W(IMAX32), "f2i32(3e9) saturates" },
		{ OP_f2i32, 32, S1(F32(-2147483648.0f)), W(IMIN32), "f2i32(-2^31) is exact" },
		{ OP_f2i32, 32, S1(F32(-2.7f)), W(0xfffffffe), "f2i32(-2.7) truncates to -2" },
		{ OP_f2i32, 64, S1(F64(2147483647.9)), W(IMAX32), "f2i32 of f64 just below 2^31" },
		{ OP_f2u32, 32, S1(F32(-1)), W(0), "f2u32(-1) = 0" },
		{ OP_f2u32, 32, S1(F32(-0.5f)), W(0), "f2u32(-0.5) = 0" },
		{ OP_f2u32, 32, S1(F32(5e9f)), W(ALL32), "f2u32(5e9) saturates" },
		{ OP_f2u32, 32, S1(NAN32), W(0), "f2u32(NaN) = 0" },
		{ OP_f2i8, 32, S1(F32(200)), W(0x7f), "f2i8(200) = 127" },
		{ OP_f2i8, 32, S1(F32(-200)), W(0x80), "f2i8(-200) = -128" },
		{ OP_f2u8, 32, S1(F32(300)), W(0xff), "f2u8(300) = 255" },
		{ OP_f2i16, 16, S1(0x7c00), W(0x7fff), "f2i16(f16 inf)" },
		{ OP_f2i64, 64, S1(F64(1e19)), W(0x7fffffffffffffffull), "f2i64(1e19) saturates" },
		{ OP_f2u64, 32, S1(INF32), W(M1_64), "f2u64(inf) saturates" },
		{ OP_i2f32, 32, S1(16777217), W(0x4b800000), "i2f32(2^24+1) rounds to even" },
		{ OP_i2f32, 32, S1(16777219), W(0x4b800002), "i2f32(2^24+3) rounds to even (up)" },
		{ OP_i2f32, 32, S1(ALL32), W(F32(-1)), "i2f32(-1)" },
		{ OP_u2f32, 32, S1(ALL32), W(0x4f800000), "u2f32(UINT_MAX) = 2^32" },
		{ OP_i2f32, 64, S1(0x7fffffffffffffffull), W(0x5f000000), "i2f32(INT64_MAX) = 2^63" },
		{ OP_i2f16, 32, S1(70000), W(0x7c00), "i2f16(70000) overflows to inf" },
		{ OP_u2f16, 32, S1(2049), W(0x6800), "u2f16(2049) ties to 2048" },
		{ OP_i2f64, 8, S1(0x80), W(F64(-128)), "i2f64 of 8-bit -128" },
		{ OP_f2f16, 32, S1(F32(65519)), W(0x7bff), "f2f16(65519) = 65504" },
		{ OP_f2f16, 32, S1(F32(65520)), W(0x7c00), "f2f16(65520) = inf" },
		{ OP_f2f16_rtz, 32, S1(F32(65520)), W(0x7bff), "f2f16_rtz(65520) = 65504" },
		{ OP_f2f16_rtz, 32, S1(F32(-1.0009765625f * 1.0004f)), W(0xbc01), "f2f16_rtz truncates" },
		{ OP_f2f16, 32, S1(F32(0x1p-24f)), W(0x0001), "f2f16 of the smallest f16 denormal" },
		{ OP_f2f16, 32, S1(F32(0x1p-26f)), W(0), "f2f16 underflows to 0" },
		{ OP_f2f16, 32, S1(F32(-0x1p-26f)), W(0x8000), "… keeping the sign" },
		{ OP_f2f16, 32, S1(NAN32), W(NAN16), "f2f16(NaN) is the canonical f16 NaN" },
		{ OP_f2f32, 64, S1(0x7ff0000000000001ull), W(NAN32), "f2f32 of an f64 sNaN" },
		{ OP_f2f32, 64, S1(F64(1e40)), W(INF32), "f2f32(1e40) = inf" },
		{ OP_f2f64, 32, S1(DENORM32), W(F64(0x1p-149)), "f2f64 keeps an f32 denormal" },
		{ OP_f2f64, 16, S1(0xfc00), W(0xfff0000000000000ull), "f2f64 of f16 -inf" },
		{ OP_i2i8, 32, S1(0x1ff), W(0xff), "i2i8 truncates" },
		{ OP_i2i64, 16, S1(0x8000), W(0xffffffffffff8000ull), "i2i64 sign-extends" },
		{ OP_u2u64, 16, S1(0x8000), W(0x8000), "u2u64 zero-extends" },
		{ OP_b2f32, 1, S1(1), W(F32(1)), "b2f32(true) = 1.0" },
		{ OP_b2i64, 1, S1(1), W(1), "b2i64(true) = 1" },
		{ OP_f2b1, 32, S1(NZERO32), W(0), "f2b1(-0) = false" },
		{ OP_f2b1, 32, S1(NAN32), W(1), "f2b1(NaN) = true" },
		{ OP_i2b1, 8, S1(0x80), W(1), "i2b1" },
	};
	RUN(cases);
}

static void bit_family(void)
{
	const struct acase cases[] = {
		{ OP_ubitfield_extract, 32, S3(0xff00, 8, 8), W(0xff), "ubfe(0xff00, 8, 8)" },
		{ OP_ubitfield_extract, 32, S3(0xdeadbeef, 0, 32), W(0xdeadbeef), "ubfe of the whole word" },
		{ OP_ubitfield_extract, 32, S3(ALL32, 31, 2), W(0), "ubfe past the top = 0" },
		{ OP_ubitfield_extract, 32, S3(ALL32, ALL32, 4), W(0), "ubfe at offset -1 = 0" },
		{ OP_ubitfield_extract, 32, S3(ALL32, 4, 0), W(0), "ubfe of 0 bits = 0" },
		{ OP_ibitfield_extract, 32, S3(0x80, 4, 4), W(0xfffffff8), "ibfe sign-extends" },
		{ OP_ibitfield_extract, 32, S3(0x80000000, 0, 32), W(0x80000000), "ibfe of the whole word" },
		{ OP_ibitfield_extract, 32, S3(ALL32, 16, 17), W(0), "ibfe past the top = 0" },
		{ OP_bitfield_insert, 32, S4(ALL32, 0, 8, 8), W(0xffff00ff), "bfi" },
		{ OP_bitfield_insert, 32, S4(0x12345678, 0xabcdef01, 0, 32), W(0xabcdef01), "bfi of the whole word" },
		{ OP_bitfield_insert, 32, S4(0x12345678, 0, 30, 4), W(0x12345678), "bfi past the top = base" },
		{ OP_bitfield_insert, 32, S4(0x12345678, 0, 4, 0), W(0x12345678), "bfi of 0 bits = base" },
		{ OP_ufind_msb, 32, S1(0), W(ALL32), "ufind_msb(0) = -1" },
		{ OP_ufind_msb, 32, S1(IMIN32), W(31), "ufind_msb(0x80000000) = 31" },
		{ OP_ifind_msb, 32, S1(0), W(ALL32), "ifind_msb(0) = -1" },
		{ OP_ifind_msb, 32, S1(ALL32), W(ALL32), "ifind_msb(-1) = -1" },
		{ OP_ifind_msb, 32, S1(0xfffffffe), W(0), "ifind_msb(-2) = 0" },
		{ OP_ifind_msb, 32, S1(IMIN32), W(30), "ifind_msb(INT_MIN) = 30" },
		{ OP_ifind_msb, 8, S1(0x80), W(6), "8-bit ifind_msb(-128) = 6" },
		{ OP_find_lsb, 32, S1(0), W(ALL32), "find_lsb(0) = -1" },
		{ OP_find_lsb, 64, S1(0x8000000000000000ull), W(63), "64-bit find_lsb" },
		{ OP_bit_count, 32, S1(ALL32), W(32), "bit_count(-1) = 32" },
		{ OP_bit_count, 64, S1(M1_64), W(64), "64-bit bit_count" },
		{ OP_bitfield_reverse, 32, S1(1), W(IMIN32), "bitfield_reverse(1)" },
		{ OP_bitfield_reverse, 16, S1(1), W(0x8000), "16-bit bitfield_reverse(1)" },
		{ OP_inot, 1, S1(1), W(0), "inot of true" },
		{ OP_iand, 1, S2(1, 1), W(1), "iand of booleans" },
		{ OP_ixor, 64, S2(M1_64, 1), W(0xfffffffffffffffeull), "64-bit ixor" },
		{ OP_extract_u8, 32, S2(0x12345678, 2), W(0x34), "extract_u8" },
		{ OP_extract_i8, 32, S2(0x80, 0), W(0xffffff80), "extract_i8 sign-extends" },
		{ OP_extract_u16, 32, S2(0x12345678, 1), W(0x1234), "extract_u16" },
		{ OP_extract_i16, 32, S2(0x80000000, 1), W(0xffff8000), "extract_i16" },
		{ OP_udot_4x8_uadd, 32, S3(0xffffffff, 0xffffffff, 1), W(4 * 255 * 255 + 1), "udot_4x8_uadd" },
		{ OP_sdot_4x8_iadd, 32, S3(0xffffffff, 0x01010101, 0), W(0xfffffffc), "sdot_4x8_iadd: 4 × -1" },
		{ OP_udot_4x8_uadd_sat, 32, S3(0xffffffff, 0xffffffff, ALL32), W(ALL32), "udot_4x8_uadd_sat" },
		{ OP_sdot_4x8_iadd_sat, 32, S3(0x7f7f7f7f, 0x7f7f7f7f, IMAX32), W(IMAX32), "sdot_4x8_iadd_sat" },
	};
	RUN(cases);
}

static void pack_family(void)
{
	const struct acase cases[] = {
		{ OP_pack_half_2x16, 32, { { F32(1), F32(-2) } }, W(0xc0003c00), "pack_half_2x16" },
		{ OP_pack_half_2x16, 32, { { F32(65520), NAN32 } }, W(0x7e007c00), "pack_half_2x16 of overflow and NaN" },
		{ OP_unpack_half_2x16, 32, S1(0xfc007c00), W(INF32, NINF32), "unpack_half_2x16 of ±inf" },
		{ OP_unpack_half_2x16, 32, S1(0x00000001), W(F32(0x1p-24f), 0), "unpack_half_2x16 of a denormal" },
		{ OP_pack_snorm_2x16, 32, { { F32(-1), F32(1) } }, W(0x7fff8001), "pack_snorm_2x16(-1, 1)" },
		{ OP_pack_snorm_2x16, 32, { { NAN32, F32(7) } }, W(0x7fff8001), "pack_snorm_2x16 clamps; NaN gives -1" },
		{ OP_pack_unorm_4x8, 32, { { F32(0.5f), F32(-1), F32(2), NAN32 } }, W(0x00ff0080),
		  "pack_unorm_4x8 rounds to even and clamps" },
		{ OP_pack_unorm_2x16, 32, { { F32(1), 0 } }, W(0xffff), "pack_unorm_2x16" },
		{ OP_pack_snorm_4x8, 32, { { F32(-1), F32(1), 0, F32(-0.5f) } }, W(0xc0007f81), "pack_snorm_4x8" },
		{ OP_unpack_unorm_4x8, 32, S1(0xff00ff00), W(0, F32(1), 0, F32(1)), "unpack_unorm_4x8" },
		{ OP_unpack_snorm_4x8, 32, S1(0x0000807f), W(F32(1), F32(-1), 0, 0), "unpack_snorm_4x8 clamps -128" },
		{ OP_unpack_snorm_2x16, 32, S1(0x80000001), W(F32(1.0f / 32767), F32(-1)), "unpack_snorm_2x16" },
		{ OP_unpack_unorm_2x16, 32, S1(0xffff), W(F32(1), 0), "unpack_unorm_2x16" },
		{ OP_pack_64_2x32, 32, { { 0x89abcdef, 0x01234567 } }, W(0x0123456789abcdefull), "pack_64_2x32" },
		{ OP_unpack_64_2x32, 64, S1(0x0123456789abcdefull), W(0x89abcdef, 0x01234567), "unpack_64_2x32" },
		{ OP_pack_32_2x16, 16, { { 0x5678, 0x1234 } }, W(0x12345678), "pack_32_2x16" },
		{ OP_unpack_32_4x8, 32, S1(0x12345678), W(0x78, 0x56, 0x34, 0x12), "unpack_32_4x8" },
		{ OP_pack_32_4x8, 8, { { 0x78, 0x56, 0x34, 0x12 } }, W(0x12345678), "pack_32_4x8" },
		{ OP_pack_64_2x32_split, 32, S2(1, 2), W(0x200000001ull), "pack_64_2x32_split" },
		{ OP_unpack_64_2x32_split_y, 64, S1(0x0123456789abcdefull), W(0x01234567), "unpack_64_2x32_split_y" },
		{ OP_pack_half_2x16_split, 32, S2(F32(1), F32(-2)), W(0xc0003c00), "pack_half_2x16_split" },
	};
	RUN(cases);
}

int main(void)
{
	float_family();
	compare_family();
	int_family();
	conv_family();
	bit_family();
	pack_family();
	return done_testing();
}
