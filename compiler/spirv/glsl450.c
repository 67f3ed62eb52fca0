/*
 * The GLSL.std.450 extended instruction set, all 81 instructions.  Those
 * the IR has an opcode for map to it; the rest expand into IR arithmetic
 * the way Mesa's spirv_to_nir does (trigonometric inverses by polynomial
 * approximation, determinants and inverses by cofactors), so the
 * instruction counts a backend sees are those a real driver would see.
 *
 * Semantics worth stating: Round is round-half-to-even (the spec lets the
 * implementation choose); FMin/FMax/FClamp and NMin/NMax/NClamp share the
 * IR's fmin/fmax, which return the other operand when one is NaN — the
 * N* behaviour, and an allowed one for the F* forms whose NaN result is
 * undefined; Step is 0.0 when x < edge; Refract gives 0 when k < 0.
 */
#include <math.h>

#include "compiler/spirv/spirv_private.h"

#define PI 3.14159265358979323846

static struct ssa_def *fimm(struct spv *r, double v, unsigned bits)
{
	return b_imm_floatN(&r->b, v, bits);
}

static struct ssa_def *operand(struct spv *r, unsigned i)
{
	return spv_get_def(r, spv_word(r, 5 + i));
}

static struct ssa_def *poly(struct spv *r, struct ssa_def *x, const double *c, unsigned n)
{
	struct builder *b = &r->b;
	struct ssa_def *acc = fimm(r, c[n - 1], x->bit_size);
	for (unsigned i = n - 1; i-- > 0;)
		acc = b_ffma(b, acc, x, fimm(r, c[i], x->bit_size));
	return acc;
}

/* atan(y) for any y: a polynomial on [0, 1] and pi/2 - atan(1/y) above. */
static struct ssa_def *build_atan(struct spv *r, struct ssa_def *y)
{
	struct builder *b = &r->b;
	static const double c[] = { 0.9999793128310355, -0.3326756418091246, 0.1938924977115610,
				    -0.1173503194786851, 0.0536813784310406, -0.0121323213173444 };
	unsigned bits = y->bit_size;
	struct ssa_def *one = fimm(r, 1.0, bits), *ay = b_fabs(b, y);
	struct ssa_def *u = b_fdiv(b, b_fmin(b, ay, one), b_fmax(b, ay, one));
	struct ssa_def *u2 = b_fmul(b, u, u);
	struct ssa_def *t = b_fmul(b, u, poly(r, u2, c, 6));
	struct ssa_def *big = b_flt(b, one, ay);
	t = b_bcsel(b, big, b_fsub(b, fimm(r, PI / 2, bits), t), t);
	return b_fmul(b, b_fsign(b, y), t);
}

static struct ssa_def *build_atan2(struct spv *r, struct ssa_def *y, struct ssa_def *x)
{
	struct builder *b = &r->b;
	unsigned bits = y->bit_size;
	struct ssa_def *zero = fimm(r, 0.0, bits);
	struct ssa_def *t = build_atan(r, b_fdiv(b, y, x));
	struct ssa_def *shift = b_bcsel(b, b_fge(b, y, zero), fimm(r, PI, bits), fimm(r, -PI, bits));
	return b_bcsel(b, b_flt(b, x, zero), b_fadd(b, t, shift), t);
}

/* asin(x) = sign(x) (pi/2 - sqrt(1 - |x|) (pi/2 + |x| (pi/4 - 1 + |x| (p0 + |x| p1)))) */
static struct ssa_def *build_asin(struct spv *r, struct ssa_def *x)
{
	struct builder *b = &r->b;
	unsigned bits = x->bit_size;
	struct ssa_def *ax = b_fabs(b, x);
	struct ssa_def *p = b_ffma(b, ax, fimm(r, -0.03102955, bits), fimm(r, 0.086566724, bits));
	p = b_ffma(b, ax, p, fimm(r, PI / 4 - 1, bits));
	p = b_ffma(b, ax, p, fimm(r, PI / 2, bits));
	struct ssa_def *s = b_fsqrt(b, b_fsub(b, fimm(r, 1.0, bits), ax));
	struct ssa_def *res = b_fsub(b, fimm(r, PI / 2, bits), b_fmul(b, s, p));
	return b_fmul(b, b_fsign(b, x), res);
}

