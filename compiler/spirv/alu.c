/*
 * Arithmetic, logic, comparisons, conversions, bit operations, vector and
 * matrix products: the SPIR-V core opcodes that are pure functions of their
 * operands.  spv_alu_op() is the one table from SPIR-V opcode to IR opcode;
 * spec constants (constant.c) fold through it too, so OpSpecConstantOp and
 * the instruction agree bit for bit.
 *
 *	%r = OpSGreaterThan %bool %a %b   → ilt %b, %a   (operands swapped)
 *	%m = OpMatrixTimesVector %v4 %M %v → fmul/ffma over M's columns, last first
 */
#include "compiler/spirv/spirv_private.h"

static enum alu_op sized(struct spv *r, enum alu_op op8, unsigned bits)
{
	switch (bits) {
	case 8: return op8;
	case 16: return (enum alu_op)(op8 + 1);
	case 32: return (enum alu_op)(op8 + 2);
	case 64: return (enum alu_op)(op8 + 3);
	}
	spv_fail(r, "a conversion to %u bits", bits);
}

static enum alu_op float_sized(struct spv *r, enum alu_op op16, unsigned bits)
{
	switch (bits) {
	case 16: return op16;
	case 32: return (enum alu_op)(op16 + 1);
	case 64: return (enum alu_op)(op16 + 2);
	}
	spv_fail(r, "a conversion to %u-bit float", bits);
}

int spv_alu_op(struct spv *r, uint32_t op, unsigned src_bits, unsigned dst_bits, bool *swap)
{
	(void)src_bits;
	*swap = false;
	switch (op) {
	case SpvOpSNegate: return OP_ineg;
	case SpvOpFNegate: return OP_fneg;
	case SpvOpNot: return OP_inot;
	case SpvOpIAdd: return OP_iadd;
	case SpvOpFAdd: return OP_fadd;
	case SpvOpISub: return OP_isub;
	case SpvOpFSub: return OP_fsub;
	case SpvOpIMul: return OP_imul;
	case SpvOpFMul: return OP_fmul;
	case SpvOpUDiv: return OP_udiv;
	case SpvOpSDiv: return OP_idiv;
	case SpvOpFDiv: return OP_fdiv;
	case SpvOpUMod: return OP_umod;
	case SpvOpSRem: return OP_irem;
	case SpvOpSMod: return OP_imod;
	case SpvOpFRem: return OP_frem;
	case SpvOpFMod: return OP_fmod;
	case SpvOpShiftRightLogical: return OP_ushr;
	case SpvOpShiftRightArithmetic: return OP_ishr;
	case SpvOpShiftLeftLogical: return OP_ishl;
	case SpvOpBitwiseOr: case SpvOpLogicalOr: return OP_ior;
	case SpvOpBitwiseXor: return OP_ixor;
	case SpvOpBitwiseAnd: case SpvOpLogicalAnd: return OP_iand;
	case SpvOpLogicalNot: return OP_inot;
	case SpvOpLogicalEqual: case SpvOpIEqual: return OP_ieq;
	case SpvOpLogicalNotEqual: case SpvOpINotEqual: return OP_ine;
	case SpvOpUGreaterThan: *swap = true; return OP_ult;
	case SpvOpSGreaterThan: *swap = true; return OP_ilt;
	case SpvOpUGreaterThanEqual: return OP_uge;
	case SpvOpSGreaterThanEqual: return OP_ige;
	case SpvOpULessThan: return OP_ult;
	case SpvOpSLessThan: return OP_ilt;
	case SpvOpULessThanEqual: *swap = true; return OP_uge;
	case SpvOpSLessThanEqual: *swap = true; return OP_ige;
	case SpvOpFOrdEqual: return OP_feq;
	case SpvOpFUnordEqual: return OP_fequ;
	case SpvOpFOrdNotEqual: return OP_fneo;
	case SpvOpFUnordNotEqual: return OP_fneu;
	case SpvOpFOrdLessThan: return OP_flt;
	case SpvOpFUnordLessThan: return OP_fltu;
	case SpvOpFOrdGreaterThan: *swap = true; return OP_flt;
	case SpvOpFUnordGreaterThan: *swap = true; return OP_fltu;
	case SpvOpFOrdLessThanEqual: *swap = true; return OP_fge;
	case SpvOpFUnordLessThanEqual: *swap = true; return OP_fgeu;
	case SpvOpFOrdGreaterThanEqual: return OP_fge;
	case SpvOpFUnordGreaterThanEqual: return OP_fgeu;
	case SpvOpOrdered: return OP_ford;
	case SpvOpUnordered: return OP_funord;
	case SpvOpConvertFToU: return sized(r, OP_f2u8, dst_bits);
	case SpvOpConvertFToS: return sized(r, OP_f2i8, dst_bits);
	case SpvOpConvertSToF: return float_sized(r, OP_i2f16, dst_bits);
	case SpvOpConvertUToF: return float_sized(r, OP_u2f16, dst_bits);
	case SpvOpUConvert: return sized(r, OP_u2u8, dst_bits);
	case SpvOpSConvert: return sized(r, OP_i2i8, dst_bits);
	case SpvOpFConvert:
		return dst_bits == 16 ? OP_f2f16 : dst_bits == 32 ? OP_f2f32 : dst_bits == 64 ? OP_f2f64
		       : -1;
	case SpvOpQuantizeToF16: return OP_fquantize2f16;
	case SpvOpBitReverse: return OP_bitfield_reverse;
	case SpvOpSelect: return OP_bcsel;
	}
	return -1;
}

