/*
 * Command-line helpers of every subcommand (cmdline.h).
 */
#include "compiler/util/cmdline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

void usage_exit(const char *usage, bool requested)
{
	if (requested) {
		fputs(usage, stdout);
		exit(0);
	}
	/* a mistake: the synopsis and where the rest is, not the whole help */
	static const char prefix[] = "usage: shdb ";
	int line = (int)strcspn(usage, "\n");
	fprintf(stderr, "%.*s\n", line, usage);
	if (!strncmp(usage, prefix, sizeof(prefix) - 1)) {
		const char *name = usage + sizeof(prefix) - 1;
		fprintf(stderr, "see 'shdb %.*s --help'\n", (int)strcspn(name, " \n"), name);
	}
	exit(EXIT_USAGE);
}

long parse_long_option(const char *opt, const char *value, long min, long max)
{
	char *end;
	errno = 0;
	long v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < min || v > max)
		die("option '%s' needs an integer between %ld and %ld, not '%s'", opt, min, max, value);
	return v;
}
