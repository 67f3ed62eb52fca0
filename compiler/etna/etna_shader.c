/*
 * etna_compile_shader(): the etnaviv backend behind compile_source(), per
 * target.  Every pass, on the IR or the machine IR, reports through the
 * options: --print-after dumps go into the result's IR text (with the
 * lowering's, after a "# ---- TARGET backend ----" line), times into the
 * output.
 */
#include "compiler/etna/etna_shader.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/etna/etna_compile.h"
#include "compiler/etna/etna_nir.h"
#include "compiler/opt/opt.h"
#include "compiler/util/array.h"

/* Lowered shaders, one per lowering view, shared by the targets of one
 * compile (etna_shader.h). */
struct etna_lowered {
	struct etna_lowering view;
	struct shader *s;		/* NULL: the lowering failed */
	char *message;			/* why it failed */
};

struct etna_lower_cache {
	ARRAY(struct etna_lowered) e;
};

struct etna_lower_cache *etna_lower_cache_new(void)
{
	return xcalloc(1, sizeof(struct etna_lower_cache));
}

void etna_lower_cache_free(struct etna_lower_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->e.len; i++) {
		shader_free(c->e.data[i].s);
		free(c->e.data[i].message);
	}
	array_free(&c->e);
	free(c);
}

/*
 * Lower a clone of `s` for the lowering view `v` into `*e` (its shader NULL
 * and its message set when a pass broke the IR — a compiler bug).  The
 * lowering's dumps go to r->ir when the IR is asked for.
 */
static void lower(const char *name, struct shader *s, const struct etna_lowering *v,
		  const struct compile_options *o, struct compile_result *r,
		  struct compile_output *out, struct etna_lowered *e)
{
	struct strbuf dump = STRBUF_INIT;
	struct pipeline pl;
	e->view = *v;
	e->s = shader_clone(s);
	e->message = NULL;
	pipeline_init_compile(&pl, e->s, o, &out->diag, name, &dump);
	etna_lower_nir(&pl, v);
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

/* Selection and the machine pipeline on `copy`, filling `r`. */
static int select_and_compile(const char *name, struct shader *copy, const struct etna_info *t,
			      const struct compile_options *o, struct compile_result *r,
			      struct compile_output *out)
{
	struct compile_progress *pr = o->progress;
	struct strbuf err = STRBUF_INIT;
	struct arena arena = ARENA_INIT;
	int ret = 0;
	if (pr)
		pr->pass = "etna_isel";
	uint64_t start = o->time_passes ? pass_clock_ns() : 0;
	struct etna_shader *es = etna_isel(copy, t, &arena, &err);
	if (o->time_passes)
		pass_times_record(&out->times, "etna_isel", true, pass_clock_ns() - start);
	if (pr)
		pr->pass = NULL;
	if (!es) {
		result_fail(out, name, r, RESULT_ERROR, err.buf);
		ret = -1;
		goto done;
	}
	struct etna_compile_options co = {
		.verify = o->verify, .validate = IR_VALIDATE_DEFAULT || o->validate_ir,
		.want_disasm = o->want_disasm, .print_after = o->print_after,
		.time_passes = o->time_passes, .made_by = "etna_isel",
		.running = pr ? &pr->pass : NULL,
	};
	struct etna_compile_output mo;
	etna_compile_output_init(&mo);
	int rc = etna_compile_machine(es, &co, &mo);
	if (o->want_ir && mo.dump.len)
		result_add_ir(r, "backend", mo.dump.buf);
	pass_times_add(&out->times, &mo.times);
	if (rc < 0) {
		result_fail(out, name, r, mo.broken ? RESULT_CRASH : RESULT_ERROR, mo.error.buf);
		ret = -1;
	} else {
		result_add_stats_ordered(r, &mo.stats, etna_mesa_line,
					 sizeof(etna_mesa_line) / sizeof(etna_mesa_line[0]));
		if (o->want_disasm)
			r->disasm = xstrdup(mo.disasm.buf);
	}
	etna_compile_output_release(&mo);
done:
	etna_shader_release(es);
	arena_release(&arena);
	strbuf_release(&err);
	return ret;
}

/*
 * One etnaviv target: the lowering (shared through `cache` with the
 * targets of the same view, unless the IR is asked for) → selection → the
 * machine pipeline, on a copy.  An unsupported feature, a limit or a
 * verifier finding is RESULT_ERROR; IR broken by a pass is RESULT_CRASH, a
 * compiler bug.
 */
int etna_compile_shader(const char *name, struct shader *s, const struct compile_options *o,
			struct compile_result *r, struct compile_output *out,
			struct etna_lower_cache *cache)
{
	const struct etna_info *t = r->target->etna;
	struct compile_progress *pr = o->progress;
	struct etna_lowering view = etna_lowering_view(t);
	struct etna_lowered own, *e = NULL;
	int ret;

	if (pr) {
		pr->phase = "etna";
		pr->target = r->target->name;
	}
	if (s->stage != STAGE_VERTEX && s->stage != STAGE_FRAGMENT && s->stage != STAGE_COMPUTE) {
		struct strbuf msg = STRBUF_INIT;
		strbuf_addf(&msg, "etnaviv has no %s stage (vertex, fragment and compute only)",
			    stage_name(s->stage));
		result_fail(out, name, r, RESULT_ERROR, msg.buf);
		strbuf_release(&msg);
		if (pr)
			pr->target = NULL;
		return -1;
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
	} else {
		/* selection changes the shader: its own copy */
		struct shader *copy = e == &own ? e->s : shader_clone(e->s);
		if (e == &own)
			own.s = NULL;
		ret = select_and_compile(name, copy, t, o, r, out);
		shader_free(copy);
	}
	if (e == &own)
		free(own.message);
	if (pr)
		pr->pass = pr->target = NULL;
	return ret;
}
