/*
 * Copy propagation (Mesa's ir3_cp.c rules, targets.md §1.5): a source that
 * reads a same-type mov (or absneg, or single-source phi) reads the mov's
 * source instead, with the abs/neg modifiers combined, whenever the
 * consumer's slot may carry the result:
 *
 *	%1 = mov.f32f32 c2.x          %3 = add.f %0, c2.x
 *	%2 = absneg.f (neg)%0    →    %4 = mul.f (neg)%0, %3
 *	%3 = add.f %0, %1
 *	%4 = mul.f %2, %3
 *
 * Consts and immediates only go where ir3_valid_flags allows them: one const
 * per cat2, none in cat3 src1 nor in cat4.  An immediate that does not encode
 * (outside −512..511, or a float outside the float table for float ALU ops)
 * is moved to the const file instead when a const fits (lower_immed), which
 * grows constlen.  A mad whose src1 would take a const may swap src0/src1.
 * Flow instructions take no const or immediate.  A mov of an array element
 * is read through: its consumer reads r<arr + k> (or r<a0.x + k>) itself
 * when nothing writes the array between them.  The movs left without users
 * are removed by ir3_dce.
 */
#include "compiler/ir3/ir3.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cp_ctx {
	struct ir3 *ir;
	unsigned max_const;		/* vec4 the stage may use */
	bool progress;
};

/* ir3_valid_flags, and no relative source where the target folds none
 * (Mesa's ir3_valid_flags refuses RELATIV before a6xx; the movs selection
 * makes still read c<a0.x + n> themselves). */
static bool valid_flags(const struct ir3_instruction *i, unsigned n, unsigned flags)
{
	if ((flags & IR3_REG_RELATIV) && !i->ir->target->folds_relative)
		return false;
	return ir3_valid_flags(i, n, flags);
}

/* The flags a source gets when it reads through `mov` (Mesa's combine_flags). */
static unsigned combine_flags(unsigned dst, const struct ir3_instruction *mov)
{
	unsigned src = mov->srcs[0]->flags;
	if (dst & IR3_REG_FABS)
		src &= ~IR3_REG_FNEG;
	if (dst & IR3_REG_SABS)
		src &= ~IR3_REG_SNEG;
	if (src & IR3_REG_FABS)
		dst |= IR3_REG_FABS;
	if (src & IR3_REG_SABS)
		dst |= IR3_REG_SABS;
	dst ^= src & (IR3_REG_FNEG | IR3_REG_SNEG | IR3_REG_BNOT);
	dst &= ~(IR3_REG_SSA | IR3_REG_HALF);
	dst |= src & (IR3_REG_SSA | IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_RELATIV |
		      IR3_REG_SHARED | IR3_REG_HALF);
	return dst;
}

/* Source `n` of `i` becomes `r`, keeping where it comes from (phis) and
 * where it goes (outputs). */
static void replace_src(struct ir3_instruction *i, unsigned n, struct ir3_register *r)
{
	r->instr = i;
	r->def = NULL;
	r->pred = i->srcs[n]->pred;
	r->slot = i->srcs[n]->slot;
	i->srcs[n] = r;
}

static float half_to_float(uint32_t h)
{
	unsigned sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
	float f;
	if (exp == 0)
		f = ldexpf((float)mant, -24);
	else if (exp == 31)
		f = mant ? NAN : INFINITY;
	else
		f = ldexpf((float)(mant | 0x400), (int)exp - 25);
	return sign ? -f : f;
}

static bool float_op(const struct ir3_instruction *i)
{
	return (ir3_cat(i) == 2 || ir3_cat(i) == 3) && ir3_has_flag(i, IR3_OP_FLOAT);
}

