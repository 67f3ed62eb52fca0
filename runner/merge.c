/*
 * shdb run --merge -o OUT DIR...: put shards back together.
 *
 * Each DIR is a complete run of the same settings (the same targets, filters,
 * compiler, manifest; run.json's "settings"), normally shards K/N of one
 * corpus, all N of them.  Each stats.jsonl is in the canonical order, so the
 * merge is a k-way merge by path that copies lines unchanged, a whole file's
 * records at a time: OUT/stats.jsonl is then byte for byte the file one run
 * over the whole corpus writes (time_us apart).  Memory: one line per input.
 * A path found in two inputs is an error (overlapping shards).
 *
 * Runs made with --keep-asm: OUT/asm.pack is the parts' packs one after the
 * other (their whole entries), in the order given; readers index a pack by
 * key, so its order does not matter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/util/cmdline.h"
#include "compiler/util/error.h"
#include "compiler/util/file.h"
#include "compiler/util/utf8.h"
#include "runner/run.h"
#include "runner/rundir.h"
#include "runner/tally.h"
#include "stats/asm_pack.h"
#include "stats/json_text.h"

struct part {
	const char *dir;
	json_t *run;
	struct record_reader rd;
	int st;			/* of the reader: 1 a record is current, 0 end */
};

static void read_parts(struct part *p, size_t n)
{
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		p[i].run = rundir_read_json(p[i].dir, &err);
		if (!p[i].run)
			die("%s", err.buf);
		const char *status = json_string_value(json_object_get(p[i].run, "status"));
		if (!status || strcmp(status, "complete"))
			die("'%s' is not a complete run (status '%s'): finish it with --resume "
			    "first", p[i].dir, status ? status : "?");
		const char *key = run_settings_diff(json_object_get(p[0].run, "settings"),
						    json_object_get(p[i].run, "settings"));
		if (key)
			die("'%s' and '%s' are runs of different settings ('%s')", p[0].dir,
			    p[i].dir, key);
	}
	strbuf_release(&err);
}

/* All shards K/N of one N, or whole runs only. */
static void check_shards(struct part *p, size_t n)
{
	json_int_t count = json_integer_value(json_object_get(json_object_get(p[0].run, "shard"),
							      "count"));
	char *seen = xcalloc((size_t)(count > 0 ? count : 1) + 1, 1);
	for (size_t i = 0; i < n; i++) {
		json_t *sh = json_object_get(p[i].run, "shard");
		json_int_t k = json_integer_value(json_object_get(sh, "index"));
		json_int_t c = json_integer_value(json_object_get(sh, "count"));
		if (c != count)
			die("'%s' is %s, '%s' is %s: merge the shards of one split", p[0].dir,
			    count ? "a shard" : "a whole run", p[i].dir, c ? "a shard" : "a whole run");
		if (!count)
			continue;
		if (c != count || k < 1 || k > count)
			die("'%s': shard %lld/%lld does not fit the others' N=%lld", p[i].dir,
			    (long long)k, (long long)c, (long long)count);
		if (seen[k]++)
			die("shard %lld/%lld is given twice ('%s')", (long long)k, (long long)count,
			    p[i].dir);
	}
	for (json_int_t k = 1; k <= count; k++)
		if (!seen[k])
			die("shard %lld/%lld is missing", (long long)k, (long long)count);
	free(seen);
}

/* The input whose current path comes first; NULL at the end. */
static struct part *first_part(struct part *p, size_t n)
{
	struct part *best = NULL;
	for (size_t i = 0; i < n; i++) {
		if (p[i].st != 1)
			continue;
		int c = best ? utf8_unescaped_cmp(p[i].rd.path, best->rd.path) : -1;
		if (c == 0)
			die_status(EXIT_WORK_FAILED, "'%s' is in both '%s' and '%s'", p[i].rd.path,
				   best->dir, p[i].dir);
		if (c < 0)
			best = &p[i];
	}
	return best;
}

static int advance(struct part *q, struct strbuf *err)
{
	q->st = record_reader_next(&q->rd, err);
	if (q->st < 0)
		die_status(EXIT_WORK_FAILED, "%s", err->buf);
	return q->st;
}

static int merge_records(struct part *p, size_t n, struct atomic_file *out, struct tally *t)
{
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/stats.jsonl", p[i].dir);
		if (record_reader_open(&p[i].rd, xstrdup(path.buf), &err) < 0)
			die_status(EXIT_WORK_FAILED, "%s", err.buf);
		strbuf_release(&path);
		advance(&p[i], &err);
	}
	for (struct part *q; (q = first_part(p, n));) {
		char *path = xstrdup(q->rd.path);
		do {
			if (atomic_file_write(out, q->rd.line, q->rd.len) < 0)
				return error("cannot write the merged stats.jsonl");
			tally_add(t, q->rd.rec);
		} while (advance(q, &err) == 1 && !strcmp(q->rd.path, path));
		free(path);
	}
	strbuf_release(&err);
	return 0;
}

/* The entries of one part's pack (after its magic line) onto `out`. */
static int copy_pack(const char *dir, struct atomic_file *out, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, ASM_PACK_FILE);
	long long valid = asm_pack_valid_length(path.buf, err);
	int ret = valid < 0 || read_file(path.buf, &data, err) < 0 ? -1 : 0;
	size_t skip = strlen(ASM_PACK_MAGIC);
	if (!ret && atomic_file_write(out, data.buf + skip, (size_t)valid - skip) < 0)
		ret = -1;
	strbuf_release(&path);
	strbuf_release(&data);
	return ret;
}

