/*
 * front_compile(): pick the front end by the kind of input and build the
 * program's units (front.h); front_list_programs(): the programs of a file
 * that holds several.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/front/foz.h"
#include "compiler/front/front_internal.h"
#include "compiler/front/hlsl_entries.h"
#include "compiler/front/multistage.h"
#include "compiler/front/shader_test.h"

void program_init(struct program *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
}

void program_release(struct program *p)
{
	for (size_t i = 0; i < p->units.len; i++) {
		struct spirv_unit *u = &p->units.data[i];
		free(u->entry);
		free(u->words);
		array_free(&u->specs);
		diag_release(&u->diag);
	}
	array_free(&p->units);
	program_require_release(&p->require);
}

struct spirv_unit *program_add_unit(struct program *p, enum shader_stage stage)
{
	struct spirv_unit *u = array_push_zero(&p->units);
	u->stage = stage;
	u->status = RESULT_ERROR;
	u->line = 1;
	diag_init(&u->diag);
	return u;
}

bool front_stage_selected(const struct compile_options *o, enum shader_stage s)
{
	if (!o->stages.len)
		return true;
	for (size_t i = 0; i < o->stages.len; i++)
		if (o->stages.data[i] == s)
			return true;
	return false;
}

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return false;
	return true;
}

/* A GLSL or HLSL file: one stage. */
static void compile_text(struct program *p, const char *data, size_t len, bool hlsl,
			 enum shader_stage stage, const struct compile_options *o)
{
	struct spirv_unit *u = program_add_unit(p, stage);
	struct glslang_source src = { .stage = stage, .unit = 0 };

	if (stage == STAGE_NONE) {
		diag_error(&u->diag, p->name, 0, 0,
			   "cannot tell the stage from the file name: use --stage");
		return;
	}
	if (source_prepare(p->name, data, len, 1, stage, hlsl, MULTI_NONE, o, &src.prepared,
			   &u->diag) == 0)
		glslang_compile(p, &src, 1, o);
	prepared_source_release(&src.prepared);
}

/* A unit that says why the file gave none, from the messages in `d`. */
static void add_failed_unit(struct program *p, enum shader_stage stage, const struct diag *d)
{
	struct spirv_unit *u = program_add_unit(p, stage);
	strbuf_add(&u->diag.text, d->text.buf, d->text.len);
	u->diag.errors = d->errors ? d->errors : 1;
}

