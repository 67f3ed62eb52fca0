/*
 * opt_copy_prop: copy propagation through movs and vecN.
 *
 *  - An ALU source reading a `mov` reads the mov's source instead, the two
 *    swizzles composed; one reading a vecN whose components (those it
 *    reads) all come from one value reads that value:
 *
 *	32x4 %2 = mov %1.wzyx
 *	32   %3 = fadd %2.x, %0		=>	32 %3 = fadd %1.w, %0
 *	32x2 %5 = vec2 %4.y, %4.x
 *	32x2 %6 = fmul %5, %5		=>	32x2 %6 = fmul %4.yx, %4.yx
 *
 *  - A mov or vecN that copies a whole value unchanged (same size, identity
 *    swizzle) is replaced everywhere, including non-ALU uses (intrinsics,
 *    tex, phis, if conditions), which have no swizzles.
 *
 * The copies themselves are left for DCE.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static bool is_vec(enum alu_op op)
{
	const struct alu_op_info *info = &alu_op_infos[op];
	return info->output_size > 1 && info->num_inputs == info->output_size &&
	       info->input_sizes[0] == 1 && op != OP_mov && info->output_type == TYPE_U;
}

static bool is_copy(const struct alu_instr *alu)
{
	return alu->op == OP_mov || is_vec(alu->op);
}

/*
 * What `n` components read through `swz` from the copy `copy` come from:
 * one value and a composed swizzle, or false.
 */
static bool through_copy(const struct alu_instr *copy, const uint8_t *swz, unsigned n,
			 struct ssa_def **def, uint8_t *out)
{
	if (copy->op == OP_mov) {
		*def = copy->src[0].src.ssa;
		for (unsigned c = 0; c < n; c++)
			out[c] = copy->src[0].swizzle[swz[c]];
		return true;
	}
	*def = NULL;
	for (unsigned c = 0; c < n; c++) {
		const struct alu_src *s = &copy->src[swz[c]];
		if (*def && s->src.ssa != *def)
			return false;
		*def = s->src.ssa;
		out[c] = s->swizzle[0];
	}
	return *def != NULL;
}

static bool prop_alu_src(struct alu_instr *alu, unsigned i)
{
	bool progress = false;
	unsigned n = alu_src_components(alu, i);
	/* bounded: copies may form a cycle in unreachable code */
	for (unsigned round = 0; round < 64; round++) {
		struct ssa_def *d = alu->src[i].src.ssa;
		if (d->parent->type != INSTR_alu || !is_copy(instr_as_alu(d->parent)))
			return progress;
		struct ssa_def *to;
		uint8_t swz[16];
		if (!through_copy(instr_as_alu(d->parent), alu->src[i].swizzle, n, &to, swz))
			return progress;
		src_rewrite(&alu->src[i].src, to);
		for (unsigned c = 0; c < n; c++)
			alu->src[i].swizzle[c] = swz[c];
		progress = true;
	}
	return progress;
}

/* A copy of a whole value: the value, else NULL. */
static struct ssa_def *whole_copy_of(struct alu_instr *alu)
{
	static const uint8_t identity[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	struct ssa_def *to;
	uint8_t swz[16];
	unsigned n = alu->def.num_components;
	if (!is_copy(alu) || !through_copy(alu, identity, n, &to, swz) ||
	    to->num_components != n)
		return NULL;
	for (unsigned c = 0; c < n; c++)
		if (swz[c] != c)
			return NULL;
	return to;
}

bool opt_copy_prop(struct shader *s)
{
	bool progress = false;
	foreach_block(b, s->fn) {
		foreach_instr(i, b) {
			if (i->type != INSTR_alu)
				continue;
			struct alu_instr *alu = instr_as_alu(i);
			for (unsigned k = 0; k < alu_op_infos[alu->op].num_inputs; k++)
				progress |= prop_alu_src(alu, k);
			struct ssa_def *to = whole_copy_of(alu);
			if (to && ssa_def_has_uses(&alu->def)) {
				ssa_def_rewrite_uses(&alu->def, to);
				progress = true;
			}
		}
	}
	return shader_progress(s, progress, META_CONTROL_FLOW | META_INSTR_INDEX);
}
