/*
 * Conversion folding (Mesa's ir3_cf.c, try_conversion_folding): ir3's
 * ALU instructions may write a destination of the other size than their
 * operands, converting the result, so a value computed at one size only to
 * be converted to the other needs no cov of its own:
 *
 *	%1 = mul.f %0, c0.x              %1 = mul.f hr, %0, c0.x
 *	%2 = cov.f32f16 hr, %1     →     (the uses of %2 read %1)
 *
 *	%4 = add.f hr, %3, hc0.x         %4 = add.f r, %3, hc0.x
 *	%5 = cov.f16f32 r, %4      →     (the uses of %5 read %4)
 *
 *	%6 = and.b hr, %5, %4            %6 = and.b r, %5, %4
 *	%7 = cov.u16u32 r, %6      →     (a boolean a 32-bit sel reads)
 *
 * when every use of the value is the same such conversion (mediump
 * outputs and operations, lower_ir3_mediump_io; f2f16/f2f32 of results;
 * booleans widened for sel.b32).  The instructions that convert their
 * output are Mesa's ir3_output_conv_type list: add.f, mul.f, mad.f16/f32
 * and bary.f convert floats; add.u, sub.u, min/max.u, the bitwise ops,
 * mul.u24, mull.u, the shifts, mad.u24 and the comparisons zero-extend or
 * truncate (a comparison's operands may be of any size); add.s, sub.s,
 * min/max.s, absneg.s, mul.s24 and mad.s24 sign-extend or truncate.  A
 * conversion folds where its source type is the instruction's (a
 * narrowing of either signedness; a widening of the other signedness
 * swaps add.u/add.s and sub.u/sub.s), not a widening of a mul.x24's 16-bit
 * result, nor into a mad.x24; an instruction that already converts is
 * left.  Not on a4xx (`fold_conversions`), where Mesa's folding "doesn't
 * seem to work reliably".
 */
#include "compiler/ir3/ir3.h"

#include <stdint.h>

enum conv_kind { KIND_NONE, KIND_F, KIND_U, KIND_S };

/* What an instruction's output conversion does (Mesa's
 * ir3_output_conv_type). */
static enum conv_kind output_kind(const struct ir3_instruction *i)
{
	switch (i->opc) {
	case OPC_ADD_F: case OPC_MUL_F: case OPC_MAD_F16: case OPC_MAD_F32: case OPC_BARY_F:
		return KIND_F;
	case OPC_ADD_U: case OPC_SUB_U: case OPC_MIN_U: case OPC_MAX_U: case OPC_AND_B:
	case OPC_OR_B: case OPC_NOT_B: case OPC_XOR_B: case OPC_MUL_U24: case OPC_MULL_U:
	case OPC_SHL_B: case OPC_SHR_B: case OPC_ASHR_B: case OPC_MAD_U24: case OPC_SHRM:
	case OPC_SHLM: case OPC_SHRG: case OPC_SHLG: case OPC_ANDG:
	case OPC_CMPS_F: case OPC_CMPV_F: case OPC_CMPS_U: case OPC_CMPS_S:
		return KIND_U;
	case OPC_ADD_S: case OPC_SUB_S: case OPC_MIN_S: case OPC_MAX_S: case OPC_ABSNEG_S:
	case OPC_MUL_S24: case OPC_MAD_S24:
		return KIND_S;
	default:
		return KIND_NONE;
	}
}

static enum conv_kind type_kind(enum ir3_type t)
{
	return ir3_type_is_float(t) ? KIND_F
	       : (t == TYPE_S16 || t == TYPE_S32) ? KIND_S : KIND_U;
}

/* A mov between the 16- and 32-bit forms of one type (cov.f32f16,
 * cov.u16u32 …) of a register value, without modifiers. */
static bool is_size_conv(const struct ir3_instruction *i)
{
	if (i->opc != OPC_MOV || i->ndst != 1 || i->nsrc != 1 || (i->flags & IR3_INSTR_SAT))
		return false;
	if (i->type == TYPE_U8 || i->type == TYPE_S8 || i->dst_type == TYPE_U8 ||
	    i->dst_type == TYPE_S8 || type_kind(i->type) != type_kind(i->dst_type))
		return false;
	bool narrows = !ir3_type_is_half(i->type) && ir3_type_is_half(i->dst_type);
	if (!narrows && !(ir3_type_is_half(i->type) && !ir3_type_is_half(i->dst_type)))
		return false;
	const struct ir3_register *s = i->srcs[0], *d = i->dsts[0];
	return s->def && (bool)(d->flags & IR3_REG_HALF) == narrows &&
	       (bool)(s->flags & IR3_REG_HALF) == !narrows &&
	       !(s->flags & ~(IR3_REG_SSA | IR3_REG_HALF)) &&
	       !(d->flags & (IR3_REG_SHARED | IR3_REG_ARRAY | IR3_REG_RELATIV));
}

