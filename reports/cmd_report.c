/*
 * shdb report HISTORY -o OUT: the command line, OUT's folder, and the steps
 * of report.h in order.
 *
 * OUT is a folder of our own: it must be new, empty, or a report written
 * before (it holds the marker file .shdb-report), whose pages, charts and
 * data are then removed first, so OUT never mixes two nights.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/util/cmdline.h"
#include "compiler/util/file.h"
#include "reports/report.h"

static const char usage[] =
	"usage: shdb report [OPTIONS] HISTORY -o OUT\n"
	"\n"
	"Render a report over a history of runs: HISTORY holds one shdb run folder per\n"
	"night (run.json + stats.jsonl [+ asm.pack]), ordered by run.json's date, then\n"
	"label.  OUT gets index.html (open it from the file system), summary.md, charts/\n"
	"(gnuplot, SVG and PNG) and shaders/ (a page per listed shader).\n"
	"\n"
	"  -o, --output OUT      the report's folder (new, empty, or an older report)\n"
	"      --top N           shaders per list of regressions and improvements\n"
	"                        (default 10; 0 lists all)\n"
	"      --ignore-loops    as shdb cmp: also compare shaders whose loop count changed\n"
	"      --no-charts       do not run gnuplot\n"
	"      --source DIR      where the shaders' paths start, for their source on their\n"
	"                        pages (default: the last run's input folder, when it has one)\n"
	"  -j, --jobs N          runs read at once (default: the number of cores)\n"
	"\n"
	"Exit status: 0; 1 when part of the history could not be read, gnuplot is\n"
	"missing or failed, or OUT cannot be written (the report shows what it could);\n"
	"2 usage error.\n";

#define MARKER ".shdb-report"

static void parse_args(struct report_options *o, int argc, char **argv)
{
	enum { O_TOP = 256, O_IGNORE_LOOPS, O_NO_CHARTS, O_SOURCE };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "top", required_argument, NULL, O_TOP },
		{ "ignore-loops", no_argument, NULL, O_IGNORE_LOOPS },
		{ "no-charts", no_argument, NULL, O_NO_CHARTS },
		{ "source", required_argument, NULL, O_SOURCE },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o->out = optarg; break;
		case O_TOP: o->top = (size_t)parse_long_option("--top", optarg, 0, 1000000); break;
		case O_IGNORE_LOOPS: o->ignore_loops = true; break;
		case O_NO_CHARTS: o->charts = false; break;
		case O_SOURCE: o->source = optarg; break;
		case 'j': o->jobs = (int)parse_long_option("-j", optarg, 1, 1024); break;
		case 'h': usage_exit(usage, true);
		default: usage_exit(usage, false);
		}
	}
	if (argc - optind != 1)
		usage_exit(usage, false);
	if (!o->out)
		die("shdb report needs an output folder: -o OUT");
	o->history = argv[optind];
}

/* ---- OUT ---- */

static char *join(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/%s", dir, name);
	return strbuf_detach(&sb, NULL);
}

/* Remove the plain files of `dir` (a report's charts/ or shaders/). */
static void clear_folder(const char *dir)
{
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		char *path = join(dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			unlink(path);
		free(path);
	}
	if (d)
		closedir(d);
}

static bool is_empty_folder(const char *dir)
{
	DIR *d = opendir(dir);
	bool empty = d != NULL;
	for (struct dirent *e; d && empty && (e = readdir(d));)
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return empty;
}

static void make_folder(const char *path)
{
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		die_status(EXIT_WORK_FAILED, "cannot create '%s': %s", path, strerror(errno));
}

/* A history that cannot be read at all is a mistake of the command line:
 * nothing is written (an empty or broken report would hide it). */
static void need_history(const char *history)
{
	DIR *d = opendir(history);
	if (!d)
		die_status(EXIT_WORK_FAILED, "cannot read the history '%s': %s", history,
			   strerror(errno));
	closedir(d);
}

static void prepare_out(const char *out)
{
	char *marker = join(out, MARKER), *charts = join(out, "charts"), *shaders = join(out, "shaders");
	struct stat st;
	if (stat(out, &st) == 0 && !S_ISDIR(st.st_mode))
		die("'%s' is not a folder", out);
	if (stat(out, &st) == 0 && access(marker, F_OK) != 0 && !is_empty_folder(out))
		die("'%s' is neither empty nor a report of shdb report: choose another -o", out);
	make_folder(out);
	clear_folder(charts);
	clear_folder(shaders);
	make_folder(charts);
	make_folder(shaders);
	struct strbuf err = STRBUF_INIT;
	const char note[] = "shdb report writes this folder; each report replaces the last.\n";
	if (write_file_atomic(marker, note, strlen(note), &err) < 0)
		die_status(EXIT_WORK_FAILED, "%s", err.buf);
	strbuf_release(&err);
	free(marker);
	free(charts);
	free(shaders);
}

