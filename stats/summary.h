/*
 * The summary of one run, for `shdb stats`: per group of records (by target
 * and stage, by default), the status counts and, per statistic over the ok
 * records that carry it, the count, total, mean and percentiles; the largest
 * shaders by one statistic; a histogram of it; the failing records (error,
 * crash, timeout) in the run's order.
 *
 * Percentiles are by nearest rank (describe.h): each is a value some shader
 * has, so a count's p90 is a count; the median is the 50th.  The histogram has power-of-two buckets, [0], [1],
 * [2, 3], [4, 7] …, as shader sizes spread over orders of magnitude.
 */
#ifndef SHDB_STATS_SUMMARY_H
#define SHDB_STATS_SUMMARY_H

#include "stats/run.h"

enum group_by {
	BY_NONE,
	BY_TARGET,
	BY_STAGE,
	BY_TARGET_STAGE,
};

struct stat_summary {
	const struct column *col;
	size_t count;
	double total, mean, min, p10, p25, median, p75, p90, p99, max;
};

struct group_summary {
	char *name;			/* "a630 fragment", "a630", "all" */
	size_t records;
	size_t status[STATUS_COUNT];
	ARRAY(struct stat_summary) stats;	/* one per chosen column, in order */
};

struct top_entry {
	uint32_t row;
	double value;
};

struct histogram_bucket {
	double lo, hi;			/* values lo ..= hi */
	size_t count;
};

struct run_summary {
	const struct run *run;
	ARRAY(const struct column *) cols;	/* the statistics shown */
	struct group_summary all;
	ARRAY(struct group_summary) groups;	/* empty with BY_NONE */
	const struct column *top_col;		/* of the top list and histogram, or NULL */
	ARRAY(struct top_entry) top;		/* worst first, or best (summary_options.best) */
	bool best;
	ARRAY(uint32_t) failures;		/* rows that are errors, crashes, timeouts (cut at top) */
	size_t nfailures;			/* all of them */
	ARRAY(struct histogram_bucket) histogram;
};

struct summary_options {
	const char *const *stats;	/* names; none = every column */
	size_t nstats;
	enum group_by by;
	size_t top;			/* entries of the top list; 0: all */
	bool best;			/* it lists the best shaders, not the worst */
	bool histogram;
};

/* false, with a message in `err`, when a --stat name is not in the run. */
bool summarize_run(struct run_summary *s, const struct run *run, const struct summary_options *o,
		   struct strbuf *err);
void run_summary_release(struct run_summary *s);

#endif
