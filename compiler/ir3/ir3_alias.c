/*
 * a7xx alias instructions (targets.md §1.7, the seed note on alias.tex and
 * alias.rt).
 *
 * alias.tex, before scheduling: a texture instruction's vector sources are
 * replaced by their components ("alias sources"), so RA need not make them
 * contiguous and the collects (and movs of consts/immediates into them) die.
 * After legalisation each group of alias sources gets a contiguous register
 * range: the registers it already uses when they happen to be contiguous,
 * else a range from r40.x (wrapping to r0) that no other source of the
 * instruction uses, filled by `alias.tex.b32` instructions just before the
 * texture instruction.  Those registers are not part of the footprint; the
 * alias instructions count as cat7.  At most 16 aliases per instruction.
 *
 * alias.rt (a750, FS): an output component that is a const or an immediate
 * is bound with `alias.rt` in the preamble instead of being moved into the
 * output register; an empty preamble is made when there is none
 * (shps / getone / shpe blocks, as Mesa's ir3_create_empty_preamble).
 */
#include "compiler/ir3/ir3_passes.h"

#include <string.h>

#include "compiler/util/error.h"

#define MAX_ALIASES 16
#define FIRST_ALIAS_REG (40 * 4)

static bool supports_alias_srcs(const struct ir3_instruction *i)
{
	return ir3_is_tex(i) && i->ndst && !ir3_has_flag(i, IR3_OP_NOALIAS) &&
	       !(i->flags & IR3_INSTR_S2EN);
}

/* The component a vector source stands for, looking through a same-type
 * mov of a const or an immediate. */
static struct ir3_register *alias_component(struct ir3 *ir, struct ir3_instruction *tex,
					    struct ir3_register *src)
{
	struct ir3_register *r = ir3_reg_clone(ir, src);
	r->instr = tex;
	r->slot = -1;
	r->pred = NULL;
	if (src->def) {
		struct ir3_instruction *mov = src->def->instr;
		if (mov->opc == OPC_MOV && mov->type == mov->dst_type &&
		    (mov->srcs[0]->flags & (IR3_REG_CONST | IR3_REG_IMMED)) &&
		    !(mov->srcs[0]->flags & IR3_REG_RELATIV)) {
			*r = *mov->srcs[0];
			r->instr = tex;
		}
	}
	r->flags |= IR3_REG_ALIAS;
	return r;
}

bool ir3_lower_alias_tex_srcs(struct ir3 *ir)
{
	bool progress = false;
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (!supports_alias_srcs(i) || !i->nsrc)
				continue;
			unsigned total = 0;
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				struct ir3_instruction *d = s->def ? s->def->instr : NULL;
				total += d && d->opc == OPC_META_COLLECT ? d->nsrc : 1;
			}
			if (total > MAX_ALIASES)
				continue;
			struct ir3_register **srcs = arena_array(ir->arena, struct ir3_register *, total);
			unsigned k = 0;
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *s = i->srcs[n];
				struct ir3_instruction *d = s->def ? s->def->instr : NULL;
				unsigned first = k;
				if (d && d->opc == OPC_META_COLLECT) {
					for (unsigned c = 0; c < d->nsrc; c++)
						srcs[k++] = alias_component(ir, i, d->srcs[c]);
				} else {
					srcs[k] = ir3_reg_clone(ir, s);
					srcs[k]->instr = i;
					srcs[k++]->flags |= IR3_REG_ALIAS;
				}
				srcs[first]->flags |= IR3_REG_FIRST_ALIAS;
			}
			i->srcs = srcs;
			i->nsrc = i->src_cap = total;
			progress = true;
		}
	return progress;
}

/* ------------------------------------------------------------------ */
/* after legalisation */

struct group {
	unsigned first, count;		/* sources */
	unsigned reg;			/* register range chosen */
};

static bool is_gpr_src(const struct ir3_register *r)
{
	return !(r->flags & (IR3_REG_CONST | IR3_REG_IMMED)) && ir3_reg_is_gpr(r);
}

static bool range_free(const bool *used, unsigned reg, unsigned n)
{
	if (reg + n > IR3_GPR_COMPS)
		return false;
	for (unsigned k = reg; k < reg + n; k++)
		if (used[k])
			return false;
	return true;
}

