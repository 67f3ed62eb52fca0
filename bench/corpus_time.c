/*
 * Compile time per shader and target over a corpus, in process: every unit
 * of every file the manifest names (as `shdb run` would compile it) for
 * every target, once, then per target the median and p90 over the units
 * that compiled of
 *
 *	whole    front end, optimisation and this target's backend
 *	spirv    the same from SPIR-V in: whole less the source's translation
 *	         to SPIR-V (glslang for GLSL and HLSL), as Mesa's figures
 *	         start from SPIR-V
 *	backend  the backend's lowering, selection and machine pipeline alone
 *	/glslang of the units glslang made (GLSL, HLSL, .shader_test), the
 *	         median per unit of spirv over glslang's own time for the same
 *	         source in the same run (issue 14 asks for under a third)
 *
 * in milliseconds, beside Mesa 24.3's own figures for the same units when
 * the reference TSV is given (its inproc_ms and backend_ms columns: ir3's
 * GPUs 306 … 740 are our a306 …, etnaviv's GC2000 … our gc2000 …).
 *
 *	corpus_time CORPUS_DIR MANIFEST [MESA_TSV] [TARGETS]
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bench/bench.h"
#include "compiler/compile.h"
#include "compiler/target.h"
#include "compiler/util/array.h"
#include "compiler/util/strbuf.h"
#include "runner/inputs.h"
#include "runner/manifest.h"

struct times {
	ARRAY(double) whole, spirv, backend, vs_glslang;
};

static double pct(double *v, size_t n, unsigned p)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	size_t k = (n - 1) * p / 100;
	return v[k];
}

/* The options `shdb run` gives one file (its manifest row). */
static void options_of(const struct job *j, struct compile_options *o, struct arena *a)
{
	const struct manifest_entry *e = j->m;
	compile_options_init(o);
	o->kind = e ? e->kind : INPUT_UNKNOWN;
	o->stage = j->stage;
	o->entry = e ? e->entry : NULL;
	if (e && e->glsl_mode != GLSL_MODE_AUTO)
		o->glsl_mode = e->glsl_mode;
	if (e && e->defines) {
		char *d = arena_strndup(a, e->defines, strlen(e->defines));
		for (char *t = strtok(d, " \t"); t; t = strtok(NULL, " \t"))
			array_push(&o->defines, t);
	}
	if (e && e->include_own_dir) {
		const char *slash = strrchr(j->path, '/');
		array_push(&o->include_dirs,
			   slash ? arena_strndup(a, j->path, (size_t)(slash - j->path)) : ".");
	}
}

/* Whether a TSV's gpu field names our target ("630" a630, "GC2000" gc2000). */
static bool same_gpu(const char *field, const char *target)
{
	if (!strcasecmp(field, target))
		return true;
	return target[0] == 'a' && atoi(field) > 0 && atoi(field) == atoi(target + 1);
}

