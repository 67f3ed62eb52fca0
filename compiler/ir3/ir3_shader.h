/*
 * One shader on one ir3 target, for compile.c (which sees neither the
 * machine IR nor the selection): clone, lower, select, run the backend,
 * fill the result.
 */
#ifndef SHDB_IR3_SHADER_H
#define SHDB_IR3_SHADER_H

#include "compiler/compile_types.h"
#include "compiler/ir/ir.h"

/* The lowered shaders of one source shader, kept for the targets still to
 * compile: targets equal in ir3_lowering_view (ir3_nir.h) share one. */
struct ir3_lower_cache;
struct ir3_lower_cache *ir3_lower_cache_new(void);
void ir3_lower_cache_free(struct ir3_lower_cache *c);

/* Fill `r` (whose target is an ir3 one) for `s`, which is not changed.
 * `cache` (or NULL) holds what earlier targets lowered from the same `s`.
 * Returns 0, or -1 when the result failed (its status and message say why;
 * the message is also in out->diag). */
int ir3_compile_shader(const char *name, struct shader *s, const struct compile_options *o,
		       struct compile_result *r, struct compile_output *out,
		       struct ir3_lower_cache *cache);

#endif
