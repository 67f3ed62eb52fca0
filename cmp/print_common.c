/*
 * Helpers shared by the comparison printers.
 */
#include "cmp/print.h"

#include <stdlib.h>
#include <string.h>

#include "stats/markdown.h"

bool stat_changed(const struct stat_cmp *s)
{
	return s->helped.len || s->hurt.len;
}

size_t list_len(const struct cmp_print *p, size_t n)
{
	return p->top && p->top < n ? p->top : n;
}

static int cmp_groups(const void *x, const void *y, void *groups)
{
	const struct group_cmp *gx = &((const group_array *)groups)->data[*(const uint32_t *)x];
	const struct group_cmp *gy = &((const group_array *)groups)->data[*(const uint32_t *)y];
	if (gx->affected != gy->affected)
		return gx->affected > gy->affected ? -1 : 1;
	return strcmp(gx->name, gy->name);
}

static void groups_by_affected(const group_array *groups, row_array *out)
{
	for (size_t i = 0; i < groups->len; i++)
		if (groups->data[i].affected || groups->len == 1)
			array_push(out, (uint32_t)i);
	if (out->len > 1)
		qsort_r(out->data, out->len, sizeof(uint32_t), cmp_groups, (void *)groups);
}

/* Green for a change for the better, red for the worse. */
const char *direction_color(const struct stat_info *info, double before, double after)
{
	if (before == after)
		return NULL;
	return (after < before) != info->higher_better ? COLOR_GREEN : COLOR_RED;
}

/* A name from the input: a code span in Markdown (stats/markdown.h). */
static void table_add_name(struct text_table *t, const char *name, bool markdown)
{
	struct strbuf sb = STRBUF_INIT;
	if (markdown)
		md_code(&sb, name, false);
	else
		strbuf_addstr(&sb, name);
	table_add(t, NULL, "%s", sb.buf);
	strbuf_release(&sb);
}

static void group_header(const struct comparison *c, const char *title, bool markdown,
			 struct text_table *t)
{
	struct strbuf align = STRBUF_INIT;
	strbuf_addstr(&align, "lrr");
	for (size_t i = 0; i < c->stats.len; i++)
		if (stat_changed(&c->stats.data[i]))
			strbuf_addch(&align, 'r');
	table_init(t, align.buf);
	strbuf_release(&align);
	table_add(t, NULL, "%s", title);
	table_add(t, NULL, "shaders");
	table_add(t, NULL, "affected");
	for (size_t i = 0; i < c->stats.len; i++)
		if (stat_changed(&c->stats.data[i]))
			table_add_name(t, c->stats.data[i].info->key, markdown);
}

static void group_row(const struct comparison *c, const struct group_cmp *g, bool markdown,
		      struct text_table *t)
{
	const char *name = *g->name ? g->name : "(none)";
	struct strbuf pct = STRBUF_INIT;
	table_add_name(t, name, markdown);
	table_add(t, NULL, "%zu", g->shared);
	table_add(t, NULL, "%zu", g->affected);
	for (size_t i = 0; i < c->stats.len; i++) {
		const struct stat_cmp *s = &c->stats.data[i];
		if (!stat_changed(s))
			continue;
		strbuf_reset(&pct);
		if (g->before[i] == g->after[i])
			strbuf_addch(&pct, '.');
		else
			fmt_pct(&pct, rel_change(g->before[i], g->after[i]));
		table_add(t, direction_color(s->info, g->before[i], g->after[i]), "%s", pct.buf);
	}
	strbuf_release(&pct);
}

size_t group_table(const struct cmp_print *p, const char *title, const group_array *groups,
		   bool markdown, struct text_table *t)
{
	row_array order = ARRAY_INIT;
	groups_by_affected(groups, &order);
	size_t n = list_len(p, order.len), cut = order.len - n;
	group_header(p->c, title, markdown, t);
	for (size_t i = 0; i < n; i++)
		group_row(p->c, &groups->data[order.data[i]], markdown, t);
	array_free(&order);
	return cut;
}

const char *better_text(const struct stat_info *info)
{
	return info->higher_better ? "higher is better" : "lower is better";
}

const char *verdict_word(enum verdict v)
{
	switch (v) {
	case VERDICT_NONE:
		return "";
	case VERDICT_INCONCLUSIVE_VALUE:
	case VERDICT_INCONCLUSIVE_REL:
	case VERDICT_INCONCLUSIVE_DISAGREE:
		return "inconclusive";
	case VERDICT_HELPED:
		return "helped";
	case VERDICT_HURT:
		return "HURT";
	}
	return "";
}

const char *verdict_brief(enum verdict v)
{
	switch (v) {
	case VERDICT_INCONCLUSIVE_VALUE:
		return "inconclusive (value CI contains 0)";
	case VERDICT_INCONCLUSIVE_REL:
		return "inconclusive (%-change CI contains 0)";
	case VERDICT_INCONCLUSIVE_DISAGREE:
		return "inconclusive (value and %-change CIs disagree)";
	default:
		return verdict_word(v);
	}
}

void fmt_intervals(struct strbuf *sb, const struct stat_cmp *s)
{
	if (!s->has_ci)
		return;
	strbuf_addf(sb, "%+.2f … %+.2f (", s->ci_value.lo, s->ci_value.hi);
	if (s->ci_rel_undefined) {
		strbuf_addstr(sb, "%-change n/a: all from 0)");
		return;
	}
	fmt_pct(sb, s->ci_rel.lo);
	strbuf_addstr(sb, " … ");
	fmt_pct(sb, s->ci_rel.hi);
	strbuf_addch(sb, ')');
}
