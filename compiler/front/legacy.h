/*
 * The legacy GLSL path (compiler/front/LEGACY.md): glslang makes SPIR-V only
 * from desktop GLSL 1.40+ and GLSL ES 3.10+, so older sources are rewritten,
 * token by token, into a version it accepts — 1.40 for desktop, 3.10 es for
 * ES — with the removed constructs replaced and the fixed-function built-ins
 * lowered to ordinary uniforms, inputs and outputs.  Desktop sources of 1.40
 * to 4.10 (or of the compatibility profile) that still use what core GLSL
 * removed — texture2D(), gl_FragColor, gl_ModelViewMatrix… — keep their
 * version and get the same lowering.  Line numbers survive: the
 * declarations the rewrite adds sit after #version, followed by #line.
 */
#ifndef SHDB_FRONT_LEGACY_H
#define SHDB_FRONT_LEGACY_H

#include <stdbool.h>

#include "compiler/front/glsl_lex.h"
#include "compiler/stage.h"
#include "compiler/util/array.h"
#include "compiler/util/strbuf.h"

/* A name the rewrite changed: `ours` in the rewritten text stands for the
 * user's `theirs`, on user line `line` (0: on every line). */
struct spelling {
	int line;
	char *ours, *theirs;
};
typedef ARRAY(struct spelling) spelling_array;
void spellings_release(spelling_array *a);

/* Whether `src` (of version `v`, for `stage`) takes the legacy path:
 * desktop below 1.40 (or no #version), ES 1.00 and 3.00, and newer desktop
 * sources that use removed built-ins. */
bool legacy_needed(const char *src, size_t len, const struct glsl_version *v,
		   enum shader_stage stage);

/*
 * Rewrite `src` (of version `v`, for `stage`) into `out` (appended); the
 * first line of `src` is line `first_line` in messages.  `to` gets the
 * version of the result; `spellings` (may be NULL) what the user wrote for
 * each name changed — on its line when `exact_lines` (no include expanded
 * into `src`), for names only the rewrite makes on every line.  Always
 * succeeds: what the rewrite does not know stays as it is, and glslang says
 * what is wrong with it.
 */
void legacy_rewrite(const char *src, size_t len, int first_line, enum shader_stage stage,
		    const struct glsl_version *v, struct strbuf *out, struct glsl_version *to,
		    spelling_array *spellings, bool exact_lines);

#endif
