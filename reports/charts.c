/*
 * Charts: data files and gnuplot scripts written into OUT/charts, gnuplot
 * run there.
 *
 *	charts/status.dat      run, then records ok, error, crash, timeout, skipped
 *	charts/t1-a630.dat     run, then the total of each trend statistic ("?" none)
 *	charts/t1-a630-dist.dat  bin centre (%), helped, hurt
 *	charts/svg.gp, png.gp  one script per format, every chart
 *	charts/NAME.svg, .png   what gnuplot draws
 *
 * gnuplot never sees a string from the history: the scripts name files we
 * named (a target's file name keeps only [A-Za-z0-9._-]), titles are ours
 * plus that sanitised name, runs are numbers on the x axis (the page's table
 * of runs gives their labels), and it runs in OUT/charts so no path of the
 * user's appears either.  Text is not "enhanced" (no markup in titles).
 * Both gnuplots run at once, one per format.
 */
#include "reports/report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/util/file.h"

const struct chart_def trend_charts[] = {
	{ "inst", "Instructions", { "inst", NULL } },
	{ "nops", "NOPs", { "nops", NULL } },
	{ "full", "Full registers", { "full", NULL } },
	{ "spill", "Spills: stp / ldp", { "stp", "ldp" } },
	{ "sync", "Sync flags: (ss) / (sy)", { "ss", "sy" } },
	{ "waves", "Max waves", { "waves", NULL } },
};
const size_t num_trend_charts = sizeof(trend_charts) / sizeof(trend_charts[0]);

/* The statistics of the trend data files, in column order (2, 3, …). */
static const char *const trend_keys[] = { "inst", "nops", "full", "stp", "ldp", "ss", "sy", "waves" };
#define NUM_TREND_KEYS (sizeof(trend_keys) / sizeof(trend_keys[0]))

static int trend_column(const char *key)
{
	for (size_t i = 0; i < NUM_TREND_KEYS; i++)
		if (!strcmp(trend_keys[i], key))
			return (int)i + 2;
	BUG("no trend column for %s", key);
}

bool chart_applies(const struct report *r, size_t target, const struct chart_def *c)
{
	size_t id = r->targets.data[target].id;
	for (size_t i = 0; i < r->hist.runs.len; i++)
		for (size_t k = 0; k < 2 && c->keys[k]; k++)
			if (!isnan(run_total(r, i, id, c->keys[k])))
				return true;
	return false;
}

const struct stat_cmp *distribution_stat(const struct scope *s)
{
	const struct stat_cmp *first = NULL;
	for (size_t k = 0; k < s->cmp.stats.len; k++) {
		const struct stat_cmp *sc = &s->cmp.stats.data[k];
		if (!sc->helped.len && !sc->hurt.len)
			continue;
		if (!strcmp(sc->info->key, "inst"))
			return sc;
		first = first ? first : sc;
	}
	return first;
}

bool has_distribution(const struct scope *s)
{
	return s && distribution_stat(s) != NULL;
}

/* ---- data files ---- */

static void add_value(struct strbuf *sb, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, " ?");
	else
		strbuf_addf(sb, " %.17g", v);
}

static int write_data(struct report *r, const char *name, struct strbuf *data)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	strbuf_addf(&path, "%s/charts/%s", r->opts->out, name);
	int ret = write_file_atomic(path.buf, data->buf, data->len, &err);
	if (ret < 0)
		diag_error(&r->diag, error_progname, 0, 0, "%s", err.buf);
	strbuf_release(&path);
	strbuf_release(&err);
	strbuf_reset(data);
	return ret;
}

static int status_data(struct report *r)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "# run ok error crash timeout skipped (records, all targets)\n");
	for (size_t i = 0; i < r->hist.runs.len; i++) {
		strbuf_addf(&sb, "%zu", i + 1);
		for (int s = 0; s < STATUS_COUNT; s++) {
			double n = NAN;
			if (r->facts[i].loaded) {
				n = 0;
				for (size_t t = 0; t < r->target_names.list.len; t++)
					n += (double)r->facts[i].status[t * STATUS_COUNT + (size_t)s];
			}
			add_value(&sb, n);
		}
		strbuf_addch(&sb, '\n');
	}
	int ret = write_data(r, "status.dat", &sb);
	strbuf_release(&sb);
	return ret;
}

