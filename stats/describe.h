/*
 * Descriptive statistics over arrays of doubles: compensated sums, mean,
 * median and percentiles of sorted data, and the t-interval of a mean as
 * report.py computes it (shaderdb-tools.md §2):
 *
 *	m = mean(x), se = stddev(x, ddof = 1) / sqrt(n), h = se * t.ppf(0.975, n - 1)
 *	interval = [m - h, m + h]
 */
#ifndef SHDB_STATS_DESCRIBE_H
#define SHDB_STATS_DESCRIBE_H

#include <stdbool.h>
#include <stddef.h>

/* A Neumaier-compensated running sum: exact for integers below 2^53, and
 * within an ulp or so of the true sum for any doubles. */
struct ksum {
	double sum, carry;
};

static inline void ksum_add(struct ksum *k, double x)
{
	double t = k->sum + x;
	if ((k->sum < 0 ? -k->sum : k->sum) >= (x < 0 ? -x : x))
		k->carry += (k->sum - t) + x;
	else
		k->carry += (x - t) + k->sum;
	k->sum = t;
}

static inline double ksum_value(const struct ksum *k)
{
	return k->sum + k->carry;
}

double mean_of(const double *v, size_t n);
void sort_doubles(double *v, size_t n);
/* Of data sorted ascending, n >= 1: the middle value, or the mean of the two
 * middle values (Python's statistics.median). */
double median_sorted(const double *v, size_t n);
/* Of data sorted ascending, n >= 1: the q-th percentile (0 <= q <= 100) by
 * nearest rank, the smallest value with at least q% of the data at or below
 * it: always one of the values, so a percentile of counts is a count. */
double percentile_sorted(const double *v, size_t n, double q);

struct mean_ci {
	double mean, lo, hi;
};

/* The `confidence` (0.95) t-interval of the mean of v[0..n); false when n < 2. */
bool mean_confidence_interval(const double *v, size_t n, double confidence, struct mean_ci *out);

#endif
