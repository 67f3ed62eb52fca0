/*
 * Pipelines: the bookkeeping around every pass (opt.h) — the IR's own, or a
 * backend's machine IR's through its pipeline_ops — lists of passes by name,
 * and the default optimisation loop.
 */
#include <string.h>

#include "compiler/opt/opt.h"

/* ---- the target-independent IR ---- */

static void ir_print_(void *ir, struct strbuf *sb)
{
	ir_print(ir, sb);
}

static bool ir_validate_(void *ir, struct diag *d, const char *file)
{
	return ir_validate(ir, d, file);
}

/* Metadata (ir.h): a pass that reports progress must say, through
 * shader_progress(), what it preserved. */
static void ir_before(void *ir)
{
	((struct shader *)ir)->fn->valid_metadata |= META_NOT_PROPERLY_RESET;
}

static const char *ir_after(void *ir, bool progress, bool validate)
{
	struct function *fn = ((struct shader *)ir)->fn;
	if (!(fn->valid_metadata & META_NOT_PROPERLY_RESET))
		return NULL;
	fn->valid_metadata &= ~(unsigned)META_NOT_PROPERLY_RESET;
	if (!progress)
		return NULL;
	metadata_invalidate(fn, META_ALL);
	return validate ? "progress reported without shader_progress()" : NULL;
}

static const struct pipeline_ops ir_ops = {
	.comment = "#",
	.print = ir_print_,
	.validate = ir_validate_,
	.before = ir_before,
	.after = ir_after,
};

void pipeline_init(struct pipeline *pl, struct shader *s, struct diag *diag, const char *file)
{
	pipeline_init_ops(pl, &ir_ops, s, diag, file);
}

void pipeline_init_compile(struct pipeline *pl, struct shader *s, const struct compile_options *o,
			   struct diag *diag, const char *file, struct strbuf *dump)
{
	pipeline_init(pl, s, diag, file);
	pl->validate = IR_VALIDATE_DEFAULT || o->validate_ir;
	pl->check_progress = o->validate_ir;
	pl->print_after = o->print_after;
	pl->dump = dump;
	pl->time_passes = o->time_passes;
	if (o->progress)
		pl->running = &o->progress->pass;
}

bool pipeline_run_list(struct pipeline *pl, const char *list)
{
	struct strbuf err = STRBUF_INIT;
	if (!pipeline_check_names(list, NULL, &err)) {
		diag_error(pl->diag, pl->file, 0, 0, "%s", err.buf);
		strbuf_release(&err);
		pl->failed = true;
		return false;
	}
	strbuf_release(&err);
	if (!list || !strcmp(list, "none"))
		return true;
	for (const char *p = list; *p && !pl->failed;) {
		size_t n = strcspn(p, ",");
		const struct pass_info *info = pass_find(p, n);
		pipeline_before_(pl, info->name);
		pipeline_after_(pl, info->name, info->fn(pl->shader));
		p += n + (p[n] == ',');
	}
	return !pl->failed;
}

static const char *registered_name(size_t i)
{
	return pass_registry[i].name;
}

bool pipeline_check_names(const char *passes, const char *print_after, struct strbuf *err)
{
	const struct pass_names known = { num_registered_passes, registered_name };
	return pass_names_check(&known, passes, print_after, err);
}

/*
 * The default pipeline, run by `shdb compile` without --passes: what
 * memory loads may assume (opt_access, once, as drivers run
 * nir_opt_access before optimising), then the target-independent
 * optimisation loop, modelled on Mesa's
 * ir3_optimize_loop (../../shared/reference/targets.md §2.1) without its
 * target lowerings (scalarisation, idiv, pow …: a backend runs those on
 * its clone, then this loop again).  The loop repeats until no pass makes
 * progress or OPT_LOOP_MAX_ITERATIONS rounds; then code sinking, a last
 * DCE and dense value numbers for the printed result.
 */
void opt_loop(struct pipeline *pl)
{
	bool progress;
	unsigned round = 0;
	do {
		progress = false;
		PASS(progress, pl, lower_vars_to_ssa);
		PASS(progress, pl, opt_array_copies);
		PASS(progress, pl, opt_copy_prop);
		PASS(progress, pl, opt_dce);
		PASS(progress, pl, opt_cse);
		PASS(progress, pl, opt_copy_prop_mem);
		PASS(progress, pl, opt_dead_write_mem);
		PASS(progress, pl, opt_peephole_select);
		PASS(progress, pl, opt_phi_precision);
		PASS(progress, pl, opt_algebraic);
		PASS(progress, pl, opt_constant_folding);
		PASS(progress, pl, opt_dead_cf);
		PASS(progress, pl, opt_loop_jumps);
		PASS(progress, pl, opt_loop_unroll);
		PASS(progress, pl, opt_remove_phis);
		PASS(progress, pl, opt_undef);
	} while (progress && !pl->failed && ++round < OPT_LOOP_MAX_ITERATIONS);
}

void opt_default(struct pipeline *pl)
{
	bool progress = false;
	PASS(progress, pl, opt_access);
	opt_loop(pl);
	PASS(progress, pl, opt_sink);
	PASS(progress, pl, opt_dce);
	PASS(progress, pl, calc_reindex);
}
