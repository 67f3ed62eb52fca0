/*
 * OUT/index.html: the night at a glance.
 *
 *	header      the history, the last run and the one it is compared with
 *	problems    what could not be read (the messages shdb report printed)
 *	alerts      significant changes between the last two runs, per scope
 *	runs        status counts over the history (a chart and a table)
 *	last        the comparison of every target, when there are several
 *	targets     per target: trend charts, the comparison, the distribution
 *	            of per-shader changes, top regressions and improvements
 */
#include "reports/pages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct history_run *hist_run(const struct report *r, long i)
{
	return i >= 0 ? &r->hist.runs.data[i] : NULL;
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "—";
}

static void header(struct page *p, const struct report *r)
{
	size_t n = r->hist.runs.len;
	strbuf_addf(&p->out, "<header>\n<h1>shdb report</h1>\n<p>History <code>%s</code>: %zu run%s",
		    E(p, r->hist.root), n, n == 1 ? "" : "s");
	if (n)
		strbuf_addf(&p->out, ", %s … %s", E(p, or_dash(r->hist.runs.data[0].date)),
			    E(p, or_dash(r->hist.runs.data[n - 1].date)));
	strbuf_addstr(&p->out, ".</p>\n");
	if (r->last >= 0) {
		const struct history_run *l = hist_run(r, r->last);
		strbuf_addf(&p->out, "<p>Last run <b>%s</b> (commit %s, %s)", run_ref(p, r, r->last),
			    E(p, or_dash(l->commit)), E(p, or_dash(l->date)));
		if (r->prev >= 0) {
			const struct history_run *b = hist_run(r, r->prev);
			strbuf_addf(&p->out, ", compared with <b>%s</b> (commit %s, %s)",
				    run_ref(p, r, r->prev), E(p, or_dash(b->commit)), E(p, or_dash(b->date)));
		}
		strbuf_addstr(&p->out, ".</p>\n");
	}
	strbuf_addstr(&p->out, "</header>\n<main>\n");
}

static void problems(struct page *p, const struct report *r)
{
	if (!r->diag.text.len)
		return;
	strbuf_addf(&p->out, "<section id=\"problems\"><h2>Problems reading the history</h2>\n"
			     "<p>%d error%s, %d warning%s; the report shows what could be read.</p>\n"
			     "<ul class=\"problems\">\n", r->diag.errors, r->diag.errors == 1 ? "" : "s",
		    r->diag.warnings, r->diag.warnings == 1 ? "" : "s");
	const char *text = r->diag.text.buf;
	for (size_t lines = 0; *text && lines < 50; lines++) {
		size_t n = strcspn(text, "\n");
		strbuf_addf(&p->out, "<li>%s</li>\n", E(p, arena_strndup(&p->scratch, text, n)));
		text += n + (text[n] == '\n');
	}
	strbuf_addstr(&p->out, "</ul></section>\n");
}

/* ---- alerts ---- */

static void first_seen_cell(struct page *p, const struct report *r, const struct alert *a)
{
	struct first_seen *fs;
	size_t n = first_seen(r, a, &fs);
	strbuf_addstr(&p->out, "<td>");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&p->out, "%s%s%s: %zu shader%s", i ? "; " : "",
			    fs[i].run == r->last ? "new in " : "", run_ref(p, r, fs[i].run),
			    fs[i].shaders, fs[i].shaders == 1 ? "" : "s");
	strbuf_addstr(&p->out, "</td>");
	free(fs);
}

