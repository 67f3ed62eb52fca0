/*
 * lower_ir3_subgroups: the subgroup operations ir3 builds from a few
 * primitives, as nir_lower_subgroups does with ir3's options (targets.md
 * §2.1, ir3_nir_post_finalize: ballot_bit_size 32, ballot_components 4):
 * ballots are uvec4 of which a wave of at most 128 fibres uses .x–.w;
 * what remains for selection is ballot, vote_any, vote_all, elect,
 * read_first_invocation and the subgroup_invocation/size system values.
 *
 *	subgroup_eq/ge/gt/le/lt_mask  per word, 1 shifted by the invocation in
 *	                              the word it falls in, all ones below it,
 *	                              0 above (Mesa's build_ballot_imm_ishl);
 *	                              ge/gt within the subgroup size
 *	ballot_bit_count_*            the bit_counts of the words (masked), added
 *	ballot_find_lsb/msb           find_lsb/ufind_msb of the words, in order
 *	ballot_bitfield_extract       the bit of the word it falls in
 *	inverse_ballot                ballot_bitfield_extract at the invocation
 *	vote_ieq/feq                  vote_all(x == read_first_invocation(x))
 *	reduce                        log2(cluster) butterfly steps on shuffle_xor
 *	inclusive/exclusive_scan      log2(wave) steps on shuffle_up (Hillis-Steele),
 *	                              the exclusive one shifted by one first
 *
 * (Mesa 24.3 lowers scans and reductions with ir3's scan macros on a6xx+;
 * the butterfly is this model's approximation of their length.)
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

static struct ssa_def *u32(struct builder *b, uint32_t v) { return b_imm_int(b, v); }

#define WORDS 4		/* ballot_components */

static struct ssa_def *word(struct builder *b, struct ssa_def *v, unsigned k)
{
	return b_channel(b, v, k);
}

/* Word k of the mask whose bits below `n` (an invocation or the subgroup
 * size) are set: all ones, none, or the low n % 32 bits. */
static struct ssa_def *below_word(struct builder *b, struct ssa_def *n, unsigned k)
{
	struct ssa_def *part = b_isub(b, b_ishl(b, u32(b, 1), b_iand(b, n, u32(b, 31))), u32(b, 1));
	return b_bcsel(b, b_ult(b, n, u32(b, 32 * k + 32)),
		       b_bcsel(b, b_ult(b, n, u32(b, 32 * k)), u32(b, 0), part), u32(b, ~0u));
}

/* Word k of the invocation's own bit. */
static struct ssa_def *eq_word(struct builder *b, struct ssa_def *id, unsigned k)
{
	return b_bcsel(b, b_ieq(b, b_ushr(b, id, u32(b, 5)), u32(b, k)),
		       b_ishl(b, u32(b, 1), b_iand(b, id, u32(b, 31))), u32(b, 0));
}

static struct ssa_def *mask_word(struct builder *b, enum intrinsic op, struct ssa_def *id,
				 unsigned k)
{
	struct ssa_def *lt = below_word(b, id, k), *eq = eq_word(b, id, k), *inside;
	switch (op) {
	case INTR_load_subgroup_eq_mask: return eq;
	case INTR_load_subgroup_lt_mask: return lt;
	case INTR_load_subgroup_le_mask: return b_ior(b, lt, eq);
	default:
		inside = below_word(b, b_sysval(b, INTR_load_subgroup_size), k);
		if (op == INTR_load_subgroup_gt_mask)
			return b_iand(b, b_inot(b, b_ior(b, lt, eq)), inside);
		return b_iand(b, b_inot(b, lt), inside);		/* ge */
	}
}

static struct ssa_def *mask(struct builder *b, enum intrinsic op)
{
	struct ssa_def *id = b_sysval(b, INTR_load_subgroup_invocation), *w[WORDS];
	for (unsigned k = 0; k < WORDS; k++)
		w[k] = mask_word(b, op, id, k);
	return b_vec4(b, w[0], w[1], w[2], w[3]);
}

/* Word k of a ballot, its bits past the subgroup size cleared (a ballot's
 * bits there do not count: Mesa's build_subgroup_mask). */
static struct ssa_def *ballot_word(struct builder *b, struct ssa_def *v, unsigned k)
{
	return b_iand(b, word(b, v, k), below_word(b, b_sysval(b, INTR_load_subgroup_size), k));
}

static struct ssa_def *bit_count(struct builder *b, struct ssa_def *v, enum intrinsic op)
{
	struct ssa_def *id = b_sysval(b, INTR_load_subgroup_invocation), *sum = NULL;
	for (unsigned k = 0; k < WORDS; k++) {
		struct ssa_def *w;
		if (op == INTR_ballot_bit_count_exclusive)
			w = b_iand(b, word(b, v, k), mask_word(b, INTR_load_subgroup_lt_mask, id, k));
		else if (op == INTR_ballot_bit_count_inclusive)
			w = b_iand(b, word(b, v, k), mask_word(b, INTR_load_subgroup_le_mask, id, k));
		else
			w = ballot_word(b, v, k);
		w = b_bit_count(b, w);
		sum = sum ? b_iadd(b, sum, w) : w;
	}
	return sum;
}

/* The lowest (highest) set bit: the first (last) word that has one. */
static struct ssa_def *find(struct builder *b, struct ssa_def *v, bool msb)
{
	struct ssa_def *r = u32(b, ~0u);
	for (unsigned n = 0; n < WORDS; n++) {
		unsigned k = msb ? n : WORDS - 1 - n;
		struct ssa_def *w = ballot_word(b, v, k);
		struct ssa_def *bit = msb ? b_ufind_msb(b, w) : b_find_lsb(b, w);
		r = b_bcsel(b, b_ine(b, w, u32(b, 0)), b_iadd(b, bit, u32(b, 32 * k)), r);
	}
	return r;
}

