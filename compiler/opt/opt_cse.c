/*
 * opt_cse: common subexpression elimination over the dominator tree
 * (global value numbering by hashing, as NIR's instr_set).
 *
 * Instructions are visited in program order, which for structured control
 * flow visits a block's dominators first.  Each reorderable instruction
 * (opt_util.h: alu, load_const, tex, REORDER intrinsics) and each phi is
 * looked up in a hash set keyed by what it computes — opcode, sizes,
 * sources with their swizzles (either order for commutative opcodes),
 * constant values, const indices, texture fields; phis by block and
 * sources per predecessor.  When an equal instruction is found and its
 * block dominates this one, this one's uses move to it and this one goes;
 * otherwise this one takes its place in the set, for the code it
 * dominates.
 *
 *	32 %3 = fmul %1, %2			32 %3 = fmul %1, %2
 *	if %c {				=>	if %c {
 *		32 %4 = fmul %2, %1			(uses of %4 read %3)
 *
 * Instructions that may differ between two executions — memory loads
 * others may write, derivatives, side effects — are never merged.  The
 * kept ALU instruction becomes exact if either was, and keeps a no-wrap
 * flag only if both had it.
 */
#include <stdlib.h>

#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"
#include "compiler/util/hash.h"

struct instr_set {
	struct instr **slots;
	size_t cap;			/* power of two */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	return hash_u64(h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)));
}

static uint64_t hash_def(const struct ssa_def *d)
{
	return hash_u64(d->index);
}

static uint64_t hash_alu_src(const struct alu_instr *alu, unsigned k)
{
	uint64_t h = hash_def(alu->src[k].src.ssa);
	for (unsigned c = 0; c < alu_src_components(alu, k); c++)
		h = mix(h, alu->src[k].swizzle[c]);
	return h;
}

static bool commutes(const struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	return (info->props & ALU_COMMUTATIVE) && info->num_inputs >= 2;
}

static uint64_t hash_alu(const struct alu_instr *alu)
{
	unsigned n = alu_op_infos[alu->op].num_inputs;
	uint64_t h = mix(mix(alu->op, alu->def.num_components), alu->def.bit_size);
	unsigned k = 0;
	if (commutes(alu)) {
		h = mix(h, hash_alu_src(alu, 0) + hash_alu_src(alu, 1));
		k = 2;
	}
	for (; k < n; k++)
		h = mix(h, hash_alu_src(alu, k));
	return h;
}

static uint64_t hash_instr(const struct instr *i)
{
	uint64_t h = mix(i->type, 0);
	switch (i->type) {
	case INSTR_alu:
		return mix(h, hash_alu(instr_as_alu(i)));
	case INSTR_load_const: {
		const struct load_const_instr *lc = instr_as_load_const(i);
		h = mix(mix(h, lc->def.num_components), lc->def.bit_size);
		for (unsigned c = 0; c < lc->def.num_components; c++)
			h = mix(h, lc->value[c]);
		return h;
	}
	case INSTR_intrinsic: {
		const struct intrinsic_instr *intr = instr_as_intrinsic(i);
		h = mix(mix(h, intr->op), intr->num_components);
		for (unsigned k = 0; k < INTR_MAX_INDICES; k++)
			h = mix(h, (uint32_t)intr->const_index[k]);
		for (unsigned k = 0; k < intrinsic_infos[intr->op].num_srcs; k++)
			h = mix(h, hash_def(intr->src[k].ssa));
		return intrinsic_has_dest(intr->op) ? mix(h, intr->def.bit_size) : h;
	}
	case INSTR_tex: {
		const struct tex_instr *tex = instr_as_tex(i);
		h = mix(mix(mix(h, tex->op), tex->dim), tex->texture_index);
		h = mix(mix(h, tex->sampler_index), tex->num_srcs);
		for (unsigned k = 0; k < tex->num_srcs; k++)
			h = mix(mix(h, tex->src[k].type), hash_def(tex->src[k].src.ssa));
		return h;
	}
	case INSTR_phi: {
		const struct phi_instr *phi = instr_as_phi(i);
		uint64_t sum = 0;
		foreach_phi_src(ps, (struct phi_instr *)phi)
			sum += mix(hash_u64((uintptr_t)ps->pred), hash_def(ps->src.ssa));
		return mix(mix(h, (uintptr_t)i->block), sum);
	}
	default:
		return h;
	}
}

static bool same_alu_src(const struct alu_instr *a, unsigned ka, const struct alu_instr *b,
			 unsigned kb)
{
	if (a->src[ka].src.ssa != b->src[kb].src.ssa)
		return false;
	for (unsigned c = 0; c < alu_src_components(a, ka); c++)
		if (a->src[ka].swizzle[c] != b->src[kb].swizzle[c])
			return false;
	return true;
}

