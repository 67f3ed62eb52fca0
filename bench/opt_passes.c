/*
 * Costs of the optimisation passes (compiler/opt) on generated fragment
 * shaders shaped like real ones: UBO matrix products, normalisations, a
 * small counted loop sampling a texture, if/else on computed conditions,
 * constant arithmetic, identities, repeated expressions and dead code.
 *
 *  1. every registered pass alone on a large shader (about 20 000
 *     instructions): milliseconds and nanoseconds per instruction, the
 *     median of a few runs on fresh clones;
 *  2. the whole default pipeline (the optimisation loop, sinking, DCE,
 *     renumbering; no validation, as in a release build) per shader, on
 *     shaders of 100 to 1 500 instructions: the median and 90th
 *     percentile per shader, against glslang's own parse of a real shader
 *     (a median of about 0.7 ms on these machines, ../shared/DESIGN.md);
 *  3. the default pipeline on the hand-written IR files of tests/ (small
 *     shaders, as most real ones are).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"
#include "compiler/util/file.h"

#define RUNS 5

/* ---- the generator ---- */

static struct ssa_def *ubo_vec4(struct builder *b, unsigned offset)
{
	return b_load_ubo(b, 4, 32, b_imm_int(b, 0), b_imm_int(b, (int64_t)offset));
}

/* One round of typical work on `v`, returning the new value. */
static struct ssa_def *round_of_work(struct builder *b, struct ssa_def *v, struct ssa_def *uv,
				     unsigned i)
{
	/* a matrix from the UBO times v (the loads repeat: CSE) */
	struct ssa_def *m = b_fmul(b, ubo_vec4(b, 0), b_channel(b, v, 0));
	for (unsigned c = 1; c < 4; c++)
		m = b_ffma(b, ubo_vec4(b, 16 * c), b_channel(b, v, c), m);
	/* normalise */
	struct ssa_def *n3 = b_swizzle(b, m, (const unsigned[]){ 0, 1, 2 }, 3);
	struct ssa_def *len = b_frsq(b, b_fdot3(b, n3, n3));
	struct ssa_def *n = b_fmul(b, n3, len);
	/* identities and constant arithmetic */
	struct ssa_def *one = b_imm_float(b, 1.0), *nzero = b_imm_float(b, -0.0);
	struct ssa_def *k = b_fmul(b, b_imm_float(b, 0.5), b_imm_float(b, (double)(i % 7)));
	struct ssa_def *x = b_fadd(b, b_fmul(b, n, one), nzero);
	x = b_fmul(b, x, k);
	/* a counted loop sampling a texture: unrolled */
	struct ssa_def *start = b_imm_int(b, 0);
	struct cf_loop *loop = b_push_loop(b);
	struct phi_instr *iv = b_phi(b, cf_loop_header(loop), 1, 32);
	struct phi_instr *acc = b_phi(b, cf_loop_header(loop), 4, 32);
	struct block *pre = cf_as_block(cf_node_prev(&loop->cf));
	phi_add_src(iv, pre, start);
	phi_add_src(acc, pre, m);
	struct cf_if *brk = b_push_if(b, b_ige(b, &iv->def, b_imm_int(b, 4)));
	b_break(b);
	b_pop_if(b, brk);
	struct ssa_def *off = b_fmul(b, b_i2f32(b, &iv->def), b_imm_float(b, 0.125));
	struct ssa_def *coord = b_fadd(b, uv, off);
	struct tex_desc td = { .op = TEX_OP_tex, .dim = DIM_2d };
	struct tex_src_desc ts = { TEX_SRC_coord, coord };
	struct ssa_def *t = b_tex(b, &td, &ts, 1);
	struct ssa_def *next = b_ffma(b, t, b_channel(b, x, i % 3), &acc->def);
	struct block *latch = cf_list_last_block(&loop->body);
	phi_add_src(acc, latch, next);
	phi_add_src(iv, latch, b_iadd(b, &iv->def, b_imm_int(b, 1)));
	b_pop_loop(b, loop);
	/* an if/else on a computed condition: flattened */
	struct cf_if *nif = b_push_if(b, b_flt(b, b_channel(b, &acc->def, 0), b_channel(b, x, 1)));
	struct ssa_def *a = b_fadd(b, &acc->def, m);
	b_push_else(b, nif);
	struct ssa_def *e = b_fsub(b, &acc->def, m);
	b_pop_if(b, nif);
	struct ssa_def *r = b_if_phi(b, nif, a, e);
	/* dead code and a repeated expression */
	b_fmul(b, b_fadd(b, r, m), b_fdot4(b, r, r));
	return b_fadd(b, r, b_fmul(b, b_fdot4(b, r, r), b_imm_float(b, 0.25)));
}

