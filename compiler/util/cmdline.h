/*
 * What every `shdb` subcommand's option parsing shares (cli/main.c
 * dispatches to them): usage messages, integer options, the version line.
 * Exit status: 0 success, EXIT_WORK_FAILED (1) the work failed (a compile
 * error, regressions found), EXIT_USAGE (2, error.h) a usage error.
 */
#ifndef SHDB_UTIL_CMDLINE_H
#define SHDB_UTIL_CMDLINE_H

#include <stdbool.h>

#define EXIT_WORK_FAILED 1

/* Print `usage` and exit: all of it to stdout with 0 for --help; otherwise its
 * first line and "see 'shdb CMD --help'" to stderr, with 2. */
__attribute__((noreturn)) void usage_exit(const char *usage, bool requested);

/* Parse a non-negative integer option value or die with a usage error. */
long parse_long_option(const char *opt, const char *value, long min, long max);

/* The version line: "shdb 0.1.0 (git-describe)" (defined by the program,
 * cli/main.c, the one object rebuilt when the version changes). */
const char *shdb_version(void);

#endif
