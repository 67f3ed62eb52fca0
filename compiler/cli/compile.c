/*
 * shdb compile: compile one file and print what was asked for.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/cmdline.h"
#include "compiler/record.h"
#include "compiler/compile.h"
#include "compiler/exec/exec_check.h"
#include "compiler/ir/interp.h"
#include "compiler/opt/opt.h"

static const char usage[] =
	"usage: shdb compile [OPTIONS] FILE\n\n"
	"Compile one shader file (.spv .spvasm .vert/.frag/… .glsl .slang .hlsl .shader_test\n"
	".foz .ir).\n\n"
	"Input:\n"
	"  --stage STAGE[,…]     the stage, when the file name does not say it; of a file\n"
	"                        of several stages, those to compile\n"
	"  -e, --entry NAME      entry point (HLSL, SPIR-V; default main); HLSL: given\n"
	"                        several times, each its own program\n"
	"  --program NAME        of a file of several programs, only this one (an HLSL\n"
	"                        entry point, a Fossilize pipeline's hash)\n"
	"  -D NAME[=VALUE]       preprocessor define (GLSL, HLSL)\n"
	"  -I DIR                include directory (GLSL, HLSL)\n"
	"  --glsl-mode MODE      auto (default), vulkan or relaxed (GL-style GLSL)\n"
	"  --spec ID=VALUE       set a SPIR-V specialization constant\n"
	"  --validate            run spirv-val on every SPIR-V module, given or made\n"
	"Compilation:\n"
	"  -t, --target LIST     targets, comma-separated, or 'all' (see shdb targets)\n"
	"  --passes LIST         the passes to run: 'none' or names, comma-separated: the\n"
	"                        target-independent pipeline, in order, and the optional\n"
	"                        backend passes (ir3_sched, …) that run\n"
	"  --print-after PASS    print the IR after PASS, of any pipeline (or 'all')\n"
	"  --validate-ir         validate the IR after every pass and check progress reports\n"
	"  --time-passes         print each pass's runs and time on stderr\n"
	"  --verify              run the backend's independent verifiers\n"
	"  --ra-limit N          stress mode: spill down to N 32-bit registers (a5xx+;\n"
	"                        never below what one instruction needs at once)\n"
	"  --mesa RELEASE        whose rules: main (default) or 24.3 (a7xx's longer\n"
	"                        delays, no alias.tex/alias.rt: ../shared/reference's Mesa)\n"
	"Output (any combination; default: one status line per stage and target):\n"
	"  --emit=spirv|ir       print the SPIR-V (disassembled) or the optimised IR\n"
	"  --disasm              print the target disassembly\n"
	"  --stats               print one JSON record per stage and target\n"
	"  --shaderdb            print Mesa's shader-db statistics line\n"
	"  --interp[=SEED]       run the optimised IR in the interpreter on random inputs\n"
	"                        from SEED (default 0) and print the results\n"
	"  --sim[=SEED]          run the final code in the target's simulator on the random\n"
	"                        inputs of seeds SEED (default 0) to SEED+3, compare it\n"
	"                        with the interpreter, and print SEED's results\n";

enum {
	OPT_STAGE = 256, OPT_GLSL_MODE, OPT_SPEC, OPT_VALIDATE, OPT_PASSES, OPT_PRINT_AFTER,
	OPT_VERIFY, OPT_RA_LIMIT, OPT_EMIT, OPT_DISASM, OPT_STATS, OPT_SHADERDB, OPT_VALIDATE_IR, OPT_INTERP,
	OPT_SIM,
	OPT_TIME_PASSES,
	OPT_PROGRAM,
	OPT_MESA,
};

struct compile_cmd {
	struct compile_options opts;
	ARRAY(const struct target *) targets;
	bool emit_spirv, emit_ir, disasm, stats, shaderdb;
	bool interp;			/* --interp: run the IR on inputs from interp_seed */
	uint64_t interp_seed;
	bool sim;			/* --sim: the differential test's verdicts and results */
};

