/*
 * Printing a run summary (stats/print_summary.c), one function per format.
 */
#ifndef SHDB_STATS_PRINT_SUMMARY_H
#define SHDB_STATS_PRINT_SUMMARY_H

#include <stdio.h>

#include "stats/format.h"
#include "stats/summary.h"
#include "stats/threshold.h"

struct summary_print {
	FILE *out;
	const struct run_summary *s;
	bool color;
	bool summary;			/* --summary: all records only */
	const struct threshold_check *checks;	/* --fail-on */
	size_t nchecks;
};

void summary_print_text(const struct summary_print *p);
void summary_print_markdown(const struct summary_print *p);
void summary_print_json(const struct summary_print *p);
void summary_print_csv(const struct summary_print *p);

#endif
