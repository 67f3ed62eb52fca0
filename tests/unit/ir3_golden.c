/*
 * Golden tests of the ir3 backend: every tests/ir3/NAME.mir (machine IR in
 * the text form) is compiled for the targets its header names
 * ("# targets: a530 a630 a740") with validation after each pass and both
 * verifiers, and the disassembly plus Mesa's statistics line per target must
 * equal tests/ir3/NAME.expected.  A test whose header says
 * "# error: TEXT" must fail with a message containing TEXT instead;
 * "# stats only" leaves the disassembly out; "# allocated" gives the
 * registers in the input, and only legalisation runs.  Every test that
 * compiles also compiles in the stress mode (spilling down to the least
 * registers, ra_limit 1) with both verifiers, whatever the statistics.
 *
 *	ir3_golden                       run every test (TAP)
 *	ir3_golden --update [NAME.mir…]  rewrite the .expected files
 *	ir3_golden --run FILE TARGET…    print the output (a small tool;
 *	                                 RA_LIMIT=N in the environment: stress mode)
 *	ir3_golden --ir FILE TARGET PASS print the IR after PASS ("all")
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/record.h"
#include "compiler/ir3/ir3_compile.h"
#include "compiler/target.h"
#include "compiler/util/error.h"
#include "compiler/util/file.h"
#include "tap.h"

static char test_dir[1024];

static void find_test_dir(void)
{
	const char *f = __FILE__;
	const char *slash = strrchr(f, '/');
	size_t len = slash ? (size_t)(slash - f) : 0;
	/* tests/unit/ir3_golden.c → tests/ir3 */
	snprintf(test_dir, sizeof(test_dir), "%.*s/../ir3", (int)len, f);
	if (!len)
		snprintf(test_dir, sizeof(test_dir), "tests/ir3");
}

/* Mesa's statistics line, as `shdb compile --shaderdb` writes it. */
static void stats_line(struct strbuf *sb, const struct stat_values *v)
{
	struct compile_result r = { 0 };
	result_add_stats(&r, v);
	strbuf_addstr(sb, "; ");
	record_append_mesa_stats(sb, &r);
	strbuf_addch(sb, '\n');
	array_free(&r.stats);
}

/* The output for one target; false when it failed unexpectedly.  An
 * "# allocated" test has its registers already: it is only legalised. */
static bool compile_one(const char *path, const char *text, const char *tname,
			const char *print_after, unsigned ra_limit, struct strbuf *out)
{
	bool allocated = strstr(text, "# allocated") != NULL;
	bool stats_only = strstr(text, "# stats only") != NULL;
	const struct target *t = target_find(tname);
	if (!t) {
		strbuf_addf(out, "unknown target %s\n", tname);
		return false;
	}
	struct arena a = ARENA_INIT;
	struct diag d = DIAG_INIT;
	struct ir3 *ir = ir3_parse(&a, path, text, &d);
	bool ok = true;
	if (!ir) {
		strbuf_addf(out, "parse error: %s", d.text.buf);
		ok = false;
	} else {
		struct ir3_compile_options o = { .verify = true, .validate = true, .want_disasm = true,
						 .allocated = allocated, .print_after = print_after,
						 .ra_limit = ra_limit };
		struct ir3_compile_output res;
		ir3_compile_output_init(&res);
		if (ir3_compile_machine(ir, t->ir3, &o, &res)) {
			strbuf_addf(out, "error: %s\n", res.error.buf);
		} else {
			if (!stats_only)
				strbuf_addstr(out, res.disasm.buf);
			stats_line(out, &res.stats);
		}
		if (print_after)
			strbuf_addstr(out, res.dump.buf);
		ir3_compile_output_release(&res);
	}
	diag_release(&d);
	arena_release(&a);
	return ok;
}

/* "# targets: a530 a630" and "# error: text" from the test's header. */
static void header_value(const char *text, const char *key, char *out, size_t size)
{
	out[0] = 0;
	const char *p = strstr(text, key);
	if (!p)
		return;
	p += strlen(key);
	size_t n = strcspn(p, "\n");
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = 0;
}

