/*
 * The ALU table (alu_ops.def): its consistency, and the constant folder on
 * the cases SPIR-V leaves open (NaN, ±inf, -0.0, overflow, shifts by the
 * bit size or more, division by zero) and on each family of opcodes.
 */
#include <math.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "tap.h"

#define F32(x) ((uint64_t)f32bits(x))
#define F64(x) f64bits(x)
#define NAN32 0x7fc00000u

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

static void check_table(void)
{
	bool names_ok = true, shapes_ok = true, lookup_ok = true;
	for (int op = 0; op < OP_COUNT; op++) {
		const struct alu_op_info *info = &alu_op_infos[op];
		if (!info->name || !info->fold || info->num_inputs == 0 ||
		    info->num_inputs > ALU_MAX_INPUTS)
			names_ok = false;
		for (int j = 0; j < op; j++)
			if (!strcmp(alu_op_infos[j].name, info->name))
				names_ok = false;
		for (unsigned i = 0; i < info->num_inputs; i++) {
			/* per-component ops read per-component sources, horizontal fixed ones */
			if (!info->output_size != !info->input_sizes[i])
				shapes_ok = false;
			if (info->input_types[i] == TYPE_NONE)
				shapes_ok = false;
		}
		if (alu_op_lookup(info->name, strlen(info->name)) != op)
			lookup_ok = false;
	}
	ok(names_ok, "every opcode has a unique name, sources and a folder");
	ok(shapes_ok, "source sizes and types are consistent");
	ok(lookup_ok, "alu_op_lookup finds every opcode");
	ok(OP_COUNT > 170, "the table is complete enough (%d opcodes)", OP_COUNT);
	is_int(alu_op_lookup("nonsense", 8), -1, "unknown names are -1");
	ok(alu_op_infos[OP_fadd].props & ALU_COMMUTATIVE, "fadd is commutative");
	ok(alu_op_infos[OP_iadd].props & ALU_ASSOCIATIVE, "iadd is associative");
	ok(!(alu_op_infos[OP_fsub].props & ALU_COMMUTATIVE), "fsub is not commutative");
	ok(alu_op_infos[OP_f2i32].props & ALU_CONVERSION, "f2i32 is a conversion");
	is_int(alu_op_infos[OP_flt].output_type, TYPE_B1, "comparisons return 1-bit booleans");
}

struct fold_case {
	enum alu_op op;
	unsigned bits;			/* unsized bit size */
	uint64_t a, b, c, d;
	uint64_t want;
	const char *what;
};

