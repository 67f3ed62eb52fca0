/*
 * The ir3 arithmetic lowerings against the opcode table's folder, as
 * opt_lower.c does for the generic ones: a shader computes one opcode on
 * stage inputs (four components); before and after lower_ir3_int64 (every
 * 64-bit integer opcode it splits into halves), lower_ir3_alu (the 32-bit
 * opcodes ir3 has no instruction for: frexp, the norm packings, …) or the
 * generic lowerings ir3 runs (lower_mul_high, lower_ldexp) it must give
 * the same bits on random inputs with the edge
 * values mixed in.  Where the lowering is documented as not exact the
 * reason is in the table and the comparison is the looser one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir3/ir3_nir.h"
#include "compiler/opt/opt.h"
#include "opt_eval.h"
#include "tap.h"

#define NC 4

enum cmp { EXACT, FLUSH, CLOSE, NORM };

struct lowering {
	const char *name;
	bool (*pass)(struct shader *, const struct ir3_lowering *);
	enum alu_op op;
	unsigned bits;		/* the size of the sized sources */
	enum cmp cmp;
};

/* The generic lowerings ir3 runs for its multiply-highs … */
static bool mul_high(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	return lower_mul_high(s);
}

/* … and for ldexp. */
static bool ldexp_(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	return lower_ldexp(s);
}

/* FLUSH: ldexp and frexp as GLSL defines them: finite inputs, no
 * overflow, and ir3 flushes denormals (nir's lower_ldexp makes 2^-127 a
 * zero), so a denormal result or input may come out as a zero.  CLOSE:
 * unpacking divides (a multiply by the reciprocal), and the folder
 * converts 64-bit integers in double.  NORM: packing rounds x·(2^n-1) after
 * a float32 multiply (as nir_lower_packing), the folder in double: each
 * field may differ by one. */
static const struct lowering lowerings[] = {
	{ "lower_ir3_int64", lower_ir3_int64, OP_iadd, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_isub, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ineg, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_iand, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ior, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ixor, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_inot, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_iabs, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ishl, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ishr, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ushr, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_imul, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_umul_high, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_imul_high, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ieq, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ine, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ilt, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ige, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_ult, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_uge, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_imin, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_imax, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_umin, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_umax, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_bcsel, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_i2i64, 32, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_u2u64, 32, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_i2i32, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_u2u32, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_i2b1, 64, EXACT },
	{ "lower_ir3_int64", lower_ir3_int64, OP_u2f32, 64, CLOSE },
	{ "lower_ir3_int64", lower_ir3_int64, OP_i2f32, 64, CLOSE },
	{ "lower_mul_high", mul_high, OP_umul_high, 32, EXACT },
	{ "lower_mul_high", mul_high, OP_imul_high, 32, EXACT },
	{ "lower_ir3_alu", lower_ir3_alu, OP_uadd_carry, 32, EXACT },
	{ "lower_ir3_alu", lower_ir3_alu, OP_usub_borrow, 32, EXACT },
	{ "lower_ldexp", ldexp_, OP_ldexp, 32, FLUSH },
	{ "lower_ir3_alu", lower_ir3_alu, OP_frexp_sig, 32, FLUSH },
	{ "lower_ir3_alu", lower_ir3_alu, OP_frexp_exp, 32, FLUSH },
	{ "lower_ir3_alu", lower_ir3_alu, OP_pack_unorm_4x8, 32, NORM },
	{ "lower_ir3_alu", lower_ir3_alu, OP_pack_snorm_4x8, 32, NORM },
	{ "lower_ir3_alu", lower_ir3_alu, OP_pack_unorm_2x16, 32, NORM },
	{ "lower_ir3_alu", lower_ir3_alu, OP_pack_snorm_2x16, 32, NORM },
	{ "lower_ir3_alu", lower_ir3_alu, OP_unpack_unorm_4x8, 32, CLOSE },
	{ "lower_ir3_alu", lower_ir3_alu, OP_unpack_snorm_4x8, 32, CLOSE },
	{ "lower_ir3_alu", lower_ir3_alu, OP_unpack_unorm_2x16, 32, CLOSE },
	{ "lower_ir3_alu", lower_ir3_alu, OP_unpack_snorm_2x16, 32, CLOSE },
	{ "lower_ir3_alu", lower_ir3_alu, OP_extract_u8, 32, EXACT },
	{ "lower_ir3_alu", lower_ir3_alu, OP_extract_i8, 32, EXACT },
	{ "lower_ir3_alu", lower_ir3_alu, OP_extract_u16, 32, EXACT },
	{ "lower_ir3_alu", lower_ir3_alu, OP_extract_i16, 32, EXACT },
};

