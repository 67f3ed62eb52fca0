/*
 * One statistics table, end to end: every statistic a backend reports is a
 * row of stats/stats.def, and goes through every writer and reader by that
 * row alone.  For each target, a test shader is compiled; its results are
 * written as JSON records (stats.jsonl) and as Mesa shader-db lines, both are
 * read back by the stats/ readers, and `shdb cmp`'s engine compares the two
 * runs.  Every reported statistic must come back under its key with its
 * value, from both, and be compared, unchanged.
 *
 * So adding a statistic is one row in stats.def plus the code that computes
 * it (stat_set(v, STAT_NEW, …) in the backend): this test then checks that
 * records, Mesa lines, readers and cmp carry it, with no other list to edit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmp/compare.h"
#include "compiler/record.h"
#include "compiler/compile.h"
#include "compiler/util/file.h"
#include "stats/run.h"
#include "tap.h"

static const char shader_rel[] = "../isel/fs-tex-lighting.ir";

static void shader_path(char *out, size_t size)
{
	const char *f = __FILE__;
	const char *slash = strrchr(f, '/');
	snprintf(out, size, "%.*s/%s", slash ? (int)(slash - f) : 1, slash ? f : ".", shader_rel);
}

static void write_text(const char *path, const struct strbuf *sb)
{
	if (write_file_atomic(path, sb->buf, sb->len, NULL) < 0)
		BUG("cannot write %s", path);
}

static int load(struct run *run, const char *path)
{
	struct diag d = DIAG_INIT;
	run_init(run);
	int ret = run_load(run, path, NULL, &d);
	if (d.errors)
		tap_diag("%s", d.text.buf);
	ret = ret < 0 || d.errors ? -1 : 0;
	diag_release(&d);
	return ret;
}

/* The value of `key` in the only row of `run`. */
static bool value_of(const struct run *run, const char *key, double *v)
{
	const struct column *c = run_column(run, key);
	return c && run->rows.len == 1 && column_get(c, 0, v);
}

static const struct stat_cmp *compared(const struct comparison *c, const char *key)
{
	for (size_t i = 0; i < c->stats.len; i++)
		if (!strcmp(c->stats.data[i].info->key, key))
			return &c->stats.data[i];
	return NULL;
}

/* Every statistic of `r` through records, Mesa lines and cmp; the number
 * of failures. */
static int round_trip(const char *dir, const char *path, const struct compile_result *r)
{
	char jpath[512], mpath[512];
	struct strbuf json = STRBUF_INIT, mesa = STRBUF_INIT;
	snprintf(jpath, sizeof(jpath), "%s/stats.jsonl", dir);
	snprintf(mpath, sizeof(mpath), "%s/mesa.log", dir);
	record_append_json(&json, path, r, true);
	strbuf_addch(&json, '\n');
	record_append_shaderdb(&mesa, path, r);
	strbuf_addch(&mesa, '\n');
	write_text(jpath, &json);
	write_text(mpath, &mesa);

	int bad = 0;
	struct run jr, mr;
	if (load(&jr, jpath) < 0 || load(&mr, mpath) < 0) {
		tap_diag("%s: the records do not read back", r->target->name);
		bad++;
	}
	struct comparison c;
	struct cmp_options o = { .app_depth = 1 };
	struct strbuf err = STRBUF_INIT;
	bool cmp_ok = !bad && compare_runs(&c, &mr, &jr, &o, &err);
	if (!bad && !cmp_ok) {
		tap_diag("%s: cmp fails: %s", r->target->name, err.buf);
		bad++;
	}
	for (size_t i = 0; !bad && i < r->stats.len; i++) {
		const char *key = r->stats.data[i].key;
		const struct stat_info *info = stat_lookup(key, strlen(key));
		double want = (double)r->stats.data[i].value, jv, mv;
		const struct stat_cmp *sc = compared(&c, key);
		if (!info || strcmp(info->key, key)) {
			tap_diag("%s: '%s' is not a key of the statistics table", r->target->name, key);
			bad++;
		} else if (!value_of(&jr, key, &jv) || jv != want) {
			tap_diag("%s: '%s' does not come back from the JSON record", r->target->name, key);
			bad++;
		} else if (!value_of(&mr, key, &mv) || mv != want) {
			tap_diag("%s: '%s' does not come back from the Mesa line '%s'", r->target->name,
				 key, mesa.buf);
			bad++;
		} else if (!sc || sc->shared != 1 || sc->total_before != want ||
			   sc->total_after != want) {
			tap_diag("%s: cmp does not compare '%s' unchanged", r->target->name, key);
			bad++;
		}
	}
	if (cmp_ok)
		comparison_release(&c);
	run_release(&jr);
	run_release(&mr);
	strbuf_release(&err);
	strbuf_release(&json);
	strbuf_release(&mesa);
	return bad;
}

int main(void)
{
	char path[1024], dir[] = "/tmp/shdb-stats-e2e-XXXXXX";
	shader_path(path, sizeof(path));
	if (!mkdtemp(dir))
		BUG("mkdtemp failed");

	for (size_t t = 0; t < num_targets; t++) {
		struct compile_options o;
		struct compile_output out;
		compile_options_init(&o);
		compile_output_init(&out);
		int rc = compile_file(path, &o, &targets[t], 1, &out);
		const struct compile_result *r = out.results.len == 1 ? &out.results.data[0] : NULL;
		if (rc < 0 || !r || r->status != RESULT_OK) {
			ok(false, "%s: %s compiles", targets[t]->name, shader_rel);
			tap_diag("%s", out.diag.text.buf);
		} else {
			int bad = round_trip(dir, "fs-tex-lighting.ir", r);
			is_int(bad, 0, "%s: all %zu statistics are table rows, and come back from records "
			       "and Mesa lines to cmp", targets[t]->name, r->stats.len);
		}
		compile_output_release(&out);
		compile_options_release(&o);
	}

	char p[600];
	snprintf(p, sizeof(p), "%s/stats.jsonl", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/mesa.log", dir);
	unlink(p);
	rmdir(dir);
	return done_testing();
}
