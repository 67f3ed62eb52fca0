/*
 * The ir3 simulator: runs the final code of the ir3 backend — legalised,
 * register-allocated, every nop and sync flag in place — one fibre per
 * interpreter lane, waves in lock-step, and returns what it wrote in the
 * interpreter's result form, so that compiler/exec can compare it with the
 * interpreter's run of the source shader (README.md in this folder).
 *
 *	struct strbuf why = STRBUF_INIT;
 *	struct ir3_sim *sim = ir3_sim_create(ir, shader, &why);   // NULL: why
 *	struct exec_backend be = ir3_sim_backend(sim, lowered);
 *	exec_check(shader, &be, 0, 4, &tol, &diag, NULL, NULL);
 *	ir3_sim_free(sim);
 *
 * Timing is executed, not reasoned about: a register read before its
 * producer's result is ready (targets.md §1.6: ALU delays, (ss)/(sy) for
 * SFU, local, texture and memory results, write-after-read) reads poison
 * named after the instruction that read it.
 */
#ifndef SHDB_IR3_SIM_H
#define SHDB_IR3_SIM_H

#include "compiler/exec/exec_check.h"

struct ir3;
struct ir3_sim;
struct shader;
struct strbuf;

/* Prepare to run `ir` (legalised, with the interface selection recorded:
 * ir->iface) compiled from `s`.  NULL, with the reason in `why`, when the
 * simulator cannot run it (an instruction it does not model, no
 * interface). */
struct ir3_sim *ir3_sim_create(struct ir3 *ir, struct shader *s, struct strbuf *why);
void ir3_sim_free(struct ir3_sim *sim);

/* The simulator as a backend of the differential test; `lowered` (or
 * NULL) is the shader selection was given, made from `s` by the ir3
 * lowerings. */
struct exec_backend ir3_sim_backend(struct ir3_sim *sim, struct shader *lowered);

/* Run on `in` (made for `s` and ir3_sim_prepare()d). */
struct interp_result *ir3_sim_run(struct ir3_sim *sim, const struct interp_inputs *in);
/* The machine's part of the inputs: a wave's fibres are a subgroup. */
void ir3_sim_prepare(struct ir3_sim *sim, struct interp_inputs *in);
/* What made the value at `at` in the last run: "written by `mul.f r0.x,
 * r1.y, c2.x` (b3, pc 17)", or the refused read that made it poison. */
void ir3_sim_origin(struct ir3_sim *sim, const struct interp_diff *at, struct strbuf *out);

/* The differential test of a compiled result (compile_options.exec_seeds):
 * r->exec says what it found; a difference makes `r` RESULT_ERROR with
 * "execution: seed N: …" as its message and returns -1. */
struct compile_options;
struct compile_result;
int ir3_sim_check(struct ir3 *ir, struct shader *s, struct shader *lowered,
		  const struct compile_options *o, struct compile_result *r, struct exec_cache *cache);

#endif
