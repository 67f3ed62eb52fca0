/*
 * shdb run: the command line.  Parses the options into a struct run_config and
 * hands over to run_corpus() (run.c) or run_merge() (merge.c).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "compiler/exec/exec_check.h"
#include "compiler/opt/opt.h"
#include "compiler/util/cmdline.h"
#include "compiler/util/error.h"
#include "runner/run.h"
#include "stats/json_text.h"

static const char usage[] =
	"usage: shdb run [OPTIONS] INPUT... -o DIR\n"
	"   or: shdb run --resume [the same OPTIONS and INPUTs] -o DIR\n"
	"   or: shdb run --merge -o OUT RUNDIR...\n\n"
	"Compile every shader under the INPUTs (files and folders, walked recursively) for\n"
	"every target, on worker processes, into DIR/stats.jsonl and DIR/run.json.\n\n"
	"Inputs:\n"
	"  --manifest FILE       per-file options (a TSV with a header line; see the README)\n"
	"  --include REGEX       keep only the paths REGEX matches (PCRE2; repeatable)\n"
	"  --exclude REGEX       leave out the paths REGEX matches (repeatable)\n"
	"  --shard K/N           only the K-th of N shards (1 <= K <= N), by a hash of the path\n"
	"  --stage STAGE[,…], -e NAME (repeatable), -D NAME[=VALUE], -I DIR, --glsl-mode MODE\n"
	"                        as for shdb compile, for every file (a manifest row wins)\n"
	"Compiling:\n"
	"  -t, --target LIST     targets, comma-separated, or 'all' (the default)\n"
	"  -j, --jobs N          worker processes (default: the number of cores)\n"
	"  --timeout SECONDS     per file, then its worker is killed (default 30; 0: none)\n"
	"  --compiler CMD        run the shell command CMD per shader instead of shdb's\n"
	"                        compiler; {file} {path} {stage} {entry} {target} are replaced\n"
	"  --compiler-preset P   read CMD's output as Mesa shader-db lines (P: ir3)\n"
	"  --stat-pattern REGEX  statistics from the named groups of REGEX's matches\n"
	"                        in CMD's output (repeatable)\n"
	"  --passes LIST         the passes to run, as for shdb compile ('none' or names)\n"
	"  --verify              run the backend's independent verifiers on every result\n"
	"  --verify-exec         run every result's final code in the target's simulator\n"
	"                        and compare it with the interpreter (a difference is an\n"
	"                        error record; the record's exec says what was found)\n"
	"  --ra-limit N          stress mode: spill down to N 32-bit registers (a5xx+)\n"
	"  --mesa RELEASE        whose rules: main (default) or 24.3 (a7xx's longer\n"
	"                        delays, no alias.tex/alias.rt: ../shared/reference's Mesa)\n"
	"  --max-jobs-per-worker N  a fresh worker process after N files (default 1000)\n"
	"Output:\n"
	"  -o, --output DIR      the run folder (required)\n"
	"  --label NAME          the run's name in reports (default: DIR's name)\n"
	"  --keep-asm            keep each result's disassembly in DIR/asm.pack (with\n"
	"                        --compiler: the command's output), for shdb report\n"
	"  --resume              continue the interrupted run in DIR\n"
	"  --force               replace a run that is in DIR\n"
	"  --merge               merge the run folders given as inputs (shards) into DIR\n"
	"  --fail-on-error       exit 1 when any record is an error, a crash or a timeout\n"
	"  -q, --quiet           no summary table\n"
	"  --no-progress         no progress line (shown only on a terminal anyway)\n\n"
	"Exit status: 0 when the run completed, whatever the shaders did; 1 when it could\n"
	"not (or --fail-on-error saw failures); 2 for a usage error; 128+N when signal N\n"
	"stopped it (the folder is valid, and --resume continues it).\n";

enum {
	OPT_MANIFEST = 256, OPT_INCLUDE, OPT_EXCLUDE, OPT_SHARD, OPT_STAGE, OPT_GLSL_MODE,
	OPT_TIMEOUT, OPT_COMPILER, OPT_PRESET, OPT_STAT_PATTERN, OPT_PER_WORKER, OPT_LABEL,
	OPT_RESUME, OPT_FORCE, OPT_MERGE, OPT_FAIL_ON_ERROR, OPT_NO_PROGRESS, OPT_KEEP_ASM,
	OPT_PASSES,
	OPT_VERIFY, OPT_VERIFY_EXEC, OPT_RA_LIMIT, OPT_MESA,
};

static void parse_shard(struct run_config *c, const char *arg)
{
	unsigned k, n;
	char tail;
	if (sscanf(arg, "%u/%u%c", &k, &n, &tail) != 2 || !n || !k || k > n)
		die("--shard needs K/N with 1 <= K <= N, not '%s'", arg);
	c->shard_k = k;
	c->shard_n = n;
}

static void parse_glsl_mode(struct run_config *c, const char *arg)
{
	if (!strcmp(arg, "auto"))
		c->opts.glsl_mode = GLSL_MODE_AUTO;
	else if (!strcmp(arg, "vulkan"))
		c->opts.glsl_mode = GLSL_MODE_VULKAN;
	else if (!strcmp(arg, "relaxed"))
		c->opts.glsl_mode = GLSL_MODE_RELAXED;
	else
		die("--glsl-mode takes auto, vulkan or relaxed, not '%s'", arg);
}

/* -I DIR: workers run in the corpus folder, so keep it absolute. */
static void add_include_dir(struct run_config *c, const char *arg)
{
	char *real = realpath(arg, NULL);
	if (!real)
		die("-I '%s': %s", arg, strerror(errno));
	array_push(&c->opts.include_dirs, real);
	array_push(&c->include_dirs_given, arg);
}