/* Mesa's median and p90 of a column for `gpu` over its ok units. */
static void mesa_figures(const char *tsv, const char *gpu, const char *column, double *med,
			 double *p90)
{
	*med = *p90 = -1;
	FILE *f = fopen(tsv, "r");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0;
	int col = -1, gcol = -1, scol = -1;
	ARRAY(double) v = { 0 };
	for (unsigned n = 0; getline(&line, &cap, f) > 0; n++) {
		line[strcspn(line, "\n")] = 0;
		char *fields[64];
		int nf = 0;
		for (char *p = line, *t; nf < 64 && (t = strsep(&p, "\t"));)
			fields[nf++] = t;
		if (!n) {
			for (int k = 0; k < nf; k++) {
				col = !strcmp(fields[k], column) ? k : col;
				gcol = !strcmp(fields[k], "gpu") ? k : gcol;
				scol = !strcmp(fields[k], "status") ? k : scol;
			}
			if (col < 0 || gcol < 0 || scol < 0)
				break;
			continue;
		}
		if (nf > col && same_gpu(fields[gcol], gpu) && !strcmp(fields[scol], "ok") &&
		    fields[col][0])
			array_push(&v, atof(fields[col]));
	}
	if (v.len) {
		*med = pct(v.data, v.len, 50);
		*p90 = pct(v.data, v.len, 90);
	}
	array_free(&v);
	free(line);
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: corpus_time CORPUS_DIR MANIFEST [MESA_TSV] [TARGETS]\n");
		return 2;
	}
	/* absolute: the compiles run in the corpus folder */
	char *mesa = argc > 3 ? realpath(argv[3], NULL) : NULL;
	const char *list = argc > 4 ? argv[4] : "a306,a420,a530,a618,a630,a660,a690,a730,a740,a750";
	const struct target *targets[32];
	size_t nt = 0;
	char *l = strdup(list);
	for (char *t = strtok(l, ","); t && nt < 32; t = strtok(NULL, ","))
		if (target_find(t))
			targets[nt++] = target_find(t);

	struct manifest m;
	struct inputs in;
	struct strbuf err = STRBUF_INIT;
	if (manifest_load(&m, argv[2], &err) < 0) {
		fprintf(stderr, "%s\n", err.buf);
		return 1;
	}
	memset(&in, 0, sizeof(in));
	char *roots[1] = { argv[1] };
	if (inputs_collect(&in, roots, 1, NULL, &m, NULL, false, &err) < 0) {
		fprintf(stderr, "%s\n", err.buf);
		return 1;
	}
	if (fchdir(in.roots.data[0].dirfd) < 0)
		return 1;

	struct times *tm = calloc(nt, sizeof(*tm));
	size_t files = 0;
	for (size_t k = 0; k < in.jobs.len; k++) {
		const struct job *j = &in.jobs.data[k];
		if (j->skip != SKIP_NONE)
			continue;
		struct arena a = ARENA_INIT;
		struct compile_options o;
		struct compile_output out;
		options_of(j, &o, &a);
		compile_output_init(&out);
		compile_file(j->path, &o, targets, nt, &out);
		enum shader_stage ignored;
		enum input_kind kind = o.kind != INPUT_UNKNOWN ? o.kind
					: input_kind_from_path(j->path, &ignored);
		bool by_glslang = kind == INPUT_GLSL || kind == INPUT_HLSL ||
				  kind == INPUT_SHADER_TEST;
		for (size_t r = 0; r < out.results.len; r++) {
			const struct compile_result *res = &out.results.data[r];
			for (size_t t = 0; t < nt; t++)
				if (res->target == targets[t] && res->status == RESULT_OK) {
					array_push(&tm[t].whole, res->time_us / 1e3);
					array_push(&tm[t].spirv,
						   (res->time_us - res->front_us) / 1e3);
					if (by_glslang && res->front_us)
						array_push(&tm[t].vs_glslang,
							   (double)(res->time_us - res->front_us) /
								   (double)res->front_us);
					array_push(&tm[t].backend, res->backend_us / 1e3);
				}
		}
		compile_output_release(&out);
		compile_options_release(&o);
		arena_release(&a);
		files++;
	}

	printf("%zu files; per shader and target, in ms (units that compiled)\n", files);
	printf("%-6s %6s %10s %10s %10s %10s %11s %11s %9s %10s %10s %11s %11s\n", "gpu", "units",
	       "whole_med", "whole_p90", "spirv_med", "spirv_p90", "backend_med", "backend_p90",
	       "/glslang", "mesa_whole", "mesa_p90", "mesa_backend", "mesa_bk_p90");
	for (size_t t = 0; t < nt; t++) {
		double mw = -1, mw90 = -1, mb = -1, mb90 = -1;
		if (mesa) {
			mesa_figures(mesa, targets[t]->name, "inproc_ms", &mw, &mw90);
			mesa_figures(mesa, targets[t]->name, "backend_ms", &mb, &mb90);
		}
		size_t n = tm[t].whole.len;
		printf("%-6s %6zu %10.3f %10.3f %10.3f %10.3f %11.3f %11.3f", targets[t]->name, n,
		       pct(tm[t].whole.data, n, 50), pct(tm[t].whole.data, n, 90),
		       pct(tm[t].spirv.data, n, 50), pct(tm[t].spirv.data, n, 90),
		       pct(tm[t].backend.data, n, 50), pct(tm[t].backend.data, n, 90));
		printf(" %9.3f", pct(tm[t].vs_glslang.data, tm[t].vs_glslang.len, 50));
		if (mw >= 0)
			printf(" %10.3f %10.3f", mw, mw90);
		if (mb >= 0)
			printf(" %11.3f %11.3f", mb, mb90);
		printf("\n");
		array_free(&tm[t].whole);
		array_free(&tm[t].spirv);
		array_free(&tm[t].vs_glslang);
		array_free(&tm[t].backend);
	}
	free(tm);
	free(l);
	free(mesa);
	inputs_release(&in);
	manifest_release(&m);
	strbuf_release(&err);
	return 0;
}
