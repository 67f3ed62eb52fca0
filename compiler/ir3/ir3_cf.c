/*
 * Conversion folding (Mesa's ir3_cf.c, try_conversion_folding): ir3's
 * float ALU instructions may write a half register from full-precision
 * operands, converting the result, so a value computed at 32 bits only to
 * be narrowed to 16 needs no cov of its own:
 *
 *	%1 = mul.f %0, c0.x              %1 = mul.f hr, %0, c0.x
 *	%2 = cov.f32f16 hr, %1     →     (the uses of %2 read %1)
 *
 * when every use of the value is such a narrowing (mediump outputs,
 * lower_ir3_mediump_io, and f2f16 of 32-bit results).  The instructions
 * that convert their output are Mesa's ir3_output_conv_type list for
 * floats: add.f, mul.f, mad.f32, bary.f.  Integer truncations (its add.u,
 * shl.b … list) are left: nothing here narrows integers that way.  Not on
 * a4xx (`fold_conversions`), where Mesa's folding "doesn't seem to work
 * reliably".
 */
#include "compiler/ir3/ir3.h"

#include <stdint.h>

static bool converts_output(const struct ir3_instruction *i)
{
	switch (i->opc) {
	case OPC_ADD_F: case OPC_MUL_F: case OPC_MAD_F32: case OPC_BARY_F:
		return true;
	default:
		return false;
	}
}

/* cov.f32f16 of a full register value, without modifiers */
static bool is_f16_conv(const struct ir3_instruction *i)
{
	if (i->opc != OPC_MOV || i->type != TYPE_F32 || i->dst_type != TYPE_F16 || i->ndst != 1 ||
	    i->nsrc != 1 || (i->flags & IR3_INSTR_SAT))
		return false;
	const struct ir3_register *s = i->srcs[0], *d = i->dsts[0];
	return s->def && (d->flags & IR3_REG_HALF) && !(s->flags & ~IR3_REG_SSA) &&
	       !(d->flags & (IR3_REG_SHARED | IR3_REG_ARRAY | IR3_REG_RELATIV));
}

/* Whether only f16 conversions read what `i` computes: `data` of every
 * instruction is 1 until something else reads it (NULL), and 2 once its
 * conversions are folded. */
static bool only_converted(const struct ir3_instruction *i)
{
	return (uintptr_t)i->data == 1;
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
				if (d && !(is_f16_conv(i) && d == d->instr->dsts[0]))
					d->instr->data = NULL;
			}
		}
	bool progress = false;
	foreach_block(b, ir)
		foreach_instr(conv, b) {
			if (!is_f16_conv(conv))
				continue;
			struct ir3_register *v = conv->srcs[0]->def;
			struct ir3_instruction *p = v->instr;
			if (!converts_output(p) || p->ndst != 1 || !only_converted(p) ||
			    (v->flags & (IR3_REG_HALF | IR3_REG_SHARED | IR3_REG_ARRAY)) || p->repeat)
				continue;
			v->flags |= IR3_REG_HALF;
			p->data = (void *)(uintptr_t)2;	/* folded: its covs read it as they are */
			progress = true;
		}
	if (!progress)
		return false;
	/* the uses of a folded cov read the producer's (now half) value */
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				struct ir3_instruction *c = s->def ? s->def->instr : NULL;
				if (!c || !is_f16_conv(c) || (uintptr_t)c->srcs[0]->def->instr->data != 2)
					continue;
				s->def = c->srcs[0]->def;
			}
	foreach_block(b, ir)
		foreach_instr_safe(i, b)
			if (is_f16_conv(i) && (uintptr_t)i->srcs[0]->def->instr->data == 2)
				ir3_instr_remove(i);
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = NULL;
	return true;
}