static void parse_options(struct run_config *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "manifest", required_argument, NULL, OPT_MANIFEST },
		{ "include", required_argument, NULL, OPT_INCLUDE },
		{ "exclude", required_argument, NULL, OPT_EXCLUDE },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "stage", required_argument, NULL, OPT_STAGE },
		{ "entry", required_argument, NULL, 'e' },
		{ "glsl-mode", required_argument, NULL, OPT_GLSL_MODE },
		{ "target", required_argument, NULL, 't' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "compiler", required_argument, NULL, OPT_COMPILER },
		{ "compiler-preset", required_argument, NULL, OPT_PRESET },
		{ "stat-pattern", required_argument, NULL, OPT_STAT_PATTERN },
		{ "max-jobs-per-worker", required_argument, NULL, OPT_PER_WORKER },
		{ "output", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "keep-asm", no_argument, NULL, OPT_KEEP_ASM },
		{ "passes", required_argument, NULL, OPT_PASSES },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "verify-exec", no_argument, NULL, OPT_VERIFY_EXEC },
		{ "ra-limit", required_argument, NULL, OPT_RA_LIMIT },
		{ "mesa", required_argument, NULL, OPT_MESA },
		{ "resume", no_argument, NULL, OPT_RESUME },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "merge", no_argument, NULL, OPT_MERGE },
		{ "fail-on-error", no_argument, NULL, OPT_FAIL_ON_ERROR },
		{ "quiet", no_argument, NULL, 'q' },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "e:D:I:t:j:o:qh", opts, NULL)) != -1) {
		switch (ch) {
		case OPT_MANIFEST: c->manifest = optarg; break;
		case OPT_INCLUDE: array_push(&c->include, optarg); break;
		case OPT_EXCLUDE: array_push(&c->exclude, optarg); break;
		case OPT_SHARD: parse_shard(c, optarg); break;
		case OPT_STAGE: {
			struct strbuf err = STRBUF_INIT;
			if (compile_options_set_stages(&c->opts, optarg, &err) < 0)
				die("%s", err.buf);
			break;
		}
		case 'e':
			c->opts.entry = optarg;
			array_push(&c->opts.entries, optarg);
			break;
		case 'D': array_push(&c->opts.defines, optarg); break;
		case 'I': add_include_dir(c, optarg); break;
		case OPT_GLSL_MODE: parse_glsl_mode(c, optarg); break;
		case 't': c->target_list = optarg; break;
		case 'j': c->jobs = (int)parse_long_option("-j", optarg, 1, 1024); break;
		case OPT_TIMEOUT:
			c->timeout_s = (unsigned)parse_long_option("--timeout", optarg, 0, 86400);
			break;
		case OPT_COMPILER: c->compiler = optarg; break;
		case OPT_PRESET: c->compiler_preset = optarg; break;
		case OPT_STAT_PATTERN: array_push(&c->stat_patterns, optarg); break;
		case OPT_PER_WORKER:
			c->jobs_per_worker = (unsigned)parse_long_option("--max-jobs-per-worker",
									optarg, 1, 1 << 30);
			break;
		case 'o': c->out_dir = optarg; break;
		case OPT_LABEL: c->label = optarg; break;
		case OPT_KEEP_ASM: c->keep_asm = true; break;
		case OPT_PASSES: c->opts.passes = optarg; break;
		case OPT_VERIFY: c->opts.verify = true; break;
		case OPT_VERIFY_EXEC: c->opts.exec_seeds = EXEC_DEFAULT_SEEDS; break;
		case OPT_RA_LIMIT:
			c->opts.ra_limit = (unsigned)parse_long_option("--ra-limit", optarg, 1, 192);
			break;
		case OPT_MESA: {
			struct strbuf err = STRBUF_INIT;
			if (mesa_rules_parse(optarg, &c->opts.mesa, &err) < 0)
				die("%s", err.buf);
			break;
		}
		case OPT_RESUME: c->resume = true; break;
		case OPT_FORCE: c->force = true; break;
		case OPT_MERGE: c->merge = true; break;
		case OPT_FAIL_ON_ERROR: c->fail_on_error = true; break;
		case 'q': c->quiet = true; break;
		case OPT_NO_PROGRESS: c->no_progress = true; break;
		case 'h': usage_exit(usage, true);
		default: usage_exit(usage, false);
		}
	}
	for (int i = optind; i < argc; i++)
		array_push(&c->inputs, argv[i]);
}

