/*
 * Register verifier, written apart from RA and copy lowering: it runs the
 * allocated program symbolically.  Every register slot (half-register unit,
 * predicate, a0) holds the identity of the value in it; an instruction
 * writes its values' identities, an RA copy (IR3_INSTR_COPY) moves
 * identities (swz swaps them, xor.b swaps are followed symbolically), and
 * every read must find the identity the IR says it reads:
 *
 *	%3 = add.f %1:r0.y, …      r0.y must hold %1 (both halves of it)
 *
 * Identities see through what emits no code: a split's result is a
 * component of its vector, a collect's components are its sources, a phi's
 * copies are their sources.  At a join the slots where predecessors differ
 * hold nothing usable; a phi must find, from each predecessor, the value it
 * merges.  Loops iterate to a fixed point before anything is reported.
 *
 * Spilled values are followed through private memory: a spill (stp with
 * `spill_of`) stores the identities its registers hold, after checking
 * they are the value's, in a model of the memory at the address its base
 * register and offset give (the base holds a known immediate); a reload
 * (ldp) must find there the value it stands for, and a reload or a phi of
 * reloads is, to the registers, that value.  Where predecessors stored
 * different values in a slot, only a reload of a phi may read it.  Two
 * values with the same immediate or const (movs) are the same identity.
 *
 * An undefined value (undef, or a component a collect takes from one) is
 * made by no instruction: its "definition" leaves the registers as they
 * were — a scheduler may place it anywhere — and any content of a register
 * or spill slot will do where it is read, stored or merged.
 *
 * An ir3 array is one value per version: a write relabels the whole array
 * with its new version after checking it holds the version it updates and
 * writes it in place; an access finds the version it reads in its element,
 * or through a0.x in all the array's registers.
 *
 * This catches two live values in one register (the earlier one is read
 * after the later one overwrote it), reads of the wrong register, lost
 * copies, registers outside the file, and spill slots read before a store
 * or after another value's.
 */
#include "compiler/ir3/ir3_passes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/hash.h"

#define UNITS 1024			/* merged file, or full 0–383 + half 512–703 */
#define PRED_SLOT 900
#define ADDR_SLOT 910
#define NSLOTS 912

enum { T_NONE, T_CONFLICT };		/* terms 0 and 1 */

enum term_kind { K_VALUE = 1, K_IMM, K_CONST, K_XOR };

struct term {
	enum term_kind kind;
	uint32_t a, b;			/* value name/comp, bits, const, or two terms */
	unsigned part;
};

struct vstate {
	uint32_t slot[NSLOTS];
	uint32_t mem[];			/* private memory, 2-byte units */
};

struct vctx {
	struct ir3 *ir;
	bool merged;
	unsigned nmem;			/* units of private memory modelled */
	size_t state_size;
	ARRAY(struct term) terms;
	struct u64map interned;
	char *exit;			/* per block, state_size bytes each */
	bool *done;
	bool report;
	struct strbuf *err;
	bool failed;
};

/* ------------------------------------------------------------------ */
/* terms */

static uint32_t intern(struct vctx *c, enum term_kind k, uint32_t a, uint32_t b, unsigned part)
{
	uint64_t key = hash_u64(((uint64_t)k << 60) ^ ((uint64_t)a << 28) ^ ((uint64_t)b << 2) ^ part);
	uint64_t idx;
	for (uint64_t probe = key;; probe = hash_u64(probe + 1)) {
		if (!u64map_get(&c->interned, probe, &idx))
			break;
		struct term *t = &c->terms.data[idx];
		if (t->kind == k && t->a == a && t->b == b && t->part == part)
			return (uint32_t)idx;
	}
	for (uint64_t probe = key;; probe = hash_u64(probe + 1)) {
		if (!u64map_get(&c->interned, probe, &idx)) {
			array_push(&c->terms, (struct term){ .kind = k, .a = a, .b = b, .part = part });
			u64map_set(&c->interned, probe, c->terms.len - 1);
			return (uint32_t)(c->terms.len - 1);
		}
	}
}

