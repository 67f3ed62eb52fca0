/*
 * `shdb cmp` as text for a terminal (coloured there):
 *
 *	shdb cmp: before.jsonl -> after.jsonl
 *	records: 8 -> 8; in both 7 (7 ok in both), affected 4; lost 1, gained 1
 *
 *	statistic      before  after  change  helped  HURT  verdict
 *	inst              420    407  -3.10%       3     1  inconclusive
 *	...
 *	inst: Instructions (instrs, lower is better)
 *	  total in shared programs:  420 -> 407 (-3.10%)
 *	  ...
 * then status changes, lost and gained shaders, and totals per target and per
 * app when there are several.
 */
#include "cmp/print.h"

#include <math.h>
#include <string.h>

#include "stats/table.h"

struct text_ctx {
	const struct cmp_print *p;
	struct strbuf num, pct;		/* scratch of num() and pct() */
};

static const char *num(struct text_ctx *t, double v)
{
	strbuf_reset(&t->num);
	fmt_num(&t->num, v);
	return t->num.buf;
}

static const char *pct(struct text_ctx *t, double frac)
{
	strbuf_reset(&t->pct);
	fmt_pct(&t->pct, frac);
	return t->pct.buf;
}

static const char *verdict_color(enum verdict v)
{
	return v == VERDICT_HELPED ? COLOR_GREEN : v == VERDICT_HURT ? COLOR_RED : COLOR_YELLOW;
}

static void header(struct text_ctx *t)
{
	const struct comparison *c = t->p->c;
	FILE *out = t->p->out;
	fprintf(out, "shdb cmp: %s -> %s\n", c->before->label, c->after->label);
	fprintf(out, "records: %zu -> %zu; in both %zu (%zu ok in both), affected %zu; lost %zu, gained %zu\n",
		c->before->rows.len, c->after->rows.len, c->pairs.len, c->both_ok, c->affected,
		c->lost.len, c->gained.len);
	if (c->status_changes.len)
		fprintf(out, "status: %zu newly failing, %zu newly crashing, %zu fixed, %zu changed\n",
			c->status_counts[NEWLY_FAILING], c->status_counts[NEWLY_CRASHING],
			c->status_counts[FIXED], c->status_counts[STATUS_CHANGED]);
}

static void name_list(FILE *out, const char *what, const name_array *names)
{
	if (!names->len)
		return;
	fprintf(out, "note: statistics only in %s:", what);
	for (size_t i = 0; i < names->len; i++)
		fprintf(out, " %s", names->data[i]);
	fputc('\n', out);
}

static void notes(struct text_ctx *t)
{
	const struct comparison *c = t->p->c;
	name_list(t->p->out, "before", &c->only_before);
	name_list(t->p->out, "after", &c->only_after);
	if (!c->by_app.len && c->apps.list.len)
		fprintf(t->p->out, "note: %zu apps, more than %d: no breakdown per app\n",
			c->apps.list.len, MAX_APPS);
}

static bool shown(const struct cmp_print *p, const struct stat_cmp *s)
{
	return !p->changes_only || stat_changed(s);
}

static void summary_table(struct text_ctx *t)
{
	const struct comparison *c = t->p->c;
	struct text_table tab;
	table_init(&tab, "lrrrrrl");
	const char *titles[] = { "statistic", "before", "after", "change", "helped", "HURT", "verdict" };
	for (size_t i = 0; i < 7; i++)
		table_add(&tab, NULL, "%s", titles[i]);
	for (size_t i = 0; i < c->stats.len; i++) {
		const struct stat_cmp *s = &c->stats.data[i];
		if (!shown(t->p, s))
			continue;
		table_add(&tab, NULL, "%s", s->info->key);
		table_add(&tab, NULL, "%s", num(t, s->total_before));
		table_add(&tab, NULL, "%s", num(t, s->total_after));
		table_add(&tab, direction_color(s->info, s->total_before, s->total_after), "%s",
			  s->total_before == s->total_after ? "." :
			  pct(t, rel_change(s->total_before, s->total_after)));
		table_add(&tab, s->helped.len ? COLOR_GREEN : NULL, "%zu", s->helped.len);
		table_add(&tab, s->hurt.len ? COLOR_RED : NULL, "%zu", s->hurt.len);
		table_add(&tab, verdict_color(s->verdict), "%s", verdict_word(s->verdict));
	}
	fputc('\n', t->p->out);
	if (table_rows(&tab) > 1)
		table_print(&tab, t->p->out, "", t->p->color);
	else
		fputs("No changes.\n", t->p->out);
	table_release(&tab);
}

