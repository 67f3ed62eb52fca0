/*
 * The rest of the instructions with effects beyond their value: barriers,
 * derivatives, subgroup operations (GroupNonUniform and the older KHR
 * ballot forms), geometry output, fragment demotion and interlock, clocks.
 *
 *	OpControlBarrier %Workgroup %Workgroup AcquireRelease|WorkgroupMemory
 *	→ @barrier execution_scope=workgroup memory_scope=workgroup
 *	           memory_semantics=acquire|release memory_modes=shared
 */
#include "compiler/spirv/spirv_private.h"

enum scope spv_scope(struct spv *r, uint32_t id)
{
	uint32_t s;
	if (!spv_id_const_u32(r, id, &s))
		spv_unsupported(r, "a scope that is not a constant");
	switch (s) {
	case SpvScopeCrossDevice: case SpvScopeDevice: return SCOPE_device;
	case SpvScopeWorkgroup: return SCOPE_workgroup;
	case SpvScopeSubgroup: return SCOPE_subgroup;
	case SpvScopeInvocation: return SCOPE_invocation;
	case SpvScopeQueueFamily: return SCOPE_queue_family;
	default: return SCOPE_device;
	}
}

unsigned spv_semantics_modes(uint32_t sem)
{
	unsigned m = 0;
	if (sem & (SpvMemorySemanticsUniformMemoryMask | SpvMemorySemanticsAtomicCounterMemoryMask))
		m |= MODE_SSBO;
	if (sem & SpvMemorySemanticsWorkgroupMemoryMask)
		m |= MODE_SHARED;
	if (sem & SpvMemorySemanticsCrossWorkgroupMemoryMask)
		m |= MODE_GLOBAL;
	if (sem & SpvMemorySemanticsImageMemoryMask)
		m |= MODE_IMAGE;
	if (sem & SpvMemorySemanticsOutputMemoryMask)
		m |= MODE_OUTPUT;
	return m;
}

static unsigned semantics(uint32_t sem)
{
	unsigned s = 0;
	if (sem & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsAcquireReleaseMask |
		   SpvMemorySemanticsSequentiallyConsistentMask))
		s |= SEMANTICS_ACQUIRE;
	if (sem & (SpvMemorySemanticsReleaseMask | SpvMemorySemanticsAcquireReleaseMask |
		   SpvMemorySemanticsSequentiallyConsistentMask))
		s |= SEMANTICS_RELEASE;
	if (sem & SpvMemorySemanticsMakeAvailableMask)
		s |= SEMANTICS_MAKE_AVAILABLE;
	if (sem & SpvMemorySemanticsMakeVisibleMask)
		s |= SEMANTICS_MAKE_VISIBLE;
	return s;
}

static void barrier(struct spv *r, uint32_t exec_id, uint32_t mem_id, uint32_t sem_id)
{
	uint32_t sem;
	if (!spv_id_const_u32(r, sem_id, &sem))
		spv_unsupported(r, "memory semantics that are not a constant");
	enum scope exec = exec_id ? spv_scope(r, exec_id) : SCOPE_none;
	enum scope mem = spv_scope(r, mem_id);
	unsigned modes = spv_semantics_modes(sem), s = semantics(sem);
	if (!modes || !s) {
		mem = SCOPE_none;
		modes = 0;
		s = 0;
	}
	if (exec == SCOPE_none && !modes)
		return;		/* a memory barrier on nothing */
	spv_budget(r, 1);
	b_intr(&r->b, barrier, 0, 0, (NULL), .execution_scope = exec, .memory_scope = mem,
	       .memory_semantics = (int32_t)s, .memory_modes = (int32_t)modes);
}

/* ---- derivatives ---- */

