#include "compiler/cli/record.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

void record_append_json(struct strbuf *out, const char *path, const struct compile_result *r,
			bool with_time)
{
	json_t *o = json_object();
	json_t *stats = json_object();

	json_object_set_new(o, "path", json_string(path));
	json_object_set_new(o, "stage", json_string(stage_name(r->stage)));
	json_object_set_new(o, "target", r->target ? json_string(r->target->name) : json_null());
	json_object_set_new(o, "status", json_string(result_status_name(r->status)));
	json_object_set_new(o, "message", json_string(r->message ? r->message : ""));
	for (size_t i = 0; i < r->stats.len; i++)
		json_object_set_new(stats, r->stats.data[i].key,
				    json_integer((json_int_t)r->stats.data[i].value));
	json_object_set_new(o, "stats", stats);
	if (with_time)
		json_object_set_new(o, "time_us", json_integer((json_int_t)r->time_us));

	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	strbuf_addstr(out, s);
	free(s);
	json_decref(o);
}

/* Mesa's names for our JSON keys, in the order of ir3_gallium.c's line. */
static const struct {
	const char *key, *mesa;
} ir3_line[] = {
	{ "inst", "inst" }, { "nops", "nops" }, { "non_nops", "non-nops" }, { "mov", "mov" },
	{ "cov", "cov" }, { "dwords", "dwords" }, { "last_baryf", "last-baryf" },
	{ "last_helper", "last-helper" }, { "half", "half" }, { "full", "full" },
	{ "constlen", "constlen" }, { "cat0", "cat0" }, { "cat1", "cat1" }, { "cat2", "cat2" },
	{ "cat3", "cat3" }, { "cat4", "cat4" }, { "cat5", "cat5" }, { "cat6", "cat6" },
	{ "cat7", "cat7" }, { "stp", "stp" }, { "ldp", "ldp" }, { "sstall", "sstall" },
	{ "ss", "(ss)" }, { "systall", "systall" }, { "sy", "(sy)" }, { "waves", "waves" },
	{ "loops", "loops" },
};

void record_append_shaderdb(struct strbuf *out, const char *path, const struct compile_result *r)
{
	const char *sep = "";
	strbuf_addf(out, "%s - %s shader: ", path, stage_mesa_name(r->stage));
	for (size_t i = 0; i < sizeof(ir3_line) / sizeof(ir3_line[0]); i++) {
		for (size_t j = 0; j < r->stats.len; j++) {
			if (strcmp(r->stats.data[j].key, ir3_line[i].key))
				continue;
			strbuf_addf(out, "%s%" PRId64 " %s", sep, r->stats.data[j].value,
				    ir3_line[i].mesa);
			sep = ", ";
			break;
		}
	}
}