static int trend_data(struct report *r, size_t t)
{
	const struct target_info *ti = &r->targets.data[t];
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	strbuf_addstr(&sb, "# run");
	for (size_t k = 0; k < NUM_TREND_KEYS; k++)
		strbuf_addf(&sb, " %s", trend_keys[k]);
	strbuf_addstr(&sb, " (totals over ok records)\n");
	for (size_t i = 0; i < r->hist.runs.len; i++) {
		strbuf_addf(&sb, "%zu", i + 1);
		for (size_t k = 0; k < NUM_TREND_KEYS; k++)
			add_value(&sb, run_total(r, i, ti->id, trend_keys[k]));
		strbuf_addch(&sb, '\n');
	}
	strbuf_addf(&name, "%s.dat", ti->file);
	int ret = write_data(r, name.buf, &sb);
	strbuf_release(&sb);
	strbuf_release(&name);
	return ret;
}

/* The histogram of a scope's relative changes: 20 bins over ±range, the
 * range the smallest of 1%, 2%, 5% … 1000% that holds 98% of the changes;
 * the rest (and changes from 0) in the end bins. */
#define NBINS 20

static double bin_range(const struct stat_cmp *sc)
{
	static const double ranges[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 };
	size_t n = sc->helped.len + sc->hurt.len, outside[10] = { 0 };
	for (size_t i = 0; i < n; i++) {
		const struct change *c = i < sc->helped.len ? &sc->helped.data[i]
							    : &sc->hurt.data[i - sc->helped.len];
		double pct = fabs(rel_change(c->before, c->after)) * 100;
		for (size_t k = 0; k < 10; k++)
			outside[k] += pct > ranges[k];
	}
	for (size_t k = 0; k < 10; k++)
		if (outside[k] * 50 <= n)
			return ranges[k];
	return ranges[9];
}

static size_t bin_of(double pct, double range)
{
	double b = floor((pct + range) / (2 * range / NBINS));
	return b < 0 ? 0 : b >= NBINS ? NBINS - 1 : (size_t)b;
}

static int dist_data(struct report *r, size_t t, double *range)
{
	const struct target_info *ti = &r->targets.data[t];
	const struct stat_cmp *sc = distribution_stat(ti->scope);
	size_t helped[NBINS] = { 0 }, hurt[NBINS] = { 0 };
	*range = bin_range(sc);
	for (size_t i = 0; i < sc->helped.len; i++)
		helped[bin_of(rel_change(sc->helped.data[i].before, sc->helped.data[i].after) * 100, *range)]++;
	for (size_t i = 0; i < sc->hurt.len; i++)
		hurt[bin_of(rel_change(sc->hurt.data[i].before, sc->hurt.data[i].after) * 100, *range)]++;
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	strbuf_addf(&sb, "# bin centre (%%), helped, hurt: %s\n", sc->info->key);
	for (size_t b = 0; b < NBINS; b++)
		strbuf_addf(&sb, "%.17g %zu %zu\n", -*range + (2 * (double)b + 1) * *range / NBINS,
			    helped[b], hurt[b]);
	strbuf_addf(&name, "%s-dist.dat", ti->file);
	int ret = write_data(r, name.buf, &sb);
	strbuf_release(&sb);
	strbuf_release(&name);
	return ret;
}

/* ---- scripts ---- */

struct format {
	const char *ext;
	const char *terminal;
};

static const struct format formats[] = {
	{ "svg", "set terminal svg size 440,280 dynamic noenhanced font 'DejaVu Sans,13' "
		 "background rgb 'white'" },
	{ "png", "set terminal pngcairo size 880,560 noenhanced font 'DejaVu Sans,21' "
		 "background rgb 'white' linewidth 2" },
};

