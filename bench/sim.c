/*
 * The differential test's cost per shader (compiler/ir3/sim,
 * compiler/exec), in process, over every STEP-th unit of a corpus: each
 * unit compiled for each target with the test of EXEC_DEFAULT_SEEDS seeds,
 * then per target over the units the simulator ran, the median, p90 and
 * total in ms of
 *
 *	sim     the simulator's runs (all seeds)
 *	interp  the interpreter's runs (the first target of a unit pays them:
 *	        the others reuse the cached runs of the same wave size)
 *	whole   the whole compile, test included
 *
 *	sim CORPUS_DIR MANIFEST [TARGETS] [STEP]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "compiler/compile.h"
#include "compiler/exec/exec_check.h"
#include "compiler/target.h"
#include "compiler/util/array.h"
#include "compiler/util/strbuf.h"
#include "runner/inputs.h"
#include "runner/manifest.h"

struct times {
	ARRAY(double) sim, interp, whole;
	unsigned agree, differ, cannot;
};

/* The options `shdb run --verify-exec` gives one file (its manifest row). */
static void options_of(const struct job *j, struct compile_options *o, struct arena *a)
{
	const struct manifest_entry *e = j->m;
	compile_options_init(o);
	o->kind = e ? e->kind : INPUT_UNKNOWN;
	o->stage = j->stage;
	o->entry = e ? e->entry : NULL;
	o->exec_seeds = EXEC_DEFAULT_SEEDS;
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

static void tally(struct times *tm, const struct compile_result *res)
{
	switch (res->exec) {
	case EXEC_AGREE: case EXEC_AGREE_LOWERED: tm->agree++; break;
	case EXEC_DIFFER: tm->differ++; break;
	case EXEC_CANNOT_RUN: tm->cannot++; return;
	default: return;
	}
	array_push(&tm->sim, res->exec_sim_us / 1e3);
	array_push(&tm->interp, res->exec_interp_us / 1e3);
	array_push(&tm->whole, res->time_us / 1e3);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: sim CORPUS_DIR MANIFEST [TARGETS] [STEP]\n");
		return 2;
	}
	const char *list = argc > 3 ? argv[3] : "a306,a530,a630,a750";
	unsigned step = argc > 4 ? (unsigned)atoi(argv[4]) : 10;
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
	size_t files = 0, seen = 0;
	for (size_t k = 0; k < in.jobs.len; k++) {
		const struct job *j = &in.jobs.data[k];
		if (j->skip != SKIP_NONE || seen++ % (step ? step : 1))
			continue;
		struct arena a = ARENA_INIT;
		struct compile_options o;
		struct compile_output out;
		options_of(j, &o, &a);
		compile_output_init(&out);
		compile_file(j->path, &o, targets, nt, &out);
		for (size_t r = 0; r < out.results.len; r++)
			for (size_t t = 0; t < nt; t++)
				if (out.results.data[r].target == targets[t])
					tally(&tm[t], &out.results.data[r]);
		compile_output_release(&out);
		compile_options_release(&o);
		arena_release(&a);
		files++;
	}

	printf("%zu files (every %u-th), %d seeds; per shader and target, in ms\n", files, step,
	       EXEC_DEFAULT_SEEDS);
	for (size_t t = 0; t < nt; t++) {
		printf("%s: %u agree, %u differ, %u the simulator cannot run\n", targets[t]->name,
		       tm[t].agree, tm[t].differ, tm[t].cannot);
		report_times("  sim", "units", tm[t].sim.data, tm[t].sim.len);
		report_times("  interp", "units", tm[t].interp.data, tm[t].interp.len);
		report_times("  whole", "units", tm[t].whole.data, tm[t].whole.len);
		array_free(&tm[t].sim);
		array_free(&tm[t].interp);
		array_free(&tm[t].whole);
	}
	free(tm);
	free(l);
	inputs_release(&in);
	manifest_release(&m);
	strbuf_release(&err);
	return 0;
}
