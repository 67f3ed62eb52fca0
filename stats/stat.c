/*
 * The statistics table, built from stats/stats.def, and name lookup.
 */
#include "stats/stat.h"

#include <string.h>

#define LOWER false
#define HIGHER true
#define STAT(id, key_, mesa_, display_, unit_, better_, family_, flags_, aliases_) \
	[STAT_##id] = { .key = key_, .mesa = mesa_, .display = display_, .unit = unit_, \
			.higher_better = better_, .family = STAT_FAMILY_##family_, \
			.flags = flags_, .aliases = aliases_ },
const struct stat_info stat_table[STAT_COUNT] = {
#include "stats/stats.def"
};
#undef STAT
#undef LOWER
#undef HIGHER

static bool same(const char *s, size_t slen, const char *name, size_t len)
{
	return slen == len && !memcmp(s, name, len);
}

/* Is `name` one of the "|"-separated words of `list`? */
static bool in_list(const char *list, const char *name, size_t len)
{
	while (*list) {
		size_t n = strcspn(list, "|");
		if (same(list, n, name, len))
			return true;
		list += n + (list[n] == '|');
	}
	return false;
}

const struct stat_info *stat_lookup(const char *name, size_t len)
{
	for (size_t i = 0; i < STAT_COUNT; i++) {
		const struct stat_info *s = &stat_table[i];
		if (same(s->key, strlen(s->key), name, len) ||
		    same(s->mesa, strlen(s->mesa), name, len) || in_list(s->aliases, name, len))
			return s;
	}
	return NULL;
}

void stat_info_generic(struct stat_info *out, const char *name)
{
	*out = (struct stat_info){
		.key = name, .mesa = name, .display = name, .unit = "",
		.higher_better = false, .family = STAT_FAMILY_GENERIC, .flags = 0, .aliases = "",
	};
}

const char *stat_family_name(enum stat_family f)
{
	switch (f) {
	case STAT_FAMILY_GENERIC:
		return "generic";
	case STAT_FAMILY_IR3:
		return "ir3";
	case STAT_FAMILY_ETNAVIV:
		return "etnaviv";
	}
	return "generic";
}
