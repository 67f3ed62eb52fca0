/*
 * Shared pieces of the report's pages; see pages.h.
 */
#include "reports/pages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *target_shown(const char *target)
{
	return *target ? target : "(none)";
}

const char *run_ref(struct page *p, const struct report *r, long i)
{
	if (i < 0)
		return "?";
	return arena_printf(&p->scratch, "%s (#%ld)", E(p, r->hist.runs.data[i].label), i + 1);
}

const char *verdict_class(enum verdict v)
{
	return v == VERDICT_HURT ? "verdict-hurt" : v == VERDICT_HELPED ? "verdict-helped" : "";
}

size_t first_seen(const struct report *r, const struct alert *a, struct first_seen **out)
{
	size_t n = r->hist.runs.len;
	size_t *count = xcalloc(n + 1, sizeof(size_t));
	for (size_t i = 0; i < a->watches.len; i++) {
		int run = r->watches.data[a->watches.data[i]].first_run;
		count[run >= 0 ? (size_t)run : n]++;
	}
	size_t len = 0;
	*out = xcalloc(n + 2, sizeof(struct first_seen));
	for (size_t i = 0; i <= n; i++)
		if (count[i])
			(*out)[len++] = (struct first_seen){ i < n ? (long)i : -1, count[i] };
	free(count);
	return len;
}

void shader_cell(struct page *p, const struct report *r, const char *path, const char *stage,
		 const char *target, const char *root)
{
	long f = followed_find(r, path, stage, target);
	strbuf_addstr(&p->out, "<td class=\"path\">");
	if (f >= 0)
		strbuf_addf(&p->out, "<a href=\"%s%s\">%s</a>", root, r->followed.data[f].page, E(p, path));
	else
		strbuf_addstr(&p->out, E(p, path));
	strbuf_addf(&p->out, " <span class=\"muted\">%s</span></td>", E(p, stage));
}

void comparison_line(struct page *p, const struct scope *s)
{
	const struct comparison *c = &s->cmp;
	strbuf_addf(&p->out, "<p class=\"cmp-line\" data-scope=\"%s\" data-before-records=\"%zu\" "
			     "data-after-records=\"%zu\" data-matched=\"%zu\" data-both-ok=\"%zu\" "
			     "data-affected=\"%zu\" data-lost=\"%zu\" data-gained=\"%zu\">",
		    E(p, s->name), c->before->rows.len, c->after->rows.len, c->pairs.len, c->both_ok,
		    c->affected, c->lost.len, c->gained.len);
	strbuf_addf(&p->out, "Records %zu → %zu; in both %zu (%zu ok in both), affected %zu; "
			     "lost %zu, gained %zu",
		    c->before->rows.len, c->after->rows.len, c->pairs.len, c->both_ok, c->affected,
		    c->lost.len, c->gained.len);
	if (c->status_changes.len)
		strbuf_addf(&p->out, "; newly failing %zu, newly crashing %zu, fixed %zu, changed %zu",
			    c->status_counts[NEWLY_FAILING], c->status_counts[NEWLY_CRASHING],
			    c->status_counts[FIXED], c->status_counts[STATUS_CHANGED]);
	strbuf_addstr(&p->out, ".</p>\n");
}

void intervals_cell(struct page *p, const struct stat_cmp *sc)
{
	if (!sc->has_ci) {
		strbuf_addstr(&p->out, "<td class=\"muted\">—</td>");
		return;
	}
	struct strbuf sb = STRBUF_INIT;
	fmt_intervals(&sb, sc);
	strbuf_addf(&p->out, "<td class=\"n\">%s</td>", E(p, sb.buf));
	strbuf_release(&sb);
}

