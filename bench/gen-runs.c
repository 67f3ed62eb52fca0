/*
 * gen-runs: write a synthetic "before" and "after" run for benchmarks (and
 * tests) of shdb stats / shdb cmp, or a history of nightly runs for shdb report.
 *
 *	gen-runs [--records N] [--changed PERCENT] [--seed S] [--format F] DIR
 *	gen-runs --history RUNS [--records N] [--changed PERCENT] [--seed S]
 *	         [--targets LIST] [--regress PERCENT] [--asm] DIR
 *
 * N records (default 200000) = N/2 shader files x {vertex, fragment}, in
 * 400 apps, target a630, the 27 ir3 statistics; PERCENT (default 10) of the
 * records differ in "after" (mostly a little better, sometimes worse; 1 in 50
 * changes its loop count).  F is jsonl (DIR/before.jsonl, after.jsonl), mesa
 * (ir3 shader-db lines, before.txt / after.txt, the format of report.py's
 * benchmark in shaderdb-tools.md §5) or csv (turnip fossilize CSV).  The
 * output depends only on the arguments.
 *
 * --history: RUNS run folders DIR/night-001 … (run.json: one date a night
 * from 2025-06-01, label, commit; stats.jsonl: N records per target of
 * LIST, default a630), each night PERCENT of the records changed from the
 * night before.  --regress PERCENT: the last night makes that many records
 * worse (a few more instructions, nops and (ss)); half of them were as bad
 * three nights before and fixed since (a regression that comes back).
 * --asm: an asm.pack per run, a made-up listing whose lines follow the
 * statistics.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stats/asm_pack.h"
#include "stats/stat.h"

enum format { FMT_JSONL, FMT_MESA, FMT_CSV };

/* The ir3 statistics: the first rows of the statistics table, inst … loops
 * (stats/stats.def), which also gives their JSON keys and Mesa names. */
enum { NSTATS = STAT_LOOPS + 1 };
_Static_assert(STAT_INST == 0 && STAT_WAVES + 1 == STAT_LOOPS, "the ir3 rows come first, in Mesa's order");

/* Fossilize CSV columns (turnip's names, aliases in the table). */
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
	v[STAT_INST] = inst;
	v[STAT_NOPS] = inst * (10 + below(r, 30)) / 100;
	v[STAT_NON_NOPS] = inst - v[STAT_NOPS];
	v[STAT_MOV] = v[STAT_NON_NOPS] / (3 + below(r, 6));
	v[STAT_COV] = below(r, 4) ? 0 : below(r, 6);
	v[STAT_DWORDS] = 2 * (inst + 4 > (inst + 15) / 16 * 16 ? inst + 4 : (inst + 15) / 16 * 16);
	v[STAT_LAST_BARYF] = fragment ? below(r, 1 + (unsigned)inst / 3) : 0;
	v[STAT_LAST_HELPER] = fragment ? inst - below(r, 1 + (unsigned)inst / 4) : 0;
	v[STAT_HALF] = 0;
	v[STAT_FULL] = 2 + below(r, 12) + (below(r, 10) ? 0 : below(r, 30));
	v[STAT_CONSTLEN] = 4 * (1 + below(r, 16));
	long rest = v[STAT_NON_NOPS];
	v[STAT_CAT0] = v[STAT_NOPS];
	v[STAT_CAT1] = v[STAT_MOV] + v[STAT_COV];
	rest -= v[STAT_CAT1];
	v[STAT_CAT2] = rest / 2;
	v[STAT_CAT3] = rest / 4;
	v[STAT_CAT4] = rest / 16;
	v[STAT_CAT5] = fragment ? rest / 16 : 0;
	v[STAT_CAT6] = rest - v[STAT_CAT2] - v[STAT_CAT3] - v[STAT_CAT4] - v[STAT_CAT5];
	v[STAT_CAT7] = below(r, 3);
	v[STAT_STP] = v[STAT_FULL] > 30 ? below(r, 16) : 0;
	v[STAT_LDP] = v[STAT_STP] ? v[STAT_STP] + below(r, 8) : 0;
	v[STAT_SSTALL] = below(r, 20);
	v[STAT_SS] = below(r, 6);
	v[STAT_SYSTALL] = below(r, 60);
	v[STAT_SY] = below(r, 4);
	v[STAT_WAVES] = v[STAT_FULL] > 24 ? 4 : v[STAT_FULL] > 12 ? 8 : 16;
	v[STAT_LOOPS] = below(r, 20) ? 0 : 1 + below(r, 2);
}

