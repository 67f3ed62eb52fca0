/*
 * One pass over the history (report.h, step 3): each run is read once, on
 * one of opts->jobs threads, reduced to its facts (totals per target and
 * statistic, status counts, the followed shaders' values, the watched
 * regressions), and released, so memory holds a few runs at a time whatever
 * the history's length.  The last two runs are loaded already (scopes.c) and
 * are not read again.
 *
 * Threads write only their own run's facts; names (targets, statistics) are
 * numbered afterwards, in history order, on one thread: the result does not
 * depend on which thread read what.
 */
#include "reports/report.h"

#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- what to look at ---- */

static void add_key(struct strbuf *key, const char *s)
{
	strbuf_add(key, s, strlen(s) + 1);
}

static void shader_key(struct strbuf *key, const char *path, const char *stage, const char *target)
{
	strbuf_reset(key);
	add_key(key, path);
	add_key(key, stage);
	add_key(key, target);
}

long followed_find(const struct report *r, const char *path, const char *stage,
		   const char *target)
{
	struct strbuf key = STRBUF_INIT;
	shader_key(&key, path, stage, target);
	uintptr_t v = (uintptr_t)strmap_get(&r->followed_by_key, key.buf, key.len);
	strbuf_release(&key);
	return (long)v - 1;
}

/* A detail page's name: a hash of the key, so links stay the same from one
 * night's report to the next; a clash (unlikely) gets a suffix. */
static char *page_name(struct report *r, const char *key, size_t len)
{
	uint64_t h = hash_bytes(key, len);
	struct strbuf name = STRBUF_INIT;
	for (int n = 1;; n++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "shaders/%016llx", (unsigned long long)h);
		if (n > 1)
			strbuf_addf(&name, "-%d", n);
		strbuf_addstr(&name, ".html");
		bool is_new;
		strmap_put(&r->pages, name.buf, name.len, &is_new);
		if (is_new)
			break;
	}
	char *page = arena_strdup(&r->arena, name.buf);
	strbuf_release(&name);
	return page;
}

size_t follow(struct report *r, const char *path, const char *stage, const char *target)
{
	struct strbuf key = STRBUF_INIT;
	bool is_new;
	shader_key(&key, path, stage, target);
	struct strmap_entry *e = strmap_put(&r->followed_by_key, key.buf, key.len, &is_new);
	if (is_new) {
		struct followed *f = array_push_zero(&r->followed);
		f->path = arena_strdup(&r->arena, path);
		f->stage = arena_strdup(&r->arena, stage);
		f->target = arena_strdup(&r->arena, target);
		f->page = page_name(r, key.buf, key.len);
		e->value = (void *)(uintptr_t)r->followed.len;
	}
	strbuf_release(&key);
	return (size_t)(uintptr_t)e->value - 1;
}

size_t watch(struct report *r, const char *path, const char *stage, const char *target,
	     const struct stat_info *info, double bad)
{
	struct strbuf key = STRBUF_INIT;
	bool is_new;
	shader_key(&key, path, stage, target);
	add_key(&key, info->key);
	struct strmap_entry *e = strmap_put(&r->watch_by_key, key.buf, key.len, &is_new);
	if (is_new) {
		array_push(&r->watches, (struct watch){
			.path = arena_strdup(&r->arena, path), .stage = arena_strdup(&r->arena, stage),
			.target = arena_strdup(&r->arena, target), .key = arena_strdup(&r->arena, info->key),
			.bad = bad, .higher_better = info->higher_better, .first_run = -1 });
		e->value = (void *)(uintptr_t)r->watches.len;
	}
	strbuf_release(&key);
	return (size_t)(uintptr_t)e->value - 1;
}

long watch_find(const struct report *r, const char *path, const char *stage, const char *target,
		const char *key)
{
	struct strbuf k = STRBUF_INIT;
	shader_key(&k, path, stage, target);
	add_key(&k, key);
	uintptr_t v = (uintptr_t)strmap_get(&r->watch_by_key, k.buf, k.len);
	strbuf_release(&k);
	return (long)v - 1;
}

/* ---- the facts of one run ---- */

/* Totals with the run's own target and column numbers; renumbered later. */
struct local_totals {
	ARRAY(char *) targets;
	ARRAY(char *) keys;
	size_t *status;		/* [target * STATUS_COUNT + status] */
	double *sum;		/* [target * keys + key] */
	bool *has;
};

struct job {
	struct report *r;
	size_t run;
	struct local_totals t;
	struct diag diag;
};

static void local_totals(const struct run *run, struct local_totals *t)
{
	size_t nt = run->targets.list.len, nk = run->cols.len;
	for (size_t i = 0; i < nt; i++)
		array_push(&t->targets, xstrdup(run->targets.list.data[i]));
	for (size_t k = 0; k < nk; k++)
		array_push(&t->keys, xstrdup(run->cols.data[k]->info->key));
	t->status = xcalloc(nt * STATUS_COUNT + 1, sizeof(size_t));
	t->sum = xcalloc(nt * nk + 1, sizeof(double));
	t->has = xcalloc(nt * nk + 1, sizeof(bool));
	for (size_t row = 0; row < run->rows.len; row++) {
		const struct run_row *rw = &run->rows.data[row];
		t->status[rw->target * STATUS_COUNT + rw->status]++;
		if (rw->status != STATUS_OK)
			continue;
		for (size_t k = 0; k < nk; k++) {
			double v;
			if (column_get(run->cols.data[k], row, &v)) {
				t->sum[rw->target * nk + k] += v;
				t->has[rw->target * nk + k] = true;
			}
		}
	}
}