/* "vertex, fragment": the stages a file holds, for messages. */
static void list_stages(const struct multistage *ms, struct strbuf *out)
{
	for (size_t i = 0; i < ms->stages.len; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", stage_name(ms->stages.data[i].stage));
}

/* The stages of a .slang file may come from a file it includes. */
static void expand_for_stages(const char *file, const char *data, size_t len,
			      const struct compile_options *o, struct strbuf *out)
{
	string_array errors = ARRAY_INIT;
	struct diag ignored = DIAG_INIT;
	struct glsl_version v;
	glsl_find_version(data, len, &v);
	if (memchr(data, 0, len) || !source_has_include(data, len) ||
	    source_expand_includes(file, data, len, 1, &v, o, out, &errors, &ignored) < 0) {
		strbuf_reset(out);
		strbuf_add(out, data, len);
	}
	for (size_t i = 0; i < errors.len; i++)
		free(errors.data[i]);
	array_free(&errors);
	diag_release(&ignored);
}

/*
 * A file of several stages (multistage.h): one unit per stage it holds that
 * `o` selects, compiled (and linked) as one program.
 */
static void compile_multistage(struct program *p, const char *data, size_t len,
			       enum multistage_kind kind, const struct compile_options *o)
{
	struct multistage ms;
	struct diag d = DIAG_INIT;
	struct strbuf text = STRBUF_INIT;
	ARRAY(struct glslang_source) srcs = ARRAY_INIT;

	expand_for_stages(p->name, data, len, o, &text);
	if (multistage_parse(p->name, text.buf, text.len, kind, &ms, &d) < 0) {
		add_failed_unit(p, STAGE_NONE, &d);
		goto out;
	}
	for (size_t i = 0; i < ms.stages.len; i++)
		if (front_stage_selected(o, ms.stages.data[i].stage))
			program_add_unit(p, ms.stages.data[i].stage)->line = ms.stages.data[i].line;
	if (!p->units.len) {
		struct strbuf have = STRBUF_INIT;
		list_stages(&ms, &have);
		diag_error(&d, p->name, 0, 0, "the file has no %s stage (it has %s)",
			   stage_name(o->stages.data[0]), have.buf);
		add_failed_unit(p, o->stages.data[0], &d);
		strbuf_release(&have);
		goto out;
	}
	bool ok = true;
	for (size_t k = 0; k < p->units.len; k++) {
		struct spirv_unit *u = &p->units.data[k];
		struct glslang_source *g = array_push_zero(&srcs);
		g->stage = u->stage;
		g->unit = k;
		g->defines = kind == MULTI_DEFINES ? multistage_defines(u->stage) : NULL;
		ok &= source_prepare(p->name, data, len, 1, u->stage, false,
				     kind == MULTI_PRAGMA ? MULTI_PRAGMA : MULTI_NONE, o,
				     &g->prepared, &u->diag) == 0;
	}
	if (ok)
		glslang_compile(p, srcs.data, srcs.len, o);
	for (size_t i = 0; i < srcs.len; i++)
		prepared_source_release(&srcs.data[i].prepared);
out:
	array_free(&srcs);
	multistage_release(&ms);
	strbuf_release(&text);
	diag_release(&d);
}

static void add_arb_error(struct program *p, struct spirv_unit *u,
			  const struct shader_test_section *s)
{
	diag_error(&u->diag, p->name, s->line - 1, 1,
		   "unsupported: ARB assembly programs ([%s program]) are not compiled by shdb",
		   s->stage == STAGE_VERTEX ? "vertex" : "fragment");
}

/* One unit per stage present, in pipeline order; u_of[stage] its index. */
static void add_stage_units(struct program *p, const struct shader_test *st, size_t *u_of,
			    const struct compile_options *o)
{
	for (int s = 0; s < STAGE_COUNT; s++) {
		u_of[s] = SIZE_MAX;
		for (size_t i = 0; i < st->sections.len && u_of[s] == SIZE_MAX; i++) {
			if (st->sections.data[i].stage != s || !front_stage_selected(o, s))
				continue;
			u_of[s] = p->units.len;
			program_add_unit(p, (enum shader_stage)s)->line = st->sections.data[i].line;
		}
	}
}

/* A .shader_test: every stage, compiled (and linked) as one program. */
static void compile_shader_test(struct program *p, const char *data, size_t len,
				const struct compile_options *o)
{
	struct shader_test st;
	struct diag d = DIAG_INIT;
	ARRAY(struct glslang_source) srcs = ARRAY_INIT;
	size_t u_of[STAGE_COUNT];

	if (shader_test_parse(p->name, data, len, &st, &d) < 0) {
		struct spirv_unit *u = program_add_unit(p, STAGE_NONE);
		strbuf_add(&u->diag.text, d.text.buf, d.text.len);
		u->diag.errors = d.errors;
		goto out;
	}
	add_stage_units(p, &st, u_of, o);
	if (!p->units.len) {
		diag_error(&d, p->name, 0, 0, "the program has no %s stage",
			   stage_name(o->stages.data[0]));
		add_failed_unit(p, o->stages.data[0], &d);
		goto out;
	}
	if (d.text.len)		/* warnings about skipped sections: the first stage's */
		strbuf_add(&p->units.data[0].diag.text, d.text.buf, d.text.len);
	bool *failed = xcalloc(p->units.len, sizeof(bool));
	for (size_t i = 0; i < st.sections.len; i++) {
		const struct shader_test_section *s = &st.sections.data[i];
		if (u_of[s->stage] == SIZE_MAX)
			continue;	/* a stage not selected */
		struct spirv_unit *u = &p->units.data[u_of[s->stage]];
		if (failed[u_of[s->stage]])
			continue;
		if (s->arb) {
			add_arb_error(p, u, s);
			failed[u_of[s->stage]] = true;
			continue;
		}
		if (blank(s->text, s->len)) {
			diag_error(&u->diag, p->name, s->line - 1, 1, "empty %s shader section",
				   stage_name(s->stage));
			failed[u_of[s->stage]] = true;
			continue;
		}
		struct glslang_source *g = array_push_zero(&srcs);
		g->stage = s->stage;
		g->unit = u_of[s->stage];
		if (source_prepare(p->name, s->text, s->len, s->line, s->stage, false, MULTI_NONE, o,
				   &g->prepared, &u->diag) < 0)
			failed[u_of[s->stage]] = true;
	}
	/* sources of failed units stay out of glslang's program */
	size_t n = 0;
	for (size_t i = 0; i < srcs.len; i++) {
		if (failed[srcs.data[i].unit])
			prepared_source_release(&srcs.data[i].prepared);
		else
			srcs.data[n++] = srcs.data[i];
	}
	if (n)
		glslang_compile(p, srcs.data, n, o);
	for (size_t i = 0; i < n; i++)
		prepared_source_release(&srcs.data[i].prepared);
	free(failed);
	p->require = st.require;
	memset(&st.require, 0, sizeof(st.require));
out:
	array_free(&srcs);
	shader_test_release(&st);
	diag_release(&d);
}

/* ---- Fossilize databases ---- */

/* The stages of pipeline `hash` into `out` (sorted, each once): its own,
 * then those of the graphics pipeline libraries it links. */
static int pipeline_stages(struct foz_db *db, uint32_t tag, uint64_t hash, int depth,
			   struct foz_pipeline *out, struct strbuf *payload, struct strbuf *err)
{
	const struct foz_entry *e = foz_find(db, tag, hash);
	struct foz_pipeline pl = { 0 };
	char name[17];
	if (!e) {
		foz_hash_name(hash, name);
		strbuf_addf(err, "no %s pipeline %s in the database",
			    tag == FOZ_TAG_COMPUTE_PIPELINE ? "compute" : "graphics", name);
		return -1;
	}
	if (depth > 8) {
		strbuf_addstr(err, "pipeline libraries nested more than 8 deep (a cycle?)");
		return -1;
	}
	if (foz_read(db, e, payload, err) < 0 ||
	    foz_parse_pipeline(payload->buf, payload->len, tag, hash, &pl, err) < 0) {
		foz_pipeline_release(&pl);
		return -1;
	}
	int ret = 0;
	for (size_t i = 0; i < pl.stages.len; i++) {
		bool have = false;
		for (size_t k = 0; k < out->stages.len; k++)
			have |= out->stages.data[k].stage == pl.stages.data[i].stage;
		if (!have) {
			array_push(&out->stages, pl.stages.data[i]);
			memset(&pl.stages.data[i], 0, sizeof(pl.stages.data[i]));
		}
	}
	for (size_t i = 0; !ret && i < pl.libraries.len; i++)
		ret = pipeline_stages(db, FOZ_TAG_GRAPHICS_PIPELINE, pl.libraries.data[i], depth + 1,
				      out, payload, err);
	foz_pipeline_release(&pl);
	return ret;
}

static int cmp_foz_stages(const void *a, const void *b)
{
	const struct foz_stage *x = a, *y = b;
	return (x->stage > y->stage) - (x->stage < y->stage);
}

/* One stage of a pipeline: its module's SPIR-V, entry point and constants. */
static void foz_stage_unit(struct program *p, struct foz_db *db, const struct foz_stage *st,
			   const char *pipeline, const struct compile_options *o,
			   struct strbuf *payload)
{
	uint64_t start = now_us();
	struct spirv_unit *u = program_add_unit(p, st->stage);
	struct strbuf code = STRBUF_INIT, err = STRBUF_INIT;
	const struct foz_entry *e = foz_find(db, FOZ_TAG_SHADER_MODULE, st->module);
	char module[17];

	foz_hash_name(st->module, module);
	if (!e)
		strbuf_addf(&err, "its shader module %s is not in the database", module);
	else if (foz_read(db, e, payload, &err) == 0 &&
		 foz_parse_module(payload->buf, payload->len, st->module, &code, &err) == 0) {
		struct compile_options so = *o;
		so.entry = st->entry;
		so.stage = st->stage;
		if (spirv_from_binary(u, p->name, code.buf, code.len, &so) == 0 &&
		    u->stage != st->stage)
			strbuf_addf(&err, "module %s's entry point '%s' is a %s shader", module,
				    st->entry, stage_name(u->stage));
	}
	if (err.len) {
		diag_error(&u->diag, p->name, 0, 0, "pipeline %s, %s stage: %s", pipeline,
			   stage_name(st->stage), err.buf);
		free(u->words);
		u->words = NULL;
		u->num_words = 0;
		u->status = RESULT_ERROR;
		u->stage = st->stage;
	}
	for (size_t i = 0; i < st->specs.len; i++)
		array_push(&u->specs, st->specs.data[i]);
	u->how = "fossilize";
	u->time_us = now_us() - start;
	strbuf_release(&code);
	strbuf_release(&err);
}

/* A pipeline of a Fossilize database (o->program: its hash): a unit per stage. */
static void compile_foz(struct program *p, const char *data, size_t len,
			const struct compile_options *o)
{
	struct foz_db db;
	struct foz_pipeline all = { 0 };
	struct strbuf err = STRBUF_INIT, payload = STRBUF_INIT;
	struct diag d = DIAG_INIT;
	uint64_t hash = 0;
	char name[17];

	if (foz_attach(&db, (const uint8_t *)data, len, &err) < 0) {
	} else if (!o->program || !foz_parse_hash(o->program, &hash)) {
		strbuf_addstr(&err, "a Fossilize database holds pipelines: name one (--program HASH)");
	} else if (pipeline_stages(&db, foz_find(&db, FOZ_TAG_COMPUTE_PIPELINE, hash) ?
				   FOZ_TAG_COMPUTE_PIPELINE : FOZ_TAG_GRAPHICS_PIPELINE,
				   hash, 0, &all, &payload, &err) == 0 && !all.stages.len) {
		strbuf_addstr(&err, "no shader stage (a library of fixed-function state?)");
	}
	foz_hash_name(hash, name);
	if (err.len) {
		if (o->program)
			diag_error(&d, p->name, 0, 0, "pipeline %s: %s", o->program, err.buf);
		else
			diag_error(&d, p->name, 0, 0, "%s", err.buf);
		add_failed_unit(p, STAGE_NONE, &d);
	} else {
		array_sort(&all.stages, cmp_foz_stages);
		for (size_t i = 0; i < all.stages.len; i++)
			if (front_stage_selected(o, all.stages.data[i].stage))
				foz_stage_unit(p, &db, &all.stages.data[i], name, o, &payload);
		if (!p->units.len) {
			diag_error(&d, p->name, 0, 0, "pipeline %s has no %s stage", name,
				   stage_name(o->stages.data[0]));
			add_failed_unit(p, o->stages.data[0], &d);
		}
	}
	foz_pipeline_release(&all);
	foz_close(&db);
	strbuf_release(&err);
	strbuf_release(&payload);
	diag_release(&d);
}

/* ---- the programs of a file ---- */

static void add_program(struct front_programs *out, const char *name, const char *entry,
			enum shader_stage stage)
{
	array_push(&out->list, (struct front_program){
		name ? xstrdup(name) : NULL, entry ? xstrdup(entry) : NULL, stage });
}

/* The entry points of an HLSL file, each a program: the ones asked for
 * (-e, the manifest), else those the file defines (hlsl_entries.h), else
 * main.  A stage: the one paired with it in o->stages, else its own. */
static void list_hlsl_entries(const char *data, size_t len, enum shader_stage stage,
			      const struct compile_options *o, struct front_programs *out)
{
	hlsl_entry_array found = ARRAY_INIT;
	size_t n = o->entries.len;
	for (size_t i = 0; i < n; i++) {
		const char *e = o->entries.data[i];
		enum shader_stage s = o->stages.len == n ? o->stages.data[i] :
				      hlsl_entry_stage(data, len, e);
		add_program(out, e, e, s != STAGE_NONE ? s : stage);
	}
	if (!n && !o->entry) {
		hlsl_find_entries(data, len, &found);
		for (size_t i = 0; i < found.len; i++)
			if (front_stage_selected(o, found.data[i].stage))
				add_program(out, found.data[i].name, found.data[i].name,
					    found.data[i].stage);
	}
	if (!out->list.len) {
		const char *e = o->entry ? o->entry : "main";
		enum shader_stage s = hlsl_entry_stage(data, len, e);
		add_program(out, e, e, stage != STAGE_NONE ? stage : s);
	}
	out->named = out->list.len > 1;
	hlsl_entries_release(&found);
}

int front_list_programs(const char *name, const char *data, size_t len, enum input_kind kind,
			enum shader_stage stage, const struct compile_options *o,
			struct front_programs *out, struct diag *d)
{
	memset(out, 0, sizeof(*out));
	if (kind == INPUT_FOZ && o->program) {
		/* one pipeline asked for (a runner's job): compile_foz() finds it,
		 * the database is not indexed twice */
		add_program(out, o->program, NULL, STAGE_NONE);
		out->named = true;
		return 0;
	}
	if (kind == INPUT_FOZ) {
		struct foz_db db;
		struct strbuf err = STRBUF_INIT;
		foz_hash_array hashes = ARRAY_INIT;
		int ret = foz_open(&db, (const uint8_t *)data, len, &err);
		if (ret < 0)
			diag_error(d, name, 0, 0, "%s", err.buf);
		foz_list_pipelines(&db, &hashes);
		for (size_t i = 0; i < hashes.len; i++) {
			char h[17];
			foz_hash_name(hashes.data[i], h);
			add_program(out, h, NULL, STAGE_NONE);
		}
		out->named = true;
		array_free(&hashes);
		foz_close(&db);
		strbuf_release(&err);
		return ret;
	}
	bool hlsl = kind == INPUT_HLSL ||
		    (kind == INPUT_GLSL && multistage_kind_of(name, data, len) == MULTI_NONE &&
		     source_looks_like_hlsl(data, len));
	if (hlsl)
		list_hlsl_entries(data, len, stage, o, out);
	else
		add_program(out, NULL, NULL, stage);
	return 0;
}

void front_programs_release(struct front_programs *progs)
{
	for (size_t i = 0; i < progs->list.len; i++) {
		free(progs->list.data[i].name);
		free(progs->list.data[i].entry);
	}
	array_free(&progs->list);
}

/* --validate: spirv-val on every module, whoever made it. */
static void validate_units(struct program *p)
{
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < p->units.len; i++) {
		struct spirv_unit *u = &p->units.data[i];
		if (u->status != RESULT_OK)
			continue;
		strbuf_reset(&err);
		if (spirv_validate(u->words, u->num_words, &err) < 0) {
			diag_error(&u->diag, p->name, 0, 0, "%s", err.buf);
			free(u->words);
			u->words = NULL;
			u->num_words = 0;
			u->status = RESULT_ERROR;
		}
	}
	strbuf_release(&err);
}

