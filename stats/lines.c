/*
 * Line-by-line reading through one buffer; see lines.h.
 */
#include "stats/lines.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/util/error.h"

#define LINE_BUF_SIZE ((size_t)1 << 20)

int line_reader_open(struct line_reader *lr, const char *path, struct strbuf *err)
{
	memset(lr, 0, sizeof(*lr));
	lr->fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (lr->fd < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	lr->cap = LINE_BUF_SIZE;
	lr->buf = xmalloc(lr->cap);
	return 0;
}

void line_reader_close(struct line_reader *lr)
{
	if (lr->fd > 0)
		close(lr->fd);
	free(lr->buf);
	lr->buf = NULL;
	lr->fd = -1;
}

/* Move the unread data to the front, grow the buffer if a line fills it, read more. */
static void refill(struct line_reader *lr)
{
	size_t unread = lr->end - lr->start;
	memmove(lr->buf, lr->buf + lr->start, unread);
	lr->start = 0;
	lr->end = unread;
	if (lr->cap - lr->end < 2) {
		lr->cap *= 2;
		lr->buf = xrealloc(lr->buf, lr->cap);
	}
	for (;;) {
		ssize_t n = read(lr->fd, lr->buf + lr->end, lr->cap - lr->end - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			lr->read_error = errno;
		if (n <= 0)
			lr->eof = true;
		else
			lr->end += (size_t)n;
		return;
	}
}

/* The first reads (enough to guess the kind of file), and a UTF-8 byte-order
 * mark skipped. */
#define PEEK_SIZE ((size_t)64 << 10)

static void first_fill(struct line_reader *lr)
{
	while (!lr->eof && lr->end < PEEK_SIZE)
		refill(lr);
	if (lr->end >= 3 && !memcmp(lr->buf, "\xef\xbb\xbf", 3))
		lr->start = 3;
	lr->started = true;
}

const char *line_reader_peek(struct line_reader *lr, size_t *len)
{
	if (!lr->started)
		first_fill(lr);
	*len = lr->end - lr->start;
	return lr->buf + lr->start;
}

static char *take(struct line_reader *lr, size_t stop, size_t next, size_t *len)
{
	char *line = lr->buf + lr->start;
	size_t n = stop - lr->start;
	if (n && line[n - 1] == '\r')
		n--;
	line[n] = '\0';
	lr->start = next;
	lr->lineno++;
	*len = n;
	return line;
}

char *line_reader_next(struct line_reader *lr, size_t *len)
{
	if (!lr->started)
		first_fill(lr);
	size_t scanned = lr->start;
	for (;;) {
		char *nl = memchr(lr->buf + scanned, '\n', lr->end - scanned);
		if (nl) {
			size_t stop = (size_t)(nl - lr->buf);
			return take(lr, stop, stop + 1, len);
		}
		if (lr->eof) {
			if (lr->start == lr->end)
				return NULL;
			lr->unterminated = true;
			return take(lr, lr->end, lr->end, len);
		}
		scanned = lr->end - lr->start;
		refill(lr);
		scanned += lr->start;
	}
}
