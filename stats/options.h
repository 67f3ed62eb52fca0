/*
 * Command-line pieces shared by `shdb stats` and `shdb cmp`: comma-separated
 * lists and the record filter they make.
 */
#ifndef SHDB_STATS_OPTIONS_H
#define SHDB_STATS_OPTIONS_H

#include "compiler/util/array.h"
#include "stats/run.h"

typedef ARRAY(char *) string_list;

/* Append the non-empty items of "a,b,c". */
void split_list(string_list *list, const char *arg);
void string_list_free(string_list *list);

/* The lists of --stage, --target and the paths' --include, --exclude as a
 * filter (pointing into them). */
struct record_filter make_filter(const string_list *stages, const string_list *targets,
				 const struct path_filter *paths);
/* --include or --exclude REGEX added to `paths`; a pattern that does not
 * compile is a usage error (die). */
void add_path_pattern(struct path_filter *paths, bool include, const char *pattern);

#endif
