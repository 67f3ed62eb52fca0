/*
 * opt_phi_precision (Mesa's nir_opt_phi_precision, which ir3 runs in its
 * optimisation loop on fragment and compute shaders): a 32-bit phi between
 * 16-bit values becomes a 16-bit phi, so a loop or an if over mediump
 * values keeps them in half registers instead of converting on every edge.
 *
 *  - Narrowing the result: when every use of the phi is the same narrowing
 *    conversion, each source is narrowed where it is defined and the uses
 *    read the narrow phi:
 *
 *	32 %p = phi b1: %a, b3: %b           16 %q = phi b1: f2f16(%a), b3: f2f16(%b)
 *	16 %n = f2f16 %p               →     (the uses of %n read %q)
 *
 *  - Widening after the phi: when every source is the same widening of a
 *    16-bit value, or a constant that narrows without loss, the phi takes
 *    the 16-bit values and one widening follows it:
 *
 *	32 %p = phi b1: f2f32(%a), b3: 1.0   16 %q = phi b1: %a, b3: 1.0 (16-bit)
 *	                               →     32 %p' = f2f32 %q
 *
 * The narrowings and widenings this leaves beside others fold away
 * (opt_algebraic: f2f16(f2f32(a@16)) is a).  Conversions of floats (f2f16,
 * f2f32) and of integers (i2i16, u2u16; i2i32, u2u32) between 16 and 32
 * bits.  Only fragment and compute shaders, as ir3 (its other stages'
 * lowering trips over late narrowed phis in Mesa; nothing is 16-bit there
 * here either).
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

static bool is_narrowing(enum alu_op op)
{
	return op == OP_f2f16 || op == OP_i2i16 || op == OP_u2u16;
}

static bool is_widening(enum alu_op op)
{
	return op == OP_f2f32 || op == OP_i2i32 || op == OP_u2u32;
}

/* The conversion `d` is, of a 16-bit value to 32 bits, or OP_mov. */
static enum alu_op widening_of(const struct ssa_def *d)
{
	if (d->parent->type != INSTR_alu)
		return OP_mov;
	const struct alu_instr *a = instr_as_alu(d->parent);
	return is_widening(a->op) && a->src[0].src.ssa->bit_size == 16 ? a->op : OP_mov;
}

/* Constant component `v` (32 bits) as 16 bits, when `op` widens it back
 * to itself. */
static bool narrows_exactly(uint64_t v, enum alu_op op, uint64_t *out)
{
	v &= 0xffffffffu;
	switch (op) {
	case OP_f2f32: {
		double f = ir_float_from_bits(v, 32);
		uint64_t h = ir_float_to_bits(f, 16);
		*out = h;
		return f != f ? false : ir_float_to_bits(ir_float_from_bits(h, 16), 32) == v;
	}
	case OP_i2i32:
		*out = v & 0xffff;
		return (int32_t)v == (int16_t)(v & 0xffff);
	default:	/* u2u32 */
		*out = v;
		return v <= 0xffff;
	}
}

static struct phi_instr *new_phi_like(struct shader *s, struct phi_instr *phi)
{
	struct phi_instr *q = phi_instr_create(s);
	ssa_def_init(&q->instr, &q->def, phi->def.num_components, 16);
	return q;
}

/* `op` of `v`; of a vecN, component by component (as in Mesa's scalar
 * code, where each narrowing meets its component's widening and folds) */
static struct ssa_def *narrowed(struct builder *b, enum alu_op op, struct ssa_def *v)
{
	struct alu_instr *a = v->parent->type == INSTR_alu ? instr_as_alu(v->parent) : NULL;
	if (!a || (a->op != OP_vec2 && a->op != OP_vec3 && a->op != OP_vec4))
		return b_alu(b, op, v, NULL, NULL, NULL);
	struct ssa_def *c[4];
	for (unsigned k = 0; k < v->num_components; k++)
		c[k] = b_alu(b, op, b_channel(b, a->src[k].src.ssa, a->src[k].swizzle[0]), NULL,
			     NULL, NULL);
	return b_vec(b, c, v->num_components);
}

