/*
 * shdb cmp BEFORE AFTER: read two runs (in parallel), compare them, print the
 * comparison, check --fail-on thresholds.
 */
#include <getopt.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp/fail_on.h"
#include "cmp/print.h"
#include "compiler/util/cmdline.h"
#include "stats/options.h"

static const char usage[] =
	"usage: shdb cmp [OPTIONS] BEFORE AFTER\n"
	"\n"
	"Compare two runs: shdb run directories, .jsonl records, Mesa shader-db logs or\n"
	"fossilize-replay CSVs, matched by (path, stage, target).\n"
	"\n"
	"  -m, --stat LIST       statistics to compare, comma-separated (default: all in both)\n"
	"      --target LIST     only these targets\n"
	"  -S, --stage LIST      only these stages, in any spelling (FRAG, frag, fragment)\n"
	"      --include REGEX   keep only the shaders whose path REGEX matches (PCRE2,\n"
	"                        searched anywhere in the path; repeatable), as shdb run\n"
	"      --exclude REGEX   leave out the shaders whose path REGEX matches (repeatable)\n"
	"      --ignore-loops    also compare shaders whose loop count changed\n"
	"  -c, --changes-only    only statistics that changed\n"
	"  -s, --summary         totals only, no lists of shaders\n"
	"      --top N           shaders per list (default 10; 0 lists all)\n"
	"      --sort BY         the lists of most helped and hurt shaders by rel (relative\n"
	"                        change, the default) or abs (absolute change)\n"
	"      --app-depth N     path components that name an app (default 1)\n"
	"      --format FMT      text, markdown, json, csv, or reportpy (report.py's layout)\n"
	"      --color WHEN      auto (on a terminal), always or never\n"
	"      --fail-on T       exit 1 when threshold T is crossed (repeatable):\n"
	"                        [total:|shader:]STAT{>,>=,<,<=}[+|-]N[%], or lost>N,\n"
	"                        gained>N, failing>N, crashing>N; e.g. 'inst>+0.5%'\n"
	"\n"
	"Exit status: 0, 1 when a threshold is crossed or an input is bad, 2 usage error.\n";

struct cmp_cli {
	struct cmp_options opts;
	string_list stats, stages, targets, fail_on;
	struct path_filter paths;
	enum out_format format;
	bool color, summary, changes_only;
	size_t top;
};

static void parse_args(struct cmp_cli *cli, int argc, char **argv)
{
	enum { O_TARGET = 256, O_INCLUDE, O_EXCLUDE, O_IGNORE_LOOPS, O_TOP, O_APP_DEPTH, O_FORMAT,
	       O_COLOR, O_FAIL_ON, O_SORT };
	static const struct option opts[] = {
		{ "stat", required_argument, NULL, 'm' },
		{ "target", required_argument, NULL, O_TARGET },
		{ "stage", required_argument, NULL, 'S' },
		{ "include", required_argument, NULL, O_INCLUDE },
		{ "exclude", required_argument, NULL, O_EXCLUDE },
		{ "ignore-loops", no_argument, NULL, O_IGNORE_LOOPS },
		{ "changes-only", no_argument, NULL, 'c' },
		{ "summary", no_argument, NULL, 's' },
		{ "top", required_argument, NULL, O_TOP },
		{ "sort", required_argument, NULL, O_SORT },
		{ "app-depth", required_argument, NULL, O_APP_DEPTH },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "color", required_argument, NULL, O_COLOR },
		{ "fail-on", required_argument, NULL, O_FAIL_ON },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	optind = 0;
	while ((c = getopt_long(argc, argv, "m:S:csh", opts, NULL)) != -1) {
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
		case O_IGNORE_LOOPS:
			cli->opts.ignore_loops = true;
			break;
		case 'c':
			cli->changes_only = true;
			break;
		case 's':
			cli->summary = true;
			break;
		case O_TOP:
			cli->top = (size_t)parse_long_option("--top", optarg, 0, 1000000000);
			break;
		case O_SORT:
			if (strcmp(optarg, "rel") && strcmp(optarg, "abs"))
				die("--sort takes rel or abs, not '%s'", optarg);
			cli->opts.by_abs = !strcmp(optarg, "abs");
			break;
		case O_APP_DEPTH:
			cli->opts.app_depth = (int)parse_long_option("--app-depth", optarg, 1, 100);
			break;
		case O_FORMAT:
			if (!parse_format(optarg, &cli->format) || cli->format == FORMAT_SHADERDB)
				die("unknown format '%s': text, markdown, json, csv or reportpy", optarg);
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
	if (argc - optind != 2)
		usage_exit(usage, false);
}

/* ---- reading both runs at once ---- */

struct load_job {
	struct run run;
	const char *path;
	const struct record_filter *filter;
	struct diag diag;
	int ret;
};

static void *load(void *arg)
{
	struct load_job *job = arg;
	job->ret = run_load(&job->run, job->path, job->filter, &job->diag);
	return NULL;
}

/* The after run on a thread of its own while this one reads the before run. */
static void load_both(struct load_job jobs[2])
{
	pthread_t thread;
	json_object_seed(0);	/* jansson's hash seed, before threads use it */
	bool threaded = pthread_create(&thread, NULL, load, &jobs[1]) == 0;
	load(&jobs[0]);
	if (threaded)
		pthread_join(thread, NULL);
	else
		load(&jobs[1]);
}

/* ---- thresholds ---- */

static void parse_thresholds(const struct cmp_cli *cli, struct threshold *out)
{
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < cli->fail_on.len; i++)
		if (!threshold_parse(cli->fail_on.data[i], &out[i], &err))
			die("%s", err.buf);
	strbuf_release(&err);
}