/* ---- conversions ---- */

struct ssa_def *spv_convert(struct spv *r, struct ssa_def *x, const struct spv_type *from,
			    const struct spv_type *to)
{
	struct builder *b = &r->b;
	enum spv_type_kind f = spv_type_scalar(r, from)->kind, t = spv_type_scalar(r, to)->kind;
	unsigned bits = to->bit_size;
	bool is_signed = spv_type_scalar(r, from)->is_signed;
	if (f == t && x->bit_size == bits && f != T_BOOL)
		return x;
	if (t == T_BOOL)
		return f == T_FLOAT ? b_fneu(b, x, b_imm_floatN(b, 0, x->bit_size))
				    : b_ine(b, x, b_imm_intN(b, 0, x->bit_size));
	if (f == T_BOOL)
		return t == T_FLOAT ? b_alu(b, float_sized(r, OP_b2f16, bits), x, NULL, NULL, NULL)
				    : b_alu(b, sized(r, OP_b2i8, bits), x, NULL, NULL, NULL);
	if (f == T_FLOAT && t == T_FLOAT)
		return b_alu(b, bits == 16 ? OP_f2f16 : bits == 32 ? OP_f2f32 : OP_f2f64, x, NULL,
			     NULL, NULL);
	if (f == T_FLOAT)
		return b_alu(b, sized(r, spv_type_scalar(r, to)->is_signed ? OP_f2i8 : OP_f2u8, bits),
			     x, NULL, NULL, NULL);
	if (t == T_FLOAT)
		return b_alu(b, float_sized(r, is_signed ? OP_i2f16 : OP_u2f16, bits), x, NULL, NULL,
			     NULL);
	return b_alu(b, sized(r, is_signed ? OP_i2i8 : OP_u2u8, bits), x, NULL, NULL, NULL);
}

/* ---- bitcasts between sizes ---- */

/* Split every component of `x` into pieces of `bits` (smaller), in order. */
static unsigned split(struct spv *r, struct ssa_def *x, unsigned bits, struct ssa_def **out)
{
	struct builder *b = &r->b;
	unsigned n = 0;
	for (unsigned c = 0; c < x->num_components; c++) {
		struct ssa_def *ch = b_channel(b, x, c);
		if (x->bit_size == 64 && bits <= 32) {
			struct ssa_def *lo = b_unpack_64_2x32_split_x(b, ch);
			struct ssa_def *hi = b_unpack_64_2x32_split_y(b, ch);
			struct ssa_def *two[2] = { lo, hi };
			for (unsigned k = 0; k < 2; k++) {
				if (bits == 32)
					out[n++] = two[k];
				else
					n += split(r, two[k], bits, out + n);
			}
		} else if (x->bit_size == 32 && bits == 16) {
			out[n++] = b_unpack_32_2x16_split_x(b, ch);
			out[n++] = b_unpack_32_2x16_split_y(b, ch);
		} else if (x->bit_size == 32 && bits == 8) {
			struct ssa_def *v = b_unpack_32_4x8(b, ch);
			for (unsigned k = 0; k < 4; k++)
				out[n++] = b_channel(b, v, k);
		} else if (x->bit_size == 16 && bits == 8) {
			struct ssa_def *w = b_u2u32(b, ch);
			out[n++] = b_u2u8(b, w);
			out[n++] = b_u2u8(b, b_ushr(b, w, spv_imm_u32(r, 8)));
		} else {
			spv_unsupported(r, "a bitcast from %u-bit to %u-bit", x->bit_size, bits);
		}
	}
	return n;
}

