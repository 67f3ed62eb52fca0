/*
 * Interned strings: a dense id per distinct string, for the paths, stages and
 * targets of a run.  A run of 2 million records has a million paths, so this
 * is compact: the strings live in one arena, the table holds 4-byte ids, and
 * there is no allocation per string (compiler/util/hash.h's strmap copies
 * each key with malloc and keeps 32-byte slots).
 *
 *	struct names n = NAMES_INIT;
 *	uint32_t id = names_intern(&n, "a/x.frag", 8);	// 0, then 0 again
 *	names_find(&n, "b", 1);				// -1
 *	n.list.data[id];				// "a/x.frag"
 *	names_release(&n);
 */
#ifndef SHDB_STATS_NAMES_H
#define SHDB_STATS_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/util/arena.h"
#include "compiler/util/array.h"

struct names {
	ARRAY(const char *) list;	/* id -> string, NUL-terminated, in `strings` */
	ARRAY(uint32_t) lens;		/* id -> length */
	ARRAY(uint32_t) hashes;		/* id -> hash */
	uint32_t *slots;		/* open addressing: id + 1, or 0 when empty */
	size_t cap;			/* slots; a power of two, or 0 */
	struct arena strings;
	uint32_t last;			/* the id interned last: records of one shader */
	size_t last_len;		/* come together, so it is often asked again */
};

#define NAMES_INIT { 0 }

uint32_t names_intern(struct names *n, const char *s, size_t len);
/* The id of `s`, or -1. */
long names_find(const struct names *n, const char *s, size_t len);
void names_release(struct names *n);

#endif
