/*
 * Reading Fossilize databases (foz.h): the entry index, payloads (zlib for
 * deflate), and the JSON of pipelines and shader modules (jansson).  Every
 * size and offset read from the file is checked against the buffer before
 * use; a payload may claim at most FOZ_MAX_PAYLOAD bytes once inflated.
 */
#include "compiler/front/foz.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define FOZ_HEADER 16
#define FOZ_NAME 40
#define FOZ_ENTRY_HEADER (FOZ_NAME + 16)
#define FOZ_MAX_PAYLOAD ((uint32_t)256 << 20)

static const uint8_t magic[12] = { 0x81, 'F', 'O', 'S', 'S', 'I', 'L', 'I', 'Z', 'E', 'D', 'B' };

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int hex_digit(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* `n` hex digits into *v; false when one is not a hex digit or it overflows. */
static bool parse_hex(const uint8_t *p, size_t n, uint64_t *v)
{
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		int d = hex_digit(p[i]);
		if (d < 0 || *v >> 60)
			return false;
		*v = *v << 4 | (uint64_t)d;
	}
	return true;
}

static int cmp_entries(const void *a, const void *b)
{
	const struct foz_entry *x = a, *y = b;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Sort the index; of an entry given twice the first is kept (Fossilize's
 * readers ignore the later ones). */
static void sort_entries(struct foz_db *db)
{
	array_sort(&db->entries, cmp_entries);
	size_t n = 0;
	for (size_t i = 0; i < db->entries.len; i++) {
		struct foz_entry *e = &db->entries.data[i];
		if (n && db->entries.data[n - 1].tag == e->tag && db->entries.data[n - 1].hash == e->hash)
			continue;
		db->entries.data[n++] = *e;
	}
	db->entries.len = n;
}

int foz_attach(struct foz_db *db, const uint8_t *data, size_t len, struct strbuf *err)
{
	memset(db, 0, sizeof(*db));
	db->data = data;
	db->len = len;
	if (len < FOZ_HEADER || memcmp(data, magic, sizeof(magic))) {
		strbuf_addstr(err, "not a Fossilize database (no \\x81FOSSILIZEDB header)");
		return -1;
	}
	if (data[15] < 5 || data[15] > 6) {
		strbuf_addf(err, "Fossilize database version %u: shdb reads versions 5 and 6", data[15]);
		return -1;
	}
	return 0;
}

/* The entry whose header is at `off`: false at the end (or a cut one). */
static bool entry_at(const struct foz_db *db, size_t off, struct foz_entry *e)
{
	if (off >= db->len || db->len - off < FOZ_ENTRY_HEADER)
		return false;
	const uint8_t *h = db->data + off;
	*e = (struct foz_entry){
		.stored_size = le32(h + FOZ_NAME), .format = le32(h + FOZ_NAME + 4),
		.crc = le32(h + FOZ_NAME + 8), .size = le32(h + FOZ_NAME + 12),
		.offset = off + FOZ_ENTRY_HEADER,
	};
	return e->stored_size <= db->len - e->offset;
}

/* The name of an entry: tag and hash, each read back. */
static bool entry_name_of(const uint8_t *h, struct foz_entry *e)
{
	uint64_t tag;
	/* the tag's 24 digits: only the last 16 carry a value */
	if (!parse_hex(h, 8, &tag) || tag || !parse_hex(h + 8, 16, &tag) || tag > UINT32_MAX ||
	    !parse_hex(h + 24, 16, &e->hash))
		return false;
	e->tag = (uint32_t)tag;
	return true;
}

int foz_open(struct foz_db *db, const uint8_t *data, size_t len, struct strbuf *err)
{
	struct foz_entry e;
	size_t off = FOZ_HEADER;
	if (foz_attach(db, data, len, err) < 0)
		return -1;
	for (; entry_at(db, off, &e); off = e.offset + e.stored_size)
		if (entry_name_of(data + off, &e))
			array_push(&db->entries, e);
	db->truncated = off < len;
	db->indexed = true;
	sort_entries(db);
	return 0;
}

void foz_close(struct foz_db *db)
{
	array_free(&db->entries);
}

/* Without the index: the first entry whose 40 name bytes are the ones
 * `tag` and `hash` are written as. */
static const struct foz_entry *scan_for(struct foz_db *db, uint32_t tag, uint64_t hash)
{
	char name[FOZ_NAME + 1];
	struct foz_entry e;
	snprintf(name, sizeof(name), "%024x%016llx", tag, (unsigned long long)hash);
	for (size_t off = FOZ_HEADER; entry_at(db, off, &e); off = e.offset + e.stored_size) {
		if (!memcmp(db->data + off, name, FOZ_NAME) ||
		    (!strncasecmp((const char *)db->data + off, name, FOZ_NAME) &&
		     entry_name_of(db->data + off, &e))) {
			e.tag = tag;
			e.hash = hash;
			db->found = e;
			return &db->found;
		}
	}
	return NULL;
}

const struct foz_entry *foz_find(struct foz_db *db, uint32_t tag, uint64_t hash)
{
	if (!db->indexed)
		return scan_for(db, tag, hash);
	size_t lo = 0, hi = db->entries.len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct foz_entry *e = &db->entries.data[mid];
		if (e->tag < tag || (e->tag == tag && e->hash < hash))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < db->entries.len && db->entries.data[lo].tag == tag &&
	    db->entries.data[lo].hash == hash)
		return &db->entries.data[lo];
	return NULL;
}

