/*
 * Fuzz target: the .shader_test parser (compiler/front/shader_test.c).  A
 * parse gives sections inside the input, or a located error.
 */
#include "compiler/front/shader_test.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct shader_test st;
	struct diag d = DIAG_INIT;
	if (shader_test_parse("fuzz.shader_test", text, size, &st, &d) < 0) {
		FUZZ_CHECK(fuzz_located(&d, "fuzz.shader_test"), "no located error: '%s'",
			   d.text.buf);
	} else {
		for (size_t i = 0; i < st.sections.len; i++) {
			const struct shader_test_section *s = &st.sections.data[i];
			FUZZ_CHECK(s->text >= text && s->text + s->len <= text + size &&
					   s->line >= 1,
				   "section %zu outside the input", i);
		}
	}
	shader_test_release(&st);
	diag_release(&d);
	return 0;
}
