/* The .shader_test parser: sections, [require], line numbers, bad files. */
#include "compiler/front/shader_test.h"
#include "tap.h"

static const char program[] =
	"# a comment before any section\n"		/* 1 */
	"[require]\n"					/* 2 */
	"GLSL >= 1.30\n"				/* 3 */
	"GL_ARB_explicit_attrib_location\n"		/* 4 */
	"!GL_ARB_foo\n"					/* 5 */
	"GL_MAX_VARYING_COMPONENTS >= 64\n"		/* 6 */
	"SSO ENABLED\n"					/* 7 */
	"\n"						/* 8 */
	"[fragment shader]\n"				/* 9 */
	"#version 130\n"				/* 10 */
	"void main() { gl_FragColor = vec4(1); }\n"	/* 11 */
	"[vertex shader passthrough]\n"			/* 12 */
	"[vertex shader]\n"				/* 13 */
	"#version 130\n"				/* 14 */
	"void main() { gl_Position = vec4(0); }\n"	/* 15 */
	"\n"						/* 16 */
	"[fragment program]\n"				/* 17 */
	"!!ARBfp1.0\n"					/* 18 */
	"END\n"						/* 19 */
	"[test]\n"					/* 20 */
	"[geometry shader]\n"				/* 21: after [test], ignored */
	"draw rect -1 -1 2 2\n";

static void parse_ok(void)
{
	struct shader_test st;
	struct diag d = DIAG_INIT;

	is_int(shader_test_parse("p.shader_test", program, sizeof(program) - 1, &st, &d), 0,
	       "a program parses");
	is_int(st.sections.len, 3, "three sections before [test]");
	if (st.sections.len == 3) {
		struct shader_test_section *f = &st.sections.data[0], *v = &st.sections.data[1];
		struct shader_test_section *a = &st.sections.data[2];
		ok(f->stage == STAGE_FRAGMENT && !f->arb && f->line == 10,
		   "[fragment shader] first, its body at line 10 (got %d)", f->line);
		ok(f->len == strlen("#version 130\nvoid main() { gl_FragColor = vec4(1); }\n") &&
		   !strncmp(f->text, "#version 130\n", 13), "the fragment body, whole");
		ok(v->stage == STAGE_VERTEX && v->line == 14 && v->len == 53,
		   "[vertex shader] after it, up to the next header (line %d, %zu bytes)", v->line,
		   v->len);
		ok(a->stage == STAGE_FRAGMENT && a->arb && a->line == 18, "[fragment program] is ARB");
	}
	is_int(st.require.glsl_version, 130, "GLSL >= 1.30");
	ok(!st.require.glsl_es, "not ES");
	ok(st.require.separable, "SSO ENABLED");
	ok(st.require.extensions.len == 1 &&
	   !strcmp(st.require.extensions.data[0], "GL_ARB_explicit_attrib_location"),
	   "one required extension; negations and limits are not extensions");
	ok(strstr(d.text.buf, "p.shader_test:12:1: warning: section [vertex shader passthrough] ignored") != NULL,
	   "unknown sections are warned about");
	shader_test_release(&st);
	diag_release(&d);
}

static void parse(const char *src, int want, const char *needle, const char *what)
{
	struct shader_test st;
	struct diag d = DIAG_INIT;
	int ret = shader_test_parse("x.shader_test", src, strlen(src), &st, &d);
	if (!ok(ret == want && (!needle || strstr(d.text.buf, needle)), "%s", what))
		tap_diag("returned %d: %s", ret, d.text.buf);
	shader_test_release(&st);
	diag_release(&d);
}

int main(void)
{
	parse_ok();
	parse("[require]\nGLSL ES >= 3.00\n[vertex shader]\n", 0, NULL, "an empty last section");
	parse("[vertex shader\nvoid main(){}\n", -1, "x.shader_test:1:1: error: section header without ']'",
	      "an unterminated header");
	parse("[require]\nGLSL >= 1.10\n", -1, "no shader section", "no shader at all");
	parse("", -1, "no shader section", "an empty file");
	parse("[test]\n[vertex shader]\nvoid main(){}\n", -1, "no shader section",
	      "shaders after [test] do not count");
	parse("\r\n[vertex shader]\r\nx\r\n", 0, NULL, "CRLF lines");

	struct shader_test st;
	struct diag d = DIAG_INIT;
	const char *es = "[require]\nGLSL ES >= 3.10\n[compute shader]\nx";
	shader_test_parse("x", es, strlen(es), &st, &d);
	ok(st.require.glsl_version == 310 && st.require.glsl_es, "GLSL ES >= 3.10");
	ok(st.sections.len == 1 && st.sections.data[0].len == 1, "a body without a final newline");
	shader_test_release(&st);
	diag_release(&d);
	return done_testing();
}
