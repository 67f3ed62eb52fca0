/*
 * OUT/shaders/<hash>.html: one page per shader listed on the index (top
 * regressions and improvements): its statistics in the last two runs, its
 * history (a small chart of the statistic that moved, then the table), the
 * diff of its disassembly when both runs kept it (shdb run --keep-asm;
 * stats/asm_pack.h), and its source when it is found (source.c).
 */
#include "reports/pages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/diff.h"
#include "stats/asm_pack.h"

#define MAX_EDITS 4000			/* beyond: both listings in full instead */
#define MAX_LISTING ((size_t)1 << 20)	/* bytes of a listing shown */

struct shader_ctx {
	struct report *r;
	struct source_places places;	/* where the sources are */
	struct asm_pack packs[2];	/* of the previous and last run */
	bool have[2];
};

static double value(const struct report *r, long run, size_t f, size_t k)
{
	if (run < 0 || !r->facts[run].loaded)
		return NAN;
	return r->facts[run].fvalues[f * r->follow_keys.len + k];
}

static const char *status_of(const struct report *r, long run, size_t f)
{
	if (run < 0 || !r->facts[run].loaded)
		return "unreadable";
	uint8_t s = r->facts[run].fstatus[f];
	return s == ABSENT ? "absent" : status_name((enum record_status)s);
}

static const struct stat_info *info_of(const char *key, struct stat_info *generic)
{
	const struct stat_info *info = stat_lookup(key, strlen(key));
	if (!info)
		stat_info_generic(generic, key);
	return info ? info : generic;
}

static void last_two(struct page *p, const struct report *r, size_t f)
{
	strbuf_addf(&p->out, "<section><h2>Last two runs</h2>\n<p>Status: %s → %s.</p>\n"
			     "<table class=\"sortable\">\n<tr><th>Statistic</th><th class=\"n\">%s</th>"
			     "<th class=\"n\">"
			     "%s</th><th class=\"n\">Change</th></tr>\n",
		    status_of(r, r->prev, f), status_of(r, r->last, f), run_ref(p, r, r->prev),
		    run_ref(p, r, r->last));
	for (size_t n = 0; n < 2 * r->follow_keys.len; n++) {	/* the changed ones first */
		size_t k = n % r->follow_keys.len;
		double b = value(r, r->prev, f, k), a = value(r, r->last, f, k);
		if ((isnan(b) && isnan(a)) || (n < r->follow_keys.len) == (a == b || (isnan(a) && isnan(b))))
			continue;
		struct stat_info generic;
		const struct stat_info *info = info_of(r->follow_keys.data[k], &generic);
		const char *cls = change_class(info->higher_better, b, a);
		strbuf_addf(&p->out, "<tr class=\"%s\"><td>%s <code>%s</code></td><td class=\"n\">%s</td>"
				     "<td class=\"n\">%s</td><td class=\"n %s\">%s</td></tr>\n",
			    !*cls ? "" : !strcmp(cls, "good") ? "helped" : "hurt", E(p, info->display),
			    E(p, info->key), isnan(b) ? "—" : N(p, b), isnan(a) ? "—" : N(p, a), cls,
			    isnan(a) || isnan(b) || a == b ? "" : P(p, rel_change(b, a)));
	}
	strbuf_addstr(&p->out, "</table></section>\n");
}

/* The statistics whose value is not the same in every run (the first few
 * when none changed). */
static size_t varying_keys(const struct report *r, size_t f, size_t *keys)
{
	size_t n = 0;
	for (size_t k = 0; k < r->follow_keys.len; k++) {
		double first = NAN;
		bool varies = false, any = false;
		for (size_t i = 0; i < r->hist.runs.len && !varies; i++) {
			double v = value(r, (long)i, f, k);
			if (isnan(v))
				continue;
			varies = any && v != first;
			first = any ? first : v;
			any = true;
		}
		if (varies)
			keys[n++] = k;
	}
	for (size_t k = 0; !n && k < r->follow_keys.len && k < 3; k++)
		keys[n++] = k;
	return n;
}