static void check_folds(void)
{
	const struct fold_case cases[] = {
	/* float arithmetic, IEEE */
	{ OP_fadd, 32, F32(1.5f), F32(2.25f), 0, 0, F32(3.75f), "fadd" },
	{ OP_fadd, 16, 0x3c00, 0x4000, 0, 0, 0x4200, "fadd f16: 1 + 2 = 3" },
	{ OP_fadd, 64, F64(0.1), F64(0.2), 0, 0, F64(0.1 + 0.2), "fadd f64" },
	{ OP_fadd, 32, F32(3e38f), F32(3e38f), 0, 0, F32(INFINITY), "fadd overflows to inf" },
	{ OP_fmul, 32, F32(-0.0f), F32(5.0f), 0, 0, F32(-0.0f), "fmul keeps -0" },
	{ OP_fdiv, 32, F32(1.0f), F32(0.0f), 0, 0, F32(INFINITY), "fdiv by zero is inf" },
	{ OP_fdiv, 32, F32(0.0f), F32(0.0f), 0, 0, NAN32, "0/0 is NaN" },
	{ OP_fsub, 32, F32(INFINITY), F32(INFINITY), 0, 0, NAN32, "inf - inf is NaN" },
	{ OP_fneg, 32, F32(0.0f), 0, 0, 0, F32(-0.0f), "fneg 0 is -0" },
	{ OP_fneg, 32, 0xffc00001, 0, 0, 0, NAN32, "NaN results are canonical" },
	{ OP_fabs, 32, F32(-3.0f), 0, 0, 0, F32(3.0f), "fabs" },
	{ OP_fmin, 32, NAN32, F32(2.0f), 0, 0, F32(2.0f), "fmin(NaN, x) = x" },
	{ OP_fmax, 32, F32(2.0f), NAN32, 0, 0, F32(2.0f), "fmax(x, NaN) = x" },
	{ OP_fmin, 32, F32(0.0f), F32(-0.0f), 0, 0, F32(-0.0f), "fmin orders -0 < +0" },
	{ OP_fmax, 32, F32(-0.0f), F32(0.0f), 0, 0, F32(0.0f), "fmax orders -0 < +0" },
	{ OP_fsat, 32, NAN32, 0, 0, 0, F32(0.0f), "fsat(NaN) = 0" },
	{ OP_fsat, 32, F32(7.0f), 0, 0, 0, F32(1.0f), "fsat clamps" },
	{ OP_fsign, 32, F32(-2.0f), 0, 0, 0, F32(-1.0f), "fsign" },
	{ OP_fsign, 32, F32(-0.0f), 0, 0, 0, F32(-0.0f), "fsign(-0) = -0" },
	{ OP_ffract, 32, F32(-1.25f), 0, 0, 0, F32(0.75f), "ffract of a negative" },
	{ OP_fmod, 32, F32(-1.0f), F32(3.0f), 0, 0, F32(2.0f), "fmod has the sign of y (GLSL mod)" },
	{ OP_frem, 32, F32(-1.0f), F32(3.0f), 0, 0, F32(-1.0f), "frem has the sign of x" },
	{ OP_fround_even, 32, F32(2.5f), 0, 0, 0, F32(2.0f), "fround_even ties to even" },
	{ OP_ftrunc, 32, F32(-2.7f), 0, 0, 0, F32(-2.0f), "ftrunc" },
	{ OP_fsqrt, 32, F32(-1.0f), 0, 0, 0, NAN32, "fsqrt of a negative is the canonical NaN" },
	{ OP_frsq, 32, F32(4.0f), 0, 0, 0, F32(0.5f), "frsq" },
	{ OP_fexp2, 32, F32(3.0f), 0, 0, 0, F32(8.0f), "fexp2" },
	{ OP_flog2, 32, F32(0.0f), 0, 0, 0, F32(-INFINITY), "flog2(0) = -inf" },
	{ OP_ffma, 32, F32(2.0f), F32(3.0f), F32(1.0f), 0, F32(7.0f), "ffma" },
	{ OP_flrp, 32, F32(0.0f), F32(10.0f), F32(0.25f), 0, F32(2.5f), "flrp" },
	{ OP_ldexp, 32, F32(1.5f), 4, 0, 0, F32(24.0f), "ldexp" },
	{ OP_frexp_sig, 32, F32(24.0f), 0, 0, 0, F32(0.75f), "frexp_sig" },
	{ OP_frexp_exp, 32, F32(24.0f), 0, 0, 0, 5, "frexp_exp" },
	{ OP_fquantize2f16, 32, F32(1e-6f), 0, 0, 0, F32(0.0f), "fquantize2f16 flushes denormals" },
	{ OP_fquantize2f16, 32, F32(1e6f), 0, 0, 0, F32(INFINITY), "fquantize2f16 overflows to inf" },
	/* comparisons */
	{ OP_flt, 32, NAN32, F32(1.0f), 0, 0, 0, "flt is ordered" },
	{ OP_fge, 32, NAN32, NAN32, 0, 0, 0, "fge is ordered" },
	{ OP_feq, 32, F32(0.0f), F32(-0.0f), 0, 0, 1, "0 == -0" },
	{ OP_fneu, 32, NAN32, NAN32, 0, 0, 1, "fneu(NaN, NaN)" },
	{ OP_fltu, 32, NAN32, F32(1.0f), 0, 0, 1, "fltu is unordered" },
	{ OP_fequ, 32, NAN32, F32(1.0f), 0, 0, 1, "fequ is unordered" },
	{ OP_fneo, 32, NAN32, F32(1.0f), 0, 0, 0, "fneo is ordered" },
	{ OP_funord, 32, NAN32, F32(1.0f), 0, 0, 1, "funord" },
	{ OP_ilt, 32, 0xffffffff, 0, 0, 0, 1, "ilt: -1 < 0" },
	{ OP_ult, 32, 0xffffffff, 0, 0, 0, 0, "ult: 0xffffffff > 0" },
	{ OP_ieq, 1, 1, 1, 0, 0, 1, "ieq on booleans" },
	/* integers: wrapping, division, shifts */
	{ OP_iadd, 32, 0x7fffffff, 1, 0, 0, 0x80000000, "iadd wraps" },
	{ OP_iadd, 64, UINT64_MAX, 2, 0, 0, 1, "iadd wraps at 64 bits" },
	{ OP_imul, 32, 0x10000, 0x10000, 0, 0, 0, "imul wraps" },
	{ OP_ineg, 32, 0x80000000, 0, 0, 0, 0x80000000, "ineg INT_MIN = INT_MIN" },
	{ OP_iabs, 64, (uint64_t)INT64_MIN, 0, 0, 0, (uint64_t)INT64_MIN, "iabs INT64_MIN" },
	{ OP_idiv, 32, 7, 0, 0, 0, 0, "idiv by zero is 0" },
	{ OP_idiv, 32, 0x80000000, 0xffffffff, 0, 0, 0x80000000, "INT_MIN / -1 wraps" },
	{ OP_idiv, 64, (uint64_t)INT64_MIN, UINT64_MAX, 0, 0, (uint64_t)INT64_MIN, "INT64_MIN / -1" },
	{ OP_idiv, 32, (uint32_t)-7, 2, 0, 0, (uint32_t)-3, "idiv rounds toward zero" },
	{ OP_udiv, 32, 7, 0, 0, 0, 0, "udiv by zero is 0" },
	{ OP_umod, 32, 7, 0, 0, 0, 0, "umod by zero is 0" },
	{ OP_irem, 32, (uint32_t)-7, 3, 0, 0, (uint32_t)-1, "irem has the dividend's sign" },
	{ OP_imod, 32, (uint32_t)-7, 3, 0, 0, 2, "imod has the divisor's sign" },
	{ OP_imod, 32, 7, (uint32_t)-3, 0, 0, (uint32_t)-2, "imod, negative divisor" },
	{ OP_irem, 32, 0x80000000, 0xffffffff, 0, 0, 0, "INT_MIN % -1 = 0" },
	{ OP_ishl, 32, 1, 33, 0, 0, 2, "shift counts are taken modulo the bit size" },
	{ OP_ishl, 32, 1, 32, 0, 0, 1, "shift by the bit size shifts by 0" },
	{ OP_ishr, 32, 0x80000000, 31, 0, 0, 0xffffffff, "ishr is arithmetic" },
	{ OP_ushr, 32, 0x80000000, 31, 0, 0, 1, "ushr is logical" },
	{ OP_ishl, 8, 0x81, 1, 0, 0, 0x02, "8-bit ishl wraps" },
	{ OP_imin, 32, 0xffffffff, 1, 0, 0, 0xffffffff, "imin is signed" },
	{ OP_umin, 32, 0xffffffff, 1, 0, 0, 1, "umin is unsigned" },
	{ OP_isign, 32, (uint32_t)-5, 0, 0, 0, 0xffffffff, "isign" },
	{ OP_umul_high, 32, 0xffffffff, 0xffffffff, 0, 0, 0xfffffffe, "umul_high" },
	{ OP_imul_high, 32, 0xffffffff, 0xffffffff, 0, 0, 0, "imul_high(-1, -1)" },
	{ OP_umul_high, 64, UINT64_MAX, 2, 0, 0, 1, "umul_high at 64 bits" },
	{ OP_uadd_carry, 32, 0xffffffff, 1, 0, 0, 1, "uadd_carry" },
	{ OP_usub_borrow, 32, 0, 1, 0, 0, 1, "usub_borrow" },
	{ OP_uadd_sat, 8, 200, 100, 0, 0, 255, "uadd_sat" },
	{ OP_iadd_sat, 8, 100, 100, 0, 0, 127, "iadd_sat" },
	{ OP_isub_sat, 8, 0x80, 1, 0, 0, 0x80, "isub_sat" },
	/* bits */
	{ OP_inot, 1, 1, 0, 0, 0, 0, "inot on a boolean" },
	{ OP_iand, 1, 1, 0, 0, 0, 0, "iand on booleans" },
	{ OP_bit_count, 32, 0xf0f0, 0, 0, 0, 8, "bit_count" },
	{ OP_ufind_msb, 32, 0, 0, 0, 0, 0xffffffff, "ufind_msb(0) = -1" },
	{ OP_ufind_msb, 32, 0x100, 0, 0, 0, 8, "ufind_msb" },
	{ OP_uclz, 32, 0, 0, 0, 0, 32, "uclz(0) = 32" },
	{ OP_uclz, 32, 0x100, 0, 0, 0, 23, "uclz" },
	{ OP_uclz, 16, 0x8000, 0, 0, 0, 0, "16-bit uclz" },
	{ OP_ifind_msb, 32, 0xffffffff, 0, 0, 0, 0xffffffff, "ifind_msb(-1) = -1" },
	{ OP_ifind_msb, 32, 0xfffffff0, 0, 0, 0, 3, "ifind_msb of a negative" },
	{ OP_find_lsb, 32, 0, 0, 0, 0, 0xffffffff, "find_lsb(0) = -1" },
	{ OP_find_lsb, 32, 0x50, 0, 0, 0, 4, "find_lsb" },
	{ OP_bitfield_reverse, 32, 1, 0, 0, 0, 0x80000000, "bitfield_reverse" },
	{ OP_ubitfield_extract, 32, 0xabcd, 4, 8, 0, 0xbc, "ubitfield_extract" },
	{ OP_ibitfield_extract, 32, 0x0f0, 4, 4, 0, 0xffffffff, "ibitfield_extract sign-extends" },
	{ OP_ubitfield_extract, 32, 0xabcd, 30, 8, 0, 0, "bitfield out of range gives 0" },
	{ OP_bitfield_insert, 32, 0xffff, 0x0, 4, 8, 0xf00f, "bitfield_insert" },
	{ OP_extract_u8, 32, 0x11223344, 2, 0, 0, 0x22, "extract_u8" },
	{ OP_extract_i8, 32, 0x11ff3344, 2, 0, 0, 0xffffffff, "extract_i8" },
	{ OP_udot_4x8_uadd, 32, 0x01010101, 0x02020202, 5, 0, 13, "udot_4x8_uadd" },
	{ OP_sdot_4x8_iadd, 32, 0xffffffff, 0x01010101, 0, 0, (uint32_t)-4, "sdot_4x8_iadd" },
	/* selection and conversions */
	{ OP_bcsel, 32, 1, 7, 9, 0, 7, "bcsel true" },
	{ OP_bcsel, 32, 0, 7, 9, 0, 9, "bcsel false" },
	{ OP_f2i32, 32, NAN32, 0, 0, 0, 0, "f2i32(NaN) = 0" },
	{ OP_f2i32, 32, F32(1e20f), 0, 0, 0, 0x7fffffff, "f2i32 saturates up" },
	{ OP_f2i32, 32, F32(-1e20f), 0, 0, 0, 0x80000000, "f2i32 saturates down" },
	{ OP_f2i32, 32, F32(-2.9f), 0, 0, 0, (uint32_t)-2, "f2i32 truncates" },
	{ OP_f2u32, 32, F32(-1.0f), 0, 0, 0, 0, "f2u32 of a negative is 0" },
	{ OP_f2u8, 32, F32(300.0f), 0, 0, 0, 255, "f2u8 saturates" },
	{ OP_f2i64, 64, F64(1e300), 0, 0, 0, (uint64_t)INT64_MAX, "f2i64 saturates" },
	{ OP_i2f32, 32, 0xffffffff, 0, 0, 0, F32(-1.0f), "i2f32" },
	{ OP_u2f32, 32, 0xffffffff, 0, 0, 0, F32(4294967296.0f), "u2f32 rounds" },
	{ OP_i2i64, 32, 0x80000000, 0, 0, 0, 0xffffffff80000000, "i2i64 sign-extends" },
	{ OP_u2u64, 32, 0x80000000, 0, 0, 0, 0x80000000, "u2u64 zero-extends" },
	{ OP_i2i8, 32, 0x1ff, 0, 0, 0, 0xff, "i2i8 truncates" },
	{ OP_f2f16, 32, F32(1.0f), 0, 0, 0, 0x3c00, "f2f16" },
	{ OP_f2f16, 32, F32(65520.0f), 0, 0, 0, 0x7c00, "f2f16 rounds up to inf" },
	{ OP_f2f16_rtz, 32, F32(65520.0f), 0, 0, 0, 0x7bff, "f2f16_rtz stays finite" },
	{ OP_f2f16, 32, F32(5.96046448e-08f), 0, 0, 0, 0x0001, "f2f16 to the smallest denormal" },
	{ OP_f2f32, 16, 0x0001, 0, 0, 0, F32(5.96046448e-08f), "f2f32 of a half denormal" },
	{ OP_f2f32, 64, F64(0.1), 0, 0, 0, F32(0.1f), "f2f32 rounds" },
	{ OP_f2f64, 32, F32(0.1f), 0, 0, 0, F64((double)0.1f), "f2f64 is exact" },
	{ OP_b2f32, 1, 1, 0, 0, 0, F32(1.0f), "b2f32" },
	{ OP_b2i32, 1, 1, 0, 0, 0, 1, "b2i32 gives 1" },
	{ OP_f2b1, 32, NAN32, 0, 0, 0, 1, "f2b1(NaN) = true" },
	{ OP_i2b1, 32, 0, 0, 0, 0, 0, "i2b1(0) = false" },
	/* packing */
	{ OP_pack_64_2x32_split, 32, 0x11111111, 0x22222222, 0, 0, 0x2222222211111111,
	  "pack_64_2x32_split" },
	{ OP_unpack_64_2x32_split_y, 64, 0x2222222211111111, 0, 0, 0, 0x22222222,
	  "unpack_64_2x32_split_y" },
	{ OP_pack_half_2x16_split, 32, F32(1.0f), F32(-2.0f), 0, 0, 0xc0003c00,
	  "pack_half_2x16_split" },
};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct fold_case *c = &cases[i];
		const uint64_t *srcs[4] = { &c->a, &c->b, &c->c, &c->d };
		uint64_t got = 0;
		alu_fold(c->op, 1, c->bits, srcs, &got);
		if (!ok(got == c->want, "%s", c->what))
			tap_diag("%s: got 0x%llx, expected 0x%llx", alu_op_infos[c->op].name,
				 (unsigned long long)got, (unsigned long long)c->want);
	}
}