/* The "after" version of a changed shader: mostly a few instructions fewer. */
static void change_stats(struct rng *r, long v[NSTATS])
{
	long d = (long)below(r, 7) - 4;		/* -4 .. +2 */
	if (!d)
		d = -1;
	if (v[STAT_INST] + d < 1)
		d = 1;
	v[STAT_INST] += d;
	v[STAT_NON_NOPS] += d;
	v[STAT_CAT2] += d;
	if (v[STAT_CAT2] < 0)
		v[STAT_CAT2] = 0;
	v[STAT_DWORDS] = 2 * (v[STAT_INST] + 4 > (v[STAT_INST] + 15) / 16 * 16 ? v[STAT_INST] + 4 : (v[STAT_INST] + 15) / 16 * 16);
	if (!below(r, 4)) {
		v[STAT_FULL] += below(r, 2) ? 1 : -1;
		if (v[STAT_FULL] < 1)
			v[STAT_FULL] = 1;
		v[STAT_WAVES] = v[STAT_FULL] > 24 ? 4 : v[STAT_FULL] > 12 ? 8 : 16;
	}
	if (!below(r, 3))
		v[STAT_SSTALL] += (long)below(r, 5) - 2;
	if (v[STAT_SSTALL] < 0)
		v[STAT_SSTALL] = 0;
	if (!below(r, 50))
		v[STAT_LOOPS] = v[STAT_LOOPS] ? 0 : 1;
}

static void write_jsonl(FILE *f, const char *path, int fragment, const long v[NSTATS], long us)
{
	fprintf(f, "{\"path\":\"%s\",\"stage\":\"%s\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{",
		path, fragment ? "fragment" : "vertex");
	for (int i = 0; i < NSTATS; i++)
		fprintf(f, "%s\"%s\":%ld", i ? "," : "", stat_table[i].key, v[i]);
	fprintf(f, "},\"time_us\":%ld}\n", us);
}

static void write_mesa(FILE *f, const char *path, int fragment, const long v[NSTATS])
{
	fprintf(f, "%s - %s shader: ", path, fragment ? "FRAG" : "VERT");
	for (int i = 0; i < NSTATS; i++)
		fprintf(f, "%s%ld %s", i ? ", " : "", v[i], stat_table[i].mesa);
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
	int history;			/* runs; 0: before and after */
	const char *targets;
	unsigned regress_percent;
	bool asm_pack;
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

static FILE *create_in(const char *dir, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, name);
	FILE *f = fopen(path.buf, "w");
	if (!f) {
		perror(path.buf);
		exit(1);
	}
	strbuf_release(&path);
	return f;
}

/* ---- --history ---- */

/* One record of the history: its statistics as of the night being written. */
struct hrec {
	long v[NSTATS];
};

static void record_path(char *buf, size_t n, long file)
{
	snprintf(buf, n, "shaders/app_%ld/%ld.shader_test", file % 400, file);
}

/* A made-up ir3 listing: line k of a record depends only on the record and k,
 * so a change of inst adds or removes lines at the end. */