static struct shader *generate(unsigned rounds)
{
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	struct io_decl *in = shader_add_input(s), *in2 = shader_add_input(s);
	struct io_decl *out = shader_add_output(s);
	in->location = out->location = 0;
	in2->location = 1;
	in->num_components = out->num_components = 4;
	in2->num_components = 2;
	in->bit_size = in2->bit_size = out->bit_size = 32;
	struct buffer_decl *ubo = shader_add_ubo(s);
	ubo->size = 256;
	struct resource_decl *tex = shader_add_texture(s), *smp = shader_add_sampler(s);
	tex->dim = DIM_2d;
	tex->type = BASE_float;
	tex->combined = smp->combined = true;
	struct builder b;
	builder_init_at_end(&b, s);
	struct ssa_def *zero = b_imm_int(&b, 0);
	struct ssa_def *v = b_load_input(&b, 4, 32, 0, 0, zero);
	struct ssa_def *uv = b_load_input(&b, 2, 32, 1, 0, zero);
	for (unsigned i = 0; i < rounds; i++)
		v = round_of_work(&b, v, uv, i);
	b_store_output(&b, v, 0, 0, 0xf, zero);
	return s;
}

static unsigned count_instrs(struct shader *s)
{
	unsigned n = 0;
	foreach_block(b, s->fn)
		foreach_instr(i, b)
			n++;
	return n;
}

static bool valid(struct shader *s)
{
	struct diag d = DIAG_INIT;
	bool v = ir_validate(s, &d, "generated");
	if (!v)
		printf("invalid:\n%s", d.text.buf);
	diag_release(&d);
	return v;
}

/* ---- 1. each pass on a large shader ---- */

static bool per_pass(void)
{
	struct shader *s = generate(400);
	unsigned instrs = count_instrs(s);
	if (!valid(s))
		return false;
	printf("each pass alone on a generated shader of %u instructions (median of %d):\n",
	       instrs, RUNS);
	for (unsigned p = 0; p < num_registered_passes; p++) {
		double t[RUNS];
		bool progress = false;
		for (int r = 0; r < RUNS; r++) {
			struct shader *c = shader_clone(s);
			double t0 = now_ms();
			progress = pass_registry[p].fn(c);
			t[r] = now_ms() - t0;
			shader_free(c);
		}
		qsort(t, RUNS, sizeof(*t), cmp_double);
		printf("  %-22s %8.3f ms %7.0f ns/instr%s\n", pass_registry[p].name, t[RUNS / 2],
		       t[RUNS / 2] * 1e6 / instrs, progress ? "" : "  (no progress)");
	}
	shader_free(s);
	return true;
}

/* ---- 2. the default pipeline per shader ---- */

struct pass_total {
	const char *name;
	uint64_t ns;
	unsigned runs, progress;
};

static void add_times(struct pass_total *tot, unsigned *n, const struct pipeline *pl)
{
	for (size_t i = 0; i < pl->times.len; i++) {
		const struct pass_time *t = &pl->times.data[i];
		unsigned k = 0;
		while (k < *n && strcmp(tot[k].name, t->name))
			k++;
		if (k == *n)
			tot[(*n)++] = (struct pass_total){ t->name, 0, 0, 0 };
		tot[k].ns += t->ns;
		tot[k].runs += t->runs;
		tot[k].progress += t->progress;
	}
}

