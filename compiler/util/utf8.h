/*
 * UTF-8: what is valid (RFC 3629: no overlong forms, no surrogates, nothing
 * past U+10FFFF), and the escape that keeps bytes that are not, so a string
 * of any bytes (a file name, a message quoting one) can go where only UTF-8
 * may, such as JSON, without being dropped:
 *
 *	"caf\xe9.frag" (Latin-1)   ->   caf\xe9.frag   (the 4 characters \ x e 9)
 *
 * Valid text is left as it is: the escape is Python's "backslashreplace".
 * utf8_unescaped_cmp() orders escaped strings as the bytes they stand for.
 */
#ifndef SHDB_UTIL_UTF8_H
#define SHDB_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/util/strbuf.h"

/* The length of the UTF-8 sequence at s (1-4), of at most `avail` bytes, or
 * 0 when it is not a valid one. */
size_t utf8_seq_len(const unsigned char *s, size_t avail);

bool utf8_valid(const char *s, size_t len);

/* Append `s` to `out`, each byte that is not part of a valid sequence (and
 * NUL) written as "\xNN" (two lower-case hex digits). */
void utf8_escape(struct strbuf *out, const char *s, size_t len);

/* `s` itself when it is valid UTF-8, else its escape in `tmp`. */
const char *utf8_or_escape(const char *s, struct strbuf *tmp);

/* strcmp() of the byte strings that two escaped strings stand for. */
int utf8_unescaped_cmp(const char *a, const char *b);

#endif
