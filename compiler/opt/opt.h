/*
 * Running passes: the PASS() macro, pipelines, and the registry of passes
 * by name (passes.def).
 *
 * A pass is `bool pass(struct shader *s, …)`: it returns whether it changed
 * the shader, through shader_progress(s, progress, preserved) so metadata it
 * did not preserve is dropped (ir.h, "Metadata").  A pipeline is a readable
 * list of PASS() lines:
 *
 *	bool progress = false;
 *	PASS(progress, pl, opt_copy_prop);
 *	PASS(progress, pl, opt_loop_unroll, 32);	extra arguments follow
 *
 * After each pass PASS() (through pipeline_after_):
 *  - checks the pass called shader_progress() when it reported progress
 *    (else every metadata kind is dropped, and with `validate` it is an
 *    error, as NIR's metadata validation flag);
 *  - with `check_progress`, checks that a pass reporting no progress left
 *    the printed shader unchanged;
 *  - with `validate`, runs ir_validate() when the pass made progress (as
 *    Mesa's NIR_PASS: a pass that changed nothing cannot break valid IR),
 *    or after every pass with `check_progress` too, which proves the
 *    "nothing"; a failure is reported in the diag as "IR validation failed
 *    after PASS" and stops the pipeline (pl->failed: the compile's result
 *    is a crash — a compiler bug);
 *  - appends "# after PASS" and the shader to `dump` when `print_after` is
 *    "all" or the pass's name ("# after PASS: no progress" when it did
 *    nothing);
 *  - with `time_passes`, adds its run time to `times`.
 *
 * Validation is on by default in builds without NDEBUG (the default and the
 * test builds) and in every build with `shdb compile --validate-ir`, which
 * also turns on check_progress; the tests of passes, the golden tests and
 * `make corpus-check` run with both.
 */
#ifndef SHDB_OPT_H
#define SHDB_OPT_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/interp.h"
#include "compiler/ir/ir.h"
#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/strbuf.h"

#ifdef NDEBUG
#define IR_VALIDATE_DEFAULT false
#else
#define IR_VALIDATE_DEFAULT true
#endif

/* The optimisation loop stops after this many rounds even if passes still
 * make progress. */
#define OPT_LOOP_MAX_ITERATIONS 16

typedef bool (*pass_fn)(struct shader *s);

#define PASS_ENTRY(fn, summary, ...) bool fn(struct shader *s);
#include "compiler/opt/passes.def"
#undef PASS_ENTRY

/* Passes with a parameter (the registered versions use the defaults). */
bool opt_peephole_select_limit(struct shader *s, unsigned limit);
/* Which ALU instructions lower_alu_to_scalar_filter() splits (true: split). */
typedef bool (*alu_scalar_filter_fn)(const struct alu_instr *alu, const void *data);
bool lower_alu_to_scalar_filter(struct shader *s, alu_scalar_filter_fn fn, const void *data);
/* opt_algebraic without the inexact rules (algebraic.h): results stay
 * IEEE even where the shader does not ask for it. */
bool opt_algebraic_exact(struct shader *s);

struct pass_info {
	const char *name;
	pass_fn fn;
	const char *summary;
	/* How far float results may move (passes.def): zero for an exact pass.
	 * The equivalence harness (tests/unit/ir_equiv.c) compares with it. */
	struct interp_tolerance tolerance;
};

extern const struct pass_info pass_registry[];
extern const unsigned num_registered_passes;
/* The pass called `name` (`len` bytes), or NULL. */
const struct pass_info *pass_find(const char *name, size_t len);

struct pass_time {
	const char *name;		/* static: the pass's name */
	unsigned runs, progress;
	uint64_t ns;
};

struct pipeline {
	struct shader *shader;
	const char *file;		/* for messages */
	struct diag *diag;		/* validation failures go here */
	bool validate;
	bool check_progress;
	const char *print_after;	/* NULL, "all" or a pass name */
	struct strbuf *dump;		/* where --print-after dumps go (may be NULL) */
	bool time_passes;
	ARRAY(struct pass_time) times;
	const char *volatile *running;	/* if set: the running pass's name, else NULL */
	bool failed;			/* a check failed: later passes are skipped */

	struct strbuf before_;		/* check_progress: the text before the pass */
	uint64_t start_ns_;
};

void pipeline_init(struct pipeline *pl, struct shader *s, struct diag *diag, const char *file);
void pipeline_release(struct pipeline *pl);

#define PASS(progress, pl, pass, ...) \
	do { \
		if (!(pl)->failed) { \
			pipeline_before_((pl), #pass); \
			bool pass_progress_ = pass((pl)->shader, ##__VA_ARGS__); \
			(progress) |= pipeline_after_((pl), #pass, pass_progress_); \
		} \
	} while (0)

void pipeline_before_(struct pipeline *pl, const char *name);
bool pipeline_after_(struct pipeline *pl, const char *name, bool progress);

/* Run a comma-separated list of registered passes ("none": nothing).  An
 * unknown name is an error in the diag; returns false then or when a check
 * failed. */
bool pipeline_run_list(struct pipeline *pl, const char *list);

/* The optimisation loop: the target-independent passes until none makes
 * progress (at most OPT_LOOP_MAX_ITERATIONS rounds).  Backends run it again
 * after their lowerings. */
void opt_loop(struct pipeline *pl);
/* The default pipeline: the loop, then clean-up and dense value numbers. */
void opt_default(struct pipeline *pl);

/* Check the names of `--passes` (NULL, "none" or a list) and
 * `--print-after` (NULL, "all" or a name) before compiling: on error puts
 * a message such as "unknown pass 'x' (known passes: …)" in `err`. */
bool pipeline_check_names(const char *passes, const char *print_after, struct strbuf *err);

#endif
