/*
 * Records from JSONL (stats.jsonl of a run, or a bare .jsonl file), one JSON
 * object per line (stats/SCHEMA.md).
 *
 * Two paths give the same records:
 *  - a strict scanner for the shape our runner writes: one flat object whose
 *    values are strings without escapes, numbers, true/false/null, plus the
 *    "stats" object of numbers.  It reads in place, without allocating;
 *  - jansson for everything else.  Any line the scanner is not sure of goes
 *    there: an escape, a nested value, invalid JSON, a missing key; so jansson
 *    is also what words every error message.
 * A key given twice (in the record or in its "stats") is an error on both
 * paths: jansson rejects it, and the scanner sends such a line to jansson.
 * Why a scanner of our own: jansson builds a tree per line and parses about
 * 60 MB/s here (DESIGN.md); `shdb cmp` of two 200k-record runs (2 x 90 MB)
 * must finish in 0.5 s.  The scanner does ~500 MB/s (bench/10-cmp.sh).
 * tests/unit/stats_jsonl.c checks that both paths agree line by line.
 */
#include <jansson.h>
#include <math.h>
#include <stdint.h>

#include "compiler/util/hash.h"
#include "stats/input.h"

/* A position in one line.  The line reader ends every line with a NUL
 * (stats/lines.h), which the scanner uses as a sentinel: *end is '\0'. */
struct cursor {
	const char *p, *end;
};

static void skip_ws(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r')
		c->p++;
}

/* The character ch, after blanks; never the sentinel. */
static bool eat(struct cursor *c, char ch)
{
	skip_ws(c);
	if (*c->p != ch)
		return false;
	c->p++;
	return true;
}

static bool eat_word(struct cursor *c, const char *w, size_t n)
{
	if (*c->p != *w || (size_t)(c->end - c->p) < n || memcmp(c->p, w, n))
		return false;
	c->p += n;
	return true;
}

/* Bytes the fast path takes as themselves in a string: printable ASCII but
 * '"' and '\\'.  A string with anything else goes to jansson, which decodes
 * escapes and rejects what is not UTF-8, so both paths accept the same lines. */
#define PLAIN16(c) [c] = 1, [c + 1] = 1, [c + 2] = 1, [c + 3] = 1, [c + 4] = 1, [c + 5] = 1, \
	[c + 6] = 1, [c + 7] = 1, [c + 8] = 1, [c + 9] = 1, [c + 10] = 1, [c + 11] = 1, \
	[c + 12] = 1, [c + 13] = 1, [c + 14] = 1, [c + 15] = 1
static const unsigned char plain_byte[256] = {
	PLAIN16(0x20), PLAIN16(0x30), PLAIN16(0x40), PLAIN16(0x50), PLAIN16(0x60), PLAIN16(0x70),
	['"'] = 0, ['\\'] = 0, [0x7f] = 0,
};

