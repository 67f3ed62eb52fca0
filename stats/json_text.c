/*
 * JSON strings of any bytes; see json_text.h.
 */
#include "stats/json_text.h"

#include "compiler/util/error.h"
#include "compiler/util/utf8.h"

json_t *json_text(const char *s)
{
	struct strbuf tmp = STRBUF_INIT;
	json_t *j = json_string(utf8_or_escape(s, &tmp));
	strbuf_release(&tmp);
	if (!j)
		BUG("json_string refused an escaped string");
	return j;
}

void json_set_text_key(json_t *obj, const char *key, json_t *value)
{
	struct strbuf tmp = STRBUF_INIT;
	if (json_object_set_new(obj, utf8_or_escape(key, &tmp), value) < 0)
		BUG("json_object_set_new refused an escaped key");
	strbuf_release(&tmp);
}