/* Join pieces of `bits` into one value of `to` bits (larger). */
static struct ssa_def *join(struct spv *r, struct ssa_def **p, unsigned bits, unsigned to)
{
	struct builder *b = &r->b;
	if (to == 64 && bits == 32)
		return b_pack_64_2x32_split(b, p[0], p[1]);
	if (to == 64)
		return b_pack_64_2x32_split(b, join(r, p, bits, 32), join(r, p + 32 / bits, bits, 32));
	if (to == 32 && bits == 16)
		return b_pack_32_2x16_split(b, p[0], p[1]);
	if (to == 32 && bits == 8)
		return b_pack_32_4x8(b, b_vec4(b, p[0], p[1], p[2], p[3]));
	if (to == 16 && bits == 8) {
		struct ssa_def *lo = b_u2u16(b, p[0]), *hi = b_u2u16(b, p[1]);
		return b_ior(b, lo, b_ishl(b, hi, spv_imm_u32(r, 8)));
	}
	spv_unsupported(r, "a bitcast from %u-bit to %u-bit", bits, to);
}

static struct ssa_def *bitcast(struct spv *r, struct ssa_def *x, struct spv_type *to)
{
	unsigned bits = to->kind == T_POINTER ? 64 : to->bit_size;
	unsigned n = to->kind == T_POINTER ? 1 : spv_type_components(to);
	if (x->bit_size * x->num_components != bits * n)
		spv_fail(r, "a bitcast from %ux%u bits to %ux%u", x->num_components, x->bit_size, n,
			 bits);
	if (x->bit_size == bits)
		return x;
	struct ssa_def *pieces[64], *res[4];
	unsigned small = x->bit_size < bits ? x->bit_size : bits;
	unsigned np = x->bit_size > small ? split(r, x, small, pieces) : 0;
	if (!np)
		for (unsigned c = 0; c < x->num_components; c++)
			pieces[np++] = b_channel(&r->b, x, c);
	for (unsigned c = 0; c < n; c++)
		res[c] = bits == small ? pieces[c] : join(r, pieces + c * (bits / small), small, bits);
	return b_vec(&r->b, res, n);
}

/* ---- products ---- */

static struct ssa_def *dot(struct spv *r, struct ssa_def *a, struct ssa_def *b)
{
	if (!a || !b)
		spv_fail(r, "a dot product of a value the module never made");
	if (a->num_components != b->num_components || a->bit_size != b->bit_size)
		spv_fail(r, "a dot product of a %u-component and a %u-component vector",
			 a->num_components, b->num_components);
	switch (a->num_components) {
	case 1: return b_fmul(&r->b, a, b);
	case 2: return b_fdot2(&r->b, a, b);
	case 3: return b_fdot3(&r->b, a, b);
	case 4: return b_fdot4(&r->b, a, b);
	}
	spv_fail(r, "a dot product of %u components", a->num_components);
}

/* Σ col[i] · v_i from the last column, as Mesa's vtn matrix_multiply(): a
 * product with a homogeneous vec4(p, 1.0) starts from the last column
 * itself, each earlier one an ffma. */
static struct ssa_def *columns_times_vector(struct spv *r, struct ssa_def *const *col, unsigned n,
					   struct ssa_def *v)
{
	struct builder *b = &r->b;
	struct ssa_def *acc = b_fmul(b, col[n - 1], b_channel(b, v, n - 1));
	for (unsigned i = n - 1; i-- > 0;)
		acc = b_ffma(b, col[i], b_channel(b, v, i), acc);
	return acc;
}

/* Row `i` of the matrix whose `n` columns are m's elements, gathered as a
 * vector of channels (vtn_ssa_transpose). */
static struct ssa_def *gather_row(struct spv *r, const struct spv_val *m, unsigned i, unsigned n)
{
	struct ssa_def *ch[4];
	for (unsigned j = 0; j < n; j++)
		ch[j] = b_channel(&r->b, m->elems[j]->def, i);
	return b_vec(&r->b, ch, n);
}

/* M × v = Σ column_i · v_i (Mesa's form: one fmul and ffmas). */
struct ssa_def *spv_matrix_times_vector(struct spv *r, struct spv_val *m, struct ssa_def *v)
{
	if (!m->elems || m->type->kind != T_MATRIX || v->num_components != m->type->length ||
	    m->type->length > 4)
		spv_fail(r, "a matrix times a vector of the wrong size");
	unsigned n = m->type->length;
	struct ssa_def *col[4];
	for (unsigned i = 0; i < n; i++) {
		if (!m->elems[i]->def || m->elems[i]->def->num_components != m->type->elem->length)
			spv_fail(r, "a matrix column the module never made");
		col[i] = m->elems[i]->def;
	}
	return columns_times_vector(r, col, n, v);
}

/* transpose(X) × v: each row of the product a dot of a column of X with v
 * (vtn matrix_multiply: the rows of a transposed matrix are at hand). */
