/*
 * What the files of compiler/front share and nobody else needs.
 */
#ifndef SHDB_FRONT_INTERNAL_H
#define SHDB_FRONT_INTERNAL_H

#include "compiler/front/front.h"
#include "compiler/front/source.h"

/* One source for glslang; several may share a unit (a .shader_test may hold
 * two sections of one stage, which glslang links into one). */
struct glslang_source {
	enum shader_stage stage;
	struct prepared_source prepared;
	size_t unit;			/* index in p->units */
	const char *defines;		/* "#define …\n" lines for this source alone, or NULL */
};

/*
 * Compile `sources` with glslang as one program and fill their units (status,
 * words, diag, how); p->name names them in messages.  With several stages,
 * glslang links them together (p->linked) when it can, and each alone when
 * it cannot.
 */
void glslang_compile(struct program *p, struct glslang_source *sources, size_t n,
		     const struct compile_options *o);

/* spirv.c */
int spirv_from_binary(struct spirv_unit *u, const char *file, const char *data, size_t len,
		      const struct compile_options *o);
int spirv_from_assembly(struct spirv_unit *u, const char *file, const char *data, size_t len,
			const struct compile_options *o);

/* A new unit for `stage` at the end of p->units (kept in pipeline order by
 * front_compile()). */
struct spirv_unit *program_add_unit(struct program *p, enum shader_stage stage);

#endif
