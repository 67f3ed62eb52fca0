/*
 * The etnaviv backend pipeline after selection, as Mesa's
 * etna_compile_shader ends (../../shared/reference/targets.md §4.3), a
 * readable list of passes, each through the same PASS() as every other
 * (compiler/util/pass.h: validation after it when asked, --print-after
 * dumps, timing): register allocation (no spilling: a value without a
 * register fails the shader), the layout with its branch targets, the
 * compile-time limits (etna_compile_check_limits), then — when asked — both
 * verifiers, the statistics and the disassembly.  There is no scheduler
 * and no nop insertion: the hardware interlocks.
 */
#include "compiler/etna/etna_compile.h"

#include <string.h>

#include "compiler/util/error.h"

const enum stat_id etna_mesa_line[4] = {
	STAT_INSTRUCTIONS, STAT_TEMPS, STAT_IMMEDIATES, STAT_LOOPS,
};

/* Dumps show values before assignment, the hardware's registers after. */
static void print_(void *ir, struct strbuf *sb)
{
	const struct etna_shader *s = ir;
	if (s->assigned)
		etna_disasm(sb, s);
	else
		etna_print(sb, s);
}

static bool validate_(void *ir, struct diag *d, const char *file)
{
	struct strbuf err = STRBUF_INIT;
	bool ok = etna_validate(ir, &err);
	if (!ok)
		diag_error(d, file, 0, 0, "%s", err.buf);
	strbuf_release(&err);
	return ok;
}

static const struct pipeline_ops etna_pipeline_ops = {
	.comment = ";",
	.print = print_,
	.validate = validate_,
};

void etna_compile_output_init(struct etna_compile_output *out)
{
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->disasm);
	strbuf_init(&out->dump);
	strbuf_init(&out->error);
}

void etna_compile_output_release(struct etna_compile_output *out)
{
	array_free(&out->times);
	strbuf_release(&out->disasm);
	strbuf_release(&out->dump);
	strbuf_release(&out->error);
}

bool etna_check_limits(const struct etna_shader *s, struct strbuf *err)
{
	const struct etna_info *t = s->info;
	bool vs = s->stage == STAGE_VERTEX;
	unsigned max_uniforms = vs ? t->max_vs_uniforms : t->max_ps_uniforms;
	if (!t->has_icache && s->num_instrs > t->max_instructions) {
		strbuf_addf(err, "number of instructions (%u) exceeds maximum %u", s->num_instrs,
			    t->max_instructions);
		return false;
	}
	if (s->num_temps > t->max_temps) {
		strbuf_addf(err, "number of registers (%u) exceeds maximum %u", s->num_temps,
			    t->max_temps);
		return false;
	}
	if (s->const_count > max_uniforms) {
		strbuf_addf(err, "uniform storage of %u vec4 exceeds the %s limit of %u",
			    s->const_count, vs ? "vertex" : "fragment", max_uniforms);
		return false;
	}
	unsigned outputs = s->num_outputs + 1 + s->has_point_size;
	if (vs && outputs > t->max_vs_outputs) {
		strbuf_addf(err, "number of VS outputs (%u) exceeds maximum %u", outputs,
			    t->max_vs_outputs);
		return false;
	}
	if (!vs && s->num_inputs > t->max_varyings) {
		strbuf_addf(err, "number of varyings (%u) exceeds maximum %u", s->num_inputs,
			    t->max_varyings);
		return false;
	}
	return true;
}

int etna_compile_machine(struct etna_shader *s, const struct etna_compile_options *o,
			 struct etna_compile_output *out)
{
	struct diag d = DIAG_INIT;
	struct pipeline pl;
	int ret = -1;
	pipeline_init_ops(&pl, &etna_pipeline_ops, s, &d, "etna");
	pl.validate = o->validate;
	pl.print_after = o->print_after;
	pl.dump = &out->dump;
	pl.time_passes = o->time_passes;
	pl.running = o->running;
	if (o->made_by) {
		/* the pass that made the input (selection): its checks and dump
		 * (its caller timed it) */
		pl.time_passes = false;
		pipeline_before_(&pl, o->made_by);
		pipeline_after_(&pl, o->made_by, true);
		pl.time_passes = o->time_passes;
	}
	if (pl.failed)
		goto out;

	/* no register for a value: an error result, not a broken pass */
	pipeline_before_(&pl, "etna_ra");
	if (!etna_ra(s, &out->error)) {
		if (pl.running)
			*pl.running = NULL;
		goto out;
	}
	pipeline_after_(&pl, "etna_ra", true);
	bool progress = false;
	PASS(progress, &pl, etna_finish);
	(void)progress;
	if (pl.failed)
		goto out;

	if (!etna_check_limits(s, &out->error))
		goto out;
	if (o->verify) {
		struct strbuf verr = STRBUF_INIT;
		bool verified = etna_verify_regs(s, &verr) && etna_verify_limits(s, &verr);
		if (!verified)
			strbuf_addf(&out->error, "verifier: %s", verr.buf);
		strbuf_release(&verr);
		if (!verified)
			goto out;
	}
	etna_collect_stats(s, &out->stats);
	if (o->want_disasm)
		etna_disasm(&out->disasm, s);
	ret = 0;
out:
	if (pl.failed) {
		/* a pass broke the IR: a compiler bug */
		struct strbuf first = STRBUF_INIT;
		out->broken = true;
		strbuf_addstr(&out->error, diag_first_error(&d, &first));
		strbuf_release(&first);
	}
	pass_times_add(&out->times, &pl.times);
	pipeline_release(&pl);
	diag_release(&d);
	return ret;
}
