/*
 * Helpers of the fuzz targets (fuzz.h): the input as a file, as a string,
 * and the check that an error is located.  One memfd per process: the
 * targets run one input at a time.
 */
#include "fuzz/fuzz.h"

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

int fuzz_located(const struct diag *d, const char *name)
{
	size_t n = strlen(name);
	if (d->errors <= 0 || strstr(d->text.buf, ": error: internal error"))
		return 0;
	for (const char *line = d->text.buf; *line;) {
		const char *nl = strchrnul(line, '\n');
		if (!strncmp(line, name, n) && line[n] == ':' &&
		    memmem(line, (size_t)(nl - line), ": error: ", 9))
			return 1;
		line = *nl ? nl + 1 : nl;
	}
	return 0;
}