static struct ssa_def *transposed_times_vector(struct spv *r, struct spv_val *x,
					       struct ssa_def *v)
{
	struct ssa_def *ch[4];
	if (!x->elems || x->type->kind != T_MATRIX || x->type->length > 4 ||
	    x->type->elem->length != v->num_components)
		spv_fail(r, "a matrix times a vector of the wrong size");
	for (unsigned j = 0; j < x->type->length; j++)
		ch[j] = dot(r, x->elems[j]->def, v);
	return b_vec(&r->b, ch, x->type->length);
}

/*
 * v × M = transpose(M) × v by the columns of transpose(M), from the last,
 * every row gathered first (vtn_ssa_transpose, then matrix_multiply's
 * general form).  Mesa's figures show this form, not dots of v with M's
 * columns: on GC3000 (mesa-etnaviv-dev.tsv) HLSL's mul(M, float4(p, 1.0))
 * costs each row's gathering movs and three mads (35 instructions and 8
 * temps for one row-major UBO matrix, not dots' 38 and 6), GLSL's
 * `vec4(p, 1.0) * M` likewise (float-math.invariant-float-math.vert 77
 * instructions, transpose.legacy.vert 107: both exactly this form).  When M
 * is itself a transpose its original's columns are at hand.
 */
static struct ssa_def *vector_times_matrix(struct spv *r, struct ssa_def *v, struct spv_val *m)
{
	if (m->transposed)
		return spv_matrix_times_vector(r, m->transposed, v);
	unsigned rows = m->type->elem->length, cols = m->type->length;
	if (v->num_components != rows || rows > 4 || cols > 4)
		spv_fail(r, "a vector times a matrix of the wrong size");
	for (unsigned j = 0; j < cols; j++)
		if (!m->elems[j]->def || m->elems[j]->def->num_components != rows)
			spv_fail(r, "a matrix column the module never made");
	/* vtn_ssa_transpose makes every row first, then the product runs */
	struct ssa_def *row[4];
	for (unsigned i = 0; i < rows; i++)
		row[i] = gather_row(r, m, i, cols);
	return columns_times_vector(r, row, rows, v);
}

/* A matrix times a column: by the rows of a transposed float matrix, else
 * by the columns. */
static struct ssa_def *times_column(struct spv *r, struct spv_val *m, struct ssa_def *v)
{
	if (m->transposed && m->type->elem->elem->kind == T_FLOAT)
		return transposed_times_vector(r, m->transposed, v);
	return spv_matrix_times_vector(r, m, v);
}

/*
 * The transpose of a matrix value, lazily as Mesa's vtn_ssa_transpose(): a
 * matrix made by a transpose gives back the one it transposes; otherwise
 * the rows as vectors of channels (instructions the products below leave
 * unread when they use the original's columns), marked as its transpose.
 */
static struct spv_val *transpose(struct spv *r, struct spv_val *m, struct spv_type *t)
{
	if (m->transposed)
		return m->transposed;
	if (!m->elems || m->type->kind != T_MATRIX || m->type->elem->length != t->length ||
	    m->type->length != t->elem->length)
		spv_fail(r, "a transpose of the wrong size");
	struct spv_val *res = spv_val_new(r, t);
	for (unsigned i = 0; i < t->length; i++)
		res->elems[i] = spv_val_def(r, t->elem, gather_row(r, m, i, t->elem->length));
	res->transposed = m;
	return res;
}