void foz_hash_name(uint64_t hash, char out[17])
{
	snprintf(out, 17, "%016llx", (unsigned long long)hash);
}

bool foz_parse_hash(const char *s, uint64_t *hash)
{
	size_t n = strlen(s);
	return n > 0 && n <= 16 && parse_hex((const uint8_t *)s, n, hash);
}

static void entry_name(const struct foz_entry *e, struct strbuf *out)
{
	char h[17];
	foz_hash_name(e->hash, h);
	strbuf_addf(out, "entry %u/%s (offset %zu)", e->tag, h, e->offset - FOZ_ENTRY_HEADER);
}

int foz_read(const struct foz_db *db, const struct foz_entry *e, struct strbuf *out,
	     struct strbuf *err)
{
	const uint8_t *p = db->data + e->offset;
	strbuf_reset(out);
	if (e->crc && (uint32_t)crc32(0, p, e->stored_size) != e->crc) {
		entry_name(e, err);
		strbuf_addstr(err, ": the payload's CRC does not match (a damaged database)");
		return -1;
	}
	if (e->size > FOZ_MAX_PAYLOAD) {
		entry_name(e, err);
		strbuf_addf(err, ": a payload of %u bytes (limit %u)", e->size, FOZ_MAX_PAYLOAD);
		return -1;
	}
	if (e->format == FOZ_STORED) {
		if (e->size != e->stored_size) {
			entry_name(e, err);
			strbuf_addf(err, ": stored payload of %u bytes claims %u", e->stored_size, e->size);
			return -1;
		}
		strbuf_add(out, (const char *)p, e->stored_size);
		return 0;
	}
	if (e->format != FOZ_DEFLATE) {
		entry_name(e, err);
		strbuf_addf(err, ": payload format %u (Fossilize has 1, stored, and 2, deflate)",
			    e->format);
		return -1;
	}
	strbuf_grow(out, e->size);
	uLongf got = e->size;
	int zr = uncompress((Bytef *)out->buf, &got, p, e->stored_size);
	if (zr != Z_OK || got != e->size) {
		entry_name(e, err);
		strbuf_addf(err, ": the deflated payload does not inflate to its %u bytes (%s)",
			    e->size, zr == Z_OK ? "size differs" : zError(zr));
		return -1;
	}
	strbuf_setlen(out, e->size);
	return 0;
}

static int cmp_hashes(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void foz_list_pipelines(const struct foz_db *db, foz_hash_array *hashes)
{
	size_t from = hashes->len, n = from;
	for (size_t i = 0; i < db->entries.len; i++) {
		const struct foz_entry *e = &db->entries.data[i];
		if (e->tag == FOZ_TAG_GRAPHICS_PIPELINE || e->tag == FOZ_TAG_COMPUTE_PIPELINE)
			array_push(hashes, e->hash);
	}
	if (hashes->len > from + 1)
		qsort(hashes->data + from, hashes->len - from, sizeof(uint64_t), cmp_hashes);
	for (size_t i = from; i < hashes->len; i++)	/* a hash of both kinds: once */
		if (i == from || hashes->data[i] != hashes->data[n - 1])
			hashes->data[n++] = hashes->data[i];
	hashes->len = n;
}

/* ---- JSON payloads ---- */

/* The JSON text of a payload: up to its first NUL (binary data follows). */
static json_t *load_json(const char *payload, size_t len, size_t *json_len, struct strbuf *err)
{
	const char *nul = memchr(payload, 0, len);
	json_error_t je;
	*json_len = nul ? (size_t)(nul - payload) : len;
	json_t *doc = json_loadb(payload, *json_len, 0, &je);
	if (!doc)
		strbuf_addf(err, "bad JSON at character %d: %s", je.position, je.text);
	else if (!json_is_object(doc)) {
		strbuf_addstr(err, "the JSON is not an object");
		json_decref(doc);
		doc = NULL;
	}
	return doc;
}

/* doc[section][hash], or the section's only member. */
static json_t *member_for(json_t *doc, const char *section, uint64_t hash)
{
	json_t *sec = json_object_get(doc, section);
	char name[17];
	if (!json_is_object(sec))
		return NULL;
	foz_hash_name(hash, name);
	json_t *v = json_object_get(sec, name);
	if (!v && json_object_size(sec) == 1) {
		void *it = json_object_iter(sec);
		v = json_object_iter_value(it);
	}
	return json_is_object(v) ? v : NULL;
}

static bool get_u64(json_t *obj, const char *key, uint64_t *v)
{
	json_t *x = json_object_get(obj, key);
	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return false;
	*v = (uint64_t)json_integer_value(x);
	return true;
}

/* A handle: a hash as a hex string. */
static bool get_handle(json_t *obj, const char *key, uint64_t *v)
{
	json_t *x = json_object_get(obj, key);
	return json_is_string(x) && foz_parse_hash(json_string_value(x), v);
}

static int base64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Standard base64 (padding optional) appended to `out`; false on a bad digit. */
static bool base64_decode(const char *s, struct strbuf *out)
{
	uint32_t acc = 0;
	int bits = 0;
	for (; *s && *s != '='; s++) {
		int v = base64_value(*s);
		if (v < 0)
			return false;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			strbuf_addch(out, (char)(acc >> bits & 0xff));
		}
	}
	return true;
}

