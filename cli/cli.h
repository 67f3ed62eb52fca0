/*
 * The `shdb` command line, on top of everything (cli/main.c dispatches): one
 * function per subcommand, each in the folder of the code it drives
 * (compiler/cli for compile and targets, runner/, stats/, cmp/, reports/),
 * which include only compiler/util/cmdline.h of the command line.
 */
#ifndef SHDB_CLI_H
#define SHDB_CLI_H

typedef int (*command_fn)(int argc, char **argv);

struct command {
	const char *name;
	command_fn fn;		/* NULL: not implemented yet */
	const char *summary;
};

extern const struct command commands[];

int cmd_compile(int argc, char **argv);
int cmd_targets(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_cmp(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
