/*
 * A run in memory: a table whose rows are records (shader × stage × target:
 * status, line, time) and whose columns are statistics, as read from any
 * input (stats/input.h).  Memory is what matters for 2-million-record runs,
 * so a row is 20 bytes, strings are interned once (paths, stages, targets),
 * and a column stores int32 values until a value needs a double (a fraction,
 * or beyond int32), when that column alone is widened:
 *
 *	rows:     #0 a/x.frag fragment a630 ok      cols: inst [12, 40, -]
 *	          #1 a/x.vert vertex   a630 ok            waves [16, 16, -]
 *	          #2 b/y.comp compute  a630 error
 *
 * A missing value ("-") is INT32_MIN in an int32 column, NaN in a double one.
 * The key (path, stage, target) is unique: a duplicate record replaces the
 * values of the first in place (report.py keeps the last, too), with a warning.
 * Rows are found by key through the rows of their path (a chain from
 * first_row[path]): a path has a few stages and targets, and two arrays of
 * 4 bytes cost less than a hash table over all keys.  Columns are found by
 * name through hash maps, so a record with 200,000 statistics costs what
 * 200,000 records of one do; a column's array grows from a few values, so
 * a column costs what the rows it spans do.
 */
#ifndef SHDB_STATS_RUN_H
#define SHDB_STATS_RUN_H

#include <math.h>
#include <stdint.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "stats/path_filter.h"
#include "compiler/util/hash.h"
#include "stats/input.h"
#include "stats/names.h"
#include "stats/stat.h"

struct column {
	const struct stat_info *info;	/* the table's row, or &generic */
	struct stat_info generic;	/* for a name the table does not know */
	const char *name;		/* the first spelling read ("non-nops") */
	bool wide;			/* values are doubles */
	int32_t *i32;
	double *f64;
	size_t len, cap;		/* rows >= len have no value */
};

struct run_row {
	uint32_t path;
	uint16_t stage, target;
	uint32_t next_of_path;		/* the next row of the same path, or NO_ROW */
	uint32_t line;			/* in the file read */
	float time_us;			/* < 0: unknown */
	uint8_t status;			/* enum record_status */
};

#define NO_ROW UINT32_MAX

/* Which records to keep while reading (the command line's --stage, --target,
 * --include, --exclude); empty lists keep everything. */
struct record_filter {
	const char *const *stages;
	size_t nstages;
	const char *const *targets;
	size_t ntargets;
	const struct path_filter *paths;	/* or NULL */
};

/* The spelling of the i-th statistic of the last record, and its column:
 * records of one source list their statistics in the same order, so a name
 * is usually matched with one memcmp. */
struct name_cache {
	const char *name;
	size_t len;
	uint32_t col;
};

struct run {
	const char *source;		/* what the user named */
	char *label;			/* run.json's label, else the directory or file name */
	char *git_commit, *shdb_version, *date;	/* from run.json, or NULL */
	enum source_kind kind;
	double cpu_seconds;		/* Σ time_us, or the source's own timing */

	struct names paths, stages, targets;
	ARRAY(struct run_row) rows;
	ARRAY(struct column *) cols;
	struct strmap col_by_name;	/* every spelling read -> column index + 1 */
	struct strmap col_by_key;	/* canonical key ("non_nops") -> column index + 1 */
	ARRAY(uint32_t) first_row;	/* path -> its first row */
	size_t expect_rows;		/* a guess from the file size, to size arrays once */
	struct u64map message_of;	/* row -> index in messages */
	ARRAY(char *) messages;

	size_t status_count[STATUS_COUNT];
	size_t duplicates;
	size_t filtered;		/* records left out by the filter */

	/* while reading */
	const struct record_filter *filter;
	pcre2_match_data *md;		/* for filter->paths */
	struct reader *reader;
	ARRAY(struct name_cache) cache;
	bool time_known;
};

void run_init(struct run *run);
void run_release(struct run *run);

/* Read `path` (a run directory or any record file) into `run`.  Messages go to
 * `diag`; returns -1 when the input cannot be read at all. */
int run_load(struct run *run, const char *path, const struct record_filter *filter,
	     struct diag *diag);

/* Add one record (the readers' callback; also for tests). */
void run_add_record(void *run, const struct record *r);

static inline bool column_get(const struct column *c, size_t row, double *out)
{
	if (row >= c->len)
		return false;
	if (c->wide) {
		*out = c->f64[row];
		return !isnan(*out);
	}
	int32_t v = c->i32[row];
	*out = v;
	return v != INT32_MIN;
}

static inline const char *run_path(const struct run *run, size_t row)
{
	return run->paths.list.data[run->rows.data[row].path];
}

static inline const char *run_stage(const struct run *run, size_t row)
{
	return run->stages.list.data[run->rows.data[row].stage];
}

static inline const char *run_target(const struct run *run, size_t row)
{
	return run->targets.list.data[run->rows.data[row].target];
}

/* The row of (path, stage, target) ids, or -1. */
long run_find(const struct run *run, uint32_t path, uint32_t stage, uint32_t target);

/* The message of a record (errors), or NULL. */
const char *run_message(const struct run *run, size_t row);

/* The column whose canonical key is `key`, or NULL. */
struct column *run_column(const struct run *run, const char *key);

#endif
