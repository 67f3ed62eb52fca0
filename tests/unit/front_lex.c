/* The GLSL tokenizer of compiler/front: lossless, directive-aware, line-counting. */
#include "compiler/front/glsl_lex.h"
#include "compiler/util/strbuf.h"
#include "tap.h"

/* Tokens put back together give the input; returns the token count. */
static int round_trip(const char *src, const char *what)
{
	struct glsl_lexer lx;
	struct glsl_token t;
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	glsl_lexer_init(&lx, src, strlen(src));
	while (glsl_lex(&lx, &t) != GTOK_EOF) {
		strbuf_add(&sb, t.text, t.len);
		n++;
	}
	is_str(sb.buf, src, "round trip: %s", what);
	strbuf_release(&sb);
	return n;
}

/* The kinds of the tokens, one letter each: i n p s N c S # o. */
static void kinds(const char *src, const char *want, const char *what)
{
	static const char letter[] = {
		[GTOK_SPACE] = 's', [GTOK_NEWLINE] = 'N', [GTOK_COMMENT] = 'c',
		[GTOK_IDENT] = 'i', [GTOK_NUMBER] = 'n', [GTOK_STRING] = 'S',
		[GTOK_PUNCT] = 'p', [GTOK_HASH] = '#', [GTOK_OTHER] = 'o',
	};
	struct glsl_lexer lx;
	struct glsl_token t;
	char got[128];
	size_t n = 0;

	glsl_lexer_init(&lx, src, strlen(src));
	while (glsl_lex(&lx, &t) != GTOK_EOF && n + 1 < sizeof(got))
		got[n++] = t.directive && t.kind == GTOK_IDENT ? 'D' : letter[t.kind];
	got[n] = '\0';
	is_str(got, want, "kinds: %s", what);
}

static void version(const char *src, int want, bool es, int line, const char *what)
{
	struct glsl_version v;
	glsl_find_version(src, strlen(src), &v);
	ok(v.version == want && v.es == es && v.line == line,
	   "version: %s (got %d%s at line %d)", what, v.version, v.es ? " es" : "", v.line);
}

int main(void)
{
	round_trip("#version 450\nvoid main() { x = 1.5e-3 + .5 + 0x1F; }\n", "a shader");
	round_trip("a /* b\nc */ d // e\r\nf \\\ng \"s\" \x01 \xc3\xa9", "comments, CRLF, odd bytes");
	round_trip("/* unterminated", "an unterminated comment");
	round_trip("", "empty input");

	kinds("a+1.0e-5", "ipn", "a number with an exponent");
	kinds("0x1e+2", "npn", "a hex number is not an exponent");
	kinds("#define X y\nX", "#DsDsDNi", "a directive's identifiers, then code");
	kinds("a # b", "ispsi", "a '#' inside a line is punctuation");
	kinds("/* c */ #x", "cs#D", "a directive after a comment");
	kinds("#a \\\n b\nc", "#DsDNi", "a continued directive");
	kinds("texture2D// c\n", "icN", "a line comment ends before the newline");

	struct glsl_lexer lx;
	struct glsl_token t;
	const char *src = "a\n/* x\ny */ b\r\nc";
	glsl_lexer_init(&lx, src, strlen(src));
	int lines[8], n = 0;
	while (glsl_lex(&lx, &t) != GTOK_EOF && n < 8)
		if (t.kind == GTOK_IDENT)
			lines[n++] = t.line;
	ok(n == 3 && lines[0] == 1 && lines[1] == 3 && lines[2] == 4,
	   "line numbers count newlines in comments and CRLF");

	version("#version 450\n", 450, false, 1, "450");
	version("// c\n\n  # version 310 es\n", 310, true, 3, "after comments, spaced");
	version("#version 100\n", 100, true, 1, "100 is ES");
	version("void main(){}\n#version 450\n", 110, false, 0, "not first: absent");
	version("", 110, false, 0, "empty: 110");
	version("#version 150 compatibility\n", 150, false, 1, "a profile");

	struct glsl_version v = { .version = 120 };
	is_int(glsl_line_directive_value(&v, 10), 9, "#line before 3.30 names the line before");
	v.version = 330;
	is_int(glsl_line_directive_value(&v, 10), 10, "#line from 3.30 names the next line");
	v = (struct glsl_version){ .version = 100, .es = true };
	is_int(glsl_line_directive_value(&v, 10), 10, "#line in ES names the next line");
	return done_testing();
}
