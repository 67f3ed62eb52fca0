/*
 * Linking a program's stages the way a GL driver does, on the IR: each
 * stage's inputs are matched with the outputs of the stage before it —
 * builtins by builtin, other varyings by name (OpName, "Block.member") when
 * the front end located them stage by stage (GL-style and legacy GLSL:
 * compiler/front/front.h), else by location and component — then outputs
 * the next stage never reads are dropped (their stores go; DCE takes the
 * code that fed them) and the surviving varyings are given packed locations
 * from 0, the same on both sides.
 *
 *	struct shader *stages[] = { vs, NULL, NULL, NULL, fs };	 pipeline order
 *	link_program(stages, 5, &(struct link_options){ .by_name = true }, &diag, "x.shader_test");
 *
 * Separable programs ("SSO ENABLED") keep every output and location.  An
 * input no output feeds stays (its value is undefined) with a warning.
 */
#ifndef SHDB_LINK_LINK_H
#define SHDB_LINK_LINK_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/ir/ir.h"

struct link_options {
	bool by_name;		/* match non-builtin varyings by name first */
	bool separable;		/* keep every interface as it is */
};

/*
 * Link the graphics stages of `stages` (any order; NULL entries are stages
 * that failed or are absent; compute and the others are left alone).
 * Warnings go to `diag`, located at `name`.  Returns whether any shader
 * changed.
 */
bool link_program(struct shader **stages, size_t n, const struct link_options *o,
		  struct diag *diag, const char *name);

#endif