/* A string of plain bytes only. */
static bool scan_string(struct cursor *c, struct span *out)
{
	if (!eat(c, '"'))
		return false;
	const char *s = c->p, *p = s;
	while (p < c->end && plain_byte[(unsigned char)*p])
		p++;
	if (p == c->end || *p != '"')
		return false;
	*out = (struct span){ s, (size_t)(p - s) };
	c->p = p + 1;
	return true;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The characters a number may be followed by in our lines. */
static bool ends_number(char c)
{
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\0';
}

/* Any other JSON number, through parse_number. */
static bool scan_real(struct cursor *c, double *out)
{
	const char *e = c->p;
	while (is_digit(*e) || (*e && strchr("+-.eE", *e)))
		e++;
	if (!parse_number(c->p, (size_t)(e - c->p), out))
		return false;
	c->p = e;
	return true;
}

/* A JSON number; an integer of up to 15 digits (the common case) without
 * strtod.  Blanks are already skipped. */
static bool scan_number(struct cursor *c, double *out)
{
	const char *p = c->p + (*c->p == '-'), *digits = p;
	uint64_t v = 0;
	while (is_digit(*p))
		v = v * 10 + (uint64_t)(*p++ - '0');
	size_t n = (size_t)(p - digits);
	if (!n || n > 15 || !ends_number(*p) || (*digits == '0' && n > 1))
		return scan_real(c, out);
	*out = *c->p == '-' ? -(double)v : (double)v;
	c->p = p;
	return true;
}

/* A statistic's value: a number, or true/false as 1/0. */
static bool scan_stat_value(struct cursor *c, double *out)
{
	skip_ws(c);
	if (eat_word(c, "true", 4))
		return *out = 1, true;
	if (eat_word(c, "false", 5))
		return *out = 0, true;
	return scan_number(c, out);
}

/* The i-th key of a "stats" object and its colon.  Records of one run list the
 * same keys in the same order, so the key of the last record, kept with its
 * quotes and colon ("\"inst\":"), is tried first with one memcmp. */
static bool scan_stat_key(struct reader *rd, struct cursor *c, size_t i, struct span *name,
			  bool *cached)
{
	skip_ws(c);
	*cached = false;
	if (i < rd->keys.len) {
		const struct strbuf *k = &rd->keys.data[i];
		if ((size_t)(c->end - c->p) > k->len && !memcmp(c->p, k->buf, k->len)) {
			*name = (struct span){ c->p + 1, k->len - 3 };
			c->p += k->len;
			*cached = true;
			return true;
		}
	}
	if (!scan_string(c, name))
		return false;
	while (rd->keys.len <= i)
		array_push(&rd->keys, (struct strbuf)STRBUF_INIT);
	struct strbuf *k = &rd->keys.data[i];
	strbuf_reset(k);
	strbuf_addf(k, "\"%.*s\":", (int)name->len, name->p);
	return eat(c, ':');
}

/* Whether the statistics just scanned have distinct names.  When each was
 * the cached key of its position, and those are known to differ, nothing is
 * left to check: the common case costs nothing. */
static bool stat_keys_distinct(struct reader *rd, bool all_cached)
{
	size_t n = rd->pairs.len;
	if (all_cached && n <= rd->keys_distinct)
		return true;
	struct strmap seen = STRMAP_INIT;
	bool distinct = true;
	for (size_t i = 0; i < n && distinct; i++)
		strmap_put(&seen, rd->pairs.data[i].name.p, rd->pairs.data[i].name.len, &distinct);
	strmap_release(&seen);
	if (distinct)
		rd->keys_distinct = n;	/* keys[0..n) are this record's names */
	return distinct;
}

static bool scan_stats(struct reader *rd, struct cursor *c)
{
	if (!eat(c, '{'))
		return false;
	if (eat(c, '}'))
		return true;
	bool all_cached = true;
	do {
		struct stat_pair sp;
		bool cached;
		if (!scan_stat_key(rd, c, rd->pairs.len, &sp.name, &cached) ||
		    !scan_stat_value(c, &sp.value))
			return false;
		all_cached &= cached;
		array_push(&rd->pairs, sp);
	} while (eat(c, ','));
	return eat(c, '}') && stat_keys_distinct(rd, all_cached);
}

static bool scan_status(struct cursor *c, struct record *r)
{
	struct span s;
	return scan_string(c, &s) && status_parse(s.p, s.len, &r->status);
}

/* The members of a record, by bit in `seen`: one seen twice, and any other
 * key (which the scanner does not track), go to jansson. */
enum { M_PATH = 1, M_STAGE = 2, M_TARGET = 4, M_STATUS = 8, M_STATS = 16, M_TIME = 32,
       M_MESSAGE = 64 };

static bool first_time(unsigned *seen, unsigned bit)
{
	if (*seen & bit)
		return false;
	*seen |= bit;
	return true;
}

static bool scan_member(struct reader *rd, struct cursor *c, struct span key, struct record *r,
			unsigned *seen)
{
	if (span_eq(key, "path"))
		return first_time(seen, M_PATH) && scan_string(c, &r->path);
	if (span_eq(key, "stage"))
		return first_time(seen, M_STAGE) && scan_string(c, &r->stage);
	if (span_eq(key, "target")) {
		skip_ws(c);
		return first_time(seen, M_TARGET) &&
		       (eat_word(c, "null", 4) || scan_string(c, &r->target));
	}
	if (span_eq(key, "status"))
		return first_time(seen, M_STATUS) && scan_status(c, r);
	if (span_eq(key, "stats"))
		return first_time(seen, M_STATS) && (rd->pairs.len = 0, scan_stats(rd, c));
	if (span_eq(key, "time_us"))
		return first_time(seen, M_TIME) && (skip_ws(c), scan_number(c, &r->time_us));
	if (span_eq(key, "message")) {
		skip_ws(c);
		return first_time(seen, M_MESSAGE) &&
		       (eat_word(c, "null", 4) || scan_string(c, &r->message));
	}
	return false;
}

/* The fast path; false sends the line to jansson. */
static bool scan_record(struct reader *rd, const char *line, size_t len, struct record *r)
{
	struct cursor c = { line, line + len };
	unsigned seen = 0;
	rd->pairs.len = 0;
	if (!eat(&c, '{'))
		return false;
	do {
		struct span key;
		if (!scan_string(&c, &key) || !eat(&c, ':') || !scan_member(rd, &c, key, r, &seen))
			return false;
	} while (eat(&c, ','));
	if (!eat(&c, '}'))
		return false;
	skip_ws(&c);
	return c.p == c.end && (seen & (M_PATH | M_STAGE)) == (M_PATH | M_STAGE);
}

/* ---- the jansson path ---- */

static struct span json_span(json_t *v)
{
	return (struct span){ json_string_value(v), json_string_length(v) };
}

static const char *json_kind(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "?";
}

/* A string member: required ones must be present; false after an error. */
static bool get_string(struct reader *rd, int line, json_t *obj, const char *key, bool required,
		       struct span *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v || (json_is_null(v) && !required))
		return !required || (reader_error(rd, line, 0, "record without \"%s\"", key), false);
	if (!json_is_string(v)) {
		reader_error(rd, line, 0, "\"%s\" is %s, not a string", key, json_kind(v));
		return false;
	}
	*out = json_span(v);
	return true;
}