static bool derivative(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	enum intrinsic x, y;
	switch (op) {
	case SpvOpDPdx: case SpvOpDPdy: case SpvOpFwidth:
		x = INTR_ddx; y = INTR_ddy; break;
	case SpvOpDPdxFine: case SpvOpDPdyFine: case SpvOpFwidthFine:
		x = INTR_ddx_fine; y = INTR_ddy_fine; break;
	case SpvOpDPdxCoarse: case SpvOpDPdyCoarse: case SpvOpFwidthCoarse:
		x = INTR_ddx_coarse; y = INTR_ddy_coarse; break;
	default:
		return false;
	}
	if (r->stage != STAGE_FRAGMENT && r->stage != STAGE_COMPUTE)
		spv_unsupported(r, "derivatives in a %s shader", stage_name(r->stage));
	struct ssa_def *v = spv_get_def(r, spv_word(r, 3)), *res;
	unsigned n = v->num_components;
	spv_budget(r, 1);
	bool is_x = op == SpvOpDPdx || op == SpvOpDPdxFine || op == SpvOpDPdxCoarse;
	bool is_y = op == SpvOpDPdy || op == SpvOpDPdyFine || op == SpvOpDPdyCoarse;
	if (is_x || is_y) {
		struct intrinsic_instr *i = b_intrinsic(b, is_x ? x : y, n, v->bit_size, &v, NULL);
		res = &i->def;
	} else {
		struct ssa_def *dx = &b_intrinsic(b, x, n, v->bit_size, &v, NULL)->def;
		struct ssa_def *dy = &b_intrinsic(b, y, n, v->bit_size, &v, NULL)->def;
		res = b_fadd(b, b_fabs(b, dx), b_fabs(b, dy));
	}
	spv_set_def(r, spv_result_id(r), res);
	return true;
}

/* ---- subgroups ---- */

static enum alu_op reduction(struct spv *r, uint32_t op)
{
	switch (op) {
	/* the older Group* forms (SPV_AMD_shader_ballot) take the same operands */
	case SpvOpGroupIAdd: case SpvOpGroupIAddNonUniformAMD: return OP_iadd;
	case SpvOpGroupFAdd: case SpvOpGroupFAddNonUniformAMD: return OP_fadd;
	case SpvOpGroupSMin: case SpvOpGroupSMinNonUniformAMD: return OP_imin;
	case SpvOpGroupUMin: case SpvOpGroupUMinNonUniformAMD: return OP_umin;
	case SpvOpGroupFMin: case SpvOpGroupFMinNonUniformAMD: return OP_fmin;
	case SpvOpGroupSMax: case SpvOpGroupSMaxNonUniformAMD: return OP_imax;
	case SpvOpGroupUMax: case SpvOpGroupUMaxNonUniformAMD: return OP_umax;
	case SpvOpGroupFMax: case SpvOpGroupFMaxNonUniformAMD: return OP_fmax;
	case SpvOpGroupNonUniformIAdd: return OP_iadd;
	case SpvOpGroupNonUniformFAdd: return OP_fadd;
	case SpvOpGroupNonUniformIMul: return OP_imul;
	case SpvOpGroupNonUniformFMul: return OP_fmul;
	case SpvOpGroupNonUniformSMin: return OP_imin;
	case SpvOpGroupNonUniformUMin: return OP_umin;
	case SpvOpGroupNonUniformFMin: return OP_fmin;
	case SpvOpGroupNonUniformSMax: return OP_imax;
	case SpvOpGroupNonUniformUMax: return OP_umax;
	case SpvOpGroupNonUniformFMax: return OP_fmax;
	case SpvOpGroupNonUniformBitwiseAnd: case SpvOpGroupNonUniformLogicalAnd: return OP_iand;
	case SpvOpGroupNonUniformBitwiseOr: case SpvOpGroupNonUniformLogicalOr: return OP_ior;
	case SpvOpGroupNonUniformBitwiseXor: case SpvOpGroupNonUniformLogicalXor: return OP_ixor;
	}
	spv_fail(r, "internal: no reduction");
}

static struct ssa_def *group_arith(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	struct ssa_def *v = spv_get_def(r, spv_word(r, 5));
	uint32_t group = spv_word(r, 4), cluster = 0;
	enum alu_op red = reduction(r, op);
	unsigned n = v->num_components;
	switch (group) {
	case SpvGroupOperationReduce:
		return b_intr(b, reduce, n, v->bit_size, (v), .reduction_op = red);
	case SpvGroupOperationInclusiveScan:
		return b_intr(b, inclusive_scan, n, v->bit_size, (v), .reduction_op = red);
	case SpvGroupOperationExclusiveScan:
		return b_intr(b, exclusive_scan, n, v->bit_size, (v), .reduction_op = red);
	case SpvGroupOperationClusteredReduce:
		if (!spv_id_const_u32(r, spv_word(r, 6), &cluster) || !cluster ||
		    (cluster & (cluster - 1)))
			spv_fail(r, "a cluster size that is not a constant power of two");
		return b_intr(b, reduce, n, v->bit_size, (v), .reduction_op = red,
			      .cluster_size = (int32_t)cluster);
	default: {
		char buf[40];
		spv_unsupported(r, "GroupOperation %s",
				spv_enum_name_or_number(SPV_KIND_GroupOperation, group, buf));
	}
	}
}

