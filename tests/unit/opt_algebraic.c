/*
 * Every rule of the algebraic table, one at a time.  For each rule and
 * each pair of bit sizes (the root's, and that of inner comparisons and
 * conversions) that gives a valid shader, build an instance of the search
 * pattern — variables read two components of four-component inputs (or
 * constants meeting their conditions) through different swizzles — and
 * check that:
 *   - the rule fires (algebraic_apply) and leaves valid IR;
 *   - on random inputs with ±0, ±inf, NaN, denormals and integer extremes,
 *     the result has the folder's bits (NaNs alike), or for an inexact rule
 *     a close value whenever the original result is finite and the inputs
 *     are of moderate size (0, or 2^-8 to 64 in magnitude);
 *   - an inexact rule does not fire on an exact instruction;
 *   - no earlier rule of the same opcode catches the instance first (a
 *     rule that can never fire is dead weight in the table);
 *   - the whole pass, run on the instance, settles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/opt/algebraic.h"
#include "compiler/opt/opt.h"
#include "opt_eval.h"
#include "tap.h"

#define NC 2		/* components of every instance */
#define INPUT_SETS 48

static const uint8_t var_swz[ALGEBRAIC_MAX_VARS][NC] = { { 1, 0 }, { 3, 2 }, { 0, 3 }, { 2, 1 } };
static const unsigned sizes[] = { 1, 8, 16, 32, 64 };

struct gen {
	struct shader *s;
	struct builder b;
	const struct algebraic_rule *rule;
	unsigned n, m;
	struct ssa_def *vars[ALGEBRAIC_MAX_VARS];
	int var_input[ALGEBRAIC_MAX_VARS];	/* input index, -1 for constants */
	unsigned var_bits[ALGEBRAIC_MAX_VARS];
	bool var_float[ALGEBRAIC_MAX_VARS];
	unsigned num_inputs;
	bool failed;
	struct alu_instr *root;
};

struct value {
	struct ssa_def *def;
	uint8_t swz[NC];
};

static uint64_t const_value(const struct algebraic_rule *r, enum var_cond cond, unsigned bits,
			    bool is_float)
{
	if (r->cond == RC_SHIFTS_FIT)
		return rnd_below(8);
	/* a regrouping's constants of a moderate magnitude, as its inputs
	 * (inputs_moderate()): ka * kc overflowing where kc * b did not is
	 * what `reassoc` allows */
	if (r->reassoc && is_float && bits >= 16) {
		double v = (double)(16 + rnd_below(4096)) / 256.0;
		return ir_float_to_bits(rnd_below(2) ? -v : v, bits);
	}
	switch (cond) {
	case VC_POW2:
		return (uint64_t)1 << rnd_below(bits);
	case VC_POS_POW2:
		return bits > 1 ? (uint64_t)1 << rnd_below(bits - 1) : 0;
	case VC_NEG_POW2:
		return mask_to((uint64_t)0 - ((uint64_t)1 << rnd_below(bits)), bits);
	case VC_FPOW2_RCP: {
		int range = bits == 16 ? 14 : bits == 32 ? 126 : 1022;
		double v = ldexp(1.0, (int)rnd_below(2 * range + 1) - range);
		return ir_float_to_bits(rnd_below(2) ? -v : v, bits);
	}
	case VC_NOT_NAN:
		for (;;) {
			uint64_t v = rnd_float(bits);
			if (!isnan(ir_float_from_bits(v, bits)))
				return v;
		}
	default:
		return is_float && bits >= 16 ? rnd_float(bits) : rnd_int(bits);
	}
}

