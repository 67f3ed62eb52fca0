/*
 * asm.pack, the disassembly side file of a run; see asm_pack.h.
 */
#include "stats/asm_pack.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>

#include "stats/json_text.h"

/* ---- writing ---- */

void asm_pack_compress(const char *text, size_t len, struct strbuf *out)
{
	uLongf zlen = compressBound((uLong)len);
	strbuf_grow(out, zlen);
	if (compress2((Bytef *)out->buf + out->len, &zlen, (const Bytef *)text, (uLong)len,
		      Z_DEFAULT_COMPRESSION) != Z_OK)
		BUG("zlib cannot compress %zu bytes", len);
	strbuf_setlen(out, out->len + zlen);
}

void asm_pack_entry(struct strbuf *out, const char *path, const char *stage, const char *target,
		    size_t size, const void *z, size_t zlen)
{
	json_t *h = json_pack("{s:o, s:s, s:s, s:I, s:I}", "path", json_text(path), "stage", stage,
			      "target", target ? target : "", "size", (json_int_t)size, "zsize",
			      (json_int_t)zlen);
	char *line = json_dumps(h, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	if (!line)
		BUG("an asm.pack header does not encode");
	strbuf_addstr(out, line);
	strbuf_addch(out, '\n');
	strbuf_add(out, z, zlen);
	strbuf_addch(out, '\n');
	free(line);
	json_decref(h);
}

/* ---- scanning ---- */

struct header {
	const char *path, *stage, *target;
	size_t size, zsize;
};

/* Parse a header line; the strings point into `json` (owned by the caller). */
static bool parse_header(const char *line, size_t len, json_t **json, struct header *h)
{
	*json = json_loadb(line, len, 0, NULL);
	json_t *size = json_object_get(*json, "size"), *zsize = json_object_get(*json, "zsize");
	h->path = json_string_value(json_object_get(*json, "path"));
	h->stage = json_string_value(json_object_get(*json, "stage"));
	h->target = json_string_value(json_object_get(*json, "target"));
	if (!h->path || !h->stage || !h->target || !json_is_integer(size) ||
	    !json_is_integer(zsize) || json_integer_value(size) < 0 ||
	    json_integer_value(zsize) < 0)
		return false;
	h->size = (size_t)json_integer_value(size);
	h->zsize = (size_t)json_integer_value(zsize);
	/* what a writer could have made: zlib compresses into at most
	 * compressBound() bytes and inflates at most 1032 times what it reads
	 * (a damaged header must not make us allocate its claim) */
	return h->zsize <= compressBound((uLong)h->size) && h->size / 1032 <= h->zsize;
}

/* Step over the entry whose header was just read; false when the file ends
 * inside it. */
static bool skip_body(FILE *f, size_t zsize)
{
	if (fseeko(f, (off_t)zsize, SEEK_CUR) < 0)
		return false;
	return getc(f) == '\n';
}

static bool read_magic(FILE *f)
{
	char magic[sizeof(ASM_PACK_MAGIC)];
	size_t n = fread(magic, 1, sizeof(magic) - 1, f);
	return n == sizeof(magic) - 1 && !memcmp(magic, ASM_PACK_MAGIC, n);
}

/* Call `fn` for each whole entry; returns the offset after the last one, or -1
 * when the file is not a pack.  *why says what ended the scan early. */
typedef void (*entry_fn)(void *ctx, const struct header *h, uint64_t offset);

static long long scan(FILE *f, entry_fn fn, void *ctx, const char **why)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	*why = NULL;
	if (!read_magic(f))
		return -1;
	long long end = (long long)ftello(f);
	while ((n = getline(&line, &cap, f)) > 0) {
		json_t *json = NULL;
		struct header h;
		if (line[n - 1] != '\n' || !parse_header(line, (size_t)n - 1, &json, &h)) {
			*why = line[n - 1] != '\n' ? "a torn entry" : "a bad entry header";
			json_decref(json);
			break;
		}
		uint64_t offset = (uint64_t)ftello(f);
		if (!skip_body(f, h.zsize)) {
			*why = "a torn entry";
			json_decref(json);
			break;
		}
		if (fn)
			fn(ctx, &h, offset);
		json_decref(json);
		end = (long long)ftello(f);
	}
	free(line);
	return end;
}

long long asm_pack_valid_length(const char *path, struct strbuf *err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	const char *why;
	long long end = scan(f, NULL, NULL, &why);
	fclose(f);
	if (end < 0)
		strbuf_addf(err, "'%s' is not a shdb asm.pack", path);
	return end;
}

/* ---- reading ---- */

static void key_of(struct strbuf *key, const char *path, const char *stage, const char *target)
{
	strbuf_reset(key);
	strbuf_add(key, path, strlen(path) + 1);
	strbuf_add(key, stage, strlen(stage) + 1);
	strbuf_addstr(key, target ? target : "");
}

static void index_entry(void *ctx, const struct header *h, uint64_t offset)
{
	struct asm_pack *p = ctx;
	struct strbuf key = STRBUF_INIT;
	bool is_new;
	key_of(&key, h->path, h->stage, h->target);
	struct strmap_entry *e = strmap_put(&p->index, key.buf, key.len, &is_new);
	array_push(&p->entries, (struct asm_pack_entry){ offset, h->size, h->zsize });
	e->value = (void *)(uintptr_t)p->entries.len;	/* the last entry of a key wins */
	strbuf_release(&key);
}

int asm_pack_open(struct asm_pack *p, const char *file, struct diag *diag)
{
	memset(p, 0, sizeof(*p));
	p->f = fopen(file, "rb");
	if (!p->f) {
		if (errno == ENOENT)
			return 1;
		diag_error(diag, file, 0, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	p->file = xstrdup(file);
	const char *why;
	if (scan(p->f, index_entry, p, &why) < 0) {
		diag_error(diag, file, 0, 0, "not a shdb asm.pack (no '%.10s' line)", ASM_PACK_MAGIC);
		asm_pack_close(p);
		return -1;
	}
	if (why)
		diag_warning(diag, file, 0, 0, "%s after %zu entries; the rest is ignored", why,
			     p->entries.len);
	return 0;
}

void asm_pack_close(struct asm_pack *p)
{
	if (p->f)
		fclose(p->f);
	free(p->file);
	strmap_release(&p->index);
	array_free(&p->entries);
	memset(p, 0, sizeof(*p));
}

bool asm_pack_get(struct asm_pack *p, const char *path, const char *stage, const char *target,
		  struct strbuf *out)
{
	struct strbuf key = STRBUF_INIT;
	key_of(&key, path, stage, target);
	uintptr_t idx = p->f ? (uintptr_t)strmap_get(&p->index, key.buf, key.len) : 0;
	strbuf_release(&key);
	if (!idx)
		return false;
	const struct asm_pack_entry *e = &p->entries.data[idx - 1];
	unsigned char *z = xmalloc(e->zsize + 1);
	bool ok = fseeko(p->f, (off_t)e->offset, SEEK_SET) == 0 &&
		  fread(z, 1, e->zsize, p->f) == e->zsize;
	strbuf_reset(out);
	strbuf_grow(out, e->size + 1);
	uLongf size = (uLongf)e->size;
	ok = ok && uncompress((Bytef *)out->buf, &size, z, (uLong)e->zsize) == Z_OK &&
	     size == e->size;
	strbuf_setlen(out, ok ? e->size : 0);
	free(z);
	return ok;
}
