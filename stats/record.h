/*
 * One record as a reader hands it over: a shader × stage × target with its
 * status and statistics (stats/SCHEMA.md).  Every string is a span into the
 * reader's line buffer, valid only during the callback that receives it.
 */
#ifndef SHDB_STATS_RECORD_H
#define SHDB_STATS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

enum record_status {
	STATUS_OK,
	STATUS_ERROR,
	STATUS_CRASH,
	STATUS_TIMEOUT,
	STATUS_SKIPPED,
	STATUS_COUNT
};

const char *status_name(enum record_status s);
bool status_parse(const char *s, size_t len, enum record_status *out);

/* A string that is not NUL-terminated. */
struct span {
	const char *p;
	size_t len;
};

#define SPAN_LIT(s) ((struct span){ (s), sizeof(s) - 1 })

/* With a literal `s`, the length is a constant and the compiler inlines memcmp. */
static inline bool span_eq(struct span a, const char *s)
{
	size_t n = strlen(s);
	return a.len == n && !memcmp(a.p, s, n);
}

struct stat_pair {
	struct span name;	/* as the source spells it: "non-nops", "inst" */
	double value;
};

struct record {
	struct span path, stage, target, message;
	enum record_status status;
	double time_us;			/* NAN when unknown */
	const struct stat_pair *stats;
	size_t nstats;
	int line;			/* where the record starts in its file */
};

#endif
