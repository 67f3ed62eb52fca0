/*
 * The modelled GPUs.  A target is a row of data (../shared/STYLE.md, practice
 * 5): a name, a family, and the family's parameter block, which only that
 * family's backend reads.  compiler/targets.def lists them; each family's
 * rows are in its folder (compiler/ir3/ir3_targets.c,
 * compiler/etna/etna_targets.c); `shdb targets` prints
 * them.  This header knows no backend: the parameter blocks are opaque here.
 */
#ifndef SHDB_TARGET_H
#define SHDB_TARGET_H

#include <stddef.h>

struct ir3_info;
struct etna_info;

enum target_family {
	TARGET_FAMILY_IR3,		/* Adreno, ir3 model */
	TARGET_FAMILY_ETNA,		/* Vivante, etnaviv model */
};

struct target {
	const char *name;		/* "a630": what -t takes */
	const char *description;	/* "Adreno 630 (a6xx gen1)" */
	enum target_family family;
	/* the family's parameter block: the one of `family` is set, the others NULL */
	const struct ir3_info *ir3;	/* compiler/ir3/ir3_info.h */
	const struct etna_info *etna;	/* compiler/etna/etna_info.h */
};

extern const struct target *const targets[];
extern const size_t num_targets;

/* The target called `name`, or NULL. */
const struct target *target_find(const char *name);
const char *target_family_name(enum target_family f);

#endif