/* A small chart of one statistic over the runs, drawn here (an inline SVG,
 * no gnuplot per page): its lowest and highest values are written beside
 * the axis, which spans them, not 0. */
#define SPARK_W 420.0
#define SPARK_H 90.0
#define SPARK_LEFT 56.0
#define SPARK_PAD 10.0

static double spark_x(size_t i, size_t n)
{
	double w = SPARK_W - SPARK_LEFT - SPARK_PAD;
	return SPARK_LEFT + (n > 1 ? (double)i * w / (double)(n - 1) : w / 2);
}

static double spark_y(double v, double lo, double hi)
{
	double h = SPARK_H - 2 * SPARK_PAD - 12;
	return SPARK_PAD + (hi > lo ? (hi - v) / (hi - lo) * h : h / 2);
}

static void sparkline(struct page *p, const struct report *r, size_t f, size_t k)
{
	size_t n = r->hist.runs.len;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double v = value(r, (long)i, f, k);
		lo = isnan(v) || v >= lo ? lo : v;
		hi = isnan(v) || v <= hi ? hi : v;
	}
	if (!isfinite(lo))
		return;
	const char *key = r->follow_keys.data[k];
	strbuf_addf(&p->out, "<figure><svg class=\"spark\" xmlns=\"http://www.w3.org/2000/svg\" "
			     "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
			     "aria-label=\"%s over the runs\">\n", SPARK_W, SPARK_H, SPARK_W, SPARK_H,
		    E(p, key));
	strbuf_addf(&p->out, "<g font-size=\"11\" fill=\"#6b7b86\" text-anchor=\"end\">"
			     "<text x=\"%.0f\" y=\"%.1f\">%s</text>", SPARK_LEFT - 6,
		    spark_y(hi, lo, hi) + 4, N(p, hi));
	if (hi > lo)
		strbuf_addf(&p->out, "<text x=\"%.0f\" y=\"%.1f\">%s</text>", SPARK_LEFT - 6,
			    spark_y(lo, lo, hi) + 4, N(p, lo));
	strbuf_addf(&p->out, "</g><g font-size=\"11\" fill=\"#6b7b86\"><text x=\"%.1f\" y=\"%.0f\">"
			     "#1</text><text x=\"%.1f\" y=\"%.0f\" text-anchor=\"end\">#%zu</text></g>\n",
		    spark_x(0, n), SPARK_H - 4, spark_x(n - 1, n), SPARK_H - 4, n);
	strbuf_addstr(&p->out, "<polyline fill=\"none\" stroke=\"#1f6fb4\" stroke-width=\"2\" points=\"");
	for (size_t i = 0; i < n; i++) {
		double v = value(r, (long)i, f, k);
		if (isnan(v))	/* a gap: a new line */
			strbuf_addstr(&p->out, "\"/>\n<polyline fill=\"none\" stroke=\"#1f6fb4\" "
					       "stroke-width=\"2\" points=\"");
		else
			strbuf_addf(&p->out, "%.1f,%.1f ", spark_x(i, n), spark_y(v, lo, hi));
	}
	strbuf_addstr(&p->out, "\"/>\n");
	for (size_t i = 0; i < n; i++) {
		double v = value(r, (long)i, f, k);
		if (!isnan(v))
			strbuf_addf(&p->out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\">"
					     "<title>%s: %s</title></circle>", spark_x(i, n),
				    spark_y(v, lo, hi), i + 1 == n ? "#c62828" : "#1f6fb4",
				    run_ref(p, r, (long)i), N(p, v));
	}
	strbuf_addf(&p->out, "\n</svg><figcaption><code>%s</code> in each run (# in the table below); "
			     "the axis spans its lowest and highest values%s.</figcaption></figure>\n",
		    E(p, key), lo > 0 && hi > lo ? ", <b class=\"bad\">not from 0</b>" : "");
}

