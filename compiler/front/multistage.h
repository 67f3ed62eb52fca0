/*
 * Files that hold several stages of one program, as shader collections keep
 * them:
 *
 *  - libretro's .slang (MULTI_PRAGMA): Vulkan GLSL whose lines before the
 *    first `#pragma stage` belong to every stage and the lines after
 *    `#pragma stage vertex` (fragment, …) to that stage alone; `#pragma
 *    name`, `#pragma format` and `#pragma parameter` are metadata for the
 *    frontend.  Includes are expanded first, so a shared file may hold the
 *    stages (RetroArch's slang_process does the same).
 *
 *	#version 450
 *	layout(set = 0, binding = 0) uniform UBO { mat4 MVP; } global;
 *	#pragma stage vertex
 *	…
 *	#pragma stage fragment
 *	…
 *
 *  - RetroArch's older .glsl (MULTI_DEFINES): one source compiled once per
 *    stage with VERTEX or FRAGMENT defined (and PARAMETER_UNIFORM, which
 *    turns `#pragma parameter` values into uniforms):
 *
 *	#if defined(VERTEX)
 *	…
 *	#elif defined(FRAGMENT)
 *	…
 *	#endif
 *
 * A stage's source keeps the file's line numbering: the lines of the other
 * stages become empty lines, so glslang's messages name the user's lines.
 * Nothing here reads files, prints or exits; bad input is a located error.
 */
#ifndef SHDB_FRONT_MULTISTAGE_H
#define SHDB_FRONT_MULTISTAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/stage.h"
#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/strbuf.h"

enum multistage_kind {
	MULTI_NONE,		/* one stage */
	MULTI_PRAGMA,		/* `#pragma stage NAME` sections (.slang) */
	MULTI_DEFINES,		/* `#if defined(VERTEX)` … (RetroArch .glsl) */
};

struct multistage_stage {
	enum shader_stage stage;
	int line;		/* where its own lines start (1-based) */
};

struct multistage {
	enum multistage_kind kind;
	ARRAY(struct multistage_stage) stages;	/* in pipeline order, each once */
};

/*
 * The kind of a file by its name and content: .slang is MULTI_PRAGMA; any
 * GLSL file with `#pragma stage` lines is too; one that tests VERTEX and
 * FRAGMENT in #if directives is MULTI_DEFINES; anything else MULTI_NONE.
 */
enum multistage_kind multistage_kind_of(const char *path, const char *src, size_t len);

/*
 * The stages `src` holds (`kind` not MULTI_NONE).  Returns 0, or -1 with a
 * located error in `d`: a `#pragma stage` naming no stage shdb knows, a file
 * with no stage at all.  Takes any bytes (fuzzed); release `ms` either way.
 */
int multistage_parse(const char *file, const char *src, size_t len, enum multistage_kind kind,
		     struct multistage *ms, struct diag *d);
void multistage_release(struct multistage *ms);

/* MULTI_PRAGMA: `stage`'s source, appended to `out` — the lines of other
 * stages and the metadata pragmas emptied, `#line` directives kept. */
void multistage_select(const char *src, size_t len, enum shader_stage stage, struct strbuf *out);

/* MULTI_DEFINES: the definitions a stage is compiled with. */
const char *multistage_defines(enum shader_stage stage);

#endif
