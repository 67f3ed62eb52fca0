/*
 * compile_file(): read the file, pick the front end by its kind, and (as the
 * pieces land) translate, optimise and run each target's backend.
 */
#include "compiler/compile.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/etna/etna_shader.h"
#include "compiler/front/front.h"
#include "compiler/ir/ir.h"
#include "compiler/ir3/ir3_shader.h"
#include "compiler/link/link.h"
#include "compiler/opt/opt.h"
#include "compiler/spirv/spirv.h"
#include "compiler/util/file.h"

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Record one failed result for `stage` carrying the first error of the diag. */
static void add_error(struct compile_output *out, enum shader_stage stage,
		      enum result_status status, uint64_t start)
{
	struct compile_result *r = array_push_zero(&out->results);
	struct strbuf first = STRBUF_INIT;
	r->stage = stage;
	r->status = status;
	r->message = xstrdup(diag_first_error(&out->diag, &first));
	r->time_us = now_us() - start;
	strbuf_release(&first);
}

/* One result for `stage` on `target` (NULL: the front end alone). */
static struct compile_result *add_result(struct compile_output *out, enum shader_stage stage,
					 const struct target *target, enum result_status status,
					 const char *ir, uint64_t start)
{
	struct compile_result *r = array_push_zero(&out->results);
	r->stage = stage;
	r->target = target;
	r->status = status;
	r->ir = ir ? xstrdup(ir) : NULL;
	r->time_us = now_us() - start;
	return r;
}

/* Each family's lowered shaders, shared by its targets of one compile. */
struct lower_caches {
	struct ir3_lower_cache *ir3;
	struct etna_lower_cache *etna;
};

/* One result per target; its time is the shared front end and optimisation
 * plus this target's own work (the first target of a lowering view also
 * pays for the lowering the others share). */
static int compile_target(const char *name, struct shader *s, const struct compile_options *o,
			  const struct target *t, uint64_t shared_us, struct lower_caches *cache,
			  struct compile_output *out)
{
	uint64_t t0 = now_us();
	struct compile_result *r = add_result(out, s->stage, t, RESULT_OK,
					      o->want_ir ? "" : NULL, t0);
	int ret;
	if (o->want_ir) {
		struct strbuf ir = STRBUF_INIT;
		ir_print(s, &ir);
		free(r->ir);
		r->ir = strbuf_detach(&ir, NULL);
	}
	if (t->family == TARGET_FAMILY_IR3) {
		ret = ir3_compile_shader(name, s, o, r, out, cache->ir3);
	} else if (t->family == TARGET_FAMILY_ETNA) {
		ret = etna_compile_shader(name, s, o, r, out, cache->etna);
	} else {
		struct strbuf msg = STRBUF_INIT;
		strbuf_addf(&msg, "no %s backend yet", target_family_name(t->family));
		result_fail(out, name, r, RESULT_ERROR, msg.buf);
		strbuf_release(&msg);
		ret = -1;
	}
	/* add_result may have moved: find it again */
	r = &out->results.data[out->results.len - 1];
	r->backend_us = now_us() - t0;
	r->time_us = shared_us + r->backend_us;
	return ret;
}

/*
 * Every front end ends here: optimise `s` (the default pipeline — after
 * lower_vars_to_ssa for the SPIR-V reader's output — or o->passes), keep
 * its text when asked (after the --print-after dumps),
 * then one result per target on a clone of it — or one front-end-only
 * result (target NULL) when no target is asked.  Frees `s`.
 */
