/*
 * The front end's cost per shader over ../shared/corpus (manifest.tsv), in
 * one process as a runner worker sees it:
 *
 *   glslang    GLSL/HLSL → SPIR-V (front_compile(): preparation, glslang,
 *              retries), every source unit, second pass (glslang's built-in
 *              tables built by the first);
 *   cold       the first pass, with those tables being built;
 *   prepare    source_prepare() alone: includes, legacy rewrite, mode guess;
 *   spirv-as   SPIR-V assembly files;
 *   spirv-dis  disassembling what glslang made (--emit=spirv).
 *
 * One line each: units, median, p90, p99, total.
 *
 *	benchbin/front [CORPUS_DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "compiler/front/front.h"
#include "compiler/front/source.h"
#include "compiler/util/file.h"

struct unit {
	char *path, *stages;
	enum input_kind kind;
	struct strbuf data;
};

typedef ARRAY(double) times;
typedef ARRAY(struct unit) unit_array;

static void load(const char *corpus, unit_array *units)
{
	struct strbuf path = STRBUF_INIT, manifest = STRBUF_INIT;
	char *save = NULL;

	strbuf_addf(&path, "%s/manifest.tsv", corpus);
	if (read_file(path.buf, &manifest, NULL) < 0) {
		fprintf(stderr, "front bench: no %s\n", path.buf);
		exit(0);
	}
	char *f[9];
	while (manifest_row(manifest.buf, &save, f)) {
		if (atoi(f[6]) == 0)
			continue;
		enum input_kind kind = !strcmp(f[3], "glsl") ? INPUT_GLSL :
				       !strcmp(f[3], "hlsl") ? INPUT_HLSL :
				       !strcmp(f[3], "spvasm") ? INPUT_SPVASM : INPUT_UNKNOWN;
		if (kind == INPUT_UNKNOWN)
			continue;
		struct unit *u = array_push_zero(units);
		struct strbuf file = STRBUF_INIT;
		strbuf_addf(&file, "%s/%s/%s", corpus, f[0], f[2]);
		*strchr(file.buf + strlen(corpus) + 1, '/') = '-';	/* owner/repo → owner-repo */
		u->path = strbuf_detach(&file, NULL);
		u->stages = xstrdup(f[4]);
		u->kind = kind;
		strbuf_init(&u->data);
		if (read_file(u->path, &u->data, NULL) < 0)
			units->len--;
	}
	strbuf_release(&path);
	strbuf_release(&manifest);
}

static enum shader_stage stage_of(const struct unit *u)
{
	enum shader_stage s;
	input_kind_from_path(u->path, &s);
	return s != STAGE_NONE ? s : stage_from_extension(u->stages);
}

/* One front_compile() of `u`; its time, and (when `dis`) the disassembly's. */
static double compile(const struct unit *u, double *dis)
{
	struct compile_options o;
	struct program p;
	enum input_kind kind = u->kind == INPUT_HLSL || u->kind == INPUT_SPVASM ? u->kind : INPUT_GLSL;

	compile_options_init(&o);
	program_init(&p, u->path);
	double start = now_ms();
	front_compile(&p, u->data.buf, u->data.len, kind, stage_of(u), &o);
	double t = now_ms() - start;
	if (dis && p.units.len && p.units.data[0].status == RESULT_OK) {
		struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
		start = now_ms();
		spirv_disassemble(p.units.data[0].words, p.units.data[0].num_words, &text, &err);
		*dis = now_ms() - start;
		strbuf_release(&text);
		strbuf_release(&err);
	}
	program_release(&p);
	compile_options_release(&o);
	return t;
}

static double prepare(const struct unit *u)
{
	struct compile_options o;
	struct prepared_source ps;
	struct diag d = DIAG_INIT;

	compile_options_init(&o);
	double start = now_ms();
	source_prepare(u->path, u->data.buf, u->data.len, 1, stage_of(u),
		       u->kind == INPUT_HLSL || source_looks_like_hlsl(u->data.buf, u->data.len),
		       MULTI_NONE, &o, &ps, &d);
	double t = now_ms() - start;
	prepared_source_release(&ps);
	diag_release(&d);
	compile_options_release(&o);
	return t;
}

int main(int argc, char **argv)
{
	const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
	unit_array units = ARRAY_INIT;
	times cold = ARRAY_INIT, warm = ARRAY_INIT, prep = ARRAY_INIT, as = ARRAY_INIT;
	times dis = ARRAY_INIT;

	if (!is_directory(corpus)) {
		printf("front bench: %s is absent; skipped\n", corpus);
		return 0;
	}
	load(corpus, &units);
	for (size_t i = 0; i < units.len; i++) {
		const struct unit *u = &units.data[i];
		double d = -1, t = compile(u, u->kind == INPUT_SPVASM ? NULL : &d);
		array_push(u->kind == INPUT_SPVASM ? &as : &cold, t);
		if (d >= 0)
			array_push(&dis, d);
	}
	for (size_t i = 0; i < units.len; i++) {
		const struct unit *u = &units.data[i];
		if (u->kind != INPUT_SPVASM) {
			array_push(&warm, compile(u, NULL));
			array_push(&prep, prepare(u));
		}
	}
	printf("front end per shader over %s, one process:\n", corpus);
	report_times("glslang", "units", warm.data, warm.len);
	report_times("cold", "units", cold.data, cold.len);
	report_times("prepare", "units", prep.data, prep.len);
	report_times("spirv-as", "units", as.data, as.len);
	report_times("spirv-dis", "units", dis.data, dis.len);

	for (size_t i = 0; i < units.len; i++) {
		free(units.data[i].path);
		free(units.data[i].stages);
		strbuf_release(&units.data[i].data);
	}
	array_free(&units);
	array_free(&cold);
	array_free(&warm);
	array_free(&prep);
	array_free(&as);
	array_free(&dis);
	return 0;
}
