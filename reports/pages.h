/*
 * Pieces shared by the report's pages (page_index.c, page_shader.c) and
 * summary.md (summary_md.c).
 */
#ifndef SHDB_REPORTS_PAGES_H
#define SHDB_REPORTS_PAGES_H

#include "cmp/print.h"
#include "reports/html.h"
#include "reports/report.h"

/* The shown name of a target: "(none)" for "". */
const char *target_shown(const char *target);

/* "<label> (#i)" of run i, escaped. */
const char *run_ref(struct page *p, const struct report *r, long i);

/* "helped", "HURT", "inconclusive", "" and its CSS class. */
const char *verdict_class(enum verdict v);

/* The cell of both 95% intervals a verdict rests on (value, then %-change). */
void intervals_cell(struct page *p, const struct stat_cmp *sc);

/* Where the regressed shaders of an alert were first as bad as now: per
 * history run (ascending), how many.  Returns the number of runs listed. */
struct first_seen {
	long run;
	size_t shaders;
};
size_t first_seen(const struct report *r, const struct alert *a, struct first_seen **out);

/* A shader's cell: its path (linked to its page when it has one) and stage. */
void shader_cell(struct page *p, const struct report *r, const char *path, const char *stage,
		 const char *target, const char *root);

/* A comparison's summary line ("records: 400 -> 400; …") with data-* numbers. */
void comparison_line(struct page *p, const struct scope *s);

/* The table of a comparison's changed statistics (data-* numbers for tests),
 * and a line naming the unchanged ones. */
void comparison_table(struct page *p, const struct scope *s);

/* The totals per app (or target) of a comparison, as `shdb cmp` prints them:
 * shaders, affected, the change of each changed statistic; most affected
 * first, cut at `top`.  Nothing when there is only one group. */
void groups_table(struct page *p, const struct scope *s, const char *what,
		  const group_array *groups, size_t top);

#endif