static void listing(struct strbuf *sb, long rec, const long v[NSTATS])
{
	static const char *const ops[] = { "mov.f32f32 r%ld.x, c%ld.y", "add.f r%ld.y, r%ld.x, r0.z",
					   "mad.f32 r%ld.z, r%ld.x, c2.x, r1.w", "nop",
					   "sam (f32)(xyzw)r%ld.x, r%ld.x, s#0, t#0",
					   "(ss)mul.f r%ld.w, r%ld.y, hr0.x", "ldg.u32 r%ld.x, r%ld.y, 1" };
	strbuf_reset(sb);
	for (long k = 0; k < v[STAT_INST]; k++) {
		struct rng r = { (uint64_t)rec * 7919u + (uint64_t)k };
		unsigned op = below(&r, sizeof(ops) / sizeof(ops[0]));
		strbuf_addf(sb, "%04lx: ", k);
		strbuf_addf(sb, ops[op], (long)below(&r, 48), (long)below(&r, 48));
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, "end\n");
}

/* Worse: a few more instructions, nops and (ss). */
static void regress(struct rng *r, long v[NSTATS])
{
	long d = 1 + (long)below(r, 4);
	v[STAT_INST] += d;
	v[STAT_NOPS] += d;
	v[STAT_CAT0] += d;
	v[STAT_SS] += 1;
	v[STAT_DWORDS] = 2 * (v[STAT_INST] + 4 > (v[STAT_INST] + 15) / 16 * 16 ? v[STAT_INST] + 4 : (v[STAT_INST] + 15) / 16 * 16);
}

static FILE *create_in(const char *dir, const char *name);

static void write_run_json(const char *dir, int night, const struct options *o)
{
	FILE *f = create_in(dir, "run.json");
	fprintf(f, "{\n  \"shdb_version\": \"0.1.0\",\n  \"git_commit\": \"%07x\",\n"
		   "  \"label\": \"night-%03d\",\n  \"date\": \"2025-%02d-%02dT02:00:00Z\",\n"
		   "  \"status\": \"complete\",\n  \"targets\": [\"",
		(unsigned)(next(&(struct rng){ o->seed + (uint64_t)night }) & 0xfffffff), night,
		6 + (night - 1) / 30, 1 + (night - 1) % 30);
	for (const char *p = o->targets; *p; p++)
		fputs(*p == ',' ? "\", \"" : (char[]){ *p, 0 }, f);
	fputs("\"]\n}\n", f);
	fclose(f);
}

/* Does the last night's regression hit record i?  0: no; 1: new; 2: seen
 * three nights before too. */
static int regressed(const struct options *o, long i)
{
	struct rng r = { o->seed * 31u + (uint64_t)i * 2654435761u };
	if (below(&r, 1000) >= o->regress_percent * 10)
		return 0;
	return 1 + (int)below(&r, 2);
}

static void write_night(const struct options *o, int night, struct hrec *recs, size_t ntargets,
			char targets[][32])
{
	char dir[4096], path[64];
	snprintf(dir, sizeof(dir), "%s/night-%03d", o->dir, night);
	mkdir(dir, 0777);
	write_run_json(dir, night, o);
	FILE *f = create_in(dir, "stats.jsonl");
	FILE *pack = o->asm_pack ? create_in(dir, ASM_PACK_FILE) : NULL;
	struct strbuf text = STRBUF_INIT, z = STRBUF_INIT, entry = STRBUF_INIT;
	if (pack)
		fputs(ASM_PACK_MAGIC, pack);
	for (long i = 0; i < o->records; i++) {
		int fragment = (int)(i % 2);
		record_path(path, sizeof(path), i / 2);
		for (size_t t = 0; t < ntargets; t++) {
			struct hrec *h = &recs[(size_t)i * ntargets + t];
			long v[NSTATS];
			memcpy(v, h->v, sizeof(v));
			int reg = o->regress_percent ? regressed(o, i) : 0;
			struct rng r = { o->seed ^ ((uint64_t)i << 20) ^ (uint64_t)t };
			if ((night == o->history && reg) || (night == o->history - 3 && reg == 2))
				regress(&r, v);
			fprintf(f, "{\"path\":\"%s\",\"stage\":\"%s\",\"target\":\"%s\",\"status\":\"ok\",\"stats\":{",
				path, fragment ? "fragment" : "vertex", targets[t]);
			for (int k = 0; k < NSTATS; k++)
				fprintf(f, "%s\"%s\":%ld", k ? "," : "", stat_table[k].key, v[k]);
			fprintf(f, "},\"time_us\":%ld}\n", 200 + (long)below(&r, 3000));
			if (!pack)
				continue;
			listing(&text, i * 64 + (long)t, v);
			strbuf_reset(&z);
			strbuf_reset(&entry);
			asm_pack_compress(text.buf, text.len, &z);
			asm_pack_entry(&entry, path, fragment ? "fragment" : "vertex", targets[t], text.len,
				       z.buf, z.len);
			fwrite(entry.buf, 1, entry.len, pack);
		}
	}
	strbuf_release(&text);
	strbuf_release(&z);
	strbuf_release(&entry);
	if (pack && fclose(pack))
		perror(dir);
	if (ferror(f) | fclose(f)) {
		perror(dir);
		exit(1);
	}
}

