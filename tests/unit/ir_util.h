/*
 * Helpers shared by the IR unit tests (header-only: every C file of tests/unit is
 * its own program).
 */
#ifndef SHDB_TESTS_IR_UTIL_H
#define SHDB_TESTS_IR_UTIL_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

static int cmp_str_(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void golden_push_(char ***files, size_t *n, size_t *cap, const char *path)
{
	if (*n == *cap)
		*files = xrealloc(*files, (*cap *= 2) * sizeof(**files));
	(*files)[(*n)++] = xstrdup(path);
}

/* Every NAME.ir under `dir`, descending into folders when `deep`. */
static void golden_scan_(const char *dir, bool deep, char ***files, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		char path[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (len >= 4 && !strcmp(e->d_name + len - 3, ".ir")) {
			golden_push_(files, n, cap, path);
		} else if (deep) {
			DIR *sub = opendir(path);
			if (sub) {
				closedir(sub);
				golden_scan_(path, deep, files, n, cap);
			}
		}
	}
	if (d)
		closedir(d);
}

/* The golden files (from $SHDB_SRCDIR or the current directory), sorted:
 * tests/ir/NAME.ir, or with `deep` also the pass tests tests/ir/PASS/NAME.ir.
 * Returns how many. */
__attribute__((unused))
static size_t golden_files_in(char ***out, bool deep)
{
	const char *root = getenv("SHDB_SRCDIR");
	char dir[4096];
	size_t n = 0, cap = 16;
	char **files = xmalloc(cap * sizeof(*files));
	snprintf(dir, sizeof(dir), "%s/tests/ir", root ? root : ".");
	golden_scan_(dir, deep, &files, &n, &cap);
	qsort(files, n, sizeof(*files), cmp_str_);
	*out = files;
	return n;
}

/* The top-level golden files, tests/ir/NAME.ir. */
__attribute__((unused))
static size_t golden_files(char ***out)
{
	return golden_files_in(out, false);
}

__attribute__((unused))
static void golden_files_free(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

#endif