static bool narrow_result(struct shader *s, struct phi_instr *phi)
{
	enum alu_op op = OP_mov;
	bool any = false;
	foreach_use(use, &phi->def) {
		if (use->parent_if || use->parent_instr->type != INSTR_alu)
			return false;
		const struct alu_instr *a = instr_as_alu(use->parent_instr);
		if (!is_narrowing(a->op) || (any && a->op != op))
			return false;
		op = a->op;
		any = true;
	}
	if (!any)
		return false;
	struct phi_instr *q = new_phi_like(s, phi);
	struct builder b;
	foreach_phi_src(ps, phi) {
		struct ssa_def *v = ps->src.ssa;
		struct instr *at = v->parent;
		builder_init(&b, s, at->type == INSTR_phi ? cursor_after_phis(at->block)
							  : cursor_after_instr(at));
		phi_add_src(q, ps->pred, narrowed(&b, op, v));
	}
	instr_insert(cursor_before_instr(&phi->instr), &q->instr);
	/* each conversion becomes a mov of the narrow phi, through its swizzle */
	foreach_use_safe(use, &phi->def) {
		struct alu_instr *a = instr_as_alu(use->parent_instr);
		a->op = OP_mov;
		src_rewrite(&a->src[0].src, &q->def);
	}
	instr_remove(&phi->instr);
	return true;
}

static bool widen_after(struct shader *s, struct phi_instr *phi)
{
	enum alu_op op = OP_mov;
	foreach_phi_src(ps, phi) {
		struct ssa_def *v = ps->src.ssa;
		if (ssa_def_as_const(v) && v->parent->type == INSTR_load_const)
			continue;
		enum alu_op w = widening_of(v);
		if (w == OP_mov || (op != OP_mov && w != op))
			return false;
		op = w;
	}
	if (op == OP_mov)
		return false;
	uint64_t h[16];
	foreach_phi_src(ps, phi) {
		struct load_const_instr *k = ssa_def_as_const(ps->src.ssa);
		for (unsigned c = 0; k && c < phi->def.num_components; c++)
			if (!narrows_exactly(k->value[c], op, &h[c]))
				return false;
	}
	struct phi_instr *q = new_phi_like(s, phi);
	struct builder b;
	foreach_phi_src(ps, phi) {
		struct ssa_def *v = ps->src.ssa;
		struct load_const_instr *k = ssa_def_as_const(v);
		struct ssa_def *n;
		if (k) {
			for (unsigned c = 0; c < phi->def.num_components; c++)
				narrows_exactly(k->value[c], op, &h[c]);
			builder_init(&b, s, cursor_after_instr(v->parent));
			n = b_const(&b, phi->def.num_components, 16, h);
		} else {
			struct alu_instr *a = instr_as_alu(v->parent);
			n = a->src[0].src.ssa;
			bool same = n->num_components == phi->def.num_components;
			unsigned sw[16];
			for (unsigned c = 0; c < phi->def.num_components; c++) {
				sw[c] = a->src[0].swizzle[c];
				same &= sw[c] == c;
			}
			if (!same) {
				builder_init(&b, s, cursor_after_instr(v->parent));
				n = b_swizzle(&b, n, sw, phi->def.num_components);
			}
		}
		phi_add_src(q, ps->pred, n);
	}
	instr_insert(cursor_before_instr(&phi->instr), &q->instr);
	builder_init(&b, s, cursor_after_phis(phi->instr.block));
	struct ssa_def *wide = b_alu(&b, op, &q->def, NULL, NULL, NULL);
	ssa_def_rewrite_uses(&phi->def, wide);
	instr_remove(&phi->instr);
	return true;
}

bool opt_phi_precision(struct shader *s)
{
	if (s->stage != STAGE_FRAGMENT && s->stage != STAGE_COMPUTE)
		return false;
	bool progress = false;
	foreach_block(blk, s->fn)
		foreach_instr_safe(i, blk) {
			if (i->type != INSTR_phi)
				break;
			struct phi_instr *phi = instr_as_phi(i);
			if (phi->def.bit_size != 32)
				continue;
			progress |= narrow_result(s, phi) || widen_after(s, phi);
		}
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