static void check_options(struct run_config *c)
{
	if (!c->out_dir)
		die("shdb run needs an output folder: -o DIR");
	if (!c->inputs.len)
		usage_exit(usage, false);
	if (c->resume && c->force)
		die("--resume and --force do not go together");
	if (c->merge && c->resume)
		die("--merge and --resume do not go together");
	if ((c->compiler_preset || c->stat_patterns.len) && !c->compiler)
		die("--compiler-preset and --stat-pattern need --compiler");
	if (c->opts.passes && c->compiler)
		die("--passes is for shdb's own compiler, not --compiler");
	if (c->opts.verify && c->compiler)
		die("--verify is for shdb's own compiler, not --compiler");
	if (c->opts.exec_seeds && c->compiler)
		die("--verify-exec is for shdb's own compiler, not --compiler");
	if (c->opts.ra_limit && c->compiler)
		die("--ra-limit is for shdb's own compiler, not --compiler");
	if (c->opts.mesa != MESA_RULES_MAIN && c->compiler)
		die("--mesa is for shdb's own compiler, not --compiler");
	struct strbuf err = STRBUF_INIT;
	if (!compile_check_passes(c->opts.passes, NULL, &err))
		die("%s", err.buf);
	for (size_t i = 0; i < c->include.len; i++)
		if (path_filter_add(&c->filter.paths, true, c->include.data[i], &err) < 0)
			die("%s", err.buf);
	for (size_t i = 0; i < c->exclude.len; i++)
		if (path_filter_add(&c->filter.paths, false, c->exclude.data[i], &err) < 0)
			die("%s", err.buf);
	strbuf_release(&err);
	c->filter.shard_k = c->shard_k;
	c->filter.shard_n = c->shard_n;
}

static void release_config(struct run_config *c)
{
	path_filter_release(&c->filter.paths);
	for (size_t i = 0; i < c->opts.include_dirs.len; i++)
		free((char *)c->opts.include_dirs.data[i]);
	compile_options_release(&c->opts);
	array_free(&c->include_dirs_given);
	array_free(&c->inputs);
	array_free(&c->include);
	array_free(&c->exclude);
	array_free(&c->stat_patterns);
}

int cmd_run(int argc, char **argv)
{
	/* getopt_long permutes argv: run.json records the command line as given */
	char **given = xcalloc((size_t)argc + 1, sizeof(*given));
	memcpy(given, argv, (size_t)argc * sizeof(*given));
	struct run_config c = { .timeout_s = 30, .jobs_per_worker = 1000, .argc = argc,
				.argv = given };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	c.jobs = cpus > 0 ? (int)cpus : 1;
	compile_options_init(&c.opts);
	parse_options(&c, argc, argv);
	check_options(&c);
	int ret = c.merge ? run_merge(&c) : run_corpus(&c);
	release_config(&c);
	free(given);
	return ret;
}

/* ---- helpers for run.json ------------------------------------------------ */

void run_timestamp(char buf[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

json_t *run_host_json(void)
{
	struct utsname u;
	char os[2 * sizeof(u.sysname) + 2] = "";
	if (uname(&u) == 0)
		snprintf(os, sizeof(os), "%s %s", u.sysname, u.release);
	return json_pack("{s:s, s:i, s:s}", "name", uname(&u) == 0 ? u.nodename : "",
			 "cpus", (int)sysconf(_SC_NPROCESSORS_ONLN), "os", os);
}

/* shdb_version() is "shdb 0.1.0 (0ac141f-dirty)". */
void run_version(char version[32], char commit[96])
{
	const char *v = shdb_version();
	const char *sp = strchr(v, ' ');
	const char *paren = strchr(v, '(');
	snprintf(version, 32, "%.*s", paren && sp ? (int)(paren - sp - 2) : 0, sp ? sp + 1 : "");
	snprintf(commit, 96, "%.*s", paren ? (int)strcspn(paren + 1, ")") : 0,
		 paren ? paren + 1 : "");
}

json_t *run_label_json(const struct run_config *c)
{
	if (c->label)
		return json_text(c->label);
	size_t n = strlen(c->out_dir);
	while (n > 1 && c->out_dir[n - 1] == '/')
		n--;
	size_t start = n;
	while (start && c->out_dir[start - 1] != '/')
		start--;
	char *name = xstrndup(c->out_dir + start, n - start);
	json_t *j = json_text(name);
	free(name);
	return j;
}

const char *run_settings_diff(json_t *a, json_t *b)
{
	const char *key;
	json_t *v;
	json_object_foreach(a, key, v)
		if (!json_equal(v, json_object_get(b, key)))
			return key;
	json_object_foreach(b, key, v)
		if (!json_object_get(a, key))
			return key;
	return NULL;
}