static void insert_aliases(struct ir3 *ir, struct ir3_instruction *tex)
{
	struct group groups[MAX_ALIASES];
	unsigned ngroups = 0;
	for (unsigned n = 0; n < tex->nsrc; n++) {
		if (tex->srcs[n]->flags & IR3_REG_FIRST_ALIAS) {
			groups[ngroups].first = n;
			groups[ngroups].count = 0;
			ngroups++;
		}
		if (ngroups && (tex->srcs[n]->flags & IR3_REG_ALIAS))
			groups[ngroups - 1].count++;
	}
	if (!ngroups)
		return;

	/* registers used by the sources that stay plain GPRs, per size */
	bool used[2][IR3_GPR_COMPS] = { { false } };
	bool half = tex->srcs[0]->flags & IR3_REG_HALF;
	struct ir3_instruction *first_alias = NULL;
	unsigned nalias = 0;

	for (unsigned g = 0; g < ngroups; g++) {
		struct group *gr = &groups[g];
		struct ir3_register *s0 = tex->srcs[gr->first];
		half = s0->flags & IR3_REG_HALF;
		bool *u = used[half];
		/* reuse registers that are already contiguous */
		bool contiguous = true;
		for (unsigned k = 0; k < gr->count; k++) {
			struct ir3_register *s = tex->srcs[gr->first + k];
			contiguous &= is_gpr_src(s) && s->num == s0->num + k &&
				      (s->flags & IR3_REG_HALF) == (s0->flags & IR3_REG_HALF);
		}
		if (contiguous && range_free(u, s0->num, gr->count)) {
			gr->reg = s0->num;
			for (unsigned k = 0; k < gr->count; k++)
				u[gr->reg + k] = true;
			continue;
		}
		unsigned reg = FIRST_ALIAS_REG;
		while (!range_free(u, reg, gr->count)) {
			reg++;
			if (reg + gr->count > IR3_GPR_COMPS)
				reg = 0;
			if (reg == FIRST_ALIAS_REG)
				BUG("no register range for alias.tex");
		}
		gr->reg = reg;
		for (unsigned k = 0; k < gr->count; k++) {
			u[reg + k] = true;
			struct ir3_register *s = tex->srcs[gr->first + k];
			struct ir3_instruction *a = ir3_instr_new(ir, OPC_ALIAS, 1, 1);
			a->alias_scope = ALIAS_TEX;
			a->type = (s->flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32;
			ir3_dst_phys(a, s->flags & IR3_REG_HALF, reg + k, 1);
			struct ir3_register *r = ir3_reg_clone(ir, s);
			r->flags &= ~(IR3_REG_ALIAS | IR3_REG_FIRST_ALIAS);
			ir3_add_src(a, r);
			ir3_instr_insert_before(tex, a);
			if (!first_alias)
				first_alias = a;
			nalias++;
		}
	}
	if (first_alias)
		first_alias->alias_table = nalias - 1;

	/* the texture instruction reads one register range per group */
	unsigned out = 0;
	for (unsigned g = 0; g < ngroups; g++) {
		struct ir3_register *s0 = tex->srcs[groups[g].first];
		s0->flags &= ~(IR3_REG_IMMED | IR3_REG_CONST | IR3_REG_ALIAS | IR3_REG_FIRST_ALIAS);
		s0->flags |= IR3_REG_ASSIGNED;
		s0->num = groups[g].reg;
		s0->wrmask = (1u << groups[g].count) - 1;
		s0->def = NULL;
		tex->srcs[out++] = s0;
	}
	tex->nsrc = out;
}

bool ir3_insert_alias_tex(struct ir3 *ir)
{
	bool progress = false;
	foreach_block(b, ir)
		foreach_instr_safe(i, b)
			if (supports_alias_srcs(i) && i->nsrc && (i->srcs[0]->flags & IR3_REG_ALIAS)) {
				insert_aliases(ir, i);
				progress = true;
			}
	return progress;
}

/* ------------------------------------------------------------------ */
/* alias.rt */

static struct ir3_instruction *find_shpe(struct ir3 *ir)
{
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (i->opc == OPC_SHPE)
				return i;
	return NULL;
}

static struct ir3_block *block_before(struct ir3 *ir, struct ir3_block *pos)
{
	struct ir3_block *b = ir3_block_create(ir);
	ir3_block_remove(b);
	b->next = pos;
	b->prev = pos->prev;
	if (pos->prev)
		pos->prev->next = b;
	else
		ir->first = b;
	pos->prev = b;
	return b;
}

/* shps → getone → shpe, with an else block, all before the main code. */
static struct ir3_instruction *create_empty_preamble(struct ir3 *ir)
{
	struct ir3_block *main_start = ir->first;
	struct ir3_block *shps = block_before(ir, main_start);
	struct ir3_block *getone = block_before(ir, main_start);
	struct ir3_block *body = block_before(ir, main_start);
	struct ir3_block *els = block_before(ir, main_start);

	struct ir3_builder bld = ir3_builder_at_end(shps);
	struct ir3_instruction *shps_i = ir3_b_instr(&bld, OPC_SHPS, 0, 0);
	ir3_block_link(shps, getone);
	ir3_block_link(shps, els);
	bld = ir3_builder_at_end(getone);
	ir3_b_instr(&bld, OPC_GETONE, 0, 0);
	ir3_block_link(getone, body);
	ir3_block_link(getone, main_start);
	bld = ir3_builder_at_end(body);
	struct ir3_instruction *shpe = ir3_b_instr(&bld, OPC_SHPE, 0, 0);
	ir3_block_link(body, main_start);
	bld = ir3_builder_at_end(els);
	ir3_b_jump(&bld, main_start);

	/* inputs and texture prefetches belong to the first block (they are
	 * allocated together, before the first instruction) */
	foreach_instr_safe(i, main_start)
		if (i->opc == OPC_META_INPUT || i->opc == OPC_META_TEX_PREFETCH) {
			ir3_instr_remove(i);
			ir3_instr_insert_before(shps_i, i);
		}
	ir3_calc_preds(ir);
	return shpe;
}

/* Whether the preamble's stc writes const component `comp` (alias.rt goes
 * into the preamble, where the value may not be there yet). */
static bool stc_writes(const struct ir3 *ir, unsigned comp)
{
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (i->opc == OPC_STC && i->nsrc >= 2 && comp >= ir3_stc_dst(i) &&
			    comp < ir3_stc_dst(i) + ir3_reg_elems(i->srcs[1]))
				return true;
	return false;
}

/* Whether component value `v` can be an alias.rt source: a const or an
 * immediate, not relative, not a half const, not one the preamble
 * computes. */
static bool rt_aliasable(const struct ir3 *ir, const struct ir3_register *v)
{
	return (v->flags & (IR3_REG_IMMED | IR3_REG_CONST)) && !(v->flags & IR3_REG_RELATIV) &&
	       !((v->flags & IR3_REG_HALF) && (v->flags & IR3_REG_CONST)) &&
	       !((v->flags & IR3_REG_CONST) && stc_writes(ir, v->num));
}

/* The constant components of output `s` (a collect, or a mov of one
 * value), or 0 when some component is not constant. */
static unsigned rt_values(const struct ir3 *ir, const struct ir3_register *s,
			  const struct ir3_register **vals, enum ir3_type *type)
{
	struct ir3_instruction *d = s->def ? s->def->instr : NULL;
	if (!d)
		return 0;
	if (d->opc == OPC_META_COLLECT) {
		for (unsigned k = 0; k < d->nsrc; k++) {
			const struct ir3_register *v = d->srcs[k];
			struct ir3_instruction *m = v->def ? v->def->instr : NULL;
			if (m && m->opc == OPC_MOV && m->type == m->dst_type)
				v = m->srcs[0];
			if (!rt_aliasable(ir, v))
				return 0;
			vals[k] = v;
		}
		*type = TYPE_U32;
		return d->nsrc;
	}
	if (d->opc != OPC_MOV || d->type != d->dst_type || !rt_aliasable(ir, d->srcs[0]))
		return 0;
	vals[0] = d->srcs[0];
	*type = d->dst_type;
	return 1;
}

/* a750: colour outputs whose every component is a const or an immediate
 * are written by alias.rt in the preamble and leave `end` (Mesa's
 * ir3_create_alias_rt; this model aliases whole outputs only). */
bool ir3_lower_alias_rt(struct ir3 *ir)
{
	struct ir3_instruction *end = NULL;
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (i->opc == OPC_END)
				end = i;
	if (!end)
		return false;

	struct ir3_instruction *shpe = NULL;
	unsigned out = 0;
	bool progress = false;
	for (unsigned n = 0; n < end->nsrc; n++) {
		struct ir3_register *s = end->srcs[n];
		const struct ir3_register *vals[16];
		enum ir3_type type = TYPE_U32;
		unsigned nv = s->slot >= 0 ? rt_values(ir, s, vals, &type) : 0;
		if (!nv) {
			end->srcs[out++] = s;
			continue;
		}
		if (!shpe)
			shpe = find_shpe(ir);
		if (!shpe)
			shpe = create_empty_preamble(ir);
		for (unsigned k = 0; k < nv; k++) {
			const struct ir3_register *v = vals[k];
			struct ir3_instruction *a = ir3_instr_new(ir, OPC_ALIAS, 1, 1);
			a->alias_scope = ALIAS_RT;
			a->type = ir3_type_is_float(type)
					  ? ((v->flags & IR3_REG_HALF) ? TYPE_F16 : TYPE_F32)
					  : ((v->flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32);
			ir3_dst_phys(a, IR3_REG_RT, (unsigned)s->slot + k, 1);
			struct ir3_register *r = ir3_reg_clone(ir, v);
			r->flags &= IR3_REG_HALF | IR3_REG_CONST | IR3_REG_IMMED;
			ir3_add_src(a, r);
			ir3_instr_insert_before(shpe, a);
		}
		progress = true;
	}
	end->nsrc = out;
	return progress;
}
