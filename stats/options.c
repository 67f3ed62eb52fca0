/*
 * Shared command-line pieces; see options.h.
 */
#include "stats/options.h"

#include <stdlib.h>
#include <string.h>

void split_list(string_list *list, const char *arg)
{
	for (const char *p = arg; *p;) {
		size_t n = strcspn(p, ",");
		if (n)
			array_push(list, xstrndup(p, n));
		p += n + (p[n] == ',');
	}
}

void string_list_free(string_list *list)
{
	for (size_t i = 0; i < list->len; i++)
		free(list->data[i]);
	array_free(list);
}

struct record_filter make_filter(const string_list *stages, const string_list *targets,
				 const struct path_filter *paths)
{
	return (struct record_filter){
		.stages = (const char *const *)stages->data, .nstages = stages->len,
		.targets = (const char *const *)targets->data, .ntargets = targets->len,
		.paths = paths,
	};
}

void add_path_pattern(struct path_filter *paths, bool include, const char *pattern)
{
	struct strbuf err = STRBUF_INIT;
	if (path_filter_add(paths, include, pattern, &err) < 0)
		die("%s", err.buf);
	strbuf_release(&err);
}
