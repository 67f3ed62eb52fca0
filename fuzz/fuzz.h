/*
 * What the fuzz targets share (fuzz/README.md).  Each fuzz/fuzz_NAME.c defines
 * LLVMFuzzerTestOneInput() for one reader; it is linked either with libFuzzer
 * (`make fuzz`, clang) or with fuzz/standalone.c (every build), whose main()
 * runs it on the files it is given: the regression inputs of tests/fuzz/NAME/
 * under `make check` and `make SANITIZE=1 check`.
 *
 * A target must not leak, exit, abort or trip a sanitizer on any input, and
 * must check what the reader promises: a located error or a good result.
 * FUZZ_CHECK() turns a broken promise into an abort libFuzzer reports.
 */
#ifndef SHDB_FUZZ_H
#define SHDB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                  \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "fuzz check failed: %s: ", #cond);     \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			abort();                                               \
		}                                                              \
	} while (0)

/* A path naming a file that holds exactly `data` (a memfd, rewritten on each
 * call), for readers that open files themselves. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* `data` as a NUL-terminated copy; free() it. */
char *fuzz_string(const uint8_t *data, size_t size);

/* A located error: a diag line "NAME[:LINE[:COL]]: error: …", and no line
 * "…: error: internal error" (words a message quotes from the input do not
 * count: only what follows the location does). */
struct diag;
int fuzz_located(const struct diag *d, const char *name);

#endif
