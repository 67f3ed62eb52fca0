/*
 * lower_idiv: integer division and remainder (idiv, udiv, irem, imod,
 * umod) without a divide instruction, as Mesa's nir_lower_idiv for ir3
 * (targets.md §2.1), with exactly the folder's results (alu_ops.def):
 * division or remainder by zero gives 0, INT_MIN / -1 wraps to INT_MIN,
 * irem takes the sign of the dividend, imod that of the divisor.
 *
 * Unsigned 32-bit division by a float reciprocal, refined to the exact
 * quotient (the algorithm of AMD's and Mesa's emit_udiv):
 *
 *	rcp = f2u32(frcp(u2f32(d)) * 4294966784.0)	~ 2^32 / d, from below
 *	rcp += umul_high(rcp, rcp * -d)			one Newton step
 *	q = umul_high(n, rcp); r = n - q * d		q is q' or q' - 1 or q' - 2
 *	(r >= d: q += 1, r -= d) twice			exact
 *	d == 0: 0
 *
 * Signed ones divide the magnitudes (iabs: INT_MIN's is 2^31 as unsigned)
 * and fix the sign.  8- and 16-bit operations are widened to 32 bits and
 * narrowed back; 64-bit ones are left alone (ir3 lowers 64-bit integers
 * separately).
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

/* n / d or n % d, unsigned 32-bit. */
static struct ssa_def *udiv32(struct builder *b, struct ssa_def *n, struct ssa_def *d, bool mod)
{
	/* one builder call per line: C leaves the order of arguments open,
	 * and the order of the instructions must not depend on the compiler */
	struct ssa_def *one = b_imm_int(b, 1);
	struct ssa_def *zero = b_imm_int(b, 0);
	struct ssa_def *scale = b_imm_float(b, 4294966784.0);
	struct ssa_def *rcp = b_frcp(b, b_u2f32(b, d));
	rcp = b_f2u32(b, b_fmul(b, rcp, scale));
	struct ssa_def *neg_rcp_d = b_imul(b, rcp, b_ineg(b, d));
	rcp = b_iadd(b, rcp, b_umul_high(b, rcp, neg_rcp_d));

	struct ssa_def *q = b_umul_high(b, n, rcp);
	struct ssa_def *r = b_isub(b, n, b_imul(b, q, d));
	struct ssa_def *ge = b_uge(b, r, d);
	if (!mod) {
		struct ssa_def *q1 = b_iadd(b, q, one);
		q = b_bcsel(b, ge, q1, q);
	}
	struct ssa_def *r1 = b_isub(b, r, d);
	r = b_bcsel(b, ge, r1, r);
	ge = b_uge(b, r, d);
	struct ssa_def *fixed = mod ? b_isub(b, r, d) : b_iadd(b, q, one);
	struct ssa_def *res = b_bcsel(b, ge, fixed, mod ? r : q);
	struct ssa_def *by_zero = b_ieq(b, d, zero);
	return b_bcsel(b, by_zero, zero, res);
}

static struct ssa_def *lower32(struct builder *b, enum alu_op op, struct ssa_def *n,
			       struct ssa_def *d)
{
	struct ssa_def *zero = b_imm_int(b, 0);
	switch (op) {
	case OP_udiv:
		return udiv32(b, n, d, false);
	case OP_umod:
		return udiv32(b, n, d, true);
	case OP_idiv: {
		struct ssa_def *an = b_iabs(b, n);
		struct ssa_def *ad = b_iabs(b, d);
		struct ssa_def *q = udiv32(b, an, ad, false);
		struct ssa_def *neg = b_ilt(b, b_ixor(b, n, d), zero);
		return b_bcsel(b, neg, b_ineg(b, q), q);
	}
	case OP_irem: {
		struct ssa_def *an = b_iabs(b, n);
		struct ssa_def *ad = b_iabs(b, d);
		struct ssa_def *r = udiv32(b, an, ad, true);
		struct ssa_def *neg = b_ilt(b, n, zero);
		return b_bcsel(b, neg, b_ineg(b, r), r);
	}
	case OP_imod: {
		struct ssa_def *r = lower32(b, OP_irem, n, d);
		struct ssa_def *r_neg = b_ilt(b, r, zero);
		struct ssa_def *d_neg = b_ilt(b, d, zero);
		struct ssa_def *differ = b_ine(b, r_neg, d_neg);
		struct ssa_def *fix = b_iand(b, b_ine(b, r, zero), differ);
		return b_bcsel(b, fix, b_iadd(b, r, d), r);
	}
	default:
		return NULL;
	}
}

static bool is_division(enum alu_op op)
{
	return op == OP_idiv || op == OP_udiv || op == OP_irem || op == OP_imod || op == OP_umod;
}

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	unsigned bits = alu->def.bit_size;
	if (!is_division(alu->op) || bits == 64 || bits == 1)
		return NULL;
	struct ssa_def *n = b_alu_src(b, alu, 0);
	struct ssa_def *d = b_alu_src(b, alu, 1);
	if (bits == 32)
		return lower32(b, alu->op, n, d);
	bool is_signed = alu_type_base(alu_op_infos[alu->op].input_types[0]) == BASE_int;
	n = is_signed ? b_i2i32(b, n) : b_u2u32(b, n);
	d = is_signed ? b_i2i32(b, d) : b_u2u32(b, d);
	struct ssa_def *r = lower32(b, alu->op, n, d);
	return bits == 16 ? b_u2u16(b, r) : b_u2u8(b, r);
}

bool lower_idiv(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
