/*
 * lower_etna_int_to_float: HALTI0 has no integer ALU (no_integers), so
 * integer arithmetic becomes float arithmetic (Mesa's nir_lower_int_to_float;
 * ../../shared/reference/targets.md §4.3).  Integers are then floats
 * holding whole numbers: the constants an integer op reads become floats,
 * conversions between the two are moves or truncations.
 *
 *	iadd isub imul ineg iabs isign   →  fadd fsub fmul fneg fabs fsign
 *	imin/umin imax/umax              →  fmin fmax
 *	ilt/ult ige/uge ieq ine          →  flt fge feq fneu
 *	idiv/udiv                        →  ftrunc(fdiv)
 *	i2f32 u2f32 b2i32                →  mov, b2f32
 *	f2i32 f2u32                      →  ftrunc
 *	imul24                           →  fmul
 *	ishl a, #c                       →  fmul a, 2^c
 *	ushr/ishr a, #c                  →  ffloor(fmul a, 2^-c)
 *
 * (shifts by a constant the shader wrote; multiplies and divisions by
 * powers of two stay as they are: the optimiser makes no shifts of them,
 * as Mesa's with lower_bitops).
 * The rest — bitwise ops on 32-bit values, shifts, remainders — have no
 * float form: selection refuses them by name.  Booleans stay booleans
 * (selection gives them 0.0/1.0: nir_lower_bool_to_float).
 */
#include "compiler/etna/etna_nir.h"
#include "compiler/ir/builder.h"

static enum alu_op float_op(enum alu_op op)
{
	switch (op) {
	case OP_iadd: return OP_fadd;
	case OP_isub: return OP_fsub;
	case OP_imul: case OP_imul24: return OP_fmul;
	case OP_ineg: return OP_fneg;
	case OP_iabs: return OP_fabs;
	case OP_isign: return OP_fsign;
	case OP_imin: case OP_umin: return OP_fmin;
	case OP_imax: case OP_umax: return OP_fmax;
	case OP_ilt: case OP_ult: return OP_flt;
	case OP_ige: case OP_uge: return OP_fge;
	case OP_ieq: return OP_feq;
	case OP_ine: return OP_fneu;
	case OP_i2f32: case OP_u2f32: return OP_mov;
	case OP_b2i32: return OP_b2f32;
	case OP_f2i32: case OP_f2u32: return OP_ftrunc;
	case OP_idiv: case OP_udiv: return OP_fdiv;
	default: return OP_COUNT;
	}
}

/* The integer constants the op reads, as floats. */
static void float_consts(struct builder *b, struct alu_instr *alu, enum alu_op old)
{
	const struct alu_op_info *info = &alu_op_infos[old];
	for (unsigned i = 0; i < info->num_inputs; i++) {
		enum base_type t = alu_type_base(info->input_types[i]);
		struct load_const_instr *lc = ssa_def_as_const(alu->src[i].src.ssa);
		if ((t != BASE_int && t != BASE_uint) || !lc || lc->instr.type != INSTR_load_const ||
		    lc->def.bit_size != 32)
			continue;
		uint64_t v[16];
		for (unsigned k = 0; k < lc->def.num_components; k++)
			v[k] = ir_float_to_bits(t == BASE_int ? (double)(int32_t)lc->value[k]
							     : (double)(uint32_t)lc->value[k], 32);
		src_rewrite(&alu->src[i].src, b_const(b, lc->def.num_components, 32, v));
	}
}

/* Only 32-bit values (and booleans) have a float form. */
static bool sizes_32(const struct alu_instr *alu)
{
	if (alu->def.bit_size != 32 && alu->def.bit_size != 1)
		return false;
	for (unsigned i = 0; i < alu_op_infos[alu->op].num_inputs; i++) {
		unsigned b = alu->src[i].src.ssa->bit_size;
		if (b != 32 && b != 1)
			return false;
	}
	return true;
}

/* A shift by one constant amount as a multiply by its power of two. */
static struct ssa_def *shift_by_const(struct builder *b, struct alu_instr *alu)
{
	if (alu->op != OP_ishl && alu->op != OP_ushr && alu->op != OP_ishr)
		return NULL;
	struct load_const_instr *lc = ssa_def_as_const(alu->src[1].src.ssa);
	if (!lc || lc->instr.type != INSTR_load_const)
		return NULL;
	unsigned n = alu->def.num_components;
	uint32_t amount = (uint32_t)lc->value[alu->src[1].swizzle[0]] & 31;
	for (unsigned k = 1; k < n; k++)
		if (((uint32_t)lc->value[alu->src[1].swizzle[k]] & 31) != amount)
			return NULL;
	unsigned sw[16];
	for (unsigned k = 0; k < n; k++)
		sw[k] = alu->src[0].swizzle[k];
	struct ssa_def *a = b_swizzle(b, alu->src[0].src.ssa, sw, n);
	if (alu->op == OP_ishl)
		return b_fmul(b, a, b_imm_float(b, (double)(1u << amount)));
	return b_ffloor(b, b_fmul(b, a, b_imm_float(b, 1.0 / (double)(1u << amount))));
}

bool lower_etna_int_to_float(struct shader *s, const struct etna_lowering *t)
{
	bool progress = false;
	struct builder b;
	if (t->has_integers)
		return false;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_alu)
				continue;
			struct alu_instr *alu = instr_as_alu(in);
			if (alu->def.bit_size == 32 && sizes_32(alu)) {
				builder_init(&b, s, cursor_before_instr(in));
				struct ssa_def *r = shift_by_const(&b, alu);
				if (r) {
					ssa_def_rewrite_uses(&alu->def, r);
					instr_remove(in);
					progress = true;
					continue;
				}
			}
			enum alu_op op = float_op(alu->op);
			if (op == OP_COUNT || !sizes_32(alu))
				continue;
			builder_init(&b, s, cursor_before_instr(in));
			float_consts(&b, alu, alu->op);
			enum alu_op old = alu->op;
			alu->op = op;
			if (old == OP_idiv || old == OP_udiv) {
				builder_init(&b, s, cursor_after_instr(in));
				struct ssa_def *tr = b_ftrunc(&b, &alu->def);
				ssa_def_rewrite_uses_after(&alu->def, tr, tr->parent);
			}
			progress = true;
		}
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