static const char *const colors[] = { "#1f6fb4", "#e6762a" };

/* The part of a target's file name after "tN-": its sanitised name. */
static const char *shown_name(const struct target_info *ti)
{
	return strchr(ti->file, '-') + 1;
}

static void common(struct strbuf *gp, const struct format *f, size_t runs)
{
	strbuf_addf(gp, "%s\n", f->terminal);
	strbuf_addstr(gp, "set datafile missing '?'\n"
			  "set border 3 lc rgb '#8a979f'\nset tics nomirror\n"
			  "set grid ytics lc rgb '#e3e7ea' lt 1\n"
			  "set key below horizontal samplen 2\n");
	strbuf_addf(gp, "set xrange [0.5:%zu.5]\n", runs);
	strbuf_addf(gp, runs <= 16 ? "set xtics 1\n" : "set xtics auto\n");
	strbuf_addstr(gp, "set xlabel 'run (# in the table of runs)'\nset ylabel ''\n");
}

static void trend_plot(struct strbuf *gp, const struct format *f, const struct target_info *ti,
		       const struct chart_def *c, bool two)
{
	strbuf_addf(gp, "set output '%s-%s.%s'\n", ti->file, c->id, f->ext);
	strbuf_addf(gp, "set title '%s: %s'\n", shown_name(ti), c->title);
	strbuf_addstr(gp, two ? "set key\n" : "unset key\n");
	strbuf_addstr(gp, "set format y '%.9g'\nplot ");
	for (size_t k = 0; k < 2 && c->keys[k]; k++)
		strbuf_addf(gp, "%s'%s.dat' using 1:%d with linespoints lw 2 pt 7 ps 0.7 lc rgb '%s' "
			    "title '%s'", k ? ", " : "", ti->file, trend_column(c->keys[k]), colors[k],
			    c->keys[k]);
	strbuf_addch(gp, '\n');
}

static void status_plot(struct strbuf *gp, const struct format *f)
{
	static const char *const names[] = { "ok", "error", "crash", "timeout", "skipped" };
	static const char *const status_colors[] = { "#2e8b57", "#e6762a", "#c62828", "#8e44ad",
						     "#8a979f" };
	strbuf_addf(gp, "set output 'status.%s'\nset title 'Records by status (all targets)'\n"
			"set key\nset format y '%%.9g'\nplot ", f->ext);
	for (int s = 0; s < STATUS_COUNT; s++)
		strbuf_addf(gp, "%s'status.dat' using 1:%d with linespoints lw 2 pt 7 ps 0.7 lc rgb '%s' "
			    "title '%s'", s ? ", " : "", s + 2, status_colors[s], names[s]);
	strbuf_addch(gp, '\n');
}

static void dist_plot(struct strbuf *gp, const struct format *f, const struct target_info *ti,
		      double range)
{
	const struct stat_cmp *sc = distribution_stat(ti->scope);
	strbuf_addf(gp, "set output '%s-dist.%s'\n", ti->file, f->ext);
	strbuf_addf(gp, "set title '%s: change per shader, last two runs (%s)'\n", shown_name(ti),
		    sc->info->key[0] && strspn(sc->info->key, "abcdefghijklmnopqrstuvwxyz_0123456789") ==
		    strlen(sc->info->key) ? sc->info->key : "statistic");
	strbuf_addf(gp, "set xrange [%g:%g]\nset xtics auto\nset xlabel 'change (%%), "
			"end bins hold everything beyond'\n", -range, range);
	strbuf_addf(gp, "set boxwidth %.17g\nset style fill solid 0.85 noborder\nset key\n"
			"set format y '%%.9g'\nset yrange [0:*]\n", 2 * range / NBINS * 0.9);
	strbuf_addf(gp, "plot '%s-dist.dat' using 1:2 with boxes lc rgb '#2e8b57' title 'helped', "
			"'' using 1:3 with boxes lc rgb '#c62828' title 'hurt'\n", ti->file);
	strbuf_addstr(gp, "set yrange [*:*]\n");
}

