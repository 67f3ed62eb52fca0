#include "compiler/util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/util/error.h"

static int fail(struct strbuf *err, const char *what, const char *path)
{
	if (err)
		strbuf_addf(err, "cannot %s '%s': %s", what, path, strerror(errno));
	return -1;
}

int file_map(const char *path, struct file_map *m, struct strbuf *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	m->data = "";
	m->len = 0;
	if (fd < 0)
		return fail(err, "read", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = S_ISREG(st.st_mode) ? errno : EINVAL;
		close(fd);
		errno = e;
		return fail(err, "map", path);
	}
	if (st.st_size) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			int e = errno;
			close(fd);
			errno = e;
			return fail(err, "map", path);
		}
		m->data = p;
		m->len = (size_t)st.st_size;
	}
	close(fd);
	return 0;
}

void file_unmap(struct file_map *m)
{
	if (m->len)
		munmap((void *)m->data, m->len);
	m->data = "";
	m->len = 0;
}

int read_file(const char *path, struct strbuf *out, struct strbuf *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, "read", path);

	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return fail(err, "read", path);
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return fail(err, "read", path);
	}
	if (S_ISREG(st.st_mode) && (size_t)st.st_size > FILE_MAX_SIZE) {
		close(fd);
		if (err)
			strbuf_addf(err, "cannot read '%s': file too large (%lld bytes, limit %zu)",
				    path, (long long)st.st_size, FILE_MAX_SIZE);
		return -1;
	}
	if (S_ISREG(st.st_mode))
		strbuf_grow(out, (size_t)st.st_size);

	size_t start = out->len;
	for (;;) {
		strbuf_grow(out, 8192);
		ssize_t n = read(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			strbuf_setlen(out, start);
			errno = e;
			return fail(err, "read", path);
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
		if (out->len - start > FILE_MAX_SIZE) {
			close(fd);
			strbuf_setlen(out, start);
			if (err)
				strbuf_addf(err, "cannot read '%s': file too large (limit %zu bytes)",
					    path, FILE_MAX_SIZE);
			return -1;
		}
	}
	out->buf[out->len] = '\0';
	close(fd);
	return 0;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Make a rename durable: fsync the directory that holds `path` (best effort). */
static void sync_parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int write_file_atomic(const char *path, const void *data, size_t len, struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT;
	strbuf_addf(&tmp, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp.buf);
	if (fd < 0) {
		fail(err, "create a temporary file for", path);
		strbuf_release(&tmp);
		return -1;
	}
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		int e = errno;
		close(fd);
		unlink(tmp.buf);
		errno = e;
		fail(err, "write", path);
		strbuf_release(&tmp);
		return -1;
	}
	/* mkstemp makes 0600; give the file ordinary permissions */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	if (close(fd) < 0 || rename(tmp.buf, path) < 0) {
		int e = errno;
		unlink(tmp.buf);
		errno = e;
		fail(err, "write", path);
		strbuf_release(&tmp);
		return -1;
	}
	strbuf_release(&tmp);
	sync_parent_dir(path);
	return 0;
}

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

const char *path_extension(const char *path)
{
	const char *base = path_basename(path);
	const char *dot = strrchr(base, '.');
	return dot && dot != base ? dot + 1 : base + strlen(base);
}

bool is_directory(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
