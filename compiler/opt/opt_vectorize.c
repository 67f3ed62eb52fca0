/*
 * opt_vectorize: ALU instructions of one opcode whose sources are the same
 * values (other components of them) or constants become one vector
 * instruction of up to four components, as Mesa's nir_opt_vectorize does
 * for the vec4 backends (etnaviv runs it until it makes no progress,
 * ../shared/reference/targets.md §4.3):
 *
 *	32 %5 = fmul %1.x, %2.x                 32x2 %7 = fmul %1.xy, %2.xy
 *	32 %6 = fmul %1.y, %2.y          =>     (uses of %5 read %7.x, of %6 %7.y)
 *
 * Instructions are visited in program order, which for structured control
 * flow visits a block's dominators first.  A candidate is a per-component
 * ALU instruction other than a mov of fewer than four components whose
 * every source reads components 0–3 of its value, and it is looked up by
 * opcode, bit size and, per source, the value read (any constant matches
 * any constant).  When an earlier candidate with that key dominates it and
 * the two have four components or fewer together, both are replaced by one
 * instruction in the earlier one's place (the sources are the same values,
 * or constants joined into a new one there): it reads the earlier one's
 * components first; ALU users read it through their swizzles, other users
 * through a mov.  The result is exact if either was, no-wrap only if both
 * were.  Otherwise the later one takes the earlier one's place in the
 * table, for the code it dominates.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"
#include "compiler/util/error.h"
#include "compiler/util/hash.h"

#define MAX_WIDTH 4

struct vec_table {
	struct alu_instr **slots;
	size_t cap;			/* power of two */
	size_t len;
};

static bool is_const(const struct ssa_def *d)
{
	return d->parent->type == INSTR_load_const;
}

static bool candidate(const struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	if (alu->op == OP_mov || info->output_size || alu->def.num_components >= MAX_WIDTH)
		return false;
	for (unsigned i = 0; i < info->num_inputs; i++) {
		if (info->input_sizes[i])
			return false;
		for (unsigned c = 0; c < alu->def.num_components; c++)
			if (alu->src[i].swizzle[c] >= MAX_WIDTH)
				return false;
	}
	return true;
}

static uint64_t hash_key(const struct alu_instr *alu)
{
	uint64_t h = hash_u64((uint64_t)alu->op << 8 | alu->def.bit_size);
	for (unsigned i = 0; i < alu_op_infos[alu->op].num_inputs; i++) {
		const struct ssa_def *d = alu->src[i].src.ssa;
		h = hash_u64(h ^ (is_const(d) ? ~0ull : d->index));
	}
	return h;
}

static bool same_key(const struct alu_instr *a, const struct alu_instr *b)
{
	if (a->op != b->op || a->def.bit_size != b->def.bit_size)
		return false;
	for (unsigned i = 0; i < alu_op_infos[a->op].num_inputs; i++) {
		const struct ssa_def *x = a->src[i].src.ssa, *y = b->src[i].src.ssa;
		if (x != y && !(is_const(x) && is_const(y)))
			return false;
	}
	return true;
}

/* The slot holding an instruction of `alu`'s key, or the empty one where
 * it would go. */
static struct alu_instr **lookup(struct vec_table *t, const struct alu_instr *alu)
{
	size_t i = hash_key(alu) & (t->cap - 1);
	while (t->slots[i] && !same_key(t->slots[i], alu))
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

static void grow(struct vec_table *t)
{
	struct vec_table old = *t;
	t->cap = old.cap ? old.cap * 2 : 64;
	t->slots = xcalloc(t->cap, sizeof(*t->slots));
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i])
			*lookup(t, old.slots[i]) = old.slots[i];
	free(old.slots);
}

/* Source `i` of the joined instruction: the shared value, or a constant of
 * both instructions' components. */
