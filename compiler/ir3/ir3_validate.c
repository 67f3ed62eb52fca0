/*
 * IR validation, run on input and (in the pipeline's PASS macro) after
 * every pass: the lists and the CFG are consistent, every source reads a
 * value that is defined and dominates it (phis: dominates the predecessor),
 * value classes match, operand counts match the opcode table, sources carry
 * only the flags their slot allows, and phis lead their block.
 */
#include "compiler/ir3/ir3.h"

#include <stdarg.h>

struct vctx {
	struct ir3 *ir;
	struct strbuf *err;
	bool ok;
	const struct ir3_instruction *instr;
};

__attribute__((format(printf, 2, 3)))
static void fail(struct vctx *v, const char *fmt, ...)
{
	if (!v->ok)
		return;
	v->ok = false;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(v->err, fmt, ap);
	va_end(ap);
	if (v->instr) {
		strbuf_addstr(v->err, ": ");
		ir3_print_instr(v->err, v->instr);
	}
}

#define CLASS_FLAGS (IR3_REG_HALF | IR3_REG_PREDICATE | IR3_REG_ADDR | IR3_REG_SHARED | IR3_REG_ARRAY)

/* Does `def` reach `use` (a source of `user`) in SSA order? */
static bool def_reaches(const struct ir3_register *def, const struct ir3_instruction *user,
			const struct ir3_block *use_block)
{
	const struct ir3_instruction *d = def->instr;
	if (user->opc == OPC_META_PHI)	/* read at the end of the predecessor */
		return d->block == use_block || ir3_block_dominates(d->block, use_block);
	if (d->block == use_block)
		return user->block != use_block || d->ip < user->ip;
	return ir3_block_dominates(d->block, use_block);
}

static void check_src(struct vctx *v, struct ir3_instruction *i, unsigned n)
{
	struct ir3_register *r = i->srcs[n];
	if (r->instr != i)
		fail(v, "source %u does not point back at its instruction", n);
	if (r->def) {
		if (!(r->def->flags & IR3_REG_SSA) || !r->def->instr || !r->def->instr->block)
			fail(v, "source %u reads a value that is not defined", n);
		else if ((r->flags & CLASS_FLAGS) != (r->def->flags & CLASS_FLAGS))
			fail(v, "source %u has another class than its value", n);
		else {
			struct ir3_block *at = i->block;
			if (i->opc == OPC_META_PHI) {
				if (!r->pred)
					fail(v, "phi source %u names no predecessor", n);
				else
					at = r->pred;
			}
			if (!v->ir->legalized && at->idom && r->def->instr->block->idom &&
			    !def_reaches(r->def, i, at))
				fail(v, "source %u: %%%u does not dominate its use", n, r->def->name);
		}
	}
	/* alias.tex sources may be consts and immediates (ir3_alias.c) */
	if (!ir3_is_meta(i) && !(i->flags & IR3_INSTR_COPY) && !(r->flags & IR3_REG_ALIAS) &&
	    !ir3_valid_flags(i, n, r->flags & ~(IR3_REG_SSA | IR3_REG_ASSIGNED | IR3_REG_KILL |
						IR3_REG_FIRST_KILL | IR3_REG_R | IR3_REG_ALIAS |
						IR3_REG_FIRST_ALIAS | IR3_REG_ARRAY | IR3_REG_TIED)))
		fail(v, "source %u carries flags its slot does not allow", n);
	if ((r->flags & IR3_REG_IMMED) && !ir3_is_meta(i) && !(r->flags & IR3_REG_ALIAS) &&
	    !ir3_imm_encodable(i, r))
		fail(v, "immediate %d of source %u cannot be encoded", r->iim, n);
	if ((r->flags & IR3_REG_RELATIV) && !i->address && !(r->flags & IR3_REG_ASSIGNED) &&
	    !v->ir->legalized)
		fail(v, "relative source %u without an address", n);
}

