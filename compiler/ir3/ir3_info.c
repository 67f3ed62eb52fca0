/*
 * Statistics after legalisation, each with Mesa's definition (ir3.c
 * ir3_collect_info, targets.md §1.9, shaderdb-tools.md §3.1):
 *
 *  inst      Σ 1 + repeat + nop over instructions outside the preamble
 *  nops      nops (1 + repeat each) plus every (nopN)
 *  mov/cov   OPC_MOV (and mova) with equal / different types, × (1 + repeat);
 *            read_first.macro is the mov of Mesa's expansion
 *  dwords    2 × max(instrlen × instr_align, n + 4), n counting every
 *            instruction word once, preamble included
 *  last-baryf / last-helper   inst before the (ei) fetch / the (eq) nop
 *  full/half highest vec4 touched + 1 (merged files count halves in full);
 *            alias.tex registers are not counted
 *  constlen  declared consts and lowered immediates, highest const read,
 *            aligned per generation, FS/VS minimums
 *  catN      1 + repeat per instruction; nops and (nopN) in cat0
 *  stp/ldp   components stored/loaded
 *  (ss)/(sy) instructions with the flag; sstall/systall the soft delay left
 *            when the flag is reached, from 0 at each block (Mesa 24.3)
 *  waves     min(register-independent, register-dependent) occupancy
 *  preamble-inst  Σ 1 + repeat + nop over shps … shpe (set only when the
 *            shader has a preamble)
 */
#include "compiler/ir3/ir3_passes.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

struct footprint {
	int max_reg, max_half_reg;
	bool merged;
};

static void reg_info(struct footprint *f, const struct ir3_register *r)
{
	if (r->flags & (IR3_REG_IMMED | IR3_REG_CONST) || !ir3_reg_is_gpr(r))
		return;
	if (r->flags & IR3_REG_SHARED)
		return;
	int max = (int)(r->num + ir3_reg_elems(r) - 1);
	if (max >= IR3_GPR_COMPS)
		return;
	if (r->flags & IR3_REG_HALF) {
		if (f->merged) {
			if (max >> 3 > f->max_reg)
				f->max_reg = max >> 3;
		} else if (max >> 2 > f->max_half_reg) {
			f->max_half_reg = max >> 2;
		}
	} else if (max >> 2 > f->max_reg) {
		f->max_reg = max >> 2;
	}
}

/* The relative-addressed const comps are only known at run time: count
 * at least the first one. */
static unsigned calc_constlen(const struct ir3 *ir)
{
	const struct ir3_info *t = ir->target;
	unsigned len = ir->const_size;
	if (ir->nimmediates)
		len = ir->const_size + (ir->nimmediates + 3) / 4;
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (ir3_is_meta(i))
				continue;
			for (unsigned n = 0; n < i->nsrc; n++) {
				const struct ir3_register *r = i->srcs[n];
				if (!(r->flags & IR3_REG_CONST))
					continue;
				unsigned comp = (r->flags & IR3_REG_RELATIV) ? (unsigned)(r->rel_offset > 0 ? r->rel_offset : 0)
									      : r->num;
				if (comp / 4 + 1 > len)
					len = comp / 4 + 1;
			}
			if (i->opc == OPC_STC && i->nsrc >= 2 && (i->srcs[0]->flags & IR3_REG_IMMED)) {
				unsigned end = ir3_stc_dst(i) + ir3_reg_elems(i->srcs[1]);
				if ((end + 3) / 4 > len)
					len = (end + 3) / 4;
			}
		}
	if (t->constlen_align > 1)
		len = (len + t->constlen_align - 1) / t->constlen_align * t->constlen_align;
	if (ir->stage == STAGE_FRAGMENT && len < t->fs_min_constlen)
		len = t->fs_min_constlen;
	if (ir->stage == STAGE_VERTEX && len < t->vs_min_constlen)
		len = t->vs_min_constlen;
	return len;
}

