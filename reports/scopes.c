/*
 * The last two runs compared, with cmp/'s engine and its default options, so
 * every number and verdict is the one `shdb cmp` prints:
 *
 *	scope "all targets"  = shdb cmp PREV LAST
 *	scope "a630"         = shdb cmp --target a630 PREV LAST
 *
 * A target's scope compares copies of the two runs holding that target's
 * records only, which is what --target's filter keeps.  With a single target
 * and no records without one, the two would be the same comparison: there
 * is only the `all` scope, named after the target.
 *
 * Alerts: the statistics of a scope whose verdict is helped or HURT (the
 * 95% t-intervals of the mean change lie on one side of 0).  For each shader
 * of a HURT statistic, the first run in the history where its value was
 * already as bad as in the last run (>= for lower-is-better, <= for
 * higher-is-better): the last run for a new regression, an earlier one for a
 * regression that had been seen, fixed and came back.
 */
#include "reports/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- a target's records ---- */

/* Copy the records of `target` in `src` into `dst`, in order, as the
 * readers hand them to run_add_record. */
static void subset_run(struct run *dst, const struct run *src, const char *target)
{
	struct diag diag = DIAG_INIT;
	struct reader rd = READER_INIT(&diag, run_add_record, dst);
	ARRAY(struct stat_pair) pairs = ARRAY_INIT;
	run_init(dst);
	dst->source = src->source;
	dst->kind = src->kind;
	dst->label = xstrdup(src->label);
	dst->date = src->date ? xstrdup(src->date) : NULL;
	dst->git_commit = src->git_commit ? xstrdup(src->git_commit) : NULL;
	dst->reader = &rd;
	long t = names_find(&src->targets, target, strlen(target));
	for (size_t row = 0; t >= 0 && row < src->rows.len; row++) {
		const struct run_row *rw = &src->rows.data[row];
		if (rw->target != t)
			continue;
		pairs.len = 0;
		for (size_t k = 0; k < src->cols.len; k++) {
			double v;
			const struct column *c = src->cols.data[k];
			if (column_get(c, row, &v))
				array_push(&pairs, (struct stat_pair){ { c->name, strlen(c->name) }, v });
		}
		const char *msg = run_message(src, row);
		struct record rec = {
			.path = { run_path(src, row), strlen(run_path(src, row)) },
			.stage = { run_stage(src, row), strlen(run_stage(src, row)) },
			.target = { target, strlen(target) },
			.message = { msg ? msg : "", msg ? strlen(msg) : 0 },
			.status = (enum record_status)rw->status,
			.time_us = rw->time_us < 0 ? NAN : rw->time_us, .stats = pairs.data, .nstats = pairs.len,
			.line = (int)rw->line,
		};
		run_add_record(dst, &rec);
	}
	dst->reader = NULL;
	reader_release(&rd);
	array_free(&pairs);
	diag_release(&diag);
}

/* ---- scopes ---- */

static struct scope *add_scope(struct report *r, const char *name, bool all)
{
	struct scope *s = xcalloc(1, sizeof(*s));
	s->name = xstrdup(name);
	s->all = all;
	array_push(&r->scopes, s);
	return s;
}

static void find_alerts(struct scope *s)
{
	for (size_t k = 0; k < s->cmp.stats.len; k++) {
		enum verdict v = s->cmp.stats.data[k].verdict;
		if (v == VERDICT_HELPED || v == VERDICT_HURT)
			array_push_zero(&s->alerts)->stat = k;
	}
}