static struct spv_val *matrix_op(struct spv *r, uint32_t op, struct spv_type *t)
{
	struct builder *b = &r->b;
	if (t->kind != T_MATRIX)
		spv_fail(r, "the result type is not a matrix");
	struct spv_val *res = spv_val_new(r, t);
	switch (op) {
	case SpvOpMatrixTimesScalar: {
		struct spv_val *m = spv_get_val(r, spv_word(r, 3));
		struct ssa_def *s = spv_get_def(r, spv_word(r, 4));
		if (!m->elems || m->type->kind != T_MATRIX || m->type->length != t->length)
			spv_fail(r, "a matrix of the wrong size");
		for (unsigned i = 0; i < t->length; i++)
			res->elems[i] = spv_val_def(r, t->elem, b_fmul(b, m->elems[i]->def, s));
		return res;
	}
	case SpvOpMatrixTimesMatrix: {
		struct spv_val *a = spv_get_val(r, spv_word(r, 3)), *n = spv_get_val(r, spv_word(r, 4));
		if (!n->elems || n->type->length != t->length)
			spv_fail(r, "matrices of the wrong sizes");
		if (a->transposed && n->transposed) {
			/* transpose(A') × transpose(B') = transpose(B' × A'),
			 * B' × A' by columns (vtn matrix_multiply) */
			struct spv_val *a1 = a->transposed, *b1 = n->transposed;
			struct ssa_def *p[4];
			if (!a1->elems || a1->type->length > 4 || a1->type->length != t->elem->length ||
			    b1->type->elem->length != t->length)
				spv_fail(r, "matrices of the wrong sizes");
			for (unsigned i = 0; i < a1->type->length; i++)
				p[i] = spv_matrix_times_vector(r, b1, a1->elems[i]->def);
			for (unsigned i = 0; i < t->length; i++) {
				struct ssa_def *ch[4];
				for (unsigned j = 0; j < t->elem->length; j++)
					ch[j] = b_channel(b, p[j], i);
				res->elems[i] = spv_val_def(r, t->elem, b_vec(b, ch, t->elem->length));
			}
			return res;
		}
		for (unsigned i = 0; i < t->length; i++)
			res->elems[i] = spv_val_def(r, t->elem, times_column(r, a, n->elems[i]->def));
		return res;
	}
	case SpvOpOuterProduct: {
		struct ssa_def *c = spv_get_def(r, spv_word(r, 3)), *row = spv_get_def(r, spv_word(r, 4));
		if (row->num_components != t->length)
			spv_fail(r, "an outer product of the wrong size");
		for (unsigned i = 0; i < t->length; i++)
			res->elems[i] = spv_val_def(r, t->elem, b_fmul(b, c, b_channel(b, row, i)));
		return res;
	}
	case SpvOpTranspose:
		return transpose(r, spv_get_val(r, spv_word(r, 3)), t);
	}
	return NULL;
}

/* ---- two-result ops: OpIAddCarry & co ---- */

static void extended(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	struct spv_type *t = spv_result_type(r);
	struct ssa_def *x = spv_get_def(r, spv_word(r, 3)), *y = spv_get_def(r, spv_word(r, 4));
	struct ssa_def *lo, *hi;
	if (t->kind != T_STRUCT || t->length != 2)
		spv_fail(r, "the result is not a struct of two members");
	switch (op) {
	case SpvOpIAddCarry:
		lo = b_iadd(b, x, y);
		hi = b_alu(b, OP_uadd_carry, x, y, NULL, NULL);
		break;
	case SpvOpISubBorrow:
		lo = b_isub(b, x, y);
		hi = b_alu(b, OP_usub_borrow, x, y, NULL, NULL);
		break;
	case SpvOpUMulExtended:
		lo = b_imul(b, x, y);
		hi = b_umul_high(b, x, y);
		break;
	default:
		lo = b_imul(b, x, y);
		hi = b_imul_high(b, x, y);
		break;
	}
	struct spv_val *v = spv_val_new(r, t);
	v->elems[0] = spv_val_def(r, t->members[0].type, lo);
	v->elems[1] = spv_val_def(r, t->members[1].type, hi);
	spv_set_val(r, spv_result_id(r), v);
}

/* ---- integer dot products (SPV_KHR_integer_dot_product) ---- */

/* OpSDot, OpUDot, OpSUDot and their AccSat forms: packed 4x8 operands use
 * the IR's dot_4x8 ops; vectors are widened, multiplied and summed. */
static void int_dot(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	struct spv_type *t = spv_result_type(r);
	bool acc = op >= SpvOpSDotAccSat;
	uint32_t kind = acc ? op - (SpvOpSDotAccSat - SpvOpSDot) : op;
	bool sa = kind != SpvOpUDot, sb = kind == SpvOpSDot;
	struct ssa_def *x = spv_get_def(r, spv_word(r, 3)), *y = spv_get_def(r, spv_word(r, 4));
	struct ssa_def *a = acc ? spv_get_def(r, spv_word(r, 5)) : NULL, *res;
	bool packed = spv_nwords(r) > (acc ? 6u : 5u);
	unsigned bits = t->bit_size;
	if (packed && bits == 32 && x->bit_size == 32) {
		static const enum alu_op ops[2][3] = {
			{ OP_sdot_4x8_iadd, OP_udot_4x8_uadd, OP_sudot_4x8_iadd },
			{ OP_sdot_4x8_iadd_sat, OP_udot_4x8_uadd_sat, OP_sudot_4x8_iadd_sat },
		};
		res = b_alu(b, ops[acc][kind - SpvOpSDot], x, y, a ? a : spv_imm_u32(r, 0), NULL);
		spv_set_def(r, spv_result_id(r), res);
		return;
	}
	if (packed) {	/* into fewer bits: the four bytes as vectors */
		if (x->bit_size != 32 || y->bit_size != 32)
			spv_fail(r, "packed operands that are not 32-bit");
		x = b_unpack_32_4x8(b, x);
		y = b_unpack_32_4x8(b, y);
	}
	res = NULL;
	for (unsigned c = 0; c < x->num_components; c++) {
		struct ssa_def *xc = b_channel(b, x, c), *yc = b_channel(b, y, c);
		if (xc->bit_size != bits || yc->bit_size != bits) {
			xc = b_alu(b, sized(r, sa ? OP_i2i8 : OP_u2u8, bits), xc, NULL, NULL, NULL);
			yc = b_alu(b, sized(r, sb ? OP_i2i8 : OP_u2u8, bits), yc, NULL, NULL, NULL);
		}
		struct ssa_def *p = b_imul(b, xc, yc);
		res = res ? b_iadd(b, res, p) : p;
	}
	if (a)
		res = kind == SpvOpUDot ? b_uadd_sat(b, res, a) : b_iadd_sat(b, res, a);
	spv_set_def(r, spv_result_id(r), res);
}

