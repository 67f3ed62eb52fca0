/*
 * The piglit / shader-db .shader_test format (../shared/corpus/README.md,
 * reference/shaderdb-tools.md §1 on run.c):
 *
 *	[require]
 *	GLSL >= 1.30
 *	GL_ARB_explicit_attrib_location
 *
 *	[vertex shader]
 *	#version 130
 *	…
 *	[fragment shader]
 *	…
 *	[test]                  (piglit only; it and everything after it ignored)
 *
 * A header is a line starting with '['.  Shader sections may come in any
 * order and a stage may have several (GL links them into one).  Sections the
 * format has but shdb does not compile ([vertex shader passthrough],
 * [vertex data], piglit's SPIR-V sections…) are skipped with a warning.
 */
#ifndef SHDB_FRONT_SHADER_TEST_H
#define SHDB_FRONT_SHADER_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/front/front.h"

struct shader_test_section {
	enum shader_stage stage;
	bool arb;			/* [vertex program] / [fragment program]: ARB assembly */
	const char *text;		/* the section's body, inside the parsed buffer */
	size_t len;
	int line;			/* the body's first line in the file */
};

struct shader_test {
	ARRAY(struct shader_test_section) sections;	/* in file order */
	struct program_require require;
};

/*
 * Parse `data`.  Returns 0, or -1 with a located error in `d` (a header
 * without its ']', no shader section at all).  Warnings may be added either
 * way.  Release `st` in both cases.
 */
int shader_test_parse(const char *file, const char *data, size_t len, struct shader_test *st,
		      struct diag *d);
void shader_test_release(struct shader_test *st);

void program_require_release(struct program_require *r);

#endif
