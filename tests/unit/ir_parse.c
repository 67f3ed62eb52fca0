/*
 * The parser: exact located messages for malformed input, the accepted
 * non-canonical spellings, bounds (buffers without a NUL, NUL bytes, deep
 * nesting, huge numbers), and round trips.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/ir.h"
#include "tap.h"

#define HEAD "shader fragment\n\nfn main {\nblock b0:\n"
#define TAIL "}\n"

/* Parse `text`; return the diag text (malloc'ed), "" on success. */
static char *parse_msg(const char *text, size_t len)
{
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse("t.ir", text, len, &d);
	char *msg = strbuf_detach(&d.text, NULL);
	if (s && *msg)
		BUG("a parsed shader with an error");
	if (!s && !*msg)
		BUG("no shader and no error");
	shader_free(s);
	diag_release(&d);
	return msg;
}

static void is_error(const char *text, const char *want)
{
	char *got = parse_msg(text, strlen(text));
	size_t n = strlen(got);
	if (n && got[n - 1] == '\n')
		got[n - 1] = 0;
	is_str(got, want, "error: %s", want + (strncmp(want, "t.ir:", 5) ? 0 : 5));
	free(got);
}

/* Parse and print `text`; compare with `want`. */
static void prints_as(const char *text, const char *want, const char *what)
{
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse("t.ir", text, strlen(text), &d);
	if (!ok(s != NULL, "%s: parses", what)) {
		tap_diag("%s", d.text.buf);
		diag_release(&d);
		return;
	}
	char *got = ir_print_string(s);
	is_str(got, want, "%s", what);
	free(got);
	shader_free(s);
	diag_release(&d);
}

