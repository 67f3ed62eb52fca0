/*
 * The interpreter as the oracle of every pass (issue 3, "interpreter
 * equivalence for every pass on every golden input"): each pass of the
 * registry (passes.def, so a pass added later is covered without an edit
 * here) runs through the pipeline — validated, progress checked — on a
 * clone of each golden file (tests/ir/ and every folder below it, found on
 * disk), and the result must compute what the original computes on SEEDS
 * random input sets (interp_baseline_check()), within the tolerance the
 * pass declares in its registry entry.  The default pipeline is checked the
 * same way, with the loosest tolerance of the registry.
 *
 * A pass that leaves a file unchanged (same text) passes without a run.
 * Seeds on which the original reaches the step limit or undefined
 * behaviour are not comparable; each file's count is printed.
 *
 * Known bugs of others' passes are listed in `todo` below with the reason:
 * they show as TODO (not ok, not failing) until fixed.
 *
 * SHDB_EQUIV_SEEDS overrides the number of seeds (default 100).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "compiler/ir/interp.h"
#include "compiler/opt/opt.h"
#include "compiler/util/array.h"
#include "compiler/util/file.h"
#include "tap.h"

#define SEEDS 100
#define STEP_LIMIT 20000

/* Failures known and reported: pass, file (basename), why. */
static const struct known {
	const char *pass, *file, *reason;
} todo[] = {
	{ NULL, NULL, NULL },
};

static const char *todo_reason(const char *pass, const char *file)
{
	for (const struct known *k = todo; k->pass; k++)
		if (!strcmp(k->pass, pass) && !strcmp(k->file, path_basename(file)))
			return k->reason;
	return NULL;
}

/* ---- finding the golden files ---- */

typedef ARRAY(char *) path_list;

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_ir(const char *dir, path_list *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(e->d_name);
		char *path = xmalloc(strlen(dir) + len + 2);
		sprintf(path, "%s/%s", dir, e->d_name);
		if (is_directory(path)) {
			find_ir(path, out);
			free(path);
		} else if (len > 3 && !strcmp(e->d_name + len - 3, ".ir")) {
			array_push(out, path);
		} else {
			free(path);
		}
	}
	closedir(d);
}

/* ---- one file ---- */

static struct shader *load(const char *path, struct strbuf *why)
{
	struct strbuf text = STRBUF_INIT;
	struct diag d = DIAG_INIT;
	struct shader *s = NULL;
	if (read_file(path, &text, why) >= 0) {
		s = ir_parse(path, text.buf, text.len, &d);
		if (s && !ir_validate(s, &d, path)) {
			shader_free(s);
			s = NULL;
		}
		strbuf_addstr(why, d.text.buf);
	}
	strbuf_release(&text);
	diag_release(&d);
	return s;
}

static unsigned num_seeds(void)
{
	const char *e = getenv("SHDB_EQUIV_SEEDS");
	unsigned n = e ? (unsigned)strtoul(e, NULL, 10) : SEEDS;
	return n ? n : SEEDS;
}

/* Run `pass` (a registered name, or NULL for the default pipeline) on a
 * clone and compare. */