static struct ssa_def *build_exp(struct spv *r, struct ssa_def *x)
{
	return b_fexp2(&r->b, b_fmul(&r->b, x, fimm(r, M_LOG2E, x->bit_size)));
}

static struct ssa_def *build_log(struct spv *r, struct ssa_def *x)
{
	return b_fmul(&r->b, b_flog2(&r->b, x), fimm(r, M_LN2, x->bit_size));
}

static struct ssa_def *hyperbolic(struct spv *r, uint32_t inst, struct ssa_def *x)
{
	struct builder *b = &r->b;
	unsigned bits = x->bit_size;
	struct ssa_def *half = fimm(r, 0.5, bits), *one = fimm(r, 1.0, bits);
	switch (inst) {
	case GLSLstd450Sinh: case GLSLstd450Cosh: {
		struct ssa_def *e = build_exp(r, x), *ne = build_exp(r, b_fneg(b, x));
		struct ssa_def *s = inst == GLSLstd450Sinh ? b_fsub(b, e, ne) : b_fadd(b, e, ne);
		return b_fmul(b, s, half);
	}
	case GLSLstd450Tanh: {
		/* clamped so that e^2x stays finite: tanh(±10) is ±1 in float */
		struct ssa_def *c = b_fmin(b, b_fmax(b, x, fimm(r, -10.0, bits)), fimm(r, 10.0, bits));
		struct ssa_def *e = build_exp(r, b_fmul(b, c, fimm(r, 2.0, bits)));
		return b_fdiv(b, b_fsub(b, e, one), b_fadd(b, e, one));
	}
	case GLSLstd450Asinh: {
		struct ssa_def *ax = b_fabs(b, x);
		struct ssa_def *l = build_log(r, b_fadd(b, ax, b_fsqrt(b, b_ffma(b, x, x, one))));
		return b_fmul(b, b_fsign(b, x), l);
	}
	case GLSLstd450Acosh:
		return build_log(r, b_fadd(b, x, b_fsqrt(b, b_ffma(b, x, x, b_fneg(b, one)))));
	default:	/* Atanh */
		return b_fmul(b, half, build_log(r, b_fdiv(b, b_fadd(b, one, x), b_fsub(b, one, x))));
	}
}

static struct ssa_def *dot(struct spv *r, struct ssa_def *a, struct ssa_def *c)
{
	switch (a->num_components) {
	case 1: return b_fmul(&r->b, a, c);
	case 2: return b_fdot2(&r->b, a, c);
	case 3: return b_fdot3(&r->b, a, c);
	default: return b_fdot4(&r->b, a, c);
	}
}

static struct ssa_def *length(struct spv *r, struct ssa_def *x)
{
	if (x->num_components == 1)
		return b_fabs(&r->b, x);
	return b_fsqrt(&r->b, dot(r, x, x));
}

static struct ssa_def *cross(struct spv *r, struct ssa_def *a, struct ssa_def *c)
{
	struct builder *b = &r->b;
	static const unsigned yzx[] = { 1, 2, 0 }, zxy[] = { 2, 0, 1 };
	struct ssa_def *t = b_fmul(b, b_swizzle(b, a, yzx, 3), b_swizzle(b, c, zxy, 3));
	return b_ffma(b, b_fneg(b, b_swizzle(b, a, zxy, 3)), b_swizzle(b, c, yzx, 3), t);
}

/* ---- matrices ---- */

/*
 * Determinants and inverses as Mesa's vtn_glsl450.c builds them, vectors
 * and all (the vec4 backends see the vectors): the determinant of an n×n
 * matrix is col0 · (the n minors without column 0, row by row), as one
 * vector fmul whose channels are summed in pairs, (p0 - p1) + (p2 - p3),
 * each minor the same on its columns swizzled to drop the row.
 */
