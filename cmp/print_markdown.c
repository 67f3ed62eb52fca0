/*
 * `shdb cmp --format=markdown`: a report to paste into a merge request.
 *
 *	**shdb cmp** `before` → `after`: 7 shaders in both, 4 affected; lost 1, gained 1.
 *
 *	| Statistic | Before | After | Change | Helped | Hurt | 95% CI of mean change: value (%-change) | Verdict |
 *	| :-- | --: | --: | --: | --: | --: | :-- | :-- |
 *	| Instructions (`inst`) | 420 | 407 | -3.10% | 3 | 1 | -12.56 … +6.06 (-12.01% … +4.84%) | inconclusive (value CI contains 0) |
 *
 * then, folded in <details>, the most helped and hurt shaders per statistic,
 * status changes, lost and gained shaders, and the totals per target and app.
 */
#include "cmp/print.h"

#include "stats/markdown.h"
#include "stats/table.h"

struct md_ctx {
	const struct cmp_print *p;
	const struct comparison *c;
	FILE *out;
	struct strbuf a, b;	/* scratch */
};

/* `s` as a code span, in `sb`. */
static const char *md_code_of(struct strbuf *sb, const char *s)
{
	strbuf_reset(sb);
	md_code(sb, s, false);
	return sb->buf;
}

static const char *md_num(struct strbuf *sb, double v)
{
	strbuf_reset(sb);
	fmt_num(sb, v);
	return sb->buf;
}

static const char *md_pct(struct strbuf *sb, double frac)
{
	strbuf_reset(sb);
	fmt_pct(sb, frac);
	return sb->buf;
}

static void headline(struct md_ctx *m)
{
	const struct comparison *c = m->c;
	strbuf_reset(&m->a);
	strbuf_addstr(&m->a, "**shdb cmp** ");
	md_code(&m->a, c->before->label, false);
	strbuf_addstr(&m->a, " → ");
	md_code(&m->a, c->after->label, false);
	fprintf(m->out, "%s: %zu shaders in both, %zu affected", m->a.buf, c->both_ok, c->affected);
	fprintf(m->out, "; lost %zu, gained %zu", c->lost.len, c->gained.len);
	if (c->status_changes.len)
		fprintf(m->out, "; newly failing %zu, newly crashing %zu, fixed %zu",
			c->status_counts[NEWLY_FAILING], c->status_counts[NEWLY_CRASHING],
			c->status_counts[FIXED]);
	fputs(".\n", m->out);
	for (int side = 0; side < 2; side++) {
		const name_array *names = side ? &c->only_after : &c->only_before;
		if (!names->len)
			continue;
		fprintf(m->out, "\nStatistics only in %s:", side ? "after" : "before");
		for (size_t i = 0; i < names->len; i++) {
			strbuf_reset(&m->a);
			md_code(&m->a, names->data[i], false);
			fprintf(m->out, " %s", m->a.buf);
		}
		fputs(".\n", m->out);
	}
}

static void ci_cell(struct md_ctx *m, struct text_table *t, const struct stat_cmp *s)
{
	strbuf_reset(&m->a);
	fmt_intervals(&m->a, s);
	table_add(t, NULL, "%s", m->a.buf);
}

static void summary_table(struct md_ctx *m)
{
	struct text_table t;
	table_init(&t, "lrrrrrll");
	const char *titles[] = { "Statistic", "Before", "After", "Change", "Helped", "Hurt",
				 "95% CI of mean change: value (%-change)", "Verdict" };
	for (size_t i = 0; i < 8; i++)
		table_add(&t, NULL, "%s", titles[i]);
	for (size_t i = 0; i < m->c->stats.len; i++) {
		const struct stat_cmp *s = &m->c->stats.data[i];
		if (m->p->changes_only && !stat_changed(s))
			continue;
		strbuf_reset(&m->a);
		md_text(&m->a, s->info->display, false);
		strbuf_addstr(&m->a, " (");
		md_code(&m->a, s->info->key, false);
		table_add(&t, NULL, "%s)", m->a.buf);
		table_add(&t, NULL, "%s", md_num(&m->a, s->total_before));
		table_add(&t, NULL, "%s", md_num(&m->a, s->total_after));
		table_add(&t, NULL, "%s", s->total_before == s->total_after ? "." :
			  md_pct(&m->a, rel_change(s->total_before, s->total_after)));
		table_add(&t, NULL, "%zu", s->helped.len);
		table_add(&t, NULL, "%zu", s->hurt.len);
		ci_cell(m, &t, s);
		table_add(&t, NULL, "%s", verdict_brief(s->verdict));
	}
	fputc('\n', m->out);
	if (table_rows(&t) > 1)
		table_print_markdown(&t, m->out);
	else
		fputs("No changes.\n", m->out);
	table_release(&t);
}

