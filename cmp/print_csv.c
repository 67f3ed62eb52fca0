/*
 * `shdb cmp --format=csv`: one row per statistic for all shaders, then one per
 * statistic and target, and per statistic and app (when there are several).
 * Relative values are fractions; empty cells where a value does not apply.
 *
 *	scope,group,statistic,before,after,change,rel,affected_before,affected_after,helped,hurt,...
 *	all,,inst,420,407,-13,-0.03095238095,400,387,3,1,-12.56,6.06,-0.1201,0.0484,inconclusive
 *	app,app_a,inst,200,197,-3,-0.015,,,,,,,,,
 */
#include "cmp/print.h"

#include <math.h>
#include <string.h>

static void csv_field(FILE *out, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else
		fputs(s, out);
	fputc(last ? '\n' : ',', out);
}

static void csv_num(FILE *out, double v)
{
	if (!isfinite(v))
		fputc(',', out);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(out, "%.0f,", v);
	else
		fprintf(out, "%.10g,", v);
}

static void totals(FILE *out, double before, double after)
{
	csv_num(out, before);
	csv_num(out, after);
	csv_num(out, after - before);
	csv_num(out, rel_change(before, after));
}

static void all_row(FILE *out, const struct stat_cmp *s)
{
	csv_field(out, "all", false);
	csv_field(out, "", false);
	csv_field(out, s->info->key, false);
	totals(out, s->total_before, s->total_after);
	csv_num(out, s->affected_before);
	csv_num(out, s->affected_after);
	fprintf(out, "%zu,%zu,", s->helped.len, s->hurt.len);
	if (s->has_ci)
		fprintf(out, "%.10g,%.10g,%.10g,%.10g,", s->ci_value.lo, s->ci_value.hi, s->ci_rel.lo,
			s->ci_rel.hi);
	else
		fputs(",,,,", out);
	csv_field(out, verdict_word(s->verdict), true);
}

static void group_rows(const struct cmp_print *p, const char *scope, const group_array *groups)
{
	const struct comparison *c = p->c;
	for (size_t g = 0; g < groups->len; g++) {
		for (size_t i = 0; i < c->stats.len; i++) {
			if (p->changes_only && !stat_changed(&c->stats.data[i]))
				continue;
			csv_field(p->out, scope, false);
			csv_field(p->out, groups->data[g].name, false);
			csv_field(p->out, c->stats.data[i].info->key, false);
			totals(p->out, groups->data[g].before[i], groups->data[g].after[i]);
			fputs(",,,,,,,,\n", p->out);
		}
	}
}

void cmp_print_csv(const struct cmp_print *p)
{
	const struct comparison *c = p->c;
	fputs("scope,group,statistic,before,after,change,rel,affected_before,affected_after,"
	      "helped,hurt,ci_value_lo,ci_value_hi,ci_rel_lo,ci_rel_hi,verdict\n", p->out);
	for (size_t i = 0; i < c->stats.len; i++)
		if (!p->changes_only || stat_changed(&c->stats.data[i]))
			all_row(p->out, &c->stats.data[i]);
	if (c->by_target.len > 1)
		group_rows(p, "target", &c->by_target);
	if (c->by_app.len > 1)
		group_rows(p, "app", &c->by_app);
}
