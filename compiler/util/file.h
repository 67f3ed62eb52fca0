/*
 * Whole-file input and crash-safe output.
 */
#ifndef SHDB_UTIL_FILE_H
#define SHDB_UTIL_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/util/strbuf.h"

/* Files larger than this are refused (a corpus file, not a disk image). */
#define FILE_MAX_SIZE ((size_t)1 << 30)

/*
 * Read all of `path` into `out` (appended; NUL-terminated as every strbuf).
 * On failure returns -1 and puts a message such as
 * "cannot read 'x.spv': No such file or directory" in `err` (if not NULL).
 */
int read_file(const char *path, struct strbuf *out, struct strbuf *err);

/*
 * A whole file mapped read-only (a database of hundreds of megabytes is read
 * where a compile needs it, not copied).  An empty file maps to an empty
 * buffer.  Returns 0, or -1 with the reason in `err`.
 */
struct file_map {
	const char *data;
	size_t len;
};
int file_map(const char *path, struct file_map *m, struct strbuf *err);
void file_unmap(struct file_map *m);

/*
 * Replace `path` with `len` bytes atomically: write a temporary file in the
 * same directory, fsync it, rename it over `path`.  A crash at any point
 * leaves either the old or the new content, never a mix.
 */
int write_file_atomic(const char *path, const void *data, size_t len, struct strbuf *err);

/* The extension of `path` without the dot ("" when none): "frag" for "a/b.frag". */
const char *path_extension(const char *path);
/* The last component: "b.frag" for "a/b.frag". */
const char *path_basename(const char *path);
bool is_directory(const char *path);

#endif