static void alert_row(struct page *p, const struct report *r, const struct scope *s,
		      const struct alert *a)
{
	const struct stat_cmp *sc = &s->cmp.stats.data[a->stat];
	bool hurt = sc->verdict == VERDICT_HURT;
	double b = sc->total_before, f = sc->total_after;
	strbuf_addf(&p->out, "<tr class=\"%s\" data-scope=\"%s\" data-stat=\"%s\" data-verdict=\"%s\">"
			     "<td class=\"nw\">%s</td><td class=\"nw\">%s <code>%s</code></td>",
		    hurt ? "hurt" : "helped", E(p, s->name), E(p, sc->info->key),
		    verdict_word(sc->verdict), E(p, s->name), E(p, sc->info->display),
		    E(p, sc->info->key));
	strbuf_addf(&p->out, "<td class=\"n\" data-sort=\"%s\">%s → %s</td><td class=\"n %s\">%s</td>"
			     "<td class=\"n\">%zu / %zu</td>",
		    X(p, f), N(p, b), N(p, f), change_class(sc->info->higher_better, b, f),
		    b == f ? "." : P(p, rel_change(b, f)), sc->helped.len, sc->hurt.len);
	intervals_cell(p, sc);
	strbuf_addf(&p->out, "<td class=\"%s\">%s</td>", verdict_class(sc->verdict),
		    verdict_word(sc->verdict));
	if (hurt)
		first_seen_cell(p, r, a);
	else
		strbuf_addstr(&p->out, "<td class=\"muted\">—</td>");
	strbuf_addstr(&p->out, "</tr>\n");
}

static void alerts(struct page *p, const struct report *r)
{
	size_t n = 0;
	strbuf_addstr(&p->out, "<section id=\"alerts\"><h2>Alerts</h2>\n");
	if (r->prev < 0) {
		strbuf_addstr(&p->out, "<p class=\"note\">Alerts need two runs to compare.</p>"
				       "</section>\n");
		return;
	}
	for (size_t i = 0; i < r->scopes.len; i++)
		n += r->scopes.data[i]->alerts.len;
	strbuf_addf(&p->out, "<p>Statistics whose change between %s and %s is significant by "
			     "<code>shdb cmp</code>'s rule: the 95%% confidence intervals of the mean "
			     "change (in value and in percent) lie on one side of zero. For a "
			     "regression, the run where its shaders were first as bad as now.</p>\n",
		    run_ref(p, r, r->prev), run_ref(p, r, r->last));
	if (!n) {
		strbuf_addstr(&p->out, "<p class=\"good\">No significant change.</p></section>\n");
		return;
	}
	strbuf_addstr(&p->out, "<table class=\"sortable\" id=\"alert-table\">\n<tr><th>Scope</th>"
			       "<th>Statistic</th>"
			       "<th class=\"n\">Total</th><th class=\"n\">Change</th>"
			       "<th class=\"n\">Helped / hurt</th><th class=\"n\">95% CI of mean change: "
			       "value (%-change)</th><th>Verdict</th><th>First seen (regressed shaders)</th></tr>\n");
	for (int pass = 0; pass < 2; pass++)	/* regressions first */
		for (size_t i = 0; i < r->scopes.len; i++) {
			const struct scope *s = r->scopes.data[i];
			for (size_t k = 0; k < s->alerts.len; k++)
				if ((s->cmp.stats.data[s->alerts.data[k].stat].verdict == VERDICT_HURT) ==
				    (pass == 0))
					alert_row(p, r, s, &s->alerts.data[k]);
		}
	strbuf_addstr(&p->out, "</table></section>\n");
}

/* ---- runs ---- */

/* A chart and its caption; `note` (markup) follows the caption. */
static void figure(struct page *p, const struct report *r, const char *file, const char *caption,
		   const char *note)
{
	if (!r->charts_ok) {
		strbuf_addf(&p->out, "<figure><figcaption>%s: no chart (see the problems above)"
				     "</figcaption></figure>\n", caption);
		return;
	}
	strbuf_addf(&p->out, "<figure><a href=\"charts/%s.svg\"><img src=\"charts/%s.svg\" "
			     "alt=\"%s\" width=\"440\" height=\"260\"/></a><figcaption>%s%s · "
			     "<a href=\"charts/%s.png\">PNG</a></figcaption></figure>\n",
		    file, file, caption, caption, note, file);
}

