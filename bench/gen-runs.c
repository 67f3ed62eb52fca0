/*
 * gen-runs: write a synthetic "before" and "after" run for benchmarks (and
 * tests) of shdb stats / shdb cmp.
 *
 *	gen-runs [--records N] [--changed PERCENT] [--seed S] [--format F] DIR
 *
 * N records (default 200000) = N/2 shader files x {vertex, fragment}, in
 * 400 apps, target a630, the 27 ir3 statistics; PERCENT (default 10) of the
 * records differ in "after" (mostly a little better, sometimes worse; 1 in 50
 * changes its loop count).  F is jsonl (DIR/before.jsonl, after.jsonl), mesa
 * (ir3 shader-db lines, before.txt / after.txt, the format of report.py's
 * benchmark in shaderdb-tools.md §5) or csv (turnip fossilize CSV).  The
 * output depends only on the arguments.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum format { FMT_JSONL, FMT_MESA, FMT_CSV };

/* The ir3 statistics, as JSON keys and as Mesa line names (stats/stats.def). */
enum { INST, NOPS, NON_NOPS, MOV, COV, DWORDS, LAST_BARYF, LAST_HELPER, HALF, FULL, CONSTLEN,
       CAT0, CAT1, CAT2, CAT3, CAT4, CAT5, CAT6, CAT7, STP, LDP, SSTALL, SS, SYSTALL, SY,
       WAVES, LOOPS, NSTATS };

static const char *const json_key[NSTATS] = {
	"inst", "nops", "non_nops", "mov", "cov", "dwords", "last_baryf", "last_helper", "half",
	"full", "constlen", "cat0", "cat1", "cat2", "cat3", "cat4", "cat5", "cat6", "cat7", "stp",
	"ldp", "sstall", "ss", "systall", "sy", "waves", "loops",
};
static const char *const mesa_name[NSTATS] = {
	"inst", "nops", "non-nops", "mov", "cov", "dwords", "last-baryf", "last-helper", "half",
	"full", "constlen", "cat0", "cat1", "cat2", "cat3", "cat4", "cat5", "cat6", "cat7", "stp",
	"ldp", "sstall", "(ss)", "systall", "(sy)", "waves", "loops",
};
static const char *const csv_name[NSTATS] = {
	"Instruction Count", "NOPs Count", NULL, "MOV Count", "COV Count", "Code size",
	"Last interpolation instruction", "Last helper instruction", "Half-registers used",
	"Registers used", "Const file size", "cat0 instructions", "cat1 instructions",
	"cat2 instructions", "cat3 instructions", "cat4 instructions", "cat5 instructions",
	"cat6 instructions", "cat7 instructions", "STP Count", "LDP Count",
	"Estimated cycles stalled on SS", "Instructions with SS sync bit",
	"Estimated cycles stalled on SY", "Instructions with SY sync bit", "Max Waves Per Core",
	"Loops",
};

struct rng {
	uint64_t s;
};

static uint64_t next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned below(struct rng *r, unsigned n)
{
	return (unsigned)(next(r) % n);
}

/* Plausible ir3 statistics for one shader. */
static void make_stats(struct rng *r, int fragment, long v[NSTATS])
{
	long inst = 8 + below(r, 40) + (below(r, 8) ? 0 : below(r, 600));
	v[INST] = inst;
	v[NOPS] = inst * (10 + below(r, 30)) / 100;
	v[NON_NOPS] = inst - v[NOPS];
	v[MOV] = v[NON_NOPS] / (3 + below(r, 6));
	v[COV] = below(r, 4) ? 0 : below(r, 6);
	v[DWORDS] = 2 * (inst + 4 > (inst + 15) / 16 * 16 ? inst + 4 : (inst + 15) / 16 * 16);
	v[LAST_BARYF] = fragment ? below(r, 1 + (unsigned)inst / 3) : 0;
	v[LAST_HELPER] = fragment ? inst - below(r, 1 + (unsigned)inst / 4) : 0;
	v[HALF] = 0;
	v[FULL] = 2 + below(r, 12) + (below(r, 10) ? 0 : below(r, 30));
	v[CONSTLEN] = 4 * (1 + below(r, 16));
	long rest = v[NON_NOPS];
	v[CAT0] = v[NOPS];
	v[CAT1] = v[MOV] + v[COV];
	rest -= v[CAT1];
	v[CAT2] = rest / 2;
	v[CAT3] = rest / 4;
	v[CAT4] = rest / 16;
	v[CAT5] = fragment ? rest / 16 : 0;
	v[CAT6] = rest - v[CAT2] - v[CAT3] - v[CAT4] - v[CAT5];
	v[CAT7] = below(r, 3);
	v[STP] = v[FULL] > 30 ? below(r, 16) : 0;
	v[LDP] = v[STP] ? v[STP] + below(r, 8) : 0;
	v[SSTALL] = below(r, 20);
	v[SS] = below(r, 6);
	v[SYSTALL] = below(r, 60);
	v[SY] = below(r, 4);
	v[WAVES] = v[FULL] > 24 ? 4 : v[FULL] > 12 ? 8 : 16;
	v[LOOPS] = below(r, 20) ? 0 : 1 + below(r, 2);
}

