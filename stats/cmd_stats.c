/*
 * shdb stats RUN: read one run, summarise it, print the summary, check
 * --fail-on thresholds.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/cmdline.h"
#include "stats/export_shaderdb.h"
#include "stats/options.h"
#include "stats/print_summary.h"

static const char usage[] =
	"usage: shdb stats [OPTIONS] RUN\n"
	"\n"
	"Summarise a run: a shdb run directory, .jsonl records, a Mesa shader-db log or a\n"
	"fossilize-replay CSV.  Per target and stage: status counts, and per statistic the\n"
	"total, mean, min, p10, median, p90 and max; then the worst shaders.\n"
	"\n"
	"  -m, --stat LIST       statistics to show, comma-separated (default: all); the\n"
	"                        first one ranks the worst shaders and the histogram\n"
	"      --target LIST     only these targets\n"
	"  -S, --stage LIST      only these stages, in any spelling (FRAG, frag, fragment)\n"
	"      --include REGEX   keep only the shaders whose path REGEX matches (PCRE2,\n"
	"                        searched anywhere in the path; repeatable), as shdb run\n"
	"      --exclude REGEX   leave out the shaders whose path REGEX matches (repeatable)\n"
	"      --by WHAT         group by target,stage (default), target, stage or none\n"
	"  -s, --summary         all records only: no groups, no list of shaders\n"
	"      --top N           shaders listed (default 10; 0 lists all)\n"
	"      --best            list the best shaders instead of the worst (the lowest\n"
	"                        values of inst, the highest of waves)\n"
	"      --histogram       a histogram of the first statistic\n"
	"      --format FMT      text, markdown, json or csv; or shaderdb: the ok records of\n"
	"                        one target (--target) as Mesa's shader-db log\n"
	"      --color WHEN      auto (on a terminal), always or never\n"
	"      --fail-on T       exit 1 when threshold T is crossed (repeatable): a status\n"
	"                        count (crash>0, error>5), a total (inst>100000) or one\n"
	"                        shader (shader:full>48)\n"
	"\n"
	"Exit status: 0, 1 when a threshold is crossed or the input is bad, 2 usage error.\n";

struct stats_cli {
	struct summary_options opts;
	string_list stats, stages, targets, fail_on;
	struct path_filter paths;
	enum out_format format;
	bool color, summary;
};

static enum group_by parse_by(const char *s)
{
	static const struct {
		const char *name;
		enum group_by by;
	} names[] = {
		{ "target,stage", BY_TARGET_STAGE }, { "stage,target", BY_TARGET_STAGE },
		{ "target", BY_TARGET }, { "stage", BY_STAGE }, { "none", BY_NONE },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].by;
	die("--by takes target,stage, target, stage or none, not '%s'", s);
}

static void parse_args(struct stats_cli *cli, int argc, char **argv)
{
	enum { O_TARGET = 256, O_INCLUDE, O_EXCLUDE, O_BY, O_TOP, O_HISTOGRAM, O_FORMAT, O_COLOR,
	       O_FAIL_ON, O_BEST };
	static const struct option opts[] = {
		{ "stat", required_argument, NULL, 'm' },
		{ "target", required_argument, NULL, O_TARGET },
		{ "stage", required_argument, NULL, 'S' },
		{ "include", required_argument, NULL, O_INCLUDE },
		{ "exclude", required_argument, NULL, O_EXCLUDE },
		{ "by", required_argument, NULL, O_BY },
		{ "summary", no_argument, NULL, 's' },
		{ "top", required_argument, NULL, O_TOP },
		{ "best", no_argument, NULL, O_BEST },
		{ "histogram", no_argument, NULL, O_HISTOGRAM },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "color", required_argument, NULL, O_COLOR },
		{ "fail-on", required_argument, NULL, O_FAIL_ON },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	optind = 0;
	while ((c = getopt_long(argc, argv, "m:S:sh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			split_list(&cli->stats, optarg);
			break;
		case O_TARGET:
			split_list(&cli->targets, optarg);
			break;
		case 'S':
			split_list(&cli->stages, optarg);
			break;
		case O_INCLUDE:
		case O_EXCLUDE:
			add_path_pattern(&cli->paths, c == O_INCLUDE, optarg);
			break;
		case O_BY:
			cli->opts.by = parse_by(optarg);
			break;
		case 's':
			cli->summary = true;
			break;
		case O_TOP:
			cli->opts.top = (size_t)parse_long_option("--top", optarg, 0, 1000000000);
			break;
		case O_HISTOGRAM:
			cli->opts.histogram = true;
			break;
		case O_BEST:
			cli->opts.best = true;
			break;
		case O_FORMAT:
			if (!parse_format(optarg, &cli->format) || cli->format == FORMAT_REPORTPY)
				die("unknown format '%s': text, markdown, json, csv or shaderdb", optarg);
			break;
		case O_COLOR:
			if (!parse_color(optarg, &cli->color))
				die("--color takes auto, always or never, not '%s'", optarg);
			break;
		case O_FAIL_ON:
			array_push(&cli->fail_on, xstrdup(optarg));
			break;
		case 'h':
			usage_exit(usage, true);
		default:
			usage_exit(usage, false);
		}
	}
	if (argc - optind != 1)
		usage_exit(usage, false);
}

/* ---- --fail-on ---- */