/* VkShaderStageFlagBits → our stage. */
static enum shader_stage stage_from_bit(uint64_t bit)
{
	static const enum shader_stage by_bit[] = {
		STAGE_VERTEX, STAGE_TESS_CTRL, STAGE_TESS_EVAL, STAGE_GEOMETRY, STAGE_FRAGMENT,
		STAGE_COMPUTE, STAGE_TASK, STAGE_MESH, STAGE_RAYGEN, STAGE_ANY_HIT,
		STAGE_CLOSEST_HIT, STAGE_MISS, STAGE_INTERSECTION, STAGE_CALLABLE,
	};
	for (unsigned i = 0; i < sizeof(by_bit) / sizeof(by_bit[0]); i++)
		if (bit == (uint64_t)1 << i)
			return by_bit[i];
	return STAGE_NONE;
}

/* VkSpecializationInfo: each map entry's bytes of "data" as a constant. */
static int parse_specs(json_t *info, struct foz_stage *st, struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT;
	json_t *entries = json_object_get(info, "mapEntries");
	json_t *d = json_object_get(info, "data");
	int ret = 0;
	if (json_is_string(d) && !base64_decode(json_string_value(d), &data)) {
		strbuf_addstr(err, "specialization data is not base64");
		ret = -1;
	}
	for (size_t i = 0; !ret && i < json_array_size(entries); i++) {
		json_t *m = json_array_get(entries, i);
		uint64_t id, off, size, bits = 0;
		if (!get_u64(m, "constantID", &id) || !get_u64(m, "offset", &off) ||
		    !get_u64(m, "size", &size) || id > UINT32_MAX ||
		    (size != 1 && size != 2 && size != 4 && size != 8) || off > data.len ||
		    size > data.len - off) {
			strbuf_addf(err, "specialization map entry %zu is out of its data", i);
			ret = -1;
			break;
		}
		for (uint64_t b = 0; b < size; b++)
			bits |= (uint64_t)(uint8_t)data.buf[off + b] << (8 * b);
		array_push(&st->specs, (struct spec_value){ (uint32_t)id, bits });
	}
	strbuf_release(&data);
	return ret;
}

static int parse_stage(json_t *obj, struct foz_pipeline *p, struct strbuf *err)
{
	uint64_t bit, module;
	json_t *name = json_object_get(obj, "name");
	if (!json_is_object(obj) || !get_u64(obj, "stage", &bit)) {
		strbuf_addstr(err, "a stage without its \"stage\"");
		return -1;
	}
	enum shader_stage s = stage_from_bit(bit);
	if (s == STAGE_NONE) {
		strbuf_addf(err, "stage bit 0x%llx is no shader stage", (unsigned long long)bit);
		return -1;
	}
	if (!get_handle(obj, "module", &module) || !module) {
		strbuf_addf(err, "the %s stage names no shader module (an inline module or a module "
			    "identifier, which shdb does not read)", stage_name(s));
		return -1;
	}
	for (size_t i = 0; i < p->stages.len; i++)
		if (p->stages.data[i].stage == s) {
			strbuf_addf(err, "two %s stages", stage_name(s));
			return -1;
		}
	struct foz_stage *st = array_push_zero(&p->stages);
	st->stage = s;
	st->module = module;
	st->entry = xstrdup(json_is_string(name) ? json_string_value(name) : "main");
	json_t *spec = json_object_get(obj, "specializationInfo");
	return json_is_object(spec) ? parse_specs(spec, st, err) : 0;
}