static struct ssa_def *det_cols(struct spv *r, struct ssa_def **cols, unsigned n);

/* The determinant of the matrix `cols` (n columns) without one row and
 * one column (build_mat_subdet). */
static struct ssa_def *minor_det(struct spv *r, struct ssa_def **cols, unsigned n,
				 unsigned row, unsigned col)
{
	struct builder *b = &r->b;
	if (n == 2)
		return b_channel(b, cols[1 - col], 1 - row);
	unsigned swiz[3];
	for (unsigned j = 0; j < 3; j++)
		swiz[j] = j + (j >= row);
	struct ssa_def *sub[3];
	for (unsigned j = 0; j < n; j++)
		if (j != col)
			sub[j - (j > col)] = b_swizzle(b, cols[j], swiz, n - 1);
	return det_cols(r, sub, n - 1);
}

/* build_det */
static struct ssa_def *det_cols(struct spv *r, struct ssa_def **cols, unsigned n)
{
	struct builder *b = &r->b;
	struct ssa_def *minors[4] = { NULL }, *sum = NULL;
	for (unsigned i = 0; i < n; i++)
		minors[i] = minor_det(r, cols, n, i, 0);
	struct ssa_def *prod = b_fmul(b, cols[0], b_vec(b, minors, n));
	for (unsigned i = 0; i < n; i += 2) {
		struct ssa_def *term = b_channel(b, prod, i);
		if (i + 1 < n)
			term = b_fsub(b, term, b_channel(b, prod, i + 1));
		sum = sum ? b_fadd(b, sum, term) : term;
	}
	return sum;
}

/* The columns of a square matrix value. */
static unsigned matrix_cols(struct spv *r, struct spv_val *m, struct ssa_def **cols)
{
	if (!m->elems || m->type->kind != T_MATRIX || m->type->length != m->type->elem->length ||
	    m->type->length < 2 || m->type->length > 4)
		spv_fail(r, "the determinant or inverse of a non-square matrix");
	for (unsigned c = 0; c < m->type->length; c++)
		cols[c] = m->elems[c]->def;
	return m->type->length;
}

static struct ssa_def *determinant(struct spv *r, struct spv_val *m)
{
	struct ssa_def *cols[4];
	unsigned n = matrix_cols(r, m, cols);
	return det_cols(r, cols, n);
}

/* inverse = adjugate × (1 / determinant), column by column (matrix_inverse). */
static struct spv_val *inverse(struct spv *r, struct spv_val *m)
{
	struct builder *b = &r->b;
	struct ssa_def *cols[4], *adj[4];
	unsigned n = matrix_cols(r, m, cols);
	for (unsigned c = 0; c < n; c++) {
		struct ssa_def *e[4];
		for (unsigned row = 0; row < n; row++) {
			e[row] = minor_det(r, cols, n, c, row);
			if ((row + c) & 1)
				e[row] = b_fneg(b, e[row]);
		}
		adj[c] = b_vec(b, e, n);
	}
	struct ssa_def *inv = b_frcp(b, det_cols(r, cols, n));
	static const unsigned xxxx[4] = { 0, 0, 0, 0 };
	struct spv_val *res = spv_val_new(r, m->type);
	for (unsigned c = 0; c < n; c++)
		res->elems[c] = spv_val_def(r, m->type->elem,
					    b_fmul(b, adj[c], b_swizzle(b, inv, xxxx, n)));
	return res;
}

/* ---- results through pointers and structs ---- */

static struct ssa_def *fit_int(struct spv *r, struct ssa_def *v, const struct spv_type *t);

static void store_ptr_operand(struct spv *r, unsigned i, struct ssa_def *v)
{
	struct spv_ptr *p = spv_get_ptr(r, spv_word(r, 5 + i));
	struct spv_type *t = p->type;
	if (spv_type_is_int(t))
		v = fit_int(r, v, t);
	spv_store(r, p, spv_val_def(r, t, v), 0);
}

