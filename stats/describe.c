/*
 * Descriptive statistics; see describe.h.
 */
#include "stats/describe.h"

#include <math.h>
#include <stdlib.h>

#include "stats/tdist.h"

double mean_of(const double *v, size_t n)
{
	struct ksum k = { 0 };
	for (size_t i = 0; i < n; i++)
		ksum_add(&k, v[i]);
	return n ? ksum_value(&k) / (double)n : 0.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void sort_doubles(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_double);
}

double median_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double percentile_sorted(const double *v, size_t n, double q)
{
	double rank = ceil(q / 100.0 * (double)n);	/* 1-based */
	if (rank < 1)
		return v[0];
	return rank >= (double)n ? v[n - 1] : v[(size_t)rank - 1];
}

/* Sample standard deviation (n - 1 in the denominator), two passes. */
static double stddev_of(const double *v, size_t n, double mean)
{
	struct ksum k = { 0 };
	for (size_t i = 0; i < n; i++)
		ksum_add(&k, (v[i] - mean) * (v[i] - mean));
	return sqrt(ksum_value(&k) / (double)(n - 1));
}

bool mean_confidence_interval(const double *v, size_t n, double confidence, struct mean_ci *out)
{
	if (n < 2)
		return false;
	double m = mean_of(v, n);
	double se = stddev_of(v, n, m) / sqrt((double)n);
	double h = se * student_t_quantile((1.0 + confidence) / 2.0, (double)(n - 1));
	*out = (struct mean_ci){ .mean = m, .lo = m - h, .hi = m + h };
	return true;
}