static void script(struct report *r, const struct format *f, const double *ranges, struct strbuf *gp)
{
	size_t runs = r->hist.runs.len;
	common(gp, f, runs);
	status_plot(gp, f);
	for (size_t t = 0; t < r->targets.len; t++) {
		const struct target_info *ti = &r->targets.data[t];
		for (size_t c = 0; ti->has_stats && c < num_trend_charts; c++)
			if (chart_applies(r, t, &trend_charts[c]))
				trend_plot(gp, f, ti, &trend_charts[c], trend_charts[c].keys[1] != NULL);
		if (has_distribution(ti->scope)) {
			dist_plot(gp, f, ti, ranges[t]);
			common(gp, f, runs);
		}
	}
}

/* ---- running gnuplot ---- */

static bool in_path(const char *cmd)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;
	bool found = false;
	for (const char *p = path ? path : ""; !found;) {
		size_t n = strcspn(p, ":");
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.*s%s%s", (int)n, p, n ? "/" : "", cmd);
		found = access(sb.buf, X_OK) == 0;
		if (!p[n])
			break;
		p += n + 1;
	}
	strbuf_release(&sb);
	return found;
}

/* Start `gnuplot SCRIPT` in `dir`, its messages into LOG there. */
static pid_t start_gnuplot(const char *dir, const char *script, const char *log)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	if (chdir(dir) < 0)
		_exit(126);
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	execlp("gnuplot", "gnuplot", script, (char *)NULL);
	_exit(127);
}

/* Wait for gnuplot; its log's first lines into diag when it failed. */
static bool finish_gnuplot(struct report *r, pid_t pid, const char *dir, const char *log)
{
	int status;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, log);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	bool ok = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	read_file(path.buf, &text, NULL);
	if (!ok) {
		if (text.len > 600)
			strbuf_setlen(&text, 600);
		strbuf_rtrim(&text);
		diag_error(&r->diag, error_progname, 0, 0, "gnuplot failed (%s%d)%s%s", pid <= 0 ? "fork, " :
			   WIFEXITED(status) ? "exit status " : "signal ",
			   pid <= 0 ? errno : WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			   text.len ? ": " : "", text.buf);
	} else {
		unlink(path.buf);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ok;
}

static int write_scripts(struct report *r)
{
	double *ranges = xcalloc(r->targets.len + 1, sizeof(double));
	int ret = status_data(r);
	for (size_t t = 0; t < r->targets.len && !ret; t++) {
		if (r->targets.data[t].has_stats)
			ret = trend_data(r, t);
		if (!ret && has_distribution(r->targets.data[t].scope))
			ret = dist_data(r, t, &ranges[t]);
	}
	for (size_t i = 0; i < 2 && !ret; i++) {
		struct strbuf gp = STRBUF_INIT, name = STRBUF_INIT;
		script(r, &formats[i], ranges, &gp);
		strbuf_addf(&name, "%s.gp", formats[i].ext);
		ret = write_data(r, name.buf, &gp);
		strbuf_release(&gp);
		strbuf_release(&name);
	}
	free(ranges);
	return ret;
}

bool report_charts(struct report *r)
{
	if (!in_path("gnuplot")) {
		diag_error(&r->diag, error_progname, 0, 0, "gnuplot is not in PATH: no charts (install it, "
			   "e.g. apt-get install gnuplot-nox, or pass --no-charts)");
		return false;
	}
	if (write_scripts(r) < 0)
		return false;
	struct strbuf dir = STRBUF_INIT;
	strbuf_addf(&dir, "%s/charts", r->opts->out);
	pid_t svg = start_gnuplot(dir.buf, "svg.gp", "svg.log");
	pid_t png = start_gnuplot(dir.buf, "png.gp", "png.log");
	bool ok = finish_gnuplot(r, svg, dir.buf, "svg.log");
	ok &= finish_gnuplot(r, png, dir.buf, "png.log");
	strbuf_release(&dir);
	return ok;
}
