/*
 * Selection of the local arrays lower_ir3_locals leaves in registers: each
 * local is one ir3 array (Mesa's nir_lower_locals_to_regs + the array
 * loads and stores of ir3_compiler_nir.c), `array_id` = the local's index,
 * its length in machine components (elements × components × 32-bit words,
 * half for 16-bit and, from a5xx, 1-bit values).  A constant index reads and
 * writes the element directly; a dynamic one goes through a0.x, the index
 * times the element's size (Mesa's create_addr0: cov to s16, shl or mull,
 * mova), shared by the accesses of one block with the same index:
 *
 *	@store_local %v, %i local=0 base=1     h%1 = cov.u32s16 %i
 *	(vec2 locals)                           h%2 = shl.b h%1, 1
 *	                                        a%3 = mova h%2
 *	                                        %4{arr0:8}[a%3 + 2] = mov %v.x, (tied)…
 *
 * A constant-index store of a value nothing else reads, made in the same
 * block by an ALU or SFU instruction, is that instruction's destination
 * (no mov, as Mesa's).  Which version of the array each access reads is
 * left to ir3_array_to_ssa, run once selection is done.
 */
#include "compiler/ir3/ir3_isel.h"

#include <stdlib.h>

#include "compiler/util/error.h"

struct array_shape {
	unsigned stride;	/* machine components per element */
	unsigned words;		/* per component: 2 for 64-bit */
	unsigned size;
	unsigned flags;		/* IR3_REG_HALF or 0 */
};

static struct array_shape shape_of(struct isel *c, const struct local_decl *d)
{
	struct array_shape s;
	s.words = d->bit_size == 64 ? 2 : 1;
	s.stride = d->num_components * s.words;
	s.size = d->num_elements * s.stride;
	s.flags = isel_reg_flags(c, d->bit_size == 64 ? 32 : d->bit_size);
	return s;
}

/* a0.x = index × stride, one mova per block, index and stride. */
static struct ir3_instruction *array_addr(struct isel *c, struct ssa_def *idx, unsigned stride)
{
	for (unsigned k = 0; k < c->num_addrs; k++)
		if (c->addrs[k].idx == idx && c->addrs[k].stride == stride &&
		    c->addrs[k].mova->block == c->b.block)
			return c->addrs[k].mova;
	struct ir3_register *h = ir3_b_cov(&c->b, TYPE_U32, TYPE_S16, isel_get(c, idx)[0]);
	if (stride == 2 || stride == 4)
		h = ir3_b_alu2(&c->b, OPC_SHL_B, h, isel_imm(c, stride == 2 ? 1 : 2, true));
	else if (stride > 1)
		h = ir3_b_alu2(&c->b, OPC_MULL_U, h, isel_imm(c, stride, true));
	struct ir3_instruction *mova = ir3_b_instr(&c->b, OPC_MOVA, 1, 1);
	mova->type = mova->dst_type = TYPE_S16;
	ir3_dst_create(mova, IR3_REG_ADDR, 1);
	ir3_src_ssa(mova, h, 0);
	unsigned slot = c->num_addrs < ISEL_ADDR_CACHE ? c->num_addrs++ : c->next_addr++ % ISEL_ADDR_CACHE;
	c->addrs[slot].idx = idx;
	c->addrs[slot].stride = stride;
	c->addrs[slot].mova = mova;
	return mova;
}

