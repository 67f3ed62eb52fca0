/*
 * The differential test of a backend: run the compiled code of a shader
 * on random inputs in the backend's simulator and compare what it wrote
 * with what the IR interpreter computes for the source shader (outputs,
 * stores, discards; interp_compare()).  Generic: a backend plugs in its
 * simulator as a struct exec_backend (compiler/ir3/sim is the first).
 *
 *	struct exec_backend be = ir3_sim_backend(sim);
 *	struct interp_tolerance tol = exec_tolerance();
 *	if (!exec_check(s, &be, 0, 4, &tol, &diag, &st, NULL))
 *		… diag: "seed 2: output 0 (location 0) lane 1 .y: 0x3f800000 (1)
 *		   before, 0x0 (0) after; written by `mul.f r0.y, r0.x, c1.x` (b1)"
 */
#ifndef SHDB_EXEC_CHECK_H
#define SHDB_EXEC_CHECK_H

#include "compiler/ir/interp.h"

struct exec_backend {
	const char *name;		/* "ir3 simulator" */
	void *ctx;
	/* The machine's part of the inputs the generator made (a wave's
	 * size is the subgroup size); before either run. */
	void (*prepare)(void *ctx, struct interp_inputs *in);
	/* Run the compiled code.  A result shaped as the interpreter's
	 * (interp_result_create()); INTERP_ERROR when it cannot run,
	 * INTERP_UNDEFINED when the machine code did something undefined (the
	 * message names the instruction). */
	struct interp_result *(*run)(void *ctx, const struct interp_inputs *in);
	/* What made the value at `at` in the last run (an instruction). */
	void (*origin)(void *ctx, const struct interp_diff *at, struct strbuf *out);
	/* The shader the backend's instruction selection was given (after
	 * its lowerings), or NULL; and the inputs that shader reads for the
	 * last run's (`in`: its uniforms are the const file the run had). */
	struct shader *lowered;
	void (*lowered_inputs)(void *ctx, const struct interp_inputs *in, struct interp_inputs *out);
	/* The lowered shader's run made a result of the source shader's
	 * shape, in place, where the lowering changed what a result is (ir3's
	 * geometry shaders: a lane per output vertex); NULL: nothing to do. */
	void (*lowered_result)(void *ctx, struct interp_result *run);
};

/* Seeds a check runs unless told: one of each kind of the generator's
 * inputs (tame, some special values, many, tame in [0, 1]). */
#define EXEC_DEFAULT_SEEDS 4
/* When the interpreter has no verdict on any of them (undefined behaviour
 * the random inputs made, a loop they made too long), the check goes on
 * with the next seeds until one compares, up to this many times as many. */
#define EXEC_MORE_SEEDS 4
/* The interpreter's budget per run, in instructions × lanes: a seed that
 * needs more is skipped (as one that reaches the step limit). */
#define EXEC_LANE_STEPS (1u << 21)
/* The interpreter's step limit for a run of `lanes` lanes (a step runs one
 * instruction on every lane), so a workgroup of 256 lanes in a long loop
 * is skipped as soon as a quad would be. */
uint64_t exec_step_limit(unsigned lanes);

struct exec_stats {
	unsigned compared;		/* seeds where both ran and were compared */
	unsigned via_lowered;		/* of those, seeds that agree with the lowered shader
					 * only: the lowerings' float approximations differ */
	unsigned skipped;		/* seeds where the interpreter did not end normally */
	unsigned skipped_limit;		/* of those, at its step limit */
	uint64_t defined;		/* result components and bytes compared */
	uint64_t run_ns;		/* in the backend's runs */
	uint64_t interp_ns;		/* in the interpreter's (cached runs: none) */
};

/* The interpreter's runs of one source shader, kept for the next backend
 * (target) that checks the same shader: keyed by seed and by what the
 * backend's prepare() made of the inputs (the subgroup size, the
 * machine's choices). */
struct exec_cache;
struct exec_cache *exec_cache_new(void);
void exec_cache_free(struct exec_cache *c);

/*
 * Run `s` in the interpreter and in `be` on the random inputs of seeds
 * first … first + seeds - 1, and compare.  A seed where the interpreter
 * reaches its step limit (EXEC_LANE_STEPS) or undefined behaviour is
 * skipped; when every one is, the next seeds are tried until one compares
 * (at most EXEC_MORE_SEEDS × seeds in all).
 *
 * Where floats, and only floats, differ beyond `tol` the backend's run is
 * compared with the interpreter's run of be->lowered: the lowerings a backend runs (fdiv as
 * rcp·mul, pow as exp2·log2, …) are approximations whose error a shader
 * may amplify (cancellation, a large exponent); when the machine computes
 * exactly what the lowered shader says, the seed agrees (stats
 * via_lowered).  The lowerings themselves are checked pass by pass
 * (tests/unit/ir_equiv.c).
 *
 * False on the first difference, with "seed N: <difference>; <origin>" in
 * `diag`.
 */
bool exec_check(struct shader *s, const struct exec_backend *be, uint64_t first, unsigned seeds,
		const struct interp_tolerance *tol, struct strbuf *diag, struct exec_stats *st,
		struct exec_cache *cache);

/* How far compiled code may drift from its source: the loosest tolerance of
 * the registered passes (the lowerings a backend runs, fdiv and fpow among
 * them, are registered passes). */
struct interp_tolerance exec_tolerance(void);

#endif
