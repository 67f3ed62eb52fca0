/*
 * The lowering passes against the opcode table's folder: a shader computes
 * one opcode on stage inputs (four components, every bit size the opcode
 * takes); before and after the lowering it must give the same bits on
 * random inputs with the special values mixed in (NaNs alike) — or, for
 * the passes documented as not exact, close values on moderate inputs.
 * lower_idiv is also checked on every 8-bit pair and on the edges of 16
 * and 32 bits; lower_alu_to_scalar on vectors of every opcode family and
 * with a filter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/opt/opt.h"
#include "opt_eval.h"
#include "tap.h"

#define NC 4

struct lowering {
	const char *name;
	pass_fn pass;
	enum alu_op op;
	bool exact;		/* at 32 and 64 bits; 16-bit floats may round between steps */
	bool half;		/* compare 16-bit results (the quotient of fmod and frem is too coarse) */
};

static const struct lowering lowerings[] = {
	{ "lower_fpow", lower_fpow, OP_fpow, false, true },
	{ "lower_flrp", lower_flrp, OP_flrp, false, true },
	{ "lower_fmod", lower_fmod, OP_fmod, true, false },
	{ "lower_frem", lower_frem, OP_frem, false, false },
	{ "lower_ffract", lower_ffract, OP_ffract, true, true },
	{ "lower_fsign", lower_fsign, OP_fsign, true, true },
	{ "lower_isign", lower_isign, OP_isign, true, true },
	{ "lower_fdiv", lower_fdiv, OP_fdiv, false, true },
	{ "lower_idiv", lower_idiv, OP_idiv, true, true },
	{ "lower_idiv", lower_idiv, OP_udiv, true, true },
	{ "lower_idiv", lower_idiv, OP_irem, true, true },
	{ "lower_idiv", lower_idiv, OP_imod, true, true },
	{ "lower_idiv", lower_idiv, OP_umod, true, true },
	{ "lower_bitfield", lower_bitfield, OP_ubitfield_extract, true, true },
	{ "lower_bitfield", lower_bitfield, OP_ibitfield_extract, true, true },
	{ "lower_bitfield", lower_bitfield, OP_bitfield_insert, true, true },
};

/* A shader storing op(input 0, input 1, …) to output 0, every value of
 * `bits` bits (sized sources as the table says); NULL if that size is not
 * valid for the opcode. */
static struct shader *op_shader(enum alu_op op, unsigned bits, const uint8_t *swz)
{
	const struct alu_op_info *info = &alu_op_infos[op];
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	struct builder b;
	builder_init_at_end(&b, s);
	struct alu_instr *alu = alu_instr_create(s, op);
	struct ssa_def *zero = b_imm_int(&b, 0);
	for (unsigned k = 0; k < info->num_inputs; k++) {
		unsigned sz = alu_type_bits(info->input_types[k]) ? alu_type_bits(info->input_types[k]) : bits;
		struct io_decl *in = shader_add_input(s);
		in->location = (int)k;
		in->num_components = NC;
		in->bit_size = sz < 16 ? 32 : sz;	/* stage I/O has 16 bits or more */
		in->interp = INTERP_flat;
		struct ssa_def *x = b_load_input(&b, NC, in->bit_size, k, 0, zero);
		if (sz == 1)
			x = b_i2b1(&b, b_iand(&b, x, b_imm_int(&b, 1)));
		else if (sz == 8)
			x = b_u2u8(&b, x);
		src_init(&alu->src[k].src, &alu->instr, x);
		for (unsigned c = 0; c < NC; c++)
			alu->src[k].swizzle[c] = swz ? swz[(c + k) % NC] : (uint8_t)c;
	}
	unsigned out_bits = alu_type_bits(info->output_type) ? alu_type_bits(info->output_type) : bits;
	ssa_def_init(&alu->instr, &alu->def, info->output_size ? info->output_size : NC, out_bits);
	b_insert(&b, &alu->instr);
	struct ssa_def *out = &alu->def;
	if (out_bits == 1)
		out = b_b2i32(&b, out);
	else if (out_bits == 8)
		out = b_u2u32(&b, out);
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
		for (unsigned c = 0; c < NC; c++)
			in->v[k][c] = is_float_type(info->input_types[k]) ? rnd_float(sz)
				      : rnd_int(sz < 16 ? 32 : sz);
	}
}

/* Moderate inputs (0 or magnitudes in [1/16, 16]) inside the opcode's
 * domain (pow: a positive base). */
