/*
 * Every registered pass, and the default pipeline, on every golden file
 * (tests/ir and its pass folders): each run validates after the pass and
 * checks its progress report (a pass claiming no progress must leave the
 * printed shader unchanged).  A second run of the default pipeline on its
 * own output must find nothing left to do.  Run from the source root.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/opt/opt.h"
#include "compiler/util/file.h"
#include "ir_util.h"
#include "tap.h"

static struct shader *load(const char *path)
{
	struct strbuf text = STRBUF_INIT;
	struct diag d = DIAG_INIT;
	struct shader *s = NULL;
	if (read_file(path, &text, NULL) >= 0)
		s = ir_parse(path, text.buf, text.len, &d);
	if (s && !ir_validate(s, &d, path)) {
		shader_free(s);
		s = NULL;
	}
	strbuf_release(&text);
	diag_release(&d);
	return s;
}

/* Run `list` (or the default pipeline when NULL) with every check on. */
static bool run(struct shader *s, const char *path, const char *list, struct diag *d)
{
	struct pipeline pl;
	pipeline_init(&pl, s, d, path);
	pl.validate = true;
	pl.check_progress = true;
	if (list)
		pipeline_run_list(&pl, list);
	else
		opt_default(&pl);
	bool ok_ = !pl.failed;
	pipeline_release(&pl);
	return ok_;
}

static void check_file(const char *path)
{
	unsigned failures = 0;
	for (unsigned p = 0; p < num_registered_passes; p++) {
		struct shader *s = load(path);
		struct diag d = DIAG_INIT;
		if (!s) {
			ok(false, "%s: loads", path);
			return;
		}
		if (!run(s, path, pass_registry[p].name, &d)) {
			failures++;
			ok(false, "%s: %s", path, pass_registry[p].name);
			tap_diag("%s", d.text.buf);
		}
		diag_release(&d);
		shader_free(s);
	}
	ok(!failures, "%s: every pass keeps it valid and reports progress honestly", path);

	struct shader *s = load(path);
	struct diag d = DIAG_INIT;
	if (ok(run(s, path, NULL, &d), "%s: the default pipeline", path)) {
		char *once = ir_print_string(s);
		bool again = run(s, path, NULL, &d);
		char *twice = ir_print_string(s);
		if (!ok(again && !strcmp(once, twice), "%s: the default pipeline reaches a fixed point",
			path))
			tap_diag("%s", d.text.buf);
		free(once);
		free(twice);
	} else {
		tap_diag("%s", d.text.buf);
	}
	diag_release(&d);
	shader_free(s);
}

int main(void)
{
	char **files;
	size_t n = golden_files_in(&files, true);
	if (!n)
		return skip_all("no golden files in tests/ir (run from the source root)");
	for (size_t i = 0; i < n; i++)
		check_file(files[i]);
	golden_files_free(files, n);
	return done_testing();
}