static struct ir3_instruction *array_mov(struct isel *c, const struct array_shape *s)
{
	struct ir3_instruction *i = ir3_b_instr(&c->b, OPC_MOV, 1, 1);
	i->type = i->dst_type = (s->flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32;
	return i;
}

void isel_local(struct isel *c, struct intrinsic_instr *intr)
{
	bool load = intr->op == INTR_load_local;
	unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
	struct array_shape s = shape_of(c, c->s->locals[l]);
	struct src *off = &intr->src[load ? 0 : 1];
	unsigned first = (unsigned)intrinsic_get(intr, INTR_IDX_base) * s.stride;
	struct ir3_instruction *mova = NULL;
	uint32_t co;
	if (isel_src_const(off, 0, &co))
		first += co * s.stride;
	else
		mova = array_addr(c, off->ssa, s.stride);
	unsigned rel = mova ? IR3_REG_RELATIV : 0;
	if (load) {
		struct ir3_register **d = isel_def(c, &intr->def);
		for (unsigned k = 0; k < s.stride; k++) {
			struct ir3_instruction *i = array_mov(c, &s);
			d[k] = ir3_dst_create(i, s.flags, 1);
			struct ir3_register *r = ir3_src_array(i, l, s.size, s.flags | rel);
			r->rel_offset = (int)(first + k);
			i->address = mova;
		}
		return;
	}
	struct ir3_register **v = isel_get(c, intr->src[0].ssa);
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	for (unsigned k = 0; k < s.stride; k++) {
		if (!(mask & (1u << (k / s.words))))
			continue;
		struct ir3_instruction *i = array_mov(c, &s);
		struct ir3_register *d = ir3_dst_array(i, l, s.size, s.flags | rel);
		d->rel_offset = (int)(first + k);
		ir3_src_ssa(i, isel_resize(c, v[k], s.flags & IR3_REG_HALF), 0);
		ir3_src_array(i, l, s.size, s.flags | IR3_REG_TIED);
		i->address = mova;
	}
}

/* Does anything from `from` up to `to` (one block) access array `id`? */
static bool array_touched(const struct ir3_instruction *from, const struct ir3_instruction *to,
			  unsigned id)
{
	for (const struct ir3_instruction *k = from->next; k && k != to; k = k->next) {
		foreach_src(r, k)
			if ((r->flags & IR3_REG_ARRAY) && r->array_id == id)
				return true;
		foreach_dst(d, k)
			if ((d->flags & IR3_REG_ARRAY) && d->array_id == id)
				return true;
	}
	return false;
}

/* A constant-index store of a value only it reads, made by an ALU or SFU
 * instruction of its block: that instruction writes the element itself
 * (Mesa's ir3_create_array_store: "don't create an extra mov"). */
static bool fold_store(struct ir3_instruction *w, const unsigned *uses)
{
	if (w->opc != OPC_MOV || !w->ndst || !w->nsrc)
		return false;
	struct ir3_register *d = w->dsts[0], *v = w->srcs[0];
	if (!ir3_tied_src(w) || (d->flags & IR3_REG_RELATIV) || !v->def ||
	    (v->flags & IR3_REG_MODS) || w->type != w->dst_type)
		return false;
	struct ir3_instruction *p = v->def->instr;
	unsigned cat = ir3_cat(p);
	if (cat < 1 || cat > 4 || p->ndst != 1 || p->block != w->block || p->repeat ||
	    uses[v->def->name] != 1 || ir3_reg_elems(v->def) != 1 || ir3_tied_src(p))
		return false;
	if ((v->def->flags & (IR3_REG_PREDICATE | IR3_REG_ADDR | IR3_REG_SHARED | IR3_REG_ARRAY)) ||
	    (v->def->flags & IR3_REG_HALF) != (d->flags & IR3_REG_HALF))
		return false;
	if (array_touched(p, w, d->array_id))
		return false;
	struct ir3_register *t = ir3_tied_src(w);
	d->instr = p;
	p->dsts[0] = d;
	t->instr = p;
	ir3_add_src(p, t);
	ir3_instr_remove(w);
	return true;
}

void isel_fold_array_stores(struct isel *c)
{
	unsigned *uses = xcalloc(c->ir->ndefs + 1, sizeof(unsigned));
	foreach_block(b, c->ir)
		foreach_instr(i, b) {
			foreach_src(r, i)
				if (r->def)
					uses[r->def->name]++;
			if (i->address && i->address->ndst)
				uses[i->address->dsts[0]->name]++;
		}
	foreach_block(b, c->ir)
		foreach_instr_safe(i, b)
			fold_store(i, uses);
	free(uses);
}