static void runs_table(struct page *p, const struct report *r)
{
	strbuf_addstr(&p->out, "<div class=\"scroll\"><table class=\"runs sortable\" id=\"runs\">\n"
			       "<tr><th class=\"n\">#</th><th>Date</th><th>Label"
			       "</th><th>Commit</th><th class=\"n\">Records</th><th class=\"n\">ok</th>"
			       "<th class=\"n\">error</th><th class=\"n\">crash</th><th class=\"n\">"
			       "timeout</th><th class=\"n\">skipped</th><th>asm</th></tr>\n");
	for (size_t i = r->hist.runs.len; i-- > 0;) {
		const struct history_run *h = &r->hist.runs.data[i];
		const struct run_facts *f = &r->facts[i];
		strbuf_addf(&p->out, "<tr><td class=\"n\">%zu</td><td>%s</td><td>%s</td><td><code>%s"
				     "</code></td>", i + 1, E(p, or_dash(h->date)), E(p, h->label),
			    E(p, or_dash(h->commit)));
		if (!f->loaded) {
			strbuf_addstr(&p->out, "<td colspan=\"7\" class=\"bad\">unreadable</td></tr>\n");
			continue;
		}
		strbuf_addf(&p->out, "<td class=\"n\">%zu</td>", f->records);
		for (int s = 0; s < STATUS_COUNT; s++) {
			size_t n = 0;
			for (size_t t = 0; t < r->target_names.list.len; t++)
				n += f->status[t * STATUS_COUNT + (size_t)s];
			strbuf_addf(&p->out, "<td class=\"n%s\">%zu</td>",
				    n && s != STATUS_OK && s != STATUS_SKIPPED ? " bad" : "", n);
		}
		strbuf_addf(&p->out, "<td>%s</td></tr>\n", h->has_asm ? "kept" : "—");
	}
	strbuf_addstr(&p->out, "</table></div>\n");
}

static size_t shown(const struct report *r, size_t n)
{
	return r->opts->top && r->opts->top < n ? r->opts->top : n;
}

struct failure {
	enum record_status status;
	const char *kind;
	uint32_t example;	/* a row */
	size_t count;
};

static int cmp_failures(const void *a, const void *b)
{
	const struct failure *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->status != y->status)
		return (int)x->status - (int)y->status;
	return strcmp(x->kind, y->kind);
}

/* The last run's errors, crashes and timeouts, grouped by the shape of their
 * message (diag_message_shape: no location, numbers and quoted names aside),
 * so that one failure of many files is one row. */
static void failures(struct page *p, const struct report *r)
{
	const struct run *last = &r->runs[1];
	ARRAY(struct failure) list = ARRAY_INIT;
	struct strmap by_kind = STRMAP_INIT;
	struct strbuf shape = STRBUF_INIT, key = STRBUF_INIT;
	for (size_t row = 0; r->last >= 0 && row < last->rows.len; row++) {
		enum record_status st = (enum record_status)last->rows.data[row].status;
		if (st == STATUS_OK || st == STATUS_SKIPPED)
			continue;
		const char *msg = run_message(last, row);
		bool is_new;
		diag_message_shape(msg ? msg : "", &shape);
		strbuf_reset(&key);
		strbuf_addf(&key, "%d %s", (int)st, shape.buf);
		struct strmap_entry *e = strmap_put(&by_kind, key.buf, key.len, &is_new);
		if (is_new) {
			const char *kind = arena_strdup(&p->scratch, shape.buf);
			array_push(&list, (struct failure){ st, kind, (uint32_t)row, 0 });
			e->value = (void *)(uintptr_t)list.len;
		}
		list.data[(uintptr_t)e->value - 1].count++;
	}
	strbuf_release(&shape);
	strbuf_release(&key);
	strbuf_addstr(&p->out, "<div><h3>Failures in the last run</h3>\n");
	if (!list.len)
		strbuf_addstr(&p->out, "<p class=\"good\">None: every record is ok or skipped.</p>\n");
	else {
		qsort(list.data, list.len, sizeof(struct failure), cmp_failures);
		strbuf_addstr(&p->out, "<table class=\"sortable\"><tr><th class=\"n\">Records</th>"
				       "<th>Status</th>"
				       "<th>Message</th><th>For example</th></tr>\n");
		for (size_t i = 0; i < shown(r, list.len); i++) {
			const struct failure *f = &list.data[i];
			const char *target = run_target(last, f->example);
			strbuf_addf(&p->out, "<tr><td class=\"n\">%zu</td><td class=\"bad\">%s</td>"
					     "<td><code>%s</code></td><td class=\"path\">%s <span "
					     "class=\"muted\">%s%s%s</span></td></tr>\n", f->count,
				    status_name(f->status), E(p, f->kind), E(p, run_path(last, f->example)),
				    E(p, run_stage(last, f->example)), *target ? " " : "", E(p, target));
		}
		strbuf_addstr(&p->out, "</table>\n");
		if (list.len > shown(r, list.len))
			strbuf_addf(&p->out, "<p class=\"muted\">%zu more kinds of failure.</p>\n",
				    list.len - shown(r, list.len));
	}
	strbuf_addstr(&p->out, "</div>\n");
	array_free(&list);
	strmap_release(&by_kind);
}