static bool whole_pipeline(void)
{
	enum { SHADERS = 40 };
	double t[SHADERS];
	unsigned in_total = 0, out_total = 0, rounds_max = 0;
	struct pass_total tot[64];
	unsigned num_tot = 0;
	uint64_t all_ns = 0;
	for (unsigned k = 0; k < SHADERS; k++) {
		unsigned rounds = 1 + k % 20;	/* about 75 to 1 500 instructions */
		struct shader *s = generate(rounds);
		if (!valid(s))
			return false;
		in_total += count_instrs(s);
		struct diag d = DIAG_INIT;
		struct pipeline pl;
		double best = 1e30;
		for (int r = 0; r < 3; r++) {
			struct shader *c = shader_clone(s);
			pipeline_init(&pl, c, &d, "generated");
			pl.validate = false;
			double t0 = now_ms();
			opt_default(&pl);
			double ms = now_ms() - t0;
			best = ms < best ? ms : best;
			if (r == 0) {
				out_total += count_instrs(c);
				/* a separate run for the breakdown: timing each pass costs */
				struct shader *c2 = shader_clone(s);
				struct pipeline pl2;
				pipeline_init(&pl2, c2, &d, "generated");
				pl2.validate = false;
				pl2.time_passes = true;
				opt_default(&pl2);
				add_times(tot, &num_tot, &pl2);
				pipeline_release(&pl2);
				shader_free(c2);
			}
			pipeline_release(&pl);
			shader_free(c);
		}
		t[k] = best;
		rounds_max = rounds > rounds_max ? rounds : rounds_max;
		diag_release(&d);
		shader_free(s);
	}
	qsort(t, SHADERS, sizeof(*t), cmp_double);
	printf("the default pipeline per shader, %d shaders of %u to %u rounds "
	       "(%u instructions in, %u out in all):\n", SHADERS, 1, rounds_max, in_total, out_total);
	printf("  median %.3f ms, p90 %.3f ms, max %.3f ms per shader "
	       "(glslang's parse: about 0.7 ms)\n", t[SHADERS / 2], t[SHADERS * 9 / 10], t[SHADERS - 1]);
	for (unsigned k = 0; k < num_tot; k++)
		all_ns += tot[k].ns;
	printf("  where the time goes (all shaders, runs with progress / runs):\n");
	for (unsigned k = 0; k < num_tot; k++)
		printf("    %-22s %5.1f%%  %3u/%u\n", tot[k].name, 100.0 * tot[k].ns / all_ns,
		       tot[k].progress, tot[k].runs);
	return true;
}

/* ---- 3. the default pipeline on the hand-written IR files of tests/ ---- */

static void scan(const char *dir, char ***files, size_t *n)
{
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		char path[4096];
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (len > 3 && !strcmp(e->d_name + len - 3, ".ir")) {
			*files = xrealloc(*files, (*n + 1) * sizeof(**files));
			(*files)[(*n)++] = xstrdup(path);
		} else if (is_directory(path)) {
			scan(path, files, n);
		}
	}
	if (d)
		closedir(d);
}

static void test_files(const char *root)
{
	char **files = NULL;
	size_t n = 0, used = 0;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/tests/ir", root);
	scan(dir, &files, &n);
	snprintf(dir, sizeof(dir), "%s/tests/isel", root);
	scan(dir, &files, &n);
	double *t = xmalloc((n ? n : 1) * sizeof(*t));
	unsigned instrs = 0;
	for (size_t i = 0; i < n; i++) {
		struct strbuf text = STRBUF_INIT;
		struct diag d = DIAG_INIT;
		struct shader *s = NULL;
		if (read_file(files[i], &text, NULL) >= 0)
			s = ir_parse(files[i], text.buf, text.len, &d);
		if (s && ir_validate(s, &d, files[i])) {
			double best = 1e30;
			instrs += count_instrs(s);
			for (int r = 0; r < RUNS; r++) {
				struct shader *c = shader_clone(s);
				struct pipeline pl;
				pipeline_init(&pl, c, &d, files[i]);
				pl.validate = false;
				double t0 = now_ms();
				opt_default(&pl);
				double ms = now_ms() - t0;
				best = ms < best ? ms : best;
				pipeline_release(&pl);
				shader_free(c);
			}
			t[used++] = best;
		}
		shader_free(s);
		diag_release(&d);
		strbuf_release(&text);
		free(files[i]);
	}
	free(files);
	if (!used) {
		printf("no IR files under %s/tests\n", root);
		free(t);
		return;
	}
	qsort(t, used, sizeof(*t), cmp_double);
	printf("the default pipeline on the %zu IR files of tests/ir and tests/isel "
	       "(%u instructions in all):\n  median %.3f ms, p90 %.3f ms, max %.3f ms per shader\n",
	       used, instrs, t[used / 2], t[used * 9 / 10], t[used - 1]);
	free(t);
}

int main(void)
{
	const char *root = getenv("SHDB_SRCDIR");
	bool ok = per_pass();
	ok &= whole_pipeline();
	test_files(root ? root : ".");
	return ok ? 0 : 1;
}
