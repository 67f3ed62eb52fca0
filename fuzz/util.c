/*
 * Helpers of the fuzz targets (fuzz.h): the input as a file, as a string,
 * and the check that an error is located.  One memfd per process: the
 * targets run one input at a time.
 */
#include "fuzz/fuzz.h"

#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compiler/util/error.h"

static int memfd = -1;
static char memfd_path[64];

const char *fuzz_file(const uint8_t *data, size_t size)
{
	if (memfd < 0) {
		memfd = memfd_create("shdb-fuzz", MFD_CLOEXEC);
		FUZZ_CHECK(memfd >= 0, "memfd_create");
		snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
	}
	FUZZ_CHECK(ftruncate(memfd, 0) == 0, "ftruncate");
	size_t done = 0;
	while (done < size) {
		ssize_t n = pwrite(memfd, data + done, size - done, (off_t)done);
		FUZZ_CHECK(n > 0, "pwrite");
		done += (size_t)n;
	}
	return memfd_path;
}

char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* What a diag line says it is: the word after "NAME[:LINE[:COL]]: ", or NULL
 * when the line does not start with NAME's location.  A message may quote
 * the input, so only this place tells an error from a warning. */
static const char *line_kind(const char *line, const char *name, size_t n)
{
	if (strncmp(line, name, n))
		return NULL;
	const char *p = line + n;
	while (*p == ':' && p[1] >= '0' && p[1] <= '9')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	return p[0] == ':' && p[1] == ' ' ? p + 2 : NULL;
}

int fuzz_located(const struct diag *d, const char *name)
{
	size_t n = strlen(name);
	bool located = false;
	if (d->errors <= 0)
		return 0;
	for (const char *line = d->text.buf; *line;) {
		const char *nl = strchrnul(line, '\n');
		const char *kind = line_kind(line, name, n);
		if (kind && !strncmp(kind, "error: ", 7)) {
			if (!strncmp(kind + 7, "internal error", 14))
				return 0;
			located = true;
		}
		line = *nl ? nl + 1 : nl;
	}
	return located;
}