/* Move an immediate to the const file when the slot takes a const. */
static bool lower_immed(struct cp_ctx *c, struct ir3_instruction *i, unsigned n,
			const struct ir3_register *imm, unsigned flags)
{
	if (!(flags & IR3_REG_IMMED))
		return false;
	flags = (flags & ~IR3_REG_IMMED) | IR3_REG_CONST;
	if (!valid_flags(i, n, flags))
		return false;

	uint32_t bits = imm->uim;
	/* half consts hold 32-bit values for float opcodes */
	if (float_op(i) && (flags & IR3_REG_HALF)) {
		float f = half_to_float(bits);
		memcpy(&bits, &f, 4);
	}
	/* abs/neg with a const are evaluated instead */
	if (flags & IR3_REG_SABS) {
		bits = (uint32_t)abs((int32_t)bits);
		flags &= ~IR3_REG_SABS;
	}
	if (flags & (IR3_REG_FABS | IR3_REG_FNEG)) {
		float f;
		memcpy(&f, &bits, 4);
		if (flags & IR3_REG_FABS)
			f = fabsf(f);
		if (flags & IR3_REG_FNEG)
			f = -f;
		memcpy(&bits, &f, 4);
		flags &= ~(IR3_REG_FABS | IR3_REG_FNEG);
	}
	if (flags & IR3_REG_SNEG) {
		bits = (uint32_t)-(int32_t)bits;
		flags &= ~IR3_REG_SNEG;
	}

	bool known = false;
	for (unsigned k = 0; k < c->ir->nimmediates; k++)
		known |= c->ir->immediates[k] == bits;
	if (!known && c->ir->const_size + c->ir->nimmediates / 4 >= c->max_const)
		return false;

	struct ir3_register *r = ir3_reg_clone(c->ir, imm);
	r->flags = flags;
	r->num = ir3_const_add_imm(c->ir, bits);
	replace_src(i, n, r);
	return true;
}

/* A plain mad's src1 cannot be const: try swapping src0 and src1. */
static bool try_swap_mad(struct ir3_instruction *i, unsigned flags)
{
	if (!ir3_has_flag(i, IR3_OP_MAD) || !ir3_has_flag(i, IR3_OP_COMM) || i->data)
		return false;
	if (flags & IR3_REG_IMMED)
		flags = (flags & ~IR3_REG_IMMED) | IR3_REG_CONST;
	if (!(flags & IR3_REG_CONST))
		return false;
	i->data = i;		/* swap once */
	struct ir3_register *t = i->srcs[0];
	i->srcs[0] = i->srcs[1];
	i->srcs[1] = t;
	if (valid_flags(i, 0, flags) && valid_flags(i, 1, i->srcs[1]->flags))
		return true;
	i->srcs[1] = i->srcs[0];
	i->srcs[0] = t;
	return false;
}

/* Narrowing a 32-bit const to 16 bits only works for float ops (f16) or
 * non-float users (u16) (Mesa's reg_cp). */
static bool const_narrowing_ok(const struct ir3_instruction *i, const struct ir3_instruction *mov)
{
	if (mov->dst_type == TYPE_F16) {
		if (ir3_is_meta(i))
			return false;
		if (i->opc == OPC_MOV)
			return ir3_type_is_float(i->type);
		return float_op(i);
	}
	if (mov->dst_type == TYPE_U16 || mov->dst_type == TYPE_S16) {
		if (float_op(i))
			return false;
		if (i->opc == OPC_MOV && ir3_type_is_float(i->type))
			return false;
	}
	return true;
}

static bool fold_const_or_imm(struct cp_ctx *c, struct ir3_instruction *i, unsigned n,
			      const struct ir3_instruction *mov)
{
	struct ir3_register *reg = i->srcs[n];
	const struct ir3_register *src = mov->srcs[0];
	unsigned flags = combine_flags(reg->flags, mov);
	/* a narrowing mov: the user reads the const at its own size */
	flags = (flags & ~IR3_REG_HALF) | (mov->dsts[0]->flags & IR3_REG_HALF);

	if (ir3_is_flow(i))
		return false;
	if (!valid_flags(i, n, flags)) {
		if (lower_immed(c, i, n, src, flags))
			return true;
		return n == 1 && try_swap_mad(i, flags);
	}

	if (src->flags & IR3_REG_CONST) {
		if ((src->flags & IR3_REG_RELATIV) && i->address && i->address != mov->address)
			return false;
		/* a0.x is set per block: a relative read stays in its mova's block */
		if ((src->flags & IR3_REG_RELATIV) && mov->block != i->block)
			return false;
		/* a hardware quirk: relative const with offset 0 in cat3 src2 */
		if (ir3_cat(i) == 3 && n == 2 && (src->flags & IR3_REG_RELATIV) && src->rel_offset == 0)
			return false;
		if (!const_narrowing_ok(i, mov))
			return false;
		struct ir3_register *r = ir3_reg_clone(c->ir, src);
		r->flags = flags;
		replace_src(i, n, r);
		if (src->flags & IR3_REG_RELATIV)
			i->address = mov->address;
		return true;
	}

	/* an immediate */
	int32_t v = src->iim;
	if (ir3_cat(i) == 2 && float_op(i)) {
		if (ir3_flut(src->uim, src->flags & IR3_REG_HALF) < 0)
			return lower_immed(c, i, n, src, flags);
	} else {
		if (flags & IR3_REG_SABS)
			v = abs(v);
		if (flags & IR3_REG_SNEG)
			v = -v;
		if (flags & IR3_REG_BNOT)
			v = ~v;
		flags &= ~(IR3_REG_SABS | IR3_REG_SNEG | IR3_REG_BNOT);
	}
	struct ir3_register *r = ir3_reg_clone(c->ir, src);
	r->flags = flags;
	r->iim = v;
	r->instr = i;
	if (!valid_flags(i, n, flags) || !ir3_imm_encodable(i, r))
		return lower_immed(c, i, n, src, flags);
	replace_src(i, n, r);
	return true;
}

