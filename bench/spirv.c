/*
 * The SPIR-V reader and the optimisation loop per shader over
 * ../shared/corpus (manifest.tsv): every GLSL/HLSL unit glslang compiles
 * (made into SPIR-V first, untimed) and every precompiled .spv module, in
 * one process.  Phases, each timed alone on the same shader:
 *
 *   spirv->ir   spirv_to_ir(): the module read, inlined, lowered to IR and
 *               validated;
 *   vars-ssa    lower_vars_to_ssa on its output;
 *   opt-loop    the default optimisation loop after it (opt_default),
 *               without validation between passes (as a release build);
 *   total       the three.
 *
 * One line each: shaders, median, p90, p99, total.
 *
 *	benchbin/spirv [CORPUS_DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "compiler/front/front.h"
#include "compiler/opt/opt.h"
#include "compiler/spirv/spirv.h"
#include "compiler/util/file.h"

typedef ARRAY(double) times;

struct module {
	char *name;
	uint32_t *words;
	size_t n;
	enum shader_stage stage;
	char *entry;
};

typedef ARRAY(struct module) module_array;

static void add(module_array *mods, const char *name, const struct spirv_unit *u)
{
	struct module m = { .name = xstrdup(name), .n = u->num_words, .stage = u->stage,
			    .entry = u->entry ? xstrdup(u->entry) : NULL };
	m.words = xmalloc(u->num_words * sizeof(uint32_t));
	memcpy(m.words, u->words, u->num_words * sizeof(uint32_t));
	array_push(mods, m);
}

/* The SPIR-V of every unit the manifest says glslang compiles, and of the
 * precompiled modules. */
static void load(const char *corpus, module_array *mods)
{
	struct strbuf path = STRBUF_INIT, manifest = STRBUF_INIT;
	char *save = NULL;
	strbuf_addf(&path, "%s/manifest.tsv", corpus);
	if (read_file(path.buf, &manifest, NULL) < 0) {
		fprintf(stderr, "spirv bench: no %s\n", path.buf);
		exit(0);
	}
	char *f[9];
	while (manifest_row(manifest.buf, &save, f)) {
		if (atoi(f[7]) == 0)
			continue;
		enum input_kind kind = !strcmp(f[3], "glsl") ? INPUT_GLSL :
				       !strcmp(f[3], "hlsl") ? INPUT_HLSL :
				       !strcmp(f[3], "spv") ? INPUT_SPIRV : INPUT_UNKNOWN;
		if (kind == INPUT_UNKNOWN)
			continue;
		struct strbuf file = STRBUF_INIT, data = STRBUF_INIT;
		strbuf_addf(&file, "%s/%s/%s", corpus, f[0], f[2]);
		*strchr(file.buf + strlen(corpus) + 1, '/') = '-';	/* owner/repo → owner-repo */
		if (read_file(file.buf, &data, NULL) == 0) {
			struct compile_options o;
			struct program prog;
			enum shader_stage stage;
			input_kind_from_path(file.buf, &stage);
			if (stage == STAGE_NONE)
				stage = stage_from_extension(f[4]);
			compile_options_init(&o);
			program_init(&prog, file.buf);
			front_compile(&prog, data.buf, data.len, kind, stage, &o);
			for (size_t i = 0; i < prog.units.len; i++)
				if (prog.units.data[i].status == RESULT_OK)
					add(mods, file.buf, &prog.units.data[i]);
			program_release(&prog);
			compile_options_release(&o);
		}
		strbuf_release(&file);
		strbuf_release(&data);
	}
	strbuf_release(&path);
	strbuf_release(&manifest);
}

int main(int argc, char **argv)
{
	const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
	module_array mods = ARRAY_INIT;
	times reader = ARRAY_INIT, ssa = ARRAY_INIT, loop = ARRAY_INIT, total = ARRAY_INIT;
	unsigned failed = 0;

	if (!is_directory(corpus)) {
		printf("spirv bench: %s is absent; skipped\n", corpus);
		return 0;
	}
	load(corpus, &mods);
	for (size_t i = 0; i < mods.len; i++) {
		const struct module *m = &mods.data[i];
		struct diag d = DIAG_INIT;
		struct spirv_options so = { .entry = m->entry, .stage = m->stage };
		double t0 = now_ms();
		struct shader *s = spirv_to_ir(m->words, m->n, &so, m->name, &d);
		double t1 = now_ms();
		if (!s) {
			failed++;
			diag_release(&d);
			continue;
		}
		struct pipeline pl;
		bool progress = false;
		pipeline_init(&pl, s, &d, m->name);
		pl.validate = false;
		PASS(progress, &pl, lower_vars_to_ssa);
		double t2 = now_ms();
		opt_default(&pl);
		double t3 = now_ms();
		(void)progress;
		array_push(&reader, t1 - t0);
		array_push(&ssa, t2 - t1);
		array_push(&loop, t3 - t2);
		array_push(&total, t3 - t0);
		pipeline_release(&pl);
		shader_free(s);
		diag_release(&d);
	}
	printf("SPIR-V -> IR and the optimisation loop per shader over %s (%u modules failed):\n",
	       corpus, failed);
	report_times("spirv->ir", "shaders", reader.data, reader.len);
	report_times("vars-ssa", "shaders", ssa.data, ssa.len);
	report_times("opt-loop", "shaders", loop.data, loop.len);
	report_times("total", "shaders", total.data, total.len);
	for (size_t i = 0; i < mods.len; i++) {
		free(mods.data[i].name);
		free(mods.data[i].words);
		free(mods.data[i].entry);
	}
	array_free(&mods);
	array_free(&reader);
	array_free(&ssa);
	array_free(&loop);
	array_free(&total);
	return 0;
}
