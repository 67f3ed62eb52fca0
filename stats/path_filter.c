/*
 * --include / --exclude over record paths; see path_filter.h.
 */
#include "stats/path_filter.h"

int path_filter_add(struct path_filter *pf, bool include, const char *pattern, struct strbuf *err)
{
	pcre2_code *re = re_compile(pattern, 0, include ? "--include" : "--exclude", err);
	if (!re)
		return -1;
	if (include)
		array_push(&pf->include, re);
	else
		array_push(&pf->exclude, re);
	return 0;
}

bool path_filter_empty(const struct path_filter *pf)
{
	return !pf->include.len && !pf->exclude.len;
}

bool path_filter_keeps(const struct path_filter *pf, const char *path, size_t len,
		       pcre2_match_data *md)
{
	bool kept = !pf->include.len;
	for (size_t i = 0; i < pf->include.len && !kept; i++)
		kept = re_search(pf->include.data[i], path, len, md);
	for (size_t i = 0; i < pf->exclude.len && kept; i++)
		kept = !re_search(pf->exclude.data[i], path, len, md);
	return kept;
}

void path_filter_release(struct path_filter *pf)
{
	for (size_t i = 0; i < pf->include.len; i++)
		pcre2_code_free(pf->include.data[i]);
	for (size_t i = 0; i < pf->exclude.len; i++)
		pcre2_code_free(pf->exclude.data[i]);
	array_free(&pf->include);
	array_free(&pf->exclude);
}
