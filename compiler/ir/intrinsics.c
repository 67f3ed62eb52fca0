/*
 * The intrinsic table, expanded from intrinsics.def, and the const-index
 * names and kinds of ir.h.
 */
#include <string.h>

#include "compiler/ir/ir.h"

const struct intr_index_info intr_index_infos[INTR_IDX_COUNT] = {
#define X(n, kind) [INTR_IDX_##n] = { #n, INDEX_KIND_##kind },
	INTR_INDICES(X)
#undef X
};

#define INTRINSIC(n, nsrc, sc, sb, dc, db, idx, st, fl) \
	[INTR_##n] = { \
		.name = #n, \
		.num_srcs = (nsrc), \
		.src_components = { UNPAREN sc }, \
		.src_bit_sizes = { UNPAREN sb }, \
		.dest_components = (dc), \
		.dest_bit_sizes = (db), \
		.indices = { UNPAREN idx }, \
		.stages = (st), \
		.flags = (fl), \
	},

const struct intrinsic_info intrinsic_infos[INTR_COUNT] = {
#include "compiler/ir/intrinsics.def"
};

int intrinsic_lookup(const char *name, size_t len)
{
	for (int op = 0; op < INTR_COUNT; op++)
		if (strlen(intrinsic_infos[op].name) == len &&
		    !memcmp(intrinsic_infos[op].name, name, len))
			return op;
	return -1;
}

unsigned intrinsic_num_indices(enum intrinsic op)
{
	unsigned n = 0;
	while (n < INTR_MAX_INDICES && intrinsic_infos[op].indices[n] != INTR_IDX_none)
		n++;
	return n;
}

int intrinsic_index_slot(enum intrinsic op, enum intr_index idx)
{
	for (unsigned i = 0; i < INTR_MAX_INDICES && intrinsic_infos[op].indices[i]; i++)
		if (intrinsic_infos[op].indices[i] == idx)
			return (int)i;
	return -1;
}

unsigned intr_stage_bit(enum shader_stage stage)
{
	switch (stage) {
	case STAGE_VERTEX: return INTR_STAGE_VS;
	case STAGE_TESS_CTRL: return INTR_STAGE_TCS;
	case STAGE_TESS_EVAL: return INTR_STAGE_TES;
	case STAGE_GEOMETRY: return INTR_STAGE_GS;
	case STAGE_FRAGMENT: return INTR_STAGE_FS;
	case STAGE_COMPUTE: case STAGE_TASK: case STAGE_MESH: return INTR_STAGE_CS;
	default: return 0;
	}
}

bool intrinsic_has_variable_size(enum intrinsic op)
{
	const struct intrinsic_info *info = &intrinsic_infos[op];
	if (info->dest_components == 0)
		return true;
	for (unsigned i = 0; i < info->num_srcs; i++)
		if (info->src_components[i] == 0)
			return true;
	return false;
}
