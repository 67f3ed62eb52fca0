/*
 * Random programs through every pass.  A generator builds fragment shaders
 * of random arithmetic (floats, integers, booleans, vectors, conversions,
 * division by constants and by variables), ifs with phis, counted loops
 * (constant or input-dependent trip counts, loop-carried values, early
 * breaks, continues, nesting), early returns, UBO loads and discard_if.
 * Every registered pass, a few pipelines and the default pipeline then
 * run on each with validation and progress checks, and the interpreter
 * (compiler/ir/interp.h) must find the same results before and after on
 * random inputs, within the tolerance the pass declares (pipelines: the
 * loosest of the registry, as tests/unit/ir_equiv.c).
 *
 * SHDB_TEST_SEED picks other programs; SHDB_FUZZ_PROGRAMS sets how many.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/exec/exec_check.h"
#include "compiler/ir/interp.h"
#include "compiler/opt/opt.h"
#include "compiler/util/array.h"
#include "opt_eval.h"	/* random numbers */
#include "tap.h"

#define PROGRAMS 250
#define SEEDS 12
#define STEP_LIMIT 200000

typedef ARRAY(struct ssa_def *) def_array;

struct fz {
	struct shader *s;
	struct builder b;
	def_array f, i, c;		/* float, integer and boolean scalars in scope */
	unsigned depth, budget;
};

static struct ssa_def *pick(def_array *a)
{
	return a->data[rnd_below((unsigned)a->len)];
}

static struct ssa_def *fconst(struct fz *z)
{
	static const double v[] = { 0.0, -0.0, 1.0, -1.0, 2.0, 0.5, 3.0, 0.25, 8.0 };
	return b_imm_float(&z->b, v[rnd_below(sizeof(v) / sizeof(*v))]);
}

static struct ssa_def *iconst(struct fz *z)
{
	static const int64_t v[] = { 0, 1, -1, 2, 3, 4, 7, 8, 16, 31, 32, 0x7fffffff, -0x7fffffff - 1 };
	return b_imm_int(&z->b, v[rnd_below(sizeof(v) / sizeof(*v))]);
}

static struct ssa_def *fval(struct fz *z)
{
	return rnd_below(4) ? pick(&z->f) : fconst(z);
}

static struct ssa_def *ival(struct fz *z)
{
	return rnd_below(4) ? pick(&z->i) : iconst(z);
}

static struct ssa_def *cval(struct fz *z)
{
	return rnd_below(8) ? pick(&z->c) : b_imm_bool(&z->b, rnd_below(2));
}

static void float_op(struct fz *z)
{
	static const enum alu_op un[] = { OP_fneg, OP_fabs, OP_ffloor, OP_fceil, OP_ffract, OP_fsat,
					  OP_fsign, OP_ftrunc, OP_fround_even };
	static const enum alu_op bin[] = { OP_fadd, OP_fsub, OP_fmul, OP_fmin, OP_fmax, OP_fadd,
					   OP_fmul, OP_fmod };
	struct builder *b = &z->b;
	struct ssa_def *r;
	switch (rnd_below(6)) {
	case 0: r = b_alu(b, un[rnd_below(sizeof(un) / sizeof(*un))], fval(z), NULL, NULL, NULL); break;
	case 1: r = b_ffma(b, fval(z), fval(z), fval(z)); break;
	case 2: r = b_flrp(b, fval(z), fval(z), fval(z)); break;
	case 3: r = b_bcsel(b, cval(z), fval(z), fval(z)); break;
	case 4: {
		struct ssa_def *v = b_vec4(b, fval(z), fval(z), fval(z), fval(z));
		struct ssa_def *w = b_fmul(b, v, b_vec4(b, fval(z), fval(z), fval(z), fval(z)));
		r = rnd_below(2) ? b_fdot4(b, v, w) : b_channel(b, w, rnd_below(4));
		break;
	}
	default:
		r = b_alu(b, bin[rnd_below(sizeof(bin) / sizeof(*bin))], fval(z), fval(z), NULL, NULL);
		break;
	}
	array_push(&z->f, r);
}

static void int_op(struct fz *z)
{
	static const enum alu_op bin[] = { OP_iadd, OP_isub, OP_imul, OP_iand, OP_ior, OP_ixor,
					   OP_ishl, OP_ushr, OP_ishr, OP_imin, OP_imax, OP_umin,
					   OP_umax, OP_idiv, OP_udiv, OP_irem, OP_imod, OP_umod,
					   OP_iadd, OP_imul };
	static const enum alu_op un[] = { OP_ineg, OP_inot, OP_iabs, OP_isign };
	struct builder *b = &z->b;
	struct ssa_def *r;
	switch (rnd_below(5)) {
	case 0: r = b_alu(b, un[rnd_below(4)], ival(z), NULL, NULL, NULL); break;
	case 1: r = b_bcsel(b, cval(z), ival(z), ival(z)); break;
	case 2: r = rnd_below(2) ? b_f2i32(b, fval(z)) : b_b2i32(b, cval(z)); break;
	default:
		r = b_alu(b, bin[rnd_below(sizeof(bin) / sizeof(*bin))], ival(z), ival(z), NULL, NULL);
		break;
	}
	array_push(&z->i, r);
}