static void runs(struct page *p, const struct report *r)
{
	strbuf_addstr(&p->out, "<section id=\"history\"><h2>Runs</h2>\n");
	runs_table(p, r);
	strbuf_addstr(&p->out, "<div class=\"runs\">\n");
	figure(p, r, "status", "Records by status, all targets", "");
	failures(p, r);
	strbuf_addstr(&p->out, "</div></section>\n");
}

/* ---- status changes, lost and gained ---- */

static void status_changes(struct page *p, const struct report *r, const struct scope *s)
{
	const struct comparison *c = &s->cmp;
	if (!c->status_changes.len)
		return;
	strbuf_addf(&p->out, "<details><summary>Status changes: %zu</summary>\n"
			     "<table class=\"sortable\">\n"
			     "<tr><th>Shader</th><th>Target</th><th>Change</th><th>Message (last run)"
			     "</th></tr>\n", c->status_changes.len);
	for (size_t i = 0; i < shown(r, c->status_changes.len); i++) {
		const struct status_change *sc = &c->status_changes.data[i];
		const struct pair *pr = &c->pairs.data[sc->pair];
		const char *path, *stage, *target, *msg = run_message(c->after, pr->after);
		pair_key(c, sc->pair, &path, &stage, &target);
		strbuf_addstr(&p->out, "<tr>");
		shader_cell(p, r, path, stage, target, "");
		strbuf_addf(&p->out, "<td>%s</td><td class=\"%s\">%s: %s → %s</td><td><code>%s</code>"
				     "</td></tr>\n", E(p, target_shown(target)),
			    sc->kind == FIXED ? "good" : "bad", status_change_name(sc->kind),
			    status_name(c->before->rows.data[pr->before].status),
			    status_name(c->after->rows.data[pr->after].status), E(p, msg ? msg : ""));
	}
	strbuf_addstr(&p->out, "</table></details>\n");
}

static void row_list(struct page *p, const struct report *r, const char *what, const struct run *run,
		     const row_array *rows)
{
	if (!rows->len)
		return;
	strbuf_addf(&p->out, "<details><summary>%s: %zu</summary>\n<table class=\"sortable\">\n"
			     "<tr><th>Shader</th>"
			     "<th>Target</th><th>Status</th></tr>\n", what, rows->len);
	for (size_t i = 0; i < shown(r, rows->len); i++) {
		uint32_t row = rows->data[i];
		strbuf_addf(&p->out, "<tr><td class=\"path\">%s <span class=\"muted\">%s</span></td>"
				     "<td>%s</td><td>%s</td></tr>\n", E(p, run_path(run, row)),
			    E(p, run_stage(run, row)), E(p, target_shown(run_target(run, row))),
			    status_name(run->rows.data[row].status));
	}
	strbuf_addstr(&p->out, "</table></details>\n");
}

