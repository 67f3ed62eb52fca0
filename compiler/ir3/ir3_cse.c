/*
 * Common subexpression elimination within each block: two ALU, SFU, collect
 * or split instructions with the same opcode, modifiers and sources compute
 * the same value, so the later one's users read the earlier one.  Skipped:
 * relative accesses, address and predicate writers (their registers are
 * scarce), repeated instructions, and anything with effects.
 */
#include "compiler/ir3/ir3.h"

#include <string.h>

#include "compiler/util/hash.h"

static bool is_candidate(const struct ir3_instruction *i)
{
	if (!(ir3_is_alu(i) || ir3_is_sfu(i) || i->opc == OPC_META_COLLECT ||
	      i->opc == OPC_META_SPLIT))
		return false;
	if (i->ndst != 1 || i->repeat || i->address || ir3_has_flag(i, IR3_OP_SIDE))
		return false;
	if (ir3_writes_addr(i) || ir3_writes_pred(i) || ir3_has_flag(i, IR3_OP_WAVE))
		return false;
	if (i->dsts[0]->flags & (IR3_REG_SHARED | IR3_REG_RELATIV | IR3_REG_ARRAY))
		return false;
	for (unsigned n = 0; n < i->nsrc; n++)
		if (i->srcs[n]->flags & IR3_REG_RELATIV)
			return false;
	return true;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return hash_u64(h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)));
}

static uint64_t instr_hash(const struct ir3_instruction *i)
{
	uint64_t h = mix(i->opc, i->flags & IR3_INSTR_SAT);
	h = mix(h, ((uint64_t)i->type << 8) | ((uint64_t)i->dst_type << 16) | ((uint64_t)i->cond << 24));
	h = mix(h, ((uint64_t)(unsigned)i->off << 32) | i->dsts[0]->wrmask);
	h = mix(h, i->dsts[0]->flags & IR3_REG_HALF);
	for (unsigned n = 0; n < i->nsrc; n++) {
		const struct ir3_register *r = i->srcs[n];
		h = mix(h, r->flags & ~(IR3_REG_KILL | IR3_REG_FIRST_KILL));
		h = mix(h, r->def ? r->def->name : ((uint64_t)r->num << 32 | r->uim));
		if (r->flags & IR3_REG_ARRAY)
			h = mix(h, (uint64_t)(unsigned)r->rel_offset);
	}
	return h;
}

static bool instrs_equal(const struct ir3_instruction *a, const struct ir3_instruction *b)
{
	if (a->opc != b->opc || (a->flags & IR3_INSTR_SAT) != (b->flags & IR3_INSTR_SAT) ||
	    a->type != b->type || a->dst_type != b->dst_type || a->cond != b->cond ||
	    a->off != b->off || a->nsrc != b->nsrc || a->dsts[0]->wrmask != b->dsts[0]->wrmask ||
	    (a->dsts[0]->flags & IR3_REG_HALF) != (b->dsts[0]->flags & IR3_REG_HALF))
		return false;
	for (unsigned n = 0; n < a->nsrc; n++) {
		const struct ir3_register *x = a->srcs[n], *y = b->srcs[n];
		unsigned mask = ~(IR3_REG_KILL | IR3_REG_FIRST_KILL);
		if ((x->flags & mask) != (y->flags & mask) || x->def != y->def)
			return false;
		if (!x->def && (x->num != y->num || x->uim != y->uim))
			return false;
		if ((x->flags & IR3_REG_ARRAY) && x->rel_offset != y->rel_offset)
			return false;	/* another element of the same version */
	}
	return true;
}

/* The value a source should read once replaced instructions are gone. */
static void redirect(struct ir3_register *r)
{
	while (r->def && (r->def->instr->flags & IR3_INSTR_MARK))
		r->def = ((struct ir3_instruction *)r->def->instr->data)->dsts[0];
}

/*
 * `data` of a surviving candidate links the previous candidate with the same
 * hash; `data` of a replaced one (IR3_INSTR_MARK) is its replacement.
 */
bool ir3_opt_cse(struct ir3 *ir)
{
	bool progress = false;

	foreach_block(b, ir)
		foreach_instr(i, b)
			i->data = NULL;

	foreach_block(b, ir) {
		struct u64map heads = U64MAP_INIT;	/* hash → latest candidate */
		foreach_instr(i, b) {
			for (unsigned n = 0; n < i->nsrc; n++)
				redirect(i->srcs[n]);
			if (!is_candidate(i))
				continue;
			uint64_t h = instr_hash(i), head = 0;
			bool chained = u64map_get(&heads, h, &head);
			struct ir3_instruction *match = NULL;
			for (struct ir3_instruction *c = chained ? (void *)(uintptr_t)head : NULL; c; c = c->data)
				if (instrs_equal(c, i)) {
					match = c;
					break;
				}
			if (match) {
				i->flags |= IR3_INSTR_MARK;
				i->data = match;
				progress = true;
				continue;
			}
			i->data = chained ? (void *)(uintptr_t)head : NULL;
			u64map_set(&heads, h, (uint64_t)(uintptr_t)i);
		}
		u64map_release(&heads);
	}

	if (progress) {
		foreach_block(b, ir)
			foreach_instr(i, b)
				for (unsigned n = 0; n < i->nsrc; n++)
					redirect(i->srcs[n]);
		foreach_block(b, ir)
			foreach_instr_safe(i, b)
				if (i->flags & IR3_INSTR_MARK)
					ir3_instr_remove(i);
	}
	foreach_block(b, ir)
		foreach_instr(i, b) {
			i->data = NULL;
			i->flags &= ~IR3_INSTR_MARK;
		}
	return progress;
}