static int generate_history(const struct options *o)
{
	char targets[64][32];
	size_t ntargets = 0;
	for (const char *p = o->targets; *p && ntargets < 64;) {
		size_t n = strcspn(p, ",");
		snprintf(targets[ntargets++], sizeof(targets[0]), "%.*s", (int)n, p);
		p += n + (p[n] == ',');
	}
	struct hrec *recs = calloc((size_t)o->records * ntargets + 1, sizeof(*recs));
	for (long i = 0; i < o->records; i++)
		for (size_t t = 0; t < ntargets; t++) {
			struct rng r = { o->seed * 1000003u + (uint64_t)i + ((uint64_t)t << 40) };
			make_stats(&r, (int)(i % 2), recs[(size_t)i * ntargets + t].v);
		}
	mkdir(o->dir, 0777);
	for (int night = 1; night <= o->history; night++) {
		if (night > 1)
			for (size_t k = 0; k < (size_t)o->records * ntargets; k++) {
				struct rng r = { o->seed * 7777u + k * 131u + (uint64_t)night };
				if (below(&r, 1000) < o->changed_percent * 10)
					change_stats(&r, recs[k].v);
			}
		write_night(o, night, recs, ntargets, targets);
	}
	free(recs);
	return 0;
}

static int generate(const struct options *o)
{
	static const char *const ext[] = { "jsonl", "txt", "csv" };
	char bname[32], aname[32];
	snprintf(bname, sizeof(bname), "before.%s", ext[o->format]);
	snprintf(aname, sizeof(aname), "after.%s", ext[o->format]);
	FILE *before = create_in(o->dir, bname), *after = create_in(o->dir, aname);
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
	"usage: gen-runs [--records N] [--changed PERCENT] [--seed S] [--format jsonl|mesa|csv] DIR\n"
	"       gen-runs --history RUNS [--records N] [--changed PERCENT] [--seed S]\n"
	"                [--targets LIST] [--regress PERCENT] [--asm] DIR\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "records", required_argument, NULL, 'n' },
		{ "changed", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "history", required_argument, NULL, 'H' },
		{ "targets", required_argument, NULL, 't' },
		{ "regress", required_argument, NULL, 'r' },
		{ "asm", no_argument, NULL, 'a' },
		{ 0 },
	};
	struct options o = { .records = 200000, .changed_percent = 10, .seed = 1, .targets = "a630" };
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'n')
			o.records = atol(optarg);
		else if (c == 'c')
			o.changed_percent = (unsigned)atoi(optarg);
		else if (c == 's')
			o.seed = strtoull(optarg, NULL, 10);
		else if (c == 'H')
			o.history = atoi(optarg);
		else if (c == 't')
			o.targets = optarg;
		else if (c == 'r')
			o.regress_percent = (unsigned)atoi(optarg);
		else if (c == 'a')
			o.asm_pack = true;
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
	return o.history > 0 ? generate_history(&o) : generate(&o);
}
