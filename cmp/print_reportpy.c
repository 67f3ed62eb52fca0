/*
 * `shdb cmp --format=reportpy`: Mesa shader-db's report.py layout, number for
 * number (shaderdb-tools.md §2 and §4.1), for scripts and eyes used to it:
 *
 *	instructions helped:   shaders/a/1.shader_test FRAG:                 60 -> 55 (-8.33%)
 *	...
 *	total instructions in shared programs: 420 -> 407 (-3.10%)
 *	instructions in affected programs: 400 -> 387 (-3.25%)
 *	helped: 3
 *	HURT: 1
 *	helped stats (abs) min: 2 max: 10 x̄: 5.67 x̃: 5
 *	...
 *	Total CPU time (seconds): 2.10 -> 2.30 (9.52%)
 *
 * Kept from report.py: the order of everything (per-shader lines by relative
 * change, smallest first, ties in file order), "inst" named "instructions",
 * the "(spills: …; fills: …)" note, no interval for spills and fills, the
 * truncated median x̃.  Not kept: its bugs.  The verdict follows the
 * statistic's direction ("Waves are HURT." when waves fell; report.py says
 * helped), statistics whose names have spaces are shown, and a shader whose
 * statistic is missing is skipped instead of stopping with a KeyError.
 */
#include "cmp/print.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct rp_ctx {
	const struct cmp_print *p;
	const struct comparison *c;
	FILE *out;
	const struct column *spills[2], *fills[2];	/* before, after */
};

static const char *rp_name(const struct stat_cmp *s)
{
	return !strcmp(s->name, "inst") ? "instructions" : s->name;
}

/* report.py's format_percent */
static void rp_percent(struct strbuf *sb, double frac)
{
	if (fabs(frac) > 0.0 && fabs(frac) < 0.0001)
		strbuf_addstr(sb, "<.01%");
	else
		strbuf_addf(sb, "%.2f%%", frac * 100);
}

/* report.py's format_num */
static void rp_num(struct strbuf *sb, double n)
{
	if (n - floor(n) < 0.01)
		strbuf_addf(sb, "%.0f", floor(n));
	else
		strbuf_addf(sb, "%.2f", n);
}

/* report.py's change(): "b -> a (p%)", the percentage only when neither is 0 */
static void rp_change(struct strbuf *sb, double b, double a)
{
	rp_num(sb, b);
	strbuf_addstr(sb, " -> ");
	rp_num(sb, a);
	if (b != 0 && a != 0) {
		strbuf_addstr(sb, " (");
		rp_percent(sb, a / b - 1.0);
		strbuf_addch(sb, ')');
	}
}

/* Python's str() of a value that is an int in report.py */
static void rp_value(struct strbuf *sb, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addf(sb, "%.17g", v);
}

static void spill_fill_note(struct rp_ctx *x, const struct stat_cmp *s, uint32_t pair,
			    struct strbuf *sb)
{
	const struct pair *p = &x->c->pairs.data[pair];
	double sb_, sa, fb, fa;
	if (!strcmp(s->name, "spills") || !strcmp(s->name, "fills") || !x->spills[0] ||
	    !x->spills[1] || !x->fills[0] || !x->fills[1] ||
	    !column_get(x->spills[0], p->before, &sb_) || !column_get(x->spills[1], p->after, &sa) ||
	    !column_get(x->fills[0], p->before, &fb) || !column_get(x->fills[1], p->after, &fa) ||
	    (sb_ == sa && fb == fa))
		return;
	strbuf_addstr(sb, " (spills: ");
	rp_change(sb, sb_, sa);
	strbuf_addstr(sb, "; fills: ");
	rp_change(sb, fb, fa);
	strbuf_addch(sb, ')');
}

/* report.py's sort keys: helped by (b - a) / b, hurt by (a - b) / b, or a
 * when b is 0; ascending; a stable sort keeps the file order of ties. */
struct rp_sort {
	const struct change *ch;
	double key;
};

static int cmp_rp_sort(const void *x, const void *y)
{
	const struct rp_sort *sx = x, *sy = y;
	if (sx->key != sy->key)
		return sx->key < sy->key ? -1 : 1;
	return (sx->ch->pair > sy->ch->pair) - (sx->ch->pair < sy->ch->pair);
}

static void shader_lines(struct rp_ctx *x, const struct stat_cmp *s, const change_array *list,
			 bool hurt)
{
	struct rp_sort *order = xmalloc((list->len + 1) * sizeof(*order));
	for (size_t i = 0; i < list->len; i++) {
		const struct change *ch = &list->data[i];
		double d = hurt ? ch->after - ch->before : ch->before - ch->after;
		order[i] = (struct rp_sort){ ch, ch->before == 0 ? ch->after : d / ch->before };
	}
	qsort(order, list->len, sizeof(*order), cmp_rp_sort);
	struct strbuf line = STRBUF_INIT;
	for (size_t i = 0; i < list->len; i++) {
		strbuf_reset(&line);
		strbuf_addf(&line, "%s %s   ", rp_name(s), hurt ? "HURT:" : "helped:");
		size_t start = line.len;
		pair_name(x->c, order[i].ch->pair, &line);
		strbuf_addstr(&line, ": ");
		while (line.len - start < 50)
			strbuf_addch(&line, ' ');
		rp_change(&line, order[i].ch->before, order[i].ch->after);
		spill_fill_note(x, s, order[i].ch->pair, &line);
		fprintf(x->out, "%s\n", line.buf);
	}
	if (list->len)
		fputc('\n', x->out);
	strbuf_release(&line);
	free(order);
}

