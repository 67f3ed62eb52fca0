/*
 * After register allocation, the copies meta instructions stand for become
 * real moves (Mesa's ir3_lower_parallelcopy.c): parallel copies, collects
 * (each component into place) and splits.  All of one meta instruction's
 * copies happen at once, so they are sequenced: a copy whose destination no
 * pending copy still reads goes first; what is left is cycles, broken with
 * swaps (`swz` from a5xx, three `xor.b` before).  Every instruction emitted
 * carries (copy): it moves a value and defines none, which is how the
 * register verifier follows values through it.
 *
 * The meta instructions with value destinations stay (they emit nothing) so
 * the verifier can check that the copies did their job; the ones RA made
 * from plain registers go.
 */
#include "compiler/ir3/ir3_passes.h"
#include "compiler/ir3/ir3_ra.h"

#include "compiler/util/array.h"
#include "compiler/util/error.h"

#define HALF_SPACE 1024		/* units of the separate half file (before a6xx) */

struct copy {
	unsigned dst;			/* unit */
	unsigned size;			/* 1 (half) or 2 (full) */
	bool half;
	const struct ir3_register *src;	/* an immediate or a const, or NULL */
	unsigned src_unit;		/* the source unit otherwise */
};

struct copy_ctx {
	struct ir3 *ir;
	bool merged;
	ARRAY(struct copy) pending;
};

static unsigned unit_of(struct copy_ctx *c, unsigned num, bool half)
{
	if (!half)
		return num * 2;
	return c->merged ? num : HALF_SPACE + num;
}

static unsigned num_of(struct copy_ctx *c, unsigned unit, bool half)
{
	if (!half)
		return unit / 2;
	return c->merged ? unit : unit - HALF_SPACE;
}

/* One copy per component from `dst` ← `src`, both `n` components. */
static void add_copy(struct copy_ctx *c, unsigned dst_num, const struct ir3_register *src,
		     unsigned src_num, unsigned n, bool half)
{
	for (unsigned k = 0; k < n; k++) {
		struct copy cp = { .size = half ? 1 : 2, .half = half };
		cp.dst = unit_of(c, dst_num + k, half);
		if (src && (src->flags & (IR3_REG_IMMED | IR3_REG_CONST))) {
			cp.src = src;
		} else {
			cp.src_unit = unit_of(c, src_num + k, half);
			if (cp.src_unit == cp.dst)
				continue;
		}
		array_push(&c->pending, cp);
	}
}

static bool overlaps(unsigned a, unsigned asize, unsigned b, unsigned bsize)
{
	return a < b + bsize && b < a + asize;
}

static struct ir3_instruction *copy_instr(struct copy_ctx *c, struct ir3_instruction *before,
					  enum ir3_opc opc, unsigned ndst, unsigned nsrc)
{
	struct ir3_instruction *i = ir3_instr_new(c->ir, opc, ndst, nsrc);
	i->flags |= IR3_INSTR_COPY;
	ir3_instr_insert_before(before, i);
	return i;
}

static void emit_mov(struct copy_ctx *c, struct ir3_instruction *before, const struct copy *cp)
{
	struct ir3_instruction *mov = copy_instr(c, before, OPC_MOV, 1, 1);
	unsigned hf = cp->half ? IR3_REG_HALF : 0;
	mov->type = mov->dst_type = cp->half ? TYPE_U16 : TYPE_U32;
	ir3_dst_phys(mov, hf, num_of(c, cp->dst, cp->half), 1);
	if (cp->src) {
		struct ir3_register *r = ir3_reg_clone(c->ir, cp->src);
		r->flags = (r->flags & (IR3_REG_IMMED | IR3_REG_CONST | IR3_REG_RELATIV)) | hf;
		r->def = NULL;
		r->pred = NULL;
		r->slot = -1;
		ir3_add_src(mov, r);
		if (r->flags & IR3_REG_RELATIV)
			BUG("relative const in a parallel copy");
	} else {
		ir3_src_phys(mov, hf, num_of(c, cp->src_unit, cp->half), 1);
	}
}

static void emit_swap(struct copy_ctx *c, struct ir3_instruction *before, const struct copy *cp)
{
	unsigned hf = cp->half ? IR3_REG_HALF : 0;
	unsigned a = num_of(c, cp->dst, cp->half), b = num_of(c, cp->src_unit, cp->half);
	if (c->ir->target->has_swz) {
		struct ir3_instruction *swz = copy_instr(c, before, OPC_SWZ, 2, 2);
		swz->type = swz->dst_type = cp->half ? TYPE_U16 : TYPE_U32;
		ir3_dst_phys(swz, hf, a, 1);
		ir3_dst_phys(swz, hf, b, 1);
		ir3_src_phys(swz, hf, b, 1);
		ir3_src_phys(swz, hf, a, 1);
		/* Mesa's do_swap: swz issues as (rpt1), its second write a cycle later */
		swz->repeat = 1;
		return;
	}
	/* a ^= b; b ^= a; a ^= b */
	unsigned order[3][2] = { { a, b }, { b, a }, { a, b } };
	for (int k = 0; k < 3; k++) {
		struct ir3_instruction *x = copy_instr(c, before, OPC_XOR_B, 1, 2);
		ir3_dst_phys(x, hf, order[k][0], 1);
		ir3_src_phys(x, hf, order[k][0], 1);
		ir3_src_phys(x, hf, order[k][1], 1);
	}
}

