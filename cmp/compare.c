/*
 * Comparing two runs (see compare.h), in phases:
 *	1. match the records of both runs by (path, stage, target);
 *	2. sort out statuses: lost, gained, newly failing, fixed …;
 *	3. choose the statistics, name the apps, find the pairs whose loops changed;
 *	4. per statistic, and per target and app: totals, helped and hurt, their
 *	   summaries, the intervals.
 */
#include "cmp/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/bitset.h"
#include "stats/stage.h"

/* ---- 1. matching ---- */

/* For each id of `from`, the id of the same name in `to`, or -1. */
static long *translate(const struct names *from, const struct names *to)
{
	long *map = xmalloc((from->list.len + 1) * sizeof(*map));
	for (size_t i = 0; i < from->list.len; i++)
		map[i] = names_find(to, from->list.data[i], strlen(from->list.data[i]));
	return map;
}

/* Stages in any spelling: a Mesa shader-db log's "FRAG" meets a shdb run's
 * "fragment". */
static long *translate_stages(const struct names *from, const struct names *to)
{
	long *map = translate(from, to);
	for (size_t i = 0; i < from->list.len; i++) {
		enum shader_stage s = stage_from_name(from->list.data[i]);
		if (map[i] >= 0 || s == STAGE_NONE)
			continue;
		for (size_t j = 0; j < to->list.len && map[i] < 0; j++)
			if (stage_from_name(to->list.data[j]) == s)
				map[i] = (long)j;
	}
	return map;
}

/* The id of the one target a run names (records without a target aside),
 * or -1 when it names none or several. */
static long single_target(const struct names *t)
{
	long found = -1;
	for (size_t i = 0; i < t->list.len; i++) {
		if (!*t->list.data[i])
			continue;
		if (found >= 0)
			return -1;
		found = (long)i;
	}
	return found;
}

/* The id of "" (records without a target: a Mesa log's, a front-end
 * failure's), or -1. */
static long no_target(const struct names *t)
{
	return names_find(t, "", 0);
}

/* The before run's stage, target and path ids in the after run.  `bare` is
 * the after run's "" for a before record without a target whose mapped
 * target has no record (a front-end failure in a run of one target). */
struct id_maps {
	long *stage, *target, *path;
	long bare;
};

/* A run whose records name no target (a Mesa shader-db log) against a run
 * of one target (shdb run -t a630, or --target a630; its records without a
 * target, front-end failures, aside): they meet on it. */
static void translate_targets(const struct names *from, const struct names *to, struct id_maps *m)
{
	long fb = no_target(from), tb = no_target(to);
	long fn = single_target(from), tn = single_target(to);
	m->target = translate(from, to);
	m->bare = -1;
	if (fb >= 0 && from->list.len == 1 && tn >= 0) {
		m->target[fb] = tn;
		m->bare = tb;
	} else if (tb >= 0 && to->list.len == 1 && fn >= 0) {
		m->target[fn] = tb;
	}
}

/* The after row of a before row, or -1. */
static long match_row(const struct run *b, const struct run *a, const struct id_maps *m, size_t row)
{
	const struct run_row *r = &b->rows.data[row];
	long stage = m->stage[r->stage], target = m->target[r->target], path = m->path[r->path];
	if (stage < 0 || target < 0 || path < 0)
		return -1;
	long found = run_find(a, (uint32_t)path, (uint32_t)stage, (uint32_t)target);
	if (found < 0 && m->bare >= 0)
		found = run_find(a, (uint32_t)path, (uint32_t)stage, (uint32_t)m->bare);
	return found;
}