static uint32_t xor_term(struct vctx *c, uint32_t x, uint32_t y)
{
	if (x <= T_CONFLICT || y <= T_CONFLICT)
		return T_CONFLICT;
	const struct term *tx = &c->terms.data[x], *ty = &c->terms.data[y];
	/* (a ^ b) ^ b = a, (a ^ b) ^ a = b */
	if (tx->kind == K_XOR && tx->b == y)
		return tx->a;
	if (tx->kind == K_XOR && tx->a == y)
		return tx->b;
	if (ty->kind == K_XOR && ty->b == x)
		return ty->a;
	if (ty->kind == K_XOR && ty->a == x)
		return ty->b;
	return intern(c, K_XOR, x < y ? x : y, x < y ? y : x, 0);
}

static void describe(struct vctx *c, struct strbuf *sb, uint32_t t)
{
	if (t == T_NONE) {
		strbuf_addstr(sb, "nothing");
		return;
	}
	if (t == T_CONFLICT) {
		strbuf_addstr(sb, "different values on different paths");
		return;
	}
	const struct term *x = &c->terms.data[t];
	switch (x->kind) {
	case K_VALUE: strbuf_addf(sb, "%%%u.%c", x->a, "xyzw????????????"[x->b & 15]); break;
	case K_IMM: strbuf_addf(sb, "immediate 0x%x", x->a); break;
	case K_CONST: strbuf_addf(sb, "c%u.%c", x->a >> 2, "xyzw"[x->a & 3]); break;
	case K_XOR: strbuf_addstr(sb, "a half-done xor swap"); break;
	}
	if (x->part)
		strbuf_addstr(sb, " (high half)");
}

/* What component `comp` of `def` is: another value's component (`*def`,
 * `*comp`), or an immediate or const source (returned). */
static const struct ir3_register *canon_walk(const struct ir3_register **def, unsigned *comp)
{
	for (unsigned depth = 0; depth < 64; depth++) {
		const struct ir3_instruction *i = (*def)->instr;
		const struct ir3_register *src = NULL;
		if (i->opc == OPC_META_SPLIT) {
			*comp += (unsigned)i->off;
			src = i->srcs[0];
		} else if (i->opc == OPC_META_COLLECT && *comp < i->nsrc) {
			src = i->srcs[*comp];
			*comp = 0;
		} else if (i->opc == OPC_META_PCOPY) {
			for (unsigned n = 0; n < i->ndst; n++)
				if (i->dsts[n] == *def)
					src = i->srcs[n];
		} else if (i->spill_of && i->ndst && i->dsts[0] == *def) {
			*comp += i->spill_comp;		/* a reload, or a phi of them */
			*def = i->spill_of;
			continue;
		} else if (i->opc == OPC_MOV && i->type == i->dst_type && !i->repeat &&
			   !(i->srcs[0]->flags & IR3_REG_RELATIV) &&
			   !(i->dsts[0]->flags & IR3_REG_ARRAY)) {	/* not an array write */
			src = i->srcs[0];		/* an immediate or a const stays one */
			if (!(src->flags & (IR3_REG_IMMED | IR3_REG_CONST)))
				src = NULL;
		}
		if (!src)
			break;
		if (src->flags & (IR3_REG_IMMED | IR3_REG_CONST))
			return src;
		if (!src->def)
			break;
		*def = src->def;
	}
	return NULL;
}

/* Whether component `comp` of `def` is an undefined value. */
static bool is_undef(const struct ir3_register *def, unsigned comp)
{
	return !canon_walk(&def, &comp) && def->instr->opc == OPC_META_UNDEF;
}

/* The identity of component `comp` (part `part`) of value `def`. */
static uint32_t canon(struct vctx *c, const struct ir3_register *def, unsigned comp, unsigned part)
{
	const struct ir3_register *k = canon_walk(&def, &comp);
	if (k && (k->flags & IR3_REG_IMMED))
		return intern(c, K_IMM, k->uim, 0, part);
	if (k)
		return intern(c, K_CONST, k->num, 0, part);
	return intern(c, K_VALUE, def->name, comp, part);
}

/* Is `t` what a phi of spilled values (one spilling left in memory, its
 * instruction out of the block) merges, through phis at most `depth` deep? */
