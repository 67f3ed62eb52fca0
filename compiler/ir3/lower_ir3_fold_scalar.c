/*
 * lower_ir3_fold_scalar: Mesa runs ir3's ALU operations scalar
 * (nir_lower_alu_to_scalar in ir3_optimize_loop, targets.md §2.1), so its
 * algebra folds a constant component by component.  Ours keeps vectors
 * until selection; where that would hide a fold — a product or sum reading
 * a constant some of whose components are 0, 1 or -1 and others not, as a
 * constant matrix's rows are in v × M (a rotation built in the shader) —
 * the operation is split into scalar ones here, before the optimisation
 * loop, and the loop folds them; likewise a vecN source with such a
 * constant among other components (vec4(c.rgb, 1.0) × t):
 *
 *	32x4 %r = ffma (0.0, 1.0, 0.0, 0.0), %v.yyyy, %acc
 *	  → x: ffma 0.0, %v.y, %acc.x → %acc.x;  y: ffma 1.0, … → fadd …
 *
 * Everything else stays vector (splitting all of it changes the
 * allocation's footprint away from Mesa's, the `full` statistic).
 */
#include "compiler/ir3/ir3_nir.h"
#include "compiler/opt/opt.h"

static bool folding_const(const struct ssa_def *d, unsigned c)
{
	struct load_const_instr *lc = ssa_def_as_const(d);
	if (!lc || lc->instr.type != INSTR_load_const)
		return false;
	double f = ir_float_from_bits(lc->value[c], lc->def.bit_size);
	return f == 0.0 || f == 1.0 || f == -1.0;
}

/* Source i is a vecN some of whose read components are such constants and
 * others not: vec4(v.xyz, 1.0) × t, whose w is t.w in scalar code. */
static bool vec_folds(const struct alu_instr *alu, unsigned i)
{
	const struct ssa_def *d = alu->src[i].src.ssa;
	if (d->parent->type != INSTR_alu)
		return false;
	const struct alu_instr *v = instr_as_alu(d->parent);
	if (v->op != OP_vec2 && v->op != OP_vec3 && v->op != OP_vec4)
		return false;
	bool folds = false, other = false;
	for (unsigned k = 0; k < alu->def.num_components; k++) {
		const struct alu_src *s = &v->src[alu->src[i].swizzle[k]];
		bool f = folding_const(s->src.ssa, s->swizzle[0]);
		folds |= f;
		other |= !f;
	}
	return folds && other;
}

static bool folds_per_component(const struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_fmul && alu->op != OP_ffma && alu->op != OP_fadd)
		return false;
	unsigned n = alu->def.num_components;
	if (n < 2)
		return false;
	for (unsigned i = 0; i < alu_op_infos[alu->op].num_inputs; i++) {
		if (vec_folds(alu, i))
			return true;
		struct load_const_instr *lc = ssa_def_as_const(alu->src[i].src.ssa);
		if (!lc || lc->instr.type != INSTR_load_const)
			continue;
		bool folds = false, mixed = false;
		uint64_t first = lc->value[alu->src[i].swizzle[0]];
		for (unsigned k = 0; k < n; k++) {
			uint64_t v = lc->value[alu->src[i].swizzle[k]];
			double f = ir_float_from_bits(v, lc->def.bit_size);
			folds |= f == 0.0 || f == 1.0 || f == -1.0;
			mixed |= v != first;
		}
		if (folds && mixed)
			return true;
	}
	return false;
}

bool lower_ir3_fold_scalar(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	return lower_alu_to_scalar_filter(s, folds_per_component, NULL);
}
