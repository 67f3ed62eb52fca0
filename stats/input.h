/*
 * Reading records from any input shdb understands (stats/SCHEMA.md): a run
 * directory, a .jsonl file of records, a Mesa shader-db log, a
 * fossilize-replay CSV.  The kind is detected from the content.  Readers
 * stream: each record goes to a callback as soon as its line is read.
 *
 *	struct reader rd = READER_INIT(&diag, add_record, run);
 *	if (read_input(&rd, "before.txt", SOURCE_AUTO) < 0) ...	// unreadable
 *	reader_release(&rd);
 *
 * Bad lines never stop a reader: each gives a "file:line[:col]: error: ..."
 * (or warning) in `diag` and is skipped.  Only an unreadable file fails.
 */
#ifndef SHDB_STATS_INPUT_H
#define SHDB_STATS_INPUT_H

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "stats/lines.h"
#include "stats/record.h"

enum source_kind {
	SOURCE_AUTO,
	SOURCE_RUN_DIR,
	SOURCE_JSONL,
	SOURCE_MESA_LOG,
	SOURCE_FOSSIL_CSV,
};

const char *source_kind_name(enum source_kind k);

typedef void (*record_fn)(void *ctx, const struct record *r);

/* At most this many messages of each kind per file; the rest are counted. */
#define READER_MAX_MESSAGES 20

struct reader {
	const char *file;	/* the file being read, for messages (set by read_input) */
	struct diag *diag;
	record_fn emit;
	void *ctx;
	enum source_kind kind;	/* what was read (output) */
	double cpu_seconds;	/* Mesa "Thread N took S seconds", CSV stage durations */
	int errors, warnings;	/* all of them, shown or not */
	int records;		/* records emitted */

	ARRAY(struct stat_pair) pairs;	/* scratch: the statistics of one record */
	ARRAY(struct strbuf) keys;	/* JSONL: the last record's statistic keys */
	size_t keys_distinct;		/* JSONL: keys[0..this) are known to differ */
};

#define READER_INIT(diag_, emit_, ctx_) \
	{ .diag = (diag_), .emit = (emit_), .ctx = (ctx_) }

int read_input(struct reader *rd, const char *path, enum source_kind kind);
void reader_release(struct reader *rd);

/* What `path` holds; SOURCE_AUTO with a message in `err` when it cannot tell. */
enum source_kind source_detect(const char *path, struct strbuf *err);

/* For the readers themselves (stats/read_*.c). */
PRINTF_LIKE(4, 5) void reader_error(struct reader *rd, int line, int col, const char *fmt, ...);
PRINTF_LIKE(4, 5) void reader_warning(struct reader *rd, int line, int col, const char *fmt, ...);
void read_jsonl(struct reader *rd, struct line_reader *lr);
void read_mesa_log(struct reader *rd, struct line_reader *lr);
void read_fossil_csv(struct reader *rd, struct line_reader *lr);

/* Parse a whole span as a number: JSON's grammar, or a plain integer.  false
 * when it is not one. */
bool parse_number(const char *p, size_t len, double *out);

#endif
