/*
 * lower_alu_to_scalar: split vector ALU instructions into one instruction
 * per component gathered by a vecN, for scalar ISAs such as ir3's
 * (NIR's nir_lower_alu_to_scalar; targets.md §2.1).
 *
 *	32x3 %3 = fadd %1, %2.zyx	=>	32 %4 = fadd %1.x, %2.z
 *						32 %5 = fadd %1.y, %2.y
 *						32 %6 = fadd %1.z, %2.x
 *						32x3 %3' = vec3 %4, %5, %6
 *
 * Per-component opcodes split one component at a time.  Horizontal
 * reductions become scalar chains in the folder's order, so they keep
 * its results: fdotN is ((a0*b0 + a1*b1) + a2*b2) + …, ball_/bany_ are
 * comparisons joined by iand/ior.  (fdot on 16-bit floats is left alone:
 * the folder rounds it to half once, a chain of half operations would
 * round at every step.)  Moves, vecN and packing keep their vectors.
 * Copy propagation then reads the components straight from the vecN.
 *
 * lower_alu_to_scalar_filter() takes a callback that says which
 * instructions to split, for a target that keeps some vector operations.
 */
#include "compiler/opt/opt.h"
#include "compiler/opt/opt_util.h"

struct scalar_filter {
	alu_scalar_filter_fn fn;
	const void *data;
};

/* Component `c` of ALU source `k` as a one-component source of `to`. */
static void set_channel(struct alu_instr *to, unsigned to_src, struct alu_instr *from,
			unsigned k, unsigned c)
{
	src_init(&to->src[to_src].src, &to->instr, from->src[k].src.ssa);
	to->src[to_src].swizzle[0] = from->src[k].swizzle[c];
}

static struct ssa_def *channel_op(struct builder *b, struct alu_instr *alu, unsigned c)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	struct alu_instr *n = alu_instr_create(b->shader, alu->op);
	for (unsigned k = 0; k < info->num_inputs; k++)
		set_channel(n, k, alu, k, c);
	n->exact = alu->exact;
	n->mediump = alu->mediump;
	n->no_signed_wrap = alu->no_signed_wrap;
	n->no_unsigned_wrap = alu->no_unsigned_wrap;
	ssa_def_init(&n->instr, &n->def, 1, alu->def.bit_size);
	b_insert(b, &n->instr);
	return &n->def;
}

/* A one-component binary op of channel c of both sources of `alu`. */
static struct ssa_def *pair_op(struct builder *b, enum alu_op op, struct alu_instr *alu,
			       unsigned c)
{
	struct alu_instr *n = alu_instr_create(b->shader, op);
	set_channel(n, 0, alu, 0, c);
	set_channel(n, 1, alu, 1, c);
	n->exact = alu->exact;
	n->mediump = alu->mediump;
	unsigned bits = alu_type_bits(alu_op_infos[op].output_type);
	ssa_def_init(&n->instr, &n->def, 1, bits ? bits : alu->src[0].src.ssa->bit_size);
	b_insert(b, &n->instr);
	return &n->def;
}

/* A horizontal reduction: its per-channel op and how the channels join,
 * both named after the folder's expression (alu_ops.def). */
static bool reduction(enum alu_op op, enum alu_op *each, enum alu_op *join)
{
	switch (op) {
	case OP_fdot2: case OP_fdot3: case OP_fdot4:
		*each = OP_fmul, *join = OP_fadd;
		return true;
	case OP_ball_fequal2: case OP_ball_fequal3: case OP_ball_fequal4:
		*each = OP_feq, *join = OP_iand;
		return true;
	case OP_bany_fnequal2: case OP_bany_fnequal3: case OP_bany_fnequal4:
		*each = OP_fneu, *join = OP_ior;
		return true;
	case OP_ball_iequal2: case OP_ball_iequal3: case OP_ball_iequal4:
		*each = OP_ieq, *join = OP_iand;
		return true;
	case OP_bany_inequal2: case OP_bany_inequal3: case OP_bany_inequal4:
		*each = OP_ine, *join = OP_ior;
		return true;
	default:
		return false;
	}
}

static struct ssa_def *lower(struct builder *b, struct alu_instr *alu, const void *data)
{
	const struct scalar_filter *f = data;
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	enum alu_op each, join;

	if (f->fn && !f->fn(alu, f->data))
		return NULL;
	if (info->output_size && reduction(alu->op, &each, &join)) {
		if (each == OP_fmul && alu->src[0].src.ssa->bit_size == 16)
			return NULL;
		struct ssa_def *acc = pair_op(b, each, alu, 0);
		for (unsigned c = 1; c < info->input_sizes[0]; c++)
			acc = b_alu(b, join, acc, pair_op(b, each, alu, c), NULL, NULL);
		return acc;
	}
	if (info->output_size || alu->def.num_components == 1 || alu->op == OP_mov)
		return NULL;
	struct ssa_def *chan[16];
	for (unsigned c = 0; c < alu->def.num_components; c++)
		chan[c] = channel_op(b, alu, c);
	return b_vec(b, chan, alu->def.num_components);
}

bool lower_alu_to_scalar_filter(struct shader *s, alu_scalar_filter_fn fn, const void *data)
{
	struct scalar_filter f = { fn, data };
	return shader_progress(s, lower_alu_instrs(s, lower, &f), META_CONTROL_FLOW);
}

bool lower_alu_to_scalar(struct shader *s)
{
	return lower_alu_to_scalar_filter(s, NULL, NULL);
}
