/*
 * One result as a JSON record, the line format of stats.jsonl and of
 * `shdb compile --stats` (stats/SCHEMA.md):
 *
 *   {"path": …, "stage": …, "target": …, "status": …, "message": …,
 *    "stats": {…}, "time_us": …}
 */
#ifndef SHDB_CLI_RECORD_H
#define SHDB_CLI_RECORD_H

#include <stdbool.h>

#include "compiler/compile.h"
#include "compiler/util/strbuf.h"

/* Append the record (one line, no newline) to `out`. */
void record_append_json(struct strbuf *out, const char *path, const struct compile_result *r,
			bool with_time);

/* Append Mesa's shader-db line for an ir3 result: "PATH - FRAG shader: 12 inst, …". */
void record_append_shaderdb(struct strbuf *out, const char *path, const struct compile_result *r);

#endif