static void bool_op(struct fz *z)
{
	static const enum alu_op fcmp[] = { OP_flt, OP_fge, OP_feq, OP_fneu, OP_fltu, OP_fgeu };
	static const enum alu_op icmp[] = { OP_ilt, OP_ige, OP_ieq, OP_ine, OP_ult, OP_uge };
	static const enum alu_op logic[] = { OP_iand, OP_ior, OP_ixor };
	struct builder *b = &z->b;
	struct ssa_def *r;
	switch (rnd_below(4)) {
	case 0: r = b_alu(b, fcmp[rnd_below(6)], fval(z), fval(z), NULL, NULL); break;
	case 1: r = b_alu(b, icmp[rnd_below(6)], ival(z), ival(z), NULL, NULL); break;
	case 2: r = rnd_below(3) ? b_alu(b, logic[rnd_below(3)], cval(z), cval(z), NULL, NULL)
			 : b_inot(b, cval(z)); break;
	default: r = b_ine(b, b_iand(b, ival(z), b_imm_int(b, 1)), b_imm_int(b, 0)); break;
	}
	array_push(&z->c, r);
}

static void conversion(struct fz *z)
{
	struct builder *b = &z->b;
	switch (rnd_below(4)) {
	case 0: array_push(&z->f, b_i2f32(b, ival(z))); break;
	case 1: array_push(&z->f, b_u2f32(b, ival(z))); break;
	case 2: array_push(&z->f, b_b2f32(b, cval(z))); break;
	default: array_push(&z->f, b_load_ubo(b, 1, 32, b_imm_int(b, 0),
					     b_imul(b, b_iand(b, ival(z), b_imm_int(b, 7)),
						    b_imm_int(b, 4))));
		break;
	}
}

static void statements(struct fz *z, unsigned n);

struct pools {
	size_t f, i, c;
};

static struct pools enter(struct fz *z)
{
	return (struct pools){ z->f.len, z->i.len, z->c.len };
}

static void leave(struct fz *z, struct pools s)
{
	z->f.len = s.f;
	z->i.len = s.i;
	z->c.len = s.c;
}

static void if_else(struct fz *z)
{
	struct builder *b = &z->b;
	struct cf_if *nif = b_push_if(b, cval(z));
	struct pools s = enter(z);
	z->depth++;
	statements(z, rnd_below(4));
	struct ssa_def *tf = fval(z), *ti = ival(z);
	struct ssa_def *tv = b_vec4(b, fval(z), fval(z), fval(z), fval(z));
	leave(z, s);
	b_push_else(b, nif);
	if (!rnd_below(3))
		statements(z, rnd_below(3));
	struct ssa_def *ef = fval(z), *ei = ival(z);
	struct ssa_def *ev = b_vec4(b, fval(z), fval(z), fval(z), fval(z));
	leave(z, s);
	z->depth--;
	b_pop_if(b, nif);
	array_push(&z->f, b_if_phi(b, nif, tf, ef));
	array_push(&z->i, b_if_phi(b, nif, ti, ei));
	/* a vector phi, read one component at a time */
	struct ssa_def *v = b_if_phi(b, nif, tv, ev);
	array_push(&z->f, b_fdot4(b, v, v));
	array_push(&z->f, b_channel(b, v, rnd_below(4)));
}

