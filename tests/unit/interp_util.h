/*
 * Helpers of the interpreter tests (header-only: each test is its own
 * program): parse a shader from text, run it, read results.
 */
#ifndef SHDB_TESTS_INTERP_UTIL_H
#define SHDB_TESTS_INTERP_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "compiler/ir/interp.h"
#include "tap.h"

/* Parse and validate; a broken test shader is a BUG of the test. */
__attribute__((unused))
static struct shader *parse_ir(const char *text)
{
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse("test.ir", text, strlen(text), &d);
	if (!s || !ir_validate(s, &d, "test.ir")) {
		fprintf(stderr, "%s", d.text.buf);
		BUG("a test shader does not parse or validate");
	}
	diag_release(&d);
	return s;
}

__attribute__((unused))
static struct interp_result *run_ir(struct shader *s, const struct interp_inputs *in)
{
	struct interp_result *r = interp_run(s, in, NULL);
	if (r->status != INTERP_OK)
		tap_diag("run: %s (%s)", interp_status_names[r->status], r->message);
	return r;
}

__attribute__((unused))
static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

__attribute__((unused))
static float bitsf(uint64_t b)
{
	uint32_t u = (uint32_t)b;
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* Set component `comp` of input `decl` for `lane` (vertex 0, slot 0). */
__attribute__((unused))
static void set_input(struct shader *s, struct interp_inputs *in, unsigned decl, unsigned lane,
		      unsigned comp, uint64_t bits)
{
	in->input[decl][interp_input_index(in, s->inputs[decl], lane, 0, 0, comp)] = bits;
}

/* Output component, or `poison` when undefined. */
__attribute__((unused))
static uint64_t out_or(const struct interp_result *r, const struct shader *s, unsigned decl,
		       unsigned lane, unsigned comp, uint64_t poison)
{
	uint64_t v;
	return interp_output_get(r, s, decl, lane, 0, 0, comp, &v) ? v : poison;
}

__attribute__((unused))
static uint32_t mem32(const struct interp_memory *m, uint32_t at)
{
	uint32_t v;
	memcpy(&v, m->data + at, 4);
	return v;
}

__attribute__((unused))
static bool mem_poison(const struct interp_memory *m, uint32_t at)
{
	return m->tags[at] & INTERP_TAG_POISON;
}

__attribute__((unused))
static void set32(struct interp_buffer *b, uint32_t at, uint32_t v)
{
	memcpy(b->data + at, &v, 4);
}

/* `text` with the first `word` replaced by `with` (malloc'ed). */
__attribute__((unused))
static char *replace_word(const char *text, const char *word, const char *with)
{
	const char *at = strstr(text, word);
	size_t n = strlen(text) + strlen(with) + 1;
	char *out = xmalloc(n);
	if (!at) {
		strcpy(out, text);
		return out;
	}
	snprintf(out, n, "%.*s%s%s", (int)(at - text), text, with, at + strlen(word));
	return out;
}

#define POISON 0xdeadull

#endif
