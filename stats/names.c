/*
 * Interned strings; see names.h.  Linear probing over a table kept at most
 * half full; a slot holds id + 1, and the id's stored hash and length settle
 * most mismatches without touching the string.
 */
#include "stats/names.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/util/hash.h"

/* 8 bytes at a time, then hash_u64's mix: paths are tens of bytes long. */
static uint32_t hash_name(const char *s, size_t len)
{
	uint64_t h = len * 0x9e3779b97f4a7c15ull;
	while (len >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		s += 8;
		len -= 8;
	}
	uint64_t tail = 0;
	memcpy(&tail, s, len);
	return (uint32_t)hash_u64(h ^ tail);
}

static bool same(const struct names *n, uint32_t id, uint32_t h, const char *s, size_t len)
{
	return n->hashes.data[id] == h && n->lens.data[id] == len && !memcmp(n->list.data[id], s, len);
}

/* The slot of `s`: the one holding it, or the empty one where it would go. */
static size_t slot_of(const struct names *n, uint32_t h, const char *s, size_t len)
{
	size_t mask = n->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask)
		if (!n->slots[i] || same(n, n->slots[i] - 1, h, s, len))
			return i;
}

static void grow(struct names *n)
{
	free(n->slots);
	n->cap = n->cap ? n->cap * 2 : 64;
	n->slots = xcalloc(n->cap, sizeof(uint32_t));
	size_t mask = n->cap - 1;
	for (uint32_t id = 0; id < n->list.len; id++) {
		size_t i = n->hashes.data[id] & mask;
		while (n->slots[i])
			i = (i + 1) & mask;
		n->slots[i] = id + 1;
	}
}

uint32_t names_intern(struct names *n, const char *s, size_t len)
{
	if (n->list.len && n->last_len == len && !memcmp(n->list.data[n->last], s, len))
		return n->last;
	if ((n->list.len + 1) * 2 > n->cap)
		grow(n);
	uint32_t h = hash_name(s, len);
	size_t i = slot_of(n, h, s, len);
	if (!n->slots[i]) {
		if (n->list.len >= UINT32_MAX - 1 || len > UINT32_MAX)
			BUG("too many or too long names");
		/* every byte: a name read from a file may hold a NUL, and
		 * `same` compares `len` bytes */
		char *copy = arena_alloc(&n->strings, len + 1);
		memcpy(copy, s, len);
		copy[len] = 0;
		array_push(&n->list, copy);
		array_push(&n->lens, (uint32_t)len);
		array_push(&n->hashes, h);
		n->slots[i] = (uint32_t)n->list.len;
	}
	n->last = n->slots[i] - 1;
	n->last_len = len;
	return n->last;
}

long names_find(const struct names *n, const char *s, size_t len)
{
	if (!n->cap)
		return -1;
	size_t i = slot_of(n, hash_name(s, len), s, len);
	return n->slots[i] ? (long)n->slots[i] - 1 : -1;
}

void names_release(struct names *n)
{
	array_free(&n->list);
	array_free(&n->lens);
	array_free(&n->hashes);
	free(n->slots);
	arena_release(&n->strings);
	memset(n, 0, sizeof(*n));
}
