/*
 * Finding the entry points of an HLSL file (hlsl_entries.h): function
 * definitions at global scope, with the attributes written before each.
 */
#include "compiler/front/hlsl_entries.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "compiler/front/glsl_lex.h"

/* What the attributes before a function say. */
struct attrs {
	bool numthreads, outputtopology, maxvertexcount, domain, hull, pixel;
	enum shader_stage named;	/* [shader("…")] */
};

struct scan {
	struct glsl_lexer lx;
	struct glsl_token t, prev;	/* the current and the previous significant token */
};

/* The next token that is not blank, a comment, a newline or a directive. */
static bool next(struct scan *s)
{
	struct glsl_token t;
	for (;;) {
		enum glsl_token_kind k = glsl_lex(&s->lx, &t);
		if (k == GTOK_EOF)
			return false;
		if (k == GTOK_SPACE || k == GTOK_NEWLINE || k == GTOK_COMMENT || t.directive ||
		    k == GTOK_HASH)
			continue;
		s->prev = s->t;
		s->t = t;
		return true;
	}
}

static bool punct(const struct glsl_token *t, char c)
{
	return t->kind == GTOK_PUNCT && t->len == 1 && *t->text == c;
}

static enum shader_stage stage_from_shader_attr(const struct glsl_token *t)
{
	static const struct {
		const char *name;
		enum shader_stage stage;
	} names[] = {
		{ "\"vertex\"", STAGE_VERTEX }, { "\"pixel\"", STAGE_FRAGMENT },
		{ "\"geometry\"", STAGE_GEOMETRY }, { "\"hull\"", STAGE_TESS_CTRL },
		{ "\"domain\"", STAGE_TESS_EVAL }, { "\"compute\"", STAGE_COMPUTE },
		{ "\"mesh\"", STAGE_MESH }, { "\"amplification\"", STAGE_TASK },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (t->len == strlen(names[i].name) && !memcmp(t->text, names[i].name, t->len))
			return names[i].stage;
	return STAGE_NONE;
}

/* After '[': the attribute's words up to the matching ']'. */
static void read_attribute(struct scan *s, struct attrs *a)
{
	int depth = 1;
	bool after_shader = false;
	while (depth && next(s)) {
		const struct glsl_token *t = &s->t;
		if (punct(t, '['))
			depth++;
		else if (punct(t, ']'))
			depth--;
		else if (t->kind == GTOK_STRING && after_shader)
			a->named = stage_from_shader_attr(t);
		else if (t->kind == GTOK_IDENT) {
			a->numthreads |= glsl_token_is(t, "numthreads");
			a->outputtopology |= glsl_token_is(t, "outputtopology");
			a->maxvertexcount |= glsl_token_is(t, "maxvertexcount");
			a->domain |= glsl_token_is(t, "domain");
			a->hull |= glsl_token_is(t, "outputcontrolpoints") ||
				   glsl_token_is(t, "patchconstantfunc") || glsl_token_is(t, "partitioning");
			a->pixel |= glsl_token_is(t, "earlydepthstencil");
			after_shader = glsl_token_is(t, "shader");
		}
	}
}

static enum shader_stage stage_from_attrs(const struct attrs *a)
{
	if (a->named != STAGE_NONE)
		return a->named;
	/* [outputtopology] is a hull shader's as well as a mesh shader's: the
	 * hull's own attributes decide first */
	if (a->hull)
		return STAGE_TESS_CTRL;
	if (a->outputtopology)
		return STAGE_MESH;
	if (a->numthreads)
		return STAGE_COMPUTE;
	if (a->maxvertexcount)
		return STAGE_GEOMETRY;
	if (a->domain)
		return STAGE_TESS_EVAL;
	if (a->pixel)
		return STAGE_FRAGMENT;
	return STAGE_NONE;
}

enum shader_stage hlsl_stage_from_name(const char *name)
{
	static const struct {
		const char *abbrev;
		enum shader_stage stage;
	} abbrevs[] = {
		{ "vs", STAGE_VERTEX }, { "ps", STAGE_FRAGMENT }, { "fs", STAGE_FRAGMENT },
		{ "gs", STAGE_GEOMETRY }, { "hs", STAGE_TESS_CTRL }, { "ds", STAGE_TESS_EVAL },
		{ "cs", STAGE_COMPUTE }, { "ms", STAGE_MESH }, { "as", STAGE_TASK },
	};
	char low[64];
	size_t n = strlen(name);
	if (n >= sizeof(low))
		return STAGE_NONE;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	for (size_t i = 0; i < sizeof(abbrevs) / sizeof(abbrevs[0]); i++) {
		const char *a = abbrevs[i].abbrev;
		/* vs, vsmain, vs_main, mainvs, main_vs */
		if (!strcmp(low, a) ||
		    (!strncmp(low, a, 2) && (!strcmp(low + 2, "main") || !strcmp(low + 2, "_main"))) ||
		    (!strncmp(low, "main", 4) && (!strcmp(low + 4, a) ||
						 (low[4] == '_' && !strcmp(low + 5, a)))))
			return abbrevs[i].stage;
	}
	return STAGE_NONE;
}

/* At a name followed by '(' at global scope: skip the parameters and an
 * optional semantic; true when a body follows (a definition). */
static bool is_definition(struct scan *s)
{
	int depth = 0;
	do {
		if (punct(&s->t, '('))
			depth++;
		else if (punct(&s->t, ')'))
			depth--;
	} while (depth > 0 && next(s));
	if (depth || !next(s))
		return false;
	if (punct(&s->t, ':') && (!next(s) || s->t.kind != GTOK_IDENT || !next(s)))
		return false;
	return punct(&s->t, '{');
}

/* Calls `found` for every function defined at global scope. */
static void scan_functions(const char *src, size_t len,
			   void (*found)(void *ctx, const struct glsl_token *name,
					 const struct attrs *a),
			   void *ctx)
{
	struct scan s = { 0 };
	struct attrs a = { .named = STAGE_NONE };
	int depth = 0;

	glsl_lexer_init(&s.lx, src, len);
	while (next(&s)) {
		if (punct(&s.t, '{')) {
			depth++;
		} else if (punct(&s.t, '}')) {
			depth -= depth > 0;
			if (!depth)
				a = (struct attrs){ .named = STAGE_NONE };
		} else if (depth) {
			continue;
		} else if (punct(&s.t, ';')) {
			a = (struct attrs){ .named = STAGE_NONE };
		} else if (punct(&s.t, '[')) {
			read_attribute(&s, &a);
		} else if (s.t.kind == GTOK_IDENT &&
			   (s.prev.kind == GTOK_IDENT || punct(&s.prev, '>'))) {
			struct glsl_token name = s.t;
			if (!next(&s) || !punct(&s.t, '('))
				continue;
			if (is_definition(&s)) {
				found(ctx, &name, &a);
				depth++;	/* the body's '{' */
			}
			a = (struct attrs){ .named = STAGE_NONE };
		}
	}
}

static void add_entry(void *ctx, const struct glsl_token *name, const struct attrs *a)
{
	hlsl_entry_array *out = ctx;
	char buf[64];
	if (name->len >= sizeof(buf))
		return;
	snprintf(buf, sizeof(buf), "%.*s", (int)name->len, name->text);
	enum shader_stage s = stage_from_attrs(a);
	if (s == STAGE_NONE)
		s = hlsl_stage_from_name(buf);
	if (s == STAGE_NONE)
		return;
	for (size_t i = 0; i < out->len; i++)
		if (!strcmp(out->data[i].name, buf))
			return;
	array_push(out, (struct hlsl_entry){ xstrdup(buf), s, name->line });
}

void hlsl_find_entries(const char *src, size_t len, hlsl_entry_array *out)
{
	scan_functions(src, len, add_entry, out);
}

void hlsl_entries_release(hlsl_entry_array *a)
{
	for (size_t i = 0; i < a->len; i++)
		free(a->data[i].name);
	array_free(a);
}

struct lookup {
	const char *name;
	enum shader_stage stage;
};

static void match_entry(void *ctx, const struct glsl_token *name, const struct attrs *a)
{
	struct lookup *l = ctx;
	if (l->stage == STAGE_NONE && glsl_token_is(name, l->name))
		l->stage = stage_from_attrs(a);
}

enum shader_stage hlsl_entry_stage(const char *src, size_t len, const char *name)
{
	struct lookup l = { name, STAGE_NONE };
	scan_functions(src, len, match_entry, &l);
	return l.stage != STAGE_NONE ? l.stage : hlsl_stage_from_name(name);
}
