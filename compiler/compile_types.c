/*
 * The options and results of a compile (compile_types.h): their set-up,
 * release and names.
 */
#include "compiler/compile_types.h"

#include <stdlib.h>
#include <string.h>

void compile_options_init(struct compile_options *o)
{
	memset(o, 0, sizeof(*o));
	o->stage = STAGE_NONE;
}

void compile_options_release(struct compile_options *o)
{
	array_free(&o->defines);
	array_free(&o->include_dirs);
	array_free(&o->specs);
	array_free(&o->stages);
	array_free(&o->entries);
}

int compile_options_set_stages(struct compile_options *o, const char *list, struct strbuf *err)
{
	char name[32];
	o->stages.len = 0;
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= sizeof(name)) {
			strbuf_addf(err, "unknown stage '%.*s'", (int)(n < 64 ? n : 64), p);
			return -1;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		enum shader_stage s = stage_from_name(name);
		if (s == STAGE_NONE) {
			strbuf_addf(err, "unknown stage '%s'", name);
			return -1;
		}
		array_push(&o->stages, s);
		p += n + (p[n] == ',');
	}
	if (!o->stages.len) {
		strbuf_addstr(err, "no stage given");
		return -1;
	}
	o->stage = o->stages.len == 1 ? o->stages.data[0] : STAGE_NONE;
	return 0;
}

const char *result_status_name(enum result_status s)
{
	switch (s) {
	case RESULT_OK: return "ok";
	case RESULT_ERROR: return "error";
	case RESULT_CRASH: return "crash";
	case RESULT_TIMEOUT: return "timeout";
	case RESULT_SKIPPED: return "skipped";
	}
	return "?";
}

const char *mesa_rules_name(enum mesa_rules m)
{
	return m == MESA_RULES_24_3 ? "24.3" : "main";
}

int mesa_rules_parse(const char *name, enum mesa_rules *m, struct strbuf *err)
{
	if (!strcmp(name, "main")) {
		*m = MESA_RULES_MAIN;
	} else if (!strcmp(name, "24.3")) {
		*m = MESA_RULES_24_3;
	} else {
		strbuf_addf(err, "--mesa takes main or 24.3, not '%s'", name);
		return -1;
	}
	return 0;
}

void compile_output_init(struct compile_output *out)
{
	memset(out, 0, sizeof(*out));
	diag_init(&out->diag);
}

void compile_output_release(struct compile_output *out)
{
	for (size_t i = 0; i < out->results.len; i++) {
		struct compile_result *r = &out->results.data[i];
		free(r->program);
		free(r->message);
		free(r->spirv);
		free(r->ir);
		free(r->disasm);
		free(r->exec_note);
		free(r->exec_text);
		array_free(&r->stats);
	}
	array_free(&out->results);
	array_free(&out->times);
	diag_release(&out->diag);
}

static void add_stat(struct compile_result *r, const struct stat_values *v, int id)
{
	array_push(&r->stats, (struct stat_value){ .key = stat_table[id].key, .value = v->value[id] });
}

void result_add_stats_ordered(struct compile_result *r, const struct stat_values *v,
			      const enum stat_id *first, size_t n)
{
	bool done[STAT_COUNT] = { false };
	for (size_t i = 0; i < n; i++)
		if (v->set[first[i]] && !done[first[i]]) {
			done[first[i]] = true;
			add_stat(r, v, first[i]);
		}
	for (int id = 0; id < STAT_COUNT; id++)
		if (v->set[id] && !done[id])
			add_stat(r, v, id);
}

void result_add_stats(struct compile_result *r, const struct stat_values *v)
{
	result_add_stats_ordered(r, v, NULL, 0);
}

void result_fail(struct compile_output *out, const char *name, struct compile_result *r,
		 enum result_status status, const char *msg)
{
	diag_error(&out->diag, name, 0, 0, "%s: %s", r->target->name, msg);
	r->status = status;
	r->message = xstrdup(msg);
}

void result_add_ir(struct compile_result *r, const char *what, const char *text)
{
	struct strbuf all = STRBUF_INIT;
	strbuf_addf(&all, "%s# ---- %s %s ----\n%s", r->ir ? r->ir : "", r->target->name, what,
		    text);
	free(r->ir);
	r->ir = strbuf_detach(&all, NULL);
}
