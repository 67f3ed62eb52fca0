/*
 * One shader on one etnaviv target, for compile.c (which sees neither the
 * machine IR nor the selection): clone, lower, select, run the backend,
 * fill the result.
 */
#ifndef SHDB_ETNA_SHADER_H
#define SHDB_ETNA_SHADER_H

#include "compiler/compile_types.h"
#include "compiler/ir/ir.h"

/* The lowered shaders of one source shader, kept for the targets still to
 * compile: targets equal in etna_lowering_view (etna_nir.h) share one. */
struct etna_lower_cache;
struct etna_lower_cache *etna_lower_cache_new(void);
void etna_lower_cache_free(struct etna_lower_cache *c);

/* Fill `r` (whose target is an etnaviv one) for `s`, which is not changed.
 * `cache` (or NULL) holds what earlier targets lowered from the same `s`.
 * Returns 0, or -1 when the result failed (its status and message say why;
 * the message is also in out->diag). */
int etna_compile_shader(const char *name, struct shader *s, const struct compile_options *o,
			struct compile_result *r, struct compile_output *out,
			struct etna_lower_cache *cache);

#endif
