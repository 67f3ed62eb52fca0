/*
 * Summarising a run; see summary.h.  One pass per statistic gathers the
 * values of each group, sorts them and reads the percentiles off.
 */
#include "stats/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/hash.h"
#include "stats/describe.h"

typedef ARRAY(double) double_array;

static bool choose_columns(struct run_summary *s, const struct summary_options *o,
			   struct strbuf *err)
{
	for (size_t i = 0; i < o->nstats; i++) {
		const struct stat_info *info = stat_lookup(o->stats[i], strlen(o->stats[i]));
		const struct column *col = run_column(s->run, info ? info->key : o->stats[i]);
		if (!col) {
			strbuf_addf(err, "statistic '%s' is not in %s", o->stats[i], s->run->label);
			return false;
		}
		array_push(&s->cols, col);
	}
	for (size_t i = 0; !o->nstats && i < s->run->cols.len; i++)
		array_push(&s->cols, s->run->cols.data[i]);
	return true;
}

static char *group_name(const struct run *run, const struct run_row *r, enum group_by by)
{
	const char *target = run->targets.list.data[r->target];
	const char *stage = run->stages.list.data[r->stage];
	struct strbuf sb = STRBUF_INIT;
	if (by == BY_TARGET || (by == BY_TARGET_STAGE && *target))
		strbuf_addstr(&sb, *target ? target : "(no target)");
	if (by == BY_STAGE || by == BY_TARGET_STAGE)
		strbuf_addf(&sb, "%s%s", sb.len ? " " : "", stage);
	return strbuf_detach(&sb, NULL);
}

/* The group of every row; groups are numbered in order of first appearance. */
static uint32_t *assign_groups(struct run_summary *s, enum group_by by)
{
	const struct run *run = s->run;
	uint32_t *group = xmalloc((run->rows.len + 1) * sizeof(uint32_t));
	struct u64map ids = U64MAP_INIT;
	for (size_t i = 0; i < run->rows.len; i++) {
		const struct run_row *r = &run->rows.data[i];
		uint64_t key = (by == BY_STAGE ? 0 : (uint64_t)r->target << 16) |
			       (by == BY_TARGET ? 0 : r->stage), id;
		if (!u64map_get(&ids, key, &id)) {
			id = s->groups.len;
			u64map_set(&ids, key, id);
			array_push_zero(&s->groups)->name = group_name(run, r, by);
		}
		group[i] = (uint32_t)id;
	}
	u64map_release(&ids);
	return group;
}

static void count_records(struct run_summary *s, const uint32_t *group)
{
	for (size_t i = 0; i < s->run->rows.len; i++) {
		enum record_status st = s->run->rows.data[i].status;
		s->all.records++;
		s->all.status[st]++;
		if (group) {
			s->groups.data[group[i]].records++;
			s->groups.data[group[i]].status[st]++;
		}
	}
}

static struct stat_summary describe(const struct column *col, double *v, size_t n)
{
	struct stat_summary ss = { .col = col, .count = n };
	if (!n)
		return ss;
	sort_doubles(v, n);
	struct ksum k = { 0 };
	for (size_t i = 0; i < n; i++)
		ksum_add(&k, v[i]);
	ss.total = ksum_value(&k);
	ss.mean = ss.total / (double)n;
	ss.min = v[0];
	ss.max = v[n - 1];
	ss.p10 = percentile_sorted(v, n, 10);
	ss.p25 = percentile_sorted(v, n, 25);
	ss.median = percentile_sorted(v, n, 50);
	ss.p75 = percentile_sorted(v, n, 75);
	ss.p90 = percentile_sorted(v, n, 90);
	ss.p99 = percentile_sorted(v, n, 99);
	return ss;
}

/* One statistic over every group: gather the values, then describe them. */
static void summarize_column(struct run_summary *s, const struct column *col,
			     const uint32_t *group, double_array *by_group, double_array *all)
{
	const struct run *run = s->run;
	all->len = 0;
	for (size_t g = 0; g < s->groups.len; g++)
		by_group[g].len = 0;
	for (size_t i = 0; i < run->rows.len; i++) {
		double v;
		if (run->rows.data[i].status != STATUS_OK || !column_get(col, i, &v))
			continue;
		array_push(all, v);
		if (group)
			array_push(&by_group[group[i]], v);
	}
	for (size_t g = 0; g < s->groups.len; g++)
		array_push(&s->groups.data[g].stats, describe(col, by_group[g].data, by_group[g].len));
	array_push(&s->all.stats, describe(col, all->data, all->len));
}