static struct ssa_def *ballot_value(struct spv *r, uint32_t id);

static struct ssa_def *ballot_count(struct spv *r)
{
	struct builder *b = &r->b;
	struct ssa_def *v = ballot_value(r, spv_word(r, 5));
	switch (spv_word(r, 4)) {
	case SpvGroupOperationReduce: return b_intr(b, ballot_bit_count_reduce, 0, 32, (v));
	case SpvGroupOperationInclusiveScan: return b_intr(b, ballot_bit_count_inclusive, 0, 32, (v));
	case SpvGroupOperationExclusiveScan: return b_intr(b, ballot_bit_count_exclusive, 0, 32, (v));
	default: spv_unsupported(r, "a clustered ballot count");
	}
}

static struct ssa_def *index_u32(struct spv *r, uint32_t id)
{
	return spv_get_index32(r, id);
}

/* A boolean predicate operand. */
static struct ssa_def *predicate(struct spv *r, uint32_t id)
{
	struct ssa_def *d = spv_get_def(r, id);
	if (d->bit_size != 1 || d->num_components != 1)
		spv_fail(r, "the predicate %%%u is not a boolean", id);
	return d;
}

/* A ballot operand: a uvec4. */
static struct ssa_def *ballot_value(struct spv *r, uint32_t id)
{
	struct ssa_def *d = spv_get_def(r, id);
	if (d->bit_size != 32 || d->num_components != 4)
		spv_fail(r, "the ballot %%%u is not a 32-bit 4-component vector", id);
	return d;
}

static struct ssa_def *vote_eq(struct spv *r, struct ssa_def *v, struct spv_type *t)
{
	if (spv_type_is_float(t))
		return b_intr(&r->b, vote_feq, v->num_components, 0, (v));
	return b_intr(&r->b, vote_ieq, v->num_components, 0, (v));
}

/* Ballots are uvec4; KHR_shader_ballot's may be a 64-bit scalar. */
static struct ssa_def *fit_ballot(struct spv *r, struct ssa_def *v, struct spv_type *t)
{
	if (t->bit_size == 64 && spv_type_components(t) == 1)
		return b_pack_64_2x32(&r->b, b_swizzle(&r->b, v, (unsigned[]){ 0, 1 }, 2));
	return v;
}

