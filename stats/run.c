/*
 * Loading a run into its table; see run.h.
 */
#include "stats/run.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/stage.h"
#include "compiler/util/file.h"

/* ---- columns ---- */

static struct column *column_new(const char *name)
{
	struct column *c = xcalloc(1, sizeof(*c));
	c->info = stat_lookup(name, strlen(name));
	if (!c->info) {
		stat_info_generic(&c->generic, name);
		c->info = &c->generic;
	}
	c->name = name;
	return c;
}

static void column_free(struct column *c)
{
	free(c->i32);
	free(c->f64);
	free(c);
}

static void column_widen(struct column *c)
{
	c->f64 = xmalloc((c->cap ? c->cap : 1) * sizeof(double));
	for (size_t i = 0; i < c->len; i++)
		c->f64[i] = c->i32[i] == INT32_MIN ? NAN : c->i32[i];
	free(c->i32);
	c->i32 = NULL;
	c->wide = true;
}

/* Columns sized once for the rows expected: a run has some 30 statistics,
 * in every record.  Those after them (a source with thousands of statistics,
 * each in a few records) grow from a few values. */
#define PRESIZED_COLUMNS 64

/* Make rows [len, row] exist, missing. */
static void column_extend(struct column *c, size_t row, size_t expect_rows)
{
	if (row < c->len)
		return;
	if (row >= c->cap) {
		size_t cap = c->cap ? c->cap : expect_rows > 16 ? expect_rows : 16;
		while (cap <= row)
			cap *= 2;
		if (c->wide)
			c->f64 = xrealloc(c->f64, cap * sizeof(double));
		else
			c->i32 = xrealloc(c->i32, cap * sizeof(int32_t));
		c->cap = cap;
	}
	for (; c->len <= row; c->len++) {
		if (c->wide)
			c->f64[c->len] = NAN;
		else
			c->i32[c->len] = INT32_MIN;
	}
}

static void column_set(struct column *c, size_t row, double v, size_t expect_rows)
{
	column_extend(c, row, expect_rows);
	bool fits = v > INT32_MIN && v <= INT32_MAX && v == (double)(int32_t)v;
	if (!c->wide && !fits)
		column_widen(c);
	if (c->wide)
		c->f64[row] = v;
	else
		c->i32[row] = (int32_t)v;
}

static void column_clear(struct column *c, size_t row)
{
	if (row >= c->len)
		return;
	if (c->wide)
		c->f64[row] = NAN;
	else
		c->i32[row] = INT32_MIN;
}

struct column *run_column(const struct run *run, const char *key)
{
	uintptr_t col = (uintptr_t)strmap_get(&run->col_by_key, key, strlen(key));
	return col ? run->cols.data[col - 1] : NULL;
}

/* The map entry of a spelling, whose value is its column index + 1.  A new
 * spelling of a known statistic ("code size" after "dwords") joins that
 * statistic's column. */
static struct strmap_entry *spelling(struct run *run, struct span name)
{
	bool is_new;
	struct strmap_entry *e = strmap_put(&run->col_by_name, name.p, name.len, &is_new);
	if (!is_new)
		return e;
	struct column *c = column_new(e->key);
	struct strmap_entry *k = strmap_put(&run->col_by_key, c->info->key, strlen(c->info->key),
					    &is_new);
	if (is_new) {
		array_push(&run->cols, c);
		k->value = (void *)(uintptr_t)run->cols.len;
	} else {
		column_free(c);
	}
	e->value = k->value;
	return e;
}

static uint32_t column_at(struct run *run, size_t pos, struct span name)
{
	while (run->cache.len <= pos)
		array_push(&run->cache, (struct name_cache){ NULL, 0, 0 });
	struct name_cache *nc = &run->cache.data[pos];
	if (nc->name && nc->len == name.len && !memcmp(nc->name, name.p, name.len))
		return nc->col;
	struct strmap_entry *e = spelling(run, name);
	*nc = (struct name_cache){ e->key, e->keylen, (uint32_t)((uintptr_t)e->value - 1) };
	return nc->col;
}

long run_find(const struct run *run, uint32_t path, uint32_t stage, uint32_t target)
{
	if (path >= run->first_row.len)
		return -1;
	for (uint32_t r = run->first_row.data[path]; r != NO_ROW; r = run->rows.data[r].next_of_path)
		if (run->rows.data[r].stage == stage && run->rows.data[r].target == target)
			return r;
	return -1;
}

/* ---- records ---- */

static bool in_list(const char *const *list, size_t n, struct span s)
{
	for (size_t i = 0; i < n; i++)
		if (span_eq(s, list[i]))
			return true;
	return false;
}