static void set_pair(struct spv *r, struct ssa_def *a, struct ssa_def *c)
{
	struct spv_type *t = spv_result_type(r);
	if (t->kind != T_STRUCT || t->length != 2)
		spv_fail(r, "the result is not a struct of two members");
	struct spv_type *ct = t->members[1].type;
	if (spv_type_is_int(ct))
		c = fit_int(r, c, ct);
	struct spv_val *v = spv_val_new(r, t);
	v->elems[0] = spv_val_def(r, t->members[0].type, a);
	v->elems[1] = spv_val_def(r, ct, c);
	spv_set_val(r, spv_result_id(r), v);
}

/* Find* give 32-bit results; the SPIR-V result has the operand's size. */
static struct ssa_def *fit_int(struct spv *r, struct ssa_def *v, const struct spv_type *t)
{
	if (t->bit_size == v->bit_size)
		return v;
	return spv_convert(r, v, spv_type_make_scalar(r, T_INT, v->bit_size, true), t);
}

static struct ssa_def *i32(struct spv *r, struct ssa_def *x)
{
	return x->bit_size == 32 ? x : b_i2i32(&r->b, x);
}

/* ---- the instructions ---- */

static struct ssa_def *simple(struct spv *r, uint32_t inst, struct spv_type *t)
{
	struct builder *b = &r->b;
	struct ssa_def *x = operand(r, 0);
	unsigned bits = x->bit_size;
	switch (inst) {
	case GLSLstd450Round: case GLSLstd450RoundEven: return b_fround_even(b, x);
	case GLSLstd450Trunc: return b_ftrunc(b, x);
	case GLSLstd450FAbs: return b_fabs(b, x);
	case GLSLstd450SAbs: return b_iabs(b, x);
	case GLSLstd450FSign: return b_fsign(b, x);
	case GLSLstd450SSign: return b_isign(b, x);
	case GLSLstd450Floor: return b_ffloor(b, x);
	case GLSLstd450Ceil: return b_fceil(b, x);
	case GLSLstd450Fract: return b_ffract(b, x);
	case GLSLstd450Radians: return b_fmul(b, x, fimm(r, PI / 180, bits));
	case GLSLstd450Degrees: return b_fmul(b, x, fimm(r, 180 / PI, bits));
	case GLSLstd450Sin: return b_fsin(b, x);
	case GLSLstd450Cos: return b_fcos(b, x);
	case GLSLstd450Tan: return b_fdiv(b, b_fsin(b, x), b_fcos(b, x));
	case GLSLstd450Asin: return build_asin(r, x);
	case GLSLstd450Acos: return b_fsub(b, fimm(r, PI / 2, bits), build_asin(r, x));
	case GLSLstd450Atan: return build_atan(r, x);
	case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh: case GLSLstd450Asinh:
	case GLSLstd450Acosh: case GLSLstd450Atanh:
		return hyperbolic(r, inst, x);
	case GLSLstd450Atan2: return build_atan2(r, x, operand(r, 1));
	case GLSLstd450Pow: return b_fpow(b, x, operand(r, 1));
	case GLSLstd450Exp: return build_exp(r, x);
	case GLSLstd450Log: return build_log(r, x);
	case GLSLstd450Exp2: return b_fexp2(b, x);
	case GLSLstd450Log2: return b_flog2(b, x);
	case GLSLstd450Sqrt: return b_fsqrt(b, x);
	case GLSLstd450InverseSqrt: return b_frsq(b, x);
	case GLSLstd450FMin: case GLSLstd450NMin: return b_fmin(b, x, operand(r, 1));
	case GLSLstd450UMin: return b_umin(b, x, operand(r, 1));
	case GLSLstd450SMin: return b_imin(b, x, operand(r, 1));
	case GLSLstd450FMax: case GLSLstd450NMax: return b_fmax(b, x, operand(r, 1));
	case GLSLstd450UMax: return b_umax(b, x, operand(r, 1));
	case GLSLstd450SMax: return b_imax(b, x, operand(r, 1));
	case GLSLstd450FClamp: case GLSLstd450NClamp:
		return b_fmin(b, b_fmax(b, x, operand(r, 1)), operand(r, 2));
	case GLSLstd450UClamp: return b_umin(b, b_umax(b, x, operand(r, 1)), operand(r, 2));
	case GLSLstd450SClamp: return b_imin(b, b_imax(b, x, operand(r, 1)), operand(r, 2));
	case GLSLstd450FMix: return b_flrp(b, x, operand(r, 1), operand(r, 2));
	case GLSLstd450IMix:
		return b_iadd(b, x, b_imul(b, b_isub(b, operand(r, 1), x), operand(r, 2)));
	case GLSLstd450Step: {
		struct ssa_def *ge = b_fge(b, operand(r, 1), x);
		return b_alu(b, bits == 16 ? OP_b2f16 : bits == 64 ? OP_b2f64 : OP_b2f32, ge, NULL,
			     NULL, NULL);
	}
	case GLSLstd450SmoothStep: {
		struct ssa_def *e1 = operand(r, 1), *v = operand(r, 2);
		struct ssa_def *tt = b_fsat(b, b_fdiv(b, b_fsub(b, v, x), b_fsub(b, e1, x)));
		struct ssa_def *s = b_ffma(b, tt, fimm(r, -2.0, bits), fimm(r, 3.0, bits));
		return b_fmul(b, b_fmul(b, tt, tt), s);
	}
	case GLSLstd450Fma: return b_ffma(b, x, operand(r, 1), operand(r, 2));
	case GLSLstd450Ldexp: return b_ldexp(b, x, i32(r, operand(r, 1)));
	case GLSLstd450PackSnorm4x8: return b_pack_snorm_4x8(b, x);
	case GLSLstd450PackUnorm4x8: return b_pack_unorm_4x8(b, x);
	case GLSLstd450PackSnorm2x16: return b_pack_snorm_2x16(b, x);
	case GLSLstd450PackUnorm2x16: return b_pack_unorm_2x16(b, x);
	case GLSLstd450PackHalf2x16: return b_pack_half_2x16(b, x);
	case GLSLstd450PackDouble2x32: return b_pack_64_2x32(b, x);
	case GLSLstd450UnpackSnorm2x16: return b_unpack_snorm_2x16(b, x);
	case GLSLstd450UnpackUnorm2x16: return b_unpack_unorm_2x16(b, x);
	case GLSLstd450UnpackHalf2x16: return b_unpack_half_2x16(b, x);
	case GLSLstd450UnpackSnorm4x8: return b_unpack_snorm_4x8(b, x);
	case GLSLstd450UnpackUnorm4x8: return b_unpack_unorm_4x8(b, x);
	case GLSLstd450UnpackDouble2x32: return b_unpack_64_2x32(b, x);
	case GLSLstd450Length: return length(r, x);
	case GLSLstd450Distance: return length(r, b_fsub(b, x, operand(r, 1)));
	case GLSLstd450Cross:
		if (x->num_components != 3)
			spv_fail(r, "a cross product of %u components", x->num_components);
		return cross(r, x, operand(r, 1));
	case GLSLstd450Normalize:
		if (x->num_components == 1)
			return b_fsign(b, x);
		return b_fmul(b, x, b_frsq(b, dot(r, x, x)));
	case GLSLstd450FaceForward: {
		struct ssa_def *neg = b_flt(b, dot(r, operand(r, 2), operand(r, 1)), fimm(r, 0, bits));
		return b_bcsel(b, neg, x, b_fneg(b, x));
	}
	case GLSLstd450Reflect: {
		struct ssa_def *n = operand(r, 1);
		struct ssa_def *d2 = b_fmul(b, dot(r, n, x), fimm(r, 2.0, bits));
		return b_fsub(b, x, b_fmul(b, d2, n));
	}
	case GLSLstd450Refract: {
		struct ssa_def *n = operand(r, 1), *eta = operand(r, 2);
		if (eta->bit_size != bits)
			eta = spv_convert(r, eta, spv_type_make_scalar(r, T_FLOAT, eta->bit_size, true),
					  spv_type_make_scalar(r, T_FLOAT, bits, true));
		struct ssa_def *one = fimm(r, 1.0, bits), *d = dot(r, n, x);
		struct ssa_def *k = b_fsub(b, one, b_fmul(b, b_fmul(b, eta, eta),
							  b_fsub(b, one, b_fmul(b, d, d))));
		struct ssa_def *res = b_fsub(b, b_fmul(b, eta, x),
					     b_fmul(b, b_ffma(b, eta, d, b_fsqrt(b, k)), n));
		return b_bcsel(b, b_flt(b, k, fimm(r, 0, bits)), fimm(r, 0, bits), res);
	}
	case GLSLstd450FindILsb: return fit_int(r, b_find_lsb(b, x), t);
	case GLSLstd450FindSMsb: return fit_int(r, b_ifind_msb(b, x), t);
	case GLSLstd450FindUMsb: return fit_int(r, b_ufind_msb(b, x), t);
	}
	return NULL;
}

