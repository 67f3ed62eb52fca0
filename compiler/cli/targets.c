/*
 * shdb targets: the modelled GPUs, one line each with the parameters that
 * shape their statistics.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "compiler/util/cmdline.h"
#include "compiler/ir3/ir3_info.h"
#include "compiler/target.h"

static const char usage[] =
	"usage: shdb targets [--names]\n\n"
	"List the modelled GPUs with their key parameters.\n\n"
	"  --names   print only the target names, one per line\n";

static void print_ir3(const struct target *t)
{
	const struct ir3_info *i = t->ir3;
	printf("%-6s %-4s %3u %5u %4u %4u %5u %6s %5s %d/%d/%d %5s %-6s %s\n",
	       t->name, target_family_name(t->family), i->gen, i->reg_size_vec4,
	       i->threadsize_base, i->wave_granularity, i->max_const_frag,
	       i->mergedregs ? "merged" : "split", i->has_pvtmem ? "yes" : "no",
	       i->delay.alu_to_alu, i->delay.non_alu, i->delay.cat3_src2_read,
	       i->has_nop_flag ? "yes" : "no",
	       i->has_alias_rt ? "tex+rt" : i->has_alias_tex ? "tex" : "-", t->description);
}

int cmd_targets(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "names", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int names_only = 0, c;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			names_only = 1;
			break;
		case 'h':
			usage_exit(usage, true);
		default:
			usage_exit(usage, false);
		}
	}
	if (optind < argc)
		usage_exit(usage, false);

	if (!names_only)
		printf("%-6s %-4s %3s %5s %4s %4s %5s %6s %5s %5s %5s %-6s %s\n", "name",
		       "fam", "gen", "regs", "thr", "gran", "const", "half", "spill",
		       "delay", "nopN", "alias", "description");
	for (size_t i = 0; i < num_targets; i++) {
		if (names_only)
			printf("%s\n", targets[i]->name);
		else
			print_ir3(targets[i]);
	}
	if (!names_only)
		printf("\nregs: register file per fiber (vec4); thr: threads per wave; gran: wave\n"
		       "granularity; const: FS const file (vec4); delay: ALU->ALU / ALU->non-ALU /\n"
		       "cat3 src2 read (targets.md 1.2, 1.6).\n");
	return 0;
}
