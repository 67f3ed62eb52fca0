/*
 * Pipelines of passes, whatever IR they change: the PASS() macro and the
 * bookkeeping around each pass (checks, --print-after dumps, timing), for
 * the target-independent IR (compiler/opt/opt.h: pipeline_init) and for a
 * backend's machine IR (pipeline_init_ops with its pipeline_ops:
 * compiler/ir3/ir3_compile.c) alike.  What happens after each pass is
 * described in compiler/opt/opt.h.
 */
#ifndef SHDB_UTIL_PASS_H
#define SHDB_UTIL_PASS_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/strbuf.h"

struct shader;

struct pass_time {
	const char *name;		/* static: the pass's name */
	unsigned runs, progress;
	uint64_t ns;
};
typedef ARRAY(struct pass_time) pass_times;

/*
 * What a pipeline needs of the IR its passes change: the target-independent
 * IR (the default, pipeline_init) or a backend's machine IR
 * (pipeline_init_ops with the backend's ops: compiler/ir3/ir3_compile.c), so
 * one PASS() gives every pass, in every family, the same checks, dumps and
 * timing.
 */
struct pipeline_ops {
	const char *comment;		/* starts a dump's header line: "#", ";" */
	void (*print)(void *ir, struct strbuf *sb);
	/* Whether `ir` is valid; else why, in `d` (located at `file`). */
	bool (*validate)(void *ir, struct diag *d, const char *file);
	/* Around each pass, or NULL: the IR's own bookkeeping.  `after`
	 * returns what the pass did wrong (a static message), or NULL. */
	void (*before)(void *ir);
	const char *(*after)(void *ir, bool progress, bool validate);
};

struct pipeline {
	union {
		struct shader *shader;	/* pipeline_init: the IR */
		void *ir;		/* what every pass gets as its first argument */
	};
	const struct pipeline_ops *ops;
	const char *file;		/* for messages */
	struct diag *diag;		/* validation failures go here */
	bool validate;
	bool check_progress;
	const char *print_after;	/* NULL, "all" or a pass name */
	struct strbuf *dump;		/* where --print-after dumps go (may be NULL) */
	bool time_passes;
	pass_times times;
	const char *volatile *running;	/* if set: the running pass's name, else NULL */
	bool failed;			/* a check failed: later passes are skipped */

	struct strbuf before_;		/* check_progress: the text before the pass */
	uint64_t start_ns_;
};

void pipeline_init_ops(struct pipeline *pl, const struct pipeline_ops *ops, void *ir,
		       struct diag *diag, const char *file);
void pipeline_release(struct pipeline *pl);
/* Add the times of `from` to `to`, per pass name. */
void pass_times_add(pass_times *to, const pass_times *from);
/* Add one run of the pass `name` (a static string) that took `ns`. */
void pass_times_record(pass_times *to, const char *name, bool progress, uint64_t ns);
/* The monotonic clock passes are timed with, in nanoseconds. */
uint64_t pass_clock_ns(void);

#define PASS(progress, pl, pass, ...) \
	do { \
		if (!(pl)->failed) { \
			pipeline_before_((pl), #pass); \
			bool pass_progress_ = pass((pl)->ir, ##__VA_ARGS__); \
			(progress) |= pipeline_after_((pl), #pass, pass_progress_); \
		} \
	} while (0)

void pipeline_before_(struct pipeline *pl, const char *name);
bool pipeline_after_(struct pipeline *pl, const char *name, bool progress);

/* Whether the comma-separated `list` names `name`. */
bool pipeline_list_has(const char *list, const char *name);

/* A registry's names for pass_names_check: the i-th of `count`. */
struct pass_names {
	size_t count;
	const char *(*name)(size_t i);
};

/*
 * Check the pass names of --passes (NULL, "none" or "a,b,c") and of
 * --print-after (NULL, "all" or one name) against `known`; on error a
 * message in `err`: "unknown pass 'x' (known passes: …)", "empty pass name
 * in 'a,'".
 */
bool pass_names_check(const struct pass_names *known, const char *passes, const char *print_after,
		      struct strbuf *err);

#endif
