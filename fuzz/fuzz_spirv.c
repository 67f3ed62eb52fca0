/*
 * Fuzz target: the SPIR-V reader (compiler/spirv/).  The input is a module's
 * bytes (host order; a trailing partial word is dropped), read for its first
 * entry point.  Valid IR or a located error, nothing else.
 */
#include <string.h>

#include "compiler/ir/ir.h"
#include "compiler/spirv/spirv.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / 4;
	uint32_t *words = xmalloc(n ? n * 4 : 4);
	if (n)
		memcpy(words, data, n * 4);
	struct diag d = DIAG_INIT;
	struct spirv_options o = { .stage = STAGE_NONE };
	struct shader *s = spirv_to_ir(words, n, &o, "fuzz.spv", &d);
	if (s)
		FUZZ_CHECK(ir_validate(s, &d, "fuzz.spv"), "the reader made invalid IR:\n%s",
			   d.text.buf);
	else
		FUZZ_CHECK(fuzz_located(&d, "fuzz.spv"), "no located error: '%s'", d.text.buf);
	shader_free(s);
	diag_release(&d);
	free(words);
	return 0;
}
