/*
 * Occupancy: how many waves fit for a register footprint, and the RA file
 * size that keeps that occupancy.  The formulas are Mesa's ir3.c
 * (ir3_should_double_threadsize, ir3_get_reg_{in,}dependent_max_waves) and
 * ir3_ra.c (calc_target_full_pressure), as targets.md §1.3 gives them; the
 * Mesa 24.3 double-threadsize rule (regs * 2 <= reg_size_vec4) is the one
 * followed, since the side-by-side reference data is 24.3.
 *
 * Registers are counted in vec4 (`regs`), pressure in half-register units.
 */
#include "compiler/ir3/ir3_ra.h"

void ir3_occupancy_init(struct ir3_occupancy *o, const struct ir3 *ir, unsigned branchstack)
{
	o->info = ir->target;
	o->stage = ir->stage;
	o->branchstack = branchstack;
	for (int n = 0; n < 3; n++)
		o->local_size[n] = ir->local_size[n] ? ir->local_size[n] : 1;
	o->shared_size = ir->shared_size;
}

static unsigned workgroup_threads(const struct ir3_occupancy *o)
{
	return o->local_size[0] * o->local_size[1] * o->local_size[2];
}

bool ir3_should_double_threadsize(const struct ir3_occupancy *o, unsigned regs)
{
	const struct ir3_info *t = o->info;
	unsigned bs = o->branchstack < t->threadsize_base * 2 ? o->branchstack
							       : t->threadsize_base * 2;
	if (!t->supports_double_threadsize || bs > t->branchstack_size)
		return false;
	switch (o->stage) {
	case STAGE_COMPUTE:
		if (t->cs_double_threadsize_to_fit)
			return workgroup_threads(o) > t->threadsize_base * t->max_waves;
		if (workgroup_threads(o) <= t->threadsize_base)
			return false;
		return regs * 2 <= t->reg_size_vec4;
	case STAGE_FRAGMENT:
		return regs * 2 <= t->reg_size_vec4;
	default:
		/* VS and the geometry stages never double the threadsize */
		return false;
	}
}

unsigned ir3_reg_independent_max_waves(const struct ir3_occupancy *o, bool dbl)
{
	const struct ir3_info *t = o->info;
	unsigned waves = t->max_waves;

	if (o->branchstack > 0) {
		unsigned w = t->branchstack_size / o->branchstack * t->wave_granularity;
		if (w < waves)
			waves = w;
	}
	if (o->stage == STAGE_COMPUTE) {
		unsigned per_wave = t->threadsize_base * (dbl ? 2 : 1) * t->wave_granularity;
		unsigned waves_per_wg = (workgroup_threads(o) + per_wave - 1) / per_wave *
					t->wave_granularity;
		unsigned shared = (o->shared_size + 1023) / 1024 * 1024;
		if (shared) {
			unsigned w = waves_per_wg * (t->cs_shared_mem_size / shared);
			if (w < waves)
				waves = w;
		}
	}
	return waves;
}

unsigned ir3_reg_dependent_max_waves(const struct ir3_occupancy *o, unsigned regs, bool dbl)
{
	const struct ir3_info *t = o->info;
	if (!regs)
		return t->max_waves;
	return t->reg_size_vec4 / (regs * (dbl ? 2 : 1)) * t->wave_granularity;
}

unsigned ir3_target_full_pressure(const struct ir3_occupancy *o, unsigned pressure)
{
	unsigned regs = (pressure + 7) / 8;
	bool dbl = ir3_should_double_threadsize(o, regs);
	unsigned waves = ir3_reg_independent_max_waves(o, dbl);
	unsigned dep = ir3_reg_dependent_max_waves(o, regs, dbl);
	if (dep < waves)
		waves = dep;

	unsigned target = regs;
	while (target <= RA_FULL_SIZE / 8 && ir3_should_double_threadsize(o, target) == dbl &&
	       ir3_reg_dependent_max_waves(o, target, dbl) >= waves)
		target++;
	return (target - 1) * 8;
}