static void loop(struct fz *z)
{
	struct builder *b = &z->b;
	struct ssa_def *limit = rnd_below(2) ? b_imm_int(b, rnd_below(6))
				: b_iand(b, ival(z), b_imm_int(b, 3));
	struct ssa_def *start = b_imm_int(b, rnd_below(2));
	struct ssa_def *f0 = fval(z), *i0 = ival(z);
	struct cf_loop *loop = b_push_loop(b);
	struct block *pre = cf_as_block(cf_node_prev(&loop->cf));
	struct block *header = cf_loop_header(loop);
	struct phi_instr *iv = b_phi(b, header, 1, 32);
	struct phi_instr *facc = b_phi(b, header, 1, 32);
	struct phi_instr *iacc = b_phi(b, header, 1, 32);
	phi_add_src(iv, pre, start);
	phi_add_src(facc, pre, f0);
	phi_add_src(iacc, pre, i0);

	struct pools s = enter(z);
	array_push(&z->i, &iv->def);
	array_push(&z->f, &facc->def);
	array_push(&z->i, &iacc->def);
	struct cf_if *term = b_push_if(b, b_ige(b, &iv->def, limit));
	b_break(b);
	b_pop_if(b, term);
	struct ssa_def *next = b_iadd(b, &iv->def, b_imm_int(b, 1));
	if (!rnd_below(4)) {
		/* a continue: the counter has moved on, the rest stay */
		struct cf_if *cont = b_push_if(b, cval(z));
		struct block *from = cf_list_last_block(&cont->then_list);
		b_continue(b);
		b_pop_if(b, cont);
		phi_add_src(iv, from, next);
		phi_add_src(facc, from, &facc->def);
		phi_add_src(iacc, from, &iacc->def);
	}
	z->depth++;
	statements(z, 1 + rnd_below(4));
	if (!rnd_below(4)) {
		struct cf_if *early = b_push_if(b, cval(z));
		b_break(b);
		b_pop_if(b, early);
	}
	struct ssa_def *fn = fval(z), *in = ival(z);
	z->depth--;
	struct block *latch = cf_list_last_block(&loop->body);
	phi_add_src(iv, latch, next);
	phi_add_src(facc, latch, fn);
	phi_add_src(iacc, latch, in);
	leave(z, s);
	b_pop_loop(b, loop);
	array_push(&z->f, &facc->def);
	array_push(&z->i, &iacc->def);
	array_push(&z->i, &iv->def);
}

/* if (c) { store something; return } */
static void early_return(struct fz *z)
{
	struct builder *b = &z->b;
	struct cf_if *nif = b_push_if(b, cval(z));
	struct ssa_def *v = b_vec4(b, fval(z), fval(z), fval(z), fval(z));
	b_store_output(b, v, 0, 0, 0xf, b_imm_int(b, 0));
	b_return(b);
	b_pop_if(b, nif);
}

static void statements(struct fz *z, unsigned n)
{
	for (unsigned k = 0; k < n && z->budget; k++) {
		z->budget--;
		unsigned r = rnd_below(20);
		if (r < 6)
			float_op(z);
		else if (r < 11)
			int_op(z);
		else if (r < 14)
			bool_op(z);
		else if (r < 16)
			conversion(z);
		else if (r < 18 && z->depth < 3)
			if_else(z);
		else if (r < 19 && z->depth < 2)
			loop(z);
		else if (!rnd_below(4))
			b_discard_if(&z->b, b_flt(&z->b, fval(z), b_imm_float(&z->b, -3.5)));
		else if (!rnd_below(6) && z->depth == 0)
			early_return(z);
	}
}

static struct shader *generate(void)
{
	struct fz z;
	memset(&z, 0, sizeof(z));
	z.s = shader_create(STAGE_FRAGMENT, "main");
	z.budget = 12 + rnd_below(40);
	for (unsigned k = 0; k < 2; k++) {
		struct io_decl *in = shader_add_input(z.s), *out = shader_add_output(z.s);
		in->location = out->location = (int)k;
		in->num_components = out->num_components = 4;
		in->bit_size = out->bit_size = 32;
		in->interp = INTERP_flat;
	}
	shader_add_ubo(z.s)->size = 64;
	builder_init_at_end(&z.b, z.s);
	struct ssa_def *zero = b_imm_int(&z.b, 0);
	struct ssa_def *fin = b_load_input(&z.b, 4, 32, 0, 0, zero);
	struct ssa_def *iin = b_load_input(&z.b, 4, 32, 1, 0, zero);
	for (unsigned c = 0; c < 4; c++) {
		array_push(&z.f, b_channel(&z.b, fin, c));
		array_push(&z.i, b_channel(&z.b, iin, c));
	}
	array_push(&z.c, b_flt(&z.b, z.f.data[0], z.f.data[1]));
	statements(&z, z.budget);
	struct ssa_def *fo = b_vec4(&z.b, pick(&z.f), pick(&z.f), pick(&z.f), pick(&z.f));
	struct ssa_def *io = b_vec4(&z.b, pick(&z.i), pick(&z.i), pick(&z.i), pick(&z.i));
	b_store_output(&z.b, fo, 0, 0, 0xf, zero);
	b_store_output(&z.b, io, 1, 0, 0xf, zero);
	array_free(&z.f);
	array_free(&z.i);
	array_free(&z.c);
	return z.s;
}

