/*
 * The legacy rewrite against golden files: tests/front/legacy/NAME.STAGE is
 * rewritten and compared with NAME.STAGE.expected, then compiled through
 * the whole front end, which must make SPIR-V of it.  With
 * SHDB_UPDATE_GOLDENS=1 the expected files are (re)written instead.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/front/front.h"
#include "compiler/front/legacy.h"
#include "compiler/util/file.h"
#include "tap.h"

#define GOLDEN_DIR "tests/front/legacy"

static void check_file(const char *name, bool update)
{
	struct strbuf path = STRBUF_INIT, src = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf expected = STRBUF_INIT, err = STRBUF_INIT;
	struct glsl_version v, to;
	enum shader_stage stage = stage_from_extension(path_extension(name));

	strbuf_addf(&path, "%s/%s", GOLDEN_DIR, name);
	if (read_file(path.buf, &src, &err) < 0) {
		ok(false, "%s", err.buf);
		return;
	}
	glsl_find_version(src.buf, src.len, &v);
	ok(legacy_needed(src.buf, src.len, &v, stage), "%s takes the legacy path", name);
	legacy_rewrite(src.buf, src.len, 1, stage, &v, &out, &to, NULL, true);

	strbuf_addstr(&path, ".expected");
	if (update) {
		ok(write_file_atomic(path.buf, out.buf, out.len, &err) == 0, "wrote %s", path.buf);
	} else if (read_file(path.buf, &expected, &err) < 0) {
		ok(false, "%s (SHDB_UPDATE_GOLDENS=1 writes it)", err.buf);
	} else if (!ok(!strcmp(out.buf, expected.buf), "%s rewrites as expected", name)) {
		tap_diag("got:\n%s", out.buf);
	}

	struct compile_options o;
	struct program p;
	compile_options_init(&o);
	strbuf_setlen(&path, path.len - strlen(".expected"));
	program_init(&p, path.buf);
	int ret = front_compile(&p, src.buf, src.len, INPUT_GLSL, stage, &o);
	if (!ok(ret == 0, "%s compiles to SPIR-V", name) && p.units.len)
		tap_diag("%s", p.units.data[0].diag.text.buf);
	program_release(&p);
	compile_options_release(&o);

	strbuf_release(&path);
	strbuf_release(&src);
	strbuf_release(&out);
	strbuf_release(&expected);
	strbuf_release(&err);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	bool update = getenv("SHDB_UPDATE_GOLDENS") && !strcmp(getenv("SHDB_UPDATE_GOLDENS"), "1");
	ARRAY(char *) names = ARRAY_INIT;
	DIR *d = opendir(GOLDEN_DIR);
	struct dirent *e;

	if (!d)
		return skip_all("run from the source tree (" GOLDEN_DIR " is missing)");
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(path_extension(e->d_name), "expected"))
			array_push(&names, xstrdup(e->d_name));
	closedir(d);
	qsort(names.data, names.len, sizeof(char *), by_name);
	for (size_t i = 0; i < names.len; i++) {
		check_file(names.data[i], update);
		free(names.data[i]);
	}
	array_free(&names);
	ok(true, "%s the goldens", update ? "updated" : "checked");
	return done_testing();
}