static void test_errors(void)
{
	is_error("", "t.ir:1:1: error: expected 'shader', got end of file");
	is_error("\n\n  shaders", "t.ir:3:3: error: expected 'shader', got 'shaders'");
	is_error("shader frog\n", "t.ir:1:8: error: unknown stage 'frog'");
	is_error("shader fragment bogus\n", "t.ir:1:17: error: unknown property 'bogus'");
	is_error("shader fragment tess_ccw tess_ccw\n",
		 "t.ir:1:26: error: duplicate property 'tess_ccw'");
	is_error("shader compute workgroup_size=1,2\n",
		 "t.ir:1:34: error: expected ',', got end of line");
	is_error("shader compute workgroup_size=70000,1,1\n",
		 "t.ir:1:31: error: workgroup_size out of range (at most 65535)");
	is_error("shader fragment depth_layout=sideways\n",
		 "t.ir:1:30: error: expected a name, got 'sideways'");
	is_error("shader fragment\ninput 1 32x4 location=0\n",
		 "t.ir:2:7: error: expected input number 0, got '1'");
	is_error("shader fragment\ninput 0 32x5\n", "t.ir:2:9: error: invalid number of components 5");
	is_error("shader fragment\ninput 0 7x4\n", "t.ir:2:9: error: invalid bit size 7");
	is_error("shader fragment\nubo 0 set=0 binding=0 size=4 array_size=2\nubo 1\n",
		 "t.ir:3:5: error: expected ubo slot number 2, got '1'");
	is_error("shader fragment\ninput 0 32 location=0 name=\"a\\q\"\n",
		 "t.ir:2:28: error: invalid escape in string");
	is_error("shader fragment\ninput 0 32 name=\"abc\n",
		 "t.ir:2:17: error: unterminated string");
	is_error("shader fragment\nlocal 0 32[0x200000]\n",
		 "t.ir:2:12: error: an element count out of range (at most 1048576)");
	is_error("shader fragment\n", "t.ir:2:1: error: expected a declaration or 'fn', got end of file");
	is_error(HEAD "\t32 %0 = frobnicate %1\n" TAIL, "t.ir:5:10: error: unknown opcode 'frobnicate'");
	is_error(HEAD "\t@frob\n" TAIL, "t.ir:5:2: error: unknown intrinsic 'frob'");
	is_error(HEAD "\t32 %0 = @discard\n" TAIL, "t.ir:5:10: error: discard has no result");
	is_error(HEAD "\t@load_frag_coord\n" TAIL, "t.ir:5:2: error: load_frag_coord needs a result");
	is_error(HEAD "\t32 %0 = fneg %5\n" TAIL, "t.ir:5:15: error: value %5 is never defined");
	is_error(HEAD "\t32 %0 = undef\n\t32 %0 = undef\n" TAIL,
		 "t.ir:6:5: error: value %0 is defined twice");
	is_error(HEAD "\t32x4 %0 = undef\n\t32x4 %1 = fneg %0.xy\n" TAIL,
		 "t.ir:6:20: error: swizzle of 2 components where 4 are read");
	is_error(HEAD "\t32x4 %0 = undef\n\t32x2 %1 = fneg %0.xq\n" TAIL,
		 "t.ir:6:20: error: invalid swizzle character 'q'");
	is_error(HEAD "\t8 %0 = load_const 256\n" TAIL, "t.ir:5:20: error: constant does not fit in 8 bits");
	is_error(HEAD "\t8 %0 = load_const -129\n" TAIL, "t.ir:5:20: error: constant does not fit in 8 bits");
	is_error(HEAD "\t8 %0 = load_const 1.5\n" TAIL,
		 "t.ir:5:20: error: a float constant needs 16, 32 or 64 bits");
	is_error(HEAD "\t32 %0 = load_const true\n" TAIL,
		 "t.ir:5:21: error: true and false are 1-bit constants");
	is_error(HEAD "\t32x2 %0 = load_const 1\n" TAIL, "t.ir:5:24: error: expected ',', got end of line");
	is_error(HEAD "\t32 %0 = load_const 99999999999999999999999\n" TAIL,
		 "t.ir:5:21: error: number too large");
	is_error(HEAD "\t32 %16777216 = undef\n" TAIL,
		 "t.ir:5:5: error: value index too large (the limit is 16777215)");
	is_error(HEAD "\t32 %0 = fadd %1 %2\n" TAIL, "t.ir:5:18: error: expected ',', got '%2'");
	is_error(HEAD "\t32 %0 = phi b9: %0\n" TAIL, "t.ir:5:14: error: unknown block 'b9'");
	is_error(HEAD "block b1:\n" TAIL, "t.ir:5:1: error: a block follows only an if or a loop");
	is_error(HEAD "\tloop {\n\tblock b1:\n\t}\n\t32 %0 = undef\n" TAIL,
		 "t.ir:8:2: error: expected 'block', got '32'");
	is_error(HEAD "\tif %0 {\n\t}\n" TAIL, "t.ir:6:2: error: expected 'block', got '}'");
	is_error(HEAD "\tloop sometimes {\n" TAIL, "t.ir:5:7: error: expected a hint or '{', got 'sometimes'");
	is_error(HEAD, "t.ir:5:1: error: expected '}', got end of file");
	is_error(HEAD TAIL "garbage\n", "t.ir:6:1: error: expected end of file, got 'garbage'");
	is_error(HEAD "\t32 %0 = undef\n\t@store_output %0, %0 base=0 base=1\n" TAIL,
		 "t.ir:6:30: error: duplicate index 'base'");
	is_error(HEAD "\t32 %0 = undef\n\t@store_output %0, %0 colour=2\n" TAIL,
		 "t.ir:6:23: error: store_output has no index 'colour'");
	is_error(HEAD "\t32 %0 = undef\n\t@store_output %0, %0 write_mask=xyq\n" TAIL,
		 "t.ir:6:34: error: invalid write mask character 'q'");
	is_error(HEAD "\t32 %0 = undef\n\t32 %1 = @ssbo_atomic %0, %0, %0 atomic_op=plus\n" TAIL,
		 "t.ir:6:44: error: expected an atomic op, got 'plus'");
	is_error(HEAD "\t32x2 %0 = undef\n\t32x4 %1 = tex 2d float sampler=0\n" TAIL,
		 "t.ir:6:25: error: expected 'texture', got 'sampler'");
	is_error(HEAD "\t32x2 %0 = undef\n\t32x4 %1 = tex 2d float texture=0 sampler=0 colour=%0\n" TAIL,
		 "t.ir:6:45: error: expected a texture source such as coord=%1, got 'colour'");
	is_error(HEAD "\t32 %0 = undef ~\n" TAIL, "t.ir:5:16: error: unexpected character '~'");
	is_error(HEAD "\t32 %0 = undef \xff\n" TAIL, "t.ir:5:16: error: unexpected byte 0xff");
	is_error(HEAD "\t32 %0 = fadd %0, %0 # fine\n\t32 % 1\n" TAIL,
		 "t.ir:6:5: error: unexpected character '%'");
}

