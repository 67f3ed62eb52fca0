/*
 * Multi-stage GLSL files (multistage.h): which stages a .slang or RetroArch
 * .glsl file holds, and each stage's source.  Directives are found with the
 * tokenizer of glsl_lex.h, so a `#pragma stage` in a comment is no stage;
 * conditionals are not evaluated (RetroArch does not either).
 */
#include "compiler/front/multistage.h"

#include <stdio.h>
#include <string.h>

#include "compiler/front/glsl_lex.h"
#include "compiler/util/file.h"

/* At the '#' of a directive: its first two words ("pragma", "stage"), the
 * third as a span, and the lexer moved to the directive's end. */
struct directive {
	struct glsl_token words[3];
	unsigned n;
	int line;
};

static void read_directive(struct glsl_lexer *lx, const struct glsl_token *hash,
			   struct directive *dv)
{
	struct glsl_token t;
	struct glsl_lexer before;
	dv->n = 0;
	dv->line = hash->line;
	for (;;) {
		before = *lx;
		if (glsl_lex_skip_blanks(lx, &t) == GTOK_EOF || t.kind == GTOK_NEWLINE) {
			*lx = before;
			return;
		}
		if (dv->n < 3)
			dv->words[dv->n++] = t;
	}
}

static bool word_is(const struct directive *dv, unsigned i, const char *s)
{
	return i < dv->n && dv->words[i].kind == GTOK_IDENT && glsl_token_is(&dv->words[i], s);
}

static bool is_stage_pragma(const struct directive *dv)
{
	return word_is(dv, 0, "pragma") && word_is(dv, 1, "stage");
}

/* A conditional directive that tests VERTEX or FRAGMENT: which (bit 0: VERTEX,
 * bit 1: FRAGMENT).  Scans the rest of the directive from `lx`. */
static unsigned tested_stages(struct glsl_lexer *lx, const struct glsl_token *hash)
{
	struct glsl_lexer peek = *lx;
	struct glsl_token t;
	unsigned found = 0;
	if (glsl_lex_skip_blanks(&peek, &t) != GTOK_IDENT ||
	    !(glsl_token_is(&t, "if") || glsl_token_is(&t, "elif") || glsl_token_is(&t, "ifdef") ||
	      glsl_token_is(&t, "ifndef")))
		return 0;
	(void)hash;
	while (glsl_lex_skip_blanks(&peek, &t) != GTOK_EOF && t.kind != GTOK_NEWLINE) {
		if (t.kind != GTOK_IDENT)
			continue;
		if (glsl_token_is(&t, "VERTEX"))
			found |= 1;
		else if (glsl_token_is(&t, "FRAGMENT"))
			found |= 2;
	}
	return found;
}

enum multistage_kind multistage_kind_of(const char *path, const char *src, size_t len)
{
	const char *ext = path_extension(path);
	struct glsl_lexer lx;
	struct glsl_token t;
	struct directive dv;
	unsigned tested = 0;

	if (!strcmp(ext, "slang"))
		return MULTI_PRAGMA;
	if (strcmp(ext, "glsl") || (!memmem(src, len, "stage", 5) && !memmem(src, len, "VERTEX", 6)))
		return MULTI_NONE;
	glsl_lexer_init(&lx, src, len);
	while (glsl_lex(&lx, &t) != GTOK_EOF) {
		if (t.kind != GTOK_HASH)
			continue;
		tested |= tested_stages(&lx, &t);
		read_directive(&lx, &t, &dv);
		if (is_stage_pragma(&dv))
			return MULTI_PRAGMA;
	}
	return tested & 1 ? MULTI_DEFINES : MULTI_NONE;
}

static void add_stage(struct multistage *ms, enum shader_stage s, int line)
{
	for (size_t i = 0; i < ms->stages.len; i++)
		if (ms->stages.data[i].stage == s)
			return;
	size_t at = 0;
	while (at < ms->stages.len && ms->stages.data[at].stage < s)
		at++;
	array_push(&ms->stages, (struct multistage_stage){ 0 });
	memmove(&ms->stages.data[at + 1], &ms->stages.data[at],
		(ms->stages.len - 1 - at) * sizeof(*ms->stages.data));
	ms->stages.data[at] = (struct multistage_stage){ s, line };
}

