/*
 * The run directory (rundir.h).
 */
#include "runner/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/file.h"
#include "stats/asm_pack.h"

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Append whole lines (or whole entries) only: a write that fails part way
 * (a full disk) is cut off again, so the file stays a prefix of the finished
 * one and --resume needs no repair.  With `lines`, the lines written whole
 * before the failure stay; else (asm.pack entries) nothing of `data` does. */
static int append_whole(int fd, const char *data, size_t len, bool lines)
{
	off_t before = lseek(fd, 0, SEEK_END);
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		done += (size_t)n;
	}
	if (done == len)
		return 0;
	int e = errno;
	size_t keep = 0;
	for (size_t i = done; lines && i > 0; i--)
		if (data[i - 1] == '\n') {
			keep = i;
			break;
		}
	if (before >= 0 && ftruncate(fd, before + (off_t)keep) < 0) {
		/* the torn end stays; --resume cuts it */
	}
	errno = e;
	return -1;
}

int rundir_mkdir(const char *dir)
{
	char *copy = xstrdup(dir);
	int ret = 0;
	for (char *p = copy + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(copy, 0777) < 0 && errno != EEXIST)
			ret = -1;
		*p = c;
		if (!c || ret)
			break;
	}
	free(copy);
	return ret < 0 || !is_directory(dir) ? -1 : 0;
}

static char *join(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/%s", dir, name);
	return strbuf_detach(&sb, NULL);
}

