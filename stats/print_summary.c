/*
 * Printing a run summary (`shdb stats`) as text, Markdown, JSON or CSV.
 *
 *	shdb stats: results/a (8 records: 7 ok, 1 error)
 *
 *	a630 fragment: 4 records (4 ok)
 *	statistic  shaders  total   mean  min  p10  median   p90  max
 *	inst             4    407  101.75  38  43.1    79.5  179  190
 */
#include "stats/print_summary.h"

#include <jansson.h>
#include <math.h>

#include "stats/json_text.h"
#include "stats/markdown.h"
#include "stats/table.h"

static void status_counts(struct strbuf *sb, const struct group_summary *g)
{
	const char *sep = "";
	for (int st = 0; st < STATUS_COUNT; st++) {
		if (!g->status[st])
			continue;
		strbuf_addf(sb, "%s%zu %s", sep, g->status[st], status_name((enum record_status)st));
		sep = ", ";
	}
}

static const char *num(struct strbuf *sb, double v)
{
	strbuf_reset(sb);
	fmt_num(sb, v);
	return sb->buf;
}

/* Rows of statistics of one group; `markdown` names them with their display names. */
static void stats_table(struct text_table *t, const struct group_summary *g, bool markdown)
{
	struct strbuf sb = STRBUF_INIT;
	table_init(t, "lrrrrrrrr");
	const char *titles[] = { "statistic", "shaders", "total", "mean", "min", "p10", "median",
				 "p90", "max" };
	for (size_t i = 0; i < 9; i++)
		table_add(t, NULL, "%s", titles[i]);
	for (size_t i = 0; i < g->stats.len; i++) {
		const struct stat_summary *ss = &g->stats.data[i];
		if (markdown)
			table_add(t, NULL, "%s (`%s`)", ss->col->info->display, ss->col->info->key);
		else
			table_add(t, NULL, "%s", ss->col->info->key);
		table_add(t, NULL, "%zu", ss->count);
		if (!ss->count) {
			for (int k = 0; k < 7; k++)
				table_add(t, NULL, "-");
			continue;
		}
		table_add(t, NULL, "%s", num(&sb, ss->total));
		table_add(t, NULL, "%.2f", ss->mean);
		double cells[] = { ss->min, ss->p10, ss->median, ss->p90, ss->max };
		for (int k = 0; k < 5; k++)
			table_add(t, NULL, "%s", num(&sb, cells[k]));
	}
	strbuf_release(&sb);
}

static const struct group_summary *group_at(const struct run_summary *s, size_t i)
{
	return i == 0 ? &s->all : &s->groups.data[i - 1];
}

/* "all" first, unless a single group is all there is. */
static size_t first_group(const struct run_summary *s)
{
	return s->groups.len == 1 ? 1 : 0;
}

static void text_group(const struct summary_print *p, const struct group_summary *g)
{
	struct strbuf sb = STRBUF_INIT;
	struct text_table t;
	status_counts(&sb, g);
	fprintf(p->out, "\n%s: %zu records (%s)\n", g->name, g->records, sb.buf);
	stats_table(&t, g, false);
	if (g->stats.len)
		table_print(&t, p->out, "", p->color);
	table_release(&t);
	strbuf_release(&sb);
}

static void text_top(const struct summary_print *p)
{
	const struct run_summary *s = p->s;
	if (!s->top.len)
		return;
	fprintf(p->out, "\n%s shaders by %s:\n", s->best ? "best" : "worst", s->top_col->info->key);
	struct text_table t;
	struct strbuf sb = STRBUF_INIT;
	table_init(&t, "rl");
	table_add(&t, NULL, "%s", s->top_col->info->key);
	table_add(&t, NULL, "shader");
	for (size_t i = 0; i < s->top.len; i++) {
		uint32_t row = s->top.data[i].row;
		const char *target = run_target(s->run, row);
		table_add(&t, NULL, "%s", num(&sb, s->top.data[i].value));
		table_add(&t, NULL, "%s %s%s%s", run_path(s->run, row), run_stage(s->run, row),
			  *target ? " " : "", target);
	}
	table_print(&t, p->out, "  ", false);
	table_release(&t);
	strbuf_release(&sb);
}

/* "path stage[ target]" of a row. */
static const char *shader_name(struct strbuf *sb, const struct run *run, uint32_t row)
{
	const char *target = run_target(run, row);
	strbuf_reset(sb);
	strbuf_addf(sb, "%s %s%s%s", run_path(run, row), run_stage(run, row), *target ? " " : "",
		    target);
	return sb->buf;
}

static const char *failure_message(const struct run *run, uint32_t row)
{
	const char *msg = run_message(run, row);
	return msg ? msg : "";
}