/* ---- SPV_INTEL_shader_integer_functions2 ---- */

static struct ssa_def *intel_op(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	struct ssa_def *x = spv_get_def(r, spv_word(r, 3));
	struct ssa_def *y = op >= SpvOpAbsISubINTEL ? spv_get_def(r, spv_word(r, 4)) : NULL;
	unsigned bits = x->bit_size;
	switch (op) {
	case SpvOpUCountLeadingZerosINTEL: {
		struct ssa_def *msb = b_ufind_msb(b, x);	/* -1 for 0: bits leading zeros */
		struct ssa_def *n = b_isub(b, spv_imm_u32(r, bits - 1), msb);
		return bits == 32 ? n : b_alu(b, sized(r, OP_u2u8, bits), n, NULL, NULL, NULL);
	}
	case SpvOpUCountTrailingZerosINTEL: {
		struct ssa_def *lsb = b_find_lsb(b, x);
		struct ssa_def *n = b_bcsel(b, b_ieq(b, x, b_imm_intN(b, 0, bits)), spv_imm_u32(r, bits),
					    lsb);
		return bits == 32 ? n : b_alu(b, sized(r, OP_u2u8, bits), n, NULL, NULL, NULL);
	}
	case SpvOpAbsISubINTEL:
		return b_bcsel(b, b_ilt(b, x, y), b_isub(b, y, x), b_isub(b, x, y));
	case SpvOpAbsUSubINTEL:
		return b_bcsel(b, b_ult(b, x, y), b_isub(b, y, x), b_isub(b, x, y));
	case SpvOpIAddSatINTEL: return b_iadd_sat(b, x, y);
	case SpvOpUAddSatINTEL: return b_uadd_sat(b, x, y);
	case SpvOpISubSatINTEL: return b_isub_sat(b, x, y);
	case SpvOpUSubSatINTEL: return b_usub_sat(b, x, y);
	/* (a + b) >> 1 without overflow: (a & b) + ((a ^ b) >> 1); rounded up: (a | b) - … */
	case SpvOpIAverageINTEL:
		return b_iadd(b, b_iand(b, x, y), b_ishr(b, b_ixor(b, x, y), spv_imm_u32(r, 1)));
	case SpvOpUAverageINTEL:
		return b_iadd(b, b_iand(b, x, y), b_ushr(b, b_ixor(b, x, y), spv_imm_u32(r, 1)));
	case SpvOpIAverageRoundedINTEL:
		return b_isub(b, b_ior(b, x, y), b_ishr(b, b_ixor(b, x, y), spv_imm_u32(r, 1)));
	case SpvOpUAverageRoundedINTEL:
		return b_isub(b, b_ior(b, x, y), b_ushr(b, b_ixor(b, x, y), spv_imm_u32(r, 1)));
	case SpvOpIMul32x16INTEL:
		return b_imul(b, x, b_ibitfield_extract(b, y, spv_imm_u32(r, 0), spv_imm_u32(r, 16)));
	case SpvOpUMul32x16INTEL:
		return b_imul(b, x, b_iand(b, y, b_imm_intN(b, 0xffff, bits)));
	}
	return NULL;
}

/* ---- the rest ---- */

/* any(v) is v != false, all(v) is v == true, compared as vectors.  (One
 * table indexed twice: GCC 12's -fsanitize=object-size misjudged the bounds
 * of `(all ? alls : anys)[i]` and aborted the sanitizer build.) */
