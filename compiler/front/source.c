/*
 * source_prepare(): the steps a GLSL or HLSL text goes through before
 * glslang (source.h), in this order —
 *
 *  1. refuse what is not text (a NUL byte) or absurdly large;
 *  2. expand #include directives (include.c), then keep the stage's own
 *     lines of a file of several (multistage.c);
 *  3. GLSL older than glslang accepts: the legacy rewrite (legacy.c);
 *  4. after the #version line, what the steps above need and a #line that
 *     gives the next line its number in the user's file:
 *
 *	#version 450
 *	#extension GL_GOOGLE_include_directive : enable   (when 2 expanded any)
 *	#line 13                                           (first_line 12)
 *
 *     ES refuses even a blank line before #version, so a .shader_test
 *     section gets a #line, never padding.
 */
#include "compiler/front/source.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/front/legacy.h"

void prepared_source_release(struct prepared_source *ps)
{
	strbuf_release(&ps->text);
	for (size_t i = 0; i < ps->include_errors.len; i++)
		free(ps->include_errors.data[i]);
	array_free(&ps->include_errors);
	spellings_release(&ps->spellings);
}

static const char *spelling_of(const struct prepared_source *ps, int line, bool own_file,
			       const char *name, size_t n)
{
	for (size_t i = 0; i < ps->spellings.len; i++) {
		const struct spelling *sp = &ps->spellings.data[i];
		if ((sp->line == 0 || (own_file && sp->line == line)) && strlen(sp->ours) == n &&
		    !memcmp(sp->ours, name, n))
			return sp->theirs;
	}
	return NULL;
}

void source_respell(const struct prepared_source *ps, int line, bool own_file, const char *msg,
		    size_t len, struct strbuf *out)
{
	const char *p = msg, *end = msg + len;
	while (p < end) {
		const char *q = ps && ps->spellings.len ? memchr(p, '\'', (size_t)(end - p)) : NULL;
		const char *close = q ? memchr(q + 1, '\'', (size_t)(end - q - 1)) : NULL;
		if (!close) {
			strbuf_add(out, p, (size_t)(end - p));
			return;
		}
		const char *theirs = spelling_of(ps, line, own_file, q + 1, (size_t)(close - q - 1));
		strbuf_add(out, p, (size_t)(q + 1 - p));
		if (theirs)
			strbuf_addstr(out, theirs);
		else
			strbuf_add(out, q + 1, (size_t)(close - q - 1));
		strbuf_addch(out, '\'');
		p = close + 1;
	}
}

static int line_of_offset(const char *src, size_t off)
{
	int line = 1;
	for (size_t i = 0; i < off; i++)
		line += src[i] == '\n';
	return line;
}

static int check_text(const char *file, const char *src, size_t len, int first_line,
		      struct diag *d)
{
	const char *nul = memchr(src, 0, len);
	if (nul) {
		size_t off = (size_t)(nul - src);
		diag_error(d, file, first_line - 1 + line_of_offset(src, off), 0,
			   "not a text file: NUL byte at offset %zu", off);
		return -1;
	}
	if (len > SOURCE_MAX_SIZE) {
		diag_error(d, file, 0, 0, "source too large for a shader (%zu bytes, limit %zu)",
			   len, SOURCE_MAX_SIZE);
		return -1;
	}
	return 0;
}

/*
 * Stages newer than the source's version: glslang refuses them, but first
 * tries to build their built-ins at that version, fails, and prints pages
 * of them on stdout.  Refuse them before glslang sees them.
 */
static int check_stage_version(const char *file, const struct glsl_version *v,
			       enum shader_stage stage, struct diag *d)
{
	int desktop = 0, es = 0;
	switch (stage) {
	case STAGE_COMPUTE: desktop = 420; es = 310; break;
	case STAGE_TASK: case STAGE_MESH: desktop = 450; es = 320; break;
	case STAGE_RAYGEN: case STAGE_ANY_HIT: case STAGE_CLOSEST_HIT: case STAGE_MISS:
	case STAGE_INTERSECTION: case STAGE_CALLABLE: desktop = 460; es = 1000; break;
	default: return 0;
	}
	if (v->version >= (v->es ? es : desktop))
		return 0;
	if (es < 1000)
		diag_error(d, file, 0, 0, "%s shaders need #version %d or %d es (this one is %d%s)",
			   stage_name(stage), desktop, es, v->version, v->es ? " es" : "");
	else
		diag_error(d, file, 0, 0, "%s shaders need #version %d (this one is %d%s)",
			   stage_name(stage), desktop, v->version, v->es ? " es" : "");
	return -1;
}