static void match(struct comparison *c)
{
	const struct run *b = c->before, *a = c->after;
	struct id_maps m = { .stage = translate_stages(&b->stages, &a->stages),
			     .path = translate(&b->paths, &a->paths) };
	translate_targets(&b->targets, &a->targets, &m);
	bitset_word *matched = xcalloc(BITSET_WORDS(a->rows.len) + 1, sizeof(bitset_word));
	array_reserve(&c->pairs, b->rows.len);
	for (size_t row = 0; row < b->rows.len; row++) {
		long other = match_row(b, a, &m, row);
		if (other < 0) {
			array_push(&c->lost, (uint32_t)row);
			continue;
		}
		bitset_set(matched, (size_t)other);
		array_push(&c->pairs, (struct pair){ .before = (uint32_t)row, .after = (uint32_t)other,
						     .target = b->rows.data[row].target });
	}
	for (size_t row = 0; row < a->rows.len; row++)
		if (!bitset_test(matched, row))
			array_push(&c->gained, (uint32_t)row);
	free(matched);
	free(m.stage);
	free(m.target);
	free(m.path);
}

/* ---- 2. statuses ---- */

static int cmp_rows_by_name(const struct run *run, uint32_t x, uint32_t y)
{
	const struct run_row *rx = &run->rows.data[x], *ry = &run->rows.data[y];
	int d = strcmp(run->paths.list.data[rx->path], run->paths.list.data[ry->path]);
	if (!d)
		d = strcmp(run->stages.list.data[rx->stage], run->stages.list.data[ry->stage]);
	if (!d)
		d = strcmp(run->targets.list.data[rx->target], run->targets.list.data[ry->target]);
	return d;
}

/* qsort_r comparators get the run (or comparison) as their context */
static int cmp_row_names(const void *x, const void *y, void *run)
{
	return cmp_rows_by_name(run, *(const uint32_t *)x, *(const uint32_t *)y);
}

static int cmp_status_changes(const void *x, const void *y, void *ctx)
{
	const struct comparison *c = ctx;
	const struct status_change *sx = x, *sy = y;
	if (sx->kind != sy->kind)
		return (int)sx->kind - (int)sy->kind;
	return cmp_rows_by_name(c->before, c->pairs.data[sx->pair].before,
				c->pairs.data[sy->pair].before);
}

static enum status_change_kind change_kind(enum record_status from, enum record_status to)
{
	if (to == STATUS_CRASH)
		return NEWLY_CRASHING;
	if (from == STATUS_OK)
		return NEWLY_FAILING;
	return to == STATUS_OK ? FIXED : STATUS_CHANGED;
}

static void sort_statuses(struct comparison *c)
{
	for (size_t i = 0; i < c->pairs.len; i++) {
		enum record_status from = c->before->rows.data[c->pairs.data[i].before].status;
		enum record_status to = c->after->rows.data[c->pairs.data[i].after].status;
		if (from == STATUS_OK && to == STATUS_OK)
			c->both_ok++;
		if (from == to)
			continue;
		struct status_change sc = { (uint32_t)i, change_kind(from, to) };
		array_push(&c->status_changes, sc);
		c->status_counts[sc.kind]++;
	}
	/* (qsort's array may not be NULL, even when empty) */
	if (c->lost.len > 1)
		qsort_r(c->lost.data, c->lost.len, sizeof(uint32_t), cmp_row_names, (void *)c->before);
	if (c->gained.len > 1)
		qsort_r(c->gained.data, c->gained.len, sizeof(uint32_t), cmp_row_names, (void *)c->after);
	if (c->status_changes.len > 1)
		qsort_r(c->status_changes.data, c->status_changes.len, sizeof(struct status_change),
			cmp_status_changes, c);
}

/* ---- 3. statistics, apps, loops ---- */

static void add_stat(struct comparison *c, const struct column *bcol, const struct column *acol)
{
	struct stat_cmp *s = array_push_zero(&c->stats);
	s->info = bcol->info;
	s->name = bcol->name;
	s->bcol = bcol;
	s->acol = acol;
}

static void all_stats(struct comparison *c)
{
	for (size_t i = 0; i < c->before->cols.len; i++) {
		const struct column *bcol = c->before->cols.data[i];
		const struct column *acol = run_column(c->after, bcol->info->key);
		if (acol)
			add_stat(c, bcol, acol);
		else
			array_push(&c->only_before, bcol->info->key);
	}
	for (size_t i = 0; i < c->after->cols.len; i++) {
		const struct column *acol = c->after->cols.data[i];
		if (!run_column(c->before, acol->info->key))
			array_push(&c->only_after, acol->info->key);
	}
}

