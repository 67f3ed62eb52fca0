#include "compiler/util/hash.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

uint64_t hash_u64(uint64_t x)
{
	/* splitmix64's finaliser */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

uint64_t hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return hash_u64(h);
}

/* ---- strmap ---- */

void strmap_release(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static struct strmap_entry *strmap_find(const struct strmap *m, const void *key, size_t keylen,
					uint64_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct strmap_entry *e = &m->slots[i];
		if (!e->key)
			return e;
		if (e->hash == h && e->keylen == keylen && !memcmp(e->key, key, keylen))
			return e;
	}
}

static void strmap_resize(struct strmap *m, size_t cap)
{
	struct strmap old = *m;
	m->slots = xcalloc(cap, sizeof(*m->slots));
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++) {
		struct strmap_entry *e = &old.slots[i];
		if (e->key)
			*strmap_find(m, e->key, e->keylen, e->hash) = *e;
	}
	free(old.slots);
}

void *strmap_get(const struct strmap *m, const void *key, size_t keylen)
{
	if (!m->len)
		return NULL;
	struct strmap_entry *e = strmap_find(m, key, keylen, hash_bytes(key, keylen));
	return e->key ? e->value : NULL;
}

struct strmap_entry *strmap_put(struct strmap *m, const void *key, size_t keylen, bool *inserted)
{
	if ((m->len + 1) * 4 > m->cap * 3)
		strmap_resize(m, m->cap ? m->cap * 2 : 16);
	uint64_t h = hash_bytes(key, keylen);
	struct strmap_entry *e = strmap_find(m, key, keylen, h);
	bool is_new = !e->key;
	if (is_new) {
		/* keys may hold NUL bytes: copy all of them */
		e->key = xmalloc(keylen + 1);
		memcpy(e->key, key, keylen);
		e->key[keylen] = '\0';
		e->keylen = keylen;
		e->hash = h;
		e->value = NULL;
		m->len++;
	}
	if (inserted)
		*inserted = is_new;
	return e;
}

struct strmap_entry *strmap_next(const struct strmap *m, size_t *iter)
{
	while (*iter < m->cap) {
		struct strmap_entry *e = &m->slots[(*iter)++];
		if (e->key)
			return e;
	}
	return NULL;
}

/* ---- u64map ---- */

void u64map_release(struct u64map *m)
{
	free(m->keys);
	free(m->values);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

static size_t u64map_slot(const struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	size_t i = hash_u64(key) & mask;
	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

static void u64map_resize(struct u64map *m, size_t cap)
{
	struct u64map old = *m;
	m->keys = xcalloc(cap, sizeof(*m->keys));
	m->values = xcalloc(cap, sizeof(*m->values));
	m->used = xcalloc(cap, 1);
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.used[i])
			continue;
		size_t s = u64map_slot(m, old.keys[i]);
		m->used[s] = 1;
		m->keys[s] = old.keys[i];
		m->values[s] = old.values[i];
	}
	free(old.keys);
	free(old.values);
	free(old.used);
}

bool u64map_get(const struct u64map *m, uint64_t key, uint64_t *value)
{
	if (!m->len)
		return false;
	size_t s = u64map_slot(m, key);
	if (!m->used[s])
		return false;
	if (value)
		*value = m->values[s];
	return true;
}

void u64map_set(struct u64map *m, uint64_t key, uint64_t value)
{
	if ((m->len + 1) * 4 > m->cap * 3)
		u64map_resize(m, m->cap ? m->cap * 2 : 16);
	size_t s = u64map_slot(m, key);
	if (!m->used[s]) {
		m->used[s] = 1;
		m->keys[s] = key;
		m->len++;
	}
	m->values[s] = value;
}

bool u64map_next(const struct u64map *m, size_t *iter, uint64_t *key, uint64_t *value)
{
	while (*iter < m->cap) {
		size_t i = (*iter)++;
		if (m->used[i]) {
			*key = m->keys[i];
			if (value)
				*value = m->values[i];
			return true;
		}
	}
	return false;
}
