/*
 * The run directory on disk, and how it survives being stopped at any moment.
 *
 *	DIR/run.json     metadata; always replaced whole (write_file_atomic): a
 *	                 reader sees the old or the new file, never a mix.  Written
 *	                 when the run starts ("status": "running"), and when it
 *	                 ends ("complete", or "interrupted" after SIGINT/SIGTERM/
 *	                 SIGHUP, or "failed").
 *	DIR/stats.jsonl  the records, appended in the canonical order, whole lines
 *	                 per write(); at any moment the file is a prefix of the
 *	                 finished one.  fsync()ed about once a second and at the end.
 *
 * A run killed outright (SIGKILL, a power cut) leaves run.json saying
 * "running" and stats.jsonl holding a prefix whose last line may be torn (a
 * power cut).  --resume reads the prefix, drops everything from the last shader
 * file on (its records may be incomplete, or its line torn), and carries on
 * from that file; the final stats.jsonl is the one an uninterrupted run writes.
 * An advisory lock (flock on stats.jsonl) stops two runs writing one folder.
 *
 *	DIR/asm.pack     --keep-asm only: the disassembly (stats/asm_pack.h),
 *	                 appended with the records; --resume cuts a torn last entry
 *	                 and appends after it (the entries of a redone file are then
 *	                 written again; readers keep a key's last entry).  A new run
 *	                 without --keep-asm removes a stale one.
 */
#ifndef SHDB_RUNNER_RUNDIR_H
#define SHDB_RUNNER_RUNDIR_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/util/strbuf.h"
#include "runner/tally.h"

enum rundir_mode {
	RUNDIR_NEW,		/* refuse a folder that holds a run */
	RUNDIR_REPLACE,		/* --force: start over */
	RUNDIR_RESUME,		/* --resume: keep what is there */
};

struct rundir {
	char *dir;
	char *stats_path;
	char *run_path;
	int fd;			/* stats.jsonl, append-only */
	int asm_fd;		/* asm.pack, append-only, or -1 */
	char *asm_path;
	uint64_t last_sync_ms;
	bool unsynced;
};

/* Create the folder if needed, lock and open stats.jsonl.  On error returns -1
 * with a message in `err`. */
int rundir_open(struct rundir *d, const char *dir, enum rundir_mode mode, struct strbuf *err);
void rundir_close(struct rundir *d);
/* mkdir -p */
int rundir_mkdir(const char *dir);

int rundir_append(struct rundir *d, const char *data, size_t len);

/* After rundir_open: open asm.pack when `keep` (created with its magic line,
 * or on --resume cut after its last whole entry), else remove a stale one
 * (not on --resume).  -1 with a message in `err`. */
int rundir_open_asm(struct rundir *d, enum rundir_mode mode, bool keep, struct strbuf *err);
int rundir_append_asm(struct rundir *d, const char *data, size_t len);
/* fsync stats.jsonl if a second has passed since the last one (or `now`). */
int rundir_sync(struct rundir *d, bool now);

/* Write run.json (pretty, keys in insertion order). */
int rundir_write_json(const char *dir, json_t *run, struct strbuf *err);
/* Read DIR/run.json; NULL with a message in `err`. */
json_t *rundir_read_json(const char *dir, struct strbuf *err);

/*
 * --resume: read stats.jsonl; count what is kept into `t`.  Unless `keep_all`,
 * cut the file before the records of its last path (and at a torn or invalid
 * line), returning that path in *redo_from (malloc'ed; NULL when the file is
 * empty).  Returns -1 on an I/O error.
 */
int rundir_scan(struct rundir *d, struct tally *t, bool keep_all, char **redo_from,
		struct strbuf *err);

/* Reading a stats.jsonl a record at a time (--merge). */
struct record_reader {
	FILE *f;
	const char *name;
	char *line;
	size_t cap;
	size_t len;		/* of `line`, with its newline */
	size_t lineno;
	json_t *rec;		/* the current record */
	const char *path;	/* its "path" (owned by rec) */
};

int record_reader_open(struct record_reader *r, const char *file, struct strbuf *err);
/* 1: a record is current; 0: end (a torn last line ends it too); -1: a line
 * that is not a record (message in `err`). */
int record_reader_next(struct record_reader *r, struct strbuf *err);
void record_reader_close(struct record_reader *r);

/* A file written in pieces and put in place at once: a temporary file in the
 * same folder, fsync, rename (the streaming form of write_file_atomic, which
 * wants the whole content in memory). */
struct atomic_file {
	char *path;
	char *tmp;
	int fd;
};

int atomic_file_open(struct atomic_file *a, const char *path, struct strbuf *err);
int atomic_file_write(struct atomic_file *a, const void *data, size_t len);
int atomic_file_commit(struct atomic_file *a, struct strbuf *err);
void atomic_file_abort(struct atomic_file *a);

#endif