static void text_failures(const struct summary_print *p)
{
	const struct run_summary *s = p->s;
	if (!s->nfailures)
		return;
	fprintf(p->out, "\nfailures (%zu of %zu records):\n", s->nfailures, s->all.records);
	struct text_table t;
	struct strbuf sb = STRBUF_INIT;
	table_init(&t, "lll");
	table_add(&t, NULL, "status");
	table_add(&t, NULL, "shader");
	table_add(&t, NULL, "message");
	for (size_t i = 0; i < s->failures.len; i++) {
		uint32_t row = s->failures.data[i];
		table_add(&t, NULL, "%s", status_name((enum record_status)s->run->rows.data[row].status));
		table_add(&t, NULL, "%s", shader_name(&sb, s->run, row));
		table_add(&t, NULL, "%s", failure_message(s->run, row));
	}
	table_print(&t, p->out, "  ", false);
	if (s->failures.len < s->nfailures)
		fprintf(p->out, "  … and %zu more (--top 0 lists all)\n", s->nfailures - s->failures.len);
	table_release(&t);
	strbuf_release(&sb);
}

#define BAR_WIDTH 40

static void text_histogram(const struct summary_print *p)
{
	const struct run_summary *s = p->s;
	size_t most = 0;
	for (size_t i = 0; i < s->histogram.len; i++)
		most = s->histogram.data[i].count > most ? s->histogram.data[i].count : most;
	if (!most)
		return;
	fprintf(p->out, "\nhistogram of %s:\n", s->top_col->info->key);
	struct text_table t;
	struct strbuf bar = STRBUF_INIT;
	table_init(&t, "rrl");
	table_add(&t, NULL, "%s", s->top_col->info->key);
	table_add(&t, NULL, "shaders");
	table_add(&t, NULL, "%s", "");
	size_t first = 0;
	while (!s->histogram.data[first].count)
		first++;
	for (size_t i = first; i < s->histogram.len; i++) {
		const struct histogram_bucket *b = &s->histogram.data[i];
		strbuf_reset(&bar);
		strbuf_addchars(&bar, '#', (b->count * BAR_WIDTH + most - 1) / most);
		if (b->lo == b->hi)
			table_add(&t, NULL, "%.0f", b->lo);
		else
			table_add(&t, NULL, "%.0f..%.0f", b->lo, b->hi);
		table_add(&t, NULL, "%zu", b->count);
		table_add(&t, NULL, "%s", bar.buf);
	}
	table_print(&t, p->out, "  ", false);
	table_release(&t);
	strbuf_release(&bar);
}

static void text_header(const struct summary_print *p)
{
	struct strbuf sb = STRBUF_INIT;
	status_counts(&sb, &p->s->all);
	fprintf(p->out, "shdb stats: %s (%zu records%s%s)\n", p->s->run->label, p->s->all.records,
		sb.len ? ": " : "", sb.buf);
	strbuf_release(&sb);
}

void summary_print_text(const struct summary_print *p)
{
	const struct run_summary *s = p->s;
	text_header(p);
	text_group(p, &s->all);
	for (size_t i = 0; i < s->groups.len && !p->summary; i++)
		if (s->groups.len > 1)
			text_group(p, &s->groups.data[i]);
	if (!p->summary) {
		text_top(p);
		text_failures(p);
	}
	text_histogram(p);
}

static void markdown_failures(const struct summary_print *p)
{
	const struct run_summary *s = p->s;
	if (!s->nfailures)
		return;
	fprintf(p->out, "\n#### Failures: %zu of %zu records\n\n", s->nfailures, s->all.records);
	struct text_table t;
	struct strbuf sb = STRBUF_INIT, md = STRBUF_INIT;
	table_init(&t, "lll");
	table_add(&t, NULL, "status");
	table_add(&t, NULL, "shader");
	table_add(&t, NULL, "message");
	for (size_t i = 0; i < s->failures.len; i++) {
		uint32_t row = s->failures.data[i];
		table_add(&t, NULL, "%s", status_name((enum record_status)s->run->rows.data[row].status));
		strbuf_reset(&md);
		md_code(&md, shader_name(&sb, s->run, row), false);
		table_add(&t, NULL, "%s", md.buf);
		strbuf_reset(&md);
		md_text(&md, failure_message(s->run, row), false);
		table_add(&t, NULL, "%s", md.buf);
	}
	table_print_markdown(&t, p->out);
	if (s->failures.len < s->nfailures)
		fprintf(p->out, "\n… and %zu more.\n", s->nfailures - s->failures.len);
	table_release(&t);
	strbuf_release(&sb);
	strbuf_release(&md);
}

void summary_print_markdown(const struct summary_print *p)
{
	const struct run_summary *s = p->s;
	struct strbuf sb = STRBUF_INIT;
	md_code(&sb, s->run->label, false);
	fprintf(p->out, "**shdb stats** %s: %zu records (", sb.buf, s->all.records);
	strbuf_reset(&sb);
	status_counts(&sb, &s->all);
	fprintf(p->out, "%s).\n", sb.buf);
	size_t last = p->summary ? 0 : s->groups.len;
	for (size_t i = first_group(s); i <= last; i++) {
		const struct group_summary *g = group_at(s, i);
		struct text_table t;
		strbuf_reset(&sb);
		status_counts(&sb, g);
		fprintf(p->out, "\n#### %s: %zu records (%s)\n\n", g->name, g->records, sb.buf);
		stats_table(&t, g, true);
		if (g->stats.len)
			table_print_markdown(&t, p->out);
		table_release(&t);
	}
	if (!p->summary)
		markdown_failures(p);
	strbuf_release(&sb);
}