/* A name from --stat: a key, a Mesa name, an alias, or report.py's
 * "instructions" for ir3's inst. */
static const struct column *named_column(const struct run *run, const char *name)
{
	const struct stat_info *info = stat_lookup(name, strlen(name));
	const struct column *col = run_column(run, info ? info->key : name);
	if (!col && !strcmp(name, "instructions"))
		col = run_column(run, "inst");
	return col;
}

static bool chosen_stats(struct comparison *c, struct strbuf *err)
{
	for (size_t i = 0; i < c->opts->nstats; i++) {
		const char *name = c->opts->stats[i];
		const struct column *bcol = named_column(c->before, name);
		const struct column *acol = named_column(c->after, name);
		if (bcol && acol)
			add_stat(c, bcol, acol);
		else if (bcol || acol)
			array_push(bcol ? &c->only_before : &c->only_after, name);
		else {
			strbuf_addf(err, "statistic '%s' is in neither run", name);
			return false;
		}
	}
	return true;
}

/* Directory components shared by every path, keeping at least one of each
 * path's own: "shaders/app_a/1.shader_test", "shaders/app_b/2.shader_test"
 * share "shaders/", so the apps are app_a and app_b. */
static size_t common_dirs(const struct comparison *c)
{
	const char *first = NULL;
	size_t common = SIZE_MAX;
	for (size_t i = 0; i < c->pairs.len && common; i++) {
		const char *p = run_path(c->before, c->pairs.data[i].before);
		size_t dirs = 0, same = 0;
		bool equal = true;
		first = first ? first : p;
		for (size_t k = 0; p[k]; k++) {
			equal = equal && p[k] == first[k];
			if (p[k] == '/') {
				dirs++;
				same += equal;
			}
		}
		size_t keep = dirs ? dirs - 1 : 0;
		common = same < common ? same : common;
		common = keep < common ? keep : common;
	}
	return common == SIZE_MAX ? 0 : common;
}

/* The app of a path: `app_depth` directories after the first `skip` ones,
 * or "." when none is left. */
static uint32_t app_of(struct comparison *c, const char *path, size_t skip)
{
	const char *start = path, *end = path, *slash;
	for (size_t i = 0; i < skip; i++)
		start = strchr(start, '/') + 1;
	int taken = 0;
	for (; taken < c->opts->app_depth && (slash = strchr(taken ? end + 1 : start, '/')); taken++)
		end = slash;
	if (!taken)
		return names_intern(&c->apps, ".", 1);
	return names_intern(&c->apps, start, (size_t)(end - start));
}

