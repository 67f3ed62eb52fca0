/*
 * The comparison engine on runs built in memory: matching, the direction of
 * helped and hurt, the loop guard, statuses, apps, summaries and verdicts.
 */
#include <math.h>
#include <string.h>

#include "cmp/compare.h"
#include "tap.h"

struct stat_def {
	const char *name;
	double value;
};

/* Add a record "path stage a630" with up to 4 statistics. */
static void add(struct run *run, const char *path, const char *stage, enum record_status status,
		struct stat_def s0, struct stat_def s1, struct stat_def s2)
{
	struct stat_pair pairs[3];
	size_t n = 0;
	struct stat_def defs[] = { s0, s1, s2 };
	for (size_t i = 0; i < 3; i++)
		if (defs[i].name)
			pairs[n++] = (struct stat_pair){ { defs[i].name, strlen(defs[i].name) }, defs[i].value };
	struct record r = { .path = { path, strlen(path) }, .stage = { stage, strlen(stage) },
			    .target = SPAN_LIT("a630"), .status = status, .time_us = NAN,
			    .stats = pairs, .nstats = n };
	run_add_record(run, &r);
}

#define S(n, v) ((struct stat_def){ (n), (v) })
#define NONE ((struct stat_def){ NULL, 0 })

static const struct stat_cmp *stat_named(const struct comparison *c, const char *key)
{
	for (size_t i = 0; i < c->stats.len; i++)
		if (!strcmp(c->stats.data[i].info->key, key))
			return &c->stats.data[i];
	return NULL;
}

static void build(struct run *b, struct run *a)
{
	run_init(b);
	run_init(a);
	/* waves: higher is better */
	add(b, "corpus/x/1.frag", "fragment", STATUS_OK, S("inst", 10), S("waves", 16), S("loops", 0));
	add(a, "corpus/x/1.frag", "fragment", STATUS_OK, S("inst", 8), S("waves", 8), S("loops", 0));
	/* loops changed: left out of inst and waves */
	add(b, "corpus/x/2.frag", "fragment", STATUS_OK, S("inst", 50), S("waves", 16), S("loops", 1));
	add(a, "corpus/x/2.frag", "fragment", STATUS_OK, S("inst", 90), S("waves", 4), S("loops", 0));
	/* from 0 */
	add(b, "corpus/y/3.comp", "compute", STATUS_OK, S("inst", 0), S("waves", 4), S("loops", 0));
	add(a, "corpus/y/3.comp", "compute", STATUS_OK, S("inst", 5), S("waves", 8), S("loops", 0));
	/* statuses */
	add(b, "corpus/y/4.comp", "compute", STATUS_OK, S("inst", 7), NONE, NONE);
	add(a, "corpus/y/4.comp", "compute", STATUS_CRASH, NONE, NONE, NONE);
	add(b, "corpus/y/5.comp", "compute", STATUS_ERROR, NONE, NONE, NONE);
	add(a, "corpus/y/5.comp", "compute", STATUS_OK, S("inst", 7), NONE, NONE);
	add(b, "corpus/y/6.comp", "compute", STATUS_OK, S("inst", 7), NONE, NONE);
	add(a, "corpus/y/6.comp", "compute", STATUS_TIMEOUT, NONE, NONE, NONE);
	/* lost and gained */
	add(b, "corpus/z/7.vert", "vertex", STATUS_OK, S("inst", 1), NONE, NONE);
	add(a, "corpus/z/8.vert", "vertex", STATUS_OK, S("inst", 1), NONE, NONE);
}