/* A stage in any spelling: "FRAG" (a Mesa log), "frag" or "fragment". */
static bool stage_in_list(const char *const *list, size_t n, struct span s)
{
	if (in_list(list, n, s))
		return true;
	char name[32];
	if (s.len >= sizeof(name))
		return false;
	memcpy(name, s.p, s.len);
	name[s.len] = '\0';
	enum shader_stage stage = stage_from_name(name);
	for (size_t i = 0; i < n && stage != STAGE_NONE; i++)
		if (stage_from_name(list[i]) == stage)
			return true;
	return false;
}

static bool filtered_out(const struct record_filter *f, pcre2_match_data *md,
			 const struct record *r)
{
	if (!f)
		return false;
	/* a record that names no target (a Mesa log's, a fossilize CSV's)
	 * passes --target: it is whichever target the log was made for */
	if ((f->nstages && !stage_in_list(f->stages, f->nstages, r->stage)) ||
	    (f->ntargets && r->target.len && !in_list(f->targets, f->ntargets, r->target)))
		return true;
	return md && !path_filter_keeps(f->paths, r->path.p, r->path.len, md);
}

/* Stage and target ids are 16 bits, to keep a row small. */
#define MAX_SMALL_NAMES (UINT16_MAX + 1)

/* The row of the record's key: a new one, or the earlier one it duplicates;
 * -1 after an error. */
static long row_for(struct run *run, const struct record *r, bool *dup)
{
	if (run->stages.list.len >= MAX_SMALL_NAMES || run->targets.list.len >= MAX_SMALL_NAMES) {
		reader_error(run->reader, r->line, 0, "more than %d distinct stage or target names",
			     MAX_SMALL_NAMES);
		return -1;
	}
	uint32_t path = names_intern(&run->paths, r->path.p, r->path.len);
	uint32_t stage = names_intern(&run->stages, r->stage.p, r->stage.len);
	uint32_t target = names_intern(&run->targets, r->target.p, r->target.len);
	long row = run_find(run, path, stage, target);
	*dup = row >= 0;
	if (*dup)
		return row;
	if (path == run->first_row.len)
		array_push(&run->first_row, NO_ROW);
	if (run->rows.len >= NO_ROW)
		BUG("more than %u records", NO_ROW);
	array_push(&run->rows, (struct run_row){ .path = path, .stage = (uint16_t)stage,
						   .target = (uint16_t)target,
						   .next_of_path = run->first_row.data[path] });
	run->first_row.data[path] = (uint32_t)(run->rows.len - 1);
	return (long)run->rows.len - 1;
}

static void forget_values(struct run *run, size_t row)
{
	run->status_count[run->rows.data[row].status]--;
	if (run->rows.data[row].time_us >= 0)
		run->cpu_seconds -= run->rows.data[row].time_us / 1e6;
	for (size_t i = 0; i < run->cols.len; i++)
		column_clear(run->cols.data[i], row);
}

/* A record's message; "" (none) replaces the message of a duplicate. */
static void set_message(struct run *run, size_t row, struct span msg)
{
	char *copy = msg.len ? xstrndup(msg.p, msg.len) : xstrdup("");
	uint64_t idx;
	if (u64map_get(&run->message_of, row, &idx)) {
		free(run->messages.data[idx]);
		run->messages.data[idx] = copy;
		return;
	}
	u64map_set(&run->message_of, row, run->messages.len);
	array_push(&run->messages, copy);
}

/* The largest count a double holds exactly: 2^53. */
#define MAX_COUNT 9007199254740992.0

/* Statistics and times are counts: finite, from 0 to 2^53 (beyond, totals
 * would skip integers); another number (1e400 read as inf, -1, 2^64) is a
 * located error, and the value is left out. */
static bool in_range(struct run *run, const struct record *r, const char *what, struct span name,
		     double v)
{
	if (v >= 0 && v <= MAX_COUNT)
		return true;
	reader_error(run->reader, r->line, 0, "%s%.*s%s is %g, not a count from 0 to 2^53; "
		     "left out", what, (int)name.len, name.p, name.len ? "\"" : "", v);
	return false;
}

