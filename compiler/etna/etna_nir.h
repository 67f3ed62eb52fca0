/*
 * The IR side of the etnaviv backend: the lowering passes Mesa's etnaviv
 * compiler runs on NIR (../../shared/reference/targets.md §4.3,
 * etna_compile_shader) and instruction selection from the IR to the machine
 * IR (etna.h).  The backend runs, per target, on a clone of the optimised
 * shader:
 *
 *	etna_lower_nir()  →  etna_isel()  →  etna_compile_machine()
 *
 * The lowering sees only etna_lowering_view() of its target, so targets
 * equal in it share one lowered shader.
 */
#ifndef SHDB_ETNA_NIR_H
#define SHDB_ETNA_NIR_H

#include <string.h>

#include "compiler/etna/etna.h"
#include "compiler/ir/ir.h"

struct pipeline;

/*
 * What of a target the lowering may see: a struct of its own, so a lowering
 * that reads any other field of etna_info does not build (as ir3's
 * ir3_lowering).  Every field is named once, in ETNA_LOWERING_FIELDS, which
 * declares it and copies it from the target.  Targets with equal views get
 * the same lowered shader, lowered once for all of them (etna_shader.c).
 */
#define ETNA_LOWERING_FIELDS(X) \
	X(bool, has_integers)		/* lower_idiv; lower_etna_int_to_float */ \
	X(bool, has_new_transcendentals)	/* lower_etna_transcendental */ \
	X(bool, has_halti2_instructions)	/* lower_etna_scalar: fdot2 */

struct etna_lowering {
#define ETNA_LOWERING_FIELD(type, name) type name;
	ETNA_LOWERING_FIELDS(ETNA_LOWERING_FIELD)
#undef ETNA_LOWERING_FIELD
};

static inline struct etna_lowering etna_lowering_view(const struct etna_info *t)
{
	struct etna_lowering v;
	memset(&v, 0, sizeof(v));	/* padding too: views are compared with memcmp */
#define ETNA_LOWERING_FIELD(type, name) v.name = t->name;
	ETNA_LOWERING_FIELDS(ETNA_LOWERING_FIELD)
#undef ETNA_LOWERING_FIELD
	return v;
}

/* ---- the lowering passes (one per file), each `bool pass(shader, …)` ---- */

/* ALU ops the hardware lacks (lower_etna_alu.c): fsub as fadd of a
 * negation, ftrunc, fround_even, ball/bany as reductions, unordered
 * compares, bool conversions. */
bool lower_etna_alu(struct shader *s, const struct etna_lowering *t);
/* The scalar-only ops split per component (Mesa's etna_alu_to_scalar_filter_cb). */
bool lower_etna_scalar(struct shader *s, const struct etna_lowering *t);
/* The base instance is 0: etnaviv draws start at instance 0
 * (lower_etna_sysvals.c). */
bool lower_etna_sysvals(struct shader *s, const struct etna_lowering *t);
/* sin/cos pre-multiplied; fast transcendentals write a vec2 and a fmul
 * joins it (Mesa's etna_lower_alu, lower_etna_transcendental.c). */
bool lower_etna_transcendental(struct shader *s, const struct etna_lowering *t);
/* HALTI0 has no integers: integer ops as float ops, those without a float
 * form refused (Mesa's nir_lower_int_to_float, lower_etna_int_to_float.c). */
bool lower_etna_int_to_float(struct shader *s, const struct etna_lowering *t);

/* Run the passes above on `pl->shader` for `t`. */
void etna_lower_nir(struct pipeline *pl, const struct etna_lowering *t);

/*
 * Instruction selection: the machine IR for `s` (lowered by etna_lower_nir)
 * in `arena`.  NULL with a message in `err` naming what is not supported,
 * never a crash.
 */
struct etna_shader *etna_isel(struct shader *s, const struct etna_info *t, struct arena *arena,
			      struct strbuf *err);

#endif
