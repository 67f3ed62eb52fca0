/*
 * Charts: data files and gnuplot scripts written into OUT/charts, gnuplot
 * run there.
 *
 *	charts/status.dat      run, its tic, then records ok, error, crash, timeout, skipped
 *	charts/t1-a630.dat     run, its tic, then the total of each trend statistic ("?" none)
 *	charts/t1-a630-dist.dat  bin centre (%), helped, hurt
 *	charts/svg.gp, png.gp  one script per format, every chart
 *	charts/NAME.svg, .png   what gnuplot draws
 *
 * gnuplot never sees a string from the history unsanitised: the scripts name
 * files we named (a target's file name keeps only [A-Za-z0-9._-]), titles
 * are ours plus that sanitised name, a run's tic on the x axis is its date
 * (MM-DD) and short commit, or its label (run_tics), kept to [A-Za-z0-9._:-]
 * (the page's table of runs gives the rest), and it runs in OUT/charts so no
 * path of the user's appears either.  Text is not "enhanced" (no markup in titles).
 * Both gnuplots run at once, one per format.
 *
 * A trend's y axis starts at 0, unless its values all lie within a narrow
 * band (trend_band): then the axis spans that band and its label says "not
 * from 0" in red, as the page's caption does with the band's ends.
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
	{ "spill", "Private memory: stp / ldp (spills, scratch)", { "stp", "ldp" } },
	{ "sync", "Sync flags: (ss) / (sy)", { "ss", "sy" } },
	{ "waves", "Max waves", { "waves", NULL } },
};
const size_t num_trend_charts = sizeof(trend_charts) / sizeof(trend_charts[0]);

/* The statistics of the trend data files, in column order (3, 4, …: 1 is
 * the run, 2 its tic). */
static const char *const trend_keys[] = { "inst", "nops", "full", "stp", "ldp", "ss", "sy", "waves" };
#define NUM_TREND_KEYS (sizeof(trend_keys) / sizeof(trend_keys[0]))