static int cmp_stages(const void *a, const void *b)
{
	const struct foz_stage *x = a, *y = b;
	return (x->stage > y->stage) - (x->stage < y->stage);
}

/* pNext: [{"sType": …, "libraries": [HASH…]}, …] */
static int parse_libraries(json_t *pnext, struct foz_pipeline *p, struct strbuf *err)
{
	for (size_t i = 0; i < json_array_size(pnext); i++) {
		json_t *libs = json_object_get(json_array_get(pnext, i), "libraries");
		for (size_t k = 0; k < json_array_size(libs); k++) {
			json_t *h = json_array_get(libs, k);
			uint64_t v;
			if (!json_is_string(h) || !foz_parse_hash(json_string_value(h), &v)) {
				strbuf_addstr(err, "a pipeline library that is not a hash");
				return -1;
			}
			array_push(&p->libraries, v);
		}
	}
	return 0;
}

int foz_parse_pipeline(const char *payload, size_t len, uint32_t tag, uint64_t hash,
		       struct foz_pipeline *p, struct strbuf *err)
{
	size_t json_len;
	int ret = 0;
	memset(p, 0, sizeof(*p));
	p->tag = tag;
	p->hash = hash;
	json_t *doc = load_json(payload, len, &json_len, err);
	if (!doc)
		return -1;
	const char *section = tag == FOZ_TAG_COMPUTE_PIPELINE ? "computePipelines" : "graphicsPipelines";
	json_t *obj = member_for(doc, section, hash);
	if (!obj) {
		strbuf_addf(err, "no \"%s\" object for the pipeline", section);
		ret = -1;
	} else if (tag == FOZ_TAG_COMPUTE_PIPELINE) {
		ret = parse_stage(json_object_get(obj, "stage"), p, err);
	} else {
		json_t *stages = json_object_get(obj, "stages");
		for (size_t i = 0; !ret && i < json_array_size(stages); i++)
			ret = parse_stage(json_array_get(stages, i), p, err);
		if (!ret)
			ret = parse_libraries(json_object_get(obj, "pNext"), p, err);
	}
	array_sort(&p->stages, cmp_stages);
	json_decref(doc);
	return ret;
}

void foz_pipeline_release(struct foz_pipeline *p)
{
	for (size_t i = 0; i < p->stages.len; i++) {
		free(p->stages.data[i].entry);
		array_free(&p->stages.data[i].specs);
	}
	array_free(&p->stages);
	array_free(&p->libraries);
}

/* LEB128 words of Fossilize's varint.cpp: exactly `n` words in `size` bytes. */
static bool decode_varint(const uint8_t *p, size_t size, size_t n, struct strbuf *code)
{
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t w = 0;
		unsigned shift = 0;
		for (;;) {
			if (at >= size || shift >= 32)
				return false;
			uint8_t b = p[at++];
			w |= (uint32_t)(b & 0x7f) << shift;
			shift += 7;
			if (!(b & 0x80))
				break;
		}
		strbuf_add(code, (const char *)&w, sizeof(w));
	}
	return at == size;
}

int foz_parse_module(const char *payload, size_t len, uint64_t hash, struct strbuf *code,
		     struct strbuf *err)
{
	size_t json_len;
	uint64_t size, voff, vsize;
	int ret = -1;
	json_t *doc = load_json(payload, len, &json_len, err);
	if (!doc)
		return -1;
	json_t *obj = member_for(doc, "shaderModules", hash);
	json_t *b64 = json_object_get(obj, "code");
	size_t blob = json_len < len ? json_len + 1 : len;	/* after the NUL */
	if (!obj || !get_u64(obj, "codeSize", &size)) {
		strbuf_addstr(err, "no \"shaderModules\" object with a \"codeSize\"");
	} else if (size % 4 || size > FOZ_MAX_PAYLOAD) {
		strbuf_addf(err, "a module of %llu bytes is no SPIR-V", (unsigned long long)size);
	} else if (get_u64(obj, "varintOffset", &voff) && get_u64(obj, "varintSize", &vsize)) {
		if (voff > len - blob || vsize > len - blob - voff)
			strbuf_addstr(err, "the module's varint code lies outside its payload");
		else if (!decode_varint((const uint8_t *)payload + blob + voff, vsize, size / 4, code))
			strbuf_addstr(err, "the module's varint code is damaged");
		else
			ret = 0;
	} else if (json_is_string(b64)) {
		if (!base64_decode(json_string_value(b64), code) || code->len != size)
			strbuf_addstr(err, "the module's base64 code is damaged");
		else
			ret = 0;
	} else {
		strbuf_addstr(err, "the module has no code (\"varintOffset\" or \"code\")");
	}
	json_decref(doc);
	return ret;
}