static void name_apps(struct comparison *c)
{
	size_t skip = common_dirs(c);
	size_t npaths = c->before->paths.list.len;
	uint32_t *app_of_path = xmalloc((npaths + 1) * sizeof(uint32_t));
	memset(app_of_path, 0xff, (npaths + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < c->pairs.len; i++) {
		uint32_t path = c->before->rows.data[c->pairs.data[i].before].path;
		if (app_of_path[path] == UINT32_MAX)
			app_of_path[path] = app_of(c, c->before->paths.list.data[path], skip);
		c->pairs.data[i].app = app_of_path[path];
	}
	free(app_of_path);
}

static bool both_ok(const struct comparison *c, const struct pair *p)
{
	return c->before->rows.data[p->before].status == STATUS_OK &&
	       c->after->rows.data[p->after].status == STATUS_OK;
}

/* Pairs whose loop count changed (both have one, and it differs). */
static bitset_word *loops_changed(const struct comparison *c)
{
	bitset_word *set = xcalloc(BITSET_WORDS(c->pairs.len) + 1, sizeof(bitset_word));
	const struct column *bl = run_column(c->before, "loops");
	const struct column *al = run_column(c->after, "loops");
	double b, a;
	for (size_t i = 0; bl && al && i < c->pairs.len; i++)
		if (column_get(bl, c->pairs.data[i].before, &b) &&
		    column_get(al, c->pairs.data[i].after, &a) && a != b)
			bitset_set(set, i);
	return set;
}

/* ---- 4. the statistics ---- */

/* Running sums of one statistic. */
struct stat_acc {
	bool guarded;			/* left out of pairs whose loops changed */
	struct ksum tb, ta, ab, aa;
};

/* One pass over the pairs, every statistic of a pair in turn: the rows of a
 * pair are looked at once, and the columns are read in step. */
struct pair_pass {
	struct comparison *c;
	const bitset_word *loops;	/* pairs whose loops changed */
	bitset_word *affected;		/* pairs where some statistic changed */
	struct stat_acc *acc;		/* one per statistic */
};

static void add_to_group(struct group_cmp *g, size_t stat, double b, double a)
{
	if (!g)
		return;
	g->before[stat] += b;
	g->after[stat] += a;
}

static void count_stat(struct pair_pass *pp, uint32_t i, size_t k, bool loops_changed,
		       struct group_cmp *gt, struct group_cmp *ga)
{
	struct stat_cmp *s = &pp->c->stats.data[k];
	struct stat_acc *acc = &pp->acc[k];
	const struct pair *p = &pp->c->pairs.data[i];
	double b, a;
	if (!column_get(s->bcol, p->before, &b) || !column_get(s->acol, p->after, &a))
		return;
	if (loops_changed && acc->guarded) {
		s->loop_skipped++;
		return;
	}
	s->shared++;
	ksum_add(&acc->tb, b);
	ksum_add(&acc->ta, a);
	add_to_group(gt, k, b, a);
	add_to_group(ga, k, b, a);
	if (a == b)
		return;
	ksum_add(&acc->ab, b);
	ksum_add(&acc->aa, a);
	bitset_set(pp->affected, i);
	bool hurt = (a > b) != s->info->higher_better;
	array_push(hurt ? &s->hurt : &s->helped, (struct change){ i, b, a });
}

static void count_pair(struct pair_pass *pp, uint32_t i)
{
	struct comparison *c = pp->c;
	const struct pair *p = &c->pairs.data[i];
	if (!both_ok(c, p))
		return;
	bool loops_changed = !c->opts->ignore_loops && bitset_test(pp->loops, i);
	struct group_cmp *gt = &c->by_target.data[p->target];
	struct group_cmp *ga = c->by_app.len ? &c->by_app.data[p->app] : NULL;
	for (size_t k = 0; k < c->stats.len; k++)
		count_stat(pp, i, k, loops_changed, gt, ga);
	bool hit = bitset_test(pp->affected, i);
	c->affected += hit;
	gt->shared++;
	gt->affected += hit;
	if (ga) {
		ga->shared++;
		ga->affected += hit;
	}
}

double rel_change(double before, double after)
{
	if (after == before)
		return 0;
	if (before == 0)
		return after > before ? INFINITY : -INFINITY;
	return (after - before) / before;
}

/* The lists of most helped and hurt shaders: by relative change (report.py's
 * order, report-fossil.py's --rel-changes), or by absolute change
 * (--abs-changes); ties by the other, then in the before run's order. */
static int cmp_by(double x1, double y1, double x2, double y2)
{
	if (x1 != y1)
		return x1 > y1 ? -1 : 1;
	return x2 != y2 ? (x2 > y2 ? -1 : 1) : 0;
}

static int most_changed(const struct change *cx, const struct change *cy, bool by_abs)
{
	double rx = fabs(rel_change(cx->before, cx->after)), ry = fabs(rel_change(cy->before, cy->after));
	double ax = fabs(cx->after - cx->before), ay = fabs(cy->after - cy->before);
	int d = by_abs ? cmp_by(ax, ay, rx, ry) : cmp_by(rx, ry, ax, ay);
	return d ? d : (cx->pair > cy->pair) - (cx->pair < cy->pair);
}

static int cmp_most_changed(const void *x, const void *y)
{
	return most_changed(x, y, false);
}

static int cmp_most_changed_abs(const void *x, const void *y)
{
	return most_changed(x, y, true);
}

/* min, max, mean, median of |a - b| and |a - b| / b (0 when b = 0), as report.py. */
static void summarize(const struct change *ch, size_t n, struct change_summary *out)
{
	if (!n)
		return;
	double *abs_v = xmalloc(n * sizeof(double)), *rel_v = xmalloc(n * sizeof(double));
	out->rel_undefined = true;
	for (size_t i = 0; i < n; i++) {
		abs_v[i] = fabs(ch[i].before - ch[i].after);
		rel_v[i] = ch[i].before == 0 ? 0 : abs_v[i] / ch[i].before;
		out->rel_undefined &= ch[i].before == 0;
	}
	out->abs_mean = mean_of(abs_v, n);
	out->rel_mean = mean_of(rel_v, n);
	sort_doubles(abs_v, n);
	sort_doubles(rel_v, n);
	out->abs_min = abs_v[0];
	out->abs_max = abs_v[n - 1];
	out->abs_median = median_sorted(abs_v, n);
	out->rel_min = rel_v[0];
	out->rel_max = rel_v[n - 1];
	out->rel_median = median_sorted(rel_v, n);
	free(abs_v);
	free(rel_v);
}

static enum verdict judge(const struct stat_cmp *s)
{
	const struct mean_ci *v = &s->ci_value, *r = &s->ci_rel;
	if (v->lo < 0 && v->hi > 0)
		return VERDICT_INCONCLUSIVE_VALUE;
	if (r->lo < 0 && r->hi > 0)
		return VERDICT_INCONCLUSIVE_REL;
	if ((v->lo < 0) != (r->lo < 0))
		return VERDICT_INCONCLUSIVE_DISAGREE;
	bool decreased = v->lo < 0;
	return decreased != s->info->higher_better ? VERDICT_HELPED : VERDICT_HURT;
}

/* The t-intervals of the mean of a - b and of (a - b) / b over the changes. */
static void intervals(struct stat_cmp *s)
{
	size_t n = s->helped.len + s->hurt.len;
	if (n <= 3 || (s->info->flags & STAT_NO_CI))
		return;
	double *value = xmalloc(n * sizeof(double)), *rel = xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const struct change *ch = i < s->helped.len ? &s->helped.data[i]
							    : &s->hurt.data[i - s->helped.len];
		value[i] = ch->after - ch->before;
		rel[i] = ch->before == 0 ? 0 : (ch->after - ch->before) / ch->before;
	}
	s->ci_rel_undefined = true;
	for (size_t i = 0; i < n; i++)
		s->ci_rel_undefined &= (i < s->helped.len ? &s->helped.data[i]
							  : &s->hurt.data[i - s->helped.len])->before == 0;
	s->has_ci = mean_confidence_interval(value, n, 0.95, &s->ci_value) &&
		    mean_confidence_interval(rel, n, 0.95, &s->ci_rel);
	s->verdict = s->has_ci ? judge(s) : VERDICT_NONE;
	free(value);
	free(rel);
}