/* ---- the last two runs ---- */

struct load {
	struct report *r;
	size_t run;
	struct run *dst;
	struct diag diag;
	int ret;
};

static void *load(void *arg)
{
	struct load *l = arg;
	l->ret = history_load(&l->r->hist, l->run, l->dst, &l->diag);
	return NULL;
}

/* The last two runs that read, from the end of the history (the newest two
 * at once). */
static void load_last_two(struct report *r, unsigned char *failed)
{
	long next = (long)r->hist.runs.len - 1;
	struct run tmp[2];
	json_object_seed(0);
	while (next >= 0 && r->prev < 0) {
		struct load l[2] = { { r, (size_t)next, &tmp[0], DIAG_INIT, -1 },
				     { r, (size_t)next - 1, &tmp[1], DIAG_INIT, -1 } };
		int n = next >= 1 && r->last < 0 ? 2 : 1;
		pthread_t th;
		bool threaded = n == 2 && pthread_create(&th, NULL, load, &l[1]) == 0;
		load(&l[0]);
		if (n == 2 && threaded)
			pthread_join(th, NULL);
		else if (n == 2)
			load(&l[1]);
		for (int i = n; i-- > 0;) {	/* older first: messages in history order */
			strbuf_addstr(&r->diag.text, l[i].diag.text.buf);
			r->diag.errors += l[i].diag.errors;
			r->diag.warnings += l[i].diag.warnings;
			diag_release(&l[i].diag);
		}
		for (int i = 0; i < n; i++) {
			if (l[i].ret < 0) {
				failed[l[i].run] = 1;
				run_release(&tmp[i]);
			} else if (r->last < 0) {
				r->runs[1] = tmp[i];
				r->last = (long)l[i].run;
			} else {
				r->runs[0] = tmp[i];
				r->prev = (long)l[i].run;
			}
		}
		next -= n;
	}
}

/* ---- the whole ---- */

static void print_outcome(const struct report *r)
{
	size_t hurt = 0, helped = 0;
	for (size_t i = 0; i < r->scopes.len; i++)
		for (size_t k = 0; k < r->scopes.data[i]->alerts.len; k++) {
			const struct scope *s = r->scopes.data[i];
			bool h = s->cmp.stats.data[s->alerts.data[k].stat].verdict == VERDICT_HURT;
			hurt += h;
			helped += !h;
		}
	printf("shdb report: %zu runs, %zu alerts (%zu regressions, %zu improvements); %s/index.html\n",
	       r->hist.runs.len, hurt + helped, hurt, helped, r->opts->out);
}

static int report(struct report *r)
{
	unsigned char *failed;
	history_scan(&r->hist, r->opts->history, &r->diag);
	failed = xcalloc(r->hist.runs.len + 1, 1);
	load_last_two(r, failed);
	if (r->prev >= 0) {
		report_compare(r);
		report_choose(r);
	}
	r->failed = failed;
	report_collect(r);
	report_first_runs(r);
	if (r->opts->charts)
		r->charts_ok = report_charts(r);
	int ret = write_shader_pages(r);
	ret |= write_summary_md(r);
	ret |= write_index(r);
	free(failed);
	r->failed = NULL;
	return ret;
}

int cmd_report(int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct report_options o = { .top = 10, .charts = true, .jobs = cpus > 0 ? (int)cpus : 1 };
	parse_args(&o, argc, argv);
	need_history(o.history);
	prepare_out(o.out);
	struct report r = { .opts = &o, .cmp_opts = { .ignore_loops = o.ignore_loops, .app_depth = 1 },
			    .diag = DIAG_INIT, .prev = -1, .last = -1 };
	arena_init(&r.arena);
	int ret = report(&r);
	fputs(r.diag.text.buf, stderr);
	print_outcome(&r);
	if (r.diag.errors)
		fprintf(stderr, "shdb: error: the report is incomplete (%d error%s above)\n", r.diag.errors,
			r.diag.errors == 1 ? "" : "s");
	int status = ret < 0 || r.diag.errors ? EXIT_WORK_FAILED : 0;
	report_release_collect(&r);
	report_release_scopes(&r);
	for (int i = 0; i < 2; i++)
		if ((i ? r.last : r.prev) >= 0)
			run_release(&r.runs[i]);
	history_release(&r.hist);
	diag_release(&r.diag);
	arena_release(&r.arena);
	return status;
}
