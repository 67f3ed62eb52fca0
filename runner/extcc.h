/*
 * --compiler: any command as the compiler.  For each shader the worker runs
 *
 *	/bin/sh -c TEMPLATE
 *
 * with {file} (the file, as the current folder sees it), {path} (the record
 * path), {stage} ("frag", or empty), {entry} and {target} replaced by
 * shell-quoted values, standard input from /dev/null, standard output and error
 * captured together (the first 16 MiB).  A template with {target} runs once per
 * -t label; without it once per file.
 *
 * Statistics come from the output through PCRE2:
 *  - --stat-pattern REGEX (repeatable): every match of REGEX in the output;
 *    each named group holding an integer is a statistic of that name; a group
 *    named `stage` says the stage ("FRAG", "fragment", "frag");
 *  - --compiler-preset=ir3: Mesa's shader-db lines, "[PATH - ]STAGE shader:
 *    N name, N name, …" (ir3_gallium.c; ../shared/reference/shaderdb-tools.md
 *    §3.1), one result per stage (the first line of a stage wins; binning-pass
 *    variants, BVERT, are not a stage of ours and are left out), names made
 *    JSON keys: "non-nops" → non_nops, "(ss)" → ss, "a:b spills:fills" → spills,
 *    fills, and the newer names ("maxwaves", "code size", "(ss)-stall", "stps")
 *    mapped to the older keys.
 *
 * Outcome: killed by a signal (or sh's exit status 128+N, how it reports a
 * command killed by signal N) → crash; another non-zero exit → error (message: the
 * first output line that mentions "error", else the first line); exit 0 → ok,
 * unless patterns were given and none matched (error: "no statistics in the
 * output").  With keep_output (--keep-asm) every result of the run carries the
 * whole output as its disassembly.
 */
#ifndef SHDB_RUNNER_EXTCC_H
#define SHDB_RUNNER_EXTCC_H

#include <stdbool.h>

#include "compiler/compile.h"
#include "compiler/util/arena.h"
#include "stats/re.h"

struct extcc {
	const char *command;		/* the template */
	bool per_target;		/* it holds {target} */
	bool ir3;			/* --compiler-preset=ir3 */
	ARRAY(pcre2_code *) patterns;	/* --stat-pattern */
	pcre2_code *ir3_line, *ir3_item;
	bool keep_output;		/* --keep-asm: the output is each result's disasm */
};

/* What one run of the command is about. */
struct extcc_file {
	const char *file;		/* {file} */
	const char *path;		/* {path} */
	enum shader_stage stage;	/* {stage}; results without a stage get it */
	const char *entry;		/* {entry}; NULL: main */
	const struct target *target;	/* {target}; may be NULL */
};

/* Returns 0, or -1 with a message in `err` (a bad pattern or preset). */
int extcc_init(struct extcc *x, const char *command, const char *preset,
	       char *const *patterns, size_t npatterns, struct strbuf *err);
void extcc_release(struct extcc *x);

/* Run the command for `f`; append its results to `out`.  Statistic keys are
 * allocated from `keys`. */
void extcc_run(const struct extcc *x, const struct extcc_file *f,
	       struct compile_progress *progress, struct arena *keys,
	       struct compile_output *out);

/* Turn a command's output into results (exposed for tests).  Returns how many
 * results it appended; none when nothing matched. */
size_t extcc_parse(const struct extcc *x, const char *text, size_t len,
		   const struct extcc_file *f, struct arena *keys, struct compile_output *out);

/* The template with the placeholders of `f` replaced (exposed for tests). */
void extcc_expand(const char *command, const struct extcc_file *f, struct strbuf *out);

#endif
