/*
 * The registry of passes by name, expanded from passes.def.
 */
#include <string.h>

#include "compiler/opt/opt.h"

const struct pass_info pass_registry[] = {
#define PASS_ENTRY(fn, summary, ...) { #fn, fn, summary, { 0, ##__VA_ARGS__ } },
#include "compiler/opt/passes.def"
#undef PASS_ENTRY
};

const unsigned num_registered_passes = sizeof(pass_registry) / sizeof(*pass_registry);

const struct pass_info *pass_find(const char *name, size_t len)
{
	for (unsigned i = 0; i < num_registered_passes; i++)
		if (strlen(pass_registry[i].name) == len && !memcmp(pass_registry[i].name, name, len))
			return &pass_registry[i];
	return NULL;
}
