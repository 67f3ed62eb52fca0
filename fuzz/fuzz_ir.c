/*
 * Fuzz target: the IR text parser (compiler/ir/parse.c, FORMAT.md).  A parse
 * gives a shader or a located error; a shader that validates prints as text
 * that parses again to the same text (the round trip of STYLE.md, practice 3).
 */
#include <string.h>

#include "compiler/ir/ir.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse("fuzz.ir", (const char *)data, size, &d);
	if (!s) {
		FUZZ_CHECK(fuzz_located(&d, "fuzz.ir"), "no located error: '%s'", d.text.buf);
		diag_release(&d);
		return 0;
	}
	if (ir_validate(s, &d, "fuzz.ir")) {
		struct strbuf once = STRBUF_INIT, twice = STRBUF_INIT;
		ir_print(s, &once);
		struct shader *again = ir_parse("printed.ir", once.buf, once.len, &d);
		FUZZ_CHECK(again, "the printed IR does not parse:\n%s\n%s", d.text.buf, once.buf);
		ir_print(again, &twice);
		FUZZ_CHECK(!strcmp(once.buf, twice.buf), "the round trip changes the IR:\n%s\n%s",
			   once.buf, twice.buf);
		shader_free(again);
		strbuf_release(&once);
		strbuf_release(&twice);
	}
	shader_free(s);
	diag_release(&d);
	return 0;
}
