/*
 * Golden tests of instruction selection, one folder per backend family:
 * tests/isel (ir3) and tests/etna (etnaviv).  Every NAME.ir there (the IR
 * text form) goes through the whole pipeline (compile_source: optimisation,
 * the backend's lowering, selection, the backend) with both verifiers for
 * the targets its header names ("# targets: a306 a630 a740"); the
 * disassembly plus Mesa's statistics line per target must equal
 * NAME.expected.  Every test is also compiled with --verify on every target
 * of its folder's family and must succeed there.  A test whose header says
 * "# error: TEXT" must fail with a message containing TEXT instead,
 * everywhere.
 *
 *	isel_golden                            run every test (TAP)
 *	isel_golden --update [DIR/NAME.ir…]    rewrite the .expected files
 *	isel_golden --run FILE TARGET…         print the output (a small tool)
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/record.h"
#include "compiler/compile.h"
#include "compiler/target.h"
#include "compiler/util/error.h"
#include "compiler/util/file.h"
#include "tap.h"

/* A folder of tests, its family and the targets a test gets by default. */
static const struct suite {
	const char *dir;
	enum target_family family;
	const char *targets;
} suites[] = {
	{ "isel", TARGET_FAMILY_IR3, " a530 a630 a740" },
	{ "etna", TARGET_FAMILY_ETNA, " gc2000 gc3000 gc7000" },
};

static char test_root[1024];

static void find_test_root(void)
{
	const char *f = __FILE__;
	const char *slash = strrchr(f, '/');
	size_t len = slash ? (size_t)(slash - f) : 0;
	/* tests/unit/isel_golden.c → tests */
	snprintf(test_root, sizeof(test_root), "%.*s/..", (int)len, f);
	if (!len)
		snprintf(test_root, sizeof(test_root), "tests");
}

/* "; " and Mesa's statistics line for the target (compiler/record.c). */
static void stats_line(struct strbuf *sb, const struct compile_result *r)
{
	strbuf_addstr(sb, "; ");
	record_append_mesa_stats(sb, r);
	strbuf_addch(sb, '\n');
}

/* The output for one target; false when it failed unexpectedly. */
static bool compile_one(const char *path, const char *text, const char *tname, bool disasm,
			struct strbuf *out)
{
	const struct target *t = target_find(tname);
	if (!t) {
		strbuf_addf(out, "unknown target %s\n", tname);
		return false;
	}
	struct compile_options o;
	compile_options_init(&o);
	o.verify = true;
	o.validate_ir = true;
	o.want_disasm = disasm;
	struct compile_output res;
	compile_output_init(&res);
	bool ok = compile_source(path, text, strlen(text), &o, &t, 1, &res) == 0;
	for (size_t k = 0; k < res.results.len; k++) {
		const struct compile_result *r = &res.results.data[k];
		if (r->status != RESULT_OK) {
			strbuf_addf(out, "error: %s\n", r->message ? r->message : "?");
			continue;
		}
		if (disasm && r->disasm)
			strbuf_addstr(out, r->disasm);
		stats_line(out, r);
	}
	compile_output_release(&res);
	compile_options_release(&o);
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

static void run_test(const struct suite *suite, const char *name, bool update)
{
	char path[2048], expected_path[2048], tlist[512], want_error[512];
	snprintf(path, sizeof(path), "%s/%s/%s", test_root, suite->dir, name);
	snprintf(expected_path, sizeof(expected_path), "%.*s.expected", (int)(strlen(path) - 3), path);

	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT, got = STRBUF_INIT, want = STRBUF_INIT;
	if (read_file(path, &text, &err)) {
		ok(false, "%s: %s", name, err.buf);
		goto out;
	}
	header_value(text.buf, "# targets:", tlist, sizeof(tlist));
	header_value(text.buf, "# error:", want_error, sizeof(want_error));
	if (!tlist[0])
		snprintf(tlist, sizeof(tlist), "%s", suite->targets);

	bool all_ok = true;
	char *save, *copy = xstrdup(tlist);
	for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		strbuf_addf(&got, "== %s\n", t);
		size_t start = got.len;
		all_ok &= compile_one(path, text.buf, t, true, &got) || want_error[0];
		if (want_error[0]) {
			const char *msg = want_error[0] == ' ' ? want_error + 1 : want_error;
			ok(strstr(got.buf + start, msg) != NULL, "%s on %s fails with '%s'", name, t, msg);
		}
	}
	free(copy);

	/* every target of the family, with both verifiers */
	for (size_t k = 0; k < num_targets; k++) {
		if (targets[k]->family != suite->family)
			continue;
		struct strbuf one = STRBUF_INIT;
		bool fine = compile_one(path, text.buf, targets[k]->name, false, &one);
		if (want_error[0])
			fine = strstr(one.buf, want_error[0] == ' ' ? want_error + 1 : want_error) != NULL;
		if (!fine) {
			ok(false, "%s on %s: %.*s", name, targets[k]->name, (int)strcspn(one.buf, "\n"), one.buf);
			all_ok = false;
		}
		strbuf_release(&one);
	}

	if (update) {
		if (write_file_atomic(expected_path, got.buf, got.len, &err))
			ok(false, "%s: %s", name, err.buf);
		else
			ok(all_ok, "%s: updated", name);
		goto out;
	}
	if (read_file(expected_path, &want, &err)) {
		ok(false, "%s: no expected output (%s); run isel_golden --update", name, err.buf);
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

static const struct suite *suite_of(const char *path)
{
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
		size_t n = strlen(suites[i].dir);
		const char *p = strstr(path, suites[i].dir);
		if (p && p[n] == '/' && (p == path || p[-1] == '/'))
			return &suites[i];
	}
	return &suites[0];
}

static void run_suite(const struct suite *suite, bool update)
{
	char dirname[1100];
	snprintf(dirname, sizeof(dirname), "%s/%s", test_root, suite->dir);
	DIR *dir = opendir(dirname);
	if (!dir) {
		ok(false, "%s: not found", dirname);
		return;
	}
	char *names[1024];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(dir)) && n < 1024) {
		size_t len = strlen(e->d_name);
		if (len > 3 && !strcmp(e->d_name + len - 3, ".ir"))
			names[n++] = xstrdup(e->d_name);
	}
	closedir(dir);
	qsort(names, n, sizeof(names[0]), cmp_names);
	for (size_t k = 0; k < n; k++) {
		run_test(suite, names[k], update);
		free(names[k]);
	}
}

int main(int argc, char **argv)
{
	find_test_root();
	if (argc >= 3 && !strcmp(argv[1], "--run")) {
		struct strbuf text = STRBUF_INIT, err = STRBUF_INIT, out = STRBUF_INIT;
		if (read_file(argv[2], &text, &err)) {
			fprintf(stderr, "%s\n", err.buf);
			return 1;
		}
		for (int k = 3; k < argc; k++) {
			strbuf_addf(&out, "== %s\n", argv[k]);
			compile_one(argv[2], text.buf, argv[k], true, &out);
		}
		fputs(out.buf, stdout);
		strbuf_release(&text);
		strbuf_release(&err);
		strbuf_release(&out);
		return 0;
	}
	bool update = argc >= 2 && !strcmp(argv[1], "--update");
	if (update && argc > 2) {
		for (int k = 2; k < argc; k++) {
			const char *base = strrchr(argv[k], '/') ? strrchr(argv[k], '/') + 1 : argv[k];
			run_test(suite_of(argv[k]), base, true);
		}
		return done_testing();
	}
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		run_suite(&suites[i], update);
	return done_testing();
}