static void stat_row(struct page *p, const struct scope *s, const struct stat_cmp *sc)
{
	double b = sc->total_before, a = sc->total_after;
	strbuf_addf(&p->out, "<tr data-scope=\"%s\" data-stat=\"%s\" data-before=\"%s\" "
			     "data-after=\"%s\" data-helped=\"%zu\" data-hurt=\"%zu\" data-verdict=\"%s\"",
		    E(p, s->name), E(p, sc->info->key), X(p, b), X(p, a), sc->helped.len,
		    sc->hurt.len, verdict_word(sc->verdict));
	if (sc->has_ci)
		strbuf_addf(&p->out, " data-ci-lo=\"%s\" data-ci-hi=\"%s\"", X(p, sc->ci_rel.lo),
			    X(p, sc->ci_rel.hi));
	strbuf_addf(&p->out, "><td>%s <code>%s</code></td><td class=\"n\">%s</td><td class=\"n\">%s</td>",
		    E(p, sc->info->display), E(p, sc->info->key), N(p, b), N(p, a));
	strbuf_addf(&p->out, "<td class=\"n %s\">%s</td><td class=\"n good\">%zu</td>"
			     "<td class=\"n bad\">%zu</td>",
		    change_class(sc->info->higher_better, b, a), b == a ? "." : P(p, rel_change(b, a)),
		    sc->helped.len, sc->hurt.len);
	intervals_cell(p, sc);
	strbuf_addf(&p->out, "<td class=\"%s\">%s</td></tr>\n", verdict_class(sc->verdict),
		    E(p, verdict_brief(sc->verdict)));
}

void groups_table(struct page *p, const struct scope *s, const char *what,
		  const group_array *groups, size_t top)
{
	if (groups->len < 2)
		return;
	struct cmp_print cp = { .c = &s->cmp, .top = top };
	struct text_table t;
	size_t cut = group_table(&cp, what, groups, false, &t);
	strbuf_addf(&p->out, "<h3>By %s</h3>\n<table class=\"sortable\">\n", what);
	for (size_t row = 0; row < table_rows(&t); row++) {
		strbuf_addstr(&p->out, "<tr>");
		for (size_t col = 0; col < t.ncols; col++) {
			const struct table_cell *c = &t.cells.data[row * t.ncols + col];
			const char *tag = row ? "td" : "th";
			const char *cls = !c->color ? "" : !strcmp(c->color, COLOR_GREEN) ? " good" : " bad";
			strbuf_addf(&p->out, "<%s class=\"%s%s\">%s</%s>", tag,
				    t.align[col] == 'r' ? "n" : "l", cls, E(p, c->text), tag);
		}
		strbuf_addstr(&p->out, "</tr>\n");
	}
	strbuf_addstr(&p->out, "</table>\n");
	if (cut)
		strbuf_addf(&p->out, "<p class=\"muted\">%zu more %ss (the least affected).</p>\n", cut,
			    what);
	table_release(&t);
}

void comparison_table(struct page *p, const struct scope *s)
{
	const struct comparison *c = &s->cmp;
	struct strbuf same = STRBUF_INIT;
	size_t changed = 0;
	for (size_t k = 0; k < c->stats.len; k++)
		changed += c->stats.data[k].helped.len || c->stats.data[k].hurt.len;
	if (changed) {
		strbuf_addstr(&p->out, "<table class=\"cmp sortable\">\n<tr><th>Statistic</th>"
				       "<th class=\"n\">Before"
				       "</th><th class=\"n\">After</th><th class=\"n\">Change</th>"
				       "<th class=\"n\">Helped</th><th class=\"n\">Hurt</th>"
				       "<th class=\"n\">95% CI of mean change: value (%-change)</th>"
				       "<th>Verdict</th></tr>\n");
		for (size_t k = 0; k < c->stats.len; k++)
			if (c->stats.data[k].helped.len || c->stats.data[k].hurt.len)
				stat_row(p, s, &c->stats.data[k]);
		strbuf_addstr(&p->out, "</table>\n");
	}
	for (size_t k = 0; k < c->stats.len; k++)
		if (!c->stats.data[k].helped.len && !c->stats.data[k].hurt.len)
			strbuf_addf(&same, "%s<code>%s</code>", same.len ? ", " : "",
				    E(p, c->stats.data[k].info->key));
	if (!c->stats.len)
		strbuf_addstr(&p->out, "<p class=\"note\">No statistics in both runs (no ok record "
				       "carries one).</p>\n");
	else if (same.len)
		strbuf_addf(&p->out, "<p class=\"muted\">%s: %s.</p>\n",
			    changed ? "Unchanged" : "No statistic changed", same.buf);
	for (int side = 0; side < 2; side++) {
		const name_array *only = side ? &c->only_after : &c->only_before;
		if (!only->len)
			continue;
		strbuf_addf(&p->out, "<p class=\"muted\">Statistics only in the %s run:",
			    side ? "last" : "previous");
		for (size_t i = 0; i < only->len; i++)
			strbuf_addf(&p->out, " <code>%s</code>", E(p, only->data[i]));
		strbuf_addstr(&p->out, ".</p>\n");
	}
	strbuf_release(&same);
}
