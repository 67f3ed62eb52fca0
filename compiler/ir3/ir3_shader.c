/*
 * ir3_compile_shader(): the ir3 backend behind compile_source(), per target.
 * Every pass, on the IR or the machine IR, reports through the options:
 * --print-after dumps go into the result's IR text (with the lowering's,
 * after a "# ---- TARGET backend ----" line), times into the output.
 * Test aid: compile_options.test_break ("ra,postsched,nops") breaks those
 * passes on purpose (ir3.h IR3_BREAK_*), for the tests that show the
 * simulator catches it.
 */
#include "compiler/ir3/ir3_shader.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/ir3/ir3_isel.h"
#include "compiler/ir3/ir3_compile.h"
#include "compiler/ir3/sim/ir3_sim.h"
#include "compiler/opt/opt.h"
#include "compiler/util/array.h"
#include "compiler/util/file.h"

/* SHDB_IR3_BREAK's list as IR3_BREAK_* flags. */
static unsigned test_break(const char *list)
{
	static const struct { const char *name; unsigned flag; } names[] = {
		{ "ra", IR3_BREAK_RA }, { "postsched", IR3_BREAK_POSTSCHED }, { "nops", IR3_BREAK_NOPS },
	};
	unsigned flags = 0;
	for (size_t k = 0; list && k < sizeof(names) / sizeof(names[0]); k++) {
		const char *p = strstr(list, names[k].name);
		size_t n = strlen(names[k].name);
		if (p && (p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			flags |= names[k].flag;
	}
	return flags;
}

/* Lowered shaders, one per lowering view, shared by the targets of one
 * compile (ir3_shader.h). */
struct ir3_lowered {
	struct ir3_lowering view;
	struct shader *s;		/* NULL: the lowering failed */
	struct ir3_const_layout layout;
	char *message;			/* why it failed */
};

struct ir3_lower_cache {
	ARRAY(struct ir3_lowered) e;
	struct exec_cache *exec;	/* the interpreter's runs for the differential test */
};

struct ir3_lower_cache *ir3_lower_cache_new(void)
{
	return xcalloc(1, sizeof(struct ir3_lower_cache));
}

void ir3_lower_cache_free(struct ir3_lower_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->e.len; i++) {
		shader_free(c->e.data[i].s);
		free(c->e.data[i].message);
	}
	exec_cache_free(c->exec);
	array_free(&c->e);
	free(c);
}

/*
 * Lower a clone of `s` for the lowering view `v` into `*e` (its shader NULL
 * and its message set when a pass broke the IR — a compiler bug).  The
 * lowering's dumps go to r->ir when the IR is asked for.
 */
static void lower(const char *name, struct shader *s, const struct ir3_lowering *v,
		  const struct compile_options *o, struct compile_result *r,
		  struct compile_output *out, struct ir3_lowered *e)
{
	struct strbuf dump = STRBUF_INIT;
	struct pipeline pl;
	e->view = *v;
	e->s = shader_clone(s);
	e->layout = (struct ir3_const_layout){ .const_data_slot = -1 };
	e->message = NULL;
	pipeline_init_compile(&pl, e->s, o, &out->diag, name, &dump);
	ir3_lower_nir(&pl, v, &e->layout);
	pass_times_add(&out->times, &pl.times);
	if (o->want_ir && dump.len)
		result_add_ir(r, "lowering", dump.buf);
	if (pl.failed) {
		struct strbuf first = STRBUF_INIT;
		e->message = xstrdup(diag_first_error(&out->diag, &first));
		strbuf_release(&first);
		shader_free(e->s);
		e->s = NULL;
	}
	pipeline_release(&pl);
	strbuf_release(&dump);
}

/*
 * One ir3 target: per-target lowering (shared through `cache` with the
 * targets of the same lowering view, unless the IR is asked for) →
 * instruction selection → the machine pipeline, on a copy of `s`.
 * Failures are results: an unsupported feature, too many live values or a
 * verifier finding is RESULT_ERROR (a verifier finding names the verifier
 * and the instruction, and is never dropped); IR broken by a lowering pass
 * is RESULT_CRASH, a compiler bug, as for the optimisation passes.
 */
int ir3_compile_shader(const char *name, struct shader *s, const struct compile_options *o,
		       struct compile_result *r, struct compile_output *out,
		       struct ir3_lower_cache *cache)
{
	struct ir3_info as_24_3;
	const struct ir3_info *t = o->mesa == MESA_RULES_24_3 ?
		ir3_info_mesa_24_3(r->target->ir3, &as_24_3) : r->target->ir3;
	struct compile_progress *pr = o->progress;
	struct ir3_lowering view = ir3_lowering_view(t);
	struct ir3_lowered own, *e = NULL;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (pr) {
		pr->phase = "ir3";
		pr->target = r->target->name;
	}
	if (o->want_ir)
		cache = NULL;	/* each target shows its own lowering */
	for (size_t i = 0; cache && i < cache->e.len && !e; i++)
		if (!memcmp(&cache->e.data[i].view, &view, sizeof(view)))
			e = &cache->e.data[i];
	if (!e) {
		e = cache ? array_push_zero(&cache->e) : &own;
		lower(name, s, &view, o, r, out, e);
	}
	if (!e->s) {
		r->status = RESULT_CRASH;
		r->message = xstrdup(e->message);
		if (e != &own && e->message)
			diag_error(&out->diag, name, 0, 0, "%s: %s", r->target->name, e->message);
		ret = -1;
		goto done;
	}
	/* selection may change the shader and the layout: its own copies */
	struct shader *copy = e == &own ? e->s : shader_clone(e->s);
	struct ir3_const_layout layout = e->layout;
	if (e == &own)
		own.s = NULL;

	struct arena arena = ARENA_INIT;
	if (pr)
		pr->pass = "ir3_isel";
	uint64_t start = o->time_passes ? pass_clock_ns() : 0;
	struct ir3 *ir = ir3_isel(copy, t, &layout, &arena, &err);
	if (o->time_passes)
		pass_times_record(&out->times, "ir3_isel", true, pass_clock_ns() - start);
	if (pr)
		pr->pass = NULL;
	if (!ir) {
		result_fail(out, name, r, RESULT_ERROR, err.buf);
		ret = -1;
	} else {
		struct ir3_compile_options co = {
			.verify = o->verify, .validate = IR_VALIDATE_DEFAULT || o->validate_ir,
			.ra_limit = o->ra_limit,
			.want_disasm = o->want_disasm, .print_after = o->print_after,
			.passes = o->passes, .time_passes = o->time_passes, .made_by = "ir3_isel",
			.running = pr ? &pr->pass : NULL,
			.test_break = test_break(o->test_break),
		};
		struct ir3_compile_output mo;
		ir3_compile_output_init(&mo);
		int rc = ir3_compile_machine(ir, t, &co, &mo);
		if (o->want_ir && mo.dump.len)
			result_add_ir(r, "backend", mo.dump.buf);
		pass_times_add(&out->times, &mo.times);
		if (rc < 0) {
			result_fail(out, name, r, mo.broken ? RESULT_CRASH : RESULT_ERROR, mo.error.buf);
			ret = -1;
		} else {
			if (cache && o->exec_seeds && !cache->exec)
				cache->exec = exec_cache_new();
			if (o->exec_seeds &&
			    ir3_sim_check(ir, s, copy, o, r, cache ? cache->exec : NULL) < 0) {
				diag_error(&out->diag, name, 0, 0, "%s: %s", r->target->name, r->message);
				ret = -1;
			} else {
				result_add_stats(r, &mo.stats);
			}
			if (o->want_disasm)
				r->disasm = xstrdup(mo.disasm.buf);
		}
		ir3_compile_output_release(&mo);
	}
	arena_release(&arena);
	shader_free(copy);
done:
	if (e == &own)
		free(own.message);
	if (pr)
		pr->pass = pr->target = NULL;
	strbuf_release(&err);
	return ret;
}

