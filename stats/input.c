/*
 * Input kinds, their detection, and the messages readers give.
 */
#include "stats/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/file.h"

const char *source_kind_name(enum source_kind k)
{
	switch (k) {
	case SOURCE_AUTO:
		return "unknown";
	case SOURCE_RUN_DIR:
		return "shdb run";
	case SOURCE_JSONL:
		return "JSONL records";
	case SOURCE_MESA_LOG:
		return "Mesa shader-db log";
	case SOURCE_FOSSIL_CSV:
		return "fossilize CSV";
	}
	return "unknown";
}

static void reader_vmessage(struct reader *rd, bool is_error, int line, int col,
			    const char *fmt, va_list ap)
{
	int *count = is_error ? &rd->errors : &rd->warnings;
	if ((*count)++ >= READER_MAX_MESSAGES)
		return;
	diag_verror(rd->diag, is_error ? "error" : "warning", rd->file, line, col, fmt, ap);
	if (is_error)
		rd->diag->errors++;
	else
		rd->diag->warnings++;
}

void reader_error(struct reader *rd, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	reader_vmessage(rd, true, line, col, fmt, ap);
	va_end(ap);
}

void reader_warning(struct reader *rd, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	reader_vmessage(rd, false, line, col, fmt, ap);
	va_end(ap);
}

/* "N more errors not shown" after the first READER_MAX_MESSAGES. */
static void reader_finish(struct reader *rd)
{
	if (rd->errors > READER_MAX_MESSAGES)
		diag_error(rd->diag, rd->file, 0, 0, "%d more errors not shown",
			   rd->errors - READER_MAX_MESSAGES);
	if (rd->warnings > READER_MAX_MESSAGES)
		diag_warning(rd->diag, rd->file, 0, 0, "%d more warnings not shown",
			     rd->warnings - READER_MAX_MESSAGES);
}

void reader_release(struct reader *rd)
{
	array_free(&rd->pairs);
	for (size_t i = 0; i < rd->keys.len; i++)
		strbuf_release(&rd->keys.data[i]);
	array_free(&rd->keys);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A plain integer of up to 15 digits, the common case, without strtod. */
static bool parse_integer(const char *p, size_t len, double *out)
{
	bool neg = len && *p == '-';
	size_t i = neg;
	if (i == len || len - i > 15 || (p[i] == '0' && len - i > 1))
		return false;
	long long v = 0;
	for (; i < len; i++) {
		if (!is_digit(p[i]))
			return false;
		v = v * 10 + (p[i] - '0');
	}
	*out = neg ? -(double)v : (double)v;
	return true;
}

bool parse_number(const char *p, size_t len, double *out)
{
	if (parse_integer(p, len, out))
		return true;
	const char *s = p, *end = p + len;
	if (s < end && *s == '-')
		s++;
	if (s == end || !is_digit(*s) || (*s == '0' && s + 1 < end && is_digit(s[1])))
		return false;
	while (s < end && is_digit(*s))
		s++;
	if (s < end && *s == '.') {
		if (++s == end || !is_digit(*s))
			return false;
		while (s < end && is_digit(*s))
			s++;
	}
	if (s < end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < end && (*s == '+' || *s == '-'))
			s++;
		if (s == end || !is_digit(*s))
			return false;
		while (s < end && is_digit(*s))
			s++;
	}
	char buf[64];
	if (s != end || len >= sizeof(buf))
		return false;
	memcpy(buf, p, len);
	buf[len] = '\0';
	*out = strtod(buf, NULL);
	return true;
}

/* ---- detection ---- */

static bool has(const char *line, size_t len, const char *what)
{
	return memmem(line, len, what, strlen(what)) != NULL;
}

static bool starts(const char *line, size_t len, const char *what)
{
	size_t n = strlen(what);
	return len >= n && !memcmp(line, what, n);
}

static enum source_kind sniff_line(const char *line, size_t len)
{
	while (len && (*line == ' ' || *line == '\t' || *line == '\r'))
		line++, len--;
	if (!len)
		return SOURCE_AUTO;
	if (*line == '{')
		return SOURCE_JSONL;
	if (starts(line, len, "Database,"))
		return SOURCE_FOSSIL_CSV;
	if (has(line, len, " - ") && (has(line, len, " shader: ") || has(line, len, " - type: ")))
		return SOURCE_MESA_LOG;
	if (starts(line, len, "Thread ") && has(line, len, " took "))
		return SOURCE_MESA_LOG;
	return SOURCE_AUTO;
}