static struct ssa_def *make_var(struct gen *g, const struct pnode *n, unsigned bits, bool is_float)
{
	unsigned v = n->var;
	g->var_bits[v] = bits;
	g->var_float[v] = is_float && bits >= 16;
	g->var_input[v] = -1;
	if (n->cond != VC_ANY && n->cond != VC_NOT_CONST) {
		uint64_t values[4];
		for (unsigned c = 0; c < 4; c++)
			values[c] = const_value(g->rule, n->cond, bits, is_float);
		return b_const(&g->b, 4, bits, values);
	}
	struct io_decl *in = shader_add_input(g->s);
	in->location = (int)g->num_inputs;
	in->num_components = 4;
	in->bit_size = bits < 16 ? 32 : bits;	/* stage I/O has 16 bits or more */
	in->interp = INTERP_flat;
	g->var_input[v] = (int)g->num_inputs;
	struct ssa_def *x = b_load_input(&g->b, 4, in->bit_size, g->num_inputs++, 0,
					 b_imm_int(&g->b, 0));
	if (bits == 1)
		x = b_i2b1(&g->b, b_iand(&g->b, x, b_imm_int(&g->b, 1)));
	else if (bits == 8)
		x = b_u2u8(&g->b, x);
	return x;
}

static struct value gen_value(struct gen *g, const struct pnode *n, unsigned want, bool is_float,
			      bool root);

static struct value gen_op(struct gen *g, const struct pnode *n, unsigned want, bool root)
{
	const struct alu_op_info *info = &alu_op_infos[n->op];
	unsigned out_bits = alu_type_bits(info->output_type);
	unsigned u;
	if (!out_bits)
		out_bits = u = root ? g->n : want;
	else
		u = root ? g->n : g->m;
	struct alu_instr *alu = alu_instr_create(g->s, n->op);
	for (unsigned k = 0; k < info->num_inputs; k++) {
		unsigned w = alu_type_bits(info->input_types[k]);
		bool f = alu_type_base(info->input_types[k]) == BASE_float;
		struct value v = gen_value(g, n->src[k], w ? w : u, f, false);
		if (g->failed)
			return v;
		src_init(&alu->src[k].src, &alu->instr, v.def);
		memcpy(alu->src[k].swizzle, v.swz, NC);
	}
	ssa_def_init(&alu->instr, &alu->def, NC, out_bits);
	b_insert(&g->b, &alu->instr);
	if (root)
		g->root = alu;
	return (struct value){ &alu->def, { 0, 1 } };
}

static struct value gen_value(struct gen *g, const struct pnode *n, unsigned want, bool is_float,
			      bool root)
{
	struct value v = { NULL, { 0, 0 } };
	switch (n->kind) {
	case PN_OP:
		return gen_op(g, n, want, root);
	case PN_VAR: {
		unsigned bits = n->bits ? n->bits : want;
		if (!g->vars[n->var])
			g->vars[n->var] = make_var(g, n, bits, is_float);
		v.def = g->vars[n->var];
		memcpy(v.swz, var_swz[n->var], NC);
		return v;
	}
	case PN_FLOAT:
		if (want < 16) {
			g->failed = true;
			return v;
		}
		v.def = b_imm_floatN(&g->b, n->f, want);
		return v;
	default:
		v.def = b_imm_intN(&g->b, n->i, want);
		return v;
	}
}

/* An instance of the rule's search pattern at sizes n (root) and m (inner),
 * or NULL when those sizes make no valid shader. */
static struct shader *instance(struct gen *g, const struct algebraic_rule *r, unsigned n,
			       unsigned m)
{
	memset(g, 0, sizeof(*g));
	g->rule = r;
	g->n = n;
	g->m = m;
	g->s = shader_create(STAGE_FRAGMENT, "main");
	g->s->info.algebraic_bitops = true;	/* every rule may fire */
	builder_init_at_end(&g->b, g->s);
	struct value root = gen_value(g, r->search, n, false, true);
	struct diag d = DIAG_INIT;
	if (!g->failed) {
		struct ssa_def *out = root.def;
		if (out->bit_size == 1)
			out = b_b2i32(&g->b, out);
		else if (out->bit_size == 8)
			out = b_u2u32(&g->b, out);
		struct io_decl *o = shader_add_output(g->s);
		o->location = 0;
		o->num_components = NC;
		o->bit_size = out->bit_size;
		b_store_output(&g->b, out, 0, 0, (1u << NC) - 1, b_imm_int(&g->b, 0));
	}
	if (g->failed || !ir_validate(g->s, &d, "instance")) {
		shader_free(g->s);
		g->s = NULL;
	}
	diag_release(&d);
	return g->s;
}

