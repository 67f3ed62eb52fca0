/*
 * Fossilize databases (.foz): the pipelines Vulkan applications create, as
 * Fossilize's layer and Steam's shader caches record them, read directly.
 * The format is Fossilize's StreamArchive (fossilize_db.cpp, version 6; 5
 * reads the same):
 *
 *	header   "\x81FOSSILIZEDB" 0 0 0 version         16 bytes
 *	entry    tag (24 hex digits) hash (16 hex digits)  40 bytes of ASCII
 *	         stored size, format, crc32, size           4 × u32, little endian
 *	         payload                                    stored size bytes
 *	…
 *
 * A format is 1 (stored as is) or 2 (zlib's deflate, read with the system
 * zlib); a crc of 0 is not checked; a last entry cut short is dropped, as
 * Fossilize drops it.  Payloads are JSON (Fossilize's fossilize.cpp):
 * a shader module is {"shaderModules": {HASH: {"codeSize", "varintOffset",
 * "varintSize"}}} followed by a NUL and the SPIR-V words as LEB128 varints
 * (or, older, base64 in "code"); a pipeline is {"graphicsPipelines": {HASH:
 * {"stages": [{"stage", "module", "name", "specializationInfo"}…], "pNext":
 * [{"libraries": […]}]}}} or {"computePipelines": {HASH: {"stage": {…}}}}.
 *
 * Every reader here takes a buffer and its length and returns errors (never
 * exits), so any bytes may be fed to it.
 */
#ifndef SHDB_FRONT_FOZ_H
#define SHDB_FRONT_FOZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/compile_types.h"
#include "compiler/stage.h"
#include "compiler/util/array.h"
#include "compiler/util/strbuf.h"

enum foz_tag {
	FOZ_TAG_APPLICATION_INFO = 0,
	FOZ_TAG_SAMPLER = 1,
	FOZ_TAG_DESCRIPTOR_SET_LAYOUT = 2,
	FOZ_TAG_PIPELINE_LAYOUT = 3,
	FOZ_TAG_SHADER_MODULE = 4,
	FOZ_TAG_RENDER_PASS = 5,
	FOZ_TAG_GRAPHICS_PIPELINE = 6,
	FOZ_TAG_COMPUTE_PIPELINE = 7,
	FOZ_TAG_APPLICATION_BLOB_LINK = 8,
	FOZ_TAG_RAYTRACING_PIPELINE = 9,
};

/* Payload formats. */
#define FOZ_STORED 1
#define FOZ_DEFLATE 2

struct foz_entry {
	uint32_t tag;
	uint64_t hash;
	size_t offset;			/* of the payload in the buffer */
	uint32_t stored_size, format, crc, size;
};

typedef ARRAY(uint64_t) foz_hash_array;

struct foz_db {
	const uint8_t *data;		/* the buffer, not owned */
	size_t len;
	ARRAY(struct foz_entry) entries;	/* sorted by (tag, hash), each once */
	bool indexed;			/* entries is the whole index (foz_open) */
	bool truncated;			/* the last entry was cut short (dropped) */
	struct foz_entry found;		/* foz_find()'s answer when not indexed */
};

/* Index `data` (the whole file).  Returns 0, or -1 with the reason in `err`
 * (not a Fossilize database, an unknown version).  Close it either way. */
int foz_open(struct foz_db *db, const uint8_t *data, size_t len, struct strbuf *err);
/* The same without the index, for a few look-ups (one pipeline): each
 * foz_find() then reads the entries' names until it meets its own. */
int foz_attach(struct foz_db *db, const uint8_t *data, size_t len, struct strbuf *err);
void foz_close(struct foz_db *db);

/* The entry (valid until the next foz_find on `db`), or NULL. */
const struct foz_entry *foz_find(struct foz_db *db, uint32_t tag, uint64_t hash);

/* An entry's payload, decompressed and checked, into `out` (reset first). */
int foz_read(const struct foz_db *db, const struct foz_entry *e, struct strbuf *out,
	     struct strbuf *err);

/* A pipeline's hash as records name it ("%016llx") and back. */
void foz_hash_name(uint64_t hash, char out[17]);
bool foz_parse_hash(const char *s, uint64_t *hash);

struct foz_stage {
	enum shader_stage stage;
	uint64_t module;
	char *entry;				/* the entry point's name */
	ARRAY(struct spec_value) specs;		/* from its specialization info */
};

struct foz_pipeline {
	uint32_t tag;
	uint64_t hash;
	ARRAY(struct foz_stage) stages;		/* in pipeline order */
	foz_hash_array libraries;		/* graphics pipeline libraries it links */
};

/*
 * A pipeline entry's payload (JSON, `len` bytes) into `p`.  Returns 0, or -1
 * with the reason in `err`.  Release `p` either way.
 */
int foz_parse_pipeline(const char *payload, size_t len, uint32_t tag, uint64_t hash,
		       struct foz_pipeline *p, struct strbuf *err);
void foz_pipeline_release(struct foz_pipeline *p);

/* A shader module entry's payload: its SPIR-V, as bytes (host order words)
 * appended to `code`.  Returns 0, or -1 with the reason in `err`. */
int foz_parse_module(const char *payload, size_t len, uint64_t hash, struct strbuf *code,
		     struct strbuf *err);

/* The graphics and compute pipelines of a database, by hash (ascending). */
void foz_list_pipelines(const struct foz_db *db, foz_hash_array *hashes);

#endif