static void test_limits(void)
{
	/* nesting: the parser stops before the stack does */
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, HEAD);
	for (int i = 0; i < 5000; i++)
		strbuf_addf(&sb, "loop {\nblock b%d:\n", i + 1);
	char *msg = parse_msg(sb.buf, sb.len);
	ok(strstr(msg, "error: control flow nested too deeply (the limit is 128)") != NULL,
	   "deep nesting is an error, not a crash");
	free(msg);
	strbuf_release(&sb);

	/* a NUL byte inside the buffer */
	const char nul[] = "shader fragment\0\n";
	msg = parse_msg(nul, sizeof(nul) - 1);
	is_str(msg, "t.ir:1:16: error: unexpected byte 0x00\n", "a NUL byte is an error");
	free(msg);

	/* a buffer with no terminator: read exactly len bytes (ASan checks) */
	const char *text = HEAD "\t32 %0 = load_const 123\n" TAIL;
	size_t len = strlen(text);
	for (size_t cut = 0; cut <= len; cut++) {
		char *buf = xmalloc(cut ? cut : 1);
		memcpy(buf, text, cut);
		msg = parse_msg(buf, cut);
		free(msg);
		free(buf);
	}
	ok(true, "every prefix of a file parses or fails without reading past it");
}

static void test_spellings(void)
{
	is_error("shader frag\r\n\r\nfn \"my entry\" {\r\nblock start:\r\n"
		 "\t32 %5 = @load_front_face_is_not_an_intrinsic\r\n" TAIL,
		 "t.ir:5:10: error: unknown intrinsic 'load_front_face_is_not_an_intrinsic'");
	is_error("shader fragment\n\nfn main {\nblock b0:\n\t1 %0 = undef\n\tif %0 {\n\tblock b0:\n",
		 "t.ir:7:8: error: block 'b0' is defined twice");
}

static void test_accepted(void)
{
	prints_as("shader frag\r\n\r\nfn \"my entry\" {\r\nblock start:\r\n"
		  "\t32x4 %0 = load_const 1.0, -0.0, inf, nan\r\n"
		  "\t64 %2 = load_const -2.5e-3\r\n"
		  "\t32x4 %3 = fadd %0, %0.x\r\n"
		  "\t1 %4 = load_const false\r\n"
		  "\tif %4 {\r\n\tblock yes:\r\n\t}\r\n"
		  "block after:  # a comment\r\n"
		  "\t@store_output %3, %2 write_mask=xyzw base=0\r\n" TAIL,
		  "shader fragment\n\n"
		  "fn \"my entry\" {\n"
		  "block b0:\n"
		  "\t32x4   %0 = load_const 0x3f800000, 0x80000000, 0x7f800000, 0x7fc00000  "
		  "# 1.0, -0.0, inf, nan\n"
		  "\t64     %2 = load_const 0xbf647ae147ae147b  # -0.0025000000000000001\n"
		  "\t32x4   %3 = fadd %0, %0.xxxx\n"
		  "\t1      %4 = load_const false\n"
		  "\tif %4 {\n"
		  "\tblock b1:  # preds: b0\n"
		  "\t} else {\n"
		  "\tblock b2:  # preds: b0\n"
		  "\t}\n"
		  "block b3:  # preds: b1 b2\n"
		  "\t@store_output %3, %2 base=0 component=0 write_mask=xyzw\n"
		  "}\n",
		  "CRLF, string names, float constants, broadcasts, a missing else, indices in any order");
}

int main(void)
{
	test_errors();
	test_limits();
	test_spellings();
	test_accepted();
	return done_testing();
}