static struct ssa_def *any_all(struct spv *r, struct ssa_def *v, bool all)
{
	static const enum alu_op ops[2][3] = {
		{ OP_bany_inequal2, OP_bany_inequal3, OP_bany_inequal4 },
		{ OP_ball_iequal2, OP_ball_iequal3, OP_ball_iequal4 },
	};
	if (v->num_components == 1)
		return v;
	if (v->num_components < 2 || v->num_components > 4)
		spv_fail(r, "OpAny/OpAll of %u components", v->num_components);
	uint64_t c[4] = { all, all, all, all };
	struct ssa_def *k = spv_imm(r, v->num_components, 1, c);
	return b_alu(&r->b, ops[all][v->num_components - 2], v, k, NULL, NULL);
}

/* A shift count or bitfield operand as the 32-bit value IR ops take. */
static struct ssa_def *as_u32(struct spv *r, uint32_t id)
{
	struct ssa_def *d = spv_get_def(r, id);
	return d->bit_size == 32 ? d : b_u2u32(&r->b, d);
}

static struct ssa_def *bit_op(struct spv *r, uint32_t op, struct spv_type *t)
{
	struct builder *b = &r->b;
	struct ssa_def *x = spv_get_def(r, spv_word(r, 3)), *res;
	switch (op) {
	case SpvOpBitFieldInsert:
		return b_bitfield_insert(b, x, spv_get_def(r, spv_word(r, 4)), as_u32(r, spv_word(r, 5)),
					 as_u32(r, spv_word(r, 6)));
	case SpvOpBitFieldSExtract:
		return b_ibitfield_extract(b, x, as_u32(r, spv_word(r, 4)), as_u32(r, spv_word(r, 5)));
	case SpvOpBitFieldUExtract:
		return b_ubitfield_extract(b, x, as_u32(r, spv_word(r, 4)), as_u32(r, spv_word(r, 5)));
	case SpvOpBitCount:
		res = b_bit_count(b, x);
		return t->bit_size == 32 ? res : b_alu(b, sized(r, OP_u2u8, t->bit_size), res, NULL,
							NULL, NULL);
	}
	return NULL;
}

static struct ssa_def *simple_op(struct spv *r, uint32_t op, struct spv_type *t, int alu,
				 bool swap)
{
	const struct alu_op_info *info = &alu_op_infos[alu];
	unsigned n = spv_nwords(r) - 3;
	struct ssa_def *src[3] = { 0 };
	if (n != info->num_inputs)
		spv_fail(r, "%u operands, %s takes %u", n, info->name, info->num_inputs);
	for (unsigned i = 0; i < n; i++)
		src[i] = spv_get_def(r, spv_word(r, 3 + i));
	if (swap) {
		struct ssa_def *x = src[0];
		src[0] = src[1];
		src[1] = x;
	}
	/* IR shifts take a 32-bit count */
	if ((alu == OP_ishl || alu == OP_ishr || alu == OP_ushr) && src[1]->bit_size != 32)
		src[1] = b_u2u32(&r->b, src[1]);
	for (unsigned i = 0; i < n; i++) {
		unsigned want = alu_type_bits(info->input_types[i]);
		if (want && src[i]->bit_size != want)
			spv_fail(r, "operand %u is %u-bit, %s takes %u-bit", i, src[i]->bit_size,
				 info->name, want);
	}
	if (alu == OP_fquantize2f16 && src[0]->bit_size != 32)
		spv_unsupported(r, "OpQuantizeToF16 on %u-bit floats", src[0]->bit_size);
	bool exact = spv_has_deco(r, spv_result_id(r), -1, SpvDecorationNoContraction);
	r->b.exact = exact;
	if (op == SpvOpFConvert && t->bit_size == 16 &&
	    spv_deco_arg(r, spv_result_id(r), -1, SpvDecorationFPRoundingMode, ~0u) ==
	    SpvFPRoundingModeRTZ)
		alu = OP_f2f16_rtz;
	struct ssa_def *res = b_alu(&r->b, (enum alu_op)alu, src[0], src[1], src[2], NULL);
	r->b.exact = false;
	return res;
}

