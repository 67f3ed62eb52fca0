/*
 * One result as a JSON record, the line format of stats.jsonl and of
 * `shdb compile --stats` (stats/SCHEMA.md):
 *
 *   {"path": …, "stage": …, "target": …, "status": …, "message": …,
 *    "stats": {…}, "time_us": …}
 */
#ifndef SHDB_RECORD_H
#define SHDB_RECORD_H

#include <stdbool.h>

#include "compiler/compile_types.h"
#include "compiler/util/strbuf.h"

/* Append the record (one line, no newline) to `out`. */
void record_append_json(struct strbuf *out, const char *path, const struct compile_result *r,
			bool with_time);

/* Append the statistics as Mesa's shader-db line has them, in the result's
 * order under the table's Mesa names: "12 inst, 3 nops, 9 non-nops, …". */
void record_append_mesa_stats(struct strbuf *out, const struct compile_result *r);

/* Append Mesa's shader-db line for a result: "PATH - FRAG shader: 12 inst, …". */
void record_append_shaderdb(struct strbuf *out, const char *path, const struct compile_result *r);

#endif