static long status_count(const struct run_summary *s, const char *name)
{
	enum record_status st;
	return status_parse(name, strlen(name), &st) ? (long)s->all.status[st] : -1;
}

static const struct stat_summary *find_stat(const struct run_summary *s, const char *name)
{
	const struct stat_info *info = stat_lookup(name, strlen(name));
	for (size_t i = 0; i < s->all.stats.len; i++)
		if (!strcmp(s->all.stats.data[i].col->info->key, info ? info->key : name))
			return &s->all.stats.data[i];
	return NULL;
}

/* The shader whose value goes furthest in the threshold's direction. */
static void check_shader(const struct run_summary *s, const struct stat_summary *ss,
			 struct threshold_check *tc, struct strbuf *why)
{
	const struct threshold *t = tc->threshold;
	bool up = t->op == OP_GT || t->op == OP_GE;
	double extreme = up ? ss->max : ss->min, v;
	if (!ss->count || !threshold_crossed(t, extreme))
		return;
	tc->crossed = true;
	for (size_t row = 0; row < s->run->rows.len; row++) {
		if (s->run->rows.data[row].status != STATUS_OK || !column_get(ss->col, row, &v) ||
		    v != extreme)
			continue;
		strbuf_addf(why, "%s %s: %s = ", run_path(s->run, row), run_stage(s->run, row),
			    ss->col->info->key);
		fmt_num(why, v);
		return;
	}
}

static void check_one(const struct run_summary *s, const struct threshold *t,
		      struct threshold_check *tc)
{
	struct strbuf why = STRBUF_INIT;
	long count = status_count(s, t->name);
	const struct stat_summary *ss = count < 0 ? find_stat(s, t->name) : NULL;
	memset(tc, 0, sizeof(*tc));
	tc->threshold = t;
	if (t->relative || (count < 0 && !ss) || (count >= 0 && t->scope == SCOPE_SHADER))
		die("--fail-on '%s': shdb stats takes a status count (ok, error, crash, timeout, "
		    "skipped), a statistic's total, or shader:STATISTIC, without %%", t->text);
	if (count >= 0) {
		tc->crossed = threshold_crossed(t, (double)count);
		strbuf_addf(&why, "%ld records with status %s", count, t->name);
	} else if (t->scope == SCOPE_TOTAL) {
		tc->crossed = threshold_crossed(t, ss->total);
		strbuf_addf(&why, "total %s is ", ss->col->info->key);
		fmt_num(&why, ss->total);
	} else
		check_shader(s, ss, tc, &why);
	snprintf(tc->reason, sizeof(tc->reason), "fail-on '%s': %s", t->text, why.buf);
	strbuf_release(&why);
}