static void history(struct page *p, const struct report *r, size_t f)
{
	size_t *keys = xcalloc(r->follow_keys.len + 1, sizeof(size_t));
	size_t nk = varying_keys(r, f, keys);
	strbuf_addstr(&p->out, "<section><h2>History</h2>\n");
	if (nk)
		sparkline(p, r, f, keys[0]);
	strbuf_addstr(&p->out, "<table class=\"sortable\">\n<tr><th class=\"n\">#</th>"
			       "<th>Run</th><th>Status</th>");
	for (size_t k = 0; k < nk; k++)
		strbuf_addf(&p->out, "<th class=\"n\"><code>%s</code></th>",
			    E(p, r->follow_keys.data[keys[k]]));
	strbuf_addstr(&p->out, "</tr>\n");
	for (size_t i = r->hist.runs.len; i-- > 0;) {
		strbuf_addf(&p->out, "<tr><td class=\"n\">%zu</td><td>%s</td><td>%s</td>", i + 1,
			    E(p, r->hist.runs.data[i].label), status_of(r, (long)i, f));
		for (size_t k = 0; k < nk; k++) {
			double v = value(r, (long)i, f, keys[k]);
			strbuf_addf(&p->out, "<td class=\"n\">%s</td>", isnan(v) ? "" : N(p, v));
		}
		strbuf_addstr(&p->out, "</tr>\n");
	}
	strbuf_addstr(&p->out, "</table></section>\n");
	free(keys);
}

/* ---- disassembly ---- */

static void line_span(struct page *p, const char *cls, char mark, const char *s, size_t len)
{
	strbuf_addf(&p->out, "<span class=\"%s\">%c%s</span>", cls, mark,
		    E(p, arena_strndup(&p->scratch, s, len)));
}

static void hunk(void *ctx, const struct diff *d, const struct diff_hunk *h)
{
	struct page *p = ctx;
	strbuf_addf(&p->out, "<span class=\"hunk\">@@ -%zu,%zu +%zu,%zu @@</span>", h->a_start,
		    h->a_len, h->b_start, h->b_len);
	for (size_t i = h->from; i < h->to; i++) {
		const struct diff_op *op = &d->ops.data[i];
		const struct diff_line *l = op->kind == '+' ? &d->b.data[op->b] : &d->a.data[op->a];
		line_span(p, op->kind == '+' ? "add" : op->kind == '-' ? "del" : "ctx",
			  op->kind == '=' ? ' ' : op->kind, l->p, l->len);
	}
}

static void listing(struct page *p, const char *title, struct strbuf *text)
{
	if (text->len > MAX_LISTING)
		strbuf_setlen(text, MAX_LISTING);
	strbuf_addf(&p->out, "<h3>%s</h3>\n<pre>%s</pre>\n", title, E(p, text->buf));
}

static void show_diff(struct page *p, struct strbuf *before, struct strbuf *after)
{
	struct diff d;
	bool small = before->len <= MAX_LISTING && after->len <= MAX_LISTING;
	bool diffed = small && diff_texts(&d, before->buf, after->buf, MAX_EDITS);
	if (small && !diffed)
		diff_release(&d);
	if (!diffed) {
		strbuf_addstr(&p->out, "<p class=\"note\">The listings differ too much for a diff; "
				       "both follow.</p>\n");
		listing(p, "Previous run", before);
		listing(p, "Last run", after);
		return;
	}
	if (!d.edits)
		strbuf_addf(&p->out, "<p>The disassembly is the same in both runs (%zu lines).</p>\n",
			    d.a.len);
	else {
		strbuf_addf(&p->out, "<p>%zu lines before, %zu after; %zu lines differ.</p>\n"
				     "<pre class=\"diff\">", d.a.len, d.b.len, d.edits);
		diff_hunks(&d, 3, hunk, p);
		strbuf_addstr(&p->out, "</pre>\n");
	}
	diff_release(&d);
}

