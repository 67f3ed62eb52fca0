#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"
#include "tap.h"

int main(void)
{
	struct diag d = DIAG_INIT;
	struct strbuf first = STRBUF_INIT;

	diag_warning(&d, "a.frag", 3, 0, "unused variable '%s'", "x");
	diag_error(&d, "a.frag", 12, 7, "unknown opcode '%s'", "fadd5");
	diag_error(&d, NULL, 0, 0, "no location");
	diag_error(&d, "b.spv", 0, 0, "truncated module");
	is_int(d.errors, 3, "three errors");
	is_int(d.warnings, 1, "one warning");
	is_str(d.text.buf,
	       "a.frag:3: warning: unused variable 'x'\n"
	       "a.frag:12:7: error: unknown opcode 'fadd5'\n"
	       "error: no location\n"
	       "b.spv: error: truncated module\n",
	       "located messages");
	is_str(diag_first_error(&d, &first), "a.frag:12:7: error: unknown opcode 'fadd5'",
	       "first error line");
	diag_release(&d);
	is_int(d.errors, 0, "release resets");
	is_str(diag_first_error(&d, &first), "", "no error after release");

	static const char *const shapes[][2] = {
		{ "x.spv: error: word 1234: OpFoo: unsupported", "word N: OpFoo: unsupported" },
		{ "a.frag:3: error: 'foo' : undeclared identifier", "'…' : undeclared identifier" },
		{ "compiler crashed: SIGSEGV (phase ir3, pass ra)", "compiler crashed: SIGSEGV (phase ir3, pass ra)" },
		{ "timed out after 30 s", "timed out after N s" },
		{ "r12.x of vec4 read at 0x1f", "r12.x of vec4 read at N" },
		{ "a: error: b: error: 'it''s' 7", "'…''…' N" },
	};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		diag_message_shape(shapes[i][0], &first);
		is_str(first.buf, shapes[i][1], "message shape of \"%s\"", shapes[i][0]);
	}

	char *s = xstrndup("abcdef", 3);
	is_str(s, "abc", "xstrndup");
	free(s);
	strbuf_release(&first);
	return done_testing();
}