static void side_summary(struct text_ctx *t, const char *title, const struct change_summary *s)
{
	struct strbuf line = STRBUF_INIT;
	strbuf_addf(&line, "  %-6s abs min ", title);
	fmt_num(&line, s->abs_min);
	strbuf_addstr(&line, ", max ");
	fmt_num(&line, s->abs_max);
	strbuf_addf(&line, ", mean %.2f, median ", s->abs_mean);
	fmt_num(&line, s->abs_median);
	if (s->rel_undefined) {
		strbuf_addstr(&line, "; rel n/a (all from 0)");
		goto done;
	}
	strbuf_addstr(&line, "; rel min ");
	fmt_pct_mag(&line, s->rel_min);
	strbuf_addstr(&line, ", max ");
	fmt_pct_mag(&line, s->rel_max);
	strbuf_addstr(&line, ", mean ");
	fmt_pct_mag(&line, s->rel_mean);
	strbuf_addstr(&line, ", median ");
	fmt_pct_mag(&line, s->rel_median);
done:
	fprintf(t->p->out, "%s\n", line.buf);
	strbuf_release(&line);
}

static void interval(struct text_ctx *t, const struct stat_cmp *s)
{
	FILE *out = t->p->out;
	if (!s->has_ci)
		return;
	fprintf(out, "  95%% mean confidence interval: value %.2f .. %.2f; %%-change ",
		s->ci_value.lo, s->ci_value.hi);
	if (s->ci_rel_undefined) {
		fprintf(out, "n/a (all from 0)\n");
	} else {
		fprintf(out, "%s", pct(t, s->ci_rel.lo));
		fprintf(out, " .. %s\n", pct(t, s->ci_rel.hi));
	}
	struct strbuf line = STRBUF_INIT;
	if (s->verdict == VERDICT_HELPED || s->verdict == VERDICT_HURT)
		strbuf_addf(&line, "%s are %s.", s->info->display, verdict_text(s->verdict));
	else
		strbuf_addstr(&line, verdict_text(s->verdict));
	fputs("  ", out);
	struct strbuf colored = STRBUF_INIT;
	strbuf_add_colored(&colored, t->p->color, verdict_color(s->verdict), line.buf);
	fprintf(out, "%s\n", colored.buf);
	strbuf_release(&colored);
	strbuf_release(&line);
}

static void shader_list(struct text_ctx *t, const struct stat_cmp *s, const char *title,
			const change_array *changes)
{
	size_t n = list_len(t->p, changes->len);
	if (!n || t->p->summary)
		return;
	fprintf(t->p->out, "  %s%s:\n", title,
		t->p->c->opts->by_abs ? " (by absolute change)" : "");
	struct text_table tab;
	struct strbuf name = STRBUF_INIT;
	table_init(&tab, "lrl");
	table_add(&tab, NULL, "shader");
	table_add(&tab, NULL, "%s", s->info->key);
	table_add(&tab, NULL, "change");
	for (size_t i = 0; i < n; i++) {
		const struct change *ch = &changes->data[i];
		strbuf_reset(&name);
		pair_name(t->p->c, ch->pair, &name);
		table_add(&tab, NULL, "%s", name.buf);
		table_add(&tab, NULL, "%s", num(t, ch->before));
		table_add(&tab, NULL, "-> %s (%s)", num(t, ch->after),
			  pct(t, rel_change(ch->before, ch->after)));
	}
	table_print(&tab, t->p->out, "    ", false);
	if (n < changes->len)
		fprintf(t->p->out, "    … and %zu more\n", changes->len - n);
	table_release(&tab);
	strbuf_release(&name);
}

