/*
 * One shader on one ir3 target, for compile.c (which sees neither the
 * machine IR nor the selection): clone, lower, select, run the backend,
 * fill the result.
 */
#ifndef SHDB_IR3_SHADER_H
#define SHDB_IR3_SHADER_H

#include "compiler/compile.h"
#include "compiler/ir/ir.h"

/* Fill `r` (whose target is an ir3 one) for `s`, which is not changed.
 * Returns 0, or -1 when the result failed (its status and message say why;
 * the message is also in out->diag). */
int ir3_compile_shader(const char *name, struct shader *s, const struct compile_options *o,
		       struct compile_result *r, struct compile_output *out);

#endif
