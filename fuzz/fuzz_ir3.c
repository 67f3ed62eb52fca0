/*
 * Fuzz target: the ir3 assembly parser (compiler/ir3/ir3_parse.c), the text
 * form of the backend's tests.  A parse gives a shader or a located error;
 * a shader is validated and printed.
 */
#include "compiler/ir3/ir3.h"
#include "compiler/util/arena.h"
#include "compiler/util/error.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct arena a;
	struct diag d = DIAG_INIT;
	arena_init(&a);
	struct ir3 *ir = ir3_parse(&a, "fuzz.mir", text, &d);
	if (ir) {
		struct strbuf out = STRBUF_INIT;
		ir3_validate(ir, &out);
		ir3_print(&out, ir);
		strbuf_release(&out);
	} else {
		FUZZ_CHECK(fuzz_located(&d, "fuzz.mir"), "no located error: '%s'", d.text.buf);
	}
	arena_release(&a);
	diag_release(&d);
	free(text);
	return 0;
}
