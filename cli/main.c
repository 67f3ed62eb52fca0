/*
 * shdb: dispatch to a subcommand.
 *
 *	shdb [--version] [--help] COMMAND [ARGS...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "compiler/util/cmdline.h"
#include "compiler/util/error.h"
#include "version.h"

#define SHDB_VERSION "0.1.0"

const struct command commands[] = {
	{ "compile", cmd_compile, "compile one shader file and print IR, disassembly or statistics" },
	{ "run", cmd_run, "compile whole corpora for every target, in parallel" },
	{ "stats", cmd_stats, "summarise a run" },
	{ "cmp", cmd_cmp, "compare two runs: helped, hurt, lost and gained shaders" },
	{ "report", cmd_report, "render a nightly report over a history of runs" },
	{ "targets", cmd_targets, "list the modelled GPUs and their parameters" },
	{ "help", NULL, "show help for shdb or for one command" },
	{ NULL, NULL, NULL },
};

const char *shdb_version(void)
{
	return "shdb " SHDB_VERSION " (" SHDB_GIT_DESCRIBE ")";
}

static void print_help(FILE *f)
{
	fprintf(f, "usage: shdb [--version] [--help] COMMAND [ARGS...]\n\n"
		   "A shader-db analysis and benchmarking suite.\n\nCommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-9s %s%s\n", c->name, c->summary,
			c->fn || !strcmp(c->name, "help") ? "" : " (not implemented yet)");
	fprintf(f, "\n'shdb help COMMAND' or 'shdb COMMAND --help' shows a command's options.\n");
}

static const struct command *find_command(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static int run_command(const struct command *c, int argc, char **argv)
{
	if (!c->fn)
		die("'%s' is not implemented yet", c->name);
	/* getopt names the program by argv[0]: "shdb cmp: unrecognized option" */
	char name[64];
	snprintf(name, sizeof(name), "shdb %s", c->name);
	argv[0] = name;
	int status = c->fn(argc, argv);
	if (fflush(stdout) != 0 || ferror(stdout))
		die_status(EXIT_WORK_FAILED, "cannot write to standard output");
	return status;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("%s\n", shdb_version());
		return 0;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(name, "help")) {
		if (argc < 3) {
			print_help(stdout);
			return 0;
		}
		if (!strcmp(argv[2], "help") || !strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
			print_help(stdout);
			return 0;
		}
		const struct command *c = find_command(argv[2]);
		if (!c)
			die("'%s' is not a shdb command; see 'shdb help'", argv[2]);
		char *help_argv[] = { argv[2], "--help", NULL };
		return run_command(c, 2, help_argv);
	}
	if (name[0] == '-')
		die("unknown option '%s'; see 'shdb help'", name);
	const struct command *c = find_command(name);
	if (!c)
		die("'%s' is not a shdb command; see 'shdb help'", name);
	return run_command(c, argc - 1, argv + 1);
}
