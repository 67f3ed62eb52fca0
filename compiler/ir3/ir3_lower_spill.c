/*
 * After allocation, the spiller's meta instructions become what the
 * hardware does (targets.md §1.8, Mesa's ir3_lower_spill.c):
 *
 *  - stp/ldp move at most 4 components: a longer value is several of them,
 *    at consecutive registers and offsets;
 *  - the offset field is 13 bits, signed: an access ending at 4096 bytes or
 *    beyond puts the offset in the base register first (`mov base, off`)
 *    and zero back after it (unless the base dies there), 2 more movs.
 *
 *	spill %b:r0.x, %5:r1.x, 6, off=16   →   stp.u32 p[r0.x+16], r1.x, 4
 *	                                         stp.u32 p[r0.x+32], r2.x, 2
 *
 * The pieces keep the value they move (`spill_of`) and from which component
 * (`spill_comp`), for the register verifier; the first is the spill or
 * reload itself, so the value it reloads keeps its definition.
 */
#include "compiler/ir3/ir3_ra.h"

#define MAX_OFFSET (1u << 12)	/* 1 << 12 would read as negative */

static unsigned comp_bytes(const struct ir3_instruction *i)
{
	return i->type == TYPE_U16 ? 2 : 4;
}

static void base_mov(struct ir3_instruction *at, bool after, const struct ir3_register *base,
		     unsigned value)
{
	struct ir3_instruction *mov = ir3_instr_new(at->ir, OPC_MOV, 1, 1);
	mov->type = mov->dst_type = TYPE_U32;
	mov->flags |= IR3_INSTR_COPY;
	ir3_dst_phys(mov, 0, base->num, 1);
	ir3_src_imm(mov, value, 0);
	if (after)
		ir3_instr_insert_after(at, mov);
	else
		ir3_instr_insert_before(at, mov);
}

/* An offset the field cannot hold goes through the base register. */
static unsigned fit_offset(struct ir3_instruction *i, unsigned offset, unsigned n)
{
	if (offset + n * comp_bytes(i) < MAX_OFFSET)
		return offset;
	struct ir3_register *base = i->srcs[0];
	base_mov(i, false, base, offset);
	if (!(base->flags & IR3_REG_KILL))
		base_mov(i, true, base, 0);
	/* the base register holds the offset here, not the value 0 */
	base->def = NULL;
	base->flags &= ~IR3_REG_SSA;
	return 0;
}

/* The first piece is the instruction itself (its value keeps its name);
 * the others follow it. */
static void lower(struct ir3_instruction *i)
{
	bool st = i->opc == OPC_META_SPILL;
	unsigned n = i->srcs[2]->uim, bytes = comp_bytes(i);
	unsigned offset = fit_offset(i, st ? (unsigned)i->off : i->srcs[1]->uim, n);
	struct ir3_register *data = st ? i->srcs[1] : i->dsts[0];
	unsigned fl = data->flags & IR3_REG_HALF;
	struct ir3_instruction *at = i;
	for (unsigned comp = 4; comp < n; comp += 4) {
		unsigned k = n - comp < 4 ? n - comp : 4;
		struct ir3_instruction *p = ir3_instr_new(i->ir, st ? OPC_STP : OPC_LDP, st ? 0 : 1, 3);
		p->type = i->type;
		p->spill_of = i->spill_of;
		p->spill_comp = comp;
		if (!st)
			ir3_dst_phys(p, fl, data->num + comp, k);
		ir3_add_src(p, ir3_reg_clone(i->ir, i->srcs[0]));
		if (st) {
			ir3_src_phys(p, fl, data->num + comp, k);
			p->off = (int)(offset + comp * bytes);
		} else {
			ir3_src_imm(p, offset + comp * bytes, 0);
		}
		ir3_src_imm(p, k, 0);
		ir3_instr_insert_after(at, p);
		at = p;
	}
	i->opc = st ? OPC_STP : OPC_LDP;
	if (n > 4) {
		data->wrmask = 0xf;
		i->srcs[2]->uim = 4;
	}
	if (st)
		i->off = (int)offset;
	else
		i->srcs[1]->uim = offset;
}

void ir3_lower_spill(struct ir3 *ir)
{
	foreach_block(b, ir)
		foreach_instr_safe(i, b)
			if (i->opc == OPC_META_SPILL || i->opc == OPC_META_RELOAD)
				lower(i);
}
