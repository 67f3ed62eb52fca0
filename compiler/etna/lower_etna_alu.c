/*
 * lower_etna_alu: the ALU ops etnaviv has no instruction for, as Mesa's
 * NIR options for it rewrite them (etna_compiler_create, lower_* flags and
 * nir_opt_algebraic's rules; ../../shared/reference/targets.md §4.3):
 *
 *	fsub a, b        →  fadd a, -b          (NIR has no fsub)
 *	isub a, b        →  iadd a, ineg b
 *	ftrunc a         →  bcsel(a < 0, -floor|a|, floor|a|)   (lower_ftrunc)
 *	fround_even a    →  fract(a) == 0.5 ? floor(a + 0.5) + 1 : floor(a + 0.5)
 *	                                                         (lower_fround_even, as
 *	                                                          nir_opt_algebraic_late has it)
 *	ball_fequalN     →  one vector compare, its components iand'ed
 *	bany_fnequalN       (lower_vector_cmp, after nir_opt_vectorize)
 *	fltu/fgeu/…      →  inot of the ordered compare
 *	f2b1, i2b1       →  fneu / ine with 0
 *
 * The scalar-only ops are lower_etna_scalar's; fdiv, fpow, flrp, fmod and
 * the integer divisions are the generic passes' (compiler/opt).
 */
#include "compiler/etna/etna_nir.h"
#include "compiler/ir/builder.h"

static struct ssa_def *src(struct builder *b, struct alu_instr *alu, unsigned i)
{
	unsigned n = alu_op_infos[alu->op].input_sizes[i];
	n = n ? n : alu->def.num_components;
	struct ssa_def *d = alu->src[i].src.ssa;
	unsigned sw[16];
	bool identity = d->num_components == n;
	for (unsigned k = 0; k < n; k++) {
		sw[k] = alu->src[i].swizzle[k];
		identity &= sw[k] == k;
	}
	return identity ? d : b_swizzle(b, d, sw, n);
}

/* cmp over whole vectors, then the components joined. */
static struct ssa_def *all_any(struct builder *b, struct alu_instr *alu, enum alu_op cmp,
			       enum alu_op join)
{
	struct ssa_def *c = b_alu(b, cmp, src(b, alu, 0), src(b, alu, 1), NULL, NULL);
	struct ssa_def *acc = b_channel(b, c, 0);
	for (unsigned k = 1; k < c->num_components; k++)
		acc = b_alu(b, join, acc, b_channel(b, c, k), NULL, NULL);
	return acc;
}

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->def.bit_size != 32 && alu->def.bit_size != 1)
		return NULL;
	switch (alu->op) {
	case OP_fsub:
		return b_fadd(b, src(b, alu, 0), b_fneg(b, src(b, alu, 1)));
	case OP_isub:
		return b_iadd(b, src(b, alu, 0), b_ineg(b, src(b, alu, 1)));
	case OP_ftrunc: {
		struct ssa_def *a = src(b, alu, 0);
		struct ssa_def *f = b_ffloor(b, b_fabs(b, a));
		return b_bcsel(b, b_flt(b, a, b_imm_float(b, 0.0)), b_fneg(b, f), f);
	}
	case OP_fround_even: {
		/* nir_opt_algebraic_late's approximation for DX9-class
		 * hardware: a half goes up, a half a second time up */
		struct ssa_def *a = src(b, alu, 0);
		struct ssa_def *f = b_ffloor(b, b_fadd(b, a, b_imm_float(b, 0.5)));
		return b_bcsel(b, b_feq(b, b_ffract(b, a), b_imm_float(b, 0.5)),
			       b_fadd(b, f, b_imm_float(b, 1.0)), f);
	}
	case OP_ball_fequal2: case OP_ball_fequal3: case OP_ball_fequal4:
		return all_any(b, alu, OP_feq, OP_iand);
	case OP_bany_fnequal2: case OP_bany_fnequal3: case OP_bany_fnequal4:
		return all_any(b, alu, OP_fneu, OP_ior);
	case OP_ball_iequal2: case OP_ball_iequal3: case OP_ball_iequal4:
		return all_any(b, alu, OP_ieq, OP_iand);
	case OP_bany_inequal2: case OP_bany_inequal3: case OP_bany_inequal4:
		return all_any(b, alu, OP_ine, OP_ior);
	case OP_fltu: return b_inot(b, b_fge(b, src(b, alu, 0), src(b, alu, 1)));
	case OP_fgeu: return b_inot(b, b_flt(b, src(b, alu, 0), src(b, alu, 1)));
	case OP_fequ: return b_inot(b, b_fneu(b, src(b, alu, 0), src(b, alu, 1)));
	case OP_fneo: return b_inot(b, b_feq(b, src(b, alu, 0), src(b, alu, 1)));
	case OP_f2b1:
		return b_fneu(b, src(b, alu, 0), b_imm_float(b, 0.0));
	case OP_i2b1:
		return b_ine(b, src(b, alu, 0), b_imm_int(b, 0));
	default:
		return NULL;
	}
}

bool lower_etna_alu(struct shader *s, const struct etna_lowering *t)
{
	(void)t;
	return shader_progress(s, b_lower_alus(s, lower, NULL), META_BLOCK_INDEX | META_DOMINANCE);
}
