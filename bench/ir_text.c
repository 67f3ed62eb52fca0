/*
 * Costs of the IR's infrastructure on generated shaders (about 1200 and 15k
 * instructions in ifs and loops): parse, validate, print, clone and the
 * analyses.  Prints one line per step with milliseconds and nanoseconds per
 * instruction (the median of a few runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "compiler/ir/builder.h"

#define RUNS 5

/* A fragment shader: `n` rounds of arithmetic, an if/else with a phi and a
 * small counted loop. */
static struct shader *generate(unsigned n)
{
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	struct io_decl *in = shader_add_input(s), *out = shader_add_output(s);
	in->location = out->location = 0;
	in->num_components = out->num_components = 4;
	in->bit_size = out->bit_size = 32;
	struct builder b;
	builder_init_at_end(&b, s);
	struct ssa_def *zero = b_imm_int(&b, 0), *one = b_imm_int(&b, 1);
	struct ssa_def *v = b_load_input(&b, 4, 32, 0, 0, zero);
	for (unsigned i = 0; i < n; i++) {
		struct ssa_def *w = b_ffma(&b, v, b_channel(&b, v, i % 4), b_imm_float(&b, i));
		for (int k = 0; k < 8; k++)
			w = b_fadd(&b, b_fmul(&b, w, v), w);
		struct cf_if *nif = b_push_if(&b, b_flt(&b, b_channel(&b, w, 0), b_imm_float(&b, 0)));
		struct ssa_def *t = b_fneg(&b, w);
		b_push_else(&b, nif);
		struct ssa_def *e = b_fabs(&b, w);
		b_pop_if(&b, nif);
		v = b_if_phi(&b, nif, t, e);
		struct cf_loop *loop = b_push_loop(&b);
		struct phi_instr *iv = b_phi(&b, cf_loop_header(loop), 1, 32);
		phi_add_src(iv, cf_as_block(cf_node_prev(&loop->cf)), zero);
		struct cf_if *brk = b_push_if(&b, b_ige(&b, &iv->def, b_imm_int(&b, 4)));
		b_break(&b);
		b_pop_if(&b, brk);
		phi_add_src(iv, cf_list_last_block(&loop->body), b_iadd(&b, &iv->def, one));
		b_pop_loop(&b, loop);
	}
	b_store_output(&b, v, 0, 0, 0xf, zero);
	return s;
}

static void report(const char *what, double *ms, unsigned instrs)
{
	qsort(ms, RUNS, sizeof(*ms), cmp_double);
	printf("%-22s %8.2f ms  %6.0f ns/instr\n", what, ms[RUNS / 2], ms[RUNS / 2] * 1e6 / instrs);
}

static bool bench(unsigned rounds)
{
	struct shader *s = generate(rounds);
	char *text = ir_print_string(s);
	size_t len = strlen(text);
	struct diag d = DIAG_INIT;
	metadata_require(s->fn, META_INSTR_INDEX);
	unsigned instrs = s->fn->num_instrs;
	double t[RUNS];

	printf("generated shader: %u instructions, %zu bytes of text\n", instrs, len);
#define TIME(what, setup, body, teardown) \
	for (int r = 0; r < RUNS; r++) { \
		setup; \
		double t0 = now_ms(); \
		body; \
		t[r] = now_ms() - t0; \
		teardown; \
	} \
	report(what, t, instrs)

	struct shader *p = NULL;
	TIME("parse", , p = ir_parse("big.ir", text, len, &d), shader_free(p));
	bool valid = true;
	TIME("validate", , valid &= ir_validate(s, &d, "big.ir"), );
	char *out = NULL;
	TIME("print", , out = ir_print_string(s), free(out));
	struct shader *c = NULL;
	TIME("clone", , c = shader_clone(s), shader_free(c));
	TIME("dominance", metadata_invalidate(s->fn, META_ALL), calc_dominance(s->fn), );
	TIME("liveness", metadata_require(s->fn, META_BLOCK_INDEX), calc_liveness(s->fn), );
	TIME("loop analysis", , calc_loop_analysis(s->fn), );
	if (!valid)
		printf("the generated shader is invalid:\n%s", d.text.buf);
	free(text);
	shader_free(s);
	diag_release(&d);
	return valid;
}

int main(void)
{
	bool ok = bench(40);	/* a large real shader */
	ok &= bench(500);	/* far beyond any: how the costs scale */
	return ok ? 0 : 1;
}