/* The first line that tells, within the buffered head of the file. */
static enum source_kind sniff(const char *data, size_t len)
{
	while (len) {
		const char *nl = memchr(data, '\n', len);
		size_t n = nl ? (size_t)(nl - data) : len;
		enum source_kind k = sniff_line(data, n);
		if (k != SOURCE_AUTO)
			return k;
		if (!nl)
			break;
		data += n + 1;
		len -= n + 1;
	}
	return SOURCE_AUTO;
}

static enum source_kind by_extension(const char *path)
{
	const char *ext = path_extension(path);
	if (!strcmp(ext, "jsonl") || !strcmp(ext, "json"))
		return SOURCE_JSONL;
	if (!strcmp(ext, "csv"))
		return SOURCE_FOSSIL_CSV;
	if (!strcmp(ext, "txt") || !strcmp(ext, "log"))
		return SOURCE_MESA_LOG;
	return SOURCE_AUTO;
}

static bool only_space(const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (data[i] != ' ' && data[i] != '\n' && data[i] != '\r' && data[i] != '\t')
			return false;
	return true;
}

static enum source_kind detect_open(struct line_reader *lr, const char *path, struct strbuf *err)
{
	size_t len;
	const char *head = line_reader_peek(lr, &len);
	enum source_kind k = sniff(head, len);
	if (k == SOURCE_AUTO)
		k = by_extension(path);
	if (k == SOURCE_AUTO && only_space(head, len))
		k = SOURCE_JSONL;	/* an empty file: an empty run */
	if (k == SOURCE_AUTO)
		strbuf_addf(err, "cannot tell what '%s' is: not a shdb run, JSONL records, "
			    "a Mesa shader-db log or a fossilize CSV", path);
	return k;
}

static char *stats_jsonl_of(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/stats.jsonl", dir);
	return strbuf_detach(&sb, NULL);
}

enum source_kind source_detect(const char *path, struct strbuf *err)
{
	if (is_directory(path))
		return SOURCE_RUN_DIR;
	struct line_reader lr;
	if (line_reader_open(&lr, path, err) < 0)
		return SOURCE_AUTO;
	enum source_kind k = detect_open(&lr, path, err);
	line_reader_close(&lr);
	return k;
}

static void dispatch(struct reader *rd, struct line_reader *lr)
{
	switch (rd->kind) {
	case SOURCE_RUN_DIR:
	case SOURCE_JSONL:
		read_jsonl(rd, lr);
		break;
	case SOURCE_MESA_LOG:
		read_mesa_log(rd, lr);
		break;
	case SOURCE_FOSSIL_CSV:
		read_fossil_csv(rd, lr);
		break;
	case SOURCE_AUTO:
		BUG("input kind not decided");
	}
}

int read_input(struct reader *rd, const char *path, enum source_kind kind)
{
	struct strbuf err = STRBUF_INIT;
	char *file = NULL;
	if (is_directory(path)) {
		kind = SOURCE_RUN_DIR;
		path = file = stats_jsonl_of(path);
	}
	const char *shown = rd->file;
	rd->file = path;	/* messages name the file read */
	struct line_reader lr;
	int ret = line_reader_open(&lr, path, &err);
	if (!ret && kind == SOURCE_AUTO)
		kind = detect_open(&lr, path, &err);
	if (!ret && kind == SOURCE_AUTO)
		ret = -1;
	if (!ret) {
		rd->kind = kind;
		dispatch(rd, &lr);
		if (lr.read_error)
			strbuf_addf(&err, "cannot read '%s': %s", path, strerror(lr.read_error));
		ret = lr.read_error ? -1 : 0;
	}
	if (ret < 0)	/* no location: the program speaks, "shdb: error: …" */
		diag_error(rd->diag, error_progname, 0, 0, "%s", err.buf);
	if (lr.buf)
		line_reader_close(&lr);
	reader_finish(rd);
	rd->file = shown;
	strbuf_release(&err);
	free(file);
	return ret;
}
