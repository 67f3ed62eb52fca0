/*
 * shdb report HISTORY -o OUT: what the pieces of reports/ share.
 *
 * The flow (cmd_report.c):
 *	1. history.c   find the runs in HISTORY, read their run.json, order them
 *	               by date, then label, then folder name;
 *	2. scopes.c    load the last two runs and compare them with cmp/'s engine:
 *	               once over everything (= shdb cmp PREV LAST) and once per
 *	               target (= shdb cmp --target T PREV LAST); alerts are the
 *	               statistics whose verdict is helped or HURT;
 *	3. collect.c   read every run once more (in parallel): per target and
 *	               statistic the total over ok records and the status counts
 *	               (the trends), and the values of the shaders we follow
 *	               (detail pages, the shaders of each regression);
 *	4. scopes.c    for each regressed shader, the first run where it was
 *	               already as bad as in the last run;
 *	5. charts.c    gnuplot data files and scripts, gnuplot run from OUT;
 *	   page_*.c    index.html and one page per listed shader; summary_md.c.
 *
 * Nothing here reads the clock: the same history gives the same bytes.
 */
#ifndef SHDB_REPORTS_REPORT_H
#define SHDB_REPORTS_REPORT_H

#include <stdio.h>

#include "cmp/compare.h"
#include "compiler/util/error.h"
#include "compiler/util/hash.h"
#include "stats/names.h"
#include "stats/options.h"
#include "stats/run.h"

/* ---- the history (history.c) ---- */

struct history_run {
	char *dir;		/* HISTORY/NAME */
	char *name;		/* the folder's name */
	char *label;		/* run.json's label, else the folder's name */
	char *date, *commit, *status;	/* from run.json, or NULL */
	string_list roots;	/* run.json's corpus_roots: the inputs as given */
	bool has_asm;		/* it holds an asm.pack */
};

struct history {
	const char *root;
	ARRAY(struct history_run) runs;	/* in report order */
};

/* Find the runs under `root`; problems go to `diag`.  Returns -1 when the
 * folder cannot be read. */
int history_scan(struct history *h, const char *root, struct diag *diag);
void history_release(struct history *h);
/* Load run i of the history (its stats.jsonl) into `run`, labelled. */
int history_load(const struct history *h, size_t i, struct run *run, struct diag *diag);

/* ---- what is looked at in every run (collect.c) ---- */

/* A shader with a detail page: its status and values in every run. */
struct followed {
	const char *path, *stage, *target;	/* in the report's arena */
	char *page;			/* "shaders/<16 hex>.html" */
};

#define ABSENT 0xff		/* a status: the run has no such record */

/* A regressed shader's statistic: is it, in each run, as bad as in the last? */
struct watch {
	const char *path, *stage, *target, *key;	/* in the report's arena */
	double bad;
	bool higher_better;
	int first_run;		/* history index, once found */
};

/* What one run gave. */
struct run_facts {
	bool loaded;
	size_t records;
	size_t *status;		/* [target id * STATUS_COUNT + status] */
	double *sum;		/* [target id * nkeys + key id], NaN: no ok record has it */
	uint8_t *fstatus;	/* [followed] */
	double *fvalues;	/* [followed * nfollow_keys + key], NaN: none */
	uint8_t *as_bad;	/* [watch] */
};

/* ---- a comparison of the last two runs (scopes.c) ---- */

struct alert {
	size_t stat;		/* index in the scope's comparison's stats */
	ARRAY(size_t) watches;	/* HURT: per shader of the hurt list, its watch */
};

struct scope {
	char *name;		/* a target, or "all targets" */
	bool all;		/* every record: shdb cmp PREV LAST */
	struct run before, after;	/* the target's records (not for `all`) */
	struct comparison cmp;
	ARRAY(struct alert) alerts;
};

/* A target in the history, with the chart files named after it. */
struct target_info {
	const char *name;	/* "" for records without one */
	size_t id;		/* in report.target_names */
	char *file;		/* "t1-a630": safe in file names and gnuplot strings */
	bool has_stats;		/* some run has a statistic for it */
	struct scope *scope;	/* its comparison (may be the `all` scope), or NULL */
};

struct report_options {
	const char *history, *out;
	const char *source;	/* --source: where the records' paths start, or NULL */
	size_t top;
	bool ignore_loops;
	bool charts;
	int jobs;
};

