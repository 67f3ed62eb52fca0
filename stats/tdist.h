/*
 * Student's t distribution, for the confidence interval of a mean change
 * (report.py uses scipy's t.ppf(0.975, n - 1); shaderdb-tools.md §2).
 *
 * Written here rather than taken from a library: the project has no numerics
 * dependency, and the whole need is one quantile.  The regularized incomplete
 * beta function is evaluated by its continued fraction (modified Lentz); the
 * quantile inverts the CDF by Newton steps kept inside a bisection bracket,
 * and for df >= 1000 uses the expansion around the normal quantile.
 * Accuracy: about 1e-12 relative for df >= 1 (tests/unit/stats_tdist.c checks
 * closed forms and table values).
 */
#ifndef SHDB_STATS_TDIST_H
#define SHDB_STATS_TDIST_H

/* I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1, a, b > 0. */
double incomplete_beta(double x, double a, double b);

/* P(T <= t) for T ~ Student's t with `df` > 0 degrees of freedom. */
double student_t_cdf(double t, double df);

/* The t with P(T <= t) = p, for 0 < p < 1 and df > 0 (scipy's t.ppf). */
double student_t_quantile(double p, double df);

#endif
