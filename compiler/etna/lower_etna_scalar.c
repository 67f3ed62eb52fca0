/*
 * lower_etna_scalar: the ops the Vivante hardware computes for one
 * component only, split per component (Mesa's etna_alu_to_scalar_filter_cb
 * with nir_lower_alu_to_scalar, ../../shared/reference/targets.md §4.1):
 * frsq, frcp, flog2, fexp2, fsqrt, fsin, fcos, fdiv, imul, the vector
 * compares, and fdot2 before HALTI2 (then a multiply and an add).
 */
#include "compiler/etna/etna_nir.h"
#include "compiler/opt/opt.h"

static bool scalar_only(const struct alu_instr *alu, const void *data)
{
	const struct etna_lowering *t = data;
	switch (alu->op) {
	case OP_frsq: case OP_frcp: case OP_flog2: case OP_fexp2: case OP_fsqrt:
	case OP_fsin: case OP_fcos: case OP_fdiv: case OP_imul: case OP_imul24:
		return alu->def.num_components > 1;
	case OP_ball_fequal2: case OP_ball_fequal3: case OP_ball_fequal4:
	case OP_bany_fnequal2: case OP_bany_fnequal3: case OP_bany_fnequal4:
	case OP_ball_iequal2: case OP_ball_iequal3: case OP_ball_iequal4:
	case OP_bany_inequal2: case OP_bany_inequal3: case OP_bany_inequal4:
		return true;
	case OP_fdot2:
		return !t->has_halti2_instructions;
	default:
		return false;
	}
}

bool lower_etna_scalar(struct shader *s, const struct etna_lowering *t)
{
	return lower_alu_to_scalar_filter(s, scalar_only, t);
}
