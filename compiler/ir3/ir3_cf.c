/*
 * Conversion folding (Mesa's ir3_cf.c, try_conversion_folding): ir3's
 * float ALU instructions may write a destination of the other size than
 * their operands, converting the result, so a value computed at one
 * precision only to be converted to the other needs no cov of its own:
 *
 *	%1 = mul.f %0, c0.x              %1 = mul.f hr, %0, c0.x
 *	%2 = cov.f32f16 hr, %1     →     (the uses of %2 read %1)
 *
 *	%4 = add.f hr, %3, hc0.x         %4 = add.f r, %3, hc0.x
 *	%5 = cov.f16f32 r, %4      →     (the uses of %5 read %4)
 *
 * when every use of the value is such a conversion (mediump outputs and
 * operations, lower_ir3_mediump_io, and f2f16/f2f32 of results).  The
 * instructions that convert their output are Mesa's ir3_output_conv_type
 * list for floats: add.f, mul.f, mad.f16/f32, bary.f; an instruction that
 * already converts is left.  Integer truncations (its add.u, shl.b … list)
 * are left: nothing here narrows integers that way.  Not on a4xx
 * (`fold_conversions`), where Mesa's folding "doesn't seem to work
 * reliably".
 */
#include "compiler/ir3/ir3.h"

#include <stdint.h>

static bool converts_output(const struct ir3_instruction *i)
{
	switch (i->opc) {
	case OPC_ADD_F: case OPC_MUL_F: case OPC_MAD_F16: case OPC_MAD_F32: case OPC_BARY_F:
		return true;
	default:
		return false;
	}
}

/* cov.f32f16 or cov.f16f32 of a register value, without modifiers */
static bool is_fp_conv(const struct ir3_instruction *i)
{
	if (i->opc != OPC_MOV || i->ndst != 1 || i->nsrc != 1 || (i->flags & IR3_INSTR_SAT))
		return false;
	bool narrows = i->type == TYPE_F32 && i->dst_type == TYPE_F16;
	if (!narrows && !(i->type == TYPE_F16 && i->dst_type == TYPE_F32))
		return false;
	const struct ir3_register *s = i->srcs[0], *d = i->dsts[0];
	return s->def && (bool)(d->flags & IR3_REG_HALF) == narrows &&
	       (bool)(s->flags & IR3_REG_HALF) == !narrows &&
	       !(s->flags & ~(IR3_REG_SSA | IR3_REG_HALF)) &&
	       !(d->flags & (IR3_REG_SHARED | IR3_REG_ARRAY | IR3_REG_RELATIV));
}

/* Whether the instruction computes at the size it writes (bary.f at 32
 * bits; otherwise at its first source's size, Mesa's
 * ir3_output_conv_src_type): one that already converts its output is not
 * folded again (Mesa's src_type != dst_type). */
static bool writes_own_size(const struct ir3_instruction *i)
{
	bool dst_half = i->dsts[0]->flags & IR3_REG_HALF;
	if (i->opc == OPC_BARY_F)
		return !dst_half;
	return i->nsrc && (bool)(i->srcs[0]->flags & IR3_REG_HALF) == dst_half;
}

/* Whether only conversions read what `i` computes: `data` of every
 * instruction is 1 until something else reads it (NULL), and 2 once its
 * conversions are folded. */
static bool only_converted(const struct ir3_instruction *i)
{
	return (uintptr_t)i->data == 1;
}

/* A conversion its producer now makes: marked (3) before any source is
 * rewritten, so that a chain of conversions folds only its first. */
static bool folded_conv(const struct ir3_instruction *i)
{
	return (uintptr_t)i->data == 3;
}

bool ir3_cf(struct ir3 *ir)
{
	if (!ir->target->fold_conversions)
		return false;
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = (void *)(uintptr_t)1;
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (i->address)
				i->address->data = NULL;
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *d = i->srcs[n]->def;
				if (d && !(is_fp_conv(i) && d == d->instr->dsts[0]))
					d->instr->data = NULL;
			}
		}
	bool progress = false;
	foreach_block(b, ir)
		foreach_instr(conv, b) {
			if (!is_fp_conv(conv))
				continue;
			struct ir3_register *v = conv->srcs[0]->def;
			struct ir3_instruction *p = v->instr;
			if (!converts_output(p) || p->ndst != 1 || !only_converted(p) ||
			    (v->flags & (IR3_REG_SHARED | IR3_REG_ARRAY)) || p->repeat ||
			    !writes_own_size(p))
				continue;
			/* every conversion of it goes the same way: the value's size */
			if (conv->dsts[0]->flags & IR3_REG_HALF)
				v->flags |= IR3_REG_HALF;
			else
				v->flags &= ~IR3_REG_HALF;
			p->data = (void *)(uintptr_t)2;	/* folded: its covs read it as they are */
			progress = true;
		}
	if (!progress)
		return false;
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (is_fp_conv(i) && (uintptr_t)i->srcs[0]->def->instr->data == 2)
				i->data = (void *)(uintptr_t)3;
	/* the uses of a folded cov read the producer's converted value */
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				if (s->def && folded_conv(s->def->instr))
					s->def = s->def->instr->srcs[0]->def;
			}
	foreach_block(b, ir)
		foreach_instr_safe(i, b)
			if (folded_conv(i))
				ir3_instr_remove(i);
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = NULL;
	return true;
}