static void parse_targets(struct compile_cmd *c, const char *list)
{
	if (!strcmp(list, "all")) {
		for (size_t i = 0; i < num_targets; i++)
			array_push(&c->targets, targets[i]);
		return;
	}
	char *copy = xstrdup(list), *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct target *t = target_find(tok);
		if (!t)
			die("unknown target '%s'; see 'shdb targets'", tok);
		array_push(&c->targets, t);
	}
	free(copy);
}

static void parse_spec(struct compile_cmd *c, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long id = strtoul(arg, &end, 0);
	if (errno || end == arg || *end != '=' || id > UINT32_MAX)
		die("--spec needs ID=VALUE, not '%s'", arg);
	const char *v = end + 1;
	struct spec_value s = { .id = (uint32_t)id };
	errno = 0;
	if (!strcmp(v, "true") || !strcmp(v, "false")) {
		s.bits = !strcmp(v, "true");
		end = (char *)v + strlen(v);
	} else if (strchr(v, '.') || ((strchr(v, 'e') || strchr(v, 'E')) && !strchr(v, 'x'))) {
		float f = strtof(v, &end);
		uint32_t bits;
		memcpy(&bits, &f, sizeof(bits));
		s.bits = bits;
	} else {
		s.bits = (uint64_t)strtoll(v, &end, 0);
	}
	if (errno || end == v || *end)
		die("--spec value '%s' is not a number", v);
	array_push(&c->opts.specs, s);
}

static void parse_emit(struct compile_cmd *c, const char *what)
{
	if (!strcmp(what, "spirv"))
		c->emit_spirv = c->opts.want_spirv = true;
	else if (!strcmp(what, "ir"))
		c->emit_ir = c->opts.want_ir = true;
	else
		die("--emit takes spirv or ir, not '%s'", what);
}

static void parse_interp(struct compile_cmd *c, const char *arg)
{
	char *end = NULL;
	c->interp = c->opts.want_ir = true;
	if (!arg)
		return;
	errno = 0;
	c->interp_seed = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || *arg == '-')
		die("--interp takes a seed (a number), not '%s'", arg);
}

static uint64_t parse_seed(const char *opt, const char *arg)
{
	char *end = NULL;
	errno = 0;
	uint64_t seed = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || *arg == '-')
		die("--%s takes a seed (a number), not '%s'", opt, arg);
	return seed;
}

static void parse_sim(struct compile_cmd *c, const char *arg)
{
	c->sim = c->opts.want_exec_text = true;
	c->opts.exec_seeds = EXEC_DEFAULT_SEEDS;
	if (arg)
		c->opts.exec_first_seed = parse_seed("sim", arg);
}

