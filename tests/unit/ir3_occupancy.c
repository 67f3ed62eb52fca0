/*
 * Occupancy against the table of targets.md §1.3 (the output of Mesa's
 * ir3_occupancy.py): single/double-threadsize waves per footprint, and the
 * RA file a fragment shader gets (calc_target_full_pressure).
 */
#include "compiler/ir3/ir3.h"
#include "compiler/target.h"
#include "tap.h"

static struct ir3_occupancy occ(const struct ir3_info *info, enum shader_stage stage)
{
	struct ir3_occupancy o = { .info = info, .stage = stage, .local_size = { 1, 1, 1 } };
	return o;
}

int main(void)
{
	/* regs, then per column: single waves, double waves (0: impossible), FS target */
	static const struct {
		unsigned regs;
		unsigned w[3][3];	/* 96/gran 2, 64/gran 2, 48/gran 2 */
	} table[] = {
		{ 1, { { 16, 16, 6 }, { 16, 16, 4 }, { 16, 16, 3 } } },
		{ 8, { { 16, 12, 8 }, { 16, 8, 8 }, { 12, 6, 8 } } },
		{ 12, { { 16, 8, 12 }, { 10, 4, 16 }, { 8, 4, 12 } } },
		{ 16, { { 12, 6, 16 }, { 8, 4, 16 }, { 6, 2, 24 } } },
		{ 24, { { 8, 4, 24 }, { 4, 2, 32 }, { 4, 2, 24 } } },
		{ 32, { { 6, 2, 48 }, { 4, 2, 32 }, { 2, 0, 48 } } },
		{ 48, { { 4, 2, 48 }, { 2, 0, 48 }, { 2, 0, 48 } } },
	};
	const char *names[3] = { "a630", "a660", "a530" };
	for (int col = 0; col < 3; col++) {
		const struct ir3_info *info = target_find(names[col])->ir3;
		struct ir3_occupancy fs = occ(info, STAGE_FRAGMENT), vs = occ(info, STAGE_VERTEX);
		for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); k++) {
			unsigned regs = table[k].regs;
			unsigned single = ir3_reg_dependent_max_waves(&vs, regs, false);
			unsigned dbl = ir3_reg_dependent_max_waves(&fs, regs, true);
			if (single > 16)
				single = 16;
			if (dbl > 16)
				dbl = 16;
			is_int(single, table[k].w[col][0], "%s: %u vec4, single threadsize", names[col], regs);
			if (table[k].w[col][1])
				is_int(dbl, table[k].w[col][1], "%s: %u vec4, double threadsize", names[col], regs);
			is_int(ir3_should_double_threadsize(&fs, regs), table[k].w[col][1] != 0,
			       "%s: %u vec4, double threadsize possible", names[col], regs);
			is_int(ir3_target_full_pressure(&fs, regs * 8) / 8, table[k].w[col][2],
			       "%s: %u vec4, FS RA target", names[col], regs);
		}
	}
	/* a VS never doubles: at 1 vec4 on a630 its file is 12 vec4 */
	struct ir3_occupancy vs = occ(target_find("a630")->ir3, STAGE_VERTEX);
	is_int(ir3_target_full_pressure(&vs, 8) / 8, 12, "a630: VS at 1 vec4 gets 12");
	/* a compute shader with 64 threads or fewer stays single on a6xx */
	struct ir3_occupancy cs = occ(target_find("a630")->ir3, STAGE_COMPUTE);
	cs.local_size[0] = 64;
	ok(!ir3_should_double_threadsize(&cs, 4), "a630: CS of 64 threads is single threadsize");
	cs.local_size[0] = 128;
	ok(ir3_should_double_threadsize(&cs, 4), "a630: CS of 128 threads doubles");
	/* branch stack and shared memory limit the waves regardless of registers */
	struct ir3_occupancy b = occ(target_find("a630")->ir3, STAGE_FRAGMENT);
	b.branchstack = 16;
	is_int(ir3_reg_independent_max_waves(&b, false), 8, "branchstack 16: 64/16*2 = 8 waves");
	cs.local_size[0] = 256;
	cs.shared_size = 16 * 1024;
	is_int(ir3_reg_independent_max_waves(&cs, true), 4,
	       "CS 256 threads with 16 KiB shared: 2 workgroups of 2 waves");
	return done_testing();
}