/* The stage a `#pragma stage` names, or an error located at it. */
static int pragma_stage(const char *file, const struct directive *dv, enum shader_stage *s,
			struct diag *d)
{
	char name[32];
	if (dv->n < 3 || dv->words[2].kind != GTOK_IDENT) {
		diag_error(d, file, dv->line, 0, "#pragma stage needs a stage name (vertex, fragment, …)");
		return -1;
	}
	const struct glsl_token *w = &dv->words[2];
	snprintf(name, sizeof(name), "%.*s", (int)(w->len < 31 ? w->len : 31), w->text);
	*s = w->len < 31 ? stage_from_name(name) : STAGE_NONE;
	if (*s == STAGE_NONE) {
		diag_error(d, file, dv->line, 0, "#pragma stage '%.*s': not a stage (vertex, fragment, …)",
			   (int)(w->len < 64 ? w->len : 64), w->text);
		return -1;
	}
	return 0;
}

static int parse_pragmas(const char *file, const char *src, size_t len, struct multistage *ms,
			 struct diag *d)
{
	struct glsl_lexer lx;
	struct glsl_token t;
	struct directive dv;
	int ret = 0;

	glsl_lexer_init(&lx, src, len);
	while (glsl_lex(&lx, &t) != GTOK_EOF) {
		if (t.kind != GTOK_HASH)
			continue;
		read_directive(&lx, &t, &dv);
		enum shader_stage s;
		if (!is_stage_pragma(&dv))
			continue;
		if (pragma_stage(file, &dv, &s, d) < 0)
			ret = -1;
		else
			add_stage(ms, s, dv.line + 1);
	}
	if (!ret && !ms->stages.len) {
		diag_error(d, file, 0, 0, "no '#pragma stage' line: a .slang file names the stages "
			   "its lines belong to");
		ret = -1;
	}
	return ret;
}

static void parse_defines(const char *src, size_t len, struct multistage *ms)
{
	struct glsl_lexer lx;
	struct glsl_token t;
	int line[2] = { 0, 0 };

	glsl_lexer_init(&lx, src, len);
	while (glsl_lex(&lx, &t) != GTOK_EOF) {
		if (t.kind != GTOK_HASH)
			continue;
		unsigned tested = tested_stages(&lx, &t);
		for (int i = 0; i < 2; i++)
			if (tested >> i & 1 && !line[i])
				line[i] = t.line + 1;
	}
	/* RetroArch compiles both stages, whatever the file tests */
	add_stage(ms, STAGE_VERTEX, line[0] ? line[0] : 1);
	add_stage(ms, STAGE_FRAGMENT, line[1] ? line[1] : 1);
}

int multistage_parse(const char *file, const char *src, size_t len, enum multistage_kind kind,
		     struct multistage *ms, struct diag *d)
{
	memset(ms, 0, sizeof(*ms));
	ms->kind = kind;
	if (kind == MULTI_PRAGMA)
		return parse_pragmas(file, src, len, ms, d);
	if (kind == MULTI_DEFINES)
		parse_defines(src, len, ms);
	return 0;
}

void multistage_release(struct multistage *ms)
{
	array_free(&ms->stages);
}

/* The pragmas RetroArch reads and drops from every stage. */
static bool is_metadata_pragma(const struct directive *dv)
{
	return word_is(dv, 0, "pragma") && (word_is(dv, 1, "name") || word_is(dv, 1, "format"));
}

/* The newlines of [p, end): what a line of another stage leaves behind. */
static void add_newlines(struct strbuf *out, const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == '\n')
			strbuf_addch(out, '\n');
}

void multistage_select(const char *src, size_t len, enum shader_stage stage, struct strbuf *out)
{
	struct glsl_lexer lx;
	struct glsl_token t;
	struct directive dv;
	bool active = true;

	glsl_lexer_init(&lx, src, len);
	while (glsl_lex(&lx, &t) != GTOK_EOF) {
		const char *start = t.text;
		bool keep = active;
		if (t.kind == GTOK_HASH) {
			read_directive(&lx, &t, &dv);
			if (is_stage_pragma(&dv)) {
				enum shader_stage s = STAGE_NONE;
				char name[32];
				if (dv.n >= 3 && dv.words[2].len < sizeof(name)) {
					snprintf(name, sizeof(name), "%.*s", (int)dv.words[2].len,
						 dv.words[2].text);
					s = stage_from_name(name);
				}
				active = s == stage;
				keep = false;
			} else if (is_metadata_pragma(&dv)) {
				keep = false;
			} else if (word_is(&dv, 0, "line")) {
				keep = true;	/* an include's numbering: every stage's */
			}
		}
		if (keep)
			strbuf_add(out, start, (size_t)(lx.p - start));
		else
			add_newlines(out, start, lx.p);
	}
}

const char *multistage_defines(enum shader_stage stage)
{
	return stage == STAGE_VERTEX ? "#define VERTEX\n#define PARAMETER_UNIFORM\n" :
	       stage == STAGE_FRAGMENT ? "#define FRAGMENT\n#define PARAMETER_UNIFORM\n" : "";
}