static void parse_options(struct compile_cmd *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "stage", required_argument, NULL, OPT_STAGE },
		{ "entry", required_argument, NULL, 'e' },
		{ "program", required_argument, NULL, OPT_PROGRAM },
		{ "glsl-mode", required_argument, NULL, OPT_GLSL_MODE },
		{ "spec", required_argument, NULL, OPT_SPEC },
		{ "validate", no_argument, NULL, OPT_VALIDATE },
		{ "target", required_argument, NULL, 't' },
		{ "passes", required_argument, NULL, OPT_PASSES },
		{ "print-after", required_argument, NULL, OPT_PRINT_AFTER },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "ra-limit", required_argument, NULL, OPT_RA_LIMIT },
		{ "mesa", required_argument, NULL, OPT_MESA },
		{ "validate-ir", no_argument, NULL, OPT_VALIDATE_IR },
		{ "time-passes", no_argument, NULL, OPT_TIME_PASSES },
		{ "emit", required_argument, NULL, OPT_EMIT },
		{ "disasm", no_argument, NULL, OPT_DISASM },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "interp", optional_argument, NULL, OPT_INTERP },
		{ "sim", optional_argument, NULL, OPT_SIM },
		{ "shaderdb", no_argument, NULL, OPT_SHADERDB },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "e:D:I:t:h", opts, NULL)) != -1) {
		switch (ch) {
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
		case OPT_PROGRAM: c->opts.program = optarg; break;
		case 'D': array_push(&c->opts.defines, optarg); break;
		case 'I': array_push(&c->opts.include_dirs, optarg); break;
		case OPT_GLSL_MODE:
			if (!strcmp(optarg, "auto"))
				c->opts.glsl_mode = GLSL_MODE_AUTO;
			else if (!strcmp(optarg, "vulkan"))
				c->opts.glsl_mode = GLSL_MODE_VULKAN;
			else if (!strcmp(optarg, "relaxed"))
				c->opts.glsl_mode = GLSL_MODE_RELAXED;
			else
				die("--glsl-mode takes auto, vulkan or relaxed, not '%s'", optarg);
			break;
		case OPT_SPEC: parse_spec(c, optarg); break;
		case OPT_VALIDATE: c->opts.validate = true; break;
		case 't': parse_targets(c, optarg); break;
		case OPT_PASSES: c->opts.passes = optarg; break;
		case OPT_PRINT_AFTER:
			c->opts.print_after = optarg;
			c->emit_ir = c->opts.want_ir = true;
			break;
		case OPT_VALIDATE_IR: c->opts.validate_ir = true; break;
		case OPT_TIME_PASSES: c->opts.time_passes = true; break;
		case OPT_VERIFY: c->opts.verify = true; break;
		case OPT_RA_LIMIT:
			c->opts.ra_limit = (unsigned)parse_long_option("--ra-limit", optarg, 1, 192);
			break;
		case OPT_MESA: {
			struct strbuf err = STRBUF_INIT;
			if (mesa_rules_parse(optarg, &c->opts.mesa, &err) < 0)
				die("%s", err.buf);
			break;
		}
		case OPT_EMIT: parse_emit(c, optarg); break;
		case OPT_DISASM: c->disasm = c->opts.want_disasm = true; break;
		case OPT_STATS: c->stats = true; break;
		case OPT_SHADERDB: c->shaderdb = true; break;
		case OPT_INTERP: parse_interp(c, optarg); break;
		case OPT_SIM: parse_sim(c, optarg); break;
		case 'h': usage_exit(usage, true);
		default: usage_exit(usage, false);
		}
	}
	if (argc - optind != 1)
		usage_exit(usage, false);
	struct strbuf err = STRBUF_INIT;
	if (!compile_check_passes(c->opts.passes, c->opts.print_after, &err))
		die("%s", err.buf);
	strbuf_release(&err);
}

/*
 * --interp: the optimised shader (the last one in the IR text, after any
 * --print-after dumps) run on the random inputs of the seed
 * (compiler/ir/INTERP.md).
 */
static void print_interp(const struct compile_cmd *c, const char *path, const char *ir,
			 struct strbuf *sb)
{
	const char *start = ir;
	for (const char *p = ir; (p = strstr(p, "shader ")); p++)
		if (p == ir || p[-1] == '\n')
			start = p;
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse(path, start, strlen(start), &d);
	if (!s) {
		strbuf_addf(sb, "interp: the IR does not parse:\n%s", d.text.buf);
		diag_release(&d);
		return;
	}
	struct interp_inputs *in = interp_inputs_random(s, c->interp_seed);
	struct interp_result *r = interp_run(s, in, NULL);
	strbuf_addf(sb, "; interp seed %llu\n", (unsigned long long)c->interp_seed);
	interp_inputs_print(s, in, sb);
	interp_result_print(s, r, sb);
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
	diag_release(&d);
}

/* The name a result's record carries: the file, or "<file>/<program>". */
static void record_path(struct strbuf *sb, const char *path, const struct compile_result *r)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, path);
	if (r->program)
		strbuf_addf(sb, "/%s", r->program);
}

/* "fragment a630" or "fragment": how a result is labelled in text output. */
static void label(struct strbuf *sb, const struct compile_result *r)
{
	strbuf_addstr(sb, stage_name(r->stage));
	if (r->target)
		strbuf_addf(sb, " %s", r->target->name);
}