static bool moderate(enum alu_op op, unsigned bits, const struct eval_io *in)
{
	const struct alu_op_info *info = &alu_op_infos[op];
	if (op == OP_fpow)
		for (unsigned c = 0; c < NC; c++)
			if (!(ir_float_from_bits(in->v[0][c], bits) > 0))
				return false;
	for (unsigned k = 0; k < info->num_inputs; k++) {
		if (!is_float_type(info->input_types[k]))
			continue;
		for (unsigned c = 0; c < NC; c++) {
			double x = fabs(ir_float_from_bits(in->v[k][c], bits));
			if (x != 0 && !(x >= 1.0 / 16 && x <= 16))
				return false;
		}
	}
	return true;
}

/* Half floats round between the steps of a lowering: a difference of a
 * few units of the inputs' last place (a - b * floor(a / b) cancels). */
static bool half_close(const struct eval_io *in, uint64_t p, uint64_t q)
{
	double mag = 0;
	for (unsigned k = 0; k < 3; k++)
		for (unsigned c = 0; c < NC; c++)
			mag = fmax(mag, fabs(ir_float_from_bits(in->v[k][c], 16)));
	double a = ir_float_from_bits(p, 16), b = ir_float_from_bits(q, 16);
	return fabs(a - b) <= mag * (1.0 / 256);
}

/* Run `pass` on a shader of `op` and compare on `sets` random input sets. */
static bool check_op(const struct lowering *l, unsigned bits, unsigned sets, char *msg, size_t n)
{
	static const uint8_t swz[NC] = { 2, 0, 3, 1 };
	struct shader *before = op_shader(l->op, bits, swz);
	if (!before)
		return true;
	struct shader *after = shader_clone(before);
	struct diag d = DIAG_INIT;
	struct pipeline pl;
	bool progress = false, good = true;
	pipeline_init(&pl, after, &d, "after");
	pl.validate = pl.check_progress = true;
	pipeline_before_(&pl, l->name);
	progress = pipeline_after_(&pl, l->name, l->pass(after));
	if (pl.failed || (!progress && bits != 64)) {
		snprintf(msg, n, "%u bits: %s", bits, pl.failed ? d.text.buf : "no progress");
		good = false;
	}
	const struct alu_op_info *info = &alu_op_infos[l->op];
	bool flt = is_float_type(info->output_type);
	bool exact = l->exact && !(flt && bits == 16);
	if (flt && bits == 16 && !l->half)
		sets = 0;
	for (unsigned t = 0; good && t < sets; t++) {
		struct eval_io in, x, y;
		random_io(l->op, bits, &in);
		if (!eval_straight(before, &in, &x) || !eval_straight(after, &in, &y)) {
			snprintf(msg, n, "%u bits: cannot evaluate", bits);
			good = false;
			break;
		}
		unsigned ob = alu_type_bits(info->output_type) ? alu_type_bits(info->output_type) : bits;
		for (unsigned c = 0; c < NC; c++) {
			uint64_t p = x.v[0][c], q = y.v[0][c];
			bool same = same_value(p, q, ob, flt);
			if (!same && !exact && flt)
				same = !isfinite(ir_float_from_bits(p, ob)) || !moderate(l->op, bits, &in) ||
				       close_value(p, q, ob) || (bits == 16 && half_close(&in, p, q));
			if (!same) {
				snprintf(msg, n, "%u bits, component %c: %#llx, %#llx before, %#llx after",
					 bits, "xyzw"[c], (unsigned long long)in.v[0][c],
					 (unsigned long long)p, (unsigned long long)q);
				good = false;
				break;
			}
		}
	}
	pipeline_release(&pl);
	diag_release(&d);
	shader_free(before);
	shader_free(after);
	return good;
}

static void test_lowerings(void)
{
	static const unsigned sizes[] = { 8, 16, 32, 64 };
	for (unsigned i = 0; i < sizeof(lowerings) / sizeof(*lowerings); i++) {
		const struct lowering *l = &lowerings[i];
		char msg[512] = "";
		bool good = true;
		for (unsigned k = 0; k < 4 && good; k++)
			good = check_op(l, sizes[k], 400, msg, sizeof(msg));
		if (!ok(good, "%s: %s keeps its values", l->name, alu_op_infos[l->op].name))
			tap_diag("%s", msg);
	}
}

/* ---- lower_idiv on every 8-bit pair and on the edges of 16 and 32 bits ---- */