static int finish_shader(const char *name, struct shader *s, bool from_spirv,
			 const struct compile_options *o, const struct target *const *targets,
			 size_t num_targets, struct compile_output *out, uint64_t start)
{
	struct strbuf ir = STRBUF_INIT;
	struct pipeline pl;
	enum shader_stage stage = s->stage;
	int ret = 0;

	if (!compile_check_passes(o->passes, o->print_after, &ir)) {
		diag_error(&out->diag, name, 0, 0, "%s", ir.buf);
		add_error(out, stage, RESULT_ERROR, start);
		strbuf_release(&ir);
		shader_free(s);
		return -1;
	}
	pipeline_init_compile(&pl, s, o, &out->diag, name, &ir);
	if (o->progress)
		o->progress->phase = "opt";
	if (o->passes) {
		struct strbuf list = STRBUF_INIT;
		compile_ir_passes(o->passes, &list);
		pipeline_run_list(&pl, list.buf);
		strbuf_release(&list);
	} else {
		/* the SPIR-V reader's locals first: the loop expects SSA */
		bool progress = false;
		if (from_spirv)
			PASS(progress, &pl, lower_vars_to_ssa);
		(void)progress;
		opt_default(&pl);
	}
	if (pl.failed) {
		/* a pass broke the IR or lied about its progress: a compiler bug */
		add_error(out, stage, RESULT_CRASH, start);
		ret = -1;
	} else {
		if (o->want_ir)
			ir_print(s, &ir);
		if (!num_targets)
			add_result(out, stage, NULL, RESULT_OK, o->want_ir ? ir.buf : NULL, start);
		uint64_t shared_us = now_us() - start;
		struct lower_caches cache = { ir3_lower_cache_new(), etna_lower_cache_new() };
		for (size_t i = 0; i < num_targets; i++)
			if (compile_target(name, s, o, targets[i], shared_us, &cache, out) < 0)
				ret = -1;
		ir3_lower_cache_free(cache.ir3);
		etna_lower_cache_free(cache.etna);
	}
	pass_times_add(&out->times, &pl.times);
	pipeline_release(&pl);
	strbuf_release(&ir);
	shader_free(s);
	return ret;
}

/* Our own IR text (compiler/ir/FORMAT.md): parse, validate, optimise. */
static int compile_ir(const char *name, const char *data, size_t len,
		      const struct compile_options *o, const struct target *const *targets,
		      size_t num_targets, struct compile_output *out, uint64_t start)
{
	struct shader *s = ir_parse(name, data, len, &out->diag);
	if (!s) {
		add_error(out, o->stage, RESULT_ERROR, start);
		return -1;
	}
	if (o->stage != STAGE_NONE && o->stage != s->stage)
		diag_error(&out->diag, name, 0, 0, "the file is a %s shader, not %s",
			   stage_name(s->stage), stage_name(o->stage));
	else if (ir_validate(s, &out->diag, name))
		return finish_shader(name, s, false, o, targets, num_targets, out, start);
	add_error(out, s->stage, RESULT_ERROR, start);
	shader_free(s);
	return -1;
}

/*
 * SPIR-V → IR for one ok unit (compiler/spirv/spirv.h), messages in `d`.
 * The reader validates what it makes (invalid IR from a valid module is
 * reported as an internal error).
 */
static struct shader *translate_unit(const struct spirv_unit *u, const struct compile_options *o,
				     const char *name, struct diag *d)
{
	struct spirv_options so = {
		.entry = u->entry,
		.stage = u->stage,
		.specs = o->specs.data,
		.num_specs = o->specs.len,
	};
	/* --spec first (the reader takes an id's first value), then the
	 * program's own constants (a pipeline's) */
	ARRAY(struct spec_value) specs = ARRAY_INIT;
	if (u->specs.len) {
		for (size_t i = 0; i < o->specs.len; i++)
			array_push(&specs, o->specs.data[i]);
		for (size_t i = 0; i < u->specs.len; i++)
			array_push(&specs, u->specs.data[i]);
		so.specs = specs.data;
		so.num_specs = specs.len;
	}
	if (o->progress)
		o->progress->phase = "spirv";
	struct shader *s = spirv_to_ir(u->words, u->num_words, &so, name, d);
	array_free(&specs);
	return s;
}

static void diag_append(struct diag *to, const struct diag *from)
{
	strbuf_add(&to->text, from->text.buf, from->text.len);
	to->errors += from->errors;
	to->warnings += from->warnings;
}

/* One unit of the front end on its way to results. */
struct unit_state {
	struct diag d;			/* its messages, the front end's first */
	char *spirv;			/* its disassembly, when asked */
	struct shader *s;		/* its IR, once translated */
	bool failed;
	uint64_t translate_us;		/* unit_translate()'s time */
};

/* The unit's SPIR-V (disassembled when asked), then — when targets or IR
 * are asked for — the IR translate_unit() makes of it. */
static void unit_translate(const struct spirv_unit *u, const char *name,
			  const struct compile_options *o, size_t num_targets,
			  struct unit_state *us)
{
	uint64_t t0 = now_us();
	diag_init(&us->d);
	diag_append(&us->d, &u->diag);
	us->failed = u->status != RESULT_OK;
	if (!us->failed && o->want_spirv) {
		struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
		if (spirv_disassemble(u->words, u->num_words, &text, &err) < 0)
			diag_warning(&us->d, name, 0, 0, "%s", err.buf);
		us->spirv = strbuf_detach(&text, NULL);
		strbuf_release(&err);
	}
	if (!us->failed && (num_targets || o->want_ir)) {
		us->s = translate_unit(u, o, name, &us->d);
		us->failed = !us->s;
	}
	us->translate_us = now_us() - t0;
}

