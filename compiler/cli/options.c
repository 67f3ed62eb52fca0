#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "compiler/cli/cli.h"
#include "compiler/util/error.h"

void usage_exit(const char *usage, bool requested)
{
	fputs(usage, requested ? stdout : stderr);
	exit(requested ? 0 : EXIT_USAGE);
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
