/*
 * asm.pack: the disassembly a run kept (`shdb run --keep-asm`), beside its
 * stats.jsonl.  One file, appended as records are written, each entry
 * compressed on its own so a reader can skip to the few it wants:
 *
 *	shdb-asm 1\n
 *	{"path":"a/x.frag","stage":"fragment","target":"a630","size":1834,"zsize":412}\n
 *	<zsize bytes: a zlib stream of the size bytes of text>\n
 *	{"path":…}\n
 *	…
 *
 * The header line is compact JSON (any path can be spelt); "target" is ""
 * for a record without one.  An entry is identified by (path, stage,
 * target), as a record of stats.jsonl; when a key appears twice (a resumed
 * run redoes the files it had not finished) the last entry wins.  Entries
 * come in the order written, normally stats.jsonl's.  A torn last entry (a
 * run killed mid-write) ends the file for readers; --resume cuts it off.
 */
#ifndef SHDB_STATS_ASM_PACK_H
#define SHDB_STATS_ASM_PACK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/hash.h"
#include "compiler/util/strbuf.h"

#define ASM_PACK_FILE "asm.pack"
#define ASM_PACK_MAGIC "shdb-asm 1\n"

/* ---- writing ---- */

/* Append text compressed (zlib) to `out`. */
void asm_pack_compress(const char *text, size_t len, struct strbuf *out);

/* Append a whole entry for `z` (zlen bytes from asm_pack_compress of `size`
 * bytes of text) to `out`.  target NULL or "" for none. */
void asm_pack_entry(struct strbuf *out, const char *path, const char *stage, const char *target,
		    size_t size, const void *z, size_t zlen);

/* The length of the longest prefix of the pack `path` made of whole entries
 * (at least the magic line's), where --resume cuts it; -1 with a message in
 * `err` when it cannot be read or is not a pack. */
long long asm_pack_valid_length(const char *path, struct strbuf *err);

/* ---- reading ---- */

struct asm_pack_entry {
	uint64_t offset;	/* of the compressed bytes */
	size_t size, zsize;
};

struct asm_pack {
	char *file;
	FILE *f;
	struct strmap index;	/* "path\0stage\0target" -> entry index + 1 */
	ARRAY(struct asm_pack_entry) entries;
};

/* Open and index the pack `file`.  Returns 0; 1 when there is none (not an
 * error: the run did not keep its disassembly); -1 when it cannot be read
 * (message in `diag`).  A torn or bad entry is a warning and ends the index. */
int asm_pack_open(struct asm_pack *p, const char *file, struct diag *diag);
void asm_pack_close(struct asm_pack *p);

/* The text of (path, stage, target) into `out` (replacing what it holds);
 * false when the pack has no such entry or it does not decompress. */
bool asm_pack_get(struct asm_pack *p, const char *path, const char *stage, const char *target,
		  struct strbuf *out);

#endif