static bool is_compare(const struct ir3_instruction *i)
{
	return i->opc == OPC_CMPS_F || i->opc == OPC_CMPV_F || i->opc == OPC_CMPS_U ||
	       i->opc == OPC_CMPS_S;
}

/* Whether the instruction computes at the size it writes (bary.f at 32
 * bits, a comparison at its result's; otherwise at its first source's
 * size, Mesa's ir3_output_conv_src_type): one that already converts its
 * output is not folded again (Mesa's src_type != dst_type). */
static bool writes_own_size(const struct ir3_instruction *i)
{
	bool dst_half = i->dsts[0]->flags & IR3_REG_HALF;
	if (i->opc == OPC_BARY_F)
		return !dst_half;
	if (is_compare(i))
		return true;
	return i->nsrc && (bool)(i->srcs[0]->flags & IR3_REG_HALF) == dst_half;
}

/* add.u/add.s and sub.u/sub.s of the other signedness (the same bits),
 * or 0; not with (sat), which saturates differently. */
static enum ir3_opc swapped_opc(const struct ir3_instruction *p)
{
	if (p->flags & IR3_INSTR_SAT)
		return (enum ir3_opc)0;
	switch (p->opc) {
	case OPC_ADD_U: return OPC_ADD_S;
	case OPC_ADD_S: return OPC_ADD_U;
	case OPC_SUB_U: return OPC_SUB_S;
	case OPC_SUB_S: return OPC_SUB_U;
	default: return (enum ir3_opc)0;
	}
}

/* Whether `conv` (every use of `p` is like it) can be made by `p`
 * (Mesa's is_safe_conv). */
static bool foldable(const struct ir3_instruction *p, const struct ir3_instruction *conv)
{
	enum conv_kind k = output_kind(p);
	if (k == KIND_NONE || p->ndst != 1 || p->repeat || !writes_own_size(p))
		return false;
	if (p->dsts[0]->flags & (IR3_REG_SHARED | IR3_REG_ARRAY))
		return false;
	bool widens = ir3_type_is_half(conv->type);
	if ((k == KIND_F) != (type_kind(conv->type) == KIND_F))
		return false;
	/* signedness matters when widening only, and then add and sub take
	 * the other one (Mesa's ir3_try_swap_signedness) */
	if (widens && k != KIND_F && type_kind(conv->type) != k && !swapped_opc(p))
		return false;
	if ((p->opc == OPC_MUL_S24 || p->opc == OPC_MUL_U24) && widens)
		return false;
	return p->opc != OPC_MAD_S24 && p->opc != OPC_MAD_U24;
}

/* The readers of every instruction, summed up in its `data`: 1 until
 * something reads it, the conversion reading it while all its readers are
 * that same conversion, NULL once something else (or another conversion)
 * does; then 2 once its conversion is folded. */
#define UNREAD ((void *)(uintptr_t)1)
#define FOLDED ((void *)(uintptr_t)2)
#define GONE ((void *)(uintptr_t)3)

static void note_reader(struct ir3_instruction *p, struct ir3_instruction *reader)
{
	if (p->data == UNREAD && is_size_conv(reader)) {
		p->data = reader;
		return;
	}
	const struct ir3_instruction *c = p->data;
	if (c && c != UNREAD && is_size_conv(reader) && c->type == reader->type &&
	    c->dst_type == reader->dst_type)
		return;
	p->data = NULL;
}

bool ir3_cf(struct ir3 *ir)
{
	if (!ir->target->fold_conversions)
		return false;
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = UNREAD;
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (i->address)
				i->address->data = NULL;
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *d = i->srcs[n]->def;
				if (!d)
					continue;
				if (d == d->instr->dsts[0] && d->instr->ndst == 1)
					note_reader(d->instr, i);
				else
					d->instr->data = NULL;
			}
		}
	bool progress = false;
	foreach_block(b, ir)
		foreach_instr(p, b) {
			struct ir3_instruction *conv = p->data;
			if (conv == UNREAD || !conv || conv == FOLDED || !foldable(p, conv))
				continue;
			/* a widening of the other signedness: the other opcode */
			if (ir3_type_is_half(conv->type) && output_kind(p) != KIND_F &&
			    type_kind(conv->type) != output_kind(p))
				p->opc = swapped_opc(p);
			/* the value's size is the conversion's */
			if (conv->dsts[0]->flags & IR3_REG_HALF)
				p->dsts[0]->flags |= IR3_REG_HALF;
			else
				p->dsts[0]->flags &= ~IR3_REG_HALF;
			p->data = FOLDED;
			progress = true;
		}
	if (!progress)
		return false;
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (is_size_conv(i) && i->srcs[0]->def->instr->data == FOLDED)
				i->data = GONE;
	/* the uses of a folded cov read the producer's converted value */
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (s->def && s->def->instr->data == GONE)
					s->def = s->def->instr->srcs[0]->def;
			}
	foreach_block(b, ir)
		foreach_instr_safe(i, b)
			if (i->data == GONE)
				ir3_instr_remove(i);
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = NULL;
	return true;
}