/*
 * GL_EXT_ray_tracing and GL_EXT_mesh_shader make SPIR-V 1.4 only (their NV
 * ancestors, and GL_EXT_ray_query, do with 1.3); glslang's HLSL makes the
 * 1.4 forms for those stages.  A miss costs one more attempt (glslang.c).
 */
static bool needs_spirv_14(const struct prepared_source *ps, enum shader_stage stage)
{
	static const char *const extensions[] = {
		"GL_EXT_ray_tracing", "GL_EXT_mesh_shader", NULL,
	};
	if (ps->hlsl)
		return stage >= STAGE_TASK;
	for (int i = 0; extensions[i]; i++)
		if (memmem(ps->text.buf, ps->text.len, extensions[i], strlen(extensions[i])))
			return true;
	return false;
}

/* Step 4: `src` (whose #version is `v`) with `extra` and a #line after #version. */
static void add_after_version(struct strbuf *out, const char *src, size_t len,
			      const struct glsl_version *v, int first_line, const char *extra)
{
	size_t split = v->present ? v->end : 0;
	int next = first_line + (v->present ? v->line : 0);

	strbuf_add(out, src, split);
	if (split && src[split - 1] != '\n')
		strbuf_addch(out, '\n');
	strbuf_addstr(out, extra);
	strbuf_addf(out, "#line %d\n", glsl_line_directive_value(v, next));
	strbuf_add(out, src + split, len - split);
}

int source_prepare(const char *file, const char *src, size_t len, int first_line,
		   enum shader_stage stage, bool hlsl, enum multistage_kind multi,
		   const struct compile_options *o, struct prepared_source *ps, struct diag *d)
{
	struct strbuf expanded = STRBUF_INIT, rewritten = STRBUF_INIT, selected = STRBUF_INIT;
	struct glsl_version v;
	bool includes;
	int ret = 0;

	memset(ps, 0, sizeof(*ps));
	strbuf_init(&ps->text);
	ps->hlsl = hlsl;
	if (check_text(file, src, len, first_line, d) < 0)
		return -1;

	glsl_find_version(src, len, &v);
	if (hlsl)		/* HLSL's #line, as GLSL 3.30's, names the next line */
		v.version = 500;
	includes = source_has_include(src, len);
	if (includes) {
		if (source_expand_includes(file, src, len, first_line, &v, o, &expanded,
					   &ps->include_errors, d) < 0) {
			ret = -1;
			goto out;
		}
		src = expanded.buf;
		len = expanded.len;
	}
	if (multi == MULTI_PRAGMA) {
		multistage_select(src, len, stage, &selected);
		src = selected.buf;
		len = selected.len;
	}
	if (source_check_macros(file, src, len, first_line, &v, d) < 0) {
		ret = -1;
		goto out;
	}

	ps->version = v;
	if (!hlsl && legacy_needed(src, len, &v, stage)) {
		legacy_rewrite(src, len, first_line, stage, &v, &rewritten, &ps->version,
			       &ps->spellings, !includes);
		ps->legacy = true;
		src = rewritten.buf;
		len = rewritten.len;
		first_line = 1;		/* the rewrite placed its own #line */
	}

	const char *extra = includes && !hlsl ? "#extension GL_GOOGLE_include_directive : enable\n" : "";
	if (first_line != 1 || *extra) {
		glsl_find_version(src, len, &v);
		add_after_version(&ps->text, src, len, &v, first_line, extra);
	} else {
		strbuf_add(&ps->text, src, len);
	}
	if (!hlsl && check_stage_version(file, &ps->version, stage, d) < 0)
		ret = -1;
	ps->gl_style = !hlsl && (ps->legacy || glsl_is_gl_style(ps->text.buf, ps->text.len, stage));
	ps->atomic_counters = !hlsl && memmem(ps->text.buf, ps->text.len, "atomic_uint", 11);
	ps->spirv_14 = needs_spirv_14(ps, stage);
out:
	strbuf_release(&expanded);
	strbuf_release(&rewritten);
	strbuf_release(&selected);
	return ret;
}