static void check_horizontal(void)
{
	uint64_t a[4] = { F32(1.0f), F32(2.0f), F32(3.0f), F32(4.0f) };
	uint64_t b[4] = { F32(2.0f), F32(2.0f), F32(2.0f), F32(2.0f) };
	const uint64_t *srcs[2] = { a, b };
	uint64_t r[4] = { 0 };

	alu_fold(OP_fdot3, 1, 32, srcs, r);
	is_int(r[0], F32(12.0f), "fdot3");
	alu_fold(OP_pack_half_2x16, 1, 32, srcs, r);
	is_int(r[0], 0x40003c00, "pack_half_2x16");
	uint64_t packed = 0x40003c00;
	const uint64_t *one[1] = { &packed };
	alu_fold(OP_unpack_half_2x16, 2, 32, one, r);
	ok(r[0] == F32(1.0f) && r[1] == F32(2.0f), "unpack_half_2x16");
	uint64_t u[4] = { F32(0.0f), F32(1.0f), F32(0.5f), F32(-3.0f) };
	const uint64_t *us[1] = { u };
	alu_fold(OP_pack_unorm_4x8, 1, 32, us, r);
	is_int(r[0], 0x0080ff00, "pack_unorm_4x8 clamps and rounds");
	uint64_t sn = 0x8001ffff;
	const uint64_t *sns[1] = { &sn };
	alu_fold(OP_unpack_snorm_2x16, 2, 32, sns, r);
	ok(r[0] == F32(-1.0f / 32767.0f) && r[1] == F32(-1.0f), "unpack_snorm_2x16 clamps -32768");
	uint64_t x[2] = { 5, 6 }, y[2] = { 5, 7 };
	const uint64_t *xy[2] = { x, y };
	alu_fold(OP_ball_iequal2, 1, 32, xy, r);
	is_int(r[0], 0, "ball_iequal2");
	alu_fold(OP_bany_inequal2, 1, 32, xy, r);
	is_int(r[0], 1, "bany_inequal2");
	uint64_t s0 = 1, s1 = 2, s2 = 3;
	const uint64_t *vs[3] = { &s0, &s1, &s2 };
	alu_fold(OP_vec3, 3, 32, vs, r);
	ok(r[0] == 1 && r[1] == 2 && r[2] == 3, "vec3");
}