/* OUT/asm.pack from the parts' packs, when they kept their disassembly. */
static int merge_packs(const struct run_config *c, struct part *p, size_t n, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct atomic_file out;
	bool keep = json_is_true(json_object_get(json_object_get(p[0].run, "settings"), "keep_asm"));
	strbuf_addf(&path, "%s/%s", c->out_dir, ASM_PACK_FILE);
	int ret = 0;
	if (!keep) {
		unlink(path.buf);
	} else if (atomic_file_open(&out, path.buf, err) < 0) {
		ret = -1;
	} else {
		ret = atomic_file_write(&out, ASM_PACK_MAGIC, strlen(ASM_PACK_MAGIC));
		for (size_t i = 0; i < n && !ret; i++)
			ret = copy_pack(p[i].dir, &out, err);
		if (ret < 0 || atomic_file_commit(&out, err) < 0) {
			atomic_file_abort(&out);
			ret = -1;
		}
	}
	strbuf_release(&path);
	return ret;
}

static json_int_t sum(struct part *p, size_t n, const char *key)
{
	json_int_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += json_integer_value(json_object_get(p[i].run, key));
	return s;
}

static json_t *merged_json(const struct run_config *c, struct part *p, size_t n,
			   const struct tally *t)
{
	const char *start = NULL, *end = NULL;
	json_t *from = json_array(), *o = json_object();
	for (size_t i = 0; i < n; i++) {
		const char *s = json_string_value(json_object_get(p[i].run, "start"));
		const char *e = json_string_value(json_object_get(p[i].run, "end"));
		if (s && (!start || strcmp(s, start) < 0))
			start = s;
		if (e && (!end || strcmp(e, end) > 0))
			end = e;
		json_array_append_new(from, json_pack("{s:o, s:O, s:O, s:O, s:O}", "dir", json_text(p[i].dir),
			"shard", json_object_get(p[i].run, "shard"),
			"host", json_object_get(p[i].run, "host"),
			"start", json_object_get(p[i].run, "start"),
			"end", json_object_get(p[i].run, "end")));
	}
	json_t *first = p[0].run;
	json_t *opts = json_array();
	for (int i = 1; i < c->argc; i++)
		json_array_append_new(opts, json_text(c->argv[i]));

	json_object_set(o, "shdb_version", json_object_get(first, "shdb_version"));
	json_object_set(o, "git_commit", json_object_get(first, "git_commit"));
	json_object_set_new(o, "label", run_label_json(c));
	json_object_set_new(o, "date", start ? json_string(start) : json_null());
	json_object_set_new(o, "status", json_string("complete"));
	json_object_set_new(o, "options", opts);
	json_object_set(o, "settings", json_object_get(first, "settings"));
	json_object_set(o, "targets", json_object_get(first, "targets"));
	json_object_set(o, "corpus_roots", json_object_get(first, "corpus_roots"));
	json_object_set_new(o, "shard", json_null());
	json_object_set_new(o, "host", run_host_json());
	json_object_set_new(o, "start", start ? json_string(start) : json_null());
	json_object_set_new(o, "end", end ? json_string(end) : json_null());
	json_object_set_new(o, "files", json_integer(sum(p, n, "files")));
	json_object_set_new(o, "files_done", json_integer(sum(p, n, "files_done")));
	json_object_set(o, "ignored_files", json_object_get(first, "ignored_files"));
	json_object_set(o, "filtered_files", json_object_get(first, "filtered_files"));
	json_object_set_new(o, "records", json_integer((json_int_t)t->records));
	json_object_set_new(o, "counts", tally_counts_json(t));
	json_object_set_new(o, "merged_from", from);
	return o;
}

int run_merge(struct run_config *c)
{
	size_t n = c->inputs.len;
	struct part *p = xcalloc(n, sizeof(*p));
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	struct atomic_file out;
	struct tally t;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		p[i].dir = c->inputs.data[i];
	read_parts(p, n);
	check_shards(p, n);
	strbuf_addf(&path, "%s/run.json", c->out_dir);
	if (!access(path.buf, F_OK) && !c->force)
		die("'%s' holds a run already: add --force to replace it", c->out_dir);
	if (rundir_mkdir(c->out_dir) < 0)
		die_status(EXIT_WORK_FAILED, "cannot create the folder '%s'", c->out_dir);

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/stats.jsonl", c->out_dir);
	tally_init(&t);
	if (atomic_file_open(&out, path.buf, &err) < 0)
		die_status(EXIT_WORK_FAILED, "%s", err.buf);
	if (merge_records(p, n, &out, &t) < 0 || atomic_file_commit(&out, &err) < 0) {
		atomic_file_abort(&out);
		ret = error("%s", err.buf);
	}
	if (!ret && merge_packs(c, p, n, &err) < 0)
		ret = error("%s%s", err.buf, err.len ? "" : "cannot write the merged asm.pack");
	if (!ret) {
		json_t *o = merged_json(c, p, n, &t);
		ret = rundir_write_json(c->out_dir, o, &err);
		if (ret < 0)
			error("%s", err.buf);
		json_decref(o);
	}
	if (!ret && !c->quiet) {
		printf("shdb run --merge: %zu runs, %zu records; results in %s\n\n", n, t.records,
		       c->out_dir);
		tally_print(&t, stdout);
	}
	for (size_t i = 0; i < n; i++) {
		free((char *)p[i].rd.name);
		record_reader_close(&p[i].rd);
		json_decref(p[i].run);
	}
	free(p);
	tally_release(&t);
	strbuf_release(&err);
	strbuf_release(&path);
	return ret < 0 ? EXIT_WORK_FAILED : 0;
}
