/*
 * Pipelines: the bookkeeping around every pass (opt.h), lists of passes by
 * name, and the default optimisation loop.
 */
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "compiler/opt/opt.h"

void pipeline_init(struct pipeline *pl, struct shader *s, struct diag *diag, const char *file)
{
	memset(pl, 0, sizeof(*pl));
	pl->shader = s;
	pl->diag = diag;
	pl->file = file;
	pl->validate = IR_VALIDATE_DEFAULT;
	strbuf_init(&pl->before_);
}

void pipeline_release(struct pipeline *pl)
{
	array_free(&pl->times);
	strbuf_release(&pl->before_);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pipeline_before_(struct pipeline *pl, const char *name)
{
	if (pl->check_progress) {
		strbuf_reset(&pl->before_);
		ir_print(pl->shader, &pl->before_);
	}
	pl->shader->fn->valid_metadata |= META_NOT_PROPERLY_RESET;
	if (pl->running)
		*pl->running = name;
	pl->start_ns_ = pl->time_passes ? now_ns() : 0;
}

static void record_time(struct pipeline *pl, const char *name, bool progress, uint64_t ns)
{
	struct pass_time *t = NULL;
	for (size_t i = 0; i < pl->times.len && !t; i++)
		if (!strcmp(pl->times.data[i].name, name))
			t = &pl->times.data[i];
	if (!t) {
		t = array_push_zero(&pl->times);
		t->name = name;
	}
	t->runs++;
	t->progress += progress;
	t->ns += ns;
}

__attribute__((format(printf, 3, 4)))
static void pipeline_error(struct pipeline *pl, const char *name, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	diag_error(pl->diag, pl->file, 0, 0, "internal error after %s: %s", name, msg.buf);
	strbuf_release(&msg);
	pl->failed = true;
}

static void dump_after(struct pipeline *pl, const char *name, bool progress)
{
	if (!pl->dump || !pl->print_after ||
	    (strcmp(pl->print_after, "all") && strcmp(pl->print_after, name)))
		return;
	if (!progress) {
		strbuf_addf(pl->dump, "# after %s: no progress\n", name);
		return;
	}
	strbuf_addf(pl->dump, "# after %s\n", name);
	ir_print(pl->shader, pl->dump);
}

bool pipeline_after_(struct pipeline *pl, const char *name, bool progress)
{
	struct function *fn = pl->shader->fn;
	if (pl->time_passes)
		record_time(pl, name, progress, now_ns() - pl->start_ns_);
	if (pl->running)
		*pl->running = NULL;
	if (fn->valid_metadata & META_NOT_PROPERLY_RESET) {
		fn->valid_metadata &= ~(unsigned)META_NOT_PROPERLY_RESET;
		if (progress) {
			metadata_invalidate(fn, META_ALL);
			if (pl->validate)
				pipeline_error(pl, name, "progress reported without shader_progress()");
		}
	}
	if (pl->check_progress && !progress) {
		struct strbuf after = STRBUF_INIT;
		ir_print(pl->shader, &after);
		if (strcmp(after.buf, pl->before_.buf))
			pipeline_error(pl, name, "the shader changed but the pass reported no progress");
		strbuf_release(&after);
	}
	/* as Mesa's NIR_PASS: a pass that changed nothing leaves valid IR valid
	 * (with check_progress, "nothing" is checked, and every pass validated) */
	if (pl->validate && !pl->failed && (progress || pl->check_progress)) {
		struct diag d = DIAG_INIT;
		if (!ir_validate(pl->shader, &d, pl->file)) {
			pipeline_error(pl, name, "IR validation failed");
			strbuf_addstr(&pl->diag->text, d.text.buf);
			pl->diag->errors += d.errors;
		}
		diag_release(&d);
	}
	dump_after(pl, name, progress);
	return progress;
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
		bool progress = false;
		pipeline_before_(pl, info->name);
		progress = info->fn(pl->shader);
		pipeline_after_(pl, info->name, progress);
		p += n + (p[n] == ',');
	}
	return !pl->failed;
}

static void known_passes(struct strbuf *err)
{
	strbuf_addstr(err, " (known passes:");
	for (unsigned i = 0; i < num_registered_passes; i++)
		strbuf_addf(err, " %s", pass_registry[i].name);
	strbuf_addch(err, ')');
}

bool pipeline_check_names(const char *passes, const char *print_after, struct strbuf *err)
{
	if (passes && strcmp(passes, "none")) {
		for (const char *p = passes;;) {
			size_t n = strcspn(p, ",");
			if (!n) {
				strbuf_addf(err, "empty pass name in '%s'", passes);
				return false;
			}
			if (!pass_find(p, n)) {
				strbuf_addf(err, "unknown pass '%.*s'", (int)n, p);
				known_passes(err);
				return false;
			}
			if (!p[n])
				break;
			p += n + 1;
		}
	}
	if (print_after && strcmp(print_after, "all") && !pass_find(print_after, strlen(print_after))) {
		strbuf_addf(err, "unknown pass '%s' in --print-after", print_after);
		known_passes(err);
		return false;
	}
	return true;
}

/*
 * The default pipeline, run by `shdb compile` without --passes: the
 * target-independent optimisation loop, modelled on Mesa's
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
		PASS(progress, pl, opt_copy_prop);
		PASS(progress, pl, opt_dce);
		PASS(progress, pl, opt_cse);
		PASS(progress, pl, opt_peephole_select);
		PASS(progress, pl, opt_algebraic);
		PASS(progress, pl, opt_constant_folding);
		PASS(progress, pl, opt_dead_cf);
		PASS(progress, pl, opt_loop_unroll);
		PASS(progress, pl, opt_remove_phis);
	} while (progress && !pl->failed && ++round < OPT_LOOP_MAX_ITERATIONS);
}

void opt_default(struct pipeline *pl)
{
	bool progress = false;
	opt_loop(pl);
	PASS(progress, pl, opt_sink);
	PASS(progress, pl, opt_dce);
	PASS(progress, pl, calc_reindex);
}