static int trend_column(const char *key)
{
	for (size_t i = 0; i < NUM_TREND_KEYS; i++)
		if (!strcmp(trend_keys[i], key))
			return (int)i + 3;
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

/* Keep what is safe in a gnuplot string, at most `max` characters. */
static void add_safe(struct strbuf *sb, const char *s, size_t max)
{
	for (size_t n = 0; s && *s && n < max; s++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-", *s)) {
			strbuf_addch(sb, *s);
			n++;
		}
}

/* Run i's tic on the x axis: its date (MM-DD) and short commit. */
static void date_tic(struct strbuf *sb, const struct history_run *h)
{
	if (h->date && strlen(h->date) >= 10 && h->date[4] == '-')
		add_safe(sb, h->date + 5, 5);
	if (h->commit && sb->len)
		strbuf_addch(sb, ' ');
	add_safe(sb, h->commit, 7);
}

/* The runs' tics: date and commit when they tell every run apart, else the
 * labels (kept safe, 16 characters) when those do, else "#1", "#2", … */
static const char *const tic_kinds[] = { "run: date (MM-DD) and commit", "run: label",
					  "run (# in the table of runs)" };

static const char *run_tics(const struct report *r, string_list *tics)
{
	size_t n = r->hist.runs.len;
	struct strbuf sb = STRBUF_INIT;
	int kind;
	for (kind = 0; kind < 3; kind++) {
		struct strmap seen = STRMAP_INIT;
		bool apart = true;
		string_list_free(tics);
		for (size_t i = 0; i < n; i++) {
			strbuf_reset(&sb);
			if (kind == 0)
				date_tic(&sb, &r->hist.runs.data[i]);
			else if (kind == 1)
				add_safe(&sb, r->hist.runs.data[i].label, 16);
			else
				strbuf_addf(&sb, "#%zu", i + 1);
			bool is_new;
			strmap_put(&seen, sb.buf, sb.len, &is_new);
			apart &= is_new && sb.len;
			array_push(tics, strbuf_detach(&sb, NULL));
		}
		strmap_release(&seen);
		if (apart)
			break;
	}
	strbuf_release(&sb);
	return tic_kinds[kind < 3 ? kind : 2];
}

static int status_data(struct report *r, const string_list *tics)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "# run tic ok error crash timeout skipped (records, all targets)\n");
	for (size_t i = 0; i < r->hist.runs.len; i++) {
		strbuf_addf(&sb, "%zu \"%s\"", i + 1, tics->data[i]);
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

static int trend_data(struct report *r, size_t t, const string_list *tics)
{
	const struct target_info *ti = &r->targets.data[t];
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	strbuf_addstr(&sb, "# run tic");
	for (size_t k = 0; k < NUM_TREND_KEYS; k++)
		strbuf_addf(&sb, " %s", trend_keys[k]);
	strbuf_addstr(&sb, " (totals over ok records)\n");
	for (size_t i = 0; i < r->hist.runs.len; i++) {
		strbuf_addf(&sb, "%zu \"%s\"", i + 1, tics->data[i]);
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
 * range chosen from the data: the 90th percentile of the changes' sizes
 * (nearest rank), rounded up to 1, 2 or 5 times a power of ten (0.1% at
 * least), so the bulk of the changes spreads over the bins; the few larger
 * ones (and changes from 0) go to the end bins, which the axis says. */
#define NBINS 20

static double nice_ceil(double x)
{
	static const double steps[] = { 1, 2, 5, 10 };
	double p = pow(10, floor(log10(x)));
	for (size_t k = 0; k < 4; k++)
		if (steps[k] * p >= x * (1 - 1e-9))
			return steps[k] * p;
	return 10 * p;
}

static double bin_range(const struct stat_cmp *sc)
{
	size_t n = sc->helped.len + sc->hurt.len;
	double *pct = xmalloc((n + 1) * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const struct change *c = i < sc->helped.len ? &sc->helped.data[i]
							    : &sc->hurt.data[i - sc->helped.len];
		pct[i] = fabs(rel_change(c->before, c->after)) * 100;	/* inf: from 0 */
	}
	sort_doubles(pct, n);
	double p90 = n ? percentile_sorted(pct, n, 90) : 1;
	free(pct);
	if (!isfinite(p90))
		return 1000;
	return p90 < 0.1 ? 0.1 : p90 > 1000 ? 1000 : nice_ceil(p90);
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
	const char *small;	/* the font of the runs' tics */
};

static const struct format formats[] = {
	{ "svg", "set terminal svg size 440,280 dynamic noenhanced font 'DejaVu Sans,13' "
		 "background rgb 'white'", ",10" },
	{ "png", "set terminal pngcairo size 880,560 noenhanced font 'DejaVu Sans,21' "
		 "background rgb 'white' linewidth 2", ",15" },
};

static const char *const colors[] = { "#1f6fb4", "#e6762a" };

/* One script being written. */
struct script {
	struct strbuf *gp;
	const struct report *r;
	const struct format *f;
	const char *xlabel;	/* what the runs' tics are */
};

/* The part of a target's file name after "tN-": its sanitised name. */
static const char *shown_name(const struct target_info *ti)
{
	return strchr(ti->file, '-') + 1;
}

static void common(const struct script *sc)
{
	strbuf_addf(sc->gp, "%s\n", sc->f->terminal);
	strbuf_addstr(sc->gp, "set datafile missing '?'\n"
			      "set border 3 lc rgb '#8a979f'\nset tics nomirror\n"
			      "set grid ytics lc rgb '#e3e7ea' lt 1\n"
			      "set key below horizontal samplen 2\n");
	strbuf_addf(sc->gp, "set xrange [0.5:%zu.5]\n", sc->r->hist.runs.len);
	strbuf_addf(sc->gp, "set xtics rotate by -30 font '%s'\nset xlabel '%s'\n"
			    "set ylabel ''\nset yrange [*:*]\n", sc->f->small, sc->xlabel);
}

/* The x axis's tics from column 2 (the runs' tics), on at most ten runs. */
static void add_xtic(const struct script *sc)
{
	size_t every = (sc->r->hist.runs.len + 9) / 10;
	strbuf_addf(sc->gp, ":xtic((int($1) - 1) %% %zu == 0 ? stringcolumn(2) : '')", every);
}

bool trend_band(const struct report *r, size_t t, const struct chart_def *c, double *lo,
		double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < r->hist.runs.len; i++)
		for (size_t k = 0; k < 2 && c->keys[k]; k++) {
			double v = run_total(r, i, r->targets.data[t].id, c->keys[k]);
			if (!isnan(v)) {
				*lo = v < *lo ? v : *lo;
				*hi = v > *hi ? v : *hi;
			}
		}
	return *lo > 0 && *hi > *lo && (*hi - *lo) * 10 < *hi;
}

/* A trend's y axis: from 0, or over a narrow band, said in red beside it. */
static void trend_yaxis(const struct script *sc, size_t t, const struct chart_def *c)
{
	double lo, hi;
	if (!trend_band(sc->r, t, c, &lo, &hi)) {
		strbuf_addstr(sc->gp, "set yrange [0:*]\nset ylabel ''\n");
		return;
	}
	double pad = (hi - lo) * 0.25;
	strbuf_addf(sc->gp, "set yrange [%.17g:%.17g]\n", lo - pad, hi + pad);
	strbuf_addstr(sc->gp, "set ylabel 'not from 0' tc rgb '#c62828'\n");
}

static void trend_plot(const struct script *sc, size_t t, const struct chart_def *c)
{
	const struct target_info *ti = &sc->r->targets.data[t];
	strbuf_addf(sc->gp, "set output '%s-%s.%s'\n", ti->file, c->id, sc->f->ext);
	strbuf_addf(sc->gp, "set title '%s: %s'\n", shown_name(ti), c->title);
	strbuf_addstr(sc->gp, c->keys[1] ? "set key\n" : "unset key\n");
	trend_yaxis(sc, t, c);
	strbuf_addstr(sc->gp, "set format y '%.9g'\nplot ");
	for (size_t k = 0; k < 2 && c->keys[k]; k++) {
		strbuf_addf(sc->gp, "%s'%s.dat' using 1:%d", k ? ", " : "", ti->file,
			    trend_column(c->keys[k]));
		if (!k)
			add_xtic(sc);
		strbuf_addf(sc->gp, " with linespoints lw 2 pt 7 ps 0.7 lc rgb '%s' title '%s'",
			    colors[k], c->keys[k]);
	}
	strbuf_addstr(sc->gp, "\nset ylabel '' tc default\n");
}

static void status_plot(const struct script *sc)
{
	static const char *const names[] = { "ok", "error", "crash", "timeout", "skipped" };
	static const char *const status_colors[] = { "#2e8b57", "#e6762a", "#c62828", "#8e44ad",
						     "#8a979f" };
	strbuf_addf(sc->gp, "set output 'status.%s'\nset title 'Records by status (all targets)'\n"
			    "set key\nset format y '%%.9g'\nset yrange [0:*]\nplot ", sc->f->ext);
	for (int s = 0; s < STATUS_COUNT; s++) {
		strbuf_addf(sc->gp, "%s'status.dat' using 1:%d", s ? ", " : "", s + 3);
		if (!s)
			add_xtic(sc);
		strbuf_addf(sc->gp, " with linespoints lw 2 pt 7 ps 0.7 lc rgb '%s' title '%s'",
			    status_colors[s], names[s]);
	}
	strbuf_addch(sc->gp, '\n');
}

static void dist_plot(const struct script *sc, const struct target_info *ti, double range)
{
	const struct stat_cmp *st = distribution_stat(ti->scope);
	strbuf_addf(sc->gp, "set output '%s-dist.%s'\n", ti->file, sc->f->ext);
	strbuf_addf(sc->gp, "set title '%s: change per shader, last two runs (%s)'\n", shown_name(ti),
		    st->info->key[0] && strspn(st->info->key, "abcdefghijklmnopqrstuvwxyz_0123456789") ==
		    strlen(st->info->key) ? st->info->key : "statistic");
	strbuf_addf(sc->gp, "set xrange [%g:%g]\nset xtics norotate auto\nset ylabel 'shaders'\n"
			    "set xlabel 'change (%%), end bins hold everything beyond'\n", -range, range);
	strbuf_addf(sc->gp, "set boxwidth %.17g\nset style fill solid 0.85 noborder\nset key\n"
			    "set format y '%%.9g'\nset yrange [0:*]\n", 2 * range / NBINS * 0.9);
	strbuf_addf(sc->gp, "plot '%s-dist.dat' using 1:2 with boxes lc rgb '#2e8b57' title 'helped', "
			    "'' using 1:3 with boxes lc rgb '#c62828' title 'hurt'\n", ti->file);
}

static void script(const struct script *sc, const double *ranges)
{
	const struct report *r = sc->r;
	common(sc);
	status_plot(sc);
	for (size_t t = 0; t < r->targets.len; t++) {
		const struct target_info *ti = &r->targets.data[t];
		for (size_t c = 0; ti->has_stats && c < num_trend_charts; c++)
			if (chart_applies(r, t, &trend_charts[c]))
				trend_plot(sc, t, &trend_charts[c]);
		if (has_distribution(ti->scope)) {
			dist_plot(sc, ti, ranges[t]);
			common(sc);
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
	string_list tics = ARRAY_INIT;
	const char *xlabel = run_tics(r, &tics);
	int ret = status_data(r, &tics);
	for (size_t t = 0; t < r->targets.len && !ret; t++) {
		if (r->targets.data[t].has_stats)
			ret = trend_data(r, t, &tics);
		if (!ret && has_distribution(r->targets.data[t].scope))
			ret = dist_data(r, t, &ranges[t]);
	}
	for (size_t i = 0; i < 2 && !ret; i++) {
		struct strbuf gp = STRBUF_INIT, name = STRBUF_INIT;
		script(&(struct script){ &gp, r, &formats[i], xlabel }, ranges);
		strbuf_addf(&name, "%s.gp", formats[i].ext);
		ret = write_data(r, name.buf, &gp);
		strbuf_release(&gp);
		strbuf_release(&name);
	}
	free(ranges);
	string_list_free(&tics);
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
