/* The statistics table: complete, unambiguous, and the lookups readers rely on. */
#include <string.h>

#include "stats/stat.h"
#include "tap.h"

/* Every spelling (key, Mesa name, alias) must lead back to its own row. */
static int ambiguous_names(void)
{
	int bad = 0;
	for (size_t i = 0; i < STAT_COUNT; i++) {
		const struct stat_info *s = &stat_table[i];
		if (stat_lookup(s->key, strlen(s->key)) != s) {
			tap_diag("key '%s' leads elsewhere", s->key);
			bad++;
		}
		if (stat_lookup(s->mesa, strlen(s->mesa)) != s) {
			tap_diag("mesa name '%s' leads elsewhere", s->mesa);
			bad++;
		}
		for (const char *a = s->aliases; *a;) {
			size_t n = strcspn(a, "|");
			if (stat_lookup(a, n) != s) {
				tap_diag("alias '%.*s' of '%s' leads elsewhere", (int)n, a, s->key);
				bad++;
			}
			a += n + (a[n] == '|');
		}
	}
	return bad;
}

static const struct stat_info *lookup(const char *name)
{
	return stat_lookup(name, strlen(name));
}

int main(void)
{
	/* that every key a backend reports is a row: stats_end_to_end.c */
	int missing = 0;
	static const char *const etna_keys[] = { "instructions", "temps", "immediates", "loops" };
	for (size_t i = 0; i < 4; i++)
		missing += lookup(etna_keys[i]) == NULL;
	is_int(missing, 0, "every etnaviv key is a row");
	is_int(lookup("temps")->family, STAT_FAMILY_ETNAVIV, "temps is etnaviv");
	is_int(lookup("cat3")->family, STAT_FAMILY_IR3, "cat3 is ir3");
	is_int(lookup("loops")->family, STAT_FAMILY_GENERIC, "loops is shared");

	is_int(ambiguous_names(), 0, "every key, Mesa name and alias names one row");

	ok(lookup("waves")->higher_better, "waves: higher is better");
	ok(lookup("maxwaves")->higher_better && lookup("maxwaves") == lookup("waves"),
	   "maxwaves (newer Mesa lines) is waves");
	ok(lookup("threads")->higher_better, "threads: higher is better");
	ok(!lookup("inst")->higher_better && !lookup("full")->higher_better,
	   "inst and full: lower is better");

	is_str(lookup("non-nops")->key, "non_nops", "Mesa 'non-nops' reads as non_nops");
	is_str(lookup("(ss)")->key, "ss", "Mesa '(ss)' reads as ss");
	is_str(lookup("(sy)")->key, "sy", "Mesa '(sy)' reads as sy");
	is_str(lookup("last-baryf")->key, "last_baryf", "Mesa 'last-baryf' reads as last_baryf");
	is_str(lookup("code size")->key, "dwords", "newer Mesa 'code size' is dwords");
	is_str(lookup("Instruction Count")->key, "inst", "turnip CSV column is inst");
	is_str(lookup("Const file size")->key, "constlen", "turnip 'Const file size' is constlen");
	is_str(lookup("ss")->mesa, "(ss)", "the Mesa name of ss is (ss)");
	ok(lookup("spills")->flags & STAT_NO_CI, "spills get no confidence interval");
	ok(!(lookup("inst")->flags & STAT_NO_CI), "inst gets one");

	ok(lookup("max-temps") == NULL, "an unknown name is not in the table");
	ok(stat_lookup("inst", 3) == NULL, "lookup uses the length, not a prefix");

	struct stat_info g;
	stat_info_generic(&g, "VGPRs");
	ok(!g.higher_better && !strcmp(g.key, "VGPRs") && !strcmp(g.display, "VGPRs"),
	   "an unknown statistic is lower-better under its own name");
	is_str(stat_family_name(STAT_FAMILY_ETNAVIV), "etnaviv", "family names");
	return done_testing();
}