static unsigned loop_count(const struct ir3 *ir)
{
	if (ir->loops >= 0)
		return (unsigned)ir->loops;
	unsigned n = 0;
	foreach_block(b, ir)
		for (int s = 0; s < 2; s++)
			if (b->succ[s] && b->succ[s]->index <= b->index)
				n++;
	return n;
}

struct soft {
	unsigned sfu, mem;
};

/* What ir3_collect_stats() counts, as Mesa's struct ir3_info holds it. */
struct counts {
	unsigned inst, nops, mov, cov, dwords, last_baryf, last_helper;
	unsigned half, full, constlen;
	unsigned cat[8];
	unsigned stp, ldp, sstall, ss, systall, sy, waves, loops;
	unsigned preamble_inst;
	bool has_preamble;
};

static void count(struct ir3 *ir, unsigned branchstack, struct counts *s)
{
	const struct ir3_info *t = ir->target;
	struct footprint fp = { .max_reg = -1, .max_half_reg = -1, .merged = t->mergedregs };
	memset(s, 0, sizeof(*s));

	unsigned n = 0;
	foreach_block(b, ir)
		foreach_instr(i, b)
			n += !ir3_is_meta(i);
	unsigned instrlen = (n + t->instr_align - 1) / t->instr_align;
	unsigned slots = instrlen * t->instr_align > n + 4 ? instrlen * t->instr_align : n + 4;
	s->dwords = slots * 2;

	bool in_preamble = false, has_eq = false;
	bool alias[IR3_FULL_UNITS] = { false };

	foreach_block(b, ir) {
		/* Mesa 24.3 starts each block with no delay outstanding (newer
		 * Mesa carries the largest of its predecessors' over) */
		struct soft soft = { 0 }, *d = &soft;
		foreach_instr(i, b) {
			if (ir3_is_meta(i)) {
				if ((i->opc == OPC_META_INPUT || i->opc == OPC_META_TEX_PREFETCH) && i->ndst &&
				    !(i->dsts[0]->flags & IR3_REG_UNUSED) &&
				    (i->dsts[0]->flags & IR3_REG_ASSIGNED))
					reg_info(&fp, i->dsts[0]);
				continue;
			}
			for (unsigned k = 0; k < i->nsrc; k++) {
				const struct ir3_register *r = i->srcs[k];
				bool aliased = ir3_reg_is_gpr(r) && !(r->flags & (IR3_REG_HALF | IR3_REG_SHARED)) &&
					       r->num < IR3_GPR_COMPS && alias[r->num];
				if (!aliased)
					reg_info(&fp, r);
			}
			for (unsigned k = 0; k < i->ndst; k++) {
				const struct ir3_register *r = i->dsts[k];
				if (i->opc == OPC_ALIAS && i->alias_scope == ALIAS_TEX) {
					for (unsigned e = 0; e < ir3_reg_elems(r) && r->num + e < IR3_GPR_COMPS; e++)
						alias[r->num + e] = true;
				} else {
					reg_info(&fp, r);
				}
			}
			if (ir3_is_tex(i))
				memset(alias, 0, sizeof(alias));

			if ((i->opc == OPC_STP || i->opc == OPC_LDP) && i->nsrc > 2) {
				if (i->opc == OPC_STP)
					s->stp += i->srcs[2]->uim;
				else
					s->ldp += i->srcs[2]->uim;
			}
			if ((i->opc == OPC_BARY_F || i->opc == OPC_FLAT_B) && i->ndst &&
			    (i->dsts[0]->flags & IR3_REG_EI))
				s->last_baryf = s->inst;
			if (i->opc == OPC_NOP && (i->flags & IR3_INSTR_EQ)) {
				s->last_helper = s->inst;
				has_eq = true;
			}
			if (ir->stage == STAGE_FRAGMENT && ir->need_pixlod && i->opc == OPC_END &&
			    !ir->prefetch_end_of_quad && !has_eq)
				s->last_helper = s->inst;
			if (i->opc == OPC_SHPS)
				in_preamble = s->has_preamble = true;

			unsigned count = 1 + i->repeat + i->nop;
			if (in_preamble) {
				s->preamble_inst += count;
			} else {
				unsigned nops = i->nop;
				if (i->opc == OPC_NOP) {
					nops = 1 + i->repeat;
					s->cat[0] += nops;
				} else {
					s->cat[ir3_cat(i)] += 1 + i->repeat;
					s->cat[0] += nops;
				}
				if (i->opc == OPC_MOV || i->opc == OPC_MOVA || i->opc == OPC_MOVA1 ||
				    i->opc == OPC_READ_FIRST_MACRO) {
					if (i->opc != OPC_MOV || i->type == i->dst_type)
						s->mov += 1 + i->repeat;
					else
						s->cov += 1 + i->repeat;
				}
				s->inst += count;
				s->nops += nops;
				if (i->flags & IR3_INSTR_SS) {
					s->ss++;
					s->sstall += d->sfu;
					d->sfu = 0;
				}
				if (i->flags & IR3_INSTR_SY) {
					s->sy++;
					s->systall += d->mem;
					d->mem = 0;
				}
				unsigned step = 1 + i->repeat + i->nop;
				if (ir3_is_ss_producer(i))
					d->sfu = ir3_soft_ss_delay(i);
				else
					d->sfu -= d->sfu < step ? d->sfu : step;
				if (ir3_is_sy_producer(i))
					d->mem = ir3_soft_sy_delay(i, ir->stage);
				else
					d->mem -= d->mem < step ? d->mem : step;
			}
			if (i->opc == OPC_SHPE)
				in_preamble = false;
		}
	}

	s->full = (unsigned)(fp.max_reg + 1);
	s->half = (unsigned)(fp.max_half_reg + 1);
	s->constlen = calc_constlen(ir);
	s->loops = loop_count(ir);

	unsigned regs = (unsigned)(fp.max_reg + 1) + (t->mergedregs ? (unsigned)(fp.max_half_reg + 2) / 2 : 0);
	struct ir3_occupancy occ;
	ir3_occupancy_init(&occ, ir, branchstack);
	bool double_threadsize = ir3_should_double_threadsize(&occ, regs);
	unsigned indep = ir3_reg_independent_max_waves(&occ, double_threadsize);
	unsigned dep = ir3_reg_dependent_max_waves(&occ, regs, double_threadsize);
	s->waves = indep < dep ? indep : dep;
}

