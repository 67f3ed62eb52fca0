/*
 * JSON strings of any bytes.  jansson takes only valid UTF-8 (json_string()
 * returns NULL for anything else, and a record would lose its "path"): every
 * string shdb did not write itself — a path, a message, a label, an argument
 * — goes to JSON through json_text(), which escapes the bytes that are not
 * UTF-8 as "\xNN" (compiler/util/utf8.h) and never fails.
 */
#ifndef SHDB_STATS_JSON_TEXT_H
#define SHDB_STATS_JSON_TEXT_H

#include <jansson.h>

json_t *json_text(const char *s);
/* json_object_set_new() under a key of any bytes, escaped likewise. */
void json_set_text_key(json_t *obj, const char *key, json_t *value);

#endif
