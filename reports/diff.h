/*
 * A line diff of two texts (disassembly listings), Myers' O(ND) algorithm
 * ("An O(ND) Difference Algorithm and Its Variations", 1986) after the
 * common prefix and suffix are set aside, and its unified hunks:
 *
 *	struct diff d;
 *	if (diff_texts(&d, before, after, 2000))	// false: too different
 *		for each op of d.ops: '=' both, '-' a line of before, '+' of after
 *	diff_hunks(&d, 3, fn, ctx);			// "@@ -3,7 +3,8 @@" and lines
 *	diff_release(&d);
 *
 * Deletions come before insertions within a change, as diff -u prints them.
 */
#ifndef SHDB_REPORTS_DIFF_H
#define SHDB_REPORTS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/util/array.h"

struct diff_line {
	const char *p;		/* into the text, without its newline */
	size_t len;
	uint64_t hash;
};

struct diff_op {
	char kind;		/* '=', '-', '+' */
	uint32_t a, b;		/* the line of before ('=', '-') and of after ('=', '+') */
};

struct diff {
	ARRAY(struct diff_line) a, b;
	ARRAY(struct diff_op) ops;
	size_t edits;		/* lines deleted and inserted */
};

/* Compare; false (and no ops) when more than max_edits lines differ. */
bool diff_texts(struct diff *d, const char *before, const char *after, size_t max_edits);
void diff_release(struct diff *d);

/* A hunk: "@@ -a_start,a_len +b_start,b_len @@" (1-based), then ops [from, to). */
struct diff_hunk {
	size_t a_start, a_len, b_start, b_len;
	size_t from, to;
};

typedef void (*hunk_fn)(void *ctx, const struct diff *d, const struct diff_hunk *h);

/* The hunks of the changes with `context` lines around them, in order. */
void diff_hunks(const struct diff *d, size_t context, hunk_fn fn, void *ctx);

#endif
