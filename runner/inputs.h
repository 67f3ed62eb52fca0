/*
 * The job list of a run: every shader file under the inputs, as a path relative
 * to its input (the record's `path`), filtered, sharded and sorted into the
 * canonical order.
 *
 * Rules (README, "shdb run"):
 *  - one input folder: paths are relative to it; several inputs: every path
 *    starts with its input as given (Mesa's runner keeps the path as given),
 *    so two folders' 1.shader_test stay apart, and their files compile from
 *    the current folder under that path (messages name it);
 *  - a directory is walked recursively, entries sorted; names starting with '.'
 *    are left out; a directory already walked (same device and inode: a
 *    symbolic-link loop, or two links to one folder) is walked once, with a
 *    warning;
 *  - in a walk, a file whose kind is neither known by its extension
 *    (input_kind_from_path) nor by the manifest is ignored silently (READMEs,
 *    JSON, licences: they are counted as `ignored_files` in run.json);
 *  - a file named on the command line always gets records: `skipped` with the
 *    reason when it is not a shader;
 *  - devices, FIFOs and sockets are `skipped` (reading one could block);
 *  - a folder without a shader is a warning; inputs without any, an error
 *    (files that filters or shards leave out count as found);
 *  - a file of several programs (front.h: an HLSL file with several entry
 *    points, a Fossilize database's pipelines) is one job per program, with
 *    the path "<file>/<program>", so each is filtered, sharded, resumed and
 *    isolated on its own;
 *  - canonical order: by `path` (bytes, as `LC_ALL=C sort`); a path met twice
 *    is one file (named twice, or named and walked) and runs once.
 *
 * Memory: the paths of the jobs (not the files) are held, in one arena.
 * HLSL files are read, and databases' indexes mapped, once each to list
 * their programs.
 */
#ifndef SHDB_RUNNER_INPUTS_H
#define SHDB_RUNNER_INPUTS_H

#include "stats/path_filter.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/stage.h"
#include "compiler/util/arena.h"
#include "compiler/util/array.h"
#include "compiler/util/hash.h"
#include "compiler/util/strbuf.h"
#include "runner/manifest.h"

enum skip_reason {
	SKIP_NONE,
	SKIP_UNKNOWN_KIND,	/* named on the command line, not a shader */
	SKIP_NOT_REGULAR,	/* a FIFO, a device, a socket */
	SKIP_NOT_SHADER,	/* the manifest says so (include/other, license) */
	SKIP_HLSL_NO_STAGE,	/* HLSL whose entry point's stage neither its name, its
				 * attributes, --stage nor the manifest gives */
};

struct input_root {
	const char *arg;	/* as given */
	const char *path_prefix;	/* "arg/" before its files' paths (several inputs), or "" */
	bool is_file;		/* a file named on the command line */
	int dirfd;		/* directory the job paths are relative to */
	const char *manifest_prefix;	/* root's folder relative to the manifest's, or NULL */
	bool no_shader;		/* a folder whose walk found no shader */
	size_t ignored;		/* then: the files of unknown kind it held */
};

struct job {
	const char *path;	/* record path, relative to the root */
	const char *file;	/* the file, when a program of it has a path of its own
				 * ("db.foz" for "db.foz/0123456789abcdef"); NULL: path */
	const char *program;	/* of a file of several programs, this one (front.h) */
	uint32_t root;
	enum shader_stage stage;	/* from the manifest or the extension; STAGE_NONE */
	enum skip_reason skip;
	const struct manifest_entry *m;	/* NULL: no row */
};

struct input_filter {
	struct path_filter paths;	/* --include, --exclude */
	unsigned shard_k, shard_n;	/* keep shard K of N (1-based); N = 0: all */
};

struct inputs {
	struct arena arena;
	ARRAY(struct input_root) roots;
	ARRAY(struct job) jobs;
	size_t ignored;		/* files of unknown kind met in walks */
	size_t filtered;	/* dropped by --include / --exclude */
	size_t other_shards;	/* belonging to another shard */
	size_t loops;		/* directories skipped as already walked */
	struct strmap seen_dirs;	/* (dev, ino) of every directory walked */
	const struct manifest *manifest;
	const struct compile_options *opts;	/* the command line's (--stage, -e …) */
	bool programs;		/* a file of several programs: a job each */
	const struct input_filter *filter;
	pcre2_match_data *md;
	bool as_given;		/* several inputs: paths start with the input */
	int cwd_root;		/* the root of named files (the current folder), or -1 */
};

/*
 * Collect the jobs of `args`.  Returns 0, or -1 with a message in `err` (an
 * input that does not exist).  `manifest` may be NULL.  `programs`: split
 * files of several programs into a job each (not for --compiler, which
 * takes whole files).
 */
int inputs_collect(struct inputs *in, char *const *args, size_t nargs,
		   const struct input_filter *f, const struct manifest *manifest,
		   const struct compile_options *opts, bool programs, struct strbuf *err);

/* The file a job reads. */
static inline const char *job_file(const struct job *j)
{
	return j->file ? j->file : j->path;
}
void inputs_release(struct inputs *in);

/* A 64-bit digest of the job list (paths in order): resume checks it. */
uint64_t inputs_digest(const struct inputs *in);

/* The shard of `path` among `n` (0-based): FNV-1a 64 of its bytes, mixed by
 * splitmix64's finaliser, mod n. */
unsigned shard_of(const char *path, unsigned n);

/* Canonical order of two record paths (strcmp on bytes). */
int path_cmp(const char *a, const char *b);

const char *skip_reason_message(enum skip_reason r);

#endif
