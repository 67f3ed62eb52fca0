/*
 * --fail-on for `shdb cmp`: each threshold (stats/threshold.h) is checked
 * against the comparison, giving a one-line reason when crossed.
 *
 *	inst>+0.5%         the change of the total in shared programs
 *	shader:inst>+10%   the change of one shader (unchanged shaders count as 0)
 *	lost>0, gained>0, failing>0, crashing>0   counts of shaders
 */
#include "cmp/fail_on.h"

#include <math.h>
#include <string.h>

static const struct stat_cmp *find_stat(const struct comparison *c, const char *name)
{
	const struct stat_info *info = stat_lookup(name, strlen(name));
	const char *key = info ? info->key : name;
	for (size_t i = 0; i < c->stats.len; i++)
		if (!strcmp(c->stats.data[i].info->key, key) ||
		    (!strcmp(name, "instructions") && !strcmp(c->stats.data[i].info->key, "inst")))
			return &c->stats.data[i];
	return NULL;
}

/* The counts a threshold may name; -1 when `name` is none of them. */
static long count_of(const struct comparison *c, const char *name)
{
	if (!strcmp(name, "lost"))
		return (long)c->lost.len;
	if (!strcmp(name, "gained"))
		return (long)c->gained.len;
	if (!strcmp(name, "failing"))
		return (long)c->status_counts[NEWLY_FAILING];
	if (!strcmp(name, "crashing"))
		return (long)c->status_counts[NEWLY_CRASHING];
	return -1;
}

static double change_of(const struct threshold *t, double before, double after)
{
	return t->relative ? rel_change(before, after) : after - before;
}

static void describe_change(struct strbuf *sb, const struct threshold *t, double before, double after)
{
	strbuf_addstr(sb, "changed by ");
	if (t->relative)
		fmt_pct(sb, rel_change(before, after));
	else
		strbuf_addf(sb, "%+g", after - before);
	strbuf_addstr(sb, " (");
	fmt_num(sb, before);
	strbuf_addstr(sb, " -> ");
	fmt_num(sb, after);
	strbuf_addch(sb, ')');
}

static void check_total(const struct threshold *t, const struct stat_cmp *s, struct threshold_check *fc,
			struct strbuf *why)
{
	fc->crossed = threshold_crossed(t, change_of(t, s->total_before, s->total_after));
	strbuf_addf(why, "%s in shared programs ", s->info->key);
	describe_change(why, t, s->total_before, s->total_after);
}

/* The change that goes furthest in the threshold's direction. */
static const struct change *extreme(const struct threshold *t, const struct stat_cmp *s)
{
	bool up = t->op == OP_GT || t->op == OP_GE;
	const struct change *best = NULL;
	double best_x = 0;
	for (int side = 0; side < 2; side++) {
		const change_array *list = side ? &s->hurt : &s->helped;
		for (size_t i = 0; i < list->len; i++) {
			double x = change_of(t, list->data[i].before, list->data[i].after);
			if (!best || (up ? x > best_x : x < best_x))
				best = &list->data[i], best_x = x;
		}
	}
	return best;
}

static void check_shader(const struct threshold *t, const struct comparison *c,
			 const struct stat_cmp *s, struct threshold_check *fc, struct strbuf *why)
{
	const struct change *ch = extreme(t, s);
	bool some_unchanged = s->shared > s->helped.len + s->hurt.len;
	if (ch && threshold_crossed(t, change_of(t, ch->before, ch->after))) {
		fc->crossed = true;
		pair_name(c, ch->pair, why);
		strbuf_addf(why, ": %s ", s->info->key);
		describe_change(why, t, ch->before, ch->after);
	} else if (some_unchanged && threshold_crossed(t, 0)) {
		fc->crossed = true;
		strbuf_addf(why, "%zu shaders with an unchanged %s", s->shared - s->helped.len - s->hurt.len,
			    s->info->key);
	}
}

bool check_fail_on(const struct comparison *c, const struct threshold *t, struct threshold_check *fc,
		   struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	long count = count_of(c, t->name);
	const struct stat_cmp *s = count < 0 ? find_stat(c, t->name) : NULL;
	memset(fc, 0, sizeof(*fc));
	fc->threshold = t;
	if (count >= 0 && (t->relative || t->scope == SCOPE_SHADER)) {
		strbuf_addf(err, "--fail-on '%s': '%s' is a count: no %% and no shader: scope", t->text,
			    t->name);
		return false;
	}
	if (count < 0 && !s) {
		strbuf_addf(err, "--fail-on '%s': no statistic '%s' in both runs (nor lost, gained, "
			    "failing, crashing)", t->text, t->name);
		return false;
	}
	if (count >= 0) {
		fc->crossed = threshold_crossed(t, (double)count);
		strbuf_addf(&why, "%ld %s", count, t->name);
	} else if (t->scope == SCOPE_TOTAL)
		check_total(t, s, fc, &why);
	else
		check_shader(t, c, s, fc, &why);
	snprintf(fc->reason, sizeof(fc->reason), "fail-on '%s': %s", t->text, why.buf);
	strbuf_release(&why);
	return true;
}