int rundir_open(struct rundir *d, const char *dir, enum rundir_mode mode, struct strbuf *err)
{
	memset(d, 0, sizeof(*d));
	d->fd = d->asm_fd = -1;
	d->dir = xstrdup(dir);
	d->stats_path = join(dir, "stats.jsonl");
	d->run_path = join(dir, "run.json");

	if (rundir_mkdir(dir) < 0) {
		strbuf_addf(err, "cannot create the folder '%s': %s", dir, strerror(errno));
		return -1;
	}
	bool has_run = access(d->run_path, F_OK) == 0;
	if (mode == RUNDIR_NEW && has_run) {
		strbuf_addf(err, "'%s' holds a run already: add --resume to continue it, or "
			    "--force to replace it", dir);
		return -1;
	}
	if (mode == RUNDIR_RESUME && !has_run) {
		strbuf_addf(err, "nothing to resume in '%s': no run.json", dir);
		return -1;
	}
	d->fd = open(d->stats_path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (d->fd < 0) {
		strbuf_addf(err, "cannot open '%s': %s", d->stats_path, strerror(errno));
		return -1;
	}
	if (flock(d->fd, LOCK_EX | LOCK_NB) < 0) {
		strbuf_addf(err, "another shdb run is writing to '%s'", dir);
		return -1;
	}
	if (mode != RUNDIR_RESUME && ftruncate(d->fd, 0) < 0) {
		strbuf_addf(err, "cannot truncate '%s': %s", d->stats_path, strerror(errno));
		return -1;
	}
	d->last_sync_ms = now_ms();
	return 0;
}

static int asm_fail(struct strbuf *err, const char *what, const char *path)
{
	strbuf_addf(err, "cannot %s '%s': %s", what, path, strerror(errno));
	return -1;
}

/* --resume: cut a torn last entry, or write the magic line into an empty pack. */
static int resume_asm(struct rundir *d, struct strbuf *err)
{
	struct stat st;
	if (fstat(d->asm_fd, &st) < 0)
		return asm_fail(err, "read", d->asm_path);
	if (st.st_size == 0)
		return write_all(d->asm_fd, ASM_PACK_MAGIC, strlen(ASM_PACK_MAGIC)) < 0 ?
		       asm_fail(err, "write", d->asm_path) : 0;
	long long valid = asm_pack_valid_length(d->asm_path, err);
	if (valid < 0)
		return -1;
	if (valid < st.st_size && ftruncate(d->asm_fd, (off_t)valid) < 0)
		return asm_fail(err, "truncate", d->asm_path);
	return 0;
}

int rundir_open_asm(struct rundir *d, enum rundir_mode mode, bool keep, struct strbuf *err)
{
	d->asm_path = join(d->dir, ASM_PACK_FILE);
	if (!keep) {
		if (mode != RUNDIR_RESUME && unlink(d->asm_path) < 0 && errno != ENOENT)
			return asm_fail(err, "remove", d->asm_path);
		return 0;
	}
	int flags = O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | (mode == RUNDIR_RESUME ? 0 : O_TRUNC);
	d->asm_fd = open(d->asm_path, flags, 0666);
	if (d->asm_fd < 0)
		return asm_fail(err, "open", d->asm_path);
	if (mode == RUNDIR_RESUME)
		return resume_asm(d, err);
	return write_all(d->asm_fd, ASM_PACK_MAGIC, strlen(ASM_PACK_MAGIC)) < 0 ?
	       asm_fail(err, "write", d->asm_path) : 0;
}

int rundir_append_asm(struct rundir *d, const char *data, size_t len)
{
	if (!len || d->asm_fd < 0)
		return 0;
	d->unsynced = true;
	return append_whole(d->asm_fd, data, len, false);
}

void rundir_close(struct rundir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	if (d->asm_fd >= 0)
		close(d->asm_fd);
	free(d->dir);
	free(d->stats_path);
	free(d->run_path);
	free(d->asm_path);
	memset(d, 0, sizeof(*d));
	d->fd = d->asm_fd = -1;
}

int rundir_append(struct rundir *d, const char *data, size_t len)
{
	if (!len)
		return 0;
	d->unsynced = true;
	return append_whole(d->fd, data, len, true);
}

int rundir_sync(struct rundir *d, bool now)
{
	uint64_t t = now_ms();
	if (!d->unsynced || (!now && t - d->last_sync_ms < 1000))
		return 0;
	d->last_sync_ms = t;
	d->unsynced = false;
	if (d->asm_fd >= 0 && fsync(d->asm_fd) < 0)
		return -1;
	return fsync(d->fd);
}

/*
 * On a full disk, a new run.json cannot be made beside the old one.  The old
 * one's block holds the new text (a few hundred bytes more or less), so it
 * is overwritten in place: not atomic, but it says "failed" instead of
 * "running" forever.  Only for that case.
 */
static int rewrite_in_place(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int ret = pwrite(fd, data, len, 0) == (ssize_t)len && ftruncate(fd, (off_t)len) == 0 &&
		  fsync(fd) == 0 ? 0 : -1;
	if (close(fd) < 0)
		ret = -1;
	return ret;
}

int rundir_write_json(const char *dir, json_t *run, struct strbuf *err)
{
	char *path = join(dir, "run.json");
	char *text = json_dumps(run, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, text);
	strbuf_addch(&sb, '\n');
	int ret = write_file_atomic(path, sb.buf, sb.len, err);
	if (ret < 0 && errno == ENOSPC && rewrite_in_place(path, sb.buf, sb.len) == 0) {
		strbuf_reset(err);
		ret = 0;
	}
	strbuf_release(&sb);
	free(text);
	free(path);
	return ret;
}

json_t *rundir_read_json(const char *dir, struct strbuf *err)
{
	char *path = join(dir, "run.json");
	json_error_t e;
	json_t *run = json_load_file(path, 0, &e);
	if (!run)
		strbuf_addf(err, "cannot read '%s': %s", path, e.text);
	else if (!json_is_object(run)) {
		strbuf_addf(err, "'%s' is not a JSON object", path);
		json_decref(run);
		run = NULL;
	}
	free(path);
	return run;
}

/* ---- reading records ---------------------------------------------------- */

int record_reader_open(struct record_reader *r, const char *file, struct strbuf *err)
{
	memset(r, 0, sizeof(*r));
	r->name = file;
	r->f = fopen(file, "re");
	if (!r->f) {
		strbuf_addf(err, "cannot read '%s': %s", file, strerror(errno));
		return -1;
	}
	return 0;
}

int record_reader_next(struct record_reader *r, struct strbuf *err)
{
	json_decref(r->rec);
	r->rec = NULL;
	r->path = NULL;
	ssize_t n = getline(&r->line, &r->cap, r->f);
	if (n <= 0 || r->line[n - 1] != '\n')
		return 0;	/* end, or a torn last line */
	r->len = (size_t)n;
	r->lineno++;
	json_error_t e;
	r->rec = json_loadb(r->line, r->len - 1, 0, &e);
	r->path = json_string_value(json_object_get(r->rec, "path"));
	if (!r->path) {
		strbuf_addf(err, "%s:%zu: not a record: %s", r->name, r->lineno,
			    r->rec ? "no \"path\"" : e.text);
		return -1;
	}
	return 1;
}

void record_reader_close(struct record_reader *r)
{
	json_decref(r->rec);
	if (r->f)
		fclose(r->f);
	free(r->line);
	memset(r, 0, sizeof(*r));
}

/* ---- resume ------------------------------------------------------------- */

struct block {
	ARRAY(json_t *) recs;	/* the records of one path, counted when it ends */
	char *path;
	off_t start;
};

static void block_flush(struct block *b, struct tally *t)
{
	for (size_t i = 0; i < b->recs.len; i++) {
		if (t)
			tally_add(t, b->recs.data[i]);
		json_decref(b->recs.data[i]);
	}
	b->recs.len = 0;
	free(b->path);
	b->path = NULL;
}

int rundir_scan(struct rundir *d, struct tally *t, bool keep_all, char **redo_from,
		struct strbuf *err)
{
	struct record_reader r;
	struct block b = { 0 };
	struct strbuf bad = STRBUF_INIT;
	off_t off = 0;
	int st;

	*redo_from = NULL;
	if (record_reader_open(&r, d->stats_path, err) < 0)
		return -1;
	while ((st = record_reader_next(&r, &bad)) > 0) {
		if (tally_status_of(r.rec) < 0)
			break;	/* not a record we wrote: cut here */
		if (!b.path || strcmp(b.path, r.path)) {
			block_flush(&b, t);
			b.path = xstrdup(r.path);
			b.start = off;
		}
		array_push(&b.recs, json_incref(r.rec));
		off += (off_t)r.len;
	}
	if (st < 0 || off != lseek(d->fd, 0, SEEK_END))
		warning("%s: cutting a torn or invalid end at byte %lld", d->stats_path,
			(long long)off);
	record_reader_close(&r);
	strbuf_release(&bad);

	if (keep_all || !b.path) {
		block_flush(&b, t);
		array_free(&b.recs);
		return off == lseek(d->fd, 0, SEEK_END) ? 0 : ftruncate(d->fd, off);
	}
	*redo_from = b.path;
	b.path = NULL;
	block_flush(&b, NULL);
	array_free(&b.recs);
	if (ftruncate(d->fd, b.start) < 0) {
		strbuf_addf(err, "cannot truncate '%s': %s", d->stats_path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- atomic streaming output -------------------------------------------- */

int atomic_file_open(struct atomic_file *a, const char *path, struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT;
	strbuf_addf(&tmp, "%s.tmp.XXXXXX", path);
	a->fd = mkstemp(tmp.buf);
	if (a->fd < 0) {
		strbuf_addf(err, "cannot create a temporary file for '%s': %s", path,
			    strerror(errno));
		strbuf_release(&tmp);
		return -1;
	}
	a->path = xstrdup(path);
	a->tmp = strbuf_detach(&tmp, NULL);
	return 0;
}

int atomic_file_write(struct atomic_file *a, const void *data, size_t len)
{
	return write_all(a->fd, data, len);
}

int atomic_file_commit(struct atomic_file *a, struct strbuf *err)
{
	mode_t mask = umask(0);
	umask(mask);
	fchmod(a->fd, 0666 & ~mask);
	int ret = fsync(a->fd);
	if (close(a->fd) < 0)
		ret = -1;
	a->fd = -1;
	if (ret == 0)
		ret = rename(a->tmp, a->path);
	if (ret < 0) {
		strbuf_addf(err, "cannot write '%s': %s", a->path, strerror(errno));
		unlink(a->tmp);
	}
	free(a->tmp);
	free(a->path);
	a->tmp = a->path = NULL;
	return ret;
}

void atomic_file_abort(struct atomic_file *a)
{
	if (a->fd >= 0)
		close(a->fd);
	if (a->tmp)
		unlink(a->tmp);
	free(a->tmp);
	free(a->path);
	a->tmp = a->path = NULL;
	a->fd = -1;
}