/* A shader storing op(input 0, input 1, …) to output 0; NULL if the
 * sizes are not valid for the opcode. */
static struct shader *op_shader(enum alu_op op, unsigned bits, const uint8_t *swz)
{
	const struct alu_op_info *info = &alu_op_infos[op];
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	struct builder b;
	builder_init_at_end(&b, s);
	struct alu_instr *alu = alu_instr_create(s, op);
	struct ssa_def *zero = b_imm_int(&b, 0);
	unsigned nc = info->output_size ? 1 : NC;
	for (unsigned k = 0; k < info->num_inputs; k++) {
		unsigned sz = alu_type_bits(info->input_types[k]) ? alu_type_bits(info->input_types[k]) : bits;
		unsigned n = info->input_sizes[k] ? info->input_sizes[k] : NC;
		struct io_decl *in = shader_add_input(s);
		in->location = (int)k;
		in->num_components = NC;
		in->bit_size = sz < 16 ? 32 : sz;
		in->interp = INTERP_flat;
		struct ssa_def *x = b_load_input(&b, NC, in->bit_size, k, 0, zero);
		if (k == 1 && (op == OP_extract_u8 || op == OP_extract_i8 || op == OP_extract_u16 ||
			       op == OP_extract_i16))	/* the lowering wants one constant index */
			x = b_imm_int(&b, op == OP_extract_u8 || op == OP_extract_i8 ? 2 : 1);
		if (sz == 1)
			x = b_i2b1(&b, b_iand(&b, x, b_imm_int(&b, 1)));
		else if (sz == 16 && in->bit_size != 16)
			x = b_u2u16(&b, x);
		src_init(&alu->src[k].src, &alu->instr, x);
		for (unsigned c = 0; c < n; c++)
			alu->src[k].swizzle[c] = x->num_components == 1 ? 0
						 : swz && n == NC ? swz[(c + k) % NC] : (uint8_t)c;
	}
	unsigned out_bits = alu_type_bits(info->output_type) ? alu_type_bits(info->output_type) : bits;
	ssa_def_init(&alu->instr, &alu->def, info->output_size ? info->output_size : nc, out_bits);
	b_insert(&b, &alu->instr);
	struct ssa_def *out = &alu->def;
	if (out_bits == 1)
		out = b_b2i32(&b, out);
	struct io_decl *o = shader_add_output(s);
	o->location = 0;
	o->num_components = out->num_components;
	o->bit_size = out->bit_size;
	b_store_output(&b, out, 0, 0, (1u << out->num_components) - 1, zero);
	struct diag d = DIAG_INIT;
	bool valid = ir_validate(s, &d, "op");
	diag_release(&d);
	if (!valid) {
		shader_free(s);
		return NULL;
	}
	return s;
}

static bool is_float_type(enum alu_type t)
{
	return alu_type_base(t) == BASE_float;
}

static void random_io(enum alu_op op, unsigned bits, struct eval_io *in)
{
	const struct alu_op_info *info = &alu_op_infos[op];
	memset(in, 0, sizeof(*in));
	for (unsigned k = 0; k < info->num_inputs; k++) {
		unsigned sz = alu_type_bits(info->input_types[k]) ? alu_type_bits(info->input_types[k]) : bits;
		for (unsigned c = 0; c < NC; c++) {
			if (is_float_type(info->input_types[k]))
				in->v[k][c] = rnd_float(sz);
			else if (op == OP_ldexp && k == 1)	/* exponents around the range */
				in->v[k][c] = mask_to((uint64_t)((int64_t)rnd_below(600) - 300), 32);
			else if ((op == OP_ishl || op == OP_ishr || op == OP_ushr) && k == 1)
				in->v[k][c] = rnd_below(4) ? rnd_below(64) : rnd_int(32);
			else
				in->v[k][c] = rnd_int(sz < 16 ? 32 : sz);
		}
	}
}

