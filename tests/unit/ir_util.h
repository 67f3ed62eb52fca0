/*
 * Helpers shared by the IR unit tests (header-only: every C file of tests/unit is
 * its own program).
 */
#ifndef SHDB_TESTS_IR_UTIL_H
#define SHDB_TESTS_IR_UTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

static int cmp_str_(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The golden files, tests/ir/NAME.ir (from $SHDB_SRCDIR or the current
 * directory), sorted; returns how many. */
__attribute__((unused))
static size_t golden_files(char ***out)
{
	const char *root = getenv("SHDB_SRCDIR");
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/tests/ir", root ? root : ".");
	DIR *d = opendir(dir);
	size_t n = 0, cap = 16;
	char **files = xmalloc(cap * sizeof(*files));
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 4 || strcmp(e->d_name + len - 3, ".ir"))
			continue;
		if (n == cap)
			files = xrealloc(files, (cap *= 2) * sizeof(*files));
		files[n] = xmalloc(strlen(dir) + len + 2);
		sprintf(files[n++], "%s/%s", dir, e->d_name);
	}
	if (d)
		closedir(d);
	qsort(files, n, sizeof(*files), cmp_str_);
	*out = files;
	return n;
}

__attribute__((unused))
static void golden_files_free(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

#endif
