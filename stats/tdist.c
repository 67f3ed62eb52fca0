/*
 * Student's t CDF and quantile through the regularized incomplete beta
 * function.  See tdist.h for why this is written by hand.
 *
 *	P(T <= t) = 1 - I_x(df/2, 1/2) / 2,  x = df / (df + t^2),  for t >= 0
 */
#include "stats/tdist.h"

#include <float.h>
#include <math.h>

/* near x = (a + 1) / (a + b + 2) the fraction needs about sqrt(max(a, b)) terms */
#define CF_MAX_ITER 100000
#define CF_EPS 1e-15
#define CF_TINY 1e-300

/* The continued fraction of I_x(a, b) (Numerical Recipes' betacf, Lentz's
 * method); converges fast for x < (a + 1) / (a + b + 2). */
static double beta_cf(double x, double a, double b)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1.0 / d;
	double h = d;
	for (int m = 1; m <= CF_MAX_ITER; m++) {
		/* even step */
		double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = fabs(d) < CF_TINY ? 1.0 / CF_TINY : 1.0 / d;
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		h *= d * c;
		/* odd step */
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = fabs(d) < CF_TINY ? 1.0 / CF_TINY : 1.0 / d;
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		double delta = d * c;
		h *= delta;
		if (fabs(delta - 1.0) < CF_EPS)
			break;
	}
	return h;
}

/* ln Γ(z) − ((z − ½) ln z − z + ½ ln 2π): the tail of Stirling's series, z >= 10. */
static double stirling_tail(double z)
{
	double z2 = 1.0 / (z * z);
	return (1.0 / 12 - z2 * (1.0 / 360 - z2 * (1.0 / 1260 - z2 / 1680))) / z;
}

/* ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b).  For a large a the difference
 * ln Γ(a + b) − ln Γ(a) is taken from Stirling's series term by term, which
 * keeps its digits when both logarithms are huge (df = 10^6 gives 10^7). */
static double log_beta(double a, double b)
{
	if (a < b) {
		double t = a;
		a = b;
		b = t;
	}
	if (a < 10.0)
		return lgamma(a) + lgamma(b) - lgamma(a + b);
	double diff = (a - 0.5) * log1p(b / a) + b * log(a + b) - b +
		      stirling_tail(a + b) - stirling_tail(a);
	return lgamma(b) - diff;
}

/* I_x(a, b) given both x and y = 1 − x, each to full precision. */
static double ibeta_xy(double x, double y, double a, double b)
{
	if (x <= 0.0)
		return 0.0;
	if (y <= 0.0)
		return 1.0;
	double ln_x = x < 0.5 ? log(x) : log1p(-y);
	double ln_y = y < 0.5 ? log(y) : log1p(-x);
	double front = exp(a * ln_x + b * ln_y - log_beta(a, b));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(x, a, b) / a;
	return 1.0 - front * beta_cf(y, b, a) / b;
}

double incomplete_beta(double x, double a, double b)
{
	return ibeta_xy(x, 1.0 - x, a, b);
}

double student_t_cdf(double t, double df)
{
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	double t2 = t * t;
	double tail = 0.5 * ibeta_xy(df / (df + t2), t2 / (df + t2), df / 2.0, 0.5);
	return t >= 0 ? 1.0 - tail : tail;
}

static double t_density(double t, double df)
{
	double ln = -log_beta(df / 2.0, 0.5) - 0.5 * log(df) - (df + 1.0) / 2.0 * log1p(t * t / df);
	return exp(ln);
}

/* Solve cdf(t) = p for t >= 0 (p >= 1/2): bracket, then Newton inside it. */
static double upper_quantile(double p, double df)
{
	double lo = 0.0, hi = 1.0;
	while (student_t_cdf(hi, df) < p && hi < 1e300)
		lo = hi, hi *= 2.0;
	double t = (lo + hi) / 2.0;
	for (int i = 0; i < 200; i++) {
		double f = student_t_cdf(t, df) - p;
		if (f == 0.0)
			break;
		if (f < 0)
			lo = t;
		else
			hi = t;
		double next = t - f / t_density(t, df);
		if (!(next > lo && next < hi))
			next = (lo + hi) / 2.0;	/* Newton left the bracket: bisect */
		if (fabs(next - t) <= 4 * DBL_EPSILON * fabs(t))
			return next;
		t = next;
	}
	return t;
}

/* Φ⁻¹(p): Acklam's rational approximation (relative error 1.2e-9), then
 * Newton steps on erfc to full precision. */
static double normal_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
				    -2.759285104469687e+02, 1.383577518672690e+02,
				    -3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
				    -1.556989798598866e+02, 6.680131188771972e+01,
				    -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
				    -2.400758277161838e+00, -2.549732539343734e+00,
				    4.374664141464968e+00, 2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
				    2.445134137142996e+00, 3.754408661907416e+00 };
	double x;
	if (p < 0.02425 || p > 1 - 0.02425) {
		double q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
		x = p < 0.5 ? x : -x;
	} else {
		double q = p - 0.5, r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	/* work on the smaller tail, where erfc keeps the digits (1 - p is exact
	 * for p >= 1/2) */
	double tail = p < 0.5 ? p : 1 - p, sign = p < 0.5 ? 1 : -1;
	x *= sign;
	for (int i = 0; i < 3; i++) {
		double e = 0.5 * erfc(-x / M_SQRT2) - tail;
		x -= e * sqrt(2 * M_PI) * exp(x * x / 2);
	}
	return sign * x;
}

/* For a large df the continued fraction needs ~sqrt(df) terms and its stopping
 * test loses digits; the expansion around the normal quantile (Abramowitz &
 * Stegun 26.7.5) is then exact to double precision. */
#define LARGE_DF 1000.0

static double large_df_quantile(double p, double df)
{
	double z = normal_quantile(p);
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
	double g1 = (z3 + z) / 4;
	double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
	return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

double student_t_quantile(double p, double df)
{
	if (!(p > 0.0 && p < 1.0) || !(df > 0.0))
		return NAN;
	if (p == 0.5)
		return 0.0;
	if (df >= LARGE_DF)
		return large_df_quantile(p, df);
	return p > 0.5 ? upper_quantile(p, df) : -upper_quantile(1.0 - p, df);
}