static bool get_status(struct reader *rd, int line, json_t *obj, struct record *r)
{
	struct span s = SPAN_LIT("ok");
	if (!get_string(rd, line, obj, "status", false, &s))
		return false;
	if (status_parse(s.p, s.len, &r->status))
		return true;
	reader_error(rd, line, 0, "unknown status \"%.*s\" (ok, error, crash, timeout, skipped)",
		     (int)s.len, s.p);
	return false;
}

static bool get_stats(struct reader *rd, int line, json_t *obj)
{
	json_t *stats = json_object_get(obj, "stats");
	if (!stats || json_is_null(stats))
		return true;
	if (!json_is_object(stats)) {
		reader_error(rd, line, 0, "\"stats\" is %s, not an object", json_kind(stats));
		return false;
	}
	const char *key;
	json_t *v;
	json_object_foreach(stats, key, v) {
		struct stat_pair sp = { .name = { key, strlen(key) } };
		if (json_is_number(v))
			sp.value = json_number_value(v);
		else if (json_is_boolean(v))
			sp.value = json_is_true(v);
		else {
			reader_warning(rd, line, 0, "statistic \"%s\" is %s, not a number; ignored",
				       key, json_kind(v));
			continue;
		}
		array_push(&rd->pairs, sp);
	}
	return true;
}

static bool get_record(struct reader *rd, int line, json_t *obj, struct record *r)
{
	rd->pairs.len = 0;
	if (!get_string(rd, line, obj, "path", true, &r->path) ||
	    !get_string(rd, line, obj, "stage", true, &r->stage) ||
	    !get_string(rd, line, obj, "target", false, &r->target) ||
	    !get_string(rd, line, obj, "message", false, &r->message) ||
	    !get_status(rd, line, obj, r) || !get_stats(rd, line, obj))
		return false;
	json_t *t = json_object_get(obj, "time_us");
	if (json_is_number(t))
		r->time_us = json_number_value(t);
	r->stats = rd->pairs.data;
	r->nstats = rd->pairs.len;
	return true;
}

/* Parse with jansson; emit the record, or give the error. */
static void slow_record(struct reader *rd, const char *line, size_t len, int lineno,
			bool unterminated, struct record *r)
{
	json_error_t err;
	json_t *root = json_loadb(line, len, JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		if (unterminated)
			reader_error(rd, lineno, 0, "truncated record: the file ends inside it");
		else
			reader_error(rd, lineno, err.column, "malformed JSON: %s", err.text);
		return;
	}
	if (!json_is_object(root))
		reader_error(rd, lineno, 0, "a record is a JSON object, not %s", json_kind(root));
	else if (get_record(rd, lineno, root, r))
		rd->emit(rd->ctx, r), rd->records++;
	json_decref(root);
}

void read_jsonl(struct reader *rd, struct line_reader *lr)
{
	size_t len;
	for (char *line; (line = line_reader_next(lr, &len));) {
		struct cursor blank = { line, line + len };
		skip_ws(&blank);
		if (blank.p == blank.end)
			continue;
		struct record r = { .time_us = NAN, .line = lr->lineno, .target = SPAN_LIT("") };
		if (scan_record(rd, line, len, &r)) {
			r.stats = rd->pairs.data;
			r.nstats = rd->pairs.len;
			rd->emit(rd->ctx, &r);
			rd->records++;
			continue;
		}
		r = (struct record){ .time_us = NAN, .line = lr->lineno, .target = SPAN_LIT("") };
		slow_record(rd, line, len, lr->lineno, lr->unterminated, &r);
	}
}