struct report {
	const struct report_options *opts;
	struct cmp_options cmp_opts;
	struct history hist;
	struct diag diag;
	struct arena arena;

	/* the last two runs, loaded (prev, last = history indices) */
	long prev, last;
	struct run runs[2];
	ARRAY(struct scope *) scopes;	/* scopes.data[0] is `all` */

	/* over the whole history */
	struct names target_names;	/* every target seen */
	ARRAY(struct target_info) targets;	/* sorted by name */
	struct names keys;		/* every statistic seen (canonical keys) */
	struct run_facts *facts;	/* [run] */

	name_array follow_keys;		/* statistics of a detail page's history */
	ARRAY(struct followed) followed;
	struct strmap followed_by_key;	/* "path\0stage\0target" -> index + 1 */
	struct strmap pages;		/* the detail pages' names */
	ARRAY(struct watch) watches;
	struct strmap watch_by_key;	/* "path\0stage\0target\0key" -> index + 1 */

	unsigned char *failed;		/* [run]: did not read (while the report is made) */
	bool charts_ok;		/* every chart file was made */
	int errors;		/* the exit status is 1 when > 0 */
};

/* scopes.c */
void report_compare(struct report *r);
void report_choose(struct report *r);
void report_first_runs(struct report *r);
/* The shader of a pair of a comparison. */
void pair_key(const struct comparison *c, uint32_t pair, const char **path, const char **stage,
	      const char **target);
/* The comparison shown in a target's section, or NULL. */
struct scope *scope_of_target(const struct report *r, const char *target);
void report_release_scopes(struct report *r);

/* collect.c */
/* Follow a shader (a detail page); returns its index. */
size_t follow(struct report *r, const char *path, const char *stage, const char *target);
long followed_find(const struct report *r, const char *path, const char *stage,
		   const char *target);
size_t watch(struct report *r, const char *path, const char *stage, const char *target,
	     const struct stat_info *info, double bad);
long watch_find(const struct report *r, const char *path, const char *stage, const char *target,
		const char *key);
/* Read every run; fill facts, targets, keys.  Uses opts->jobs threads. */
void report_collect(struct report *r);
void report_release_collect(struct report *r);
/* The total of `key` for target id t in run i: NaN when none. */
double run_total(const struct report *r, size_t run, size_t target, const char *key);

/* charts.c: false (a message in diag) when gnuplot is missing or failed. */
bool report_charts(struct report *r);
/* The chart files of a target ("t1-a630-inst") and of the history. */
struct chart_def {
	const char *id;		/* "inst" */
	const char *title;	/* "Instructions" */
	const char *keys[2];	/* one or two statistics */
};
extern const struct chart_def trend_charts[];
extern const size_t num_trend_charts;
bool chart_applies(const struct report *r, size_t target, const struct chart_def *c);
/* Does trend chart c of target t spare its y axis from 0?  Only when its
 * values all lie in a band narrower than a tenth of the highest (a change of
 * 1552 -> 1560 would be a flat line from 0): then the axis spans the band
 * and says "not from 0".  lo and hi: the lowest and highest values. */
bool trend_band(const struct report *r, size_t t, const struct chart_def *c, double *lo,
		double *hi);
/* The statistic whose per-shader change is charted for a scope: inst, or the first. */
const struct stat_cmp *distribution_stat(const struct scope *s);
bool has_distribution(const struct scope *s);

/* source.c: where a shader's source is, for its page (see there). */
struct source_places {
	char *base;		/* where the records' paths start */
	string_list allowed;	/* real paths of the run's inputs */
};
void source_places_init(struct source_places *sp, const struct report *r);
void source_places_release(struct source_places *sp);
/* The source of a record's path: 0 with the file's name in `file` and its
 * text in `text`; -1 when not found; -2 when it cannot be shown, with why
 * in `why`. */
int source_find(const struct source_places *sp, const char *path, struct strbuf *file,
		struct strbuf *text, struct strbuf *why);

/* page_index.c, page_shader.c, summary_md.c: 0 or -1 (message in diag). */
int write_index(struct report *r);
int write_shader_pages(struct report *r);
int write_summary_md(struct report *r);

/* Helpers for the pages. */
const struct history_run *hist_run(const struct report *r, long i);
/* "night-006 (#6)" */
void run_name(const struct report *r, long i, struct strbuf *out);

#endif
