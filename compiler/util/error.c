#include "compiler/util/error.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *error_progname = "shdb";

void diag_init(struct diag *d)
{
	strbuf_init(&d->text);
	d->errors = d->warnings = 0;
}

void diag_release(struct diag *d)
{
	strbuf_release(&d->text);
	d->errors = d->warnings = 0;
}

void diag_verror(struct diag *d, const char *kind, const char *file, int line, int col,
		 const char *fmt, va_list ap)
{
	if (file && *file) {
		strbuf_addstr(&d->text, file);
		if (line > 0) {
			strbuf_addf(&d->text, ":%d", line);
			if (col > 0)
				strbuf_addf(&d->text, ":%d", col);
		}
		strbuf_addstr(&d->text, ": ");
	}
	strbuf_addf(&d->text, "%s: ", kind);
	strbuf_vaddf(&d->text, fmt, ap);
	strbuf_addch(&d->text, '\n');
}

void diag_error(struct diag *d, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(d, "error", file, line, col, fmt, ap);
	va_end(ap);
	d->errors++;
}

void diag_warning(struct diag *d, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(d, "warning", file, line, col, fmt, ap);
	va_end(ap);
	d->warnings++;
}

const char *diag_first_error(const struct diag *d, struct strbuf *out)
{
	const char *p = d->text.buf;
	strbuf_reset(out);
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		if (memmem(p, n, "error: ", 7)) {
			strbuf_add(out, p, n);
			break;
		}
		p += n + (eol != NULL);
	}
	return out->buf;
}

static bool starts_word(const char *msg, const char *p)
{
	return p == msg || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
}

void diag_message_shape(const char *msg, struct strbuf *out)
{
	const char *p = msg, *e;
	while ((e = strstr(p, "error: ")))
		p = e + 7;
	const char *start = p;
	strbuf_reset(out);
	while (*p) {
		const char *close = *p == '\'' ? strchr(p + 1, '\'') : NULL;
		if (close) {
			strbuf_addstr(out, "'…'");
			p = close + 1;
		} else if (isdigit((unsigned char)*p) && starts_word(start, p)) {
			while (isalnum((unsigned char)*p) || *p == '.')
				p++;
			strbuf_addch(out, 'N');
		} else {
			strbuf_addch(out, *p++);
		}
	}
}

static void vreport(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s: ", error_progname, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die_status(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", fmt, ap);
	va_end(ap);
	exit(status);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning", fmt, ap);
	va_end(ap);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		BUG("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		BUG("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		BUG("out of memory reallocating %zu bytes", n);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
