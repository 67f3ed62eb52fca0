#include "compiler/util/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

#define ARENA_ALIGN _Alignof(max_align_t)
#define ARENA_FIRST_CHUNK 4096
#define ARENA_MAX_CHUNK ((size_t)1 << 24)

/*
 * Under AddressSanitizer every allocation is followed by a poisoned red zone
 * and a chunk's unused tail is poisoned, so reading or writing past an arena
 * allocation is reported as it is for malloc: without this, an overflow
 * inside a chunk went unseen (a second `immediates` line in the ir3 parser
 * wrote past its array, and only a write past the chunk's end was caught).
 * The interface is declared here rather than taken from
 * <sanitizer/asan_interface.h>, which only the sanitizer runtimes' packages
 * install.
 */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif

#ifdef ARENA_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#define ARENA_REDZONE ARENA_ALIGN
#define poison(p, n) __asan_poison_memory_region((p), (n))
#define unpoison(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define ARENA_REDZONE 0
#define poison(p, n) ((void)(p), (void)(n))
#define unpoison(p, n) ((void)(p), (void)(n))
#endif

struct arena_chunk {
	struct arena_chunk *prev;
	size_t size;			/* usable bytes in `data` */
	_Alignas(max_align_t) unsigned char data[];
};

static size_t align_up(size_t n)
{
	return (n + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
}

void arena_init(struct arena *a)
{
	memset(a, 0, sizeof(*a));
}

void arena_release(struct arena *a)
{
	struct arena_chunk *c = a->chunk;
	while (c) {
		struct arena_chunk *prev = c->prev;
		unpoison(c->data, c->size);
		free(c);
		c = prev;
	}
	arena_init(a);
}

static void new_chunk(struct arena *a, size_t need)
{
	size_t size = a->next_size ? a->next_size : ARENA_FIRST_CHUNK;
	if (size < need)
		size = need;
	struct arena_chunk *c = xmalloc(sizeof(*c) + size);
	c->size = size;
	poison(c->data, size);
	c->prev = a->chunk;
	a->chunk = c;
	a->used = 0;
	a->total += size;
	if (a->next_size < ARENA_MAX_CHUNK)
		a->next_size = (a->next_size ? a->next_size : ARENA_FIRST_CHUNK) * 2;
}

void *arena_alloc(struct arena *a, size_t size)
{
	size_t n = align_up(size ? size : 1) + ARENA_REDZONE;
	if (n < size)
		BUG("arena allocation size overflow");
	if (!a->chunk || a->chunk->size - a->used < n)
		new_chunk(a, n);
	void *p = a->chunk->data + a->used;
	a->used += n;
	unpoison(p, size);
	return p;
}

void *arena_zalloc(struct arena *a, size_t size)
{
	void *p = arena_alloc(a, size);
	memset(p, 0, size);
	return p;
}

void *arena_realloc(struct arena *a, void *old, size_t old_size, size_t new_size)
{
	if (!old)
		return arena_alloc(a, new_size);
	if (new_size <= old_size)
		return old;
	/* The last allocation of the current chunk can grow in place. */
	struct arena_chunk *c = a->chunk;
	unsigned char *o = old;
	if (c && o + align_up(old_size) + ARENA_REDZONE == c->data + a->used &&
	    (size_t)(o - c->data) + align_up(new_size) + ARENA_REDZONE <= c->size) {
		a->used = (size_t)(o - c->data) + align_up(new_size) + ARENA_REDZONE;
		unpoison(o, new_size);
		return old;
	}
	void *p = arena_alloc(a, new_size);
	memcpy(p, old, old_size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = arena_alloc(a, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, SIZE_MAX);
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap, cp;
	va_start(ap, fmt);
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed for format '%s'", fmt);
	char *p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
