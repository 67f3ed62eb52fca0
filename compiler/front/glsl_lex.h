/*
 * A GLSL/HLSL tokenizer for source-to-source work: the legacy rewrite,
 * #include expansion, finding #version, guessing the GLSL mode.  It does not
 * parse and does not preprocess: it cuts the text into tokens that, put back
 * together, give the input byte for byte, so a rewrite copies what it leaves
 * alone and changes only whole identifiers outside comments.
 *
 *	struct glsl_lexer lx;
 *	struct glsl_token t;
 *	glsl_lexer_init(&lx, src, len);
 *	while (glsl_lex(&lx, &t) != GTOK_EOF)
 *		if (t.kind == GTOK_IDENT && !t.directive) ...;
 *
 * A directive is a line whose first token is '#'; its tokens (and those of
 * its backslash-continued lines) have `directive` set and the directive ends
 * at the newline, which is a GTOK_NEWLINE token outside it.
 */
#ifndef SHDB_FRONT_GLSL_LEX_H
#define SHDB_FRONT_GLSL_LEX_H

#include <stdbool.h>
#include <stddef.h>

enum glsl_token_kind {
	GTOK_EOF,
	GTOK_SPACE,		/* blanks, and backslash-newline continuations */
	GTOK_NEWLINE,		/* "\n" or "\r\n" */
	GTOK_COMMENT,		/* // to the end of the line, or a block comment */
	GTOK_IDENT,
	GTOK_NUMBER,
	GTOK_STRING,		/* "…" (only #include and #line use them) */
	GTOK_PUNCT,		/* one character of punctuation or an operator */
	GTOK_HASH,		/* the '#' that opens a directive */
	GTOK_OTHER,		/* a byte that is none of the above */
};

struct glsl_token {
	enum glsl_token_kind kind;
	const char *text;
	size_t len;
	int line;		/* 1-based line of the token's first byte */
	bool directive;		/* part of a preprocessor directive */
};

struct glsl_lexer {
	const char *p, *end;
	int line;
	bool line_start;	/* nothing but blanks and comments yet on this line */
	bool in_directive;
};

void glsl_lexer_init(struct glsl_lexer *lx, const char *src, size_t len);
enum glsl_token_kind glsl_lex(struct glsl_lexer *lx, struct glsl_token *t);

/* The next token that is not a blank or a comment (newlines count). */
enum glsl_token_kind glsl_lex_skip_blanks(struct glsl_lexer *lx, struct glsl_token *t);

bool glsl_token_is(const struct glsl_token *t, const char *s);

/* The value of the decimal digits a token starts with, read within the
 * token (its text is not NUL-terminated at its end), INT_MAX for a number
 * larger than that, -1 when it does not start with a digit. */
int glsl_token_int(const struct glsl_token *t);

/* What the #version line says (or implies, when there is none). */
struct glsl_version {
	int version;		/* 110 when the source has no #version */
	bool es;
	bool present;		/* there is a #version directive */
	bool compatibility;	/* "compatibility" profile */
	int line;		/* its line, 0 when absent */
	size_t end;		/* offset just after its line's newline, 0 when absent */
};

/* Find the #version directive: the first directive, before any other token. */
void glsl_find_version(const char *src, size_t len, struct glsl_version *v);

/*
 * glslang's reading of "#line N": the next line is N for ES and for desktop
 * 330 and later, N + 1 for older desktop GLSL.  Returns what to write after
 * "#line " so that the next line is numbered `next`.
 */
int glsl_line_directive_value(const struct glsl_version *v, int next);

#endif
