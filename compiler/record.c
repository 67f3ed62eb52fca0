/*
 * Writing results: the JSON record and Mesa's shader-db line, every name from
 * the statistics table (stats/stats.def).
 */
#include "compiler/record.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "stats/json_text.h"

void record_append_json(struct strbuf *out, const char *path, const struct compile_result *r,
			bool with_time)
{
	json_t *o = json_object();
	json_t *stats = json_object();

	json_object_set_new(o, "path", json_text(path));
	json_object_set_new(o, "stage", json_string(stage_name(r->stage)));
	json_object_set_new(o, "target", r->target ? json_string(r->target->name) : json_null());
	json_object_set_new(o, "status", json_string(result_status_name(r->status)));
	json_object_set_new(o, "message", json_text(r->message ? r->message : ""));
	for (size_t i = 0; i < r->stats.len; i++)
		json_object_set_new(stats, r->stats.data[i].key,
				    json_integer((json_int_t)r->stats.data[i].value));
	json_object_set_new(o, "stats", stats);
	if (with_time)
		json_object_set_new(o, "time_us", json_integer((json_int_t)r->time_us));
	if (r->exec == EXEC_AGREE || r->exec == EXEC_DIFFER || r->exec == EXEC_AGREE_LOWERED)
		json_object_set_new(o, "exec", json_string(r->exec == EXEC_AGREE ? "agree" :
							    r->exec == EXEC_DIFFER ? "differ" :
							    "agree-lowered"));
	else if (r->exec == EXEC_CANNOT_RUN)
		json_object_set_new(o, "exec", json_pack("s+", "cannot run: ", r->exec_note));

	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	strbuf_addstr(out, s);
	free(s);
	json_decref(o);
}

void record_append_mesa_stats(struct strbuf *out, const struct compile_result *r)
{
	for (size_t i = 0; i < r->stats.len; i++) {
		const char *key = r->stats.data[i].key;
		const struct stat_info *info = stat_lookup(key, strlen(key));
		strbuf_addf(out, "%s%" PRId64 " %s", i ? ", " : "", r->stats.data[i].value,
			    info ? info->mesa : key);
	}
}

void record_append_shaderdb(struct strbuf *out, const char *path, const struct compile_result *r)
{
	strbuf_addf(out, "%s - %s shader: ", path, stage_mesa_name(r->stage));
	record_append_mesa_stats(out, r);
}
