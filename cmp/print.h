/*
 * Printing a comparison: one function per format (cmp/print_*.c).  Every
 * printer shows the same numbers from `struct comparison`; they differ only
 * in layout.
 */
#ifndef SHDB_CMP_PRINT_H
#define SHDB_CMP_PRINT_H

#include <stdio.h>

#include "cmp/compare.h"
#include "stats/table.h"
#include "stats/format.h"
#include "stats/threshold.h"

struct cmp_print {
	FILE *out;
	const struct comparison *c;
	bool color;
	size_t top;		/* shaders per list; 0 lists all */
	bool summary;		/* --summary: totals only, no lists of shaders */
	bool changes_only;	/* --changes-only: only statistics that changed */
	const struct threshold_check *checks;
	size_t nchecks;
};

void cmp_print_text(const struct cmp_print *p);
void cmp_print_markdown(const struct cmp_print *p);
void cmp_print_json(const struct cmp_print *p);
void cmp_print_csv(const struct cmp_print *p);
void cmp_print_reportpy(const struct cmp_print *p);

/* Helpers shared by the printers (cmp/print_common.c). */
bool stat_changed(const struct stat_cmp *s);
/* How many of n entries a list shows. */
size_t list_len(const struct cmp_print *p, size_t n);
/* The table of totals per group (target or app): shaders, affected, then the
 * change of each statistic that changed anywhere ("." where it did not change
 * in the group).  Groups come most affected first, then by name, the
 * unaffected ones left out when there are several, cut at --top.  Returns how
 * many groups were cut.  `markdown` quotes names as code; colours are for text. */
size_t group_table(const struct cmp_print *p, const char *title, const group_array *groups,
		   bool markdown, struct text_table *t);
/* Green for a change for the better, red for the worse, NULL for none. */
const char *direction_color(const struct stat_info *info, double before, double after);
/* "lower is better" / "higher is better" */
const char *better_text(const struct stat_info *info);
/* "helped", "HURT", "inconclusive" or "" */
const char *verdict_word(enum verdict v);
/* The verdict with what an inconclusive one rests on: "inconclusive (value CI
 * contains 0)", "helped" … */
const char *verdict_brief(enum verdict v);
/* Both 95% intervals the verdict rests on, value then %-change:
 * "-22.41 … +12.01 (+0.18% … +14.62%)"; "" without intervals. */
void fmt_intervals(struct strbuf *sb, const struct stat_cmp *s);

#endif