static bool subgroup(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	struct ssa_def *res, *v;
	struct spv_type *t;
	switch (op) {
	case SpvOpGroupNonUniformElect:
		res = b_intr(b, elect, 0, 0, (NULL));
		break;
	case SpvOpGroupNonUniformAll: case SpvOpGroupAll:
		res = b_intr(b, vote_all, 0, 0, (predicate(r, spv_word(r, 4))));
		break;
	case SpvOpGroupNonUniformAny: case SpvOpGroupAny:
		res = b_intr(b, vote_any, 0, 0, (predicate(r, spv_word(r, 4))));
		break;
	case SpvOpGroupNonUniformAllEqual:
		res = vote_eq(r, spv_get_def(r, spv_word(r, 4)), spv_get_val(r, spv_word(r, 4))->type);
		break;
	case SpvOpSubgroupAllKHR:
		res = b_intr(b, vote_all, 0, 0, (predicate(r, spv_word(r, 3))));
		break;
	case SpvOpSubgroupAnyKHR:
		res = b_intr(b, vote_any, 0, 0, (predicate(r, spv_word(r, 3))));
		break;
	case SpvOpSubgroupAllEqualKHR:
		res = vote_eq(r, spv_get_def(r, spv_word(r, 3)), spv_get_val(r, spv_word(r, 3))->type);
		break;
	case SpvOpGroupNonUniformBroadcast: case SpvOpGroupBroadcast:
		v = spv_get_def(r, spv_word(r, 4));
		res = b_intr(b, read_invocation, v->num_components, v->bit_size,
			     (v, index_u32(r, spv_word(r, 5))));
		break;
	case SpvOpSubgroupReadInvocationKHR:
		v = spv_get_def(r, spv_word(r, 3));
		res = b_intr(b, read_invocation, v->num_components, v->bit_size,
			     (v, index_u32(r, spv_word(r, 4))));
		break;
	case SpvOpGroupNonUniformBroadcastFirst:
		v = spv_get_def(r, spv_word(r, 4));
		res = b_intr(b, read_first_invocation, v->num_components, v->bit_size, (v));
		break;
	case SpvOpSubgroupFirstInvocationKHR:
		v = spv_get_def(r, spv_word(r, 3));
		res = b_intr(b, read_first_invocation, v->num_components, v->bit_size, (v));
		break;
	case SpvOpGroupNonUniformBallot:
		res = b_intr(b, ballot, 0, 0, (predicate(r, spv_word(r, 4))));
		res = fit_ballot(r, res, spv_result_type(r));
		break;
	case SpvOpSubgroupBallotKHR:
		res = b_intr(b, ballot, 0, 0, (predicate(r, spv_word(r, 3))));
		res = fit_ballot(r, res, spv_result_type(r));
		break;
	case SpvOpGroupNonUniformInverseBallot:
		res = b_intr(b, inverse_ballot, 0, 0, (ballot_value(r, spv_word(r, 4))));
		break;
	case SpvOpGroupNonUniformBallotBitExtract:
		res = b_intr(b, ballot_bitfield_extract, 0, 0,
			     (ballot_value(r, spv_word(r, 4)), index_u32(r, spv_word(r, 5))));
		break;
	case SpvOpGroupNonUniformBallotBitCount:
		res = ballot_count(r);
		break;
	case SpvOpGroupNonUniformBallotFindLSB:
		res = b_intr(b, ballot_find_lsb, 0, 0, (ballot_value(r, spv_word(r, 4))));
		break;
	case SpvOpGroupNonUniformBallotFindMSB:
		res = b_intr(b, ballot_find_msb, 0, 0, (ballot_value(r, spv_word(r, 4))));
		break;
	case SpvOpGroupNonUniformShuffle: case SpvOpGroupNonUniformShuffleXor:
	case SpvOpGroupNonUniformShuffleUp: case SpvOpGroupNonUniformShuffleDown: {
		enum intrinsic i = op == SpvOpGroupNonUniformShuffle ? INTR_shuffle :
				   op == SpvOpGroupNonUniformShuffleXor ? INTR_shuffle_xor :
				   op == SpvOpGroupNonUniformShuffleUp ? INTR_shuffle_up : INTR_shuffle_down;
		struct ssa_def *srcs[2] = { spv_get_def(r, spv_word(r, 4)), index_u32(r, spv_word(r, 5)) };
		res = &b_intrinsic(b, i, srcs[0]->num_components, srcs[0]->bit_size, srcs, NULL)->def;
		break;
	}
	case SpvOpGroupNonUniformQuadBroadcast:
		v = spv_get_def(r, spv_word(r, 4));
		res = b_intr(b, quad_broadcast, v->num_components, v->bit_size,
			     (v, index_u32(r, spv_word(r, 5))));
		break;
	case SpvOpGroupNonUniformQuadSwap: {
		uint32_t dir;
		v = spv_get_def(r, spv_word(r, 4));
		if (!spv_id_const_u32(r, spv_word(r, 5), &dir) || dir > 2)
			spv_fail(r, "a quad swap direction that is not 0, 1 or 2");
		enum intrinsic i = dir == 0 ? INTR_quad_swap_horizontal :
				   dir == 1 ? INTR_quad_swap_vertical : INTR_quad_swap_diagonal;
		res = &b_intrinsic(b, i, v->num_components, v->bit_size, &v, NULL)->def;
		break;
	}
	case SpvOpGroupNonUniformIAdd: case SpvOpGroupNonUniformFAdd:
	case SpvOpGroupNonUniformIMul: case SpvOpGroupNonUniformFMul:
	case SpvOpGroupNonUniformSMin: case SpvOpGroupNonUniformUMin:
	case SpvOpGroupNonUniformFMin: case SpvOpGroupNonUniformSMax:
	case SpvOpGroupNonUniformUMax: case SpvOpGroupNonUniformFMax:
	case SpvOpGroupNonUniformBitwiseAnd: case SpvOpGroupNonUniformBitwiseOr:
	case SpvOpGroupNonUniformBitwiseXor: case SpvOpGroupNonUniformLogicalAnd:
	case SpvOpGroupNonUniformLogicalOr: case SpvOpGroupNonUniformLogicalXor:
	case SpvOpGroupIAdd: case SpvOpGroupFAdd: case SpvOpGroupFMin: case SpvOpGroupUMin:
	case SpvOpGroupSMin: case SpvOpGroupFMax: case SpvOpGroupUMax: case SpvOpGroupSMax:
	case SpvOpGroupIAddNonUniformAMD: case SpvOpGroupFAddNonUniformAMD:
	case SpvOpGroupFMinNonUniformAMD: case SpvOpGroupUMinNonUniformAMD:
	case SpvOpGroupSMinNonUniformAMD: case SpvOpGroupFMaxNonUniformAMD:
	case SpvOpGroupUMaxNonUniformAMD: case SpvOpGroupSMaxNonUniformAMD:
		res = group_arith(r, op);
		break;
	default:
		return false;
	}
	spv_budget(r, 1);
	t = spv_result_type(r);
	spv_set_def(r, spv_result_id(r), res);
	(void)t;
	return true;
}