static struct ssa_def *joined_src(struct builder *b, const struct alu_instr *a,
				  const struct alu_instr *c, unsigned i, uint8_t *swizzle)
{
	unsigned na = a->def.num_components, nc = c->def.num_components;
	struct ssa_def *x = a->src[i].src.ssa, *y = c->src[i].src.ssa;
	if (x == y) {
		memcpy(swizzle, a->src[i].swizzle, na);
		memcpy(swizzle + na, c->src[i].swizzle, nc);
		return x;
	}
	uint64_t v[MAX_WIDTH];
	const struct load_const_instr *lx = ssa_def_as_const(x), *ly = ssa_def_as_const(y);
	for (unsigned k = 0; k < na; k++)
		v[k] = lx->value[a->src[i].swizzle[k]];
	for (unsigned k = 0; k < nc; k++)
		v[na + k] = ly->value[c->src[i].swizzle[k]];
	for (unsigned k = 0; k < na + nc; k++)
		swizzle[k] = (uint8_t)k;
	return b_const(b, na + nc, x->bit_size, v);
}

/* Point the uses of `old` at components [first, first + n) of `def`. */
static void move_uses(struct builder *b, struct ssa_def *old, struct ssa_def *def, unsigned first)
{
	unsigned n = old->num_components;
	struct ssa_def *mov = NULL;
	foreach_use_safe(use, old) {
		struct instr *user = use->parent_instr;
		if (user && user->type == INSTR_alu) {
			struct alu_instr *alu = instr_as_alu(user);
			struct alu_src *as = (struct alu_src *)use;
			for (unsigned c = 0; c < alu_src_components(alu, (unsigned)(as - alu->src)); c++)
				as->swizzle[c] = (uint8_t)(as->swizzle[c] + first);
			src_rewrite(use, def);
			continue;
		}
		if (!mov) {
			unsigned sw[MAX_WIDTH];
			for (unsigned k = 0; k < n; k++)
				sw[k] = first + k;
			mov = b_swizzle(b, def, sw, n);
		}
		if (use->parent_if)
			if_set_condition(use->parent_if, mov);
		else
			src_rewrite(use, mov);
	}
}

/* One instruction for `a` and the later `c` (`a` dominates `c`), in `a`'s
 * place; returns it. */
static struct alu_instr *join(struct shader *s, struct alu_instr *a, struct alu_instr *c)
{
	struct builder b;
	builder_init(&b, s, cursor_before_instr(&a->instr));
	unsigned n = a->def.num_components + c->def.num_components;
	struct alu_instr *j = alu_instr_create(s, a->op);
	j->exact = a->exact || c->exact;
	j->mediump = a->mediump && c->mediump;
	j->no_signed_wrap = a->no_signed_wrap && c->no_signed_wrap;
	j->no_unsigned_wrap = a->no_unsigned_wrap && c->no_unsigned_wrap;
	ssa_def_init(&j->instr, &j->def, n, a->def.bit_size);
	for (unsigned i = 0; i < alu_op_infos[a->op].num_inputs; i++) {
		uint8_t sw[16] = { 0 };
		struct ssa_def *src = joined_src(&b, a, c, i, sw);
		src_init(&j->src[i].src, &j->instr, src);
		memcpy(j->src[i].swizzle, sw, sizeof(sw));
	}
	b_insert(&b, &j->instr);
	move_uses(&b, &a->def, &j->def, 0);
	move_uses(&b, &c->def, &j->def, a->def.num_components);
	instr_remove(&a->instr);
	instr_remove(&c->instr);
	return j;
}

/* Add `alu` to the table, or join it with the candidate there. */
static bool visit(struct shader *s, struct vec_table *t, struct alu_instr *alu)
{
	if (!candidate(alu))
		return false;
	if ((t->len + 1) * 4 > t->cap * 3)
		grow(t);
	struct alu_instr **slot = lookup(t, alu);
	struct alu_instr *a = *slot;
	if (a && block_dominates(a->instr.block, alu->instr.block) &&
	    a->def.num_components + alu->def.num_components <= MAX_WIDTH) {
		/* a full one stays: the next of its key takes its place */
		*slot = join(s, a, alu);
		return true;
	}
	if (!a)
		t->len++;
	*slot = alu;
	return false;
}

bool opt_vectorize(struct shader *s)
{
	metadata_require(s->fn, META_DOMINANCE);
	struct vec_table t = { 0 };
	bool progress = false;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk)
			if (in->type == INSTR_alu)
				progress |= visit(s, &t, instr_as_alu(in));
	free(t.slots);
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
