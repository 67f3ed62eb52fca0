/*
 * Fuzz target: the Fossilize database reader (compiler/front/foz.c): the
 * StreamArchive index, each entry's payload (stored or deflated, CRC), the
 * pipelines' JSON and the modules' varint or base64 SPIR-V.  Every step
 * gives a result or a reason, never a crash; what the index lists is found
 * again by foz_find(), with the index and without it (foz_attach: a
 * runner's job for one pipeline) alike.
 */
#include <string.h>

#include "compiler/front/foz.h"
#include "fuzz/fuzz.h"

/* Each pipeline and module of the database, as shdb run and compile read
 * them: at most `limit` entries, so one input stays cheap. */
static void read_entries(struct foz_db *db, struct foz_db *attached, size_t limit)
{
	struct strbuf payload = STRBUF_INIT, err = STRBUF_INIT, code = STRBUF_INIT;
	for (size_t i = 0; i < db->entries.len && i < limit; i++) {
		const struct foz_entry *e = &db->entries.data[i];
		FUZZ_CHECK(foz_find(db, e->tag, e->hash) == e, "entry %zu not found again", i);
		const struct foz_entry *a = foz_find(attached, e->tag, e->hash);
		FUZZ_CHECK(a && a->offset == e->offset && a->stored_size == e->stored_size,
			   "entry %zu found elsewhere without the index", i);
		strbuf_reset(&err);
		if (foz_read(db, e, &payload, &err) < 0) {
			FUZZ_CHECK(err.len, "entry %zu: a failed read without a reason", i);
			continue;
		}
		strbuf_reset(&err);
		if (e->tag == FOZ_TAG_SHADER_MODULE) {
			strbuf_reset(&code);
			if (foz_parse_module(payload.buf, payload.len, e->hash, &code, &err) < 0)
				FUZZ_CHECK(err.len, "module %zu: failed without a reason", i);
			else
				FUZZ_CHECK(code.len % 4 == 0, "module %zu: %zu bytes", i, code.len);
		} else if (e->tag == FOZ_TAG_GRAPHICS_PIPELINE || e->tag == FOZ_TAG_COMPUTE_PIPELINE) {
			struct foz_pipeline p;
			if (foz_parse_pipeline(payload.buf, payload.len, e->tag, e->hash, &p, &err) < 0)
				FUZZ_CHECK(err.len, "pipeline %zu: failed without a reason", i);
			foz_pipeline_release(&p);
		}
	}
	strbuf_release(&payload);
	strbuf_release(&err);
	strbuf_release(&code);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct foz_db db, attached;
	struct strbuf err = STRBUF_INIT;
	if (foz_open(&db, data, size, &err) < 0) {
		FUZZ_CHECK(err.len, "foz_open failed without a reason");
	} else {
		FUZZ_CHECK(foz_attach(&attached, data, size, &err) == 0,
			   "foz_attach refuses what foz_open read");
		foz_hash_array hashes = ARRAY_INIT;
		foz_list_pipelines(&db, &hashes);
		for (size_t i = 1; i < hashes.len; i++)
			FUZZ_CHECK(hashes.data[i - 1] < hashes.data[i], "pipelines out of order");
		array_free(&hashes);
		read_entries(&db, &attached, 64);
		foz_close(&attached);
	}
	foz_close(&db);
	strbuf_release(&err);
	return 0;
}