/* Totals, intervals, summaries and order of one statistic after the pass. */
static void finish_stat(struct stat_cmp *s, const struct stat_acc *acc, bool by_abs)
{
	int (*order)(const void *, const void *) = by_abs ? cmp_most_changed_abs : cmp_most_changed;
	s->total_before = ksum_value(&acc->tb);
	s->total_after = ksum_value(&acc->ta);
	s->affected_before = ksum_value(&acc->ab);
	s->affected_after = ksum_value(&acc->aa);
	intervals(s);
	summarize(s->helped.data, s->helped.len, &s->helped_sum);
	summarize(s->hurt.data, s->hurt.len, &s->hurt_sum);
	if (s->helped.len > 1)
		qsort(s->helped.data, s->helped.len, sizeof(struct change), order);
	if (s->hurt.len > 1)
		qsort(s->hurt.data, s->hurt.len, sizeof(struct change), order);
}

static void compare_stats(struct comparison *c)
{
	struct pair_pass pp = {
		.c = c, .loops = loops_changed(c),
		.affected = xcalloc(BITSET_WORDS(c->pairs.len) + 1, sizeof(bitset_word)),
		.acc = xcalloc(c->stats.len + 1, sizeof(struct stat_acc)),
	};
	for (size_t k = 0; k < c->stats.len; k++)
		pp.acc[k].guarded = strcmp(c->stats.data[k].info->key, "loops") != 0;
	for (size_t i = 0; i < c->pairs.len; i++)
		count_pair(&pp, (uint32_t)i);
	for (size_t k = 0; k < c->stats.len; k++)
		finish_stat(&c->stats.data[k], &pp.acc[k], c->opts->by_abs);
	free((void *)pp.loops);
	free(pp.affected);
	free(pp.acc);
}

