/*
 * Every golden file of tests/ir, the pass tests in its folders included: it
 * parses, validates and prints back byte for byte; its clone prints the
 * same, validates and is independent of the original; analyses run on it.
 * Run from the source root (make check).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/ir.h"
#include "compiler/util/file.h"
#include "ir_util.h"
#include "tap.h"

static void check_file(const char *path)
{
	struct strbuf text = STRBUF_INIT;
	struct diag d = DIAG_INIT;
	const char *name = path_basename(path);

	if (read_file(path, &text, NULL) < 0) {
		ok(false, "%s: readable", name);
		return;
	}
	struct shader *s = ir_parse(path, text.buf, text.len, &d);
	if (!ok(s != NULL, "%s: parses", name)) {
		tap_diag("%s", d.text.buf);
		goto out;
	}
	if (!ok(ir_validate(s, &d, path), "%s: validates", name))
		tap_diag("%s", d.text.buf);
	char *printed = ir_print_string(s);
	ok(!strcmp(printed, text.buf), "%s: prints back unchanged", name);

	struct shader *c = shader_clone(s);
	char *cloned = ir_print_string(c);
	ok(!strcmp(cloned, printed), "%s: print(clone(s)) == print(s)", name);
	ok(ir_validate(c, &d, path), "%s: the clone validates", name);
	metadata_require(c->fn, META_ALL);
	shader_reindex(c);
	char *again = ir_print_string(s);
	ok(!strcmp(again, printed), "%s: changing the clone leaves the original alone", name);

	metadata_require(s->fn, META_ALL);
	ok(ir_validate(s, &d, path), "%s: valid with every analysis computed", name);
	free(again);
	free(cloned);
	free(printed);
	shader_free(c);
out:
	shader_free(s);
	diag_release(&d);
	strbuf_release(&text);
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