/*
 * The results of one unit: its translated IR optimised and compiled by
 * finish_shader(), or one result with no target for a unit that stops at
 * the front end (or failed on the way).
 */
static int unit_results(const struct spirv_unit *u, const char *name,
			const struct compile_options *o, const struct target *const *targets,
			size_t num_targets, struct compile_output *out, uint64_t start,
			struct unit_state *us)
{
	struct strbuf first = STRBUF_INIT;
	int ret = us->failed ? -1 : 0;

	if (us->s) {
		size_t from = out->results.len;
		diag_append(&out->diag, &us->d);
		ret = finish_shader(name, us->s, true, o, targets, num_targets, out, start);
		for (size_t k = from; k < out->results.len; k++)
			out->results.data[k].front_us = u->time_us;
		if (out->results.len > from)	/* the SPIR-V goes with the first */
			out->results.data[from].spirv = us->spirv;
		else
			free(us->spirv);
		diag_release(&us->d);
		return ret;
	}
	struct compile_result *r = array_push_zero(&out->results);
	r->stage = u->stage;
	r->time_us = u->time_us;
	r->front_us = u->time_us;
	r->spirv = us->spirv;
	if (ret < 0) {
		r->status = RESULT_ERROR;
		r->message = xstrdup(diag_first_error(&us->d, &first));
	}
	diag_append(&out->diag, &us->d);
	diag_release(&us->d);
	strbuf_release(&first);
	return ret;
}

/* Whether the front end gave the varyings of a unit their locations stage
 * by stage (GL-style and legacy GLSL): then stages link by name. */
static bool located_per_stage(const char *how)
{
	return how && (!strncmp(how, "vkrelaxed", 9) || !strcmp(how, "gl") ||
		       !strncmp(how, "legacy", 6));
}

/* The stages of a program, linked as a GL driver would (compiler/link). */
static void link_units(struct program *p, struct unit_state *us, const char *name,
		       struct compile_output *out)
{
	struct shader **stages = xcalloc(p->units.len, sizeof(*stages));
	struct link_options lo = { .separable = p->require.separable };
	for (size_t i = 0; i < p->units.len; i++) {
		stages[i] = us[i].s;
		lo.by_name |= located_per_stage(p->units.data[i].how);
	}
	link_program(stages, p->units.len, &lo, &out->diag, name);
	free(stages);
}

/* GLSL, HLSL, SPIR-V and .shader_test files: the front end, each unit to
 * IR, the program's stages linked, then each unit's results. */
static int compile_front(const char *name, const char *data, size_t len, enum input_kind kind,
			 enum shader_stage stage, const struct compile_options *o,
			 const struct target *const *targets, size_t num_targets,
			 struct compile_output *out, uint64_t start)
{
	struct program p;
	int ret = 0;

	program_init(&p, name);
	if (o->progress)
		o->progress->phase = "front";
	front_compile(&p, data, len, kind, stage, o);
	struct unit_state *us = xcalloc(p.units.len + 1, sizeof(*us));
	for (size_t i = 0; i < p.units.len; i++)
		unit_translate(&p.units.data[i], name, o, num_targets, &us[i]);
	if (p.units.len > 1)
		link_units(&p, us, name, out);
	/* one unit's time is the file's from `start`; each of several counts
	 * its own front-end share and translation, then its own results */
	for (size_t i = 0; i < p.units.len; i++) {
		uint64_t own = p.units.data[i].time_us + us[i].translate_us;
		uint64_t from = p.units.len == 1 ? start : now_us() - own;
		if (unit_results(&p.units.data[i], name, o, targets, num_targets, out, from,
				 &us[i]) < 0)
			ret = -1;
	}
	free(us);
	program_release(&p);
	return ret;
}

