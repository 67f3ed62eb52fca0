/*
 * `shdb cmp --format=json`: everything the comparison holds, for scripts.
 * Relative values are fractions (-0.031 is -3.1%); a relative change from 0
 * is null.  Lists of shaders are cut at --top like the other formats (0: all).
 *
 *	{"before": {...}, "after": {...}, "matched": 7, "both_ok": 7, "affected": 4,
 *	 "lost": [...], "gained": [...], "status_changes": [...],
 *	 "statistics": [{"key": "inst", "total": {"before": 420, "after": 407, ...},
 *	                 "helped": {"count": 3, "abs": {...}, "rel": {...}, "shaders": [...]},
 *	                 "ci95": {"value": [-12.56, 6.06], "rel": [...]}, "verdict": "inconclusive"}],
 *	 "targets": [...], "apps": [...], "fail_on": [...]}
 */
#include "cmp/print.h"
#include "stats/json_text.h"

#include <jansson.h>
#include <math.h>

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Integral values as JSON integers, others as reals. */
static json_t *number(double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return real_or_null(v);
}

static json_t *run_json(const struct run *run)
{
	json_t *status = json_object();
	for (int s = 0; s < STATUS_COUNT; s++)
		json_object_set_new(status, status_name((enum record_status)s),
				    json_integer((json_int_t)run->status_count[s]));
	json_t *o = json_pack("{s:o, s:o, s:s, s:I, s:o, s:I, s:f}", "source", json_text(run->source),
			      "label", json_text(run->label), "kind", source_kind_name(run->kind), "records",
			      (json_int_t)run->rows.len, "status", status, "duplicates",
			      (json_int_t)run->duplicates, "cpu_seconds", run->cpu_seconds);
	if (run->git_commit)
		json_object_set_new(o, "git_commit", json_text(run->git_commit));
	return o;
}

static json_t *record_json(const struct run *run, size_t row)
{
	return json_pack("{s:o, s:o, s:o}", "path", json_text(run_path(run, row)), "stage",
			 json_text(run_stage(run, row)), "target", json_text(run_target(run, row)));
}

static json_t *rows_json(const struct cmp_print *p, const struct run *run, const row_array *rows)
{
	json_t *a = json_array();
	for (size_t i = 0; i < list_len(p, rows->len); i++)
		json_array_append_new(a, record_json(run, rows->data[i]));
	return a;
}

static json_t *status_changes_json(const struct cmp_print *p)
{
	const struct comparison *c = p->c;
	json_t *a = json_array();
	for (size_t i = 0; i < list_len(p, c->status_changes.len); i++) {
		const struct status_change *sc = &c->status_changes.data[i];
		const struct pair *pr = &c->pairs.data[sc->pair];
		const char *msg = run_message(c->after, pr->after);
		json_t *o = record_json(c->before, pr->before);
		json_object_set_new(o, "kind", json_string(status_change_name(sc->kind)));
		json_object_set_new(o, "before", json_string(status_name(c->before->rows.data[pr->before].status)));
		json_object_set_new(o, "after", json_string(status_name(c->after->rows.data[pr->after].status)));
		json_object_set_new(o, "message", msg ? json_text(msg) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *totals_json(double before, double after)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "before", number(before), "after", number(after),
			 "change", number(after - before), "rel", real_or_null(rel_change(before, after)));
}

static json_t *summary_json(const struct change_summary *s)
{
	return json_pack("{s:{s:o, s:o, s:o, s:o}, s:{s:o, s:o, s:o, s:o}, s:b}",
			 "abs", "min", number(s->abs_min), "max", number(s->abs_max), "mean",
			 real_or_null(s->abs_mean), "median", number(s->abs_median),
			 "rel", "min", real_or_null(s->rel_min), "max", real_or_null(s->rel_max),
			 "mean", real_or_null(s->rel_mean), "median", real_or_null(s->rel_median),
			 "rel_undefined", s->rel_undefined);
}

static json_t *side_json(const struct cmp_print *p, const change_array *list,
			 const struct change_summary *s)
{
	json_t *o = json_pack("{s:I}", "count", (json_int_t)list->len);
	if (list->len)
		json_object_update_new(o, summary_json(s));
	json_t *shaders = json_array();
	for (size_t i = 0; i < list_len(p, list->len) && !p->summary; i++) {
		const struct change *ch = &list->data[i];
		json_t *r = record_json(p->c->before, p->c->pairs.data[ch->pair].before);
		json_object_update_new(r, totals_json(ch->before, ch->after));
		json_array_append_new(shaders, r);
	}
	json_object_set_new(o, "shaders", shaders);
	return o;
}

static const char *verdict_key(enum verdict v)
{
	switch (v) {
	case VERDICT_NONE:
		return "none";
	case VERDICT_HELPED:
		return "helped";
	case VERDICT_HURT:
		return "hurt";
	default:
		return "inconclusive";
	}
}

static json_t *stat_json(const struct cmp_print *p, const struct stat_cmp *s)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:s, s:b, s:s, s:I, s:I, s:o, s:o}",
			      "key", json_text(s->info->key), "name", json_text(s->name), "display",
			      json_text(s->info->display), "unit", s->info->unit, "higher_is_better", s->info->higher_better,
			      "family", stat_family_name(s->info->family), "shared", (json_int_t)s->shared,
			      "loop_skipped", (json_int_t)s->loop_skipped,
			      "total", totals_json(s->total_before, s->total_after),
			      "affected", totals_json(s->affected_before, s->affected_after));
	json_object_set_new(o, "helped", side_json(p, &s->helped, &s->helped_sum));
	json_object_set_new(o, "hurt", side_json(p, &s->hurt, &s->hurt_sum));
	json_object_set_new(o, "ci95", !s->has_ci ? json_null() :
			    json_pack("{s:[f,f], s:[f,f], s:f, s:f, s:b}", "value", s->ci_value.lo,
				      s->ci_value.hi, "rel", s->ci_rel.lo, s->ci_rel.hi, "mean_value",
				      s->ci_value.mean, "mean_rel", s->ci_rel.mean, "rel_undefined",
				      s->ci_rel_undefined));
	json_object_set_new(o, "verdict", json_string(verdict_key(s->verdict)));
	json_object_set_new(o, "verdict_text", json_string(verdict_text(s->verdict)));
	return o;
}