static void change_rows(struct md_ctx *m, struct text_table *t, const struct stat_cmp *s,
			const char *side, const change_array *list)
{
	struct strbuf name = STRBUF_INIT;
	for (size_t i = 0; i < list_len(m->p, list->len); i++) {
		const struct change *ch = &list->data[i];
		strbuf_reset(&name);
		pair_name(m->c, ch->pair, &name);
		table_add(t, NULL, "%s", md_code_of(&m->a, s->info->key));
		table_add(t, NULL, "%s", side);
		table_add(t, NULL, "%s", md_code_of(&m->a, name.buf));
		table_add(t, NULL, "%s", md_num(&m->a, ch->before));
		table_add(t, NULL, "%s", md_num(&m->a, ch->after));
		table_add(t, NULL, "%s", md_pct(&m->a, rel_change(ch->before, ch->after)));
	}
	strbuf_release(&name);
}

static void shader_tables(struct md_ctx *m)
{
	struct text_table t;
	table_init(&t, "lllrrr");
	const char *titles[] = { "Statistic", "", "Shader", "Before", "After", "Change" };
	for (size_t i = 0; i < 6; i++)
		table_add(&t, NULL, "%s", titles[i]);
	for (size_t i = 0; i < m->c->stats.len; i++) {
		const struct stat_cmp *s = &m->c->stats.data[i];
		change_rows(m, &t, s, "helped", &s->helped);
		change_rows(m, &t, s, "HURT", &s->hurt);
	}
	if (table_rows(&t) > 1) {
		fputs("\n<details><summary>Most helped and hurt shaders</summary>\n\n", m->out);
		table_print_markdown(&t, m->out);
		fputs("\n</details>\n", m->out);
	}
	table_release(&t);
}

static void record_list(struct md_ctx *m, const char *title, const struct run *run,
			const row_array *rows)
{
	size_t n = list_len(m->p, rows->len);
	if (!n)
		return;
	fprintf(m->out, "\n<details><summary>%s: %zu</summary>\n\n", title, rows->len);
	for (size_t i = 0; i < n; i++) {
		const char *target = run_target(run, rows->data[i]);
		strbuf_reset(&m->a);
		md_code(&m->a, run_path(run, rows->data[i]), false);
		strbuf_addch(&m->a, ' ');
		md_text(&m->a, run_stage(run, rows->data[i]), false);
		strbuf_addstr(&m->a, *target ? " " : "");
		md_text(&m->a, target, false);
		fprintf(m->out, "- %s\n", m->a.buf);
	}
	if (n < rows->len)
		fprintf(m->out, "- … and %zu more\n", rows->len - n);
	fputs("\n</details>\n", m->out);
}

static void status_list(struct md_ctx *m)
{
	const struct comparison *c = m->c;
	size_t n = list_len(m->p, c->status_changes.len);
	if (!n)
		return;
	fprintf(m->out, "\n<details><summary>Status changes: %zu</summary>\n\n", c->status_changes.len);
	struct strbuf name = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		const struct status_change *sc = &c->status_changes.data[i];
		const struct pair *pr = &c->pairs.data[sc->pair];
		strbuf_reset(&name);
		pair_name(c, sc->pair, &name);
		fprintf(m->out, "- %s: %s → %s (%s)\n", md_code_of(&m->a, name.buf),
			status_name(c->before->rows.data[pr->before].status),
			status_name(c->after->rows.data[pr->after].status), status_change_name(sc->kind));
	}
	if (n < c->status_changes.len)
		fprintf(m->out, "- … and %zu more\n", c->status_changes.len - n);
	fputs("\n</details>\n", m->out);
	strbuf_release(&name);
}

static void groups(struct md_ctx *m, const char *title, const group_array *groups)
{
	struct text_table t;
	size_t cut = group_table(m->p, title, groups, true, &t);
	if (table_rows(&t) > 1) {
		fprintf(m->out, "\n<details><summary>Per %s</summary>\n\n", title);
		table_print_markdown(&t, m->out);
		if (cut)
			fprintf(m->out, "\n… and %zu more\n", cut);
		fputs("\n</details>\n", m->out);
	}
	table_release(&t);
}

void cmp_print_markdown(const struct cmp_print *p)
{
	struct md_ctx m = { .p = p, .c = p->c, .out = p->out, .a = STRBUF_INIT, .b = STRBUF_INIT };
	headline(&m);
	summary_table(&m);
	if (!p->summary) {
		shader_tables(&m);
		status_list(&m);
		record_list(&m, "Lost", p->c->before, &p->c->lost);
		record_list(&m, "Gained", p->c->after, &p->c->gained);
	}
	if (p->c->by_target.len > 1)
		groups(&m, "target", &p->c->by_target);
	if (p->c->by_app.len > 1)
		groups(&m, "app", &p->c->by_app);
	strbuf_release(&m.a);
	strbuf_release(&m.b);
}