static void scope_details(struct page *p, const struct report *r, const struct scope *s)
{
	comparison_line(p, s);
	comparison_table(p, s);
	groups_table(p, s, "app", &s->cmp.by_app, r->opts->top);
	status_changes(p, r, s);
	row_list(p, r, "Lost (in the previous run only)", s->cmp.before, &s->cmp.lost);
	row_list(p, r, "Gained (in the last run only)", s->cmp.after, &s->cmp.gained);
}

static void top_lists(struct page *p, const struct report *r, const struct scope *s);

/* The comparison of all targets, when no target's section shows it. */
static void last_two(struct page *p, const struct report *r)
{
	const struct scope *all = r->scopes.len ? r->scopes.data[0] : NULL;
	for (size_t t = 0; all && t < r->targets.len; t++)
		if (r->targets.data[t].scope == all)
			return;
	if (!all)
		return;
	strbuf_addf(&p->out, "<section id=\"last\"><h2>Last two runs, all targets: %s → %s</h2>\n",
		    run_ref(p, r, r->prev), run_ref(p, r, r->last));
	scope_details(p, r, all);
	if (r->scopes.len == 1)
		top_lists(p, r, all);
	strbuf_addstr(&p->out, "</section>\n");
}

/* ---- targets ---- */

static void change_row(struct page *p, const struct report *r, const struct scope *s,
		       const struct stat_cmp *sc, const struct change *ch, bool regressions,
		       bool first_seen)
{
	const char *path, *stage, *target;
	pair_key(&s->cmp, ch->pair, &path, &stage, &target);
	strbuf_addf(&p->out, "<tr data-list=\"%s\" data-scope=\"%s\" data-stat=\"%s\" "
			     "data-path=\"%s\" data-stage=\"%s\">", regressions ? "hurt" : "helped",
		    E(p, s->name), E(p, sc->info->key), E(p, path), E(p, stage));
	shader_cell(p, r, path, stage, target, "");
	strbuf_addf(&p->out, "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n %s\">%s</td>",
		    N(p, ch->before), N(p, ch->after),
		    change_class(sc->info->higher_better, ch->before, ch->after),
		    P(p, rel_change(ch->before, ch->after)));
	if (first_seen) {
		long w = watch_find(r, path, stage, target, sc->info->key);
		int first = w >= 0 ? r->watches.data[w].first_run : -1;
		strbuf_addf(&p->out, "<td>%s</td>", w < 0 ? "" : first == r->last ? "new" :
			    run_ref(p, r, first));
	}
	strbuf_addstr(&p->out, "</tr>\n");
}

static void change_list(struct page *p, const struct report *r, const struct scope *s,
			const struct stat_cmp *sc, bool regressions)
{
	const change_array *list = regressions ? &sc->hurt : &sc->helped;
	strbuf_addf(&p->out, "<div><h3>%s: %zu</h3>\n", regressions ? "Regressions" : "Improvements",
		    list->len);
	if (!list->len) {
		strbuf_addstr(&p->out, "</div>\n");
		return;
	}
	strbuf_addf(&p->out, "<table class=\"sortable\"><tr><th>Shader</th><th class=\"n\">Before</th>"
			     "<th class=\"n\">"
			     "After</th><th class=\"n\">Change</th>%s</tr>\n",
		    regressions && sc->verdict == VERDICT_HURT ? "<th>First as bad</th>" : "");
	for (size_t i = 0; i < shown(r, list->len); i++)
		change_row(p, r, s, sc, &list->data[i], regressions,
			   regressions && sc->verdict == VERDICT_HURT);
	strbuf_addstr(&p->out, "</table></div>\n");
}

