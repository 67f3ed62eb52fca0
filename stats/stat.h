/*
 * The statistics table: one row per statistic shdb knows (stats/stats.def),
 * used by every reader, printer and report.  A reader turns whatever name a
 * source uses ("non-nops", "Instruction Count", "inst") into the row's key with
 * stat_lookup(); a name the table does not know stays as it is and gets a
 * generic row from stat_info_generic(): lower is better, family generic.
 *
 * This header and the table are the bottom of the house beside compiler/util:
 * they include nothing of shdb, and both the compiler (a backend fills a
 * struct stat_values by ID) and the tools (readers, printers) use them.
 */
#ifndef SHDB_STATS_STAT_H
#define SHDB_STATS_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum stat_family {
	STAT_FAMILY_GENERIC,
	STAT_FAMILY_IR3,
	STAT_FAMILY_ETNAVIV,
};

/* flags */
#define STAT_NO_CI 1u	/* no confidence interval on its mean change (as report.py) */

struct stat_info {
	const char *key;	/* JSON key: "non_nops" */
	const char *mesa;	/* Mesa shader-db line name: "non-nops" */
	const char *display;	/* human title: "Non-NOPs" */
	const char *unit;	/* "instrs", "vec4", "cycles", … or "" */
	bool higher_better;	/* waves, threads: more is better */
	enum stat_family family;
	unsigned flags;
	const char *aliases;	/* "|"-separated other spellings, or "" */
};

enum stat_id {
#define STAT(id, ...) STAT_##id,
#include "stats/stats.def"
#undef STAT
	STAT_COUNT
};

extern const struct stat_info stat_table[STAT_COUNT];

/*
 * The statistics a backend reports for one result, by ID:
 *
 *	struct stat_values v = { 0 };
 *	stat_set(&v, STAT_INST, n);
 *
 * Only the IDs set are reported; compile.c turns them into the result's
 * key/value list in the table's order.
 */
struct stat_values {
	int64_t value[STAT_COUNT];
	bool set[STAT_COUNT];
};

static inline void stat_set(struct stat_values *v, enum stat_id id, int64_t value)
{
	v->value[id] = value;
	v->set[id] = true;
}

/* The row whose key, Mesa name or one alias is exactly `name`; NULL if none. */
const struct stat_info *stat_lookup(const char *name, size_t len);

/* Fill `out` as the row of a statistic the table does not know: every name is
 * `name` (not copied: it must outlive `out`), lower is better, generic. */
void stat_info_generic(struct stat_info *out, const char *name);

const char *stat_family_name(enum stat_family f);

#endif
