/*
 * Running passes: the PASS() macro, pipelines, and the registry of the
 * target-independent passes by name (passes.def; with each backend's passes
 * they make the one registry of compiler/passes.c).
 *
 * A pass is `bool pass(struct shader *s, …)`: it returns whether it changed
 * the shader, through shader_progress(s, progress, preserved) so metadata it
 * did not preserve is dropped (ir.h, "Metadata").  A backend's pass on its
 * machine IR is `bool pass(struct ir3 *ir, …)`, run by the same PASS() in a
 * pipeline made by pipeline_init_ops() with that IR's pipeline_ops.  A
 * pipeline is a readable list of PASS() lines:
 *
 *	bool progress = false;
 *	PASS(progress, pl, opt_copy_prop);
 *	PASS(progress, pl, opt_loop_unroll, 32);	extra arguments follow
 *
 * After each pass PASS() (through pipeline_after_):
 *  - checks the pass called shader_progress() when it reported progress
 *    (else every metadata kind is dropped, and with `validate` it is an
 *    error, as NIR's metadata validation flag) — the IR's `after` op;
 *  - with `check_progress`, checks that a pass reporting no progress left
 *    the printed shader unchanged;
 *  - with `validate`, runs ir_validate() (the ops' validate) when the pass made progress (as
 *    Mesa's NIR_PASS: a pass that changed nothing cannot break valid IR),
 *    or after every pass with `check_progress` too, which proves the
 *    "nothing"; a failure is reported in the diag as "IR validation failed
 *    after PASS" and stops the pipeline (pl->failed: the compile's result
 *    is a crash — a compiler bug);
 *  - appends "# after PASS" (";" for ir3) and the IR to `dump` when `print_after` is
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

#include "compiler/compile_types.h"
#include "compiler/ir/interp.h"
#include "compiler/ir/ir.h"
#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/pass.h"
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
/* opt_load_store_vectorize (Mesa's nir_opt_load_store_vectorize): the
 * backend says whether `num_components` of `bit_size` from the access `low`
 * (the one at the lower offset), aligned as (align_mul, align_offset), are
 * one access it can execute. */
struct vectorize_mem_options {
	bool (*allowed)(const struct intrinsic_instr *low, unsigned bit_size,
			unsigned num_components, unsigned align_mul, unsigned align_offset,
			const void *data);
	const void *data;
};
bool opt_load_store_vectorize(struct shader *s, const struct vectorize_mem_options *o);
/* opt_16bit_tex (Mesa's nir_opt_16bit_tex_image): a texel fetch whose
 * float result every user narrows returns 16 bits; its sources of the kinds
 * in `src_types` (1 << TEX_SRC_*) are given at 16 bits when all of them are
 * widened 16-bit values or constants 16 bits hold. */
bool opt_16bit_tex(struct shader *s, unsigned src_types);
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

/* A pipeline on the IR (its pipeline_ops: metadata, ir_validate, ir_print). */
void pipeline_init(struct pipeline *pl, struct shader *s, struct diag *diag, const char *file);
/* The same, set up as a compile's options ask: validation, progress checks,
 * --print-after dumps into `dump`, --time-passes, the running pass for crash
 * reports.  The front end's pipeline and every backend's lowering use it. */
void pipeline_init_compile(struct pipeline *pl, struct shader *s, const struct compile_options *o,
			   struct diag *diag, const char *file, struct strbuf *dump);

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
 * `--print-after` (NULL, "all" or a name) against the target-independent
 * passes (the whole registry, backends' too: compile_check_passes): on
 * error a message such as "unknown pass 'x' (known passes: …)" in `err`. */
bool pipeline_check_names(const char *passes, const char *print_after, struct strbuf *err);

#endif