/* A mov of one array element: %d = mov r<arr + k>. */
static bool is_array_read(const struct ir3_instruction *mov)
{
	if (mov->opc != OPC_MOV || mov->type != mov->dst_type || mov->repeat || mov->ndst != 1 ||
	    mov->nsrc != 1)
		return false;
	const struct ir3_register *d = mov->dsts[0], *s = mov->srcs[0];
	return ir3_reg_is_array_access(s) && !(d->flags & (IR3_REG_ARRAY | IR3_REG_SHARED)) &&
	       (d->flags & IR3_REG_HALF) == (s->flags & IR3_REG_HALF);
}

/* No write of `version` from `mov` up to `i` (both in one block). */
static bool version_kept(const struct ir3_instruction *mov, const struct ir3_instruction *i,
			 const struct ir3_register *version)
{
	for (const struct ir3_instruction *k = mov->next; k && k != i; k = k->next) {
		const struct ir3_register *t = ir3_tied_src(k);
		if (t && t->def == version)
			return false;
	}
	return true;
}

/* The consumer reads the element itself (Mesa's reg_cp takes the array
 * source over): an ALU or SFU instruction in the mov's block, with no write
 * of the array between, not another array write, and one a0.x per
 * instruction. */
static bool fold_array_read(struct ir3_instruction *i, unsigned n, const struct ir3_instruction *mov)
{
	struct ir3_register *reg = i->srcs[n];
	const struct ir3_register *src = mov->srcs[0];
	/* ALU and SFU read one component of each source (a cat5/cat6 source
	 * may be a vector) */
	if (ir3_cat(i) < 1 || ir3_cat(i) > 4 || i->repeat || ir3_tied_src(i) ||
	    mov->block != i->block)
		return false;
	if (reg->flags & IR3_REG_MODS)
		return false;
	bool rel = src->flags & IR3_REG_RELATIV;
	if (rel && i->address && i->address != mov->address)
		return false;
	for (unsigned k = 0; k < i->ndst && rel; k++)
		if (i->dsts[k]->flags & IR3_REG_RELATIV)
			return false;
	if (!valid_flags(i, n, src->flags & (IR3_REG_RELATIV | IR3_REG_HALF)))
		return false;
	if (!version_kept(mov, i, src->def))
		return false;
	struct ir3_register *r = ir3_reg_clone(i->ir, src);
	r->instr = i;
	r->pred = reg->pred;
	r->slot = reg->slot;
	i->srcs[n] = r;
	if (rel)
		i->address = mov->address;
	return true;
}

/* A narrowing mov of a const (Mesa's is_const_mov): c0.x read as hc0.x
 * does the same with the constant demotion the driver enables, where the
 * user allows it (const_narrowing_ok). */
static bool is_const_narrowing(const struct ir3_instruction *mov)
{
	if (mov->opc != OPC_MOV || mov->repeat || mov->ndst != 1 || mov->nsrc != 1 ||
	    !(mov->srcs[0]->flags & IR3_REG_CONST) || (mov->flags & IR3_INSTR_SAT))
		return false;
	if (mov->dsts[0]->flags & (IR3_REG_RELATIV | IR3_REG_SHARED | IR3_REG_ARRAY))
		return false;
	return (mov->type == TYPE_F32 && mov->dst_type == TYPE_F16) ||
	       (mov->type == TYPE_U32 && mov->dst_type == TYPE_U16) ||
	       (mov->type == TYPE_S32 && mov->dst_type == TYPE_S16);
}