static bool alu_equal(const struct alu_instr *a, const struct alu_instr *b)
{
	unsigned n = alu_op_infos[a->op].num_inputs;
	if (a->op != b->op || a->def.num_components != b->def.num_components ||
	    a->def.bit_size != b->def.bit_size)
		return false;
	unsigned k = 0;
	if (commutes(a)) {
		if (!(same_alu_src(a, 0, b, 0) && same_alu_src(a, 1, b, 1)) &&
		    !(same_alu_src(a, 0, b, 1) && same_alu_src(a, 1, b, 0)))
			return false;
		k = 2;
	}
	for (; k < n; k++)
		if (!same_alu_src(a, k, b, k))
			return false;
	return true;
}

static bool intrinsic_equal(const struct intrinsic_instr *a, const struct intrinsic_instr *b)
{
	if (a->op != b->op || a->num_components != b->num_components)
		return false;
	for (unsigned k = 0; k < INTR_MAX_INDICES; k++)
		if (a->const_index[k] != b->const_index[k])
			return false;
	for (unsigned k = 0; k < intrinsic_infos[a->op].num_srcs; k++)
		if (a->src[k].ssa != b->src[k].ssa)
			return false;
	return !intrinsic_has_dest(a->op) || (a->def.bit_size == b->def.bit_size &&
					      a->def.num_components == b->def.num_components);
}

static bool tex_equal(const struct tex_instr *a, const struct tex_instr *b)
{
	if (a->op != b->op || a->dim != b->dim || a->is_array != b->is_array ||
	    a->is_shadow != b->is_shadow || a->is_sparse != b->is_sparse ||
	    a->dest_type != b->dest_type || a->component != b->component ||
	    a->texture_index != b->texture_index || a->sampler_index != b->sampler_index ||
	    a->num_srcs != b->num_srcs || a->def.bit_size != b->def.bit_size ||
	    a->def.num_components != b->def.num_components)
		return false;
	for (unsigned k = 0; k < a->num_srcs; k++)
		if (a->src[k].type != b->src[k].type || a->src[k].src.ssa != b->src[k].src.ssa)
			return false;
	return true;
}

static bool phi_equal(struct phi_instr *a, struct phi_instr *b)
{
	if (a->instr.block != b->instr.block || a->def.num_components != b->def.num_components ||
	    a->def.bit_size != b->def.bit_size)
		return false;
	foreach_phi_src(ps, a) {
		struct phi_src *other = phi_get_src(b, ps->pred);
		if (!other || other->src.ssa != ps->src.ssa)
			return false;
	}
	return true;
}

static bool instr_equal(const struct instr *a, const struct instr *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case INSTR_alu:
		return alu_equal(instr_as_alu(a), instr_as_alu(b));
	case INSTR_load_const: {
		const struct load_const_instr *x = instr_as_load_const(a), *y = instr_as_load_const(b);
		if (x->def.num_components != y->def.num_components || x->def.bit_size != y->def.bit_size)
			return false;
		for (unsigned c = 0; c < x->def.num_components; c++)
			if (x->value[c] != y->value[c])
				return false;
		return true;
	}
	case INSTR_intrinsic:
		return intrinsic_equal(instr_as_intrinsic(a), instr_as_intrinsic(b));
	case INSTR_tex:
		return tex_equal(instr_as_tex(a), instr_as_tex(b));
	case INSTR_phi:
		return phi_equal(instr_as_phi(a), instr_as_phi(b));
	default:
		return false;
	}
}

static bool cse_candidate(const struct instr *i)
{
	if (i->type == INSTR_phi)
		return true;
	return i->type != INSTR_undef && instr_is_reorderable(i) && instr_def((struct instr *)i);
}

/* The slot holding an instruction equal to `i`, or the empty slot for it. */
static struct instr **lookup(struct instr_set *set, struct instr *i)
{
	size_t mask = set->cap - 1;
	for (size_t k = hash_instr(i) & mask;; k = (k + 1) & mask)
		if (!set->slots[k] || instr_equal(set->slots[k], i))
			return &set->slots[k];
}

static void merge_flags(struct instr *kept, struct instr *gone)
{
	if (kept->type != INSTR_alu)
		return;
	struct alu_instr *k = instr_as_alu(kept), *g = instr_as_alu(gone);
	k->exact |= g->exact;
	k->mediump &= g->mediump;
	k->no_signed_wrap &= g->no_signed_wrap;
	k->no_unsigned_wrap &= g->no_unsigned_wrap;
}

bool opt_cse(struct shader *s)
{
	struct function *fn = s->fn;
	struct instr_set set;
	bool progress = false;
	size_t n = 0;

	metadata_require(fn, META_DOMINANCE);
	foreach_block(b, fn)
		foreach_instr(i, b)
			n++;
	for (set.cap = 16; set.cap < 2 * n; set.cap *= 2)
		;
	set.slots = xcalloc(set.cap, sizeof(*set.slots));

	foreach_block(b, fn) {
		foreach_instr_safe(i, b) {
			if (!cse_candidate(i))
				continue;
			struct instr **slot = lookup(&set, i);
			struct instr *other = *slot;
			if (other && block_dominates(other->block, b)) {
				merge_flags(other, i);
				ssa_def_rewrite_uses(instr_def(i), instr_def(other));
				instr_remove(i);
				progress = true;
			} else {
				*slot = i;
			}
		}
	}
	free(set.slots);
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
