/*
 * Reading a file line by line through a fixed buffer, so that a reader's
 * memory does not grow with the file (a 2-million-record run is ~1 GB).
 *
 *	struct line_reader lr;
 *	if (line_reader_open(&lr, "stats.jsonl", &err) < 0) ...
 *	for (char *line; (line = line_reader_next(&lr, &len)); )
 *		use(line, len, lr.lineno);
 *	line_reader_close(&lr);		// lr.read_error tells a failed read()
 *
 * Each line comes without its "\n" (and "\r"), NUL-terminated in place, and is
 * valid until the next call.  "-" reads standard input.  A UTF-8 byte-order
 * mark at the start of the file is skipped.
 */
#ifndef SHDB_STATS_LINES_H
#define SHDB_STATS_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/util/strbuf.h"

struct line_reader {
	int fd;
	char *buf;
	size_t cap;		/* bytes allocated */
	size_t start, end;	/* unread data is buf[start..end) */
	bool eof;
	bool started;		/* the first read is done */
	int lineno;		/* of the line last returned, from 1 */
	bool unterminated;	/* the line last returned ended the file without "\n" */
	int read_error;		/* errno of a failed read(), or 0 */
};

int line_reader_open(struct line_reader *lr, const char *path, struct strbuf *err);
char *line_reader_next(struct line_reader *lr, size_t *len);
/* The buffered data ahead (at least the first chunk of the file), unconsumed:
 * for guessing what the file is. */
const char *line_reader_peek(struct line_reader *lr, size_t *len);
void line_reader_close(struct line_reader *lr);

#endif