static void check_pass(struct shader *s, const char *printed, struct interp_baseline *base,
		       const char *path, const char *pass, const struct interp_tolerance *tol)
{
	const char *name = path_basename(path);
	const char *label = pass ? pass : "default pipeline";
	struct shader *clone = shader_clone(s);
	struct diag d = DIAG_INIT;
	struct pipeline pl;
	pipeline_init(&pl, clone, &d, path);
	pl.validate = true;
	pl.check_progress = true;
	if (pass)
		pipeline_run_list(&pl, pass);
	else
		opt_default(&pl);
	struct strbuf why = STRBUF_INIT;
	bool same;
	if (pl.failed) {
		same = false;
		strbuf_addf(&why, "the pipeline failed:\n%s", d.text.buf);
	} else {
		char *after = ir_print_string(clone);
		struct interp_equiv_stats st;
		same = !strcmp(after, printed) || interp_baseline_check(base, clone, tol, &why, &st);
		if (!same) {
			char opt[256] = "";
			if (pass)
				snprintf(opt, sizeof(opt), " --passes=%s", pass);
			strbuf_addf(&why, "\nsee: shdb compile --emit=ir%s %s\n"
				    "     shdb compile --interp=SEED%s %s (and --passes=none)",
				    opt, path, opt, path);
		}
		free(after);
	}
	const char *reason = todo_reason(label, path);
	if (reason)
		printf("%sok %d - %s on %s # TODO %s\n", same ? "" : "not ", ++tap_run, label, name,
		       reason);
	else
		ok(same, "%s on %s computes the same", label, name);
	if (!same)
		for (char *line = strtok(why.buf, "\n"); line; line = strtok(NULL, "\n"))
			tap_diag("  %s", line);
	strbuf_release(&why);
	pipeline_release(&pl);
	diag_release(&d);
	shader_free(clone);
}

/* The loosest tolerance of the registry (for the default pipeline). */
static struct interp_tolerance loosest(void)
{
	struct interp_tolerance t = { 0, 0, 0, false, false };
	for (unsigned i = 0; i < num_registered_passes; i++) {
		const struct interp_tolerance *p = &pass_registry[i].tolerance;
		if (p->rel > t.rel)
			t.rel = p->rel;
		if (p->abs > t.abs)
			t.abs = p->abs;
		if (p->ulp > t.ulp)
			t.ulp = p->ulp;
		t.spirv_undef |= p->spirv_undef;
		t.float_relaxed |= p->float_relaxed;
	}
	return t;
}

static void check_file(const char *path, unsigned seeds)
{
	const char *name = path_basename(path);
	struct strbuf why = STRBUF_INIT;
	struct shader *s = load(path, &why);
	if (!s) {
		printf("ok %d - %s # SKIP not a valid shader (a negative test?)\n", ++tap_run, name);
		strbuf_release(&why);
		return;
	}
	struct interp_baseline *base = interp_baseline_create(s, seeds, STEP_LIMIT);
	struct interp_equiv_stats st;
	/* the original against itself: the interpreter runs it, deterministically */
	bool runs = interp_baseline_check(base, s, NULL, &why, &st);
	if (!ok(runs, "%s: the interpreter runs it and repeats itself", name))
		tap_diag("  %s", why.buf);
	tap_diag("%s: %u of %u seeds comparable, %llu results defined%s", name, st.compared, seeds,
		 (unsigned long long)st.defined, st.defined ? "" : " (nothing to compare)");
	char *printed = ir_print_string(s);
	if (strstr(path, "/ir/interp/")) {
		struct strbuf text = STRBUF_INIT;
		read_file(path, &text, NULL);
		ok(!strcmp(text.buf, printed), "%s: canonical (prints back unchanged)", name);
		strbuf_release(&text);
	}
	if (runs) {
		for (unsigned i = 0; i < num_registered_passes; i++)
			check_pass(s, printed, base, path, pass_registry[i].name,
				   &pass_registry[i].tolerance);
		struct interp_tolerance t = loosest();
		check_pass(s, printed, base, path, NULL, &t);
	}
	free(printed);
	interp_baseline_free(base);
	shader_free(s);
	strbuf_release(&why);
}

int main(void)
{
	const char *root = getenv("SHDB_SRCDIR");
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/tests/ir", root ? root : ".");
	path_list files = ARRAY_INIT;
	find_ir(dir, &files);
	if (!files.len)
		return skip_all("no golden files in tests/ir (run from the source root)");
	qsort(files.data, files.len, sizeof(*files.data), cmp_path);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	unsigned seeds = num_seeds();
	for (size_t i = 0; i < files.len; i++)
		check_file(files.data[i], seeds);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_diag("%zu files x %u passes + the default pipeline x %u seeds in %.2f s", files.len,
		 num_registered_passes, seeds,
		 (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (size_t i = 0; i < files.len; i++)
		free(files.data[i]);
	array_free(&files);
	return done_testing();
}
