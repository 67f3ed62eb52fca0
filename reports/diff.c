/*
 * Line diff (diff.h).  Myers' greedy forward search keeps, for each edit
 * count d, the furthest x reached on every diagonal k = x - y; the trace of
 * those rows (2d + 3 entries at step d, so O(D^2) memory) lets the path be
 * walked back from the end.  The common prefix and suffix never enter it.
 */
#include "reports/diff.h"

#include <string.h>

#include "compiler/util/hash.h"

static void split(const char *text, void *lines_)
{
	ARRAY(struct diff_line) *lines = lines_;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		array_push(lines, (struct diff_line){ p, len, hash_bytes(p, len) });
		p += len + (nl != NULL);
	}
}

static bool same(const struct diff *d, size_t x, size_t y)
{
	const struct diff_line *a = &d->a.data[x], *b = &d->b.data[y];
	return a->hash == b->hash && a->len == b->len && !memcmp(a->p, b->p, a->len);
}

/* The rows of the search: row d holds v[k] for k in [-d-1, d+1]. */
struct trace {
	ARRAY(long) v;
	ARRAY(size_t) start;	/* where row d begins in v */
};

static long row_get(const struct trace *t, long d, long k)
{
	return t->v.data[t->start.data[d] + (size_t)(k + d + 1)];
}

/* Search the middle part [lo, a_end) x [lo, b_end) (shifted to 0); the number
 * of edits, or -1 past max. */
static long search(const struct diff *d, size_t off, long n, long m, long max, struct trace *t)
{
	long width = 2 * (max + 1) + 3;
	long *v = xcalloc((size_t)width, sizeof(long)), *vk = v + max + 2;
	long found = -1;
	for (long e = 0; e <= max && found < 0; e++) {
		array_push(&t->start, t->v.len);
		for (long k = -e - 1; k <= e + 1; k++)
			array_push(&t->v, vk[k]);
		for (long k = -e; k <= e; k += 2) {
			long x = (k == -e || (k != e && vk[k - 1] < vk[k + 1])) ? vk[k + 1] : vk[k - 1] + 1;
			long y = x - k;
			while (x < n && y < m && same(d, off + (size_t)x, off + (size_t)y))
				x++, y++;
			vk[k] = x;
			if (x >= n && y >= m) {
				found = e;
				break;
			}
		}
	}
	free(v);
	return found;
}

/* Walk the trace back from (n, m): the ops of the middle part, reversed. */
static void backtrack(struct diff *d, size_t off, long n, long m, long edits, const struct trace *t)
{
	long x = n, y = m;
	for (long e = edits; e >= 0; e--) {
		long k = x - y;
		bool down = k == -e || (k != e && row_get(t, e, k - 1) < row_get(t, e, k + 1));
		long pk = down ? k + 1 : k - 1;
		long px = row_get(t, e, pk), py = px - pk;
		for (; x > px && y > py; x--, y--)
			array_push(&d->ops, (struct diff_op){ '=', (uint32_t)(off + (size_t)x - 1),
							      (uint32_t)(off + (size_t)y - 1) });
		if (e > 0)
			array_push(&d->ops, down ? (struct diff_op){ '+', 0, (uint32_t)(off + (size_t)py) }
						 : (struct diff_op){ '-', (uint32_t)(off + (size_t)px), 0 });
		x = px;
		y = py;
	}
}

static void reverse(struct diff *d, size_t from)
{
	for (size_t i = from, j = d->ops.len; i + 1 < j; i++, j--) {
		struct diff_op tmp = d->ops.data[i];
		d->ops.data[i] = d->ops.data[j - 1];
		d->ops.data[j - 1] = tmp;
	}
}

/* Within each run of changes, deletions first. */
static void deletions_first(struct diff *d)
{
	for (size_t i = 0; i < d->ops.len;) {
		size_t j = i;
		while (j < d->ops.len && d->ops.data[j].kind != '=')
			j++;
		ARRAY(struct diff_op) run = ARRAY_INIT;
		for (size_t pass = 0; pass < 2; pass++)
			for (size_t k = i; k < j; k++)
				if ((d->ops.data[k].kind == '-') == (pass == 0))
					array_push(&run, d->ops.data[k]);
		if (run.len)
			memcpy(d->ops.data + i, run.data, run.len * sizeof(struct diff_op));
		array_free(&run);
		i = j + 1;
	}
}

bool diff_texts(struct diff *d, const char *before, const char *after, size_t max_edits)
{
	memset(d, 0, sizeof(*d));
	split(before, &d->a);
	split(after, &d->b);
	size_t na = d->a.len, nb = d->b.len, pre = 0, suf = 0;
	while (pre < na && pre < nb && same(d, pre, pre))
		pre++;
	while (suf < na - pre && suf < nb - pre && same(d, na - 1 - suf, nb - 1 - suf))
		suf++;
	long n = (long)(na - pre - suf), m = (long)(nb - pre - suf);
	for (size_t i = 0; i < pre; i++)
		array_push(&d->ops, (struct diff_op){ '=', (uint32_t)i, (uint32_t)i });
	struct trace t = { ARRAY_INIT, ARRAY_INIT };
	long edits = search(d, pre, n, m, (long)max_edits < n + m ? (long)max_edits : n + m, &t);
	if (edits >= 0) {
		size_t from = d->ops.len;
		backtrack(d, pre, n, m, edits, &t);
		reverse(d, from);
		for (size_t i = 0; i < suf; i++)
			array_push(&d->ops, (struct diff_op){ '=', (uint32_t)(na - suf + i),
							      (uint32_t)(nb - suf + i) });
		deletions_first(d);
		d->edits = (size_t)edits;
	} else {
		d->ops.len = 0;
	}
	array_free(&t.v);
	array_free(&t.start);
	return edits >= 0;
}

void diff_release(struct diff *d)
{
	array_free(&d->a);
	array_free(&d->b);
	array_free(&d->ops);
}

void diff_hunks(const struct diff *d, size_t context, hunk_fn fn, void *ctx)
{
	size_t n = d->ops.len, i = 0, a_line = 0, b_line = 0, counted = 0;
	while (i < n) {
		while (i < n && d->ops.data[i].kind == '=')
			i++;
		if (i == n)
			break;
		size_t from = i > context ? i - context : 0, last = i, k = i;
		for (; k < n; k++) {
			if (d->ops.data[k].kind != '=')
				last = k;
			else if (k - last > 2 * context)
				break;
		}
		size_t to = last + 1 + context < n ? last + 1 + context : n;
		for (; counted < from; counted++) {
			a_line += d->ops.data[counted].kind != '+';
			b_line += d->ops.data[counted].kind != '-';
		}
		struct diff_hunk h = { .from = from, .to = to };
		for (size_t j = from; j < to; j++) {
			h.a_len += d->ops.data[j].kind != '+';
			h.b_len += d->ops.data[j].kind != '-';
		}
		/* diff -u: an empty side starts at the line before it */
		h.a_start = a_line + (h.a_len > 0);
		h.b_start = b_line + (h.b_len > 0);
		fn(ctx, d, &h);
		i = to;
	}
}