/* The "after" version of a changed shader: mostly a few instructions fewer. */
static void change_stats(struct rng *r, long v[NSTATS])
{
	long d = (long)below(r, 7) - 4;		/* -4 .. +2 */
	if (!d)
		d = -1;
	if (v[INST] + d < 1)
		d = 1;
	v[INST] += d;
	v[NON_NOPS] += d;
	v[CAT2] += d;
	if (v[CAT2] < 0)
		v[CAT2] = 0;
	v[DWORDS] = 2 * (v[INST] + 4 > (v[INST] + 15) / 16 * 16 ? v[INST] + 4 : (v[INST] + 15) / 16 * 16);
	if (!below(r, 4)) {
		v[FULL] += below(r, 2) ? 1 : -1;
		if (v[FULL] < 1)
			v[FULL] = 1;
		v[WAVES] = v[FULL] > 24 ? 4 : v[FULL] > 12 ? 8 : 16;
	}
	if (!below(r, 3))
		v[SSTALL] += (long)below(r, 5) - 2;
	if (v[SSTALL] < 0)
		v[SSTALL] = 0;
	if (!below(r, 50))
		v[LOOPS] = v[LOOPS] ? 0 : 1;
}

static void write_jsonl(FILE *f, const char *path, int fragment, const long v[NSTATS], long us)
{
	fprintf(f, "{\"path\":\"%s\",\"stage\":\"%s\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{",
		path, fragment ? "fragment" : "vertex");
	for (int i = 0; i < NSTATS; i++)
		fprintf(f, "%s\"%s\":%ld", i ? "," : "", json_key[i], v[i]);
	fprintf(f, "},\"time_us\":%ld}\n", us);
}

static void write_mesa(FILE *f, const char *path, int fragment, const long v[NSTATS])
{
	fprintf(f, "%s - %s shader: ", path, fragment ? "FRAG" : "VERT");
	for (int i = 0; i < NSTATS; i++)
		fprintf(f, "%s%ld %s", i ? ", " : "", v[i], mesa_name[i]);
	fputc('\n', f);
}

static void write_csv_header(FILE *f)
{
	fputs("Database,Pipeline type,Pipeline hash,PSO wall duration (ns),PSO duration (ns),"
	      "Stage duration (ns),Executable name,Subgroup size", f);
	for (int i = 0; i < NSTATS; i++)
		if (csv_name[i])
			fprintf(f, ",%s", csv_name[i]);
	fputc('\n', f);
}

static void write_csv(FILE *f, unsigned app, unsigned file, int fragment, const long v[NSTATS],
		      long us)
{
	fprintf(f, "fossils/app_%u/app_%u.foz,GRAPHICS,%016x,%ld,%ld,%ld,%s,128", app, app, file,
		us * 2000, us * 1500, us * 1000, fragment ? "FS" : "VS");
	for (int i = 0; i < NSTATS; i++)
		if (csv_name[i])
			fprintf(f, ",%ld", v[i]);
	fputc('\n', f);
}

struct options {
	long records;
	unsigned changed_percent;
	uint64_t seed;
	enum format format;
	const char *dir;
};

static void record(const struct options *o, FILE *before, FILE *after, long i)
{
	unsigned file = (unsigned)(i / 2), app = file % 400;
	int fragment = (int)(i % 2);
	struct rng r = { o->seed * 1000003u + (uint64_t)i };
	long v[NSTATS];
	make_stats(&r, fragment, v);
	long us = 200 + below(&r, 3000);
	char path[64];
	snprintf(path, sizeof(path), "shaders/app_%u/%u.shader_test", app, file);
	for (int side = 0; side < 2; side++) {
		FILE *f = side ? after : before;
		if (side && below(&r, 100) < o->changed_percent)
			change_stats(&r, v);
		if (o->format == FMT_JSONL)
			write_jsonl(f, path, fragment, v, us);
		else if (o->format == FMT_MESA)
			write_mesa(f, path, fragment, v);
		else
			write_csv(f, app, file, fragment, v, us);
	}
}

static FILE *create(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

static int generate(const struct options *o)
{
	static const char *const ext[] = { "jsonl", "txt", "csv" };
	char bname[32], aname[32];
	snprintf(bname, sizeof(bname), "before.%s", ext[o->format]);
	snprintf(aname, sizeof(aname), "after.%s", ext[o->format]);
	FILE *before = create(o->dir, bname), *after = create(o->dir, aname);
	if (o->format == FMT_CSV) {
		write_csv_header(before);
		write_csv_header(after);
	}
	for (long i = 0; i < o->records; i++)
		record(o, before, after, i);
	if (o->format == FMT_MESA) {
		fprintf(before, "Thread 0 took %.2f seconds and compiled %ld shaders\n", o->records / 1e4, o->records);
		fprintf(after, "Thread 0 took %.2f seconds and compiled %ld shaders\n", o->records / 9e3, o->records);
	}
	int bad = ferror(before) | ferror(after);
	bad |= fclose(before) | fclose(after);
	if (bad)
		fprintf(stderr, "gen-runs: write error in %s\n", o->dir);
	return bad ? 1 : 0;
}

static const char usage[] =
	"usage: gen-runs [--records N] [--changed PERCENT] [--seed S] [--format jsonl|mesa|csv] DIR\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "records", required_argument, NULL, 'n' },
		{ "changed", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ 0 },
	};
	struct options o = { .records = 200000, .changed_percent = 10, .seed = 1 };
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'n')
			o.records = atol(optarg);
		else if (c == 'c')
			o.changed_percent = (unsigned)atoi(optarg);
		else if (c == 's')
			o.seed = strtoull(optarg, NULL, 10);
		else if (c == 'f' && (!strcmp(optarg, "jsonl") || !strcmp(optarg, "mesa") || !strcmp(optarg, "csv")))
			o.format = !strcmp(optarg, "jsonl") ? FMT_JSONL : !strcmp(optarg, "mesa") ? FMT_MESA : FMT_CSV;
		else {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc || o.records < 0) {
		fputs(usage, stderr);
		return 2;
	}
	o.dir = argv[optind];
	return generate(&o);
}
