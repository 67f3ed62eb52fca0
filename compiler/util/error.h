/*
 * Errors, the two kinds the code base knows (../shared/STYLE.md, practice 10):
 *
 *  - bad input: a located, user-facing message.  Library code never prints and
 *    never exits; it records the message in a `struct diag` and returns failure,
 *    so one bad shader fails alone and the batch goes on.  The command line
 *    prints the diag and picks the exit status.
 *  - a broken invariant: BUG() (or assert), which aborts.  The runner's workers
 *    turn that into a `crash` record.
 *
 * die() is for the command line only: a user error that ends the program with
 * exit status 2 (usage) — after printing "shdb: error: ...".
 */
#ifndef SHDB_UTIL_ERROR_H
#define SHDB_UTIL_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#include "compiler/util/strbuf.h"

#define EXIT_USAGE 2

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))

/* Diagnostics collected by a compile.  `text` holds whole lines, each ending in
 * '\n', formatted "file:line:col: error: message" (line/col omitted when 0). */
struct diag {
	struct strbuf text;
	int errors;
	int warnings;
};

#define DIAG_INIT { .text = STRBUF_INIT }

void diag_init(struct diag *d);
void diag_release(struct diag *d);
PRINTF_LIKE(5, 6)
void diag_error(struct diag *d, const char *file, int line, int col, const char *fmt, ...);
PRINTF_LIKE(5, 6)
void diag_warning(struct diag *d, const char *file, int line, int col, const char *fmt, ...);
void diag_verror(struct diag *d, const char *kind, const char *file, int line, int col,
		 const char *fmt, va_list ap);
/* The first error line without its trailing newline, for one-line records. */
const char *diag_first_error(const struct diag *d, struct strbuf *out);
/* The shape of a message, so that like failures of many files group together:
 * what follows its last "error: " (no location), each number that starts a
 * word as N and each 'quoted' name as '…'.
 *	"x.spv: error: word 1234: OpFoo: unsupported" -> "word N: OpFoo: unsupported"
 *	"a.frag:3: error: 'foo' : undeclared identifier" -> "'…' : undeclared identifier" */
void diag_message_shape(const char *msg, struct strbuf *out);

/* Command line: print "shdb: error: ..." and exit with `status`. */
NORETURN PRINTF_LIKE(2, 3) void die_status(int status, const char *fmt, ...);
#define die(...) die_status(EXIT_USAGE, __VA_ARGS__)
/* Print "shdb: error: ..." to stderr and return -1, so `return error(...)` reads well. */
PRINTF_LIKE(1, 2) int error(const char *fmt, ...);
PRINTF_LIKE(1, 2) void warning(const char *fmt, ...);

/* A broken invariant: print where and abort. */
NORETURN PRINTF_LIKE(3, 4) void bug_fl(const char *file, int line, const char *fmt, ...);
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)

/* Allocation that cannot fail: out of memory is a BUG-class event for us. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Overridable program name for messages ("shdb" by default). */
extern const char *error_progname;

#endif