static struct ssa_def *extract(struct builder *b, struct ssa_def *v, struct ssa_def *i)
{
	struct ssa_def *k = b_ushr(b, i, u32(b, 5)), *w = word(b, v, WORDS - 1);
	for (unsigned n = WORDS - 1; n-- > 0;)
		w = b_bcsel(b, b_ieq(b, k, u32(b, n)), word(b, v, n), w);
	return b_ine(b, b_iand(b, b_ushr(b, w, b_iand(b, i, u32(b, 31))), u32(b, 1)), u32(b, 0));
}

/* The identity of a reduction op, as the value's bit size. */
static struct ssa_def *identity(struct builder *b, enum alu_op op, unsigned bits)
{
	switch (op) {
	case OP_imul: return b_imm_intN(b, 1, bits);
	case OP_fmul: return b_imm_floatN(b, 1.0, bits);
	case OP_iand: case OP_umin: return b_imm_intN(b, -1, bits);
	case OP_imin: return b_imm_intN(b, (int64_t)((1ull << (bits - 1)) - 1), bits);
	case OP_imax: return b_imm_intN(b, -(int64_t)(1ull << (bits - 1)), bits);
	case OP_fmin: return b_imm_floatN(b, __builtin_inf(), bits);
	case OP_fmax: return b_imm_floatN(b, -__builtin_inf(), bits);
	case OP_fadd: return b_imm_floatN(b, 0, bits);
	default: return b_imm_intN(b, 0, bits);
	}
}

static struct ssa_def *shuffle(struct builder *b, enum intrinsic op, struct ssa_def *x,
			       unsigned delta)
{
	return b_intrinsic_def_(b, op, x->num_components, x->bit_size,
				(struct ssa_def *const[]){ x, b_imm_int(b, delta) }, NULL);
}

static struct ssa_def *scan(struct builder *b, struct intrinsic_instr *intr)
{
	enum alu_op op = (enum alu_op)intrinsic_get(intr, INTR_IDX_reduction_op);
	struct ssa_def *x = intr->src[0].ssa;
	unsigned bits = x->bit_size;
	if (intr->op == INTR_reduce) {
		unsigned cluster = (unsigned)intrinsic_get(intr, INTR_IDX_cluster_size);
		if (!cluster || cluster > 64)
			cluster = 64;
		for (unsigned s = 1; s < cluster; s <<= 1)
			x = b_alu(b, op, x, shuffle(b, INTR_shuffle_xor, x, s), NULL, NULL);
		return x;
	}
	struct ssa_def *id = b_sysval(b, INTR_load_subgroup_invocation);
	if (intr->op == INTR_exclusive_scan) {
		struct ssa_def *first = b_ieq(b, id, b_imm_int(b, 0));
		x = b_bcsel(b, first, identity(b, op, bits), shuffle(b, INTR_shuffle_up, x, 1));
	}
	for (unsigned s = 1; s < 64; s <<= 1) {
		struct ssa_def *t = b_alu(b, op, x, shuffle(b, INTR_shuffle_up, x, s), NULL, NULL);
		x = b_bcsel(b, b_uge(b, id, b_imm_int(b, s)), t, x);
	}
	return x;
}

static struct ssa_def *lower(struct builder *b, struct intrinsic_instr *intr, void *data)
{
	(void)data;
	switch (intr->op) {
	case INTR_load_subgroup_eq_mask: case INTR_load_subgroup_ge_mask:
	case INTR_load_subgroup_gt_mask: case INTR_load_subgroup_le_mask:
	case INTR_load_subgroup_lt_mask:
		return mask(b, intr->op);
	case INTR_ballot_bit_count_reduce: case INTR_ballot_bit_count_inclusive:
	case INTR_ballot_bit_count_exclusive:
		return bit_count(b, intr->src[0].ssa, intr->op);
	case INTR_ballot_find_lsb: return find(b, intr->src[0].ssa, false);
	case INTR_ballot_find_msb: return find(b, intr->src[0].ssa, true);
	case INTR_ballot_bitfield_extract: return extract(b, intr->src[0].ssa, intr->src[1].ssa);
	case INTR_inverse_ballot:
		return extract(b, intr->src[0].ssa, b_sysval(b, INTR_load_subgroup_invocation));
	case INTR_reduce: case INTR_inclusive_scan: case INTR_exclusive_scan:
		return scan(b, intr);
	case INTR_vote_ieq: case INTR_vote_feq: {
		struct ssa_def *x = intr->src[0].ssa;
		struct ssa_def *f = b_intr(b, read_first_invocation, x->num_components, x->bit_size, (x));
		struct ssa_def *eq = NULL;
		for (unsigned k = 0; k < x->num_components; k++) {
			struct ssa_def *e = intr->op == INTR_vote_feq
				? b_feq(b, b_channel(b, x, k), b_channel(b, f, k))
				: b_ieq(b, b_channel(b, x, k), b_channel(b, f, k));
			eq = eq ? b_iand(b, eq, e) : e;
		}
		return b_intr(b, vote_all, 1, 1, (eq));
	}
	default:
		return NULL;
	}
}

bool lower_ir3_subgroups(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	return shader_progress(s, b_lower_intrinsics(s, lower, NULL),
			       META_BLOCK_INDEX | META_DOMINANCE);
}