static json_t *groups_json(const struct comparison *c, const group_array *groups)
{
	json_t *a = json_array();
	for (size_t g = 0; g < groups->len; g++) {
		const struct group_cmp *gr = &groups->data[g];
		json_t *totals = json_object();
		for (size_t i = 0; i < c->stats.len; i++)
			json_set_text_key(totals, c->stats.data[i].info->key,
					  totals_json(gr->before[i], gr->after[i]));
		json_array_append_new(a, json_pack("{s:o, s:I, s:I, s:o}", "name", json_text(gr->name), "shared",
						   (json_int_t)gr->shared, "affected",
						   (json_int_t)gr->affected, "totals", totals));
	}
	return a;
}

static json_t *names_json(const name_array *names)
{
	json_t *a = json_array();
	for (size_t i = 0; i < names->len; i++)
		json_array_append_new(a, json_text(names->data[i]));
	return a;
}

static json_t *checks_json(const struct cmp_print *p)
{
	json_t *a = json_array();
	for (size_t i = 0; i < p->nchecks; i++)
		json_array_append_new(a, json_pack("{s:o, s:b, s:o}", "threshold",
						   json_text(p->checks[i].threshold->text), "crossed",
						   p->checks[i].crossed, "reason",
						   json_text(p->checks[i].reason)));
	return a;
}

void cmp_print_json(const struct cmp_print *p)
{
	const struct comparison *c = p->c;
	json_t *stats = json_array();
	for (size_t i = 0; i < c->stats.len; i++)
		if (!p->changes_only || stat_changed(&c->stats.data[i]))
			json_array_append_new(stats, stat_json(p, &c->stats.data[i]));
	json_t *root = json_pack("{s:o, s:o, s:I, s:I, s:I, s:I, s:I}",
				 "before", run_json(c->before), "after", run_json(c->after),
				 "matched", (json_int_t)c->pairs.len, "both_ok", (json_int_t)c->both_ok,
				 "affected", (json_int_t)c->affected, "lost_count", (json_int_t)c->lost.len,
				 "gained_count", (json_int_t)c->gained.len);
	json_object_set_new(root, "lost", rows_json(p, c->before, &c->lost));
	json_object_set_new(root, "gained", rows_json(p, c->after, &c->gained));
	json_object_set_new(root, "status_changes", status_changes_json(p));
	json_object_set_new(root, "statistics_only_in_before", names_json(&c->only_before));
	json_object_set_new(root, "statistics_only_in_after", names_json(&c->only_after));
	json_object_set_new(root, "statistics", stats);
	json_object_set_new(root, "targets", groups_json(c, &c->by_target));
	json_object_set_new(root, "apps", groups_json(c, &c->by_app));
	json_object_set_new(root, "fail_on", checks_json(p));
	json_dumpf(root, p->out, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', p->out);
	json_decref(root);
}
