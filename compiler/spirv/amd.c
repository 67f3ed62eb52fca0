/*
 * The AMD extended instruction sets glslang emits for GL_AMD_* extensions:
 * SPV_AMD_shader_trinary_minmax (min3, max3, mid3), SPV_AMD_gcn_shader
 * (cube face index and coordinates, the clock) and SPV_AMD_shader_ballot
 * (swizzles, writeInvocation, mbcnt), in IR arithmetic and subgroup
 * operations.  Instruction numbers come from SPIRV-Headers' AMD_*.h.
 *
 *	mid3(a, b, c) = max(min(a, b), min(max(a, b), c))
 */
#include <spirv/unified1/AMD_gcn_shader.h>
#include <spirv/unified1/AMD_shader_ballot.h>
#include <spirv/unified1/AMD_shader_trinary_minmax.h>

#include "compiler/spirv/spirv_private.h"

static struct ssa_def *operand(struct spv *r, unsigned i)
{
	return spv_get_def(r, spv_word(r, 5 + i));
}

static struct ssa_def *trinary(struct spv *r, uint32_t inst)
{
	struct builder *b = &r->b;
	struct ssa_def *x = operand(r, 0), *y = operand(r, 1), *z = operand(r, 2);
	enum alu_op mn, mx;
	switch ((inst - 1) % 3) {
	case 0: mn = OP_fmin; mx = OP_fmax; break;
	case 1: mn = OP_umin; mx = OP_umax; break;
	default: mn = OP_imin; mx = OP_imax; break;
	}
	if (inst <= AMD_shader_trinary_minmaxSMin3AMD)
		return b_alu(b, mn, b_alu(b, mn, x, y, NULL, NULL), z, NULL, NULL);
	if (inst <= AMD_shader_trinary_minmaxSMax3AMD)
		return b_alu(b, mx, b_alu(b, mx, x, y, NULL, NULL), z, NULL, NULL);
	struct ssa_def *lo = b_alu(b, mn, x, y, NULL, NULL), *hi = b_alu(b, mx, x, y, NULL, NULL);
	return b_alu(b, mx, lo, b_alu(b, mn, hi, z, NULL, NULL), NULL, NULL);
}

/* The major axis of a cube coordinate: 0 x, 1 y, 2 z (ties to z, then y). */
static void major_axis(struct spv *r, struct ssa_def *p, struct ssa_def **is_z, struct ssa_def **is_y)
{
	struct builder *b = &r->b;
	struct ssa_def *ax = b_fabs(b, b_channel(b, p, 0)), *ay = b_fabs(b, b_channel(b, p, 1));
	struct ssa_def *az = b_fabs(b, b_channel(b, p, 2));
	*is_z = b_iand(b, b_fge(b, az, ax), b_fge(b, az, ay));
	*is_y = b_fge(b, ay, ax);
}

static struct ssa_def *cube_face_index(struct spv *r, struct ssa_def *p)
{
	struct builder *b = &r->b;
	struct ssa_def *is_z, *is_y, *zero = b_imm_float(b, 0);
	major_axis(r, p, &is_z, &is_y);
	struct ssa_def *fx = b_bcsel(b, b_flt(b, b_channel(b, p, 0), zero), b_imm_float(b, 1), zero);
	struct ssa_def *fy = b_bcsel(b, b_flt(b, b_channel(b, p, 1), zero), b_imm_float(b, 3),
				     b_imm_float(b, 2));
	struct ssa_def *fz = b_bcsel(b, b_flt(b, b_channel(b, p, 2), zero), b_imm_float(b, 5),
				     b_imm_float(b, 4));
	return b_bcsel(b, is_z, fz, b_bcsel(b, is_y, fy, fx));
}

/* (sc / |ma| + 1) / 2 and (tc / |ma| + 1) / 2, sc and tc by the GL table. */
static struct ssa_def *cube_face_coord(struct spv *r, struct ssa_def *p)
{
	struct builder *b = &r->b;
	struct ssa_def *is_z, *is_y, *zero = b_imm_float(b, 0);
	struct ssa_def *x = b_channel(b, p, 0), *y = b_channel(b, p, 1), *z = b_channel(b, p, 2);
	major_axis(r, p, &is_z, &is_y);
	struct ssa_def *nx = b_flt(b, x, zero), *ny = b_flt(b, y, zero), *nz = b_flt(b, z, zero);
	/* x major: sc = ∓z, tc = -y; y major: sc = x, tc = ±z; z major: sc = ±x, tc = -y */
	struct ssa_def *sc = b_bcsel(b, is_z, b_bcsel(b, nz, b_fneg(b, x), x),
				     b_bcsel(b, is_y, x, b_bcsel(b, nx, z, b_fneg(b, z))));
	struct ssa_def *tc = b_bcsel(b, is_y, b_bcsel(b, ny, b_fneg(b, z), z), b_fneg(b, y));
	tc = b_bcsel(b, is_z, b_fneg(b, y), tc);
	struct ssa_def *ma = b_bcsel(b, is_z, b_fabs(b, z), b_bcsel(b, is_y, b_fabs(b, y), b_fabs(b, x)));
	struct ssa_def *half = b_imm_float(b, 0.5), *inv = b_frcp(b, ma);
	return b_vec2(b, b_ffma(b, b_fmul(b, sc, inv), half, half),
		      b_ffma(b, b_fmul(b, tc, inv), half, half));
}

