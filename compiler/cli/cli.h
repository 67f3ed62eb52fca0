/*
 * The `shdb` command line: one function per subcommand, each in the folder of
 * the code it drives (compiler/cli for compile and targets, runner/, stats/,
 * cmp/, reports/).  Exit status: 0 success, 1 the work failed (a compile
 * error, regressions found), 2 usage error.
 */
#ifndef SHDB_CLI_H
#define SHDB_CLI_H

#include <stdbool.h>

#define EXIT_WORK_FAILED 1

typedef int (*command_fn)(int argc, char **argv);

struct command {
	const char *name;
	command_fn fn;		/* NULL: not implemented yet */
	const char *summary;
};

extern const struct command commands[];

/* Print `usage` and exit: all of it to stdout with 0 for --help; otherwise its
 * first line and "see 'shdb CMD --help'" to stderr, with 2. */
__attribute__((noreturn)) void usage_exit(const char *usage, bool requested);

/* Parse a non-negative integer option value or die with a usage error. */
long parse_long_option(const char *opt, const char *value, long min, long max);

/* The version line: "shdb 0.1.0 (git-describe)". */
const char *shdb_version(void);

int cmd_compile(int argc, char **argv);
int cmd_targets(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_cmp(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