static bool idiv_pairs(enum alu_op op, unsigned bits, const uint64_t *a, const uint64_t *b,
		       size_t count, char *msg, size_t n)
{
	struct shader *before = op_shader(op, bits, NULL);
	struct shader *after = shader_clone(before);
	bool good = true;
	lower_idiv(after);
	for (size_t i = 0; i < count && good; i += NC) {
		struct eval_io in, x, y;
		memset(&in, 0, sizeof(in));
		for (unsigned c = 0; c < NC; c++) {
			in.v[0][c] = a[(i + c) % count];
			in.v[1][c] = b[(i + c) % count];
		}
		eval_straight(before, &in, &x);
		eval_straight(after, &in, &y);
		for (unsigned c = 0; c < NC && good; c++) {
			if (x.v[0][c] != y.v[0][c]) {
				snprintf(msg, n, "%s %u bits: %#llx, %#llx: %#llx, lowered %#llx",
					 alu_op_infos[op].name, bits, (unsigned long long)in.v[0][c],
					 (unsigned long long)in.v[1][c], (unsigned long long)x.v[0][c],
					 (unsigned long long)y.v[0][c]);
				good = false;
			}
		}
	}
	shader_free(before);
	shader_free(after);
	return good;
}

static const enum alu_op divisions[] = { OP_idiv, OP_udiv, OP_irem, OP_imod, OP_umod };

static void test_idiv_exhaustive8(void)
{
	size_t count = 256 * 256;
	uint64_t *a = malloc(count * sizeof(*a)), *b = malloc(count * sizeof(*b));
	for (size_t i = 0; i < count; i++) {
		a[i] = i & 0xff;
		b[i] = i >> 8;
	}
	for (unsigned k = 0; k < 5; k++) {
		char msg[256] = "";
		if (!ok(idiv_pairs(divisions[k], 8, a, b, count, msg, sizeof(msg)),
			"lower_idiv: %s on every pair of 8-bit values", alu_op_infos[divisions[k]].name))
			tap_diag("%s", msg);
	}
	free(a);
	free(b);
}

/* Values near 0, ±1, powers of two and the extremes, and random ones. */
static size_t edge_values(unsigned bits, uint64_t *out, size_t max)
{
	size_t n = 0;
	for (int d = -3; d <= 3; d++) {
		out[n++] = mask_to((uint64_t)(int64_t)d, bits);
		for (unsigned p = 1; p < bits; p++)
			out[n++] = mask_to(((uint64_t)1 << p) + (uint64_t)(int64_t)d, bits);
	}
	while (n < max)
		out[n++] = rnd_below(3) ? mask_to(rnd64(), bits) : mask_to(rnd64() >> rnd_below(bits), bits);
	return n;
}

static void test_idiv_edges(void)
{
	enum { N = 600 };
	static uint64_t v[N];
	for (unsigned bits = 16; bits <= 32; bits += 16) {
		size_t n = edge_values(bits, v, N);
		uint64_t *a = malloc(n * n * sizeof(*a)), *b = malloc(n * n * sizeof(*b));
		for (size_t i = 0; i < n * n; i++) {
			a[i] = v[i % n];
			b[i] = v[i / n];
		}
		for (unsigned k = 0; k < 5; k++) {
			char msg[256] = "";
			if (!ok(idiv_pairs(divisions[k], bits, a, b, n * n, msg, sizeof(msg)),
				"lower_idiv: %s on %zu pairs of %u-bit edge and random values",
				alu_op_infos[divisions[k]].name, n * n, bits))
				tap_diag("%s", msg);
		}
		free(a);
		free(b);
	}
}

/* ---- lower_bitfield on every offset and count around the value's width ---- */

static void test_bitfield_edges(void)
{
	static const enum alu_op ops[] = { OP_ubitfield_extract, OP_ibitfield_extract,
					   OP_bitfield_insert };
	static const unsigned sizes[] = { 8, 16, 32, 64 };
	for (unsigned k = 0; k < 3; k++) {
		const struct alu_op_info *info = &alu_op_infos[ops[k]];
		unsigned checked = 0, wrong = 0;
		char msg[256] = "";
		for (unsigned si = 0; si < 4; si++) {
			unsigned w = sizes[si];
			struct shader *before = op_shader(ops[k], w, NULL);
			struct shader *after = shader_clone(before);
			lower_bitfield(after);
			unsigned first = info->num_inputs - 2;	/* offset, count */
			for (int o = -2; o <= (int)w + 2; o++) {
				for (int n = -2; n <= (int)w + 2; n += NC) {
					struct eval_io in, x, y;
					memset(&in, 0, sizeof(in));
					for (unsigned c = 0; c < NC; c++) {
						in.v[0][c] = rnd64();
						in.v[1][c] = rnd64();
						in.v[first][c] = mask_to((uint64_t)(int64_t)o, 32);
						in.v[first + 1][c] = mask_to((uint64_t)(int64_t)(n + (int)c), 32);
						for (unsigned v = 0; v < first; v++)
							in.v[v][c] = mask_to(in.v[v][c], w < 16 ? 32 : w);
					}
					eval_straight(before, &in, &x);
					eval_straight(after, &in, &y);
					for (unsigned c = 0; c < NC; c++, checked++) {
						if (x.v[0][c] != y.v[0][c] && !wrong++)
							snprintf(msg, sizeof(msg), "%u bits, offset %d count %d: "
								 "%#llx, lowered %#llx", w, o, n + (int)c,
								 (unsigned long long)x.v[0][c],
								 (unsigned long long)y.v[0][c]);
					}
				}
			}
			shader_free(before);
			shader_free(after);
		}
		if (!ok(!wrong, "lower_bitfield: %s on %u offset and count pairs around 8 to 64 bits",
			info->name, checked))
			tap_diag("%s", msg);
	}
}

