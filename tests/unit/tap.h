/*
 * A minimal TAP producer for C unit tests, run by prove.
 *
 *	int main(void) {
 *		ok(1 + 1 == 2, "addition");
 *		is_int(f(3), 9, "f squares");
 *		return done_testing();
 *	}
 *
 * done_testing() prints the plan at the end ("1..N") and returns the exit
 * status: 0 when every test passed.
 */
#ifndef SHDB_TAP_H
#define SHDB_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_run, tap_failed;

__attribute__((format(printf, 2, 3), unused))
static bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;
	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

#define is_int(got, want, ...) tap_is_int_((long long)(got), (long long)(want), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, want, ...) tap_is_str_((got), (want), __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 5, 6), unused))
static bool tap_is_int_(long long got, long long want, const char *file, int line,
			const char *fmt, ...)
{
	va_list ap;
	char msg[512];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ok(got == want, "%s", msg))
		printf("#   at %s:%d: got %lld, expected %lld\n", file, line, got, want);
	return got == want;
}

__attribute__((format(printf, 5, 6), unused))
static bool tap_is_str_(const char *got, const char *want, const char *file, int line,
			const char *fmt, ...)
{
	va_list ap;
	char msg[512];
	bool same = got && want ? !strcmp(got, want) : got == want;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ok(same, "%s", msg))
		printf("#   at %s:%d:\n#   got:      '%s'\n#   expected: '%s'\n", file, line,
		       got ? got : "(null)", want ? want : "(null)");
	return same;
}

__attribute__((format(printf, 1, 2), unused))
static void tap_diag(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Skip the whole file: prints "1..0 # SKIP reason". */
__attribute__((unused))
static int skip_all(const char *reason)
{
	printf("1..0 # SKIP %s\n", reason);
	return 0;
}

__attribute__((unused))
static int done_testing(void)
{
	printf("1..%d\n", tap_run);
	return tap_failed ? 1 : 0;
}

#endif