/* "a, b, c": a file's programs, for a message naming the one asked for. */
static void program_names(const struct front_programs *progs, struct strbuf *out)
{
	for (size_t i = 0; i < progs->list.len && i < 8; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", progs->list.data[i].name);
	if (progs->list.len > 8)
		strbuf_addf(out, " and %zu more", progs->list.len - 8);
}

/*
 * The programs of a file (front_list_programs): most files hold one, an HLSL
 * file may hold several entry points, a Fossilize database pipelines.  Each
 * (or only o->program) goes through compile_front() on its own; results of
 * a file of several carry the program's name.
 */
static int compile_programs(const char *name, const char *data, size_t len, enum input_kind kind,
			    enum shader_stage stage, const struct compile_options *o,
			    const struct target *const *targets, size_t num_targets,
			    struct compile_output *out, uint64_t start)
{
	struct front_programs progs;
	size_t done = 0;
	int ret = 0;

	if (front_list_programs(name, data, len, kind, stage, o, &progs, &out->diag) < 0) {
		add_error(out, stage, RESULT_ERROR, start);
		front_programs_release(&progs);
		return -1;
	}
	for (size_t i = 0; i < progs.list.len; i++) {
		const struct front_program *fp = &progs.list.data[i];
		if (o->program && (!fp->name || strcmp(fp->name, o->program)))
			continue;
		struct compile_options po = *o;	/* a view: nothing of it is released */
		po.program = fp->name;
		if (fp->entry)
			po.entry = fp->entry;
		size_t from = out->results.len;
		if (compile_front(name, data, len, kind, fp->stage != STAGE_NONE ? fp->stage : stage,
				  &po, targets, num_targets, out, done ? now_us() : start) < 0)
			ret = -1;
		for (size_t k = from; progs.named && k < out->results.len; k++)
			out->results.data[k].program = xstrdup(fp->name);
		done++;
	}
	if (!done) {
		struct strbuf names = STRBUF_INIT;
		program_names(&progs, &names);
		if (progs.list.len && progs.list.data[0].name)
			diag_error(&out->diag, name, 0, 0, "no program '%s' in the file (it holds %s)",
				   o->program, names.buf);
		else
			diag_error(&out->diag, name, 0, 0, "no program '%s': the file holds one, unnamed",
				   o->program);
		add_error(out, stage, RESULT_ERROR, start);
		strbuf_release(&names);
		ret = -1;
	}
	front_programs_release(&progs);
	return ret;
}

int compile_source(const char *name, const char *data, size_t len, const struct compile_options *o,
		   const struct target *const *targets, size_t num_targets,
		   struct compile_output *out)
{
	uint64_t start = now_us();
	enum shader_stage stage;
	enum input_kind kind = input_kind_from_path(name, &stage);

	if (o->kind != INPUT_UNKNOWN)
		kind = o->kind;
	if (o->stage != STAGE_NONE)
		stage = o->stage;

	switch (kind) {
	case INPUT_IR:
		return compile_ir(name, data, len, o, targets, num_targets, out, start);
	case INPUT_GLSL:
	case INPUT_HLSL:
	case INPUT_SPIRV:
	case INPUT_SPVASM:
	case INPUT_SHADER_TEST:
	case INPUT_FOZ:
		return compile_programs(name, data, len, kind, stage, o, targets, num_targets, out,
					start);
	case INPUT_UNKNOWN:
		diag_error(&out->diag, name, 0, 0, "unknown kind of input (extension '%s')",
			   path_extension(name));
		break;
	default:
		diag_error(&out->diag, name, 0, 0, "no front end for %s input yet",
			   input_kind_name(kind));
		break;
	}
	add_error(out, stage, RESULT_ERROR, start);
	return -1;
}

int compile_file(const char *path, const struct compile_options *o,
		 const struct target *const *targets, size_t num_targets,
		 struct compile_output *out)
{
	struct strbuf data = STRBUF_INIT, err = STRBUF_INIT;
	int ret;

	enum shader_stage stage;
	enum input_kind kind = input_kind_from_path(path, &stage);

	if (o->kind != INPUT_UNKNOWN)
		kind = o->kind;
	if (kind == INPUT_FOZ) {	/* a database: mapped, each pipeline reads its part */
		struct file_map m;
		if (file_map(path, &m, &err) == 0) {
			ret = compile_source(path, m.data, m.len, o, targets, num_targets, out);
			file_unmap(&m);
		} else {
			diag_error(&out->diag, path, 0, 0, "%s", err.buf);
			add_error(out, o->stage, RESULT_ERROR, now_us());
			ret = -1;
		}
	} else if (kind != INPUT_UNKNOWN && read_file(path, &data, &err) < 0) {
		diag_error(&out->diag, path, 0, 0, "%s", err.buf);
		add_error(out, o->stage != STAGE_NONE ? o->stage : stage, RESULT_ERROR, now_us());
		ret = -1;
	} else {
		ret = compile_source(path, data.buf, data.len, o, targets, num_targets, out);
	}
	strbuf_release(&data);
	strbuf_release(&err);
	return ret;
}