/* The top list's order: worst first (the highest values of a lower-is-better
 * statistic, the lowest of waves), or best first; then by path. */
struct top_order {
	const struct run *run;
	bool descending;
};

static int cmp_top(const void *x, const void *y, void *order)
{
	const struct top_order *o = order;
	const struct top_entry *a = x, *b = y;
	if (a->value != b->value)
		return (a->value > b->value) == o->descending ? -1 : 1;
	int d = strcmp(run_path(o->run, a->row), run_path(o->run, b->row));
	return d ? d : (a->row > b->row) - (a->row < b->row);
}

static void top_list(struct run_summary *s, size_t n)
{
	const struct run *run = s->run;
	struct top_order order = { run, s->top_col->info->higher_better == s->best };
	for (size_t i = 0; i < run->rows.len; i++) {
		double v;
		if (run->rows.data[i].status == STATUS_OK && column_get(s->top_col, i, &v))
			array_push(&s->top, (struct top_entry){ (uint32_t)i, v });
	}
	if (s->top.len > 1)
		qsort_r(s->top.data, s->top.len, sizeof(struct top_entry), cmp_top, &order);
	if (n && s->top.len > n)
		s->top.len = n;
}

/* Power-of-two buckets: 0, 1, 2-3, 4-7, …; values below 0 go to the first. */
static size_t bucket_of(double v)
{
	if (v < 1)
		return 0;
	return 1 + (size_t)floor(log2(v));
}

static void histogram(struct run_summary *s)
{
	const struct run *run = s->run;
	for (size_t i = 0; i < run->rows.len; i++) {
		double v;
		if (run->rows.data[i].status != STATUS_OK || !column_get(s->top_col, i, &v))
			continue;
		size_t b = bucket_of(v);
		while (s->histogram.len <= b) {
			size_t k = s->histogram.len;
			double lo = k ? ldexp(1, (int)k - 1) : 0, hi = k ? ldexp(1, (int)k) - 1 : 0;
			array_push(&s->histogram, (struct histogram_bucket){ lo, hi, 0 });
		}
		s->histogram.data[b].count++;
	}
}

static bool failed(enum record_status st)
{
	return st == STATUS_ERROR || st == STATUS_CRASH || st == STATUS_TIMEOUT;
}

static void failure_list(struct run_summary *s, size_t n)
{
	for (size_t i = 0; i < s->run->rows.len; i++) {
		if (!failed(s->run->rows.data[i].status))
			continue;
		if (!n || s->nfailures < n)
			array_push(&s->failures, (uint32_t)i);
		s->nfailures++;
	}
}

bool summarize_run(struct run_summary *s, const struct run *run, const struct summary_options *o,
		   struct strbuf *err)
{
	memset(s, 0, sizeof(*s));
	s->run = run;
	s->best = o->best;
	s->all.name = xstrdup("all");
	if (!choose_columns(s, o, err))
		return false;
	uint32_t *group = o->by == BY_NONE ? NULL : assign_groups(s, o->by);
	count_records(s, group);
	double_array all = ARRAY_INIT;
	double_array *by_group = xcalloc(s->groups.len + 1, sizeof(double_array));
	for (size_t i = 0; i < s->cols.len; i++)
		summarize_column(s, s->cols.data[i], group, by_group, &all);
	for (size_t g = 0; g < s->groups.len; g++)
		array_free(&by_group[g]);
	free(by_group);
	array_free(&all);
	free(group);
	s->top_col = s->cols.len ? s->cols.data[0] : NULL;
	if (s->top_col)
		top_list(s, o->top);
	if (s->top_col && o->histogram)
		histogram(s);
	failure_list(s, o->top);
	return true;
}

static void group_release(struct group_summary *g)
{
	free(g->name);
	array_free(&g->stats);
}

void run_summary_release(struct run_summary *s)
{
	array_free(&s->cols);
	group_release(&s->all);
	for (size_t i = 0; i < s->groups.len; i++)
		group_release(&s->groups.data[i]);
	array_free(&s->groups);
	array_free(&s->top);
	array_free(&s->failures);
	array_free(&s->histogram);
}