/* ---- groups ---- */

static void make_groups(struct comparison *c, group_array *groups, size_t n, const char *const *names)
{
	size_t nstats = c->stats.len;
	for (size_t i = 0; i < n; i++) {
		struct group_cmp *g = array_push_zero(groups);
		g->name = names[i];
		g->before = xcalloc(nstats + 1, sizeof(double));
		g->after = xcalloc(nstats + 1, sizeof(double));
	}
}

static void free_groups(group_array *groups)
{
	for (size_t i = 0; i < groups->len; i++) {
		free(groups->data[i].before);
		free(groups->data[i].after);
	}
	array_free(groups);
}

/* ---- the whole ---- */

bool compare_runs(struct comparison *c, const struct run *before, const struct run *after,
		  const struct cmp_options *opts, struct strbuf *err)
{
	memset(c, 0, sizeof(*c));
	c->before = before;
	c->after = after;
	c->opts = opts;
	match(c);
	sort_statuses(c);
	if (!opts->nstats)
		all_stats(c);
	else if (!chosen_stats(c, err))
		return false;
	name_apps(c);
	make_groups(c, &c->by_target, before->targets.list.len, before->targets.list.data);
	if (c->apps.list.len <= MAX_APPS)
		make_groups(c, &c->by_app, c->apps.list.len, c->apps.list.data);
	compare_stats(c);
	return true;
}

void comparison_release(struct comparison *c)
{
	array_free(&c->pairs);
	array_free(&c->lost);
	array_free(&c->gained);
	array_free(&c->status_changes);
	for (size_t i = 0; i < c->stats.len; i++) {
		array_free(&c->stats.data[i].helped);
		array_free(&c->stats.data[i].hurt);
	}
	array_free(&c->stats);
	array_free(&c->only_before);
	array_free(&c->only_after);
	names_release(&c->apps);
	free_groups(&c->by_target);
	free_groups(&c->by_app);
}

void pair_name(const struct comparison *c, uint32_t pair, struct strbuf *out)
{
	size_t row = c->pairs.data[pair].before;
	const char *target = run_target(c->before, row);
	strbuf_addf(out, "%s %s%s%s", run_path(c->before, row), run_stage(c->before, row),
		    *target ? " " : "", target);
}

const char *verdict_text(enum verdict v)
{
	switch (v) {
	case VERDICT_NONE:
		return "";
	case VERDICT_INCONCLUSIVE_VALUE:
		return "Inconclusive result (value mean confidence interval includes 0).";
	case VERDICT_INCONCLUSIVE_REL:
		return "Inconclusive result (%-change mean confidence interval includes 0).";
	case VERDICT_INCONCLUSIVE_DISAGREE:
		return "Inconclusive result (value mean confidence interval and %-change mean "
		       "confidence interval disagree).";
	case VERDICT_HELPED:
		return "helped";
	case VERDICT_HURT:
		return "HURT";
	}
	return "";
}

const char *status_change_name(enum status_change_kind k)
{
	switch (k) {
	case NEWLY_FAILING:
		return "newly failing";
	case NEWLY_CRASHING:
		return "newly crashing";
	case FIXED:
		return "fixed";
	case STATUS_CHANGED:
		return "status changed";
	}
	return "?";
}
