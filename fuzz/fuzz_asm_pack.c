/*
 * Fuzz target: asm.pack (stats/asm_pack.c), the disassembly a run keeps.
 * The pack is indexed, measured as --resume does, and every entry it
 * indexes is read back.
 */
#include <string.h>

#include "fuzz/fuzz.h"
#include "stats/asm_pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	long long valid = asm_pack_valid_length(path, &err);
	FUZZ_CHECK(valid <= (long long)size, "valid length %lld of %zu", valid, size);
	struct asm_pack p;
	struct diag d = DIAG_INIT;
	if (asm_pack_open(&p, path, &d) == 0) {
		size_t iter = 0;
		for (struct strmap_entry *e; (e = strmap_next(&p.index, &iter));) {
			/* the key is "path\0stage\0target" */
			const char *stage = memchr(e->key, 0, e->keylen);
			const char *target = stage ? memchr(stage + 1, 0, e->keylen -
								(size_t)(stage + 1 - e->key)) : NULL;
			FUZZ_CHECK(target, "a key without its three parts");
			asm_pack_get(&p, e->key, stage + 1, target + 1, &text);
		}
		asm_pack_close(&p);
	}
	diag_release(&d);
	strbuf_release(&err);
	strbuf_release(&text);
	return 0;
}