/* Check every threshold; a threshold naming nothing is a usage error. */
static bool check_thresholds(const struct comparison *c, const struct threshold *t, size_t n,
			     struct threshold_check *checks)
{
	struct strbuf err = STRBUF_INIT;
	bool failed = false;
	for (size_t i = 0; i < n; i++) {
		if (!check_fail_on(c, &t[i], &checks[i], &err))
			die("%s", err.buf);
		failed |= checks[i].crossed;
	}
	strbuf_release(&err);
	return failed;
}

static void warn_stat_sets(const struct comparison *c)
{
	for (int side = 0; side < 2; side++) {
		const name_array *names = side ? &c->only_after : &c->only_before;
		if (!names->len)
			continue;
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < names->len; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", names->data[i]);
		warning("statistics only in %s (%s): %s", side ? "after" : "before",
			side ? c->after->label : c->before->label, sb.buf);
		strbuf_release(&sb);
	}
}

/* Targets a run names (records without a target aside). */
static size_t named_targets(const struct names *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->list.len; i++)
		n += *t->list.data[i] != '\0';
	return n;
}

/* A run without targets (a Mesa shader-db log) meets a run of several
 * targets nowhere: say how to choose one. */
static void warn_targets(const struct comparison *c)
{
	const struct names *b = &c->before->targets, *a = &c->after->targets;
	if (c->pairs.len || !b->list.len || !a->list.len)
		return;
	bool b_none = !named_targets(b), a_none = !named_targets(a);
	if (b_none != a_none && named_targets(b_none ? a : b) > 1)
		warning("the records of %s name no target and %s has several: choose the one to compare "
			"with --target", (b_none ? c->before : c->after)->label,
			(b_none ? c->after : c->before)->label);
}

static void print(const struct cmp_cli *cli, const struct comparison *c,
		  const struct threshold_check *checks, size_t nchecks)
{
	struct cmp_print p = {
		.out = stdout, .c = c, .color = cli->color, .top = cli->top, .summary = cli->summary,
		.changes_only = cli->changes_only, .checks = checks, .nchecks = nchecks,
	};
	switch (cli->format) {
	case FORMAT_TEXT:
		cmp_print_text(&p);
		break;
	case FORMAT_MARKDOWN:
		cmp_print_markdown(&p);
		break;
	case FORMAT_JSON:
		cmp_print_json(&p);
		break;
	case FORMAT_CSV:
		cmp_print_csv(&p);
		break;
	case FORMAT_REPORTPY:
		cmp_print_reportpy(&p);
		break;
	case FORMAT_SHADERDB:	/* refused by parse_args */
		BUG("no shaderdb format for shdb cmp");
	}
}

/* Compare, print, check; the exit status. */
static int compare_and_print(const struct cmp_cli *cli, struct load_job jobs[2])
{
	struct comparison c;
	struct strbuf err = STRBUF_INIT;
	struct threshold *thresholds = xcalloc(cli->fail_on.len + 1, sizeof(*thresholds));
	struct threshold_check *checks = xcalloc(cli->fail_on.len + 1, sizeof(*checks));
	parse_thresholds(cli, thresholds);
	if (!compare_runs(&c, &jobs[0].run, &jobs[1].run, &cli->opts, &err))
		die("%s", err.buf);
	warn_stat_sets(&c);
	warn_targets(&c);
	/* --fail-on may name a statistic that -m leaves out of what is shown:
	 * thresholds are checked on every statistic of both runs */
	struct comparison every, *checked = &c;
	struct cmp_options every_opts = cli->opts;
	every_opts.nstats = 0;
	if (cli->fail_on.len && cli->opts.nstats) {
		compare_runs(&every, &jobs[0].run, &jobs[1].run, &every_opts, &err);
		checked = &every;
	}
	bool failed = check_thresholds(checked, thresholds, cli->fail_on.len, checks);
	if (checked != &c)
		comparison_release(&every);
	print(cli, &c, checks, cli->fail_on.len);
	fflush(stdout);
	for (size_t i = 0; i < cli->fail_on.len; i++)
		if (checks[i].crossed)
			fprintf(stderr, "shdb: %s\n", checks[i].reason);
	bool bad_input = jobs[0].diag.errors || jobs[1].diag.errors;
	comparison_release(&c);
	free(thresholds);
	free(checks);
	strbuf_release(&err);
	return failed || bad_input ? EXIT_WORK_FAILED : 0;
}

int cmd_cmp(int argc, char **argv)
{
	struct cmp_cli cli = { .opts = { .app_depth = 1 }, .top = 10 };
	parse_color("auto", &cli.color);
	parse_args(&cli, argc, argv);
	cli.opts.stats = (const char *const *)cli.stats.data;
	cli.opts.nstats = cli.stats.len;
	struct record_filter filter = make_filter(&cli.stages, &cli.targets, &cli.paths);
	struct load_job jobs[2] = {
		{ .path = argv[optind], .filter = &filter, .diag = DIAG_INIT },
		{ .path = argv[optind + 1], .filter = &filter, .diag = DIAG_INIT },
	};
	run_init(&jobs[0].run);
	run_init(&jobs[1].run);
	load_both(jobs);
	fputs(jobs[0].diag.text.buf, stderr);
	fputs(jobs[1].diag.text.buf, stderr);
	int status = EXIT_WORK_FAILED;
	if (jobs[0].ret == 0 && jobs[1].ret == 0)
		status = compare_and_print(&cli, jobs);
	for (int i = 0; i < 2; i++) {
		run_release(&jobs[i].run);
		diag_release(&jobs[i].diag);
	}
	string_list_free(&cli.stats);
	string_list_free(&cli.stages);
	string_list_free(&cli.targets);
	path_filter_release(&cli.paths);
	string_list_free(&cli.fail_on);
	return status;
}