/* Merged registers: a half swap would cut through a full copy reading half
 * of its register; that copy becomes two half ones (Mesa's split of 32-bit
 * copies; they overlap a half register, so they are in the lower half of
 * the file where half registers exist).  True when it split one. */
static bool split_full_copies(struct copy_ctx *c, const struct copy *half)
{
	bool split = false;
	for (size_t m = 0; m < c->pending.len; m++) {
		struct copy *o = &c->pending.data[m];
		if (o->src || o->size != 2 ||
		    (!overlaps(o->src_unit, 2, half->dst, 1) && !overlaps(o->src_unit, 2, half->src_unit, 1)))
			continue;
		struct copy hi = *o;
		o->size = hi.size = 1;
		o->half = hi.half = true;
		hi.dst++;
		hi.src_unit++;
		array_push(&c->pending, hi);
		split = true;
	}
	return split;
}

/* Sequence the pending copies before `before`. */
static void resolve(struct copy_ctx *c, struct ir3_instruction *before)
{
	while (c->pending.len) {
		bool progress = false;
		for (size_t k = 0; k < c->pending.len;) {
			struct copy *cp = &c->pending.data[k];
			bool blocked = false;
			for (size_t m = 0; m < c->pending.len && !blocked; m++)
				blocked = m != k && !c->pending.data[m].src &&
					  overlaps(c->pending.data[m].src_unit, c->pending.data[m].size,
						   cp->dst, cp->size);
			if (blocked) {
				k++;
				continue;
			}
			emit_mov(c, before, cp);
			c->pending.data[k] = array_last(&c->pending);
			c->pending.len--;
			progress = true;
		}
		if (progress)
			continue;

		/* only cycles remain, and copies of constants into registers a
		 * cycle still reads (a constant is never in a cycle, as Mesa's
		 * lowering does them last): swap the first register copy's two
		 * registers */
		size_t first = 0;
		while (first < c->pending.len && c->pending.data[first].src)
			first++;
		if (first == c->pending.len)
			BUG("parallel copies of constants block one another");
		struct copy cp = c->pending.data[first];
		if (cp.size == 1 && split_full_copies(c, &cp))
			continue;
		emit_swap(c, before, &cp);
		c->pending.data[first] = array_last(&c->pending);
		c->pending.len--;
		for (size_t m = 0; m < c->pending.len; m++) {
			struct copy *o = &c->pending.data[m];
			if (o->src)
				continue;
			if (overlaps(o->src_unit, o->size, cp.dst, cp.size)) {
				if (o->src_unit < cp.dst || o->src_unit + o->size > cp.dst + cp.size)
					BUG("parallel copy swaps a partly overlapping register");
				o->src_unit = o->src_unit - cp.dst + cp.src_unit;
			} else if (overlaps(o->src_unit, o->size, cp.src_unit, cp.size)) {
				if (o->src_unit < cp.src_unit || o->src_unit + o->size > cp.src_unit + cp.size)
					BUG("parallel copy swaps a partly overlapping register");
				o->src_unit = o->src_unit - cp.src_unit + cp.dst;
			}
			if (o->src_unit == o->dst) {
				c->pending.data[m] = array_last(&c->pending);
				c->pending.len--;
				m--;
			}
		}
	}
}

static void lower_pcopy(struct copy_ctx *c, struct ir3_instruction *i)
{
	bool keep = false;
	for (unsigned n = 0; n < i->ndst; n++) {
		struct ir3_register *d = i->dsts[n], *s = i->srcs[n];
		bool half = d->flags & IR3_REG_HALF;
		keep |= (d->flags & IR3_REG_SSA) != 0;
		add_copy(c, d->num, s, s->num, ir3_reg_elems(d), half);
	}
	resolve(c, i);
	if (!keep)
		ir3_instr_remove(i);
}

static void lower_collect(struct copy_ctx *c, struct ir3_instruction *i)
{
	struct ir3_register *d = i->dsts[0];
	bool half = d->flags & IR3_REG_HALF;
	for (unsigned n = 0; n < i->nsrc; n++) {
		if (d->flags & IR3_REG_UNUSED)
			break;
		struct ir3_register *s = i->srcs[n];
		add_copy(c, d->num + n, s, s->num, 1, half);
	}
	resolve(c, i);
}

static void lower_split(struct copy_ctx *c, struct ir3_instruction *i)
{
	struct ir3_register *d = i->dsts[0], *s = i->srcs[0];
	if (d->flags & IR3_REG_UNUSED)
		return;
	add_copy(c, d->num, NULL, s->num + (unsigned)i->off, ir3_reg_elems(d), d->flags & IR3_REG_HALF);
	resolve(c, i);
}

void ir3_lower_copies(struct ir3 *ir)
{
	struct copy_ctx c = { .ir = ir, .merged = ir->target->mergedregs };
	foreach_block(b, ir)
		foreach_instr_safe(i, b) {
			switch (i->opc) {
			case OPC_META_PCOPY:
				if (!(ir->test_break & IR3_BREAK_RA))
					lower_pcopy(&c, i);
				break;
			case OPC_META_COLLECT:
				lower_collect(&c, i);
				break;
			case OPC_META_SPLIT:
				lower_split(&c, i);
				break;
			default:
				break;
			}
		}
	array_free(&c.pending);
}
