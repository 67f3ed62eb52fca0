/*
 * Hash maps with open addressing and linear probing.
 *
 *  - `struct strmap`: byte-string keys (not necessarily NUL-terminated) to
 *    pointer values.  The map copies each key into its own storage.
 *  - `struct u64map`: 64-bit keys to 64-bit values (value numbering, ids).
 *
 * Both grow at 3/4 load; neither supports removal (none of our users need it,
 * and it keeps probing simple).  Iterate with the `_next` functions, which walk
 * the slots in table order (not insertion order: sort if output depends on it).
 */
#ifndef SHDB_UTIL_HASH_H
#define SHDB_UTIL_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 64-bit FNV-1a, then a final mix: good enough spread for linear probing. */
uint64_t hash_bytes(const void *data, size_t len);
uint64_t hash_u64(uint64_t x);

struct strmap_entry {
	char *key;		/* NUL-terminated copy, owned by the map */
	size_t keylen;
	uint64_t hash;
	void *value;
};

struct strmap {
	struct strmap_entry *slots;
	size_t cap;		/* power of two, or 0 */
	size_t len;
};

#define STRMAP_INIT { 0 }

void strmap_release(struct strmap *m);
/* The value for `key`, or NULL. */
void *strmap_get(const struct strmap *m, const void *key, size_t keylen);
/* Find or insert `key`; returns the entry, whose `value` the caller may set.
 * `*inserted` (if not NULL) tells whether the key is new (value then NULL). */
struct strmap_entry *strmap_put(struct strmap *m, const void *key, size_t keylen, bool *inserted);
/* Walk entries: start with *iter = 0; returns NULL at the end. */
struct strmap_entry *strmap_next(const struct strmap *m, size_t *iter);

struct u64map {
	uint64_t *keys;
	uint64_t *values;
	unsigned char *used;
	size_t cap;
	size_t len;
};

#define U64MAP_INIT { 0 }

void u64map_release(struct u64map *m);
bool u64map_get(const struct u64map *m, uint64_t key, uint64_t *value);
/* Insert or overwrite. */
void u64map_set(struct u64map *m, uint64_t key, uint64_t value);
/* Walk: start with *iter = 0; returns false at the end. */
bool u64map_next(const struct u64map *m, size_t *iter, uint64_t *key, uint64_t *value);

#endif