static void run_test(const char *name, bool update)
{
	char path[2048], expected_path[2048], targets[512], want_error[512];
	snprintf(path, sizeof(path), "%s/%s", test_dir, name);
	snprintf(expected_path, sizeof(expected_path), "%.*s.expected", (int)(strlen(path) - 4), path);

	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT, got = STRBUF_INIT, want = STRBUF_INIT;
	if (read_file(path, &text, &err)) {
		ok(false, "%s: %s", name, err.buf);
		goto out;
	}
	header_value(text.buf, "# targets:", targets, sizeof(targets));
	header_value(text.buf, "# error:", want_error, sizeof(want_error));
	if (!targets[0])
		snprintf(targets, sizeof(targets), " a530 a630 a740");

	bool all_ok = true;
	char *save, *copy = xstrdup(targets);
	for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		strbuf_addf(&got, "== %s\n", t);
		size_t start = got.len;
		all_ok &= compile_one(path, text.buf, t, NULL, 0, &got);
		if (want_error[0]) {
			const char *msg = want_error[0] == ' ' ? want_error + 1 : want_error;
			ok(strstr(got.buf + start, msg) != NULL, "%s on %s fails with '%s'", name, t, msg);
		} else if (!update && !strstr(text.buf, "# allocated") &&
			   !strstr(got.buf + start, "error:")) {
			struct strbuf stress = STRBUF_INIT;
			bool ok_ = compile_one(path, text.buf, t, NULL, 1, &stress);
			ok(ok_ && !strstr(stress.buf, "error:"), "%s on %s spilling everything", name, t);
			if (!ok_ || strstr(stress.buf, "error:"))
				tap_diag("%s", stress.buf);
			strbuf_release(&stress);
		}
	}
	free(copy);

	if (update) {
		if (write_file_atomic(expected_path, got.buf, got.len, &err))
			ok(false, "%s: %s", name, err.buf);
		else
			ok(all_ok, "%s: updated", name);
		goto out;
	}
	if (read_file(expected_path, &want, &err)) {
		ok(false, "%s: no expected output (%s); run ir3_golden --update", name, err.buf);
		goto out;
	}
	if (!ok(all_ok && !strcmp(got.buf, want.buf), "%s", name)) {
		/* show the first differing line */
		const char *g = got.buf, *w = want.buf;
		int line = 1;
		while (*g && *g == *w) {
			if (*g == '\n')
				line++;
			g++;
			w++;
		}
		while (g > got.buf && g[-1] != '\n')
			g--;
		while (w > want.buf && w[-1] != '\n')
			w--;
		tap_diag("line %d: got      '%.*s'", line, (int)strcspn(g, "\n"), g);
		tap_diag("line %d: expected '%.*s'", line, (int)strcspn(w, "\n"), w);
	}
out:
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&got);
	strbuf_release(&want);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	find_test_dir();
	if (argc >= 3 && (!strcmp(argv[1], "--run") || !strcmp(argv[1], "--ir"))) {
		struct strbuf text = STRBUF_INIT, err = STRBUF_INIT, out = STRBUF_INIT;
		if (read_file(argv[2], &text, &err)) {
			fprintf(stderr, "%s\n", err.buf);
			return 1;
		}
		bool ir = !strcmp(argv[1], "--ir");
		int last = ir ? argc - 1 : argc;
		for (int k = 3; k < last; k++) {
			strbuf_addf(&out, "== %s\n", argv[k]);
			compile_one(argv[2], text.buf, argv[k], ir ? argv[argc - 1] : NULL,
				    getenv("RA_LIMIT") ? (unsigned)atoi(getenv("RA_LIMIT")) : 0, &out);
		}
		fputs(out.buf, stdout);
		strbuf_release(&text);
		strbuf_release(&err);
		strbuf_release(&out);
		return 0;
	}
	bool update = argc >= 2 && !strcmp(argv[1], "--update");
	if (update && argc > 2) {
		for (int k = 2; k < argc; k++)
			run_test(strrchr(argv[k], '/') ? strrchr(argv[k], '/') + 1 : argv[k], true);
		return done_testing();
	}

	DIR *dir = opendir(test_dir);
	if (!dir)
		return skip_all("tests/ir3 not found");
	char *names[1024];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(dir)) && n < 1024) {
		size_t len = strlen(e->d_name);
		if (len > 4 && !strcmp(e->d_name + len - 4, ".mir"))
			names[n++] = xstrdup(e->d_name);
	}
	closedir(dir);
	qsort(names, n, sizeof(names[0]), cmp_names);
	for (size_t k = 0; k < n; k++) {
		run_test(names[k], update);
		free(names[k]);
	}
	return done_testing();
}
