/*
 * ir3_compile_shader(): the ir3 backend behind compile_source(), per target.
 * Debugging aid: with SHDB_IR3_DUMP=PASS (or all) in the environment the
 * selected machine IR and the backend's dumps after PASS go to stderr.
 */
#include "compiler/ir3/ir3_shader.h"

#include <stdio.h>
#include <stdlib.h>

#include "compiler/ir3/ir3_isel.h"
#include "compiler/ir3/ir3_compile.h"
#include "compiler/opt/opt.h"
#include "compiler/util/file.h"

/* A failed result, its message also in the diag. */
static void target_error(struct compile_output *out, const char *name, struct compile_result *r,
			 enum result_status status, const char *msg)
{
	diag_error(&out->diag, name, 0, 0, "%s: %s", r->target->name, msg);
	r->status = status;
	r->message = xstrdup(msg);
}

/*
 * One ir3 target, on a clone of the optimised shader (ir3_nir.h):
 * per-target lowering → instruction selection → the machine pipeline.
 * Failures are results: an unsupported feature, too many live values or a
 * verifier finding is RESULT_ERROR (a verifier finding names the verifier
 * and the instruction, and is never dropped); IR broken by a lowering pass
 * is RESULT_CRASH, a compiler bug, as for the optimisation passes.
 */
int ir3_compile_shader(const char *name, struct shader *s, const struct compile_options *o,
		       struct compile_result *r, struct compile_output *out)
{
	const struct ir3_info *t = r->target->ir3;
	struct compile_progress *pr = o->progress;
	struct shader *copy = shader_clone(s);
	struct strbuf dump = STRBUF_INIT, err = STRBUF_INIT;
	struct pipeline pl;
	struct ir3_const_layout layout = { .const_data_slot = -1 };
	int ret = 0;

	if (pr) {
		pr->phase = "ir3";
		pr->target = r->target->name;
	}
	pipeline_init(&pl, copy, &out->diag, name);
	pl.validate = IR_VALIDATE_DEFAULT || o->validate_ir;
	pl.check_progress = o->validate_ir;
	pl.print_after = o->print_after;
	pl.dump = &dump;
	if (pr)
		pl.running = &pr->pass;
	ir3_lower_nir(&pl, t, &layout);
	if (o->want_ir && dump.len) {
		struct strbuf all = STRBUF_INIT;
		strbuf_addf(&all, "%s# ---- %s lowering ----\n%s", r->ir ? r->ir : "", r->target->name,
			    dump.buf);
		free(r->ir);
		r->ir = strbuf_detach(&all, NULL);
	}
	if (pl.failed) {
		r->status = RESULT_CRASH;
		struct strbuf first = STRBUF_INIT;
		r->message = xstrdup(diag_first_error(&out->diag, &first));
		strbuf_release(&first);
		ret = -1;
		goto done;
	}

	struct arena arena = ARENA_INIT;
	if (pr)
		pr->pass = "ir3_isel";
	struct ir3 *ir = ir3_isel(copy, t, &layout, &arena, &err);
	if (!ir) {
		target_error(out, name, r, RESULT_ERROR, err.buf);
		ret = -1;
	} else {
		struct ir3_compile_options co = {
			.verify = o->verify, .validate = IR_VALIDATE_DEFAULT || o->validate_ir,
			.want_disasm = o->want_disasm, .print_after = getenv("SHDB_IR3_DUMP"),
		};
		struct ir3_compile_output mo;
		ir3_compile_output_init(&mo);
		if (pr)
			pr->pass = "ir3_compile_machine";
		if (co.print_after) {
			struct strbuf sb = STRBUF_INIT;
			ir3_print(&sb, ir);
			fprintf(stderr, "; after isel\n%s", sb.buf);
			strbuf_release(&sb);
		}
		int rc = ir3_compile_machine(ir, t, &co, &mo);
		if (co.print_after)
			fputs(mo.dump.buf, stderr);
		if (rc < 0) {
			target_error(out, name, r, RESULT_ERROR, mo.error.buf);
			ret = -1;
		} else {
			ir3_stats_to_result(&mo.stats, r);
			if (o->want_disasm)
				r->disasm = xstrdup(mo.disasm.buf);
		}
		ir3_compile_output_release(&mo);
	}
	arena_release(&arena);
done:
	if (pr)
		pr->pass = pr->target = NULL;
	pipeline_release(&pl);
	strbuf_release(&dump);
	strbuf_release(&err);
	shader_free(copy);
	return ret;
}

