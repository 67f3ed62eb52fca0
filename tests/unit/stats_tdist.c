/* Student's t quantile (scipy's t.ppf) against closed forms and table values. */
#include <math.h>

#include "stats/tdist.h"
#include "tap.h"

static bool close_rel(double got, double want, double tol)
{
	return fabs(got - want) <= tol * fabs(want);
}

static void is_close(double got, double want, double tol, const char *what)
{
	if (!ok(close_rel(got, want, tol), "%s", what))
		tap_diag("got %.17g, expected %.17g", got, want);
}

/* Closed forms of the quantile for 1, 2 and 4 degrees of freedom (Student's t
 * distribution, "Quantile function"): computed, not copied from a table. */
static double t1(double p) { return tan(M_PI * (p - 0.5)); }
static double t2(double p) { return (2 * p - 1) / sqrt(2 * p * (1 - p)); }
static double t4(double p)
{
	double a = 4 * p * (1 - p);
	double q = cos(acos(sqrt(a)) / 3) / sqrt(a);
	return (p < 0.5 ? -2 : 2) * sqrt(q - 1);
}

static void closed_forms(void)
{
	static const double ps[] = { 0.001, 0.025, 0.1, 0.3, 0.6, 0.9, 0.975, 0.995, 0.9999 };
	int bad = 0;
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double p = ps[i];
		bad += !close_rel(student_t_quantile(p, 1), t1(p), 1e-11);
		bad += !close_rel(student_t_quantile(p, 2), t2(p), 1e-11);
		bad += !close_rel(student_t_quantile(p, 4), t4(p), 1e-11);
	}
	is_int(bad, 0, "quantiles match the closed forms for df 1, 2, 4 at 9 probabilities");
}

/* Published t-table values, t(0.975, df) unless noted (scipy agrees to all digits). */
static void table_values(void)
{
	is_close(student_t_quantile(0.975, 1), 12.706204736174707, 1e-12, "t(.975, 1)");
	is_close(student_t_quantile(0.975, 2), 4.302652729749464, 1e-10, "t(.975, 2)");
	is_close(student_t_quantile(0.975, 3), 3.182446305284263, 1e-12, "t(.975, 3)");
	is_close(student_t_quantile(0.975, 5), 2.570581835636314, 1e-12, "t(.975, 5)");
	is_close(student_t_quantile(0.975, 10), 2.228138851986274, 1e-12, "t(.975, 10)");
	is_close(student_t_quantile(0.975, 30), 2.042272456301238, 1e-12, "t(.975, 30)");
	is_close(student_t_quantile(0.975, 100), 1.983971518523552, 1e-12, "t(.975, 100)");
	is_close(student_t_quantile(0.995, 10), 3.169272672616951, 1e-11, "t(.995, 10)");
	is_close(student_t_quantile(0.95, 20), 1.724718242920787, 1e-11, "t(.95, 20)");
}

/* For a large df, the expansion of the quantile around the normal one
 * (Abramowitz & Stegun 26.7.5), truncated after 1/df^4. */
static double t_large_df(double z, double df)
{
	double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;
	double g1 = (z3 + z) / 4;
	double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
	return z + g1 / df + g2 / (df * df) + g3 / pow(df, 3) + g4 / pow(df, 4);
}

static void large_df(void)
{
	const double z975 = 1.959963984540054;	/* the normal quantile of 0.975 */
	int bad = 0;
	for (double df = 1e3; df <= 1e8; df *= 10) {
		double got = student_t_quantile(0.975, df), want = t_large_df(z975, df);
		if (!close_rel(got, want, 1e-13)) {
			tap_diag("df %g: got %.17g, expected %.17g", df, got, want);
			bad++;
		}
	}
	is_int(bad, 0, "large df (10^3 ... 10^8) follows the normal expansion to 1e-13");
	is_close(student_t_quantile(0.975, 1e18), z975, 1e-15, "df -> infinity: the normal quantile");
	is_close(student_t_quantile(0.001, 1e18), -3.090232306167813, 1e-14, "and in the far tail");
	double below = student_t_quantile(0.975, 999.9999), at = student_t_quantile(0.975, 1000);
	ok(below > at && below - at < 1e-9, "no jump where the large-df expansion takes over (%.3g)",
	   below - at);
}

static void properties(void)
{
	is_close(student_t_cdf(0, 7), 0.5, 1e-15, "cdf(0) = 1/2");
	is_close(student_t_cdf(-1.3, 7) + student_t_cdf(1.3, 7), 1.0, 1e-14, "cdf is symmetric");
	ok(student_t_quantile(0.5, 3) == 0.0, "the median is 0");
	is_close(-student_t_quantile(0.025, 9), student_t_quantile(0.975, 9), 1e-13,
		 "quantiles are symmetric");
	int bad = 0;
	for (double df = 1; df < 5000; df *= 1.7)
		for (double p = 0.01; p < 1; p += 0.07)
			bad += fabs(student_t_cdf(student_t_quantile(p, df), df) - p) > 1e-13;
	is_int(bad, 0, "cdf(quantile(p)) = p over a grid of p and df");
	is_close(incomplete_beta(0.3, 1, 1), 0.3, 1e-14, "I_x(1, 1) = x");
	is_close(incomplete_beta(0.3, 3, 1), 0.027, 1e-13, "I_x(a, 1) = x^a");
	is_close(incomplete_beta(0.3, 1, 4), 1 - pow(0.7, 4), 1e-13, "I_x(1, b) = 1 - (1-x)^b");
	ok(isnan(student_t_quantile(1.0, 3)) && isnan(student_t_quantile(0.5, 0)),
	   "out-of-domain arguments give NaN");
}

int main(void)
{
	closed_forms();
	table_values();
	large_df();
	properties();
	return done_testing();
}
