/*
 * What the benchmark programs of bench/ share: a monotonic clock in
 * milliseconds, sorting of timings, and the one-line summary
 * "what  N units  median … p90 … p99 … total …".
 */
#ifndef SHDB_BENCH_H
#define SHDB_BENCH_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Sort `ms` (n timings) and print their count, median, p90, p99 and total. */
static inline void report_times(const char *what, const char *unit, double *ms, size_t n)
{
	double total = 0;
	if (!n) {
		printf("%-10s no %s\n", what, unit);
		return;
	}
	qsort(ms, n, sizeof(*ms), cmp_double);
	for (size_t i = 0; i < n; i++)
		total += ms[i];
	printf("%-10s %5zu %s  median %7.3f ms  p90 %7.3f ms  p99 %7.3f ms  total %8.1f ms\n",
	       what, n, unit, ms[n / 2], ms[n * 9 / 10], ms[n * 99 / 100], total);
}

/* The next row of a corpus manifest.tsv held in `buf` (split in place, as
 * strtok_r with `save`), its first nine tab-separated fields in f; false at
 * the end.  Rows with fewer fields are skipped. */
static inline bool manifest_row(char *buf, char **save, char *f[9])
{
	for (char *line = strtok_r(*save ? NULL : buf, "\n", save); line;
	     line = strtok_r(NULL, "\n", save)) {
		char *p = line;
		for (int i = 0; i < 9 && p; i++) {
			f[i] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (p)
			return true;
	}
	return false;
}

#endif