static void basics(void)
{
	struct run b, a;
	struct comparison c;
	struct strbuf err = STRBUF_INIT;
	struct cmp_options o = { .app_depth = 1 };
	build(&b, &a);
	ok(compare_runs(&c, &b, &a, &o, &err), "compare");
	is_int(c.pairs.len, 6, "six records in both");
	is_int(c.lost.len, 1, "one lost");
	is_int(c.gained.len, 1, "one gained");
	is_int(c.status_counts[NEWLY_CRASHING], 1, "ok -> crash is newly crashing");
	is_int(c.status_counts[NEWLY_FAILING], 1, "ok -> timeout is newly failing");
	is_int(c.status_counts[FIXED], 1, "error -> ok is fixed");
	is_int(c.both_ok, 3, "three ok in both");

	const struct stat_cmp *inst = stat_named(&c, "inst"), *waves = stat_named(&c, "waves");
	is_int(inst->shared, 2, "inst: the pair whose loops changed is left out");
	is_int(inst->loop_skipped, 1, "and counted");
	ok(inst->total_before == 10 && inst->total_after == 13, "inst totals 10 -> 13");
	is_int(inst->helped.len, 1, "10 -> 8 helps inst");
	is_int(inst->hurt.len, 1, "0 -> 5 hurts inst");
	ok(inst->hurt_sum.rel_max == 0, "the relative change from 0 counts as 0, as report.py");
	ok(isinf(rel_change(0, 5)) && rel_change(0, 0) == 0, "rel_change from 0");
	is_int(waves->helped.len, 1, "waves 4 -> 8 is helped (higher is better)");
	is_int(waves->hurt.len, 1, "waves 16 -> 8 is hurt");
	is_int(stat_named(&c, "loops")->helped.len, 1, "loops are compared themselves");
	ok(!inst->has_ci && inst->verdict == VERDICT_NONE, "no interval with 3 changes or fewer");

	is_int(c.apps.list.len, 2, "apps below the common prefix 'corpus/'");
	is_str(c.apps.list.data[c.pairs.data[0].app], "x", "the first app");
	struct strbuf name = STRBUF_INIT;
	pair_name(&c, 0, &name);
	is_str(name.buf, "corpus/x/1.frag fragment a630", "a pair's name");
	strbuf_release(&name);
	comparison_release(&c);

	o.ignore_loops = true;
	compare_runs(&c, &b, &a, &o, &err);
	is_int(stat_named(&c, "inst")->shared, 3, "--ignore-loops keeps it");
	comparison_release(&c);

	static const char *const only[] = { "instructions" };
	o = (struct cmp_options){ .stats = only, .nstats = 1, .app_depth = 2 };
	ok(compare_runs(&c, &b, &a, &o, &err) && c.stats.len == 1 && !strcmp(c.stats.data[0].info->key, "inst"),
	   "report.py's name 'instructions' selects inst");
	is_str(c.apps.list.data[0], "x", "--app-depth 2 with one level left");
	comparison_release(&c);

	static const char *const bogus[] = { "nosuch" };
	o = (struct cmp_options){ .stats = bogus, .nstats = 1, .app_depth = 1 };
	ok(!compare_runs(&c, &b, &a, &o, &err) && strstr(err.buf, "in neither run"),
	   "a statistic in neither run is refused");
	comparison_release(&c);
	run_release(&b);
	run_release(&a);
	strbuf_release(&err);
}

/* Five shaders all 10% better: conclusive; for waves, a drop is HURT. */
static void verdicts(void)
{
	struct run b, a;
	struct comparison c;
	struct strbuf err = STRBUF_INIT;
	struct cmp_options o = { .app_depth = 1 };
	run_init(&b);
	run_init(&a);
	for (int i = 0; i < 5; i++) {
		char path[16];
		snprintf(path, sizeof(path), "s/%d", i);
		add(&b, path, "vertex", STATUS_OK, S("inst", 100 + i), S("waves", 16), S("spills", 4));
		add(&a, path, "vertex", STATUS_OK, S("inst", 90 + i), S("waves", 8 + i % 2), S("spills", 2));
	}
	compare_runs(&c, &b, &a, &o, &err);
	const struct stat_cmp *inst = stat_named(&c, "inst"), *waves = stat_named(&c, "waves");
	ok(inst->has_ci && inst->ci_value.hi < 0, "inst: the interval is below 0");
	is_int(inst->verdict, VERDICT_HELPED, "fewer instructions: helped");
	is_int(waves->verdict, VERDICT_HURT, "fewer waves: HURT");
	is_int(stat_named(&c, "spills")->has_ci, 0, "no interval for spills");
	ok(inst->helped.data[0].before == 100, "most helped first (-10%% of 100)");
	is_str(verdict_text(VERDICT_INCONCLUSIVE_DISAGREE),
	       "Inconclusive result (value mean confidence interval and %-change mean confidence "
	       "interval disagree).", "report.py's words");
	comparison_release(&c);
	run_release(&b);
	run_release(&a);
	strbuf_release(&err);
}

int main(void)
{
	basics();
	verdicts();
	return done_testing();
}
