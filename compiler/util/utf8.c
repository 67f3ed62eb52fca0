/*
 * UTF-8 validity and escapes; see utf8.h.
 */
#include "compiler/util/utf8.h"

#include <string.h>

size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
	if (!avail)
		return 0;
	if (s[0] < 0x80)
		return 1;
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (!n || s[0] > 0xf4 || n > avail)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

bool utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		size_t n = utf8_seq_len(p, (size_t)(end - p));
		if (!n || !*p)
			return false;
		p += n;
	}
	return true;
}

void utf8_escape(struct strbuf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		size_t n = utf8_seq_len(p, (size_t)(end - p));
		if (n && *p) {
			strbuf_add(out, p, n);
			p += n;
			continue;
		}
		char esc[4] = { '\\', 'x', hex[*p >> 4], hex[*p & 15] };
		strbuf_add(out, esc, 4);
		p++;
	}
}

const char *utf8_or_escape(const char *s, struct strbuf *tmp)
{
	size_t len = strlen(s);
	if (utf8_valid(s, len))
		return s;
	strbuf_reset(tmp);
	utf8_escape(tmp, s, len);
	return tmp->buf;
}

static int hex_value(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The byte at *s, an escape "\xNN" standing for one; moves *s past it. */
static int next_byte(const char **s)
{
	const char *p = *s;
	int hi, lo;
	if (p[0] == '\\' && p[1] == 'x' && (hi = hex_value(p[2])) >= 0 &&
	    (lo = hex_value(p[3])) >= 0) {
		*s += 4;
		return hi << 4 | lo;
	}
	*s += 1;
	return (unsigned char)*p;
}

int utf8_unescaped_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		int x = next_byte(&a), y = next_byte(&b);
		if (x != y)
			return x - y;
	}
	return (unsigned char)*a - (unsigned char)*b;
}