void ir3_collect_stats(struct ir3 *ir, unsigned branchstack, struct stat_values *v)
{
	struct counts c;
	count(ir, branchstack, &c);
	memset(v, 0, sizeof(*v));
	stat_set(v, STAT_INST, c.inst);
	stat_set(v, STAT_NOPS, c.nops);
	stat_set(v, STAT_NON_NOPS, c.inst - c.nops);
	stat_set(v, STAT_MOV, c.mov);
	stat_set(v, STAT_COV, c.cov);
	stat_set(v, STAT_DWORDS, c.dwords);
	stat_set(v, STAT_LAST_BARYF, c.last_baryf);
	stat_set(v, STAT_LAST_HELPER, c.last_helper);
	stat_set(v, STAT_HALF, c.half);
	stat_set(v, STAT_FULL, c.full);
	stat_set(v, STAT_CONSTLEN, c.constlen);
	_Static_assert(STAT_CAT7 == STAT_CAT0 + 7, "the cat rows are adjacent");
	for (unsigned k = 0; k < 8; k++)
		stat_set(v, STAT_CAT0 + k, c.cat[k]);
	stat_set(v, STAT_STP, c.stp);
	stat_set(v, STAT_LDP, c.ldp);
	stat_set(v, STAT_SSTALL, c.sstall);
	stat_set(v, STAT_SS, c.ss);
	stat_set(v, STAT_SYSTALL, c.systall);
	stat_set(v, STAT_SY, c.sy);
	stat_set(v, STAT_WAVES, c.waves);
	stat_set(v, STAT_LOOPS, c.loops);
	/* only a shader with a preamble has the row (Mesa 24.3's shader-db
	 * line, which the reference figures follow, has none) */
	if (c.has_preamble)
		stat_set(v, STAT_PREAMBLE_INST, c.preamble_inst);
}
