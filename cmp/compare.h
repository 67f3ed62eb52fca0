/*
 * The comparison of two runs, computed once and read by every printer
 * (text, markdown, JSON, CSV, report.py's layout).
 *
 * Records are matched by (path, stage, target).  For each statistic, over the
 * matched pairs where both records are ok and carry it (report.py's rules,
 * shaderdb-tools.md §2):
 *  - a pair whose `loops` changed is left out of every other statistic,
 *    unless ignore_loops (unrolling makes the others meaningless);
 *  - totals before/after over those pairs ("shared programs"), and over the
 *    pairs where the statistic changed ("affected programs");
 *  - a change is hurt when (after > before) XOR higher-is-better, else helped;
 *  - per side: min/max/mean/median of |a - b| and of |a - b| / b (0 if b = 0);
 *  - with more than 3 changes, the 95% t-interval of the mean of a - b and of
 *    (a - b) / b over the changed pairs, and the verdict: inconclusive when an
 *    interval contains 0 or the two lie on different sides of it.
 * Besides: lost and gained records, status changes, totals per target and
 * per app (the first path components below the common prefix).
 */
#ifndef SHDB_CMP_COMPARE_H
#define SHDB_CMP_COMPARE_H

#include "stats/describe.h"
#include "stats/run.h"

struct cmp_options {
	const char *const *stats;	/* --stat: keys or any spelling; none = all shared */
	size_t nstats;
	bool ignore_loops;
	bool by_abs;			/* lists of shaders by absolute change, not relative */
	int app_depth;			/* path components that name an app (>= 1) */
};

struct pair {
	uint32_t before, after;		/* rows */
	uint32_t app;			/* index in comparison.apps */
	uint16_t target;		/* the before run's target id */
};

/* A pair whose statistic changed. */
struct change {
	uint32_t pair;
	double before, after;
};

typedef ARRAY(struct change) change_array;
typedef ARRAY(const char *) name_array;
typedef ARRAY(uint32_t) row_array;

/* Descriptive statistics of the helped (or hurt) changes. */
struct change_summary {
	double abs_min, abs_max, abs_mean, abs_median;
	double rel_min, rel_max, rel_mean, rel_median;
	/* every change starts from 0, so none has a relative size: the rel_*
	 * figures are report.py's zeros, and printers say "n/a" instead */
	bool rel_undefined;
};

enum verdict {
	VERDICT_NONE,			/* 3 changes or fewer, or a statistic without CI */
	VERDICT_INCONCLUSIVE_VALUE,	/* the value interval contains 0 */
	VERDICT_INCONCLUSIVE_REL,	/* the %-change interval contains 0 */
	VERDICT_INCONCLUSIVE_DISAGREE,	/* they lie on different sides of 0 */
	VERDICT_HELPED,
	VERDICT_HURT,
};

struct stat_cmp {
	const struct stat_info *info;
	const char *name;		/* as the before run spells it (report.py's name) */
	const struct column *bcol, *acol;
	size_t shared;			/* pairs counted in the totals */
	size_t loop_skipped;		/* pairs left out because loops changed */
	double total_before, total_after;
	double affected_before, affected_after;
	/* most changed first: largest relative change, then absolute, then pair order */
	change_array helped;
	change_array hurt;
	struct change_summary helped_sum, hurt_sum;
	bool has_ci;
	struct mean_ci ci_value, ci_rel;	/* of a - b, and of (a - b) / b */
	bool ci_rel_undefined;		/* every change starts from 0 (ci_rel is 0 … 0) */
	enum verdict verdict;
};

/* Totals of one target or one app. */
struct group_cmp {
	const char *name;
	size_t shared;			/* pairs both ok */
	size_t affected;		/* pairs where a compared statistic changed */
	double *before, *after;		/* per statistic (index in comparison.stats) */
};

typedef ARRAY(struct group_cmp) group_array;

enum status_change_kind {
	NEWLY_FAILING,		/* ok -> error, timeout or skipped */
	NEWLY_CRASHING,		/* anything -> crash */
	FIXED,			/* not ok -> ok */
	STATUS_CHANGED,		/* one failure -> another */
};

struct status_change {
	uint32_t pair;
	enum status_change_kind kind;
};

/* More apps than this: no per-app breakdown (a note says so). */
#define MAX_APPS 10000

struct comparison {
	const struct run *before, *after;
	const struct cmp_options *opts;
	ARRAY(struct pair) pairs;		/* in the before run's order */
	row_array lost;				/* before rows, sorted by name */
	row_array gained;			/* after rows, sorted by name */
	ARRAY(struct status_change) status_changes;	/* by kind, then name */
	size_t status_counts[STATUS_CHANGED + 1];
	size_t both_ok;				/* pairs ok in both runs */
	size_t affected;			/* of those, pairs where some statistic changed */
	ARRAY(struct stat_cmp) stats;
	name_array only_before;			/* statistic keys one run lacks */
	name_array only_after;
	struct names apps;
	group_array by_target;			/* index: the before run's target id */
	group_array by_app;			/* empty when there are more than MAX_APPS */
};

/* Compare; false (with a message in `err`) when --stat names a statistic that
 * neither run has. */
bool compare_runs(struct comparison *c, const struct run *before, const struct run *after,
		  const struct cmp_options *opts, struct strbuf *err);
void comparison_release(struct comparison *c);

/* The text that names a pair's shader: "path stage[ target]". */
void pair_name(const struct comparison *c, uint32_t pair, struct strbuf *out);
/* The relative change (a - b) / b; ±inf when b = 0 and a != b, 0 when equal. */
double rel_change(double before, double after);
const char *verdict_text(enum verdict v);
const char *status_change_name(enum status_change_kind k);

#endif
