/*
 * lower_bitfield: bitfield extract and insert with shifts, masks and a
 * select (ir3 lowers them; targets.md §2.1), keeping the folder's answers
 * (alu_ops.def) where SPIR-V leaves them open: a count of 0, or an offset
 * and count outside the value, extract 0 and insert nothing.  For a value
 * of W bits, with offset o and count n (32-bit, signed):
 *
 *	valid      = (n - 1 <u W) & (o <=u W - n)	1 <= n <= W, 0 <= o <= W - n
 *	ubfe       = valid ? (base << (W - o - n)) >>u (W - n) : 0
 *	ibfe       = the same with an arithmetic shift
 *	bfi        = valid ? (base & ~m) | ((ins << o) & m) : base,
 *		     m = (~0 >>u (W - n)) << o
 *
 * Every shift count is below W where it matters.  Exact.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

static struct ssa_def *field_valid(struct builder *b, unsigned w, struct ssa_def *o,
				   struct ssa_def *n)
{
	struct ssa_def *wide = b_imm_int(b, w);
	struct ssa_def *n_minus_1 = b_isub(b, n, b_imm_int(b, 1));
	struct ssa_def *n_ok = b_ult(b, n_minus_1, wide);
	struct ssa_def *room = b_isub(b, wide, n);
	struct ssa_def *o_ok = b_uge(b, room, o);
	return b_iand(b, n_ok, o_ok);
}

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	(void)data;
	enum alu_op op = alu->op;
	if (op != OP_ubitfield_extract && op != OP_ibitfield_extract && op != OP_bitfield_insert)
		return NULL;
	unsigned w = alu->def.bit_size;
	struct ssa_def *base = b_alu_src(b, alu, 0);
	if (op == OP_bitfield_insert) {
		struct ssa_def *ins = b_alu_src(b, alu, 1);
		struct ssa_def *o = b_alu_src(b, alu, 2);
		struct ssa_def *n = b_alu_src(b, alu, 3);
		struct ssa_def *valid = field_valid(b, w, o, n);
		struct ssa_def *ones = b_imm_intN(b, -1, w);
		struct ssa_def *low = b_ushr(b, ones, b_isub(b, b_imm_int(b, w), n));
		struct ssa_def *m = b_ishl(b, low, o);
		struct ssa_def *kept = b_iand(b, base, b_inot(b, m));
		struct ssa_def *put = b_iand(b, b_ishl(b, ins, o), m);
		return b_bcsel(b, valid, b_ior(b, kept, put), base);
	}
	struct ssa_def *o = b_alu_src(b, alu, 1);
	struct ssa_def *n = b_alu_src(b, alu, 2);
	struct ssa_def *valid = field_valid(b, w, o, n);
	struct ssa_def *wide = b_imm_int(b, w);
	struct ssa_def *up = b_isub(b, b_isub(b, wide, o), n);
	struct ssa_def *down = b_isub(b, wide, n);
	struct ssa_def *top = b_ishl(b, base, up);
	struct ssa_def *field = op == OP_ubitfield_extract ? b_ushr(b, top, down) : b_ishr(b, top, down);
	return b_bcsel(b, valid, field, b_imm_intN(b, 0, w));
}

bool lower_bitfield(struct shader *s)
{
	return shader_progress(s, lower_alu_instrs(s, lower, NULL), META_CONTROL_FLOW);
}
