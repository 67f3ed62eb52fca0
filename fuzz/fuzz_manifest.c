/*
 * Fuzz target: the manifest reader (runner/manifest.c), a TSV with a header
 * naming its columns.  A load gives rows or an error "file:line: …".
 */
#include <string.h>

#include "fuzz/fuzz.h"
#include "runner/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct manifest m;
	struct strbuf err = STRBUF_INIT;
	if (manifest_load(&m, path, &err) < 0) {
		FUZZ_CHECK(err.len && !strncmp(err.buf, path, strlen(path)),
			   "an error that does not name the file: '%s'", err.buf);
	} else {
		size_t iter = 0;
		for (struct strmap_entry *e; (e = strmap_next(&m.rows, &iter));)
			FUZZ_CHECK(manifest_find(&m, e->key) == e->value || strlen(e->key) != e->keylen,
				   "row '%s' not found again", e->key);
	}
	manifest_release(&m);
	strbuf_release(&err);
	return 0;
}
