/*
 * shdb targets: the modelled GPUs, one line each with the parameters that
 * shape their statistics, one table per family (its own columns).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "compiler/etna/etna_info.h"
#include "compiler/ir3/ir3_info.h"
#include "compiler/target.h"
#include "compiler/util/cmdline.h"
#include "compiler/util/error.h"

static const char usage[] =
	"usage: shdb targets [--names] [--family NAME]\n\n"
	"List the modelled GPUs with their key parameters.\n\n"
	"  --names          print only the target names, one per line\n"
	"  --family NAME    only the targets of one family (ir3, etna)\n";

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static void header_ir3(void)
{
	printf("%-6s %-4s %3s %5s %4s %4s %5s %6s %5s %5s %5s %-6s %s\n", "name", "fam", "gen",
	       "regs", "thr", "gran", "const", "half", "spill", "delay", "nopN", "alias",
	       "description");
}

static void print_ir3(const struct target *t)
{
	const struct ir3_info *i = t->ir3;
	printf("%-6s %-4s %3u %5u %4u %4u %5u %6s %5s %d/%d/%d %5s %-6s %s\n",
	       t->name, target_family_name(t->family), i->gen, i->reg_size_vec4,
	       i->threadsize_base, i->wave_granularity, i->max_const_frag,
	       i->mergedregs ? "merged" : "split", yes_no(i->has_pvtmem),
	       i->delay.alu_to_alu, i->delay.non_alu, i->delay.cat3_src2_read,
	       yes_no(i->has_nop_flag),
	       i->has_alias_rt ? "tex+rt" : i->has_alias_tex ? "tex" : "-", t->description);
}

static const char legend_ir3[] =
	"regs: register file per fiber (vec4); thr: threads per wave; gran: wave\n"
	"granularity; const: FS const file (vec4); delay: ALU->ALU / ALU->non-ALU /\n"
	"cat3 src2 read (targets.md 1.2, 1.6).\n";

static void header_etna(void)
{
	printf("%-6s %-4s %5s %5s %6s %7s %4s %4s %5s %6s %8s %s\n", "name", "fam", "halti",
	       "temps", "instrs", "unif", "vary", "int", "imm", "transc", "oneconst",
	       "description");
}

static void print_etna(const struct target *t)
{
	const struct etna_info *i = t->etna;
	char instrs[16], unif[16];
	if (i->has_icache)
		snprintf(instrs, sizeof(instrs), "icache");
	else
		snprintf(instrs, sizeof(instrs), "%u", i->max_instructions);
	snprintf(unif, sizeof(unif), "%u/%u", i->max_vs_uniforms, i->max_ps_uniforms);
	printf("%-6s %-4s %5u %5u %6s %7s %4u %4s %5s %6s %8s %s\n", t->name,
	       target_family_name(t->family), i->halti, i->max_temps, instrs, unif,
	       i->max_varyings, yes_no(i->has_integers), yes_no(i->has_immediates),
	       i->has_new_transcendentals ? "fast" : "-", i->has_no_oneconst_limit ? "no" : "yes",
	       t->description);
}

static const char legend_etna[] =
	"temps: vec4 temporaries; instrs: the instruction limit, or an instruction\n"
	"cache; unif: VS/PS uniforms (vec4); vary: FS varyings; int, imm: integers and\n"
	"immediates (HALTI2+); transc: fast transcendentals (a vec2 and a mul);\n"
	"oneconst: one uniform per instruction (targets.md 4.1, 4.2).\n";

/* One family's table: its header, the rows of its targets, its legend. */
static const struct family_table {
	enum target_family family;
	void (*header)(void);
	void (*row)(const struct target *t);
	const char *legend;
} tables[] = {
	{ TARGET_FAMILY_IR3, header_ir3, print_ir3, legend_ir3 },
	{ TARGET_FAMILY_ETNA, header_etna, print_etna, legend_etna },
};

int cmd_targets(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "names", no_argument, NULL, 'n' },
		{ "family", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int names_only = 0, c;
	const char *family = NULL;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			names_only = 1;
			break;
		case 'f':
			family = optarg;
			break;
		case 'h':
			usage_exit(usage, true);
		default:
			usage_exit(usage, false);
		}
	}
	if (optind < argc)
		usage_exit(usage, false);
	if (family && strcmp(family, target_family_name(TARGET_FAMILY_IR3)) &&
	    strcmp(family, target_family_name(TARGET_FAMILY_ETNA)))
		die("unknown family '%s' (ir3, etna)", family);

	bool first = true;
	for (size_t f = 0; f < sizeof(tables) / sizeof(tables[0]); f++) {
		const struct family_table *tab = &tables[f];
		if (family && strcmp(family, target_family_name(tab->family)))
			continue;
		if (!names_only) {
			printf("%s", first ? "" : "\n");
			tab->header();
		}
		first = false;
		for (size_t i = 0; i < num_targets; i++) {
			if (targets[i]->family != tab->family)
				continue;
			if (names_only)
				printf("%s\n", targets[i]->name);
			else
				tab->row(targets[i]);
		}
		if (!names_only)
			printf("\n%s", tab->legend);
	}
	return 0;
}
