/*
 * The line diff of shdb report's disassembly pages: exact hunks on small
 * cases (as diff -u prints them), and on random texts the edit script
 * rebuilds both sides and is as short as a longest common subsequence says.
 */
#include <stdint.h>
#include <stdlib.h>

#include "compiler/util/strbuf.h"
#include "reports/diff.h"
#include "tap.h"

static void print_hunk(void *ctx, const struct diff *d, const struct diff_hunk *h)
{
	struct strbuf *out = ctx;
	strbuf_addf(out, "@@ -%zu,%zu +%zu,%zu @@\n", h->a_start, h->a_len, h->b_start, h->b_len);
	for (size_t i = h->from; i < h->to; i++) {
		const struct diff_op *op = &d->ops.data[i];
		const struct diff_line *l = op->kind == '+' ? &d->b.data[op->b] : &d->a.data[op->a];
		strbuf_addf(out, "%c%.*s\n", op->kind == '=' ? ' ' : op->kind, (int)l->len, l->p);
	}
}

static const char *unified(const char *a, const char *b)
{
	static struct strbuf out = STRBUF_INIT;
	struct diff d;
	strbuf_reset(&out);
	if (!diff_texts(&d, a, b, 1000))
		strbuf_addstr(&out, "too different\n");
	diff_hunks(&d, 3, print_hunk, &out);
	diff_release(&d);
	return out.buf;
}

/* The length of a longest common subsequence of lines, by dynamic programming. */
static size_t lcs(const struct diff *d)
{
	size_t n = d->a.len, m = d->b.len;
	size_t *row = calloc((n + 1) * (m + 1), sizeof(size_t));
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			const struct diff_line *x = &d->a.data[i - 1], *y = &d->b.data[j - 1];
			bool eq = x->len == y->len && !memcmp(x->p, y->p, x->len);
			size_t up = row[(i - 1) * (m + 1) + j], left = row[i * (m + 1) + j - 1];
			row[i * (m + 1) + j] = eq ? row[(i - 1) * (m + 1) + j - 1] + 1 : up > left ? up : left;
		}
	size_t v = row[n * (m + 1) + m];
	free(row);
	return v;
}

/* Rebuild both sides from the ops. */
static bool rebuilds(const struct diff *d, const char *a, const char *b)
{
	struct strbuf ra = STRBUF_INIT, rb = STRBUF_INIT;
	for (size_t i = 0; i < d->ops.len; i++) {
		const struct diff_op *op = &d->ops.data[i];
		if (op->kind != '+')
			strbuf_addf(&ra, "%.*s\n", (int)d->a.data[op->a].len, d->a.data[op->a].p);
		if (op->kind != '-')
			strbuf_addf(&rb, "%.*s\n", (int)d->b.data[op->b].len, d->b.data[op->b].p);
	}
	bool ok = !strcmp(ra.buf, a) && !strcmp(rb.buf, b);
	strbuf_release(&ra);
	strbuf_release(&rb);
	return ok;
}

static void random_text(struct strbuf *sb, uint64_t *seed, int lines)
{
	strbuf_reset(sb);
	for (int i = 0; i < lines; i++) {
		*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
		strbuf_addf(sb, "l%d\n", (int)(*seed >> 60) % 5);
	}
}

int main(void)
{
	is_str(unified("a\nb\nc\n", "a\nb\nc\n"), "", "the same text: no hunk");
	is_str(unified("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n"),
	       "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n", "one line changed");
	is_str(unified("a\nb\n", "a\nb\nc\nd\n"), "@@ -1,2 +1,4 @@\n a\n b\n+c\n+d\n",
	       "lines added at the end");
	is_str(unified("", "x\n"), "@@ -0,0 +1,1 @@\n+x\n", "from nothing");
	is_str(unified("x\ny\n", ""), "@@ -1,2 +0,0 @@\n-x\n-y\n", "to nothing");
	is_str(unified("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n",
		       "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\nsixteen\n"),
	       "@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -13,4 +13,4 @@\n 13\n 14\n 15\n-16\n+sixteen\n",
	       "two hunks far apart");
	is_str(unified("a\nb\nc\n", "a\nx\ny\nc\n"), "@@ -1,3 +1,4 @@\n a\n-b\n+x\n+y\n c\n",
	       "a deletion before its insertions");
	ok(!strcmp(unified("a\nb\nc\nd\n", "w\nx\ny\nz\n"), "@@ -1,4 +1,4 @@\n-a\n-b\n-c\n-d\n+w\n+x\n+y\n+z\n"),
	   "everything replaced");

	struct diff d;
	ok(!diff_texts(&d, "a\nb\nc\nd\n", "w\nx\ny\nz\n", 3) && d.ops.len == 0,
	   "more edits than allowed: no ops");
	diff_release(&d);

	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	uint64_t seed = 42;
	int bad = 0;
	for (int round = 0; round < 300; round++) {
		random_text(&a, &seed, (int)(seed % 40));
		random_text(&b, &seed, (int)(seed % 40));
		if (!diff_texts(&d, a.buf, b.buf, 1000) || !rebuilds(&d, a.buf, b.buf) ||
		    d.edits != d.a.len + d.b.len - 2 * lcs(&d))
			bad++;
		diff_release(&d);
	}
	is_int(bad, 0, "300 random pairs: every script rebuilds both sides and is minimal");
	strbuf_release(&a);
	strbuf_release(&b);
	return done_testing();
}