static void check_instr(struct vctx *v, struct ir3_block *b, struct ir3_instruction *i,
			bool *seen_non_phi)
{
	const struct ir3_opc_info *op = ir3_op(i->opc);
	v->instr = i;
	if (i->block != b)
		fail(v, "instruction in block b%u claims another block", b->index);
	if (op->ndst >= 0 && i->ndst != (unsigned)op->ndst && !(i->flags & IR3_INSTR_COPY))
		fail(v, "%s takes %d destination(s), has %u", op->name, op->ndst, i->ndst);
	bool tied = i->nsrc && (i->srcs[i->nsrc - 1]->flags & IR3_REG_TIED);
	if (op->nsrc >= 0 && i->nsrc != (unsigned)op->nsrc + tied && !(i->flags & IR3_INSTR_COPY))
		fail(v, "%s takes %d source(s), has %u", op->name, op->nsrc, i->nsrc);
	if (tied && (i->ndst != 1 || !ir3_reg_is_array_access(i->dsts[0]) ||
		     i->srcs[i->nsrc - 1]->size != i->dsts[0]->size))
		fail(v, "a tied source without an array write");
	if (i->ndst == 1 && ir3_reg_is_array_access(i->dsts[0]) && !tied && !v->ir->legalized)
		fail(v, "an array write without the array it updates (tied)");
	if (i->opc == OPC_META_PHI && !v->ir->legalized) {
		if (*seen_non_phi)
			fail(v, "phi after other instructions");
		if (i->nsrc != b->npreds)
			fail(v, "phi has %u sources for %u predecessors", i->nsrc, b->npreds);
		for (unsigned p = 0; p < b->npreds; p++)
			if (!ir3_phi_src(i, b->preds[p]))
				fail(v, "phi has no source for predecessor b%u", b->preds[p]->index);
	} else {
		*seen_non_phi = true;
	}
	if (ir3_is_terminator(i) && !v->ir->legalized) {
		for (struct ir3_instruction *n = i->next; n; n = n->next)
			if (!ir3_is_meta(n))
				fail(v, "terminator is not last in its block");
	}
	for (unsigned n = 0; n < i->ndst; n++)
		if (i->dsts[n]->instr != i)
			fail(v, "destination %u does not point back at its instruction", n);
	for (unsigned n = 0; n < i->nsrc; n++)
		check_src(v, i, n);
	/* a mov or cov reads and writes registers as wide as its types: 8- and
	 * 16-bit types in half registers (Mesa's ir3_validate, validate_reg_size) */
	if (i->opc == OPC_MOV && i->ndst == 1 && i->nsrc >= 1) {
		const struct ir3_register *d = i->dsts[0], *s = i->srcs[0];
		if (!!(d->flags & IR3_REG_HALF) != ir3_type_is_half(i->dst_type))
			fail(v, "a %s destination for a %s type", d->flags & IR3_REG_HALF ? "half" : "full",
			     ir3_type_is_half(i->dst_type) ? "half" : "full");
		else if (!(s->flags & (IR3_REG_IMMED | IR3_REG_CONST)) &&
			 !!(s->flags & IR3_REG_HALF) != ir3_type_is_half(i->type))
			fail(v, "a %s source for a %s type", s->flags & IR3_REG_HALF ? "half" : "full",
			     ir3_type_is_half(i->type) ? "half" : "full");
	}
	if (i->repeat && !(op->flags & IR3_OP_RPT))
		fail(v, "%s cannot repeat", op->name);
	if (i->opc == OPC_NOP && i->repeat > 5)
		fail(v, "(rpt%u)nop: at most (rpt5)", i->repeat);
	if (i->nop && (i->nop > 3 || (op->cat != 2 && op->cat != 3) || i->repeat))
		fail(v, "(nop%u) only on cat2/cat3 without repeat, at most 3", i->nop);
	/* cat7 encodes (ss) too, set by hand on lock (legalisation itself
	 * puts its (ss) only where ir3_supports_ss allows) */
	if ((i->flags & IR3_INSTR_SS) && !ir3_supports_ss(i) && op->cat != 7)
		fail(v, "%s has no (ss) bit", op->name);
	v->instr = NULL;
}

bool ir3_validate(struct ir3 *ir, struct strbuf *err)
{
	struct vctx v = { .ir = ir, .err = err, .ok = true };
	ir3_calc_preds(ir);
	ir3_calc_dominance(ir);
	unsigned ip = 0;
	foreach_block(b, ir)
		foreach_instr(i, b)
			i->ip = ip++;
	foreach_block(b, ir) {
		if (b->ir != ir)
			fail(&v, "block b%u belongs to another shader", b->index);
		struct ir3_instruction *prev = NULL;
		bool seen_non_phi = false;
		foreach_instr(i, b) {
			if (i->prev != prev)
				fail(&v, "broken instruction list in block b%u", b->index);
			prev = i;
			check_instr(&v, b, i, &seen_non_phi);
		}
		if (b->last != prev)
			fail(&v, "broken instruction list end in block b%u", b->index);
		for (int s = 0; s < 2; s++)
			if (b->succ[s] && b->succ[s]->ir != ir)
				fail(&v, "block b%u has a successor outside the shader", b->index);
	}
	return v.ok;
}