int front_compile(struct program *p, const char *data, size_t len, enum input_kind kind,
		  enum shader_stage stage, const struct compile_options *o)
{
	if (kind == INPUT_SPIRV || kind == INPUT_FOZ ? len == 0 : blank(data, len)) {
		struct spirv_unit *u = program_add_unit(p, stage);
		diag_error(&u->diag, p->name, 0, 0, "empty file");
		return -1;
	}
	uint64_t start = now_us();
	switch (kind) {
	case INPUT_GLSL: {
		enum multistage_kind multi = multistage_kind_of(p->name, data, len);
		if (multi != MULTI_NONE)
			compile_multistage(p, data, len, multi, o);
		else
			compile_text(p, data, len, source_looks_like_hlsl(data, len), stage, o);
		break;
	}
	case INPUT_HLSL:
		compile_text(p, data, len, true, stage, o);
		break;
	case INPUT_SPIRV:
		spirv_from_binary(program_add_unit(p, stage), p->name, data, len, o);
		break;
	case INPUT_SPVASM:
		spirv_from_assembly(program_add_unit(p, stage), p->name, data, len, o);
		break;
	case INPUT_SHADER_TEST:
		compile_shader_test(p, data, len, o);
		break;
	case INPUT_FOZ:
		compile_foz(p, data, len, o);
		break;
	default:
		diag_error(&program_add_unit(p, stage)->diag, p->name, 0, 0,
			   "no front end for %s input", input_kind_name(kind));
		break;
	}
	if (o->validate)
		validate_units(p);
	/* each unit's share of all of it: glslang's thread, the sources'
	 * preparation, spirv-val — what a compiler fed SPIR-V does not do */
	uint64_t each = p->units.len ? (now_us() - start) / p->units.len : 0;
	for (size_t i = 0; i < p->units.len; i++)
		p->units.data[i].time_us = each;
	for (size_t i = 0; i < p->units.len; i++)
		if (p->units.data[i].status != RESULT_OK)
			return -1;
	return 0;
}
