/*
 * Record statuses by name.
 */
#include "stats/record.h"

static const char *const status_names[STATUS_COUNT] = {
	[STATUS_OK] = "ok",
	[STATUS_ERROR] = "error",
	[STATUS_CRASH] = "crash",
	[STATUS_TIMEOUT] = "timeout",
	[STATUS_SKIPPED] = "skipped",
};

const char *status_name(enum record_status s)
{
	return s < STATUS_COUNT ? status_names[s] : "?";
}

bool status_parse(const char *s, size_t len, enum record_status *out)
{
	for (int i = 0; i < STATUS_COUNT; i++) {
		if (strlen(status_names[i]) == len && !memcmp(status_names[i], s, len)) {
			*out = (enum record_status)i;
			return true;
		}
	}
	return false;
}
