/*
 * lower_ir3_sysvals: the compute system values ir3 builds from the ones the
 * hardware gives (Mesa's nir_lower_compute_system_values with ir3's
 * options: lower_cs_local_index_to_id, a known workgroup size):
 *
 *	load_global_invocation_id  → workgroup_id * size + local_invocation_id
 *	load_local_invocation_index → id.x + id.y * sx + id.z * sx * sy
 *	load_workgroup_size         → the constant size (unless variable)
 *	load_local_invocation_id    → 0 in each dimension the size is 1 of
 *	                              (nir_lower_compute_system_values)
 *
 * A multiplication by a power of two is a shift, as nir_opt_algebraic
 * would make it.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

static struct ssa_def *mul_const(struct builder *b, struct ssa_def *x, unsigned k)
{
	if (k == 1)
		return x;
	if (!(k & (k - 1)))
		return b_ishl(b, x, b_imm_int(b, __builtin_ctz(k)));
	return b_imul(b, x, b_imm_int(b, k));
}

/* Whether a user of the local invocation id `def` reads one of the
 * components in `zero` (those a size of 1 makes 0). */
static bool reads_any(struct ssa_def *def, unsigned zero)
{
	foreach_use(u, def) {
		if (u->parent_if || u->parent_instr->type != INSTR_alu)
			return true;
		struct alu_instr *alu = instr_as_alu(u->parent_instr);
		struct alu_src *as = container_of(u, struct alu_src, src);
		for (unsigned k = 0; k < alu_src_components(alu, (unsigned)(as - alu->src)); k++)
			if (zero & (1u << as->swizzle[k]))
				return true;
	}
	return false;
}

/* The local invocation id with its components of a dimension of size 1
 * zero (a new load for the others). */
static struct ssa_def *local_id(struct builder *b, const unsigned *size)
{
	struct ssa_def *id = b_sysval(b, INTR_load_local_invocation_id), *c[3];
	if (size[0] > 1 && size[1] > 1 && size[2] > 1)
		return id;
	for (unsigned k = 0; k < 3; k++)
		c[k] = size[k] > 1 ? b_channel(b, id, k) : b_imm_int(b, 0);
	return b_vec3(b, c[0], c[1], c[2]);
}

static struct ssa_def *lower(struct builder *b, struct intrinsic_instr *intr, void *data)
{
	const struct shader *s = data;
	const uint16_t *sz = s->info.workgroup_size;
	unsigned size[3] = { sz[0] ? sz[0] : 1, sz[1] ? sz[1] : 1, sz[2] ? sz[2] : 1 };
	switch (intr->op) {
	case INTR_load_workgroup_size:
		if (s->info.workgroup_size_variable)
			return NULL;
		return b_vec3(b, b_imm_int(b, size[0]), b_imm_int(b, size[1]), b_imm_int(b, size[2]));
	case INTR_load_local_invocation_id: {
		unsigned zero = (size[0] == 1) | (size[1] == 1) << 1 | (size[2] == 1) << 2;
		if (s->info.workgroup_size_variable || !zero || !reads_any(&intr->def, zero))
			return NULL;
		return local_id(b, size);
	}
	case INTR_load_global_invocation_id: {
		if (s->info.workgroup_size_variable)
			return NULL;
		struct ssa_def *wg = b_sysval(b, INTR_load_workgroup_id);
		struct ssa_def *id = local_id(b, size);
		struct ssa_def *c[3];
		for (unsigned k = 0; k < 3; k++)
			c[k] = b_iadd(b, mul_const(b, b_channel(b, wg, k), size[k]), b_channel(b, id, k));
		return b_vec3(b, c[0], c[1], c[2]);
	}
	case INTR_load_local_invocation_index: {
		if (s->info.workgroup_size_variable)
			return NULL;
		struct ssa_def *id = local_id(b, size);
		struct ssa_def *r = b_channel(b, id, 0);
		if (size[1] > 1)
			r = b_iadd(b, r, mul_const(b, b_channel(b, id, 1), size[0]));
		if (size[2] > 1)
			r = b_iadd(b, r, mul_const(b, b_channel(b, id, 2), size[0] * size[1]));
		return r;
	}
	default:
		return NULL;
	}
}

bool lower_ir3_sysvals(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	return shader_progress(s, b_lower_intrinsics(s, lower, s), META_BLOCK_INDEX | META_DOMINANCE);
}