static bool denormal(uint64_t v, unsigned bits)
{
	double d = fabs(ir_float_from_bits(v, bits));
	return d != 0 && d < (bits == 16 ? 6.103515625e-05 : bits == 32 ? 1.1754943508222875e-38
									  : 2.2250738585072014e-308);
}

/* Whether the inputs hold a denormal float (which ir3 flushes), an
 * infinity or a NaN (undefined for ldexp and frexp). */
static bool outside_inputs(enum alu_op op, const struct eval_io *in)
{
	const struct alu_op_info *info = &alu_op_infos[op];
	for (unsigned k = 0; k < info->num_inputs; k++)
		if (is_float_type(info->input_types[k]))
			for (unsigned c = 0; c < NC; c++) {
				unsigned bits = alu_type_bits(info->input_types[k]) ?
						alu_type_bits(info->input_types[k]) : 32;
				if (denormal(in->v[k][c], bits) ||
				    !isfinite(ir_float_from_bits(in->v[k][c], bits)))
					return true;
			}
	return false;
}

/* Every w-bit field of p and q (signed or not) within one. */
static bool fields_close(uint64_t p, uint64_t q, unsigned w, bool sign)
{
	for (unsigned o = 0; o < 32; o += w) {
		int64_t a = (int64_t)((p >> o) & ((1u << w) - 1)), b = (int64_t)((q >> o) & ((1u << w) - 1));
		if (sign) {
			a -= a >> (w - 1) << w;
			b -= b >> (w - 1) << w;
		}
		if (llabs(a - b) > 1)
			return false;
	}
	return true;
}

static bool check_op(const struct lowering *l, unsigned sets, char *msg, size_t n)
{
	static const uint8_t swz[NC] = { 2, 0, 3, 1 };
	struct shader *before = op_shader(l->op, l->bits, swz);
	if (!before) {
		snprintf(msg, n, "no valid shader");
		return false;
	}
	struct shader *after = shader_clone(before);
	bool good = l->pass(after, NULL);
	if (!good)
		snprintf(msg, n, "no progress");
	struct diag d = DIAG_INIT;
	if (good && !ir_validate(after, &d, "after")) {
		snprintf(msg, n, "invalid after: %s", d.text.buf);
		good = false;
	}
	diag_release(&d);
	const struct alu_op_info *info = &alu_op_infos[l->op];
	bool flt = is_float_type(info->output_type);
	unsigned ob = alu_type_bits(info->output_type) ? alu_type_bits(info->output_type) : l->bits;
	unsigned nc = info->output_size ? info->output_size : NC;
	for (unsigned t = 0; good && t < sets; t++) {
		struct eval_io in, x, y;
		random_io(l->op, l->bits, &in);
		if (!eval_straight(before, &in, &x) || !eval_straight(after, &in, &y)) {
			snprintf(msg, n, "cannot evaluate");
			good = false;
			break;
		}
		if (l->cmp == FLUSH && outside_inputs(l->op, &in))
			continue;
		for (unsigned c = 0; c < nc; c++) {
			uint64_t p = x.v[0][c], q = y.v[0][c];
			bool same = same_value(p, q, ob, flt);
			if (!same && l->cmp == CLOSE)
				same = close_value(p, q, ob);
			if (!same && l->cmp == FLUSH && flt)
				same = (denormal(p, ob) && fabs(ir_float_from_bits(q, ob)) <=
								  fabs(ir_float_from_bits(p, ob))) ||
				       !isfinite(ir_float_from_bits(p, ob));
			if (!same && l->cmp == NORM)
				same = fields_close(p, q, l->op == OP_pack_unorm_4x8 ||
							  l->op == OP_pack_snorm_4x8 ? 8 : 16,
						    l->op == OP_pack_snorm_4x8 || l->op == OP_pack_snorm_2x16);
			if (!same) {
				snprintf(msg, n, "component %c: %#llx, %#llx: %#llx before, %#llx after",
					 "xyzw"[c], (unsigned long long)in.v[0][c],
					 (unsigned long long)in.v[1][c], (unsigned long long)p,
					 (unsigned long long)q);
				good = false;
				break;
			}
		}
	}
	shader_free(before);
	shader_free(after);
	return good;
}

