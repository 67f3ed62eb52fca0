/*
 * ir3_array_to_ssa: selection writes array accesses (ir3_isel_local.c)
 * that name an array but not which version of it they read.  Here every
 * write becomes a new SSA value of the whole array, and every read, and
 * every write's (tied) source, the version that reaches it, as Mesa's
 * ir3_array_to_ssa (the construction of Braun et al., "Simple and
 * Efficient Construction of SSA Form": a block's incoming version is its
 * one predecessor's outgoing one, or a phi where several meet; trivial phis
 * are removed afterwards).  Where nothing wrote the array yet, an `undef`
 * defines it: in the first block just before the access, or at the end of
 * the block a phi's source comes from.
 *
 * The versions never interfere (each write consumes the one before it), so
 * register allocation gives a write the register of its tied source.
 */
#include "compiler/ir3/ir3.h"

#include <stdlib.h>

#include "compiler/util/error.h"

struct arr_state {
	struct ir3_register *in, *out;	/* version at the block's start / end */
	bool has_in, has_out;
};

struct a2s {
	struct ir3 *ir;
	unsigned narr;
	struct ir3_register **shape;	/* by array: one register naming it */
	struct arr_state *st;		/* block × array */
};

static struct arr_state *state(struct a2s *c, struct ir3_block *b, unsigned a)
{
	return &c->st[b->index * c->narr + a];
}

static struct ir3_register *undef_before(struct a2s *c, unsigned a, struct ir3_instruction *pos,
					 struct ir3_block *b)
{
	struct ir3_instruction *u = ir3_instr_new(c->ir, OPC_META_UNDEF, 1, 0);
	if (pos)
		ir3_instr_insert_before(pos, u);
	else
		ir3_instr_insert_before_terminator(b, u);
	const struct ir3_register *s = c->shape[a];
	return ir3_dst_array(u, a, s->size, s->flags & IR3_REG_HALF);
}

static struct ir3_register *version_at_start(struct a2s *c, struct ir3_block *b, unsigned a,
					     struct ir3_instruction *pos);

static struct ir3_register *version_at_end(struct a2s *c, struct ir3_block *b, unsigned a)
{
	struct arr_state *s = state(c, b, a);
	if (!s->has_out) {
		s->out = version_at_start(c, b, a, NULL);
		s->has_out = true;
	}
	return s->out;
}

static struct ir3_register *version_at_start(struct a2s *c, struct ir3_block *b, unsigned a,
					     struct ir3_instruction *pos)
{
	struct arr_state *s = state(c, b, a);
	if (s->has_in)
		return s->in;
	if (b->npreds == 0) {
		s->in = undef_before(c, a, pos, b);
	} else if (b->npreds == 1) {
		/* any cycle back here passes a join, which made its phi first */
		struct ir3_register *v = version_at_end(c, b->preds[0], a);
		s = state(c, b, a);
		if (!s->has_in)
			s->in = v;
	} else {
		const struct ir3_register *sh = c->shape[a];
		struct ir3_register *phi = ir3_b_phi(b, (sh->flags & IR3_REG_HALF) | IR3_REG_ARRAY, 1);
		phi->array_id = a;
		phi->size = sh->size;
		s->in = phi;
		s->has_in = true;
		for (unsigned p = 0; p < b->npreds; p++)
			ir3_phi_add_src(phi, b->preds[p], version_at_end(c, b->preds[p], a));
	}
	s->has_in = true;
	return s->in;
}

static bool is_array_phi(const struct ir3_instruction *i)
{
	return i->opc == OPC_META_PHI && (i->dsts[0]->flags & IR3_REG_ARRAY);
}

/* The one value a phi merges (other than itself), or NULL. */
static struct ir3_register *trivial_value(struct ir3_instruction *phi)
{
	struct ir3_register *v = NULL;
	for (unsigned n = 0; n < phi->nsrc; n++) {
		struct ir3_register *d = phi->srcs[n]->def;
		if (d == phi->dsts[0] || d == v)
			continue;
		if (v)
			return NULL;
		v = d;
	}
	return v;
}

static void replace_uses(struct ir3 *ir, struct ir3_register *from, struct ir3_register *to)
{
	foreach_block(b, ir)
		foreach_instr(i, b)
			foreach_src(r, i)
				if (r->def == from)
					r->def = to;
}

static void remove_trivial_phis(struct ir3 *ir)
{
	bool progress = true;
	while (progress) {
		progress = false;
		foreach_block(b, ir)
			foreach_instr_safe(i, b) {
				if (!is_array_phi(i))
					continue;
				struct ir3_register *v = trivial_value(i);
				if (!v)
					continue;
				replace_uses(ir, i->dsts[0], v);
				ir3_instr_remove(i);
				progress = true;
			}
	}
}

static void rename_block(struct a2s *c, struct ir3_block *b, struct ir3_register **cur)
{
	for (unsigned a = 0; a < c->narr; a++)
		cur[a] = NULL;
	foreach_instr_safe(i, b) {
		if (i->opc == OPC_META_PHI || i->opc == OPC_META_UNDEF)
			continue;
		foreach_src(r, i) {
			if (!(r->flags & IR3_REG_ARRAY) || r->def)
				continue;
			unsigned a = r->array_id;
			if (!cur[a])
				cur[a] = version_at_start(c, b, a, i);
			r->def = cur[a];
		}
		foreach_dst(d, i)
			if (d->flags & IR3_REG_ARRAY)
				cur[d->array_id] = d;
	}
}

void ir3_array_to_ssa(struct ir3 *ir)
{
	struct a2s c = { .ir = ir };
	ir3_index_blocks(ir);
	foreach_block(b, ir)
		foreach_instr(i, b) {
			foreach_src(r, i)
				if ((r->flags & IR3_REG_ARRAY) && r->array_id >= c.narr)
					c.narr = r->array_id + 1;
			foreach_dst(d, i)
				if ((d->flags & IR3_REG_ARRAY) && d->array_id >= c.narr)
					c.narr = d->array_id + 1;
		}
	if (!c.narr)
		return;
	c.shape = xcalloc(c.narr, sizeof(*c.shape));
	c.st = xcalloc((size_t)ir->nblocks * c.narr, sizeof(*c.st));
	foreach_block(b, ir)
		foreach_instr(i, b) {
			foreach_src(r, i)
				if (r->flags & IR3_REG_ARRAY)
					c.shape[r->array_id] = r;
			foreach_dst(d, i)
				if (d->flags & IR3_REG_ARRAY) {
					c.shape[d->array_id] = d;
					state(&c, b, d->array_id)->out = d;
					state(&c, b, d->array_id)->has_out = true;
				}
		}
	struct ir3_register **cur = xcalloc(c.narr, sizeof(*cur));
	foreach_block(b, ir)
		rename_block(&c, b, cur);
	remove_trivial_phis(ir);
	free(cur);
	free(c.shape);
	free(c.st);
}
