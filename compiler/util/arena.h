/*
 * An arena: many small allocations, freed in one call (as Mesa's ralloc per
 * shader, QBE's per-function pools).  A whole compile lives in one arena.
 *
 * Memory is handed out from chunks that grow geometrically; a request larger
 * than a chunk gets a chunk of its own.  Every allocation is aligned to
 * `max_align_t`.  Not thread-safe: one arena per compile.
 */
#ifndef SHDB_UTIL_ARENA_H
#define SHDB_UTIL_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunk;	/* current chunk, linked to older ones */
	size_t used;			/* bytes used in `chunk` */
	size_t next_size;		/* size of the next chunk to allocate */
	size_t total;			/* bytes allocated from the system */
};

#define ARENA_INIT { 0 }

void arena_init(struct arena *a);
/* Free every allocation at once; the arena can be used again afterwards. */
void arena_release(struct arena *a);

void *arena_alloc(struct arena *a, size_t size);
void *arena_zalloc(struct arena *a, size_t size);
/* Grow `old` (of `old_size` bytes, from this arena) to `new_size`.  Extends in
 * place when `old` is the last allocation, copies otherwise. */
void *arena_realloc(struct arena *a, void *old, size_t old_size, size_t new_size);
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
__attribute__((format(printf, 2, 3)))
char *arena_printf(struct arena *a, const char *fmt, ...);

#define arena_new(a, T) ((T *)arena_zalloc((a), sizeof(T)))
#define arena_array(a, T, n) ((T *)arena_zalloc((a), sizeof(T) * (size_t)(n)))

#endif
