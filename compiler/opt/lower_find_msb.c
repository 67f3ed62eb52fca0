/*
 * lower_find_msb: the bit-scan ops through a count of leading zeros, for
 * targets whose only bit-scan instruction is uclz (Vivante's LEADZERO):
 * NIR's lower_find_lsb, lower_ifind_msb and lower_ufind_msb with has_uclz,
 * which etnaviv sets (targets.md §4.3).  32-bit sources only.
 *
 *	find_lsb x    →  ufind_msb(x & -x)             (the lowest set bit alone)
 *	ifind_msb x   →  ufind_msb(x < 0 ? ~x : x)     (the highest bit unlike the sign)
 *	ufind_msb x   →  31 - uclz(x)                  (uclz(0) = 32: -1 when none)
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *ufind_msb(struct builder *b, struct ssa_def *x)
{
	return b_isub(b, b_imm_int(b, 31), b_uclz(b, x));
}

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	if (alu->op != OP_find_lsb && alu->op != OP_ifind_msb && alu->op != OP_ufind_msb)
		return NULL;
	if (alu->src[0].src.ssa->bit_size != 32)
		return NULL;
	struct ssa_def *x = b_alu_src(b, alu, 0);
	switch (alu->op) {
	case OP_find_lsb:
		return ufind_msb(b, b_iand(b, x, b_ineg(b, x)));
	case OP_ifind_msb:
		return ufind_msb(b, b_bcsel(b, b_ilt(b, x, b_imm_int(b, 0)), b_inot(b, x), x));
	default:
		return ufind_msb(b, x);
	}
}

bool lower_find_msb(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