/* ---- lower_alu_to_scalar ---- */

/* Whether `op` is left as a vector instruction (or a reduction). */
static bool vector_op_left(struct shader *s, enum alu_op op)
{
	foreach_block(b, s->fn)
		foreach_instr(i, b)
			if (i->type == INSTR_alu && instr_as_alu(i)->op == op &&
			    (instr_as_alu(i)->def.num_components > 1 || alu_op_infos[op].output_size))
				return true;
	return false;
}

/* Lower `op` at `bits` with `filter`; *lowered: the opcode is gone. */
static bool scalar_check(enum alu_op op, unsigned bits, alu_scalar_filter_fn filter,
			 bool *lowered)
{
	static const uint8_t swz[NC] = { 3, 1, 0, 2 };
	struct shader *before = op_shader(op, bits, swz);
	*lowered = false;
	if (!before)
		return true;
	struct shader *after = shader_clone(before);
	struct diag d = DIAG_INIT;
	lower_alu_to_scalar_filter(after, filter, NULL);
	*lowered = !vector_op_left(after, op);
	bool good = ir_validate(after, &d, "after");
	const struct alu_op_info *info = &alu_op_infos[op];
	unsigned ob = alu_type_bits(info->output_type) ? alu_type_bits(info->output_type) : bits;
	for (unsigned t = 0; good && t < 64; t++) {
		struct eval_io in, x, y;
		random_io(op, bits, &in);
		good = eval_straight(before, &in, &x) && eval_straight(after, &in, &y);
		for (unsigned c = 0; c < NC && good; c++)
			good = same_value(x.v[0][c], y.v[0][c], ob, is_float_type(info->output_type));
	}
	diag_release(&d);
	shader_free(before);
	shader_free(after);
	return good;
}

static bool no_float_filter(const struct alu_instr *alu, const void *data)
{
	(void)data;
	return alu_type_base(alu_op_infos[alu->op].output_type) != BASE_float;
}

static void test_scalar(void)
{
	static const unsigned sizes[] = { 1, 8, 16, 32, 64 };
	unsigned checked = 0, lowered_count = 0, wrong = 0, filtered_wrong = 0;
	char msg[256] = "";
	for (unsigned op = 0; op < OP_COUNT; op++) {
		if (alu_op_infos[op].num_inputs > 4)
			continue;
		for (unsigned k = 0; k < 5; k++) {
			bool lowered, lowered_f;
			if (!scalar_check((enum alu_op)op, sizes[k], NULL, &lowered)) {
				if (!wrong++)
					snprintf(msg, sizeof(msg), "%s at %u bits", alu_op_infos[op].name, sizes[k]);
			}
			checked++;
			lowered_count += lowered;
			if (!scalar_check((enum alu_op)op, sizes[k], no_float_filter, &lowered_f))
				filtered_wrong++;
			if (lowered_f && lowered &&
			    alu_type_base(alu_op_infos[op].output_type) == BASE_float)
				filtered_wrong++;
		}
	}
	if (!ok(!wrong, "lower_alu_to_scalar keeps the values of every opcode at every size "
		"(%u lowered of %u)", lowered_count, checked))
		tap_diag("first wrong: %s", msg);
	ok(!filtered_wrong, "lower_alu_to_scalar_filter leaves what the filter keeps");
}

int main(void)
{
	rnd_seed_from_env();
	test_lowerings();
	test_idiv_exhaustive8();
	test_idiv_edges();
	test_bitfield_edges();
	test_scalar();
	return done_testing();
}
