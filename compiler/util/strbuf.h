/*
 * A growable string.  Invariants (as git's strbuf): `buf` is never NULL and
 * always NUL-terminated, `len` bytes are in use, `alloc` bytes are allocated
 * (0 while `buf` points at the shared empty string).
 */
#ifndef SHDB_UTIL_STRBUF_H
#define SHDB_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_empty[];
#define STRBUF_INIT { .buf = strbuf_empty }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* Give up ownership of the buffer (always malloc'ed, even when empty). */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
__attribute__((format(printf, 2, 3)))
void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Remove trailing whitespace. */
void strbuf_rtrim(struct strbuf *sb);

#endif