static struct ssa_def *shuffle(struct spv *r, struct ssa_def *v, struct ssa_def *idx)
{
	struct ssa_def *srcs[2] = { v, idx };
	return &b_intrinsic(&r->b, INTR_shuffle, v->num_components, v->bit_size, srcs, NULL)->def;
}

static struct ssa_def *ballot(struct spv *r, uint32_t inst)
{
	struct builder *b = &r->b;
	struct ssa_def *inv = b_sysval(b, INTR_load_subgroup_invocation);
	switch (inst) {
	case AMD_shader_ballotSwizzleInvocationsAMD: {
		struct ssa_def *off = operand(r, 1), *q = b_iand(b, inv, spv_imm_u32(r, 3));
		struct ssa_def *pick = b_channel(b, off, 0);
		for (unsigned k = 1; k < 4; k++)
			pick = b_bcsel(b, b_ieq(b, q, spv_imm_u32(r, k)), b_channel(b, off, k), pick);
		struct ssa_def *idx = b_ior(b, b_iand(b, inv, spv_imm_u32(r, ~3u)), pick);
		return shuffle(r, operand(r, 0), idx);
	}
	case AMD_shader_ballotSwizzleInvocationsMaskedAMD: {
		struct ssa_def *m = operand(r, 1), *lane = b_iand(b, inv, spv_imm_u32(r, 31));
		lane = b_ixor(b, b_ior(b, b_iand(b, lane, b_channel(b, m, 0)), b_channel(b, m, 1)),
			      b_channel(b, m, 2));
		struct ssa_def *idx = b_ior(b, b_iand(b, inv, spv_imm_u32(r, ~31u)),
					    b_iand(b, lane, spv_imm_u32(r, 31)));
		return shuffle(r, operand(r, 0), idx);
	}
	case AMD_shader_ballotWriteInvocationAMD:
		return b_bcsel(b, b_ieq(b, inv, spv_get_index32(r, spv_word(r, 7))), operand(r, 1),
			       operand(r, 0));
	case AMD_shader_ballotMbcntAMD: {
		struct ssa_def *mask = operand(r, 0), *lt = b_sysval(b, INTR_load_subgroup_lt_mask);
		if (mask->bit_size != 64)
			spv_fail(r, "MbcntAMD of a %u-bit mask", mask->bit_size);
		struct ssa_def *lo = b_iand(b, b_unpack_64_2x32_split_x(b, mask), b_channel(b, lt, 0));
		struct ssa_def *hi = b_iand(b, b_unpack_64_2x32_split_y(b, mask), b_channel(b, lt, 1));
		return b_iadd(b, b_bit_count(b, lo), b_bit_count(b, hi));
	}
	}
	return NULL;
}

void spv_amd(struct spv *r, unsigned set, uint32_t inst)
{
	struct ssa_def *res = NULL;
	spv_budget(r, 1);
	switch (set) {
	case EXTSET_AMD_MINMAX:
		if (inst >= AMD_shader_trinary_minmaxFMin3AMD && inst <= AMD_shader_trinary_minmaxSMid3AMD)
			res = trinary(r, inst);
		break;
	case EXTSET_AMD_GCN:
		if (inst == AMD_gcn_shaderCubeFaceIndexAMD)
			res = cube_face_index(r, operand(r, 0));
		else if (inst == AMD_gcn_shaderCubeFaceCoordAMD)
			res = cube_face_coord(r, operand(r, 0));
		else if (inst == AMD_gcn_shaderTimeAMD)
			res = b_pack_64_2x32(&r->b, b_intr(&r->b, shader_clock, 0, 0, (NULL),
							   .memory_scope = SCOPE_subgroup));
		break;
	case EXTSET_AMD_BALLOT:
		res = ballot(r, inst);
		break;
	}
	if (!res)
		spv_unsupported(r, "instruction %u of an AMD instruction set", inst);
	spv_set_def(r, spv_result_id(r), res);
}
