/*
 * lower_etna_sysvals: the draw parameters etnaviv has none of.  Mesa's
 * etnaviv draws never start at an instance other than 0 (the driver has
 * no start-instance support), so the base instance in a Vulkan-style
 * InstanceIndex (instance id + base instance) is 0 and folds away: Mesa's
 * figures (../../shared/reference/mesa-etnaviv-dev.tsv) show
 * gl_VertexIndex + gl_InstanceIndex as one add and a conversion, no
 * uniform read.
 *
 *	%b = @load_base_instance	→	%b = load_const 0
 */
#include "compiler/etna/etna_nir.h"
#include "compiler/ir/builder.h"

static struct ssa_def *lower(struct builder *b, struct intrinsic_instr *intr, void *data)
{
	(void)data;
	if (intr->op != INTR_load_base_instance)
		return NULL;
	return b_imm_int(b, 0);
}

bool lower_etna_sysvals(struct shader *s, const struct etna_lowering *t)
{
	(void)t;
	return shader_progress(s, b_lower_intrinsics(s, lower, NULL), META_BLOCK_INDEX | META_DOMINANCE);
}