static void details(struct text_ctx *t, const struct stat_cmp *s)
{
	FILE *out = t->p->out;
	struct strbuf line = STRBUF_INIT;
	fprintf(out, "\n%s: %s (%s%s%s)\n", s->info->key, s->info->display, s->info->unit,
		*s->info->unit ? ", " : "", better_text(s->info));
	fmt_change(&line, s->total_before, s->total_after);
	fprintf(out, "  total in shared programs:   %s\n", line.buf);
	strbuf_reset(&line);
	fmt_change(&line, s->affected_before, s->affected_after);
	fprintf(out, "  in affected programs:       %s\n", line.buf);
	fprintf(out, "  helped: %zu, HURT: %zu", s->helped.len, s->hurt.len);
	if (s->loop_skipped)
		fprintf(out, " (%zu left out: their loop count changed)", s->loop_skipped);
	fputc('\n', out);
	if (s->helped.len)
		side_summary(t, "helped", &s->helped_sum);
	if (s->hurt.len)
		side_summary(t, "HURT", &s->hurt_sum);
	interval(t, s);
	shader_list(t, s, "most helped", &s->helped);
	shader_list(t, s, "most HURT", &s->hurt);
	strbuf_release(&line);
}

static void row_list(struct text_ctx *t, const char *title, const struct run *run,
		     const row_array *rows)
{
	const struct cmp_print *p = t->p;
	size_t n = list_len(p, rows->len);
	if (!n)
		return;
	fprintf(p->out, "\n%s (%zu):\n", title, rows->len);
	for (size_t i = 0; i < n; i++) {
		const char *target = run_target(run, rows->data[i]);
		fprintf(p->out, "  %s %s%s%s\n", run_path(run, rows->data[i]),
			run_stage(run, rows->data[i]), *target ? " " : "", target);
	}
	if (n < rows->len)
		fprintf(p->out, "  … and %zu more\n", rows->len - n);
}

static void status_list(struct text_ctx *t)
{
	const struct comparison *c = t->p->c;
	size_t n = list_len(t->p, c->status_changes.len);
	if (!n)
		return;
	fprintf(t->p->out, "\nstatus changes (%zu):\n", c->status_changes.len);
	struct strbuf name = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		const struct status_change *sc = &c->status_changes.data[i];
		const struct pair *pr = &c->pairs.data[sc->pair];
		const char *msg = run_message(c->after, pr->after);
		strbuf_reset(&name);
		pair_name(c, sc->pair, &name);
		fprintf(t->p->out, "  %s: %s -> %s%s%s\n", name.buf,
			status_name(c->before->rows.data[pr->before].status),
			status_name(c->after->rows.data[pr->after].status), msg ? ": " : "",
			msg ? msg : "");
	}
	if (n < c->status_changes.len)
		fprintf(t->p->out, "  … and %zu more\n", c->status_changes.len - n);
	strbuf_release(&name);
}

static void groups(struct text_ctx *t, const char *title, const group_array *groups)
{
	struct text_table tab;
	size_t cut = group_table(t->p, title, groups, false, &tab);
	if (table_rows(&tab) > 1) {
		fputc('\n', t->p->out);
		table_print(&tab, t->p->out, "", t->p->color);
	}
	if (cut)
		fprintf(t->p->out, "… and %zu more\n", cut);
	table_release(&tab);
}

void cmp_print_text(const struct cmp_print *p)
{
	const struct comparison *c = p->c;
	struct text_ctx t = { .p = p, .num = STRBUF_INIT, .pct = STRBUF_INIT };
	header(&t);
	notes(&t);
	summary_table(&t);
	for (size_t i = 0; i < c->stats.len; i++)
		if (stat_changed(&c->stats.data[i]))
			details(&t, &c->stats.data[i]);
	if (!p->summary) {
		status_list(&t);
		row_list(&t, "LOST", c->before, &c->lost);
		row_list(&t, "GAINED", c->after, &c->gained);
	}
	if (c->by_target.len > 1)
		groups(&t, "target", &c->by_target);
	if (c->by_app.len > 1)
		groups(&t, "app", &c->by_app);
	strbuf_release(&t.num);
	strbuf_release(&t.pct);
}