/* ---- the rest ---- */

static void need_stage(struct spv *r, enum shader_stage s, const char *what)
{
	if (r->stage != s)
		spv_fail(r, "%s in a %s shader", what, stage_name(r->stage));
}

bool spv_misc_instr(struct spv *r, uint32_t op)
{
	struct builder *b = &r->b;
	uint32_t stream;
	if (derivative(r, op) || subgroup(r, op))
		return true;
	switch (op) {
	case SpvOpControlBarrier:
		barrier(r, spv_word(r, 1), spv_word(r, 2), spv_word(r, 3));
		return true;
	case SpvOpMemoryBarrier:
		barrier(r, 0, spv_word(r, 1), spv_word(r, 2));
		return true;
	case SpvOpEmitVertex: case SpvOpEndPrimitive:
		need_stage(r, STAGE_GEOMETRY, "a geometry instruction");
		spv_budget(r, 1);
		if (op == SpvOpEmitVertex)
			spv_io_copy_outputs(r, 0);
		if (op == SpvOpEmitVertex)
			b_intr(b, emit_vertex, 0, 0, (NULL), .stream = 0);
		else
			b_intr(b, end_primitive, 0, 0, (NULL), .stream = 0);
		return true;
	case SpvOpEmitStreamVertex: case SpvOpEndStreamPrimitive:
		need_stage(r, STAGE_GEOMETRY, "a geometry instruction");
		if (!spv_id_const_u32(r, spv_word(r, 1), &stream) || stream > 3)
			spv_fail(r, "a stream that is not a constant from 0 to 3");
		spv_budget(r, 1);
		if (op == SpvOpEmitStreamVertex)
			spv_io_copy_outputs(r, (int)stream);
		if (op == SpvOpEmitStreamVertex)
			b_intr(b, emit_vertex, 0, 0, (NULL), .stream = (int32_t)stream);
		else
			b_intr(b, end_primitive, 0, 0, (NULL), .stream = (int32_t)stream);
		return true;
	case SpvOpDemoteToHelperInvocation:
		need_stage(r, STAGE_FRAGMENT, "OpDemoteToHelperInvocation");
		spv_budget(r, 1);
		b_intr(b, demote, 0, 0, (NULL));
		return true;
	case SpvOpIsHelperInvocationEXT:
		need_stage(r, STAGE_FRAGMENT, "OpIsHelperInvocationEXT");
		spv_set_def(r, spv_result_id(r), b_intr(b, is_helper_invocation, 0, 0, (NULL)));
		return true;
	case SpvOpBeginInvocationInterlockEXT:
		need_stage(r, STAGE_FRAGMENT, "an interlock");
		b_intr(b, begin_invocation_interlock, 0, 0, (NULL));
		return true;
	case SpvOpEndInvocationInterlockEXT:
		need_stage(r, STAGE_FRAGMENT, "an interlock");
		b_intr(b, end_invocation_interlock, 0, 0, (NULL));
		return true;
	case SpvOpReadClockKHR: {
		struct spv_type *t = spv_result_type(r);
		struct ssa_def *c = b_intr(b, shader_clock, 0, 0, (NULL),
					   .memory_scope = spv_scope(r, spv_word(r, 3)));
		if (t->bit_size == 64 && spv_type_components(t) == 1)
			c = b_pack_64_2x32(b, c);
		spv_set_def(r, spv_result_id(r), c);
		return true;
	}
	}
	return false;
}