static void top_lists(struct page *p, const struct report *r, const struct scope *s)
{
	const struct stat_cmp *open = distribution_stat(s);
	bool any = false;
	for (size_t k = 0; k < s->cmp.stats.len; k++) {
		const struct stat_cmp *sc = &s->cmp.stats.data[k];
		if (!sc->helped.len && !sc->hurt.len)
			continue;
		if (!any)
			strbuf_addf(&p->out, "<h3>Top regressions and improvements (%zu per list)</h3>\n",
				    r->opts->top);
		any = true;
		strbuf_addf(&p->out, "<details%s><summary>%s <code>%s</code>: %zu hurt, %zu helped"
				     "</summary>\n<div class=\"lists\">\n", sc == open ? " open=\"open\"" : "",
			    E(p, sc->info->display), E(p, sc->info->key), sc->hurt.len, sc->helped.len);
		change_list(p, r, s, sc, true);
		change_list(p, r, s, sc, false);
		strbuf_addstr(&p->out, "</div></details>\n");
	}
}

static void target_section(struct page *p, const struct report *r, size_t t)
{
	const struct target_info *ti = &r->targets.data[t];
	const struct scope *s = ti->scope;
	if (*ti->name)
		strbuf_addf(&p->out, "<section id=\"%s\"><h2>Target %s</h2>\n", ti->file, E(p, ti->name));
	else
		strbuf_addf(&p->out, "<section id=\"%s\"><h2>Records without a target</h2>\n", ti->file);
	if (ti->has_stats) {
		strbuf_addstr(&p->out, "<div class=\"charts\">\n");
		for (size_t c = 0; c < num_trend_charts; c++) {
			if (!chart_applies(r, t, &trend_charts[c]))
				continue;
			const char *file = arena_printf(&p->scratch, "%s-%s", ti->file, trend_charts[c].id);
			double lo, hi;
			bool band = trend_band(r, t, &trend_charts[c], &lo, &hi);
			figure(p, r, file, arena_printf(&p->scratch, "%s: total over ok records",
							trend_charts[c].title),
			       !band ? "" : arena_printf(&p->scratch, "; <b class=\"bad\">y axis not "
							 "from 0</b>: %s to %s", N(p, lo), N(p, hi)));
		}
		if (has_distribution(s))
			figure(p, r, arena_printf(&p->scratch, "%s-dist", ti->file),
			       arena_printf(&p->scratch, "Change per shader of %s, last two runs",
					    E(p, distribution_stat(s)->info->display)), "");
		strbuf_addstr(&p->out, "</div>\n");
	}
	if (s) {
		strbuf_addf(&p->out, "<h3>Last two runs: %s → %s</h3>\n", run_ref(p, r, r->prev),
			    run_ref(p, r, r->last));
		if (s->all)
			scope_details(p, r, s);
		else {
			comparison_line(p, s);
			comparison_table(p, s);
		}
		top_lists(p, r, s);
	} else {
		strbuf_addf(&p->out, "<p class=\"note\">%s</p>\n", r->prev < 0 ?
			    "Only one run could be read: nothing to compare." : "Not in the last two runs.");
	}
	strbuf_addstr(&p->out, "</section>\n");
}

int write_index(struct report *r)
{
	struct page p;
	struct strbuf path = STRBUF_INIT;
	page_begin(&p, r->last >= 0 ? arena_printf(&r->arena, "shdb report: %s",
						   hist_run(r, r->last)->label) : "shdb report");
	header(&p, r);
	problems(&p, r);
	alerts(&p, r);
	runs(&p, r);
	if (r->prev >= 0)
		last_two(&p, r);
	for (size_t t = 0; t < r->targets.len; t++)
		if (r->targets.data[t].has_stats || r->targets.data[t].scope)
			target_section(&p, r, t);
	strbuf_addstr(&p.out, "</main>\n");
	page_end(&p);
	strbuf_addf(&path, "%s/index.html", r->opts->out);
	int ret = page_write(&p, path.buf, &r->diag);
	page_release(&p);
	strbuf_release(&path);
	return ret;
}