void run_add_record(void *ctx, const struct record *r)
{
	struct run *run = ctx;
	if (filtered_out(run->filter, run->md, r)) {
		run->filtered++;
		return;
	}
	bool dup;
	long row = row_for(run, r, &dup);
	if (row < 0)
		return;
	struct run_row *rw = &run->rows.data[row];
	if (dup) {
		run->duplicates++;
		reader_warning(run->reader, r->line, 0, "duplicate record for %.*s %.*s%s%.*s "
			       "(first at line %u); keeping the last", (int)r->path.len, r->path.p,
			       (int)r->stage.len, r->stage.p, r->target.len ? " " : "",
			       (int)r->target.len, r->target.p, rw->line);
		forget_values(run, (size_t)row);
	}
	rw->line = (uint32_t)r->line;
	rw->status = (uint8_t)r->status;
	rw->time_us = isnan(r->time_us) || !in_range(run, r, "time_us", SPAN_LIT(""), r->time_us)
		      ? -1 : (float)r->time_us;
	run->status_count[r->status]++;
	if (rw->time_us >= 0) {
		run->cpu_seconds += rw->time_us / 1e6;	/* as stored, so a duplicate undoes it */
		run->time_known = true;
	}
	if (r->message.len || dup)
		set_message(run, (size_t)row, r->message);
	for (size_t i = 0; i < r->nstats; i++) {
		if (!in_range(run, r, "statistic \"", r->stats[i].name, r->stats[i].value))
			continue;
		uint32_t col = column_at(run, i, r->stats[i].name);	/* may add a column */
		column_set(run->cols.data[col], (size_t)row, r->stats[i].value,
			   col < PRESIZED_COLUMNS ? run->expect_rows : 0);
	}
}

const char *run_message(const struct run *run, size_t row)
{
	uint64_t idx;
	if (!u64map_get(&run->message_of, row, &idx) || !*run->messages.data[idx])
		return NULL;
	return run->messages.data[idx];
}

/* ---- loading ---- */

void run_init(struct run *run)
{
	memset(run, 0, sizeof(*run));
}

void run_release(struct run *run)
{
	names_release(&run->paths);
	names_release(&run->stages);
	names_release(&run->targets);
	array_free(&run->rows);
	for (size_t i = 0; i < run->cols.len; i++)
		column_free(run->cols.data[i]);
	array_free(&run->cols);
	strmap_release(&run->col_by_name);
	strmap_release(&run->col_by_key);
	array_free(&run->first_row);
	u64map_release(&run->message_of);
	for (size_t i = 0; i < run->messages.len; i++)
		free(run->messages.data[i]);
	array_free(&run->messages);
	array_free(&run->cache);
	free(run->label);
	free(run->git_commit);
	free(run->shdb_version);
	free(run->date);
	run_init(run);
}

static char *json_str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? xstrdup(s) : NULL;
}

/* run.json is optional; a bad one is a warning. */
static void read_meta(struct run *run, const char *dir, struct diag *diag)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/run.json", dir);
	json_error_t err;
	json_t *meta = json_load_file(path.buf, 0, &err);
	if (!meta && access(path.buf, F_OK) == 0)
		diag_warning(diag, path.buf, err.line, err.column, "%s; metadata ignored", err.text);
	if (json_is_object(meta)) {
		run->label = json_str(meta, "label");
		run->git_commit = json_str(meta, "git_commit");
		run->shdb_version = json_str(meta, "shdb_version");
		run->date = json_str(meta, "date");
	}
	json_decref(meta);
	strbuf_release(&path);
}

/* A generous guess of the number of records, from the file size: a record
 * takes 100 bytes or more.  Arrays sized once by it are written in order, so
 * the pages never touched cost nothing; growing them would copy. */
static void expect_rows(struct run *run, const char *path)
{
	struct strbuf file = STRBUF_INIT;
	strbuf_addf(&file, is_directory(path) ? "%s/stats.jsonl" : "%s", path);
	struct stat st;
	if (!stat(file.buf, &st) && S_ISREG(st.st_mode)) {
		run->expect_rows = (size_t)st.st_size / 100 + 1;
		array_reserve(&run->rows, run->expect_rows);
	}
	strbuf_release(&file);
}

static char *default_label(const char *path)
{
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	return xstrndup(path, len);
}

int run_load(struct run *run, const char *path, const struct record_filter *filter,
	     struct diag *diag)
{
	struct reader rd = READER_INIT(diag, run_add_record, run);
	run->source = path;
	run->filter = filter;
	if (filter && filter->paths && !path_filter_empty(filter->paths))
		run->md = pcre2_match_data_create(1, NULL);
	run->reader = &rd;
	if (is_directory(path))
		read_meta(run, path, diag);
	expect_rows(run, path);
	if (!run->label)
		run->label = default_label(path);
	int ret = read_input(&rd, path, SOURCE_AUTO);
	run->kind = rd.kind;
	if (!run->time_known)
		run->cpu_seconds = rd.cpu_seconds;
	if (!ret && !run->rows.len)
		diag_warning(diag, path, 0, 0, "no records%s", run->filtered ? " (after filtering)" : "");
	run->reader = NULL;
	run->filter = NULL;
	if (run->md)
		pcre2_match_data_free(run->md);
	run->md = NULL;
	reader_release(&rd);
	return ret;
}