static json_t *stat_json(const struct stat_summary *ss)
{
	json_t *o = json_pack("{s:o, s:I}", "key", json_text(ss->col->info->key), "count",
			      (json_int_t)ss->count);
	if (!ss->count)
		return o;
	double v[] = { ss->total, ss->mean, ss->min, ss->p10, ss->p25, ss->median, ss->p75,
		       ss->p90, ss->p99, ss->max };
	const char *names[] = { "total", "mean", "min", "p10", "p25", "median", "p75", "p90",
				"p99", "max" };
	for (size_t i = 0; i < 10; i++)
		json_object_set_new(o, names[i], json_real(v[i]));
	return o;
}

static json_t *group_json(const struct group_summary *g)
{
	json_t *status = json_object(), *stats = json_array();
	for (int st = 0; st < STATUS_COUNT; st++)
		json_object_set_new(status, status_name((enum record_status)st),
				    json_integer((json_int_t)g->status[st]));
	for (size_t i = 0; i < g->stats.len; i++)
		json_array_append_new(stats, stat_json(&g->stats.data[i]));
	return json_pack("{s:o, s:I, s:o, s:o}", "name", json_text(g->name), "records",
			 (json_int_t)g->records,
			 "status", status, "statistics", stats);
}

static json_t *top_json(const struct run_summary *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->top.len; i++) {
		uint32_t row = s->top.data[i].row;
		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:f}", "path",
						   json_text(run_path(s->run, row)), "stage",
						   json_text(run_stage(s->run, row)), "target",
						   json_text(run_target(s->run, row)), "value",
						   s->top.data[i].value));
	}
	return a;
}

static json_t *failures_json(const struct run_summary *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->failures.len; i++) {
		uint32_t row = s->failures.data[i];
		json_array_append_new(a, json_pack("{s:o, s:s, s:s, s:s, s:o}", "path",
						   json_text(run_path(s->run, row)), "stage",
						   run_stage(s->run, row), "target", run_target(s->run, row),
						   "status",
						   status_name((enum record_status)s->run->rows.data[row].status),
						   "message", json_text(failure_message(s->run, row))));
	}
	return a;
}

void summary_print_json(const struct summary_print *p)
{
	const struct run_summary *s = p->s;
	json_t *groups = json_array(), *hist = json_array(), *checks = json_array();
	for (size_t i = 0; i < s->groups.len && !p->summary; i++)
		json_array_append_new(groups, group_json(&s->groups.data[i]));
	for (size_t i = 0; i < s->histogram.len; i++)
		json_array_append_new(hist, json_pack("{s:f, s:f, s:I}", "lo", s->histogram.data[i].lo,
						      "hi", s->histogram.data[i].hi, "count",
						      (json_int_t)s->histogram.data[i].count));
	for (size_t i = 0; i < p->nchecks; i++)
		json_array_append_new(checks, json_pack("{s:o, s:b, s:o}", "threshold",
							json_text(p->checks[i].threshold->text),
							"crossed", p->checks[i].crossed, "reason",
							json_text(p->checks[i].reason)));
	json_t *root = json_pack("{s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o}",
				 "source", json_text(s->run->source), "label",
				 json_text(s->run->label), "kind", source_kind_name(s->run->kind),
				 "all", group_json(&s->all), "groups", groups, "top_statistic",
				 s->top_col ? json_text(s->top_col->info->key) : json_null(), "top_order",
				 json_string(s->best ? "best" : "worst"),
				 "top", p->summary ? json_array() : top_json(s), "failing",
				 (json_int_t)s->nfailures, "failures",
				 p->summary ? json_array() : failures_json(s), "histogram", hist,
				 "fail_on", checks);
	json_dumpf(root, p->out, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', p->out);
	json_decref(root);
}

static void csv_group(FILE *out, const struct group_summary *g)
{
	for (size_t i = 0; i < g->stats.len; i++) {
		const struct stat_summary *ss = &g->stats.data[i];
		fprintf(out, "\"%s\",\"%s\",%zu", g->name, ss->col->info->key, ss->count);
		double v[] = { ss->total, ss->mean, ss->min, ss->p10, ss->p25, ss->median, ss->p75,
			       ss->p90, ss->p99, ss->max };
		for (size_t k = 0; k < 10; k++) {
			if (ss->count)
				fprintf(out, ",%.10g", v[k]);
			else
				fputc(',', out);
		}
		fputc('\n', out);
	}
}

void summary_print_csv(const struct summary_print *p)
{
	fputs("group,statistic,count,total,mean,min,p10,p25,median,p75,p90,p99,max\n", p->out);
	csv_group(p->out, &p->s->all);
	for (size_t i = 0; i < p->s->groups.len && !p->summary; i++)
		csv_group(p->out, &p->s->groups.data[i]);
}