static bool check_all(const struct run_summary *s, const string_list *texts,
		      struct threshold *thresholds, struct threshold_check *checks)
{
	struct strbuf err = STRBUF_INIT;
	bool crossed = false;
	for (size_t i = 0; i < texts->len; i++) {
		if (!threshold_parse(texts->data[i], &thresholds[i], &err))
			die("%s", err.buf);
		check_one(s, &thresholds[i], &checks[i]);
		crossed |= checks[i].crossed;
	}
	strbuf_release(&err);
	return crossed;
}

/* ---- the command ---- */

static void print(const struct stats_cli *cli, const struct run_summary *s,
		  const struct threshold_check *checks)
{
	struct summary_print p = { .out = stdout, .s = s, .color = cli->color,
				   .summary = cli->summary, .checks = checks,
				   .nchecks = cli->fail_on.len };
	switch (cli->format) {
	case FORMAT_MARKDOWN:
		summary_print_markdown(&p);
		break;
	case FORMAT_JSON:
		summary_print_json(&p);
		break;
	case FORMAT_CSV:
		summary_print_csv(&p);
		break;
	case FORMAT_SHADERDB: {
		struct strbuf err = STRBUF_INIT;
		if (export_shaderdb(stdout, s->run, &err) < 0)
			die("%s", err.buf);
		strbuf_release(&err);
		break;
	}
	default:
		summary_print_text(&p);
		break;
	}
}

static int summarize_and_print(struct stats_cli *cli, const struct run *run)
{
	struct run_summary s;
	struct strbuf err = STRBUF_INIT;
	cli->opts.stats = (const char *const *)cli->stats.data;
	cli->opts.nstats = cli->stats.len;
	if (cli->summary)
		cli->opts.by = BY_NONE;
	if (!summarize_run(&s, run, &cli->opts, &err))
		die("%s", err.buf);
	struct threshold *thresholds = xcalloc(cli->fail_on.len + 1, sizeof(*thresholds));
	struct threshold_check *checks = xcalloc(cli->fail_on.len + 1, sizeof(*checks));
	/* --fail-on may name a statistic that -m leaves out of what is shown:
	 * thresholds are checked on every statistic */
	struct run_summary every, *checked = &s;
	struct summary_options every_opts = { .by = BY_NONE, .top = 1 };
	if (cli->fail_on.len && cli->opts.nstats) {
		summarize_run(&every, run, &every_opts, &err);	/* every column: no error */
		checked = &every;
	}
	bool crossed = check_all(checked, &cli->fail_on, thresholds, checks);
	if (checked != &s)
		run_summary_release(&every);
	print(cli, &s, checks);
	fflush(stdout);
	for (size_t i = 0; i < cli->fail_on.len; i++)
		if (checks[i].crossed)
			fprintf(stderr, "shdb: %s\n", checks[i].reason);
	run_summary_release(&s);
	free(thresholds);
	free(checks);
	strbuf_release(&err);
	return crossed ? EXIT_WORK_FAILED : 0;
}

int cmd_stats(int argc, char **argv)
{
	struct stats_cli cli = { .opts = { .by = BY_TARGET_STAGE, .top = 10 } };
	parse_color("auto", &cli.color);
	parse_args(&cli, argc, argv);
	struct record_filter filter = make_filter(&cli.stages, &cli.targets, &cli.paths);
	struct run run;
	struct diag diag = DIAG_INIT;
	run_init(&run);
	int ret = run_load(&run, argv[optind], &filter, &diag);
	fputs(diag.text.buf, stderr);
	int status = EXIT_WORK_FAILED;
	if (ret == 0) {
		status = summarize_and_print(&cli, &run);
		if (diag.errors)
			status = EXIT_WORK_FAILED;
	}
	run_release(&run);
	diag_release(&diag);
	string_list_free(&cli.stats);
	string_list_free(&cli.stages);
	string_list_free(&cli.targets);
	path_filter_release(&cli.paths);
	string_list_free(&cli.fail_on);
	return status;
}