bool spv_alu_instr(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	struct spv_type *t;
	struct ssa_def *res = NULL;
	bool swap;
	switch (op) {
	case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended:
		extended(r, op);
		return true;
	case SpvOpMatrixTimesScalar: case SpvOpMatrixTimesMatrix: case SpvOpOuterProduct:
	case SpvOpTranspose:
		t = spv_result_type(r);
		spv_set_val(r, spv_result_id(r), matrix_op(r, op, t));
		return true;
	case SpvOpSDot: case SpvOpUDot: case SpvOpSUDot: case SpvOpSDotAccSat: case SpvOpUDotAccSat:
	case SpvOpSUDotAccSat:
		int_dot(r, op);
		return true;
	case SpvOpUCountLeadingZerosINTEL: case SpvOpUCountTrailingZerosINTEL:
	case SpvOpAbsISubINTEL: case SpvOpAbsUSubINTEL: case SpvOpIAddSatINTEL:
	case SpvOpUAddSatINTEL: case SpvOpIAverageINTEL: case SpvOpUAverageINTEL:
	case SpvOpIAverageRoundedINTEL: case SpvOpUAverageRoundedINTEL: case SpvOpISubSatINTEL:
	case SpvOpUSubSatINTEL: case SpvOpIMul32x16INTEL: case SpvOpUMul32x16INTEL:
		spv_set_def(r, spv_result_id(r), intel_op(r, op));
		return true;
	case SpvOpSelect: {
		struct spv_val *c = spv_get_val(r, spv_word(r, 3));
		struct spv_val *x = spv_get_val(r, spv_word(r, 4)), *y = spv_get_val(r, spv_word(r, 5));
		if (!c->def || c->def->bit_size != 1)
			spv_fail(r, "the condition is not a boolean");
		spv_set_val(r, spv_result_id(r), spv_val_bcsel(r, c->def, x, y));
		return true;
	}
	default:
		break;
	}
	int alu = -1;
	switch (op) {
	case SpvOpBitcast:
	case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
	case SpvOpDot: case SpvOpVectorTimesScalar: case SpvOpVectorTimesMatrix:
	case SpvOpMatrixTimesVector: case SpvOpAny: case SpvOpAll: case SpvOpIsNan:
	case SpvOpIsInf: case SpvOpBitFieldInsert: case SpvOpBitFieldSExtract:
	case SpvOpBitFieldUExtract: case SpvOpBitCount:
		break;
	default:
		/* membership only: the real sizes come below */
		alu = spv_alu_op(r, op, 32, 32, &swap);
		if (alu < 0)
			return false;
	}
	t = spv_result_type(r);
	if (alu >= 0) {
		unsigned dst_bits = t->kind == T_POINTER ? 64 : t->bit_size;
		alu = spv_alu_op(r, op, 0, dst_bits, &swap);
		if (alu < 0)
			spv_fail(r, "no conversion to %s", spv_type_str(r, t));
		res = simple_op(r, op, t, alu, swap);
	} else {
		switch (op) {
		case SpvOpBitcast:
			res = bitcast(r, spv_get_def(r, spv_word(r, 3)), t);
			break;
		case SpvOpConvertPtrToU: {
			struct ssa_def *a = spv_ptr_address(r, spv_get_ptr(r, spv_word(r, 3)));
			res = t->bit_size == 64 ? a : b_alu(b, sized(r, OP_u2u8, t->bit_size), a, NULL,
							    NULL, NULL);
			break;
		}
		case SpvOpConvertUToPtr: {
			struct ssa_def *a = spv_get_def(r, spv_word(r, 3));
			res = a->bit_size == 64 ? a : b_u2u64(b, a);
			break;
		}
		case SpvOpDot:
			res = dot(r, spv_get_def(r, spv_word(r, 3)), spv_get_def(r, spv_word(r, 4)));
			break;
		case SpvOpVectorTimesScalar:
			res = b_fmul(b, spv_get_def(r, spv_word(r, 3)), spv_get_def(r, spv_word(r, 4)));
			break;
		case SpvOpVectorTimesMatrix: {
			struct ssa_def *v = spv_get_def(r, spv_word(r, 3));
			struct spv_val *m = spv_get_val(r, spv_word(r, 4));
			if (!m->elems || m->type->kind != T_MATRIX || t->length > 4 ||
			    spv_type_components(t) != m->type->length)
				spv_fail(r, "a vector times a matrix of the wrong size");
			res = vector_times_matrix(r, v, m);
			break;
		}
		case SpvOpMatrixTimesVector:
			res = times_column(r, spv_get_val(r, spv_word(r, 3)),
					   spv_get_def(r, spv_word(r, 4)));
			break;
		case SpvOpAny: case SpvOpAll:
			res = any_all(r, spv_get_def(r, spv_word(r, 3)), op == SpvOpAll);
			break;
		case SpvOpIsNan: {
			struct ssa_def *x = spv_get_def(r, spv_word(r, 3));
			res = b_fneu(b, x, x);
			break;
		}
		case SpvOpIsInf: {
			struct ssa_def *x = spv_get_def(r, spv_word(r, 3));
			res = b_feq(b, b_fabs(b, x), b_imm_floatN(b, __builtin_inf(), x->bit_size));
			break;
		}
		default:
			res = bit_op(r, op, t);
			break;
		}
	}
	if (t->kind == T_POINTER) {
		spv_set_val(r, spv_result_id(r), spv_val_def(r, t, res));
		return true;
	}
	spv_set_def(r, spv_result_id(r), res);
	return true;
}
