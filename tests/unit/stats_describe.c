/* Descriptive statistics and the t-interval, against report.py's own output. */
#include <math.h>
#include <stdio.h>

#include "stats/describe.h"
#include "tap.h"

/* x with two decimals, as report.py prints it; `buf` holds the text. */
struct num_text {
	char buf[32];
};

static const char *f2_into(struct num_text *t, double x)
{
	snprintf(t->buf, sizeof(t->buf), "%.2f", x);
	return t->buf;
}

#define f2(x) f2_into(&(struct num_text){ 0 }, (x))

static void interval_of_report_py_example(void)
{
	/* shaderdb-tools.md §4.1: instructions 40->38, 200->190, 60->55 (helped),
	 * 100->104 (hurt).  report.py printed "-12.56 6.06" and "-12.01% 4.84%". */
	double value[] = { 38 - 40, 190 - 200, 55 - 60, 104 - 100 };
	double rel[] = { (38 - 40) / 40.0, (190 - 200) / 200.0, (55 - 60) / 60.0, (104 - 100) / 100.0 };
	struct mean_ci ci;
	ok(mean_confidence_interval(value, 4, 0.95, &ci), "an interval of 4 values");
	is_str(f2(ci.lo), "-12.56", "report.py's lower bound of the value interval");
	is_str(f2(ci.hi), "6.06", "report.py's upper bound");
	ok(mean_confidence_interval(rel, 4, 0.95, &ci), "an interval of 4 ratios");
	is_str(f2(ci.lo * 100), "-12.01", "report.py's lower bound of the %%-change interval");
	is_str(f2(ci.hi * 100), "4.84", "report.py's upper bound");
	ok(!mean_confidence_interval(value, 1, 0.95, &ci), "no interval from one value");
}

static void central_values(void)
{
	double odd[] = { 1, 2, 7 }, even[] = { 1, 2, 4, 10 };
	is_str(f2(median_sorted(odd, 3)), "2.00", "median of an odd count");
	is_str(f2(median_sorted(even, 4)), "3.00", "median of an even count: mean of the middle two");
	is_str(f2(mean_of(even, 4)), "4.25", "mean");
	is_str(f2(percentile_sorted(even, 4, 0)), "1.00", "p0 is the minimum");
	is_str(f2(percentile_sorted(even, 4, 100)), "10.00", "p100 is the maximum");
	is_str(f2(percentile_sorted(even, 4, 50)), "2.00", "p50 by nearest rank: the 2nd of 4");
	is_str(f2(percentile_sorted(even, 4, 90)), "10.00", "p90 by nearest rank: the 4th of 4, "
	       "a value of the data (no interpolated 8.2)");
	is_str(f2(percentile_sorted(even, 4, 25)), "1.00", "p25: the 1st of 4");
	is_str(f2(percentile_sorted(even, 4, 26)), "2.00", "p26: the 2nd of 4");
	is_str(f2(percentile_sorted(odd, 1, 90)), "1.00", "a percentile of one value");
	double unsorted[] = { 5, -1, 3, 3, 0 };
	sort_doubles(unsorted, 5);
	ok(unsorted[0] == -1 && unsorted[2] == 3 && unsorted[4] == 5, "sort_doubles");
}

static void compensated_sum(void)
{
	struct ksum k = { 0 };
	ksum_add(&k, 1e16);
	for (int i = 0; i < 1000; i++)
		ksum_add(&k, 1.0);
	ksum_add(&k, -1e16);
	is_str(f2(ksum_value(&k)), "1000.00", "a compensated sum keeps small terms next to big ones");
	double tenths[10];
	for (int i = 0; i < 10; i++)
		tenths[i] = 0.1;
	ok(mean_of(tenths, 10) == 0.1, "the mean of ten 0.1 is exactly 0.1");
}

int main(void)
{
	interval_of_report_py_example();
	central_values();
	compensated_sum();
	return done_testing();
}