void spv_glsl450(struct spv *r, uint32_t inst)
{
	const struct spv_extinst_info *info = spv_glsl450_info(inst);
	struct spv_type *t = spv_result_type(r);
	struct builder *b = &r->b;
	if (!info)
		spv_unsupported(r, "GLSL.std.450 instruction %u", inst);
	if (spv_nwords(r) - 5 != info->num_operands)
		spv_fail(r, "GLSL.std.450 %s takes %u operands, not %u", info->name,
			 info->num_operands, spv_nwords(r) - 5);
	bool exact = spv_has_deco(r, spv_result_id(r), -1, SpvDecorationNoContraction);
	b->exact = exact;
	switch (inst) {
	case GLSLstd450Determinant:
		spv_set_def(r, spv_result_id(r), determinant(r, spv_get_val(r, spv_word(r, 5))));
		break;
	case GLSLstd450MatrixInverse: {
		struct spv_val *m = spv_get_val(r, spv_word(r, 5));
		spv_set_val(r, spv_result_id(r), inverse(r, m));
		break;
	}
	case GLSLstd450Modf: case GLSLstd450ModfStruct: {
		struct ssa_def *x = operand(r, 0), *whole = b_ftrunc(b, x);
		struct ssa_def *fract = b_fsub(b, x, whole);
		if (inst == GLSLstd450Modf) {
			store_ptr_operand(r, 1, whole);
			spv_set_def(r, spv_result_id(r), fract);
		} else {
			set_pair(r, fract, whole);
		}
		break;
	}
	case GLSLstd450Frexp: case GLSLstd450FrexpStruct: {
		struct ssa_def *x = operand(r, 0);
		struct ssa_def *sig = b_frexp_sig(b, x), *e = b_frexp_exp(b, x);
		if (inst == GLSLstd450Frexp) {
			store_ptr_operand(r, 1, e);
			spv_set_def(r, spv_result_id(r), sig);
		} else {
			set_pair(r, sig, e);
		}
		break;
	}
	case GLSLstd450InterpolateAtCentroid: case GLSLstd450InterpolateAtSample:
	case GLSLstd450InterpolateAtOffset: {
		struct spv_ptr *p = spv_get_ptr(r, spv_word(r, 5));
		struct ssa_def *arg = inst == GLSLstd450InterpolateAtCentroid ? NULL : operand(r, 1);
		if (arg && inst == GLSLstd450InterpolateAtSample)
			arg = i32(r, arg);
		spv_set_def(r, spv_result_id(r), spv_io_interp(r, inst, p, arg));
		break;
	}
	default: {
		struct ssa_def *res = simple(r, inst, t);
		if (!res)
			spv_unsupported(r, "GLSL.std.450 %s", info->name);
		spv_set_def(r, spv_result_id(r), res);
		break;
	}
	}
	b->exact = false;
}
