/*
 * The SPIR-V reader against golden files: every source in tests/spirv
 * (GLSL of any stage, SPIR-V assembly, .shader_test programs) is compiled
 * to IR as `shdb compile --emit=ir --passes=P` would (P: lower_vars_to_ssa,
 * or the contents of NAME.passes) and compared with NAME.EXT.expected; each
 * stage's IR must then parse back to the same text, validate, and — for
 * fragment and compute shaders — run in the interpreter without an
 * instruction it lacks.  A stage that fails leaves "; STAGE: error: …" in
 * the expected file instead.  SHDB_UPDATE_GOLDENS=1 rewrites the expected
 * files.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile.h"
#include "compiler/ir/interp.h"
#include "compiler/ir/ir.h"
#include "compiler/util/file.h"
#include "tap.h"

#define GOLDEN_DIR "tests/spirv"

static bool is_source(const char *name)
{
	static const char *const ext[] = {
		".vert", ".frag", ".comp", ".geom", ".tesc", ".tese", ".spvasm", ".shader_test",
		".rgen", ".rchit", ".rmiss", ".mesh", ".task",
	};
	const char *dot = strrchr(name, '.');
	for (size_t i = 0; dot && i < sizeof(ext) / sizeof(*ext); i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

/* The stage's IR parses back to itself, validates and runs. */
static void check_ir(const char *name, const struct compile_result *r)
{
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse(name, r->ir, strlen(r->ir), &d);
	if (!ok(s && ir_validate(s, &d, name), "%s: %s IR parses and validates", name,
		stage_name(r->stage))) {
		tap_diag("%s", d.text.buf);
		shader_free(s);
		diag_release(&d);
		return;
	}
	char *again = ir_print_string(s);
	ok(!strcmp(again, r->ir), "%s: %s IR reprints unchanged", name, stage_name(r->stage));
	free(again);
	if (s->stage == STAGE_FRAGMENT || s->stage == STAGE_COMPUTE) {
		struct interp_inputs *in = interp_inputs_random(s, 1);
		struct interp_result *res = interp_run(s, in, NULL);
		if (!ok(res->status != INTERP_ERROR, "%s: the interpreter runs it", name))
			tap_diag("%s", res->message);
		interp_result_free(res);
		interp_inputs_free(in);
	}
	shader_free(s);
	diag_release(&d);
}

static void check_file(const char *name, bool update)
{
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT, expected = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, passes = STRBUF_INIT;
	struct compile_options o;
	struct compile_output out;

	strbuf_addf(&path, "%s/%s", GOLDEN_DIR, name);
	strbuf_addf(&passes, "%.*s.passes", (int)(strrchr(path.buf, '.') - path.buf), path.buf);
	struct strbuf list = STRBUF_INIT;
	if (read_file(passes.buf, &list, NULL) == 0)
		strbuf_rtrim(&list);
	else
		strbuf_addstr(&list, "lower_vars_to_ssa");
	compile_options_init(&o);
	o.want_ir = true;
	o.validate_ir = true;
	o.passes = list.buf;
	compile_output_init(&out);
	compile_file(path.buf, &o, NULL, 0, &out);
	for (size_t i = 0; i < out.results.len; i++) {
		const struct compile_result *r = &out.results.data[i];
		if (out.results.len > 1)
			strbuf_addf(&got, "; ---- %s ----\n", stage_name(r->stage));
		if (r->status == RESULT_OK && r->ir) {
			strbuf_addstr(&got, r->ir);
			check_ir(name, r);
		} else {
			/* the message without the path prefix */
			const char *m = r->message ? r->message : "?";
			const char *e = strstr(m, "error: ");
			strbuf_addf(&got, "; %s: %s\n", stage_name(r->stage), e ? e : m);
		}
	}

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s.expected", GOLDEN_DIR, name);
	if (update) {
		ok(write_file_atomic(path.buf, got.buf, got.len, &err) == 0, "wrote %s", path.buf);
	} else if (read_file(path.buf, &expected, &err) < 0) {
		ok(false, "%s (SHDB_UPDATE_GOLDENS=1 writes it)", err.buf);
	} else if (!ok(!strcmp(got.buf, expected.buf), "%s translates as expected", name)) {
		tap_diag("got:\n%s", got.buf);
	}
	compile_output_release(&out);
	compile_options_release(&o);
	strbuf_release(&list);
	strbuf_release(&passes);
	strbuf_release(&path);
	strbuf_release(&got);
	strbuf_release(&expected);
	strbuf_release(&err);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *u = getenv("SHDB_UPDATE_GOLDENS");
	bool update = u && !strcmp(u, "1");
	DIR *d = opendir(GOLDEN_DIR);
	ARRAY(char *) names = ARRAY_INIT;
	struct dirent *e;
	if (!d) {
		printf("1..0 # SKIP no %s (run from the source tree)\n", GOLDEN_DIR);
		return 0;
	}
	while ((e = readdir(d)))
		if (is_source(e->d_name))
			array_push(&names, xstrdup(e->d_name));
	closedir(d);
	qsort(names.data, names.len, sizeof(*names.data), cmp_names);
	for (size_t i = 0; i < names.len; i++) {
		check_file(names.data[i], update);
		free(names.data[i]);
	}
	array_free(&names);
	return done_testing();
}