static void disassembly(struct page *p, struct shader_ctx *ctx, const struct followed *fw)
{
	struct strbuf text[2] = { STRBUF_INIT, STRBUF_INIT };
	strbuf_addstr(&p->out, "<section><h2>Disassembly</h2>\n");
	bool found[2];
	for (int i = 0; i < 2; i++)
		found[i] = ctx->have[i] &&
			   asm_pack_get(&ctx->packs[i], fw->path, fw->stage, fw->target, &text[i]);
	if (!ctx->have[0] || !ctx->have[1])
		strbuf_addstr(&p->out, "<p class=\"note\">Not kept: run <code>shdb run --keep-asm</code> "
				       "to see the diff of the disassembly here.</p>\n");
	else if (!found[0] || !found[1])
		strbuf_addf(&p->out, "<p class=\"note\">No disassembly of this shader in the %s run.</p>\n",
			    !found[0] && !found[1] ? "previous and the last" : !found[0] ? "previous" : "last");
	else
		show_diff(p, &text[0], &text[1]);
	strbuf_addstr(&p->out, "</section>\n");
	strbuf_release(&text[0]);
	strbuf_release(&text[1]);
}

/* ---- source ---- */

static void source(struct page *p, const struct shader_ctx *ctx, const struct followed *fw)
{
	struct strbuf file = STRBUF_INIT, text = STRBUF_INIT, why = STRBUF_INIT;
	strbuf_addstr(&p->out, "<section><h2>Source</h2>\n");
	int found = source_find(&ctx->places, fw->path, &file, &text, &why);
	if (found == -1)
		strbuf_addf(&p->out, "<p class=\"note\"><code>%s</code>: not found (<code>shdb report "
				     "--source DIR</code> says where the run's paths start).</p>\n",
			    E(p, file.buf));
	else if (found < 0)
		strbuf_addf(&p->out, "<p class=\"note\"><code>%s</code>: %s.</p>\n", E(p, file.buf),
			    E(p, why.buf));
	else
		strbuf_addf(&p->out, "<p><code>%s</code>, as it is now:</p>\n<pre class=\"source\">%s"
				     "</pre>\n", E(p, file.buf), E(p, text.buf));
	strbuf_addstr(&p->out, "</section>\n");
	strbuf_release(&file);
	strbuf_release(&text);
	strbuf_release(&why);
}

static int shader_page(struct shader_ctx *ctx, size_t f)
{
	struct report *r = ctx->r;
	const struct followed *fw = &r->followed.data[f];
	struct page p;
	struct strbuf path = STRBUF_INIT;
	page_begin(&p, arena_printf(&r->arena, "%s %s %s", fw->path, fw->stage, fw->target));
	strbuf_addf(&p.out, "<header>\n<h1>%s</h1>\n<p>Stage %s · target %s · <a href=\"../index.html"
			    "\">back to the report</a></p>\n</header>\n<main>\n", E(&p, fw->path),
		    E(&p, fw->stage), E(&p, target_shown(fw->target)));
	last_two(&p, r, f);
	history(&p, r, f);
	disassembly(&p, ctx, fw);
	source(&p, ctx, fw);
	strbuf_addstr(&p.out, "</main>\n");
	page_end(&p);
	strbuf_addf(&path, "%s/%s", r->opts->out, fw->page);
	int ret = page_write(&p, path.buf, &r->diag);
	page_release(&p);
	strbuf_release(&path);
	return ret;
}

int write_shader_pages(struct report *r)
{
	struct shader_ctx ctx = { .r = r };
	source_places_init(&ctx.places, r);
	long runs[2] = { r->prev, r->last };
	for (int i = 0; i < 2 && r->followed.len; i++) {
		const struct history_run *h = hist_run(r, runs[i]);
		struct strbuf file = STRBUF_INIT;
		if (h && h->has_asm) {
			strbuf_addf(&file, "%s/%s", h->dir, ASM_PACK_FILE);
			ctx.have[i] = asm_pack_open(&ctx.packs[i], file.buf, &r->diag) == 0;
		}
		strbuf_release(&file);
	}
	int ret = 0;
	for (size_t f = 0; f < r->followed.len && !ret; f++)
		ret = shader_page(&ctx, f);
	for (int i = 0; i < 2; i++)
		if (ctx.have[i])
			asm_pack_close(&ctx.packs[i]);
	source_places_release(&ctx.places);
	return ret;
}
