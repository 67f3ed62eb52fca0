/* --compiler: the ir3 preset, --stat-pattern groups, and {placeholder} quoting. */
#include <string.h>

#include "runner/extcc.h"
#include "tap.h"

static const struct compile_result *find(const struct compile_output *out, enum shader_stage s)
{
	for (size_t i = 0; i < out->results.len; i++)
		if (out->results.data[i].stage == s)
			return &out->results.data[i];
	return NULL;
}

static long long stat(const struct compile_result *r, const char *key)
{
	for (size_t i = 0; r && i < r->stats.len; i++)
		if (!strcmp(r->stats.data[i].key, key))
			return r->stats.data[i].value;
	return -999;
}

static void test_ir3(void)
{
	static const char log[] =
		"shaders/a.shader_test - VERT shader: 12 inst, 3 nops, 9 non-nops, 2 mov, 0 cov, "
		"20 dwords, 0 last-baryf, 0 last-helper, 1 half, 4 full, 8 constlen, 3 cat0, "
		"2 cat1, 5 cat2, 1 cat3, 0 cat4, 0 cat5, 1 cat6, 0 cat7, 0 stp, 0 ldp, 0 sstall, "
		"2 (ss), 0 systall, 1 (sy), 16 waves, 0 loops, 0 preamble-inst, 0 early-preamble\n"
		"shaders/a.shader_test - BVERT shader: 10 inst, 2 nops\n"
		"noise in between\n"
		"shaders/a.shader_test - FRAG shader: 7 inst, 1 nops, 1:2 spills:fills, 14 maxwaves, 9 code size\n"
		"shaders/a.shader_test - FRAG shader: 99 inst\n";
	struct extcc x;
	struct strbuf err = STRBUF_INIT;
	struct arena keys = ARENA_INIT;
	struct compile_output out;
	struct extcc_file f = { .file = "a", .path = "a", .stage = STAGE_NONE };

	ok(extcc_init(&x, "cc {file}", "ir3", NULL, 0, &err) == 0, "the ir3 preset compiles");
	compile_output_init(&out);
	is_int(extcc_parse(&x, log, strlen(log), &f, &keys, &out), 2, "two stages (BVERT left out)");
	const struct compile_result *vs = find(&out, STAGE_VERTEX), *fs = find(&out, STAGE_FRAGMENT);
	is_int(stat(vs, "inst"), 12, "inst");
	is_int(stat(vs, "non_nops"), 9, "non-nops → non_nops");
	is_int(stat(vs, "last_baryf"), 0, "last-baryf → last_baryf");
	is_int(stat(vs, "ss"), 2, "(ss) → ss");
	is_int(stat(vs, "sy"), 1, "(sy) → sy");
	is_int(stat(vs, "early_preamble"), 0, "early-preamble → early_preamble");
	is_int(vs ? vs->stats.len : 0, 29, "all 29 fields of the line");
	is_int(stat(fs, "inst"), 7, "the first FRAG line wins");
	is_int(stat(fs, "spills"), 1, "a:b spills:fills → spills");
	is_int(stat(fs, "fills"), 2, "… and fills");
	is_int(stat(fs, "waves"), 14, "maxwaves → waves");
	is_int(stat(fs, "dwords"), 9, "code size → dwords");
	compile_output_release(&out);

	compile_output_init(&out);
	is_int(extcc_parse(&x, "nothing here\n", 13, &f, &keys, &out), 0, "no line, no result");
	compile_output_release(&out);
	extcc_release(&x);
	arena_release(&keys);
	strbuf_release(&err);
}

static void test_patterns(void)
{
	char *pats[] = { "^(?<stage>\\w+): (?<inst>\\d+) instructions, (?<regs>\\w+) registers" };
	char *bad[] = { "(unclosed" };
	static const char log[] = "vertex: 10 instructions, 4 registers\nfrag: 5 instructions, x registers\n";
	struct extcc x;
	struct strbuf err = STRBUF_INIT;
	struct arena keys = ARENA_INIT;
	struct compile_output out;
	struct extcc_file f = { .file = "a", .path = "a", .stage = STAGE_COMPUTE };

	ok(extcc_init(&x, "cc", NULL, bad, 1, &err) < 0, "a bad pattern is refused");
	ok(strstr(err.buf, "--stat-pattern") != NULL, "naming the option: %s", err.buf);
	extcc_release(&x);

	ok(extcc_init(&x, "cc", NULL, pats, 1, &err) == 0, "a pattern with named groups");
	compile_output_init(&out);
	is_int(extcc_parse(&x, log, strlen(log), &f, &keys, &out), 2, "one result per stage");
	is_int(stat(find(&out, STAGE_VERTEX), "inst"), 10, "the stage group picks the stage");
	is_int(stat(find(&out, STAGE_FRAGMENT), "regs"), -999, "a group that is not a number is left out");
	compile_output_release(&out);
	extcc_release(&x);

	char *nostage[] = { "(?<inst>\\d+) instructions" };
	ok(extcc_init(&x, "cc", NULL, nostage, 1, &err) == 0, "a pattern without a stage group");
	compile_output_init(&out);
	extcc_parse(&x, log, strlen(log), &f, &keys, &out);
	is_int(stat(find(&out, STAGE_COMPUTE), "inst"), 10, "the file's stage; the first match wins");
	compile_output_release(&out);
	extcc_release(&x);
	arena_release(&keys);
	strbuf_release(&err);
}

static void test_expand(void)
{
	struct target t = { .name = "a630" };
	struct extcc_file f = { .file = "dir/it's.frag", .path = "it's.frag",
				.stage = STAGE_FRAGMENT, .target = &t };
	struct strbuf sb = STRBUF_INIT;
	extcc_expand("run {file} -S {stage} -e {entry} --gpu={target} {path} {other}", &f, &sb);
	is_str(sb.buf, "run 'dir/it'\\''s.frag' -S 'fragment' -e 'main' --gpu='a630' "
		       "'it'\\''s.frag' {other}", "placeholders are shell-quoted");
	strbuf_release(&sb);
}

int main(void)
{
	test_ir3();
	test_patterns();
	test_expand();
	return done_testing();
}