static void check_instr_fold(void)
{
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	struct builder b;
	builder_init_at_end(&b, s);
	struct ssa_def *v = b_imm_vec4(&b, 1, 2, 3, 4);
	unsigned swz[4] = { 3, 2, 1, 0 };
	struct ssa_def *w = b_swizzle(&b, v, swz, 4);
	struct ssa_def *sum = b_fadd(&b, v, w);
	uint64_t r[4];
	ok(!alu_instr_fold_const(instr_as_alu(sum->parent), r),
	   "an instruction reading a non-constant does not fold");
	ok(alu_instr_fold_const(instr_as_alu(w->parent), r) && r[0] == F32(4.0f) && r[3] == F32(1.0f),
	   "alu_instr_fold_const follows swizzles");
	uint64_t a[4] = { F32(1.0f), F32(2.0f), F32(3.0f), F32(4.0f) };
	const uint64_t *one_src[1] = { a };
	alu_instr_eval(instr_as_alu(w->parent), one_src, r);
	ok(r[0] == F32(4.0f) && r[1] == F32(3.0f), "alu_instr_eval applies the swizzle to given values");
	is_int(alu_instr_bit_size(instr_as_alu(b_flt(&b, b_imm_floatN(&b, 1, 64),
							b_imm_floatN(&b, 2, 64))->parent)),
	       64, "the unsized size of a comparison is its sources'");
	is_int(ir_float_to_bits(1.0, 16), 0x3c00, "ir_float_to_bits f16");
	ok(ir_float_from_bits(0x3c00, 16) == 1.0, "ir_float_from_bits f16");
	shader_free(s);
}

int main(void)
{
	check_table();
	check_folds();
	check_horizontal();
	check_instr_fold();
	return done_testing();
}
