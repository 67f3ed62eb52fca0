/*
 * The modelled GPUs.  A target is a row of data (../shared/STYLE.md, practice
 * 5): a family, a name, and the family's parameter block.  The table lives in
 * target.c; `shdb targets` prints it.
 */
#ifndef SHDB_TARGET_H
#define SHDB_TARGET_H

#include <stddef.h>

#include "compiler/ir3/ir3_info.h"

enum target_family {
	TARGET_FAMILY_IR3,		/* Adreno, ir3 model */
};

struct target {
	const char *name;		/* "a630": what -t takes */
	const char *description;	/* "Adreno 630 (a6xx gen1)" */
	enum target_family family;
	const struct ir3_info *ir3;	/* when family == TARGET_FAMILY_IR3 */
};

extern const struct target *const targets[];
extern const size_t num_targets;

/* The target called `name`, or NULL. */
const struct target *target_find(const char *name);
const char *target_family_name(enum target_family f);

#endif