static void random_inputs(struct gen *g, struct eval_io *in)
{
	memset(in, 0, sizeof(*in));
	for (unsigned v = 0; v < ALGEBRAIC_MAX_VARS; v++) {
		if (!g->vars[v] || g->var_input[v] < 0)
			continue;
		unsigned bits = g->var_bits[v] < 16 ? 32 : g->var_bits[v];
		for (unsigned c = 0; c < 4; c++)
			in->v[g->var_input[v]][c] = g->var_float[v] ? rnd_float(bits) : rnd_int(bits);
	}
}

/* Whether every float input is 0 or of a magnitude in [2^-8, 64]: an
 * inexact rule is only held to close values there, where no intermediate
 * overflows, underflows or cancels. */
static bool inputs_moderate(struct gen *g, const struct eval_io *in)
{
	for (unsigned v = 0; v < ALGEBRAIC_MAX_VARS; v++) {
		if (!g->vars[v] || !g->var_float[v] || g->var_input[v] < 0)
			continue;
		for (unsigned c = 0; c < 4; c++) {
			double x = fabs(ir_float_from_bits(in->v[g->var_input[v]][c], g->var_bits[v]));
			if (x != 0 && !(x >= 1.0 / 256 && x <= 64))
				return false;
		}
	}
	return true;
}

/* A regrouped chain (a rule marked reassoc) is held to the operands'
 * scale: (a + b) + c and (a + c) + b may differ by a rounding of the
 * largest operand when a and b cancel, and a product of three small
 * halves may underflow in one grouping only. */
static bool close_regrouped(struct gen *g, const struct eval_io *in, uint64_t x, uint64_t y,
			    unsigned bits)
{
	double scale = 0;
	for (unsigned v = 0; v < ALGEBRAIC_MAX_VARS; v++) {
		if (!g->vars[v] || !g->var_float[v] || g->var_input[v] < 0)
			continue;
		for (unsigned c = 0; c < 4; c++)
			scale = fmax(scale, fabs(ir_float_from_bits(in->v[g->var_input[v]][c],
								     g->var_bits[v])));
	}
	double a = ir_float_from_bits(x, bits), b = ir_float_from_bits(y, bits);
	if (close_value(x, y, bits))
		return true;
	return isfinite(a) && isfinite(b) &&
	       fabs(a - b) <= (bits == 16 ? 2e-2 : 1e-3) * fmax(scale, fmax(fabs(a), fabs(b)));
}

/* The instruction of a clone defining value `index` (the root's). */
static struct alu_instr *find_root(struct shader *s, unsigned index)
{
	foreach_block(b, s->fn)
		foreach_instr(i, b)
			if (i->type == INSTR_alu && instr_as_alu(i)->def.index == index)
				return instr_as_alu(i);
	BUG("no value %u", index);
}

/* The first rule of the table that fires on the instance's root. */
static const struct algebraic_rule *first_match(struct shader *s, unsigned root)
{
	for (unsigned r = 0; r < num_algebraic_rules; r++) {
		struct shader *c = shader_clone(s);
		bool applied;
		algebraic_apply(find_root(c, root), &algebraic_rules[r], &applied);
		shader_free(c);
		if (applied)
			return &algebraic_rules[r];
	}
	return NULL;
}

struct rule_stats {
	unsigned instances, fired, wrong, exact_fired, first, shadowed_by, unsettled;
	char msg[256];
};