static bool reg_cp(struct cp_ctx *c, struct ir3_instruction *i, unsigned n)
{
	struct ir3_register *reg = i->srcs[n];
	const struct ir3_instruction *mov = reg->def->instr;

	if (is_array_read(mov))
		return fold_array_read(i, n, mov);

	if (is_const_narrowing(mov))
		return fold_const_or_imm(c, i, n, mov);
	if (!ir3_is_same_type_mov(mov) || ir3_writes_addr(mov))
		return false;
	/* don't fold abs/neg into meta instructions */
	if (ir3_is_meta(i) && mov->opc != OPC_MOV && mov->opc != OPC_META_PHI)
		return false;
	const struct ir3_register *src = mov->srcs[0];
	if (src->flags & IR3_REG_SSA) {
		if (!src->def || (src->flags & IR3_REG_RELATIV))
			return false;
		unsigned flags = combine_flags(reg->flags, mov);
		if (!valid_flags(i, n, flags))
			return false;
		reg->flags = flags;
		reg->def = src->def;
		reg->wrmask = src->def->wrmask;
		return true;
	}
	if (!(src->flags & (IR3_REG_CONST | IR3_REG_IMMED)) || mov->opc != OPC_MOV)
		return false;
	return fold_const_or_imm(c, i, n, mov);
}

/* cmps.s.ne p0.x, %c, 0 where %c is itself a compare: compare directly. */
static bool fold_double_cmp(struct ir3_instruction *i)
{
	if (i->opc != OPC_CMPS_S || i->cond != COND_NE || !ir3_writes_pred(i))
		return false;
	struct ir3_register *a = i->srcs[0], *b = i->srcs[1];
	if (!a->def || !(b->flags & IR3_REG_IMMED) || b->iim != 0)
		return false;
	struct ir3_instruction *cmp = a->def->instr;
	if (cmp->opc != OPC_CMPS_F && cmp->opc != OPC_CMPS_U && cmp->opc != OPC_CMPS_S)
		return false;
	if (cmp->address && cmp->block != i->block)
		return false;
	i->opc = cmp->opc;
	i->cond = cmp->cond;
	i->flags = (i->flags & ~IR3_INSTR_SAT) | (cmp->flags & IR3_INSTR_SAT);
	i->address = cmp->address;
	for (unsigned k = 0; k < 2; k++) {
		i->srcs[k] = ir3_reg_clone(i->ir, cmp->srcs[k]);
		i->srcs[k]->instr = i;
	}
	return true;
}

/* A u32→u16 mov of an immediate becomes a same-type mov of the narrowed value. */
static bool narrow_imm_mov(struct ir3_instruction *i)
{
	if (i->opc != OPC_MOV || !(i->srcs[0]->flags & IR3_REG_IMMED) || i->type == i->dst_type)
		return false;
	bool s32 = i->type == TYPE_U32 || i->type == TYPE_S32;
	bool d16 = i->dst_type == TYPE_U16 || i->dst_type == TYPE_S16;
	bool d32 = i->dst_type == TYPE_U32 || i->dst_type == TYPE_S32;
	if (!(s32 || i->type == TYPE_U16 || i->type == TYPE_S16) || !(d16 || d32))
		return false;
	struct ir3_register *s = i->srcs[0];
	if (d16) {
		s->uim &= 0xffff;
		s->flags |= IR3_REG_HALF;
	} else {
		s->flags &= ~IR3_REG_HALF;
	}
	i->type = i->dst_type;
	return true;
}

static unsigned stage_max_const(const struct ir3 *ir)
{
	const struct ir3_info *t = ir->target;
	if (!t)
		return 512;
	return ir3_stage_max_const(ir->stage, t->max_const_geom, t->max_const_frag,
				   t->max_const_compute);
}

bool ir3_opt_cp(struct ir3 *ir)
{
	struct cp_ctx c = { .ir = ir, .max_const = stage_max_const(ir) };
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = NULL;
	foreach_block(b, ir) {
		foreach_instr(i, b) {
			bool again = true;
			while (again) {
				again = false;
				for (unsigned n = 0; n < i->nsrc; n++) {
					struct ir3_register *r = i->srcs[n];
					if (!r->def || !(r->flags & IR3_REG_SSA))
						continue;
					if (reg_cp(&c, i, n)) {
						again = true;
						c.progress = true;
					}
				}
			}
			if (fold_double_cmp(i) || narrow_imm_mov(i))
				c.progress = true;
		}
	}
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = NULL;
	return c.progress;
}
