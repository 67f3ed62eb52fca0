/*
 * A small deterministic fuzzer over the golden files: every truncation and
 * a few hundred seeded mutations of each (byte flips, insertions,
 * deletions, line swaps, duplications, huge numbers).  Each input must give
 * an error or a shader; a shader is validated, and a valid one must print,
 * parse back to the same text, clone, and survive every analysis.  Nothing
 * may crash, hang, leak or read out of bounds (make SANITIZE=1 check runs
 * it under ASan and UBSan; each input sits in a buffer of exactly its size).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/ir.h"
#include "compiler/util/file.h"
#include "ir_util.h"
#include "tap.h"

#define MUTATIONS_PER_FILE 400

struct stats {
	unsigned inputs, parsed, valid;
	bool round_trip_ok;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static size_t rnd_below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

/* Parse, validate, and for a valid shader check the round trip. */
static void run(struct stats *st, const char *data, size_t len)
{
	char *buf = xmalloc(len ? len : 1);	/* exactly len bytes: ASan catches overreads */
	memcpy(buf, data, len);
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse("fuzz.ir", buf, len, &d);
	st->inputs++;
	if (s) {
		st->parsed++;
		if (ir_validate(s, &d, "fuzz.ir")) {
			st->valid++;
			char *a = ir_print_string(s);
			struct shader *t = ir_parse("again.ir", a, strlen(a), &d);
			char *b = t ? ir_print_string(t) : NULL;
			struct shader *c = shader_clone(s);
			char *cc = ir_print_string(c);
			if (!b || strcmp(a, b) || strcmp(a, cc)) {
				if (st->round_trip_ok)
					tap_diag("round trip failed for:\n%s", a);
				st->round_trip_ok = false;
			}
			metadata_require(s->fn, META_ALL);
			free(cc);
			shader_free(c);
			free(b);
			shader_free(t);
			free(a);
		}
		shader_free(s);
	}
	diag_release(&d);
	free(buf);
}

static const char alphabet[] = "0123456789abcdefxyzw%@{}=,:.\n #\"-|[]\t\x00\xff";

/* One random mutation of `in` into `out`. */
static void mutate(const struct strbuf *in, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_add(out, in->buf, in->len);
	size_t n = out->len, at = rnd_below(n);
	switch (rnd_below(9)) {
	case 0:	/* replace a byte */
		out->buf[at] = alphabet[rnd_below(sizeof(alphabet) - 1)];
		break;
	case 1:	/* delete a byte */
		memmove(out->buf + at, out->buf + at + 1, n - at - 1);
		strbuf_setlen(out, n - 1);
		break;
	case 2: {	/* insert a byte */
		strbuf_addch(out, 0);
		memmove(out->buf + at + 1, out->buf + at, n - at);
		out->buf[at] = alphabet[rnd_below(sizeof(alphabet) - 1)];
		break;
	}
	case 3: case 4: case 5: {	/* swap, duplicate or drop a line */
		const char *p = in->buf, *e = in->buf + in->len;
		size_t lines = 0;
		for (const char *q = p; q < e; q++)
			lines += *q == '\n';
		size_t a = rnd_below(lines), b = rnd_below(lines), k = 0;
		const char *la = NULL, *lb = NULL;
		size_t na = 0, nb = 0;
		for (const char *q = p; q < e; k++) {
			const char *nl = memchr(q, '\n', (size_t)(e - q));
			size_t len = nl ? (size_t)(nl - q) + 1 : (size_t)(e - q);
			if (k == a) { la = q; na = len; }
			if (k == b) { lb = q; nb = len; }
			q += len;
		}
		if (!la || !lb)
			break;
		strbuf_reset(out);
		k = 0;
		for (const char *q = p; q < e; k++) {
			const char *nl = memchr(q, '\n', (size_t)(e - q));
			size_t len = nl ? (size_t)(nl - q) + 1 : (size_t)(e - q);
			bool swap = rnd_below(3) == 0;
			if (k == a)
				strbuf_add(out, swap ? lb : la, swap ? nb : na);
			else if (k == b && swap)
				strbuf_add(out, la, na);
			else
				strbuf_add(out, q, len);
			if (k == a && !swap && rnd_below(2))
				strbuf_add(out, la, na);	/* duplicate */
			q += len;
		}
		break;
	}
	case 7: case 8: {	/* another value where a %N was: valid syntax, broken SSA */
		for (size_t i = 0; i < n; i++) {
			size_t j = (at + i) % n;
			if (out->buf[j] != '%')
				continue;
			size_t e = j + 1;
			while (e < n && out->buf[e] >= '0' && out->buf[e] <= '9')
				e++;
			struct strbuf t = STRBUF_INIT;
			strbuf_add(&t, out->buf, j);
			strbuf_addf(&t, "%%%zu", rnd_below(64));
			strbuf_add(&t, out->buf + e, n - e);
			strbuf_reset(out);
			strbuf_add(out, t.buf, t.len);
			strbuf_release(&t);
			break;
		}
		break;
	}
	default: {	/* a huge or odd number where a digit was */
		static const char *const nums[] = {
			"4294967296", "16777215", "16777216", "65536", "-1", "0x", "99999999999999999999",
			"255", "1e309", "-0",
		};
		for (size_t i = 0; i < n; i++) {
			size_t j = (at + i) % n;
			if (out->buf[j] >= '0' && out->buf[j] <= '9') {
				const char *num = nums[rnd_below(sizeof(nums) / sizeof(*nums))];
				struct strbuf t = STRBUF_INIT;
				strbuf_add(&t, out->buf, j);
				strbuf_addstr(&t, num);
				strbuf_add(&t, out->buf + j + 1, n - j - 1);
				strbuf_reset(out);
				strbuf_add(out, t.buf, t.len);
				strbuf_release(&t);
				break;
			}
		}
		break;
	}
	}
}

static void fuzz_file(const char *path)
{
	struct strbuf text = STRBUF_INIT, m = STRBUF_INIT;
	struct stats st = { .round_trip_ok = true };
	const char *name = path_basename(path);
	if (read_file(path, &text, NULL) < 0) {
		ok(false, "%s: readable", name);
		return;
	}
	for (size_t cut = 0; cut <= text.len; cut++)
		run(&st, text.buf, cut);
	ok(st.valid >= 1, "%s: %u truncations, %u parsed, %u valid", name, st.inputs, st.parsed,
	   st.valid);
	struct stats ms = { .round_trip_ok = true };
	for (int i = 0; i < MUTATIONS_PER_FILE; i++) {
		mutate(&text, &m);
		run(&ms, m.buf, m.len);
		/* mutate the mutant too, now and then */
		if (rnd_below(4) == 0) {
			struct strbuf m2 = STRBUF_INIT;
			mutate(&m, &m2);
			run(&ms, m2.buf, m2.len);
			strbuf_release(&m2);
		}
	}
	ok(ms.inputs >= MUTATIONS_PER_FILE, "%s: %u mutants, %u parsed, %u valid", name, ms.inputs,
	   ms.parsed, ms.valid);
	ok(st.round_trip_ok && ms.round_trip_ok, "%s: every valid input round-trips", name);
	strbuf_release(&m);
	strbuf_release(&text);
}

int main(void)
{
	char **files;
	size_t n = golden_files(&files);
	if (!n)
		return skip_all("no golden files in tests/ir (run from the source root)");
	for (size_t i = 0; i < n; i++)
		fuzz_file(files[i]);
	golden_files_free(files, n);
	return done_testing();
}