static void check_values(struct gen *g, struct shader *before, struct shader *after,
			 struct rule_stats *st)
{
	const struct alu_op_info *info = &alu_op_infos[g->rule->search->op];
	bool is_float = alu_type_base(info->output_type) == BASE_float;
	unsigned bits = g->root->def.bit_size;
	/* an inexact rule on a typeless root (bcsel) selects floats */
	for (unsigned v = 0; v < ALGEBRAIC_MAX_VARS; v++)
		is_float |= g->rule->inexact && bits >= 16 && g->vars[v] && g->var_float[v];
	for (unsigned t = 0; t < INPUT_SETS; t++) {
		struct eval_io in, x, y;
		random_inputs(g, &in);
		if (!eval_straight(before, &in, &x) || !eval_straight(after, &in, &y)) {
			st->wrong++;
			snprintf(st->msg, sizeof(st->msg), "cannot evaluate");
			return;
		}
		for (unsigned c = 0; c < NC; c++) {
			uint64_t p = x.v[0][c], q = y.v[0][c];
			bool good = same_value(p, q, bits < 16 ? 32 : bits, is_float);
			if (!good && g->rule->inexact && is_float) {
				double o = ir_float_from_bits(p, bits);
				good = !isfinite(o) || !inputs_moderate(g, &in) ||
				       (g->rule->reassoc ? close_regrouped(g, &in, p, q, bits)
							 : close_value(p, q, bits));
			}
			if (!good && !st->wrong++)
				snprintf(st->msg, sizeof(st->msg),
					 "%u/%u bits, component %u: %#llx before, %#llx after", g->n, g->m,
					 c, (unsigned long long)p, (unsigned long long)q);
		}
	}
}

static void check_instance(struct gen *g, struct rule_stats *st)
{
	const struct algebraic_rule *r = g->rule;
	struct shader *before = shader_clone(g->s);
	struct diag d = DIAG_INIT;

	const struct algebraic_rule *first = first_match(g->s, g->root->def.index);
	if (first == r)
		st->first++;
	else if (first)
		st->shadowed_by = first->line;
	if (r->inexact) {
		struct shader *c = shader_clone(g->s);
		bool applied;
		struct alu_instr *root = find_root(c, g->root->def.index);
		root->exact = true;
		algebraic_apply(root, r, &applied);
		st->exact_fired += applied;
		shader_free(c);
	}
	struct shader *whole = shader_clone(g->s);
	struct pipeline pl;
	pipeline_init(&pl, whole, &d, "instance");
	pl.validate = pl.check_progress = true;
	bool progress = false;
	for (unsigned k = 0; k < 4; k++)
		PASS(progress, &pl, opt_algebraic);
	(void)progress;
	st->unsettled += pl.failed;
	pipeline_release(&pl);
	shader_free(whole);

	bool applied;
	algebraic_apply(g->root, r, &applied);
	if (applied) {
		st->fired++;
		if (!ir_validate(g->s, &d, "after")) {
			st->wrong++;
			snprintf(st->msg, sizeof(st->msg), "invalid IR: %.200s", d.text.buf);
		} else {
			check_values(g, before, g->s, st);
		}
	}
	diag_release(&d);
	shader_free(before);
}

static void check_rule(const struct algebraic_rule *r)
{
	struct rule_stats st;
	memset(&st, 0, sizeof(st));
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		for (unsigned j = 0; j < sizeof(sizes) / sizeof(*sizes); j++) {
			for (unsigned attempt = 0; attempt < 4; attempt++) {
				struct gen g;
				if (!instance(&g, r, sizes[i], sizes[j]))
					break;
				st.instances++;
				check_instance(&g, &st);
				shader_free(g.s);
			}
		}
	}
	if (!ok(st.fired > 0 && !st.wrong, "rule at algebraic_rules.c:%u: fires on %u of %u instances, "
		"keeps the values", r->line, st.fired, st.instances))
		tap_diag("%s", st.msg);
	if (r->inexact)
		ok(!st.exact_fired, "rule at algebraic_rules.c:%u: inexact, so not on exact instructions",
		   r->line);
	if (!ok(st.first, "rule at algebraic_rules.c:%u: reachable: the first to fire on %u instances",
		r->line, st.first))
		tap_diag("the rule at line %u fires first", st.shadowed_by);
	ok(!st.unsettled, "rule at algebraic_rules.c:%u: the pass keeps its instances valid", r->line);
}

int main(void)
{
	rnd_seed_from_env();
	ok(num_algebraic_rules >= 150, "%u rules", num_algebraic_rules);
	for (unsigned r = 0; r < num_algebraic_rules; r++)
		check_rule(&algebraic_rules[r]);
	return done_testing();
}