/* ---- opt_fuse_ffma: each form fuses, keeps its value (rounded once),
 * and leaves exact adds and multiplies used twice alone ---- */

enum form { PLAIN, NEG, ABS, NEGABS, SUB_MUL_FIRST, SUB_MUL_SECOND, EXACT_ADD, TWO_USES };

static struct shader *fma_shader(enum form f)
{
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	struct builder b;
	builder_init_at_end(&b, s);
	struct ssa_def *zero = b_imm_int(&b, 0), *in[3];
	for (unsigned k = 0; k < 3; k++) {
		struct io_decl *d = shader_add_input(s);
		d->location = (int)k;
		d->num_components = NC;
		d->bit_size = 32;
		d->interp = INTERP_flat;
		in[k] = b_load_input(&b, NC, 32, k, 0, zero);
	}
	unsigned sw[NC] = { 1, 3, 0, 2 };
	struct ssa_def *m = b_fmul(&b, b_swizzle(&b, in[0], sw, NC), in[1]), *r;
	switch (f) {
	case NEG: m = b_fneg(&b, m); break;
	case ABS: m = b_fabs(&b, m); break;
	case NEGABS: m = b_fneg(&b, b_fabs(&b, m)); break;
	default: break;
	}
	if (f == SUB_MUL_FIRST)
		r = b_fsub(&b, m, in[2]);
	else if (f == SUB_MUL_SECOND)
		r = b_fsub(&b, in[2], m);
	else
		r = b_fadd(&b, in[2], m);
	if (f == EXACT_ADD)
		instr_as_alu(r->parent)->exact = true;
	if (f == TWO_USES)
		r = b_fmul(&b, r, m);
	struct io_decl *o = shader_add_output(s);
	o->location = 0;
	o->num_components = NC;
	o->bit_size = 32;
	b_store_output(&b, r, 0, 0, (1u << NC) - 1, zero);
	return s;
}

static void test_fuse_ffma(void)
{
	static const char *names[] = { "fadd(fmul)", "fadd(fneg(fmul))", "fadd(fabs(fmul))",
				       "fadd(fneg(fabs(fmul)))", "fsub(fmul, c)", "fsub(c, fmul)",
				       "an exact fadd", "a fmul used twice" };
	for (unsigned f = PLAIN; f <= TWO_USES; f++) {
		struct shader *before = fma_shader(f), *after = shader_clone(before);
		bool progress = opt_fuse_ffma(after);
		bool want = f != EXACT_ADD && f != TWO_USES;
		bool good = progress == want;
		struct diag d = DIAG_INIT;
		good &= ir_validate(after, &d, "after");
		diag_release(&d);
		for (unsigned t = 0; good && t < 500; t++) {
			struct eval_io in, x, y;
			memset(&in, 0, sizeof(in));
			for (unsigned k = 0; k < 3; k++)
				for (unsigned c = 0; c < NC; c++)
					in.v[k][c] = ir_float_to_bits((double)(int64_t)rnd_below(1 << 16) / 4096.0 - 8.0, 32);
			good = eval_straight(before, &in, &x) && eval_straight(after, &in, &y);
			for (unsigned c = 0; c < NC && good; c++)
				good = close_value(x.v[0][c], y.v[0][c], 32) ||
				       fabs(ir_float_from_bits(x.v[0][c], 32) - ir_float_from_bits(y.v[0][c], 32)) < 1e-5;
		}
		ok(good, "opt_fuse_ffma: %s %s", names[f], want ? "fuses and keeps its value" : "is left alone");
		shader_free(before);
		shader_free(after);
	}
}

int main(void)
{
	test_fuse_ffma();
	rnd_seed_from_env();
	for (unsigned i = 0; i < sizeof(lowerings) / sizeof(*lowerings); i++) {
		const struct lowering *l = &lowerings[i];
		char msg[512] = "";
		if (!ok(check_op(l, 2000, msg, sizeof(msg)), "%s: %u-bit %s keeps its values", l->name,
			l->bits, alu_op_infos[l->op].name))
			tap_diag("%s", msg);
	}
	return done_testing();
}