static void compare_scope(struct report *r, struct scope *s)
{
	struct strbuf err = STRBUF_INIT;
	const struct run *b = &r->runs[0], *a = &r->runs[1];
	if (!s->all) {
		subset_run(&s->before, b, s->name);
		subset_run(&s->after, a, s->name);
		b = &s->before;
		a = &s->after;
	}
	if (!compare_runs(&s->cmp, b, a, &r->cmp_opts, &err))
		BUG("a comparison of every statistic failed: %s", err.buf);
	find_alerts(s);
	strbuf_release(&err);
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The targets of the last two runs, sorted (strings of the runs); whether
 * some record has none. */
static void last_targets(const struct report *r, name_array *out, bool *untargeted)
{
	struct names seen = NAMES_INIT;
	*untargeted = false;
	for (int side = 0; side < 2; side++) {
		const struct names *t = &r->runs[side].targets;
		for (size_t i = 0; i < t->list.len; i++) {
			const char *name = t->list.data[i];
			if (!*name)
				*untargeted = true;
			else if (names_find(&seen, name, strlen(name)) < 0)
				array_push(out, name);
			names_intern(&seen, name, strlen(name));
		}
	}
	names_release(&seen);
	if (out->len > 1)
		qsort(out->data, out->len, sizeof(char *), cmp_cstr);
}

void report_compare(struct report *r)
{
	name_array targets = ARRAY_INIT;
	bool untargeted;
	last_targets(r, &targets, &untargeted);
	bool single = targets.len == 1 && !untargeted;
	compare_scope(r, add_scope(r, single ? targets.data[0] : "all targets", true));
	for (size_t i = 0; !single && i < targets.len; i++)
		compare_scope(r, add_scope(r, targets.data[i], false));
	array_free(&targets);
}

/* ---- what to follow through the history ---- */

void pair_key(const struct comparison *c, uint32_t pair, const char **path, const char **stage,
	      const char **target)
{
	uint32_t row = c->pairs.data[pair].before;
	*path = run_path(c->before, row);
	*stage = run_stage(c->before, row);
	*target = run_target(c->before, row);
}

static void follow_list(struct report *r, const struct comparison *c, const change_array *list)
{
	size_t n = r->opts->top && r->opts->top < list->len ? r->opts->top : list->len;
	for (size_t i = 0; i < n; i++) {
		const char *path, *stage, *target;
		pair_key(c, list->data[i].pair, &path, &stage, &target);
		follow(r, path, stage, target);
	}
}

static void watch_alert(struct report *r, struct scope *s, struct alert *a)
{
	const struct stat_cmp *sc = &s->cmp.stats.data[a->stat];
	if (sc->verdict != VERDICT_HURT)
		return;
	for (size_t i = 0; i < sc->hurt.len; i++) {
		const char *path, *stage, *target;
		pair_key(&s->cmp, sc->hurt.data[i].pair, &path, &stage, &target);
		array_push(&a->watches, watch(r, path, stage, target, sc->info, sc->hurt.data[i].after));
	}
}

/* The statistics of a detail page, the shaders of the lists of each target's
 * section, the shaders of each regression. */
void report_choose(struct report *r)
{
	const struct comparison *all = &r->scopes.data[0]->cmp;
	for (size_t k = 0; k < all->stats.len; k++)
		array_push(&r->follow_keys, all->stats.data[k].info->key);
	for (size_t k = 0; k < all->only_before.len; k++)
		array_push(&r->follow_keys, all->only_before.data[k]);
	for (size_t k = 0; k < all->only_after.len; k++)
		array_push(&r->follow_keys, all->only_after.data[k]);
	for (size_t i = 0; i < r->scopes.len; i++) {
		struct scope *s = r->scopes.data[i];
		bool listed = r->scopes.len == 1 || !s->all;
		for (size_t k = 0; listed && k < s->cmp.stats.len; k++) {
			follow_list(r, &s->cmp, &s->cmp.stats.data[k].hurt);
			follow_list(r, &s->cmp, &s->cmp.stats.data[k].helped);
		}
		for (size_t k = 0; k < s->alerts.len; k++)
			watch_alert(r, s, &s->alerts.data[k]);
	}
}

void report_first_runs(struct report *r)
{
	for (size_t w = 0; w < r->watches.len; w++)
		for (size_t i = 0; i < r->hist.runs.len && r->watches.data[w].first_run < 0; i++)
			if (r->facts[i].loaded && r->facts[i].as_bad[w])
				r->watches.data[w].first_run = (int)i;
}

struct scope *scope_of_target(const struct report *r, const char *target)
{
	/* records without a target only: the `all` scope is theirs */
	if (!*target)
		return r->scopes.len == 1 && !strcmp(r->scopes.data[0]->name, "all targets") ?
		       r->scopes.data[0] : NULL;
	for (size_t i = 0; i < r->scopes.len; i++) {
		struct scope *s = r->scopes.data[i];
		if (!strcmp(s->name, target) && (!s->all || r->scopes.len == 1))
			return s;
	}
	return NULL;
}

void report_release_scopes(struct report *r)
{
	for (size_t i = 0; i < r->scopes.len; i++) {
		struct scope *s = r->scopes.data[i];
		comparison_release(&s->cmp);
		for (size_t k = 0; k < s->alerts.len; k++)
			array_free(&s->alerts.data[k].watches);
		array_free(&s->alerts);
		if (!s->all) {
			run_release(&s->before);
			run_release(&s->after);
		}
		free(s->name);
		free(s);
	}
	array_free(&r->scopes);
}
