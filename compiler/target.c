/*
 * The target table: every line of compiler/targets.def, pointing at its
 * family's parameter row (compiler/ir3/ir3_targets.c for Adreno,
 * compiler/etna/etna_targets.c for Vivante).
 */
#include "compiler/target.h"

#include <string.h>

/* Each family's rows, by name; their type stays opaque here (target.h). */
#define IR3_TARGET(n, desc) extern const struct ir3_info ir3_##n;
#define ETNA_TARGET(n, desc) extern const struct etna_info etna_##n;
#include "compiler/targets.def"
#undef IR3_TARGET
#undef ETNA_TARGET

#define IR3_TARGET(n, desc) \
	&(const struct target){ .name = #n, .description = desc, \
				.family = TARGET_FAMILY_IR3, .ir3 = &ir3_##n },
#define ETNA_TARGET(n, desc) \
	&(const struct target){ .name = #n, .description = desc, \
				.family = TARGET_FAMILY_ETNA, .etna = &etna_##n },
const struct target *const targets[] = {
#include "compiler/targets.def"
};
#undef IR3_TARGET
#undef ETNA_TARGET

const size_t num_targets = sizeof(targets) / sizeof(targets[0]);

const struct target *target_find(const char *name)
{
	for (size_t i = 0; i < num_targets; i++)
		if (!strcmp(targets[i]->name, name))
			return targets[i];
	return NULL;
}

const char *target_family_name(enum target_family f)
{
	switch (f) {
	case TARGET_FAMILY_IR3:
		return "ir3";
	case TARGET_FAMILY_ETNA:
		return "etna";
	}
	return "?";
}