/* --sim: the verdict of the differential test, then the results. */
static void print_sim(const char *path, const struct compile_result *r, struct strbuf *sb)
{
	strbuf_addf(sb, "%s: ", path);
	label(sb, r);
	switch (r->exec) {
	case EXEC_AGREE: strbuf_addstr(sb, ": sim: agrees with the interpreter\n"); break;
	case EXEC_AGREE_LOWERED:
		strbuf_addstr(sb, ": sim: agrees with the interpreter, on some seeds with the lowered "
			      "shader only (the lowerings' float approximations)\n");
		break;
	case EXEC_DIFFER: strbuf_addf(sb, ": sim: %s\n", r->message); break;
	case EXEC_CANNOT_RUN: strbuf_addf(sb, ": sim: cannot run: %s\n", r->exec_note); break;
	default: strbuf_addf(sb, ": sim: not run (%s)\n", result_status_name(r->status)); break;
	}
	if (r->exec_text)
		strbuf_addstr(sb, r->exec_text);
}

static void print_result(const struct compile_cmd *c, const char *path,
			 const struct compile_result *r, bool several, bool first_of_stage)
{
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	bool any = c->emit_spirv || c->emit_ir || c->disasm || c->stats || c->shaderdb || c->interp ||
		   c->sim;

	record_path(&name, path, r);
	path = name.buf;
	if (!any) {
		strbuf_addf(&sb, "%s: ", path);
		label(&sb, r);
		strbuf_addf(&sb, ": %s\n", result_status_name(r->status));
	}
	/* Mesa's lines name no target: with several, a separator says whose
	 * they are (a Mesa-log reader skips it) */
	bool shaderdb_line = c->shaderdb && r->status == RESULT_OK && r->target;
	if ((several && (c->emit_spirv || c->emit_ir || c->disasm) &&
	     (r->spirv || r->ir || r->disasm)) ||
	    (shaderdb_line && c->targets.len > 1 && !(c->emit_spirv || c->emit_ir || c->disasm))) {
		strbuf_addstr(&sb, "; ---- ");
		if (r->program)
			strbuf_addf(&sb, "%s ", r->program);
		label(&sb, r);
		strbuf_addstr(&sb, " ----\n");
	}
	if (c->emit_spirv && r->spirv)
		strbuf_addstr(&sb, r->spirv);
	if (c->emit_ir && r->ir)
		strbuf_addstr(&sb, r->ir);
	if (c->disasm && r->disasm)
		strbuf_addstr(&sb, r->disasm);
	if (c->interp && r->ir && first_of_stage)
		print_interp(c, path, r->ir, &sb);
	if (c->sim && r->target)
		print_sim(path, r, &sb);
	if (c->stats) {
		record_append_json(&sb, path, r, true);
		strbuf_addch(&sb, '\n');
	}
	if (shaderdb_line) {
		record_append_shaderdb(&sb, path, r);
		strbuf_addch(&sb, '\n');
	}
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	strbuf_release(&name);
}

/* --time-passes: every pass of every pipeline, in the order they first ran. */
static void print_times(const pass_times *times)
{
	fprintf(stderr, "%-28s %8s %8s %12s\n", "pass", "runs", "progress", "ms");
	for (size_t i = 0; i < times->len; i++) {
		const struct pass_time *t = &times->data[i];
		fprintf(stderr, "%-28s %8u %8u %12.3f\n", t->name, t->runs, t->progress,
			(double)t->ns / 1e6);
	}
}

int cmd_compile(int argc, char **argv)
{
	struct compile_cmd c = { 0 };
	struct compile_output out;

	compile_options_init(&c.opts);
	/* test only (tests/t0820-sim.sh): break backend passes on purpose */
	c.opts.test_break = getenv("SHDB_IR3_BREAK");
	parse_options(&c, argc, argv);
	const char *path = argv[optind];

	compile_output_init(&out);
	int ret = compile_file(path, &c.opts, c.targets.data, c.targets.len, &out);
	for (size_t i = 0; i < out.results.len; i++)
		print_result(&c, path, &out.results.data[i], out.results.len > 1,
			     !i || out.results.data[i - 1].stage != out.results.data[i].stage);
	fflush(stdout);
	fputs(out.diag.text.buf, stderr);
	if (c.opts.time_passes)
		print_times(&out.times);

	compile_output_release(&out);
	compile_options_release(&c.opts);
	array_free(&c.targets);
	return ret < 0 ? EXIT_WORK_FAILED : 0;
}
