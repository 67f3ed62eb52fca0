/*
 * The backend pipeline, in Mesa's order (targets.md §2.2), as a readable
 * list of passes.  PASS() validates the IR after a pass when asked (tests
 * do) and appends a dump when the pass is named by print_after.
 */
#include "compiler/ir3/ir3_compile.h"

#include <string.h>

#include "compiler/util/error.h"

struct pipeline {
	struct ir3 *ir;
	const struct ir3_compile_options *o;
	struct ir3_compile_output *out;
};

static void after_pass(struct pipeline *p, const char *name)
{
	if (p->o->validate) {
		struct strbuf err = STRBUF_INIT;
		if (!ir3_validate(p->ir, &err))
			BUG("invalid IR after %s: %s", name, err.buf);
		strbuf_release(&err);
	}
	const char *pa = p->o->print_after;
	if (pa && (!strcmp(pa, "all") || !strcmp(pa, name))) {
		strbuf_addf(&p->out->dump, "; after %s\n", name);
		ir3_print(&p->out->dump, p->ir);
	}
}

#define PASS(p, name, call) ({ bool progress_ = (call); after_pass((p), name); progress_; })

void ir3_compile_output_init(struct ir3_compile_output *out)
{
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->disasm);
	strbuf_init(&out->dump);
	strbuf_init(&out->error);
}

void ir3_compile_output_release(struct ir3_compile_output *out)
{
	strbuf_release(&out->disasm);
	strbuf_release(&out->dump);
	strbuf_release(&out->error);
}

int ir3_compile_machine(struct ir3 *ir, const struct ir3_info *target,
			const struct ir3_compile_options *o, struct ir3_compile_output *out)
{
	struct pipeline p = { .ir = ir, .o = o, .out = out };
	ir->target = target;
	ir->test_break = o->test_break;

	struct strbuf err = STRBUF_INIT;
	if (!ir3_validate(ir, &err)) {
		strbuf_addf(&out->error, "invalid machine IR: %s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	strbuf_release(&err);
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->ndst; n++)
				if (i->dsts[n]->flags & IR3_REG_SHARED) {
					strbuf_addstr(&out->error, "shared (uniform) registers are not allocated yet");
					return -1;
				}

	unsigned branchstack;
	if (o->allocated) {
		branchstack = ir3_calc_reconvergence(ir);
		goto legalize;
	}

	bool progress;
	do {
		progress = false;
		progress |= PASS(&p, "opt_cp", ir3_opt_cp(ir));
		progress |= PASS(&p, "opt_cse", ir3_opt_cse(ir));
		progress |= PASS(&p, "opt_dce", ir3_opt_dce(ir));
	} while (progress);

	if (target->has_alias_tex)
		PASS(&p, "lower_alias_tex_srcs", ir3_lower_alias_tex_srcs(ir));
	if (target->has_alias_rt && ir->stage == STAGE_FRAGMENT)
		PASS(&p, "lower_alias_rt", ir3_lower_alias_rt(ir));
	PASS(&p, "opt_dce", ir3_opt_dce(ir));
	PASS(&p, "sched", ir3_sched(ir));

	branchstack = ir3_calc_reconvergence(ir);
	if (!ir3_ra(ir, branchstack, &out->error))
		return -1;
	after_pass(&p, "ra");
	PASS(&p, "postsched", ir3_postsched(ir));
legalize:
	PASS(&p, "legalize", ir3_legalize(ir, &branchstack));
	if (target->has_alias_tex)
		PASS(&p, "insert_alias_tex", ir3_insert_alias_tex(ir));

	if (o->verify) {
		struct strbuf verr = STRBUF_INIT;
		if (!ir3_verify_regs(ir, &verr) || !ir3_verify_timing(ir, &verr)) {
			strbuf_addf(&out->error, "verifier: %s", verr.buf);
			strbuf_release(&verr);
			return -1;
		}
		strbuf_release(&verr);
	}

	ir3_collect_stats(ir, branchstack, &out->stats);
	if (o->want_disasm)
		ir3_disasm(&out->disasm, ir);
	return 0;
}