/* Whether the comma-separated `list` names the pass `name`. */
static bool names_pass(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* The loosest tolerance of the registry, for pipelines (as ir_equiv.c);
 * tame inputs only if the pipeline (`list`; NULL: the default one, which has
 * no such pass) runs a pass compared on them alone. */
static struct interp_tolerance loosest(const char *list)
{
	struct interp_tolerance t = exec_tolerance();
	for (unsigned i = 0; list && i < num_registered_passes; i++)
		if (pass_registry[i].tolerance.moderate_inputs && names_pass(list, pass_registry[i].name))
			t.moderate_inputs = true;
	return t;
}

struct stats {
	unsigned runs, failures;
	char first[1024];
};

/* SHDB_FUZZ_DUMP=FILE: the first failing program of each check goes there. */
static void record_failure(struct stats *st, const char *what, unsigned prog, const char *why,
			   struct shader *s)
{
	if (st->failures++)
		return;
	snprintf(st->first, sizeof(st->first), "program %u, %s: %s", prog, what, why);
	const char *dump = getenv("SHDB_FUZZ_DUMP");
	FILE *f = dump ? fopen(dump, "a") : NULL;
	if (f) {
		char *text = ir_print_string(s);
		fprintf(f, "# program %u, %s\n%s\n", prog, what, text);
		free(text);
		fclose(f);
	}
}

/* Run a list of passes (NULL: the default pipeline) and compare with the
 * interpreter, within `tol`. */
static void check(struct shader *s, struct interp_baseline *base, const char *list,
		  const struct interp_tolerance *tol, unsigned prog, struct stats *st)
{
	struct shader *c = shader_clone(s);
	struct diag d = DIAG_INIT;
	struct pipeline pl;
	pipeline_init(&pl, c, &d, "fuzz");
	pl.validate = pl.check_progress = true;
	if (list)
		pipeline_run_list(&pl, list);
	else
		opt_default(&pl);
	st->runs++;
	const char *what = list ? list : "the default pipeline";
	if (pl.failed) {
		record_failure(st, what, prog, d.text.buf, s);
	} else {
		struct strbuf why = STRBUF_INIT;
		if (!interp_baseline_check(base, c, tol, &why, NULL))
			record_failure(st, what, prog, why.buf, s);
		strbuf_release(&why);
	}
	pipeline_release(&pl);
	diag_release(&d);
	shader_free(c);
}

int main(void)
{
	static const char *const pipelines[] = {
		"lower_alu_to_scalar,lower_phis_to_scalar,opt_copy_prop,opt_cse,opt_dce",
		"opt_peephole_select,opt_loop_unroll,opt_dead_cf,opt_remove_phis,opt_dce",
		"lower_idiv,lower_isign,lower_fsign,lower_flrp,lower_fmod,lower_ffract,opt_algebraic,"
		"opt_constant_folding,opt_sink",
	};
	const char *n_env = getenv("SHDB_FUZZ_PROGRAMS");
	unsigned programs = n_env && atoi(n_env) > 0 ? (unsigned)atoi(n_env) : PROGRAMS;
	struct stats per_pass[64], pipes[4];
	unsigned skipped = 0;
	memset(per_pass, 0, sizeof(per_pass));
	memset(pipes, 0, sizeof(pipes));
	rnd_seed_from_env();

	for (unsigned prog = 0; prog < programs; prog++) {
		struct shader *s = generate();
		struct diag d = DIAG_INIT;
		if (!ir_validate(s, &d, "generated")) {
			ok(false, "program %u is valid", prog);
			tap_diag("%s", d.text.buf);
			diag_release(&d);
			shader_free(s);
			continue;
		}
		diag_release(&d);
		struct interp_baseline *base = interp_baseline_create(s, SEEDS, STEP_LIMIT);
		struct interp_equiv_stats est;
		struct strbuf why = STRBUF_INIT;
		bool usable = interp_baseline_check(base, s, NULL, &why, &est) && est.compared;
		strbuf_release(&why);
		if (!usable) {
			skipped++;
		} else {
			for (unsigned p = 0; p < num_registered_passes; p++)
				check(s, base, pass_registry[p].name, &pass_registry[p].tolerance, prog,
				      &per_pass[p]);
			for (unsigned k = 0; k < 3; k++) {
				struct interp_tolerance loose = loosest(pipelines[k]);
				check(s, base, pipelines[k], &loose, prog, &pipes[k]);
			}
			struct interp_tolerance loose = loosest(NULL);
			check(s, base, NULL, &loose, prog, &pipes[3]);
		}
		interp_baseline_free(base);
		shader_free(s);
	}

	for (unsigned p = 0; p < num_registered_passes; p++) {
		if (!ok(!per_pass[p].failures, "%s on %u random programs", pass_registry[p].name,
			per_pass[p].runs))
			tap_diag("%u failures; first: %s", per_pass[p].failures, per_pass[p].first);
	}
	for (unsigned k = 0; k < 4; k++)
		if (!ok(!pipes[k].failures, "%s on %u random programs",
			k < 3 ? pipelines[k] : "the default pipeline", pipes[k].runs))
			tap_diag("%u failures; first: %s", pipes[k].failures, pipes[k].first);
	ok(skipped < programs / 10, "%u of %u programs could not be evaluated", skipped, programs);
	return done_testing();
}
