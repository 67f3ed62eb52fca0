/*
 * `shdb run`: what the command line asked for, shared by the run itself
 * (run.c) and --merge (merge.c).
 */
#ifndef SHDB_RUNNER_RUN_H
#define SHDB_RUNNER_RUN_H

#include <jansson.h>
#include <stdbool.h>

#include "compiler/compile.h"
#include "runner/inputs.h"

struct run_config {
	ARRAY(char *) inputs;		/* files and folders; with --merge, run folders */
	const char *manifest;
	ARRAY(char *) include, exclude;	/* the patterns as given */
	struct input_filter filter;	/* compiled */
	unsigned shard_k, shard_n;

	struct compile_options opts;	/* --stage -e -D -I(absolute) --glsl-mode */
	ARRAY(const char *) include_dirs_given;	/* -I as given, for the settings */
	const char *target_list;	/* -t as given; NULL: all */
	int jobs;
	unsigned timeout_s;
	unsigned jobs_per_worker;

	const char *compiler;		/* --compiler template */
	const char *compiler_preset;
	ARRAY(char *) stat_patterns;

	const char *out_dir;
	const char *label;
	bool resume, force, merge, fail_on_error, quiet, no_progress;
	bool keep_asm;			/* --keep-asm: DIR/asm.pack (stats/asm_pack.h) */

	int argc;
	char **argv;
};

/* The run itself; returns the exit status. */
int run_corpus(struct run_config *cfg);
/* --merge; returns the exit status. */
int run_merge(struct run_config *cfg);

/* "2025-06-01T12:00:00Z", now. */
void run_timestamp(char buf[32]);
/* {"name", "cpus", "os"} of this machine. */
json_t *run_host_json(void);
/* shdb's version and git description, from shdb_version(). */
void run_version(char version[32], char commit[96]);
/* --label, or the output folder's name. */
json_t *run_label_json(const struct run_config *c);
/* The first key whose values differ between two settings objects, or NULL. */
const char *run_settings_diff(json_t *a, json_t *b);

#endif