/* The row of (path, stage, target) in `run`, or -1. */
static long find_row(const struct run *run, const char *path, const char *stage, const char *target)
{
	long p = names_find(&run->paths, path, strlen(path));
	long s = names_find(&run->stages, stage, strlen(stage));
	long t = names_find(&run->targets, target, strlen(target));
	if (p < 0 || s < 0 || t < 0)
		return -1;
	return run_find(run, (uint32_t)p, (uint32_t)s, (uint32_t)t);
}

static bool value_of(const struct run *run, const char *key, long row, double *v)
{
	const struct column *c = row >= 0 ? run_column(run, key) : NULL;
	return c && column_get(c, (size_t)row, v);
}

static void followed_facts(const struct report *r, const struct run *run, struct run_facts *f)
{
	size_t nk = r->follow_keys.len;
	const struct column **cols = xcalloc(nk + 1, sizeof(*cols));
	for (size_t k = 0; k < nk; k++)
		cols[k] = run_column(run, r->follow_keys.data[k]);
	f->fstatus = xmalloc(r->followed.len + 1);
	f->fvalues = xmalloc((r->followed.len * nk + 1) * sizeof(double));
	for (size_t i = 0; i < r->followed.len; i++) {
		const struct followed *fw = &r->followed.data[i];
		long row = find_row(run, fw->path, fw->stage, fw->target);
		f->fstatus[i] = row < 0 ? ABSENT : run->rows.data[row].status;
		for (size_t k = 0; k < nk; k++) {
			double v = NAN;
			if (row >= 0 && cols[k] && !column_get(cols[k], (size_t)row, &v))
				v = NAN;
			f->fvalues[i * nk + k] = v;
		}
	}
	free(cols);
}

static void watch_facts(const struct report *r, const struct run *run, struct run_facts *f)
{
	f->as_bad = xcalloc(r->watches.len + 1, 1);
	for (size_t i = 0; i < r->watches.len; i++) {
		const struct watch *w = &r->watches.data[i];
		long row = find_row(run, w->path, w->stage, w->target);
		double v;
		if (row >= 0 && run->rows.data[row].status == STATUS_OK && value_of(run, w->key, row, &v))
			f->as_bad[i] = w->higher_better ? v <= w->bad : v >= w->bad;
	}
}

static void run_facts(struct job *j, const struct run *run)
{
	struct run_facts *f = &j->r->facts[j->run];
	f->loaded = true;
	f->records = run->rows.len;
	local_totals(run, &j->t);
	followed_facts(j->r, run, f);
	watch_facts(j->r, run, f);
}

static void do_job(struct job *j)
{
	struct report *r = j->r;
	if ((long)j->run == r->prev || (long)j->run == r->last) {
		run_facts(j, &r->runs[(long)j->run == r->last]);
		return;
	}
	struct run run;
	if (r->failed && r->failed[j->run])
		return;	/* its messages are given already */
	if (history_load(&r->hist, j->run, &run, &j->diag) == 0)
		run_facts(j, &run);
	run_release(&run);
}

/* ---- threads ---- */

struct queue {
	pthread_mutex_t lock;
	struct job *jobs;
	size_t next, n;
};

static void *worker(void *arg)
{
	struct queue *q = arg;
	for (;;) {
		pthread_mutex_lock(&q->lock);
		size_t i = q->next < q->n ? q->next++ : q->n;
		pthread_mutex_unlock(&q->lock);
		if (i == q->n)
			return NULL;
		do_job(&q->jobs[i]);
	}
}

static void run_jobs(struct queue *q, int nthreads)
{
	pthread_t *threads = xcalloc((size_t)nthreads + 1, sizeof(pthread_t));
	int started = 0;
	json_object_seed(0);	/* jansson's hash seed, before threads use it */
	for (; started < nthreads - 1; started++)
		if (pthread_create(&threads[started], NULL, worker, q))
			break;
	worker(q);
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
}

/* ---- numbering ---- */

/* Move a run's local totals to the report's numbering. */
static void renumber(struct report *r, struct job *j)
{
	struct run_facts *f = &r->facts[j->run];
	size_t nt = r->target_names.list.len, nk = r->keys.list.len, lk = j->t.keys.len;
	f->status = xcalloc(nt * STATUS_COUNT + 1, sizeof(size_t));
	f->sum = xmalloc((nt * nk + 1) * sizeof(double));
	for (size_t i = 0; i < nt * nk; i++)
		f->sum[i] = NAN;
	for (size_t t = 0; t < j->t.targets.len; t++) {
		const char *tn = j->t.targets.data[t];
		size_t gt = (size_t)names_find(&r->target_names, tn, strlen(tn));
		for (int s = 0; s < STATUS_COUNT; s++)
			f->status[gt * STATUS_COUNT + (size_t)s] += j->t.status[t * STATUS_COUNT + (size_t)s];
		for (size_t k = 0; k < lk; k++) {
			const char *kn = j->t.keys.data[k];
			size_t gk = (size_t)names_find(&r->keys, kn, strlen(kn));
			if (j->t.has[t * lk + k])
				f->sum[gt * nk + gk] = j->t.sum[t * lk + k];
		}
	}
}

