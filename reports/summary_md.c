/*
 * OUT/summary.md: the report for a merge request, a chat message or an
 * e-mail: the runs, the alerts, and the comparison of the last two runs as
 * `shdb cmp --format=markdown --changes-only PREV LAST` prints it (the same
 * printer, on the same comparison).
 *
 * Strings from the history go into code spans (stats/markdown.h).
 */
#include "reports/pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp/print.h"
#include "compiler/util/file.h"
#include "stats/markdown.h"

/* A run: its label and number; `pipes` in a table row. */
static void md_run(struct strbuf *sb, const struct report *r, long i, bool pipes)
{
	md_code(sb, r->hist.runs.data[i].label, pipes);
	strbuf_addf(sb, " (#%ld)", i + 1);
}

static void header(struct strbuf *sb, const struct report *r)
{
	size_t n = r->hist.runs.len;
	strbuf_addstr(sb, "# shdb report\n\nHistory ");
	md_code(sb, r->hist.root, false);
	strbuf_addf(sb, ": %zu run%s", n, n == 1 ? "" : "s");
	if (r->last >= 0) {
		strbuf_addstr(sb, "; last run ");
		md_run(sb, r, r->last, false);
	}
	if (r->prev >= 0) {
		strbuf_addstr(sb, ", compared with ");
		md_run(sb, r, r->prev, false);
	}
	strbuf_addstr(sb, ".\n");
	if (r->diag.errors || r->diag.warnings)
		strbuf_addf(sb, "\nReading the history gave %d error%s and %d warning%s (listed on "
				"the page).\n", r->diag.errors, r->diag.errors == 1 ? "" : "s",
			    r->diag.warnings, r->diag.warnings == 1 ? "" : "s");
}

static void add_num(struct strbuf *sb, double v)
{
	fmt_num(sb, v);
}

static void alert_line(struct strbuf *sb, const struct report *r, const struct scope *s,
		       const struct alert *a)
{
	const struct stat_cmp *sc = &s->cmp.stats.data[a->stat];
	strbuf_addstr(sb, "| ");
	md_code(sb, s->name, true);
	strbuf_addstr(sb, " | ");
	md_code(sb, sc->info->key, true);
	strbuf_addstr(sb, " | ");
	add_num(sb, sc->total_before);
	strbuf_addstr(sb, " | ");
	add_num(sb, sc->total_after);
	strbuf_addstr(sb, " | ");
	fmt_pct(sb, rel_change(sc->total_before, sc->total_after));
	strbuf_addf(sb, " | %s | ", verdict_word(sc->verdict));
	if (sc->verdict == VERDICT_HURT) {
		struct first_seen *fs;
		size_t n = first_seen(r, a, &fs);
		for (size_t i = 0; i < n; i++) {
			strbuf_addstr(sb, i ? "; " : "");
			if (fs[i].run < 0) {
				strbuf_addstr(sb, "?");
			} else {
				strbuf_addstr(sb, fs[i].run == r->last ? "new in " : "");
				md_run(sb, r, fs[i].run, true);
			}
			strbuf_addf(sb, ": %zu", fs[i].shaders);
		}
		free(fs);
	}
	strbuf_addstr(sb, " |\n");
}

static void alerts(struct strbuf *sb, const struct report *r)
{
	size_t n = 0;
	strbuf_addstr(sb, "\n## Alerts\n\n");
	if (r->prev < 0) {
		strbuf_addstr(sb, "Alerts need two runs to compare.\n");
		return;
	}
	for (size_t i = 0; i < r->scopes.len; i++)
		n += r->scopes.data[i]->alerts.len;
	if (!n) {
		strbuf_addstr(sb, "No significant change.\n");
		return;
	}
	strbuf_addstr(sb, "| Scope | Statistic | Before | After | Change | Verdict | First seen "
			  "(regressed shaders) |\n| :-- | :-- | --: | --: | --: | :-- | :-- |\n");
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->scopes.len; i++) {
			const struct scope *s = r->scopes.data[i];
			for (size_t k = 0; k < s->alerts.len; k++)
				if ((s->cmp.stats.data[s->alerts.data[k].stat].verdict == VERDICT_HURT) ==
				    (pass == 0))
					alert_line(sb, r, s, &s->alerts.data[k]);
		}
}

static void runs(struct strbuf *sb, const struct report *r)
{
	size_t n = r->hist.runs.len, from = n > 10 ? n - 10 : 0;
	strbuf_addf(sb, "\n## Runs%s\n\n| # | Date | Label | Commit | Records | ok | error | crash | "
			"timeout | skipped |\n| --: | :-- | :-- | :-- | --: | --: | --: | --: | --: | --: |\n",
		    from ? " (the last 10)" : "");
	for (size_t i = n; i-- > from;) {
		const struct history_run *h = &r->hist.runs.data[i];
		strbuf_addf(sb, "| %zu | ", i + 1);
		md_code(sb, h->date ? h->date : "", true);
		strbuf_addstr(sb, " | ");
		md_code(sb, h->label, true);
		strbuf_addstr(sb, " | ");
		md_code(sb, h->commit ? h->commit : "", true);
		if (!r->facts[i].loaded) {
			strbuf_addstr(sb, " | unreadable | | | | | |\n");
			continue;
		}
		strbuf_addf(sb, " | %zu", r->facts[i].records);
		for (int s = 0; s < STATUS_COUNT; s++) {
			size_t c = 0;
			for (size_t t = 0; t < r->target_names.list.len; t++)
				c += r->facts[i].status[t * STATUS_COUNT + (size_t)s];
			strbuf_addf(sb, " | %zu", c);
		}
		strbuf_addstr(sb, " |\n");
	}
}

/* cmp's own Markdown of the comparison of every target. */
static int last_two(struct strbuf *sb, const struct report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return -1;
	struct cmp_print p = { .out = f, .c = &r->scopes.data[0]->cmp, .top = r->opts->top,
			       .changes_only = true };
	cmp_print_markdown(&p);
	if (fclose(f))
		return -1;
	strbuf_addstr(sb, "\n## Last two runs\n\n");
	strbuf_add(sb, text, len);
	free(text);
	return 0;
}

int write_summary_md(struct report *r)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT, err = STRBUF_INIT;
	header(&sb, r);
	alerts(&sb, r);
	runs(&sb, r);
	int ret = r->scopes.len ? last_two(&sb, r) : 0;
	strbuf_addf(&path, "%s/summary.md", r->opts->out);
	if (ret < 0 || write_file_atomic(path.buf, sb.buf, sb.len, &err) < 0) {
		diag_error(&r->diag, error_progname, 0, 0, "%s", err.len ? err.buf : "cannot write summary.md");
		ret = -1;
	}
	strbuf_release(&sb);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}
