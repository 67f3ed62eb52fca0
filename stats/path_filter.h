/*
 * --include REGEX / --exclude REGEX over record paths, one rule for shdb run
 * (which files to compile) and shdb stats / cmp (which records to read):
 * PCRE2 patterns searched anywhere in the path (anchor with ^ and $); a path
 * is kept when it matches some --include (or none is given) and no
 * --exclude.
 *
 *	struct path_filter pf = PATH_FILTER_INIT;
 *	if (path_filter_add(&pf, false, "\\.comp$", &err) < 0) die("%s", err.buf);
 *	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
 *	path_filter_keeps(&pf, "a/b.frag", 8, md);	// true
 */
#ifndef SHDB_STATS_PATH_FILTER_H
#define SHDB_STATS_PATH_FILTER_H

#include "compiler/util/array.h"
#include "stats/re.h"

struct path_filter {
	ARRAY(pcre2_code *) include;	/* keep a path matching any (none: keep all) */
	ARRAY(pcre2_code *) exclude;	/* then drop a path matching any */
};
#define PATH_FILTER_INIT { ARRAY_INIT, ARRAY_INIT }

/* Add an --include (or --exclude) pattern; -1 with "--include 'x(': …" in
 * `err` when it does not compile. */
int path_filter_add(struct path_filter *pf, bool include, const char *pattern, struct strbuf *err);
bool path_filter_empty(const struct path_filter *pf);
/* `md`: scratch space of the caller's thread (pcre2_match_data_create). */
bool path_filter_keeps(const struct path_filter *pf, const char *path, size_t len,
		       pcre2_match_data *md);
void path_filter_release(struct path_filter *pf);

#endif