static void free_local(struct local_totals *t)
{
	for (size_t i = 0; i < t->targets.len; i++)
		free(t->targets.data[i]);
	for (size_t i = 0; i < t->keys.len; i++)
		free(t->keys.data[i]);
	array_free(&t->targets);
	array_free(&t->keys);
	free(t->status);
	free(t->sum);
	free(t->has);
}

static int cmp_targets(const void *a, const void *b)
{
	return strcmp(((const struct target_info *)a)->name, ((const struct target_info *)b)->name);
}

/* A name safe in a file name and in a gnuplot string: letters, digits, '.',
 * '-', '_'; everything else '_', at most 32 characters. */
static char *safe_name(struct report *r, size_t index, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "t%zu-", index + 1);
	for (size_t i = 0; name[i] && i < 32; i++) {
		char c = name[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '-' || c == '_' || c == '.';
		strbuf_addch(&sb, ok ? c : '_');
	}
	if (!*name)
		strbuf_addstr(&sb, "none");
	char *s = arena_strdup(&r->arena, sb.buf);
	strbuf_release(&sb);
	return s;
}

static void list_targets(struct report *r)
{
	size_t nk = r->keys.list.len;
	for (size_t t = 0; t < r->target_names.list.len; t++) {
		struct target_info *ti = array_push_zero(&r->targets);
		ti->name = r->target_names.list.data[t];
		ti->id = t;
		for (size_t i = 0; i < r->hist.runs.len && !ti->has_stats; i++)
			for (size_t k = 0; r->facts[i].loaded && k < nk && !ti->has_stats; k++)
				ti->has_stats = !isnan(r->facts[i].sum[t * nk + k]);
	}
	if (r->targets.len > 1)
		qsort(r->targets.data, r->targets.len, sizeof(struct target_info), cmp_targets);
	for (size_t i = 0; i < r->targets.len; i++) {
		struct target_info *ti = &r->targets.data[i];
		ti->file = safe_name(r, i, ti->name);
		ti->scope = scope_of_target(r, ti->name);
	}
}

void report_collect(struct report *r)
{
	size_t n = r->hist.runs.len;
	struct queue q = { .jobs = xcalloc(n + 1, sizeof(struct job)), .n = n };
	pthread_mutex_init(&q.lock, NULL);
	r->facts = xcalloc(n + 1, sizeof(struct run_facts));
	for (size_t i = 0; i < n; i++)
		q.jobs[i] = (struct job){ .r = r, .run = i, .diag = DIAG_INIT };
	run_jobs(&q, r->opts->jobs < (int)n ? r->opts->jobs : (int)n);
	pthread_mutex_destroy(&q.lock);

	/* names in history order, then every run in those numbers */
	for (size_t i = 0; i < n; i++) {
		struct job *j = &q.jobs[i];
		strbuf_addstr(&r->diag.text, j->diag.text.buf);
		r->diag.errors += j->diag.errors;
		r->diag.warnings += j->diag.warnings;
		for (size_t t = 0; t < j->t.targets.len; t++)
			names_intern(&r->target_names, j->t.targets.data[t], strlen(j->t.targets.data[t]));
		for (size_t k = 0; k < j->t.keys.len; k++)
			names_intern(&r->keys, j->t.keys.data[k], strlen(j->t.keys.data[k]));
	}
	for (size_t i = 0; i < n; i++) {
		if (r->facts[i].loaded)
			renumber(r, &q.jobs[i]);
		free_local(&q.jobs[i].t);
		diag_release(&q.jobs[i].diag);
	}
	free(q.jobs);
	list_targets(r);
}

void report_release_collect(struct report *r)
{
	for (size_t i = 0; r->facts && i < r->hist.runs.len; i++) {
		free(r->facts[i].status);
		free(r->facts[i].sum);
		free(r->facts[i].fstatus);
		free(r->facts[i].fvalues);
		free(r->facts[i].as_bad);
	}
	free(r->facts);
	names_release(&r->target_names);
	names_release(&r->keys);
	array_free(&r->targets);
	array_free(&r->followed);
	strmap_release(&r->followed_by_key);
	strmap_release(&r->pages);
	array_free(&r->watches);
	strmap_release(&r->watch_by_key);
	array_free(&r->follow_keys);
}

double run_total(const struct report *r, size_t run, size_t target, const char *key)
{
	long k = names_find(&r->keys, key, strlen(key));
	if (k < 0 || !r->facts[run].loaded)
		return NAN;
	return r->facts[run].sum[target * r->keys.list.len + (size_t)k];
}
