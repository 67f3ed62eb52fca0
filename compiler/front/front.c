/*
 * front_compile(): pick the front end by the kind of input and build the
 * program's units (front.h).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/front/front_internal.h"
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
	if (source_prepare(p->name, data, len, 1, stage, hlsl, o, &src.prepared, &u->diag) == 0)
		glslang_compile(p, &src, 1, o);
	prepared_source_release(&src.prepared);
}

static void add_arb_error(struct program *p, struct spirv_unit *u,
			  const struct shader_test_section *s)
{
	diag_error(&u->diag, p->name, s->line - 1, 1,
		   "unsupported: ARB assembly programs ([%s program]) are not compiled by shdb",
		   s->stage == STAGE_VERTEX ? "vertex" : "fragment");
}

/* One unit per stage present, in pipeline order; u_of[stage] its index. */
static void add_stage_units(struct program *p, const struct shader_test *st, size_t *u_of)
{
	for (int s = 0; s < STAGE_COUNT; s++) {
		u_of[s] = SIZE_MAX;
		for (size_t i = 0; i < st->sections.len && u_of[s] == SIZE_MAX; i++) {
			if (st->sections.data[i].stage != s)
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
	add_stage_units(p, &st, u_of);
	if (d.text.len)		/* warnings about skipped sections: the first stage's */
		strbuf_add(&p->units.data[0].diag.text, d.text.buf, d.text.len);
	bool *failed = xcalloc(p->units.len, sizeof(bool));
	for (size_t i = 0; i < st.sections.len; i++) {
		const struct shader_test_section *s = &st.sections.data[i];
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
		if (source_prepare(p->name, s->text, s->len, s->line, s->stage, false, o,
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
	if (kind == INPUT_SPIRV ? len == 0 : blank(data, len)) {
		struct spirv_unit *u = program_add_unit(p, stage);
		diag_error(&u->diag, p->name, 0, 0, "empty file");
		return -1;
	}
	switch (kind) {
	case INPUT_GLSL:
		compile_text(p, data, len, source_looks_like_hlsl(data, len), stage, o);
		break;
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
	default:
		diag_error(&program_add_unit(p, stage)->diag, p->name, 0, 0,
			   "no front end for %s input", input_kind_name(kind));
		break;
	}
	if (o->validate)
		validate_units(p);
	for (size_t i = 0; i < p->units.len; i++)
		if (p->units.data[i].status != RESULT_OK)
			return -1;
	return 0;
}
