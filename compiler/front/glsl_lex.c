/*
 * The tokenizer of glsl_lex.h.  Every byte of the input belongs to exactly
 * one token; line numbers count "\n" (inside comments and continuations too).
 */
#include "compiler/front/glsl_lex.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void glsl_lexer_init(struct glsl_lexer *lx, const char *src, size_t len)
{
	lx->p = src;
	lx->end = src + len;
	lx->line = 1;
	lx->line_start = true;
	lx->in_directive = false;
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || is_digit(c);
}

/* Length of a newline at p ("\n" or "\r\n"), 0 when there is none. */
static size_t newline_at(const char *p, const char *end)
{
	if (p < end && *p == '\n')
		return 1;
	if (p + 1 < end && p[0] == '\r' && p[1] == '\n')
		return 2;
	return 0;
}

/* Blanks and backslash-newline continuations. */
static const char *scan_space(struct glsl_lexer *lx, const char *p)
{
	for (;;) {
		if (p < lx->end && (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' ||
				    (*p == '\r' && !newline_at(p, lx->end)))) {
			p++;
		} else if (p < lx->end && *p == '\\' && newline_at(p + 1, lx->end)) {
			p += 1 + newline_at(p + 1, lx->end);
			lx->line++;
		} else {
			return p;
		}
	}
}

static const char *scan_block_comment(struct glsl_lexer *lx, const char *p)
{
	p += 2;
	while (p < lx->end) {
		if (p + 1 < lx->end && p[0] == '*' && p[1] == '/')
			return p + 2;
		if (*p++ == '\n')
			lx->line++;
	}
	return p;
}

static const char *scan_number(const struct glsl_lexer *lx, const char *p)
{
	bool hex = p + 1 < lx->end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	while (p < lx->end) {
		if (is_ident_char(*p) || *p == '.') {
			p++;
		} else if ((*p == '+' || *p == '-') && !hex && (p[-1] == 'e' || p[-1] == 'E')) {
			p++;
		} else {
			break;
		}
	}
	return p;
}

static enum glsl_token_kind classify(struct glsl_lexer *lx, const char **pp)
{
	const char *p = *pp, *end = lx->end;
	size_t nl;
	enum glsl_token_kind kind;

	if ((nl = newline_at(p, end))) {
		*pp = p + nl;
		return GTOK_NEWLINE;
	}
	if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' || *p == '\r' ||
	    (*p == '\\' && newline_at(p + 1, end))) {
		*pp = scan_space(lx, p);
		return GTOK_SPACE;
	}
	if (p + 1 < end && p[0] == '/' && p[1] == '/') {
		while (p < end && !newline_at(p, end))
			p++;
		*pp = p;
		return GTOK_COMMENT;
	}
	if (p + 1 < end && p[0] == '/' && p[1] == '*') {
		*pp = scan_block_comment(lx, p);
		return GTOK_COMMENT;
	}
	if (is_ident_start(*p)) {
		while (p < end && is_ident_char(*p))
			p++;
		kind = GTOK_IDENT;
	} else if (is_digit(*p) || (*p == '.' && p + 1 < end && is_digit(p[1]))) {
		p = scan_number(lx, p);
		kind = GTOK_NUMBER;
	} else if (*p == '"') {
		p++;
		while (p < end && *p != '"' && !newline_at(p, end))
			p++;
		p += p < end && *p == '"';
		kind = GTOK_STRING;
	} else if (*p == '#' && lx->line_start) {
		p++;
		kind = GTOK_HASH;
	} else if ((unsigned char)*p >= 0x21 && (unsigned char)*p < 0x7f) {
		p++;
		kind = GTOK_PUNCT;
	} else {
		p++;
		kind = GTOK_OTHER;
	}
	*pp = p;
	return kind;
}

enum glsl_token_kind glsl_lex(struct glsl_lexer *lx, struct glsl_token *t)
{
	const char *p = lx->p;

	t->text = p;
	t->line = lx->line;
	if (p >= lx->end) {
		t->kind = GTOK_EOF;
		t->len = 0;
		t->directive = false;
		return GTOK_EOF;
	}
	t->kind = classify(lx, &p);
	t->len = (size_t)(p - t->text);
	lx->p = p;

	switch (t->kind) {
	case GTOK_NEWLINE:
		lx->line++;
		lx->line_start = true;
		lx->in_directive = false;
		t->directive = false;
		break;
	case GTOK_SPACE:
	case GTOK_COMMENT:
		t->directive = lx->in_directive;
		break;
	case GTOK_HASH:
		lx->in_directive = true;
		lx->line_start = false;
		t->directive = true;
		break;
	default:
		lx->line_start = false;
		t->directive = lx->in_directive;
		break;
	}
	return t->kind;
}

enum glsl_token_kind glsl_lex_skip_blanks(struct glsl_lexer *lx, struct glsl_token *t)
{
	while (glsl_lex(lx, t) == GTOK_SPACE || t->kind == GTOK_COMMENT)
		;
	return t->kind;
}

bool glsl_token_is(const struct glsl_token *t, const char *s)
{
	size_t n = strlen(s);
	return t->len == n && !memcmp(t->text, s, n);
}

int glsl_token_int(const struct glsl_token *t)
{
	if (!t->len || t->text[0] < '0' || t->text[0] > '9')
		return -1;
	int v = 0;
	for (size_t i = 0; i < t->len && t->text[i] >= '0' && t->text[i] <= '9'; i++) {
		int d = t->text[i] - '0';
		if (v > (INT_MAX - d) / 10)
			return INT_MAX;
		v = v * 10 + d;
	}
	return v;
}

void glsl_find_version(const char *src, size_t len, struct glsl_version *v)
{
	struct glsl_lexer lx;
	struct glsl_token t;

	memset(v, 0, sizeof(*v));
	v->version = 110;
	glsl_lexer_init(&lx, src, len);
	while (glsl_lex_skip_blanks(&lx, &t) == GTOK_NEWLINE)
		;
	if (t.kind != GTOK_HASH)
		return;
	if (glsl_lex_skip_blanks(&lx, &t) != GTOK_IDENT || !glsl_token_is(&t, "version"))
		return;
	v->present = true;
	v->line = t.line;
	if (glsl_lex_skip_blanks(&lx, &t) == GTOK_NUMBER)
		v->version = glsl_token_int(&t);
	while (glsl_lex_skip_blanks(&lx, &t) == GTOK_IDENT) {
		v->es |= glsl_token_is(&t, "es");
		v->compatibility |= glsl_token_is(&t, "compatibility");
	}
	while (t.kind != GTOK_NEWLINE && t.kind != GTOK_EOF)
		glsl_lex(&lx, &t);
	v->end = (size_t)(lx.p - src);
	/* "#version 100" is GLSL ES 1.00, with or without "es" */
	if (v->version == 100)
		v->es = true;
}

int glsl_line_directive_value(const struct glsl_version *v, int next)
{
	return v->es || v->version >= 330 ? next : next - 1;
}