static bool merged_by_phi(struct vctx *c, const struct ir3_register *def, unsigned comp,
			  unsigned part, uint32_t t, unsigned depth)
{
	if (canon_walk(&def, &comp) || def->instr->opc != OPC_META_PHI || !depth)
		return false;
	const struct ir3_instruction *phi = def->instr;
	for (unsigned n = 0; n < phi->nsrc; n++) {
		const struct ir3_register *s = phi->srcs[n];
		if ((s->flags & IR3_REG_IMMED) && t == intern(c, K_IMM, s->uim, 0, part))
			return true;
		if (s->def && (canon(c, s->def, comp, part) == t ||
			       merged_by_phi(c, s->def, comp, part, t, depth - 1)))
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* slots */

static struct vstate *exit_of(struct vctx *c, const struct ir3_block *b)
{
	return (struct vstate *)(c->exit + c->state_size * b->index);
}

static bool fail(struct vctx *c, const struct ir3_instruction *i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool fail(struct vctx *c, const struct ir3_instruction *i, const char *fmt, ...)
{
	if (!c->report || c->failed)
		return false;
	c->failed = true;
	strbuf_addstr(c->err, "registers: ");
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(c->err, fmt, ap);
	va_end(ap);
	if (i) {
		strbuf_addf(c->err, " in b%u: ", i->block->index);
		ir3_print_instr(c->err, i);
	}
	return false;
}

/* The slots of component `comp` of a register: 1 or 2 units (or a
 * predicate / address slot); false when outside the file. */
static bool slots_of(struct vctx *c, const struct ir3_register *r, unsigned comp, unsigned *first,
		     unsigned *count)
{
	unsigned num = r->num + comp;
	if (r->flags & IR3_REG_PREDICATE) {
		*first = PRED_SLOT + (num & 3);
		*count = 1;
		return true;
	}
	if (r->flags & IR3_REG_ADDR) {
		*first = ADDR_SLOT + (num & 1);
		*count = 1;
		return true;
	}
	/* half, merged: only hr0–hr47 (the low half of r0–r23) */
	if (num >= IR3_GPR_COMPS)
		return false;
	*first = ir3_reg_unit(c->merged, r->flags & IR3_REG_HALF, num);
	*count = ir3_reg_elem_size(r);
	return true;
}

static bool is_reg(const struct ir3_register *r)
{
	return !(r->flags & (IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_RT | IR3_REG_SHARED));
}

static void check_read(struct vctx *c, const struct vstate *s, const struct ir3_instruction *i,
		       const struct ir3_register *r, const struct ir3_register *def, unsigned comps)
{
	unsigned k0 = 0;
	if ((r->flags & (IR3_REG_ARRAY | IR3_REG_TIED)) == IR3_REG_ARRAY)	/* an access: its element, or all through a0.x */
		comps = ir3_reg_span(r, &k0) + k0;
	for (unsigned k = k0; k < comps; k++) {
		unsigned first, count;
		if (!slots_of(c, r, k, &first, &count)) {
			fail(c, i, "register of %%%u is outside the register file", def->name);
			return;
		}
		if (is_undef(def, k))
			continue;
		for (unsigned p = 0; p < count; p++) {
			uint32_t want = canon(c, def, k, p), got = s->slot[first + p];
			if (got == want)
				continue;
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
			describe(c, &a, want);
			describe(c, &b, got);
			fail(c, i, "reads %s from a register that holds %s", a.buf, b.buf);
			strbuf_release(&a);
			strbuf_release(&b);
			return;
		}
	}
}

static void write_value(struct vctx *c, struct vstate *s, const struct ir3_instruction *i,
			const struct ir3_register *d)
{
	for (unsigned k = 0; k < ir3_reg_elems(d); k++) {
		unsigned first, count;
		if (!slots_of(c, d, k, &first, &count)) {
			fail(c, i, "destination %%%u is outside the register file", d->name);
			return;
		}
		for (unsigned p = 0; p < count; p++)
			s->slot[first + p] = canon(c, d, k, p);
	}
}

/* An RA copy: move identities (component-wise, all sources read first). */
static void do_copy(struct vctx *c, struct vstate *s, const struct ir3_instruction *i)
{
	uint32_t vals[8][2];
	unsigned n = i->ndst < 8 ? i->ndst : 8;
	for (unsigned k = 0; k < n; k++) {
		const struct ir3_register *src = i->opc == OPC_XOR_B ? NULL : i->srcs[k < i->nsrc ? k : 0];
		unsigned first, count;
		if (!slots_of(c, i->dsts[k], 0, &first, &count)) {
			fail(c, i, "copy outside the register file");
			return;
		}
		for (unsigned p = 0; p < count; p++) {
			if (i->opc == OPC_XOR_B) {
				unsigned f0, f1, c0, c1;
				if (!slots_of(c, i->srcs[0], 0, &f0, &c0) || !slots_of(c, i->srcs[1], 0, &f1, &c1)) {
					fail(c, i, "copy outside the register file");
					return;
				}
				vals[k][p] = xor_term(c, s->slot[f0 + p], s->slot[f1 + p]);
			} else if (src->flags & IR3_REG_IMMED) {
				vals[k][p] = intern(c, K_IMM, src->uim, 0, p);
			} else if (src->flags & IR3_REG_CONST) {
				vals[k][p] = intern(c, K_CONST, src->num, 0, p);
			} else {
				unsigned sf, sc;
				if (!slots_of(c, src, 0, &sf, &sc)) {
					fail(c, i, "copy outside the register file");
					return;
				}
				vals[k][p] = s->slot[sf + p];
			}
		}
	}
	for (unsigned k = 0; k < n; k++) {
		unsigned first, count;
		slots_of(c, i->dsts[k], 0, &first, &count);
		for (unsigned p = 0; p < count; p++)
			s->slot[first + p] = vals[k][p];
	}
}

/* The byte address of a spill or reload: its base register must hold a
 * known immediate.  False (reported) otherwise. */
static bool spill_address(struct vctx *c, const struct vstate *s, const struct ir3_instruction *i,
			  unsigned offset, unsigned *addr)
{
	const struct ir3_register *base = i->srcs[0];
	unsigned first, count;
	if (!slots_of(c, base, 0, &first, &count))
		return fail(c, i, "base register outside the register file");
	uint32_t t = s->slot[first];
	if (t <= T_CONFLICT || c->terms.data[t].kind != K_IMM || c->terms.data[t].part)
		return fail(c, i, "spill base register holds no known address");
	*addr = c->terms.data[t].a + offset;
	return true;
}

/* Does `d` stand for a phi's value (through copies and reloads)? */
static bool is_phi_value(const struct ir3_register *d)
{
	unsigned comp = 0;
	return !canon_walk(&d, &comp) && d->instr->opc == OPC_META_PHI;
}

/* stp/ldp of a spilled value (`spill_of`), through the memory model. */
static void run_spill(struct vctx *c, struct vstate *s, const struct ir3_instruction *i)
{
	bool st = i->opc == OPC_STP;
	unsigned n = i->srcs[2]->uim, addr = 0;
	const struct ir3_register *data = st ? i->srcs[1] : i->dsts[0];
	if (i->srcs[0]->def)
		check_read(c, s, i, i->srcs[0], i->srcs[0]->def, 1);
	if (!spill_address(c, s, i, st ? (unsigned)i->off : i->srcs[1]->uim, &addr))
		return;
	unsigned per = (data->flags & IR3_REG_HALF) ? 1 : 2;
	if (addr % 2 || addr / 2 + n * per > c->nmem) {
		fail(c, i, "spill slot at byte %u outside private memory", addr);
		return;
	}
	for (unsigned k = 0; k < n; k++) {
		unsigned first, count;
		if (!slots_of(c, data, k, &first, &count)) {
			fail(c, i, "spilled register outside the register file");
			return;
		}
		for (unsigned p = 0; p < count; p++) {
			uint32_t want = canon(c, i->spill_of, i->spill_comp + k, p);
			uint32_t *m = &s->mem[addr / 2 + k * per + p];
			uint32_t got = st ? s->slot[first + p] : *m;
			/* a phi left in memory merges the values of its slot */
			bool phi_ok = !st && (got == T_CONFLICT ||
					      merged_by_phi(c, i->spill_of, i->spill_comp + k, p, got, 8));
			if (got != want && !(phi_ok && is_phi_value(i->spill_of)) &&
			    !is_undef(i->spill_of, i->spill_comp + k)) {
				struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
				describe(c, &a, want);
				describe(c, &b, got);
				fail(c, i, st ? "stores %s from a register that holds %s"
					      : "reloads %s from a slot that holds %s",
				     a.buf, b.buf);
				strbuf_release(&a);
				strbuf_release(&b);
			}
			if (st)
				*m = want;
			else
				s->slot[first + p] = want;
		}
	}
}

static void run_instr(struct vctx *c, struct vstate *s, const struct ir3_instruction *i)
{
	/* the shared file is not allocated: what selection placed there (a
	 * shared system value and its components) is not followed */
	if (i->ndst && (i->dsts[0]->flags & IR3_REG_SHARED) && ir3_is_meta(i))
		return;
	if ((i->opc == OPC_STP || i->opc == OPC_LDP) && i->spill_of) {
		run_spill(c, s, i);
		return;
	}
	if (i->flags & IR3_INSTR_COPY) {
		do_copy(c, s, i);
		return;
	}
	switch (i->opc) {
	case OPC_META_PHI:
		return;		/* at the block entry */
	case OPC_META_UNDEF:
		return;		/* no code: the registers keep what they hold */
	case OPC_META_PCOPY:
		/* the copies before it did the work: check what phis will read */
		for (unsigned n = 0; n < i->ndst; n++) {
			const struct ir3_register *d = i->dsts[n];
			if ((d->flags & IR3_REG_SSA) && (d->flags & IR3_REG_ASSIGNED))
				check_read(c, s, i, d, d, ir3_reg_elems(d));
		}
		return;
	case OPC_META_SPLIT:
	case OPC_META_COLLECT:
		if (!(i->dsts[0]->flags & IR3_REG_UNUSED))
			check_read(c, s, i, i->dsts[0], i->dsts[0], ir3_reg_elems(i->dsts[0]));
		return;
	default:
		break;
	}
	for (unsigned n = 0; n < i->nsrc; n++) {
		const struct ir3_register *r = i->srcs[n];
		/* an array access, through a0.x or not, finds its whole version */
		if (!r->def || !is_reg(r) || (r->flags & (IR3_REG_RELATIV | IR3_REG_ARRAY)) == IR3_REG_RELATIV)
			continue;
		if (!(r->flags & IR3_REG_ASSIGNED)) {
			fail(c, i, "source %%%u has no register", r->def->name);
			continue;
		}
		check_read(c, s, i, r, r->def, ir3_reg_elems(r));
	}
	const struct ir3_register *tied = ir3_tied_src(i);
	if (tied && i->dsts[0]->num != tied->num)
		fail(c, i, "array write: %%%u is not where %%%u, the array it updates, is",
		     i->dsts[0]->name, tied->def ? tied->def->name : 0);
	if (i->address && i->address->ndst) {
		const struct ir3_register *a = i->address->dsts[0];
		unsigned slot = ADDR_SLOT + (a->num & 1);
		if (s->slot[slot] != canon(c, a, 0, 0))
			fail(c, i, "a0.x does not hold the address %%%u", a->name);
	}
	for (unsigned n = 0; n < i->ndst; n++) {
		const struct ir3_register *d = i->dsts[n];
		if (!is_reg(d) || (i->opc == OPC_ALIAS))
			continue;
		if (!(d->flags & IR3_REG_SSA)) {
			/* a plain register write: nothing usable in it afterwards */
			for (unsigned k = 0; k < ir3_reg_elems(d); k++) {
				unsigned first, count;
				if (slots_of(c, d, k, &first, &count))
					for (unsigned p = 0; p < count; p++)
						s->slot[first + p] = T_NONE;
			}
			continue;
		}
		if (!(d->flags & IR3_REG_ASSIGNED)) {
			fail(c, i, "destination %%%u has no register", d->name);
			continue;
		}
		write_value(c, s, i, d);
	}
}

/* ------------------------------------------------------------------ */

static void block_entry(struct vctx *c, struct ir3_block *b, struct vstate *s)
{
	bool any = false;
	for (unsigned p = 0; p < b->npreds; p++) {
		struct ir3_block *pred = b->preds[p];
		if (!c->done[pred->index])
			continue;
		const struct vstate *ps = exit_of(c, pred);
		if (!any) {
			memcpy(s, ps, c->state_size);
			any = true;
			continue;
		}
		for (unsigned k = 0; k < NSLOTS; k++)
			if (s->slot[k] != ps->slot[k])
				s->slot[k] = T_CONFLICT;
		for (unsigned k = 0; k < c->nmem; k++)
			if (s->mem[k] != ps->mem[k])
				s->mem[k] = T_CONFLICT;
	}
	if (!any)
		memset(s, 0, c->state_size);

	/* phis: from each predecessor their register holds what they merge */
	foreach_instr(phi, b) {
		if (phi->opc != OPC_META_PHI)
			break;
		const struct ir3_register *d = phi->dsts[0];
		if (!is_reg(d))
			continue;
		for (unsigned p = 0; p < b->npreds; p++) {
			struct ir3_block *pred = b->preds[p];
			const struct ir3_register *src = ir3_phi_src((struct ir3_instruction *)phi, pred);
			if (!c->done[pred->index] || !src || !src->def)
				continue;
			const struct vstate *ps = exit_of(c, pred);
			for (unsigned k = 0; k < ir3_reg_elems(d); k++) {
				unsigned first, count;
				if (!slots_of(c, d, k, &first, &count)) {
					fail(c, phi, "phi register outside the register file");
					break;
				}
				for (unsigned q = 0; q < count; q++)
					if (ps->slot[first + q] != canon(c, src->def, k, q) &&
					    !is_undef(src->def, k)) {
						struct strbuf a = STRBUF_INIT, g = STRBUF_INIT;
						describe(c, &a, canon(c, src->def, k, q));
						describe(c, &g, ps->slot[first + q]);
						fail(c, phi, "from b%u the phi register holds %s, not %s",
						     pred->index, g.buf, a.buf);
						strbuf_release(&a);
						strbuf_release(&g);
					}
			}
		}
		if (d->flags & IR3_REG_ASSIGNED)
			write_value(c, s, phi, d);
	}
}

static bool run(struct vctx *c)
{
	bool changed = false;
	struct vstate *s = xmalloc(c->state_size);
	foreach_block(b, c->ir) {
		block_entry(c, b, s);
		/* inputs are live from the start */
		foreach_instr(i, b) {
			/* an (rptN) made of a repeat group: the instructions it
			 * stands for, one after the other, each reading and
			 * writing its own element (ir3_merge_rpt) */
			if (i->rpt_orig)
				for (unsigned k = 0; i->rpt_orig[k]; k++)
					run_instr(c, s, i->rpt_orig[k]);
			else
				run_instr(c, s, i);
		}
		if (!c->done[b->index] || memcmp(exit_of(c, b), s, c->state_size)) {
			memcpy(exit_of(c, b), s, c->state_size);
			c->done[b->index] = true;
			changed = true;
		}
	}
	free(s);
	return changed;
}

bool ir3_verify_regs(struct ir3 *ir, struct strbuf *err)
{
	struct vctx c = { .ir = ir, .merged = ir->target->mergedregs, .err = err };
	ir3_calc_preds(ir);
	c.nmem = (ir->pvtmem_size + 1) / 2;
	c.state_size = sizeof(struct vstate) + sizeof(uint32_t) * c.nmem;
	array_push(&c.terms, (struct term){ 0 });	/* T_NONE */
	array_push(&c.terms, (struct term){ 0 });	/* T_CONFLICT */
	c.exit = xcalloc(ir->nblocks ? ir->nblocks : 1, c.state_size);
	c.done = xcalloc(ir->nblocks ? ir->nblocks : 1, sizeof(*c.done));
	for (unsigned round = 0; round < 2 * ir->nblocks + 4 && run(&c); round++)
		;
	c.report = true;
	run(&c);
	free(c.exit);
	free(c.done);
	array_free(&c.terms);
	u64map_release(&c.interned);
	return !c.failed;
}
