/*
 * GLSL and HLSL text on its way to glslang: #include expansion, the legacy
 * rewrite, line numbering for sources cut out of a bigger file, and the
 * guess of how GLSL wants to be compiled.  All of it works on the tokens of
 * glsl_lex.h and keeps the user's line numbers in glslang's messages.
 */
#ifndef SHDB_FRONT_SOURCE_H
#define SHDB_FRONT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/compile_types.h"
#include "compiler/front/glsl_lex.h"
#include "compiler/front/legacy.h"
#include "compiler/front/multistage.h"
#include "compiler/util/error.h"
#include "compiler/util/strbuf.h"

/*
 * A cap on a source (with its includes) that keeps glslang's time bounded:
 * it grows faster than linearly with the statements of a function (20,000
 * take 2 s, 100,000 over 2 min).  The corpus's largest source is 15 KB;
 * 1 MiB leaves room for generated ones.
 */
#define SOURCE_MAX_SIZE ((size_t)1 << 20)

typedef ARRAY(char *) string_array;

/* A source ready for glslang. */
struct prepared_source {
	struct strbuf text;		/* what glslang reads (NUL-terminated) */
	struct glsl_version version;	/* of `text` */
	bool hlsl;
	bool legacy;			/* went through the legacy rewrite */
	bool gl_style;			/* GL-style declarations: wants the relaxed rules */
	bool atomic_counters;		/* uses atomic_uint, which only GL's SPIR-V has */
	bool spirv_14;			/* needs SPIR-V 1.4: Vulkan's ray tracing and mesh
					 * extensions, HLSL for those stages */
	string_array include_errors;	/* what "#error shdb_include_error_N" stands for */
	spelling_array spellings;	/* the user's names for what the legacy rewrite renamed */
};

void prepared_source_release(struct prepared_source *ps);

/*
 * Prepare `src` for glslang.  `file` names it in messages, and its line 1 is
 * line `first_line` of that file (a .shader_test section starts further
 * down).  For a file of several stages (`multi` MULTI_PRAGMA) the lines of
 * `stage` alone are kept, after the includes are expanded.  Returns 0, or -1 with the reason in `d` (binary data, include
 * trouble).
 */
int source_prepare(const char *file, const char *src, size_t len, int first_line,
		   enum shader_stage stage, bool hlsl, enum multistage_kind multi,
		   const struct compile_options *o, struct prepared_source *ps, struct diag *d);

/*
 * Refuse a source whose macros would expand to more than the preprocessor
 * can go through in seconds (a "macro bomb", macro_bound.c): -1 with a
 * located error in `d`, else 0.  `src` is the text after include expansion
 * (its #line directives name the headers), its line 1 line `first_line`
 * of `file`.
 */
int source_check_macros(const char *file, const char *src, size_t len, int first_line,
			const struct glsl_version *v, struct diag *d);

/* HLSL or GLSL, for files whose extension does not say (Vulkan samples keep
 * HLSL in .frag/.vert files): HLSL when there is no #version and HLSL-only
 * words (float4, cbuffer, SV_ semantics…) appear. */
bool source_looks_like_hlsl(const char *src, size_t len);

/* GL-style GLSL: uniforms outside blocks, interface variables without
 * locations, opaque uniforms without bindings (glsl_mode.c). */
bool glsl_is_gl_style(const char *src, size_t len, enum shader_stage stage);

/* include.c */
bool source_has_include(const char *src, size_t len);
/* Expand `src`'s #include directives into `out`.  A header that cannot be
 * read becomes "#error shdb_include_error_N", N indexing `errors`. */
int source_expand_includes(const char *file, const char *src, size_t len, int first_line,
			   const struct glsl_version *v, const struct compile_options *o,
			   struct strbuf *out, string_array *errors, struct diag *d);

/* "shdb_include_error_N" in a glslang message: the message it stands for. */
const char *source_include_error(const struct prepared_source *ps, const char *msg, size_t len);

/*
 * A glslang message about line `line` (of the user's file itself when
 * `own_file`, else of a header) with each quoted name the legacy rewrite
 * made ('texture', 'shdb_FragColor') put back as the user wrote it
 * ('texture2DRect', 'gl_FragColor'), appended to `out`.
 */
void source_respell(const struct prepared_source *ps, int line, bool own_file, const char *msg,
		    size_t len, struct strbuf *out);

#endif
