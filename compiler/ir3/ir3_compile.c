/*
 * The backend pipeline, in Mesa's order (targets.md §2.2), as a readable
 * list of passes, each through the same PASS() as the target-independent
 * ones (compiler/util/pass.h): validation after it when asked (tests do),
 * --print-after dumps, timing.  The passes are in the pass registry
 * (ir3_passes.def); the optional ones run only when named, when the
 * options give a list of passes.
 */
#include "compiler/ir3/ir3_compile.h"

#include <string.h>

#include "compiler/util/error.h"

static void print_(void *ir, struct strbuf *sb)
{
	ir3_print(sb, ir);
}

static bool validate_(void *ir, struct diag *d, const char *file)
{
	struct strbuf err = STRBUF_INIT;
	bool ok = ir3_validate(ir, &err);
	if (!ok)
		diag_error(d, file, 0, 0, "%s", err.buf);
	strbuf_release(&err);
	return ok;
}

static const struct pipeline_ops ir3_pipeline_ops = {
	.comment = ";",
	.print = print_,
	.validate = validate_,
};

/* The optional pass `name` runs: no list of passes was given, or it names it. */
static bool wanted(const struct ir3_compile_options *o, const char *name)
{
	return !o->passes || pipeline_list_has(o->passes, name);
}

void ir3_compile_output_init(struct ir3_compile_output *out)
{
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->disasm);
	strbuf_init(&out->dump);
	strbuf_init(&out->error);
}

void ir3_compile_output_release(struct ir3_compile_output *out)
{
	array_free(&out->times);
	strbuf_release(&out->disasm);
	strbuf_release(&out->dump);
	strbuf_release(&out->error);
}

int ir3_compile_machine(struct ir3 *ir, const struct ir3_info *target,
			const struct ir3_compile_options *o, struct ir3_compile_output *out)
{
	struct diag d = DIAG_INIT;
	struct pipeline pl;
	int ret = -1;
	ir->target = target;
	ir->test_break = o->test_break;

	struct strbuf err = STRBUF_INIT;
	bool valid = ir3_validate(ir, &err);
	if (!valid)
		strbuf_addf(&out->error, "invalid machine IR: %s", err.buf);
	strbuf_release(&err);
	if (!valid)
		return -1;
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->ndst; n++)
				if ((i->dsts[n]->flags & (IR3_REG_SHARED | IR3_REG_ASSIGNED)) ==
				    IR3_REG_SHARED) {
					/* RA does not allocate the shared file: only values
					 * placed there already (a shared system value) */
					strbuf_addstr(&out->error, "shared (uniform) registers are not allocated yet");
					return -1;
				}

	pipeline_init_ops(&pl, &ir3_pipeline_ops, ir, &d, "ir3");
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

	unsigned branchstack;
	bool progress = false;
	bool alias_tex = target->has_alias_tex && wanted(o, "ir3_lower_alias_tex_srcs");
	if (o->allocated) {
		branchstack = ir3_calc_reconvergence(ir);
		goto legalize;
	}

	do {
		progress = false;
		if (wanted(o, "ir3_cf"))
			PASS(progress, &pl, ir3_cf);
		if (wanted(o, "ir3_opt_cp"))
			PASS(progress, &pl, ir3_opt_cp);
		if (wanted(o, "ir3_opt_cse"))
			PASS(progress, &pl, ir3_opt_cse);
		if (wanted(o, "ir3_opt_dce"))
			PASS(progress, &pl, ir3_opt_dce);
	} while (progress && !pl.failed);

	if (alias_tex)
		PASS(progress, &pl, ir3_lower_alias_tex_srcs);
	if (target->has_alias_rt && ir->stage == STAGE_FRAGMENT && wanted(o, "ir3_lower_alias_rt"))
		PASS(progress, &pl, ir3_lower_alias_rt);
	if (wanted(o, "ir3_opt_dce"))
		PASS(progress, &pl, ir3_opt_dce);
	if (wanted(o, "ir3_sched"))
		PASS(progress, &pl, ir3_sched);
	/* a group not merged is no group to RA */
	bool rpt = wanted(o, "ir3_cleanup_rpt") && wanted(o, "ir3_merge_rpt");
	if (rpt)
		PASS(progress, &pl, ir3_cleanup_rpt);
	else
		ir3_drop_rpt(ir);
	if (pl.failed)
		goto out;

	branchstack = ir3_calc_reconvergence(ir);
	/* RA fails on a shader it cannot fit: an error result, not a broken pass */
	pipeline_before_(&pl, "ir3_ra");
	if (!ir3_ra(ir, branchstack, o->ra_limit, &out->error)) {
		if (pl.running)
			*pl.running = NULL;
		goto out;
	}
	pipeline_after_(&pl, "ir3_ra", true);
	if (rpt)
		PASS(progress, &pl, ir3_merge_rpt);
	if (wanted(o, "ir3_postsched"))
		PASS(progress, &pl, ir3_postsched);
legalize:
	PASS(progress, &pl, ir3_legalize, &branchstack);
	if (target->has_alias_tex && (alias_tex || o->allocated))
		PASS(progress, &pl, ir3_insert_alias_tex);
	if (pl.failed)
		goto out;

	if (o->verify) {
		struct strbuf verr = STRBUF_INIT;
		bool verified = ir3_verify_regs(ir, &verr) && ir3_verify_timing(ir, &verr);
		if (!verified)
			strbuf_addf(&out->error, "verifier: %s", verr.buf);
		strbuf_release(&verr);
		if (!verified)
			goto out;
	}

	ir3_collect_stats(ir, branchstack, &out->stats);
	if (o->want_disasm)
		ir3_disasm(&out->disasm, ir);
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