static void row_lines(struct rp_ctx *x, const char *title, const struct run *run,
		      const row_array *rows)
{
	for (size_t i = 0; i < rows->len; i++) {
		const char *target = run_target(run, rows->data[i]);
		fprintf(x->out, "%s%s %s%s%s\n", title, run_path(run, rows->data[i]),
			run_stage(run, rows->data[i]), *target ? " " : "", target);
	}
	if (rows->len)
		fputc('\n', x->out);
}

static void side_stats(struct rp_ctx *x, const char *title, const struct change_summary *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s (abs)%s min: ", title, strcmp(title, "HURT stats") ? "" : "  ");
	rp_value(&sb, s->abs_min);
	strbuf_addstr(&sb, " max: ");
	rp_value(&sb, s->abs_max);
	strbuf_addf(&sb, " x\u0304: %.2f x\u0303: %lld\n%s (rel)%s min: ", s->abs_mean,
		    (long long)s->abs_median, title, strcmp(title, "HURT stats") ? "" : "  ");
	rp_percent(&sb, s->rel_min);
	strbuf_addstr(&sb, " max: ");
	rp_percent(&sb, s->rel_max);
	strbuf_addstr(&sb, " x\u0304: ");
	rp_percent(&sb, s->rel_mean);
	strbuf_addstr(&sb, " x\u0303: ");
	rp_percent(&sb, s->rel_median);
	fprintf(x->out, "%s\n", sb.buf);
	strbuf_release(&sb);
}

/* Python's str.capitalize() */
static void capitalized(struct strbuf *sb, const char *s)
{
	for (size_t i = 0; s[i]; i++)
		strbuf_addch(sb, i ? tolower((unsigned char)s[i]) : toupper((unsigned char)s[i]));
}

static void interval_lines(struct rp_ctx *x, const struct stat_cmp *s)
{
	struct strbuf sb = STRBUF_INIT;
	fprintf(x->out, "95%% mean confidence interval for %s value: %.2f %.2f\n", rp_name(s),
		s->ci_value.lo, s->ci_value.hi);
	strbuf_addf(&sb, "95%% mean confidence interval for %s %%-change: ", rp_name(s));
	rp_percent(&sb, s->ci_rel.lo);
	strbuf_addch(&sb, ' ');
	rp_percent(&sb, s->ci_rel.hi);
	fprintf(x->out, "%s\n", sb.buf);
	strbuf_reset(&sb);
	if (s->verdict == VERDICT_HELPED || s->verdict == VERDICT_HURT) {
		capitalized(&sb, rp_name(s));
		strbuf_addf(&sb, " are %s.", verdict_text(s->verdict));
	} else
		strbuf_addstr(&sb, verdict_text(s->verdict));
	fprintf(x->out, "%s\n", sb.buf);
	strbuf_release(&sb);
}

static void summary_block(struct rp_ctx *x, const struct stat_cmp *s)
{
	struct strbuf sb = STRBUF_INIT;
	const char *m = rp_name(s);
	size_t helped = s->helped.len, hurt = s->hurt.len;
	strbuf_addf(&sb, "total %s in shared programs: ", m);
	rp_change(&sb, s->total_before, s->total_after);
	strbuf_addf(&sb, "\n%s in affected programs: ", m);
	rp_change(&sb, s->affected_before, s->affected_after);
	fprintf(x->out, "%s\nhelped: %zu\nHURT: %zu\n", sb.buf, helped, hurt);
	strbuf_release(&sb);
	if (s->info->flags & STAT_NO_CI) {
		fputc('\n', x->out);
		return;
	}
	if (helped > 2 || (helped && hurt))
		side_stats(x, "helped stats", &s->helped_sum);
	if (hurt > 2 || (hurt && helped))
		side_stats(x, "HURT stats", &s->hurt_sum);
	if (s->has_ci)
		interval_lines(x, s);
	fputc('\n', x->out);
}

void cmp_print_reportpy(const struct cmp_print *p)
{
	const struct comparison *c = p->c;
	struct rp_ctx x = {
		.p = p, .c = c, .out = p->out,
		.spills = { run_column(c->before, "spills"), run_column(c->after, "spills") },
		.fills = { run_column(c->before, "fills"), run_column(c->after, "fills") },
	};
	for (size_t i = 0; i < c->stats.len && !p->summary; i++) {
		shader_lines(&x, &c->stats.data[i], &c->stats.data[i].helped, false);
		shader_lines(&x, &c->stats.data[i], &c->stats.data[i].hurt, true);
	}
	if (!p->summary) {
		row_lines(&x, "LOST:   ", c->before, &c->lost);
		row_lines(&x, "GAINED: ", c->after, &c->gained);
	}
	bool any_change = false;
	for (size_t i = 0; i < c->stats.len; i++) {
		any_change |= stat_changed(&c->stats.data[i]);
		if (stat_changed(&c->stats.data[i]) || !p->changes_only)
			summary_block(&x, &c->stats.data[i]);
	}
	if (c->lost.len || c->gained.len || !p->changes_only)
		fprintf(p->out, "LOST:   %zu\nGAINED: %zu\n", c->lost.len, c->gained.len);
	else if (!any_change)
		fputs("No changes.\n", p->out);
	struct strbuf sb = STRBUF_INIT;
	rp_change(&sb, c->before->cpu_seconds, c->after->cpu_seconds);
	fprintf(p->out, "\nTotal CPU time (seconds): %s\n", sb.buf);
	strbuf_release(&sb);
}
