/*
 * The simulator's core: the program flattened to a pc per instruction,
 * fibres and waves, control flow, the register file and the timing model.
 *
 * Control flow.  Each fibre has its own pc; a wave runs the instruction
 * at the lowest pc any of its running fibres is at, for the fibres there
 * (the hardware's reconvergence: the lowest pc first), so a divergent
 * branch runs both sides one after the other and the sides meet again.
 * Waves run one after the other, each until it ends or reaches a `bar`,
 * which releases when every wave is there (or has ended).
 *
 * Timing (targets.md §1.6, the rules of ir3_verify_timing.c), per wave on
 * the cycles its instructions take: an ALU or flow instruction (not
 * jump/br/braa/brao) takes 1 + repeat + nop cycles.  A read of an ALU
 * result before it is ready — alu_to_alu cycles after the write for an
 * ALU reader of the same register size, non_alu otherwise (and for p0,
 * a0) — or of an SFU/local result without (ss), a texture/memory result
 * without (sy), is refused: the value read is poison and remembers the
 * instruction.  Writing a register whose asynchronous result is still to
 * come gives poison too (the late result may land after it); writing one
 * an asynchronous instruction may still read poisons that instruction's
 * result (a store's: the run is undefined).  After a cat7 barrier the
 * next instruction must carry (ss)(sy), else the run is undefined.
 */
#include "compiler/ir3/sim/sim_priv.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

/* ------------------------------------------------------------------ */
/* messages */

void sim_print_instr(struct strbuf *sb, const struct ir3_sim *sim, uint32_t pc)
{
	strbuf_addch(sb, '`');
	struct strbuf t = STRBUF_INIT;
	ir3_print_instr(&t, sim->prog[pc].i);
	/* the printer's line, without its indent and newline */
	char *p = t.buf;
	while (*p == '\t' || *p == ' ')
		p++;
	size_t n = strlen(p);
	while (n && (p[n - 1] == '\n' || p[n - 1] == ' '))
		n--;
	strbuf_add(sb, p, n);
	strbuf_release(&t);
	strbuf_addf(sb, "` (b%u, pc %u)", sim->prog[pc].block, pc);
}

static void stop_with(struct srun *r, enum interp_status st, const char *fmt, va_list ap)
{
	if (r->stop)
		return;
	r->stop = true;
	r->status = st;
	strbuf_vaddf(&r->msg, fmt, ap);
}

void sim_stop(struct srun *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	stop_with(r, INTERP_UNDEFINED, fmt, ap);
	va_end(ap);
}

void sim_error(struct srun *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	stop_with(r, INTERP_ERROR, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* registers */

unsigned sim_unit(const struct ir3_sim *sim, const struct ir3_register *r, unsigned comp)
{
	unsigned first = 0;
	if (r->flags & IR3_REG_ARRAY)
		ir3_reg_span(r, &first);
	unsigned num = r->num + first + comp;
	if (r->flags & IR3_REG_PREDICATE)
		return SIM_P_UNIT + (num & 3);
	if (r->flags & IR3_REG_ADDR)
		return SIM_A_UNIT + (num & 1);
	if (r->flags & IR3_REG_HALF)
		return (sim->t->mergedregs ? 0 : SIM_HALF_FILE) + num % SIM_HALF_FILE;
	return sim_full_unit(num % SIM_GPR_COMPS);
}

static bool reads_register(const struct ir3_register *r)
{
	return !(r->flags & (IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_RT));
}

/* Source `n` element `e` of fibre f was refused by the timing check. */
static bool refused_bit(const struct srun *r, unsigned f, unsigned n, unsigned e)
{
	return n < 16 && e < 32 && ((r->refused[(size_t)f * 16 + n] >> e) & 1);
}

static uint32_t read_units(struct srun *r, unsigned f, unsigned unit, unsigned count, bool *poison,
			   uint32_t *cause)
{
	uint32_t v = 0;
	for (unsigned k = 0; k < count; k++) {
		size_t at = sim_at(r, f, unit + k);
		v |= (uint32_t)r->reg[at] << (16 * k);
		if (r->poison[at]) {
			*poison = true;
			if (!*cause)
				*cause = r->cause[at];
		}
	}
	return v;
}

/* A const component: half consts of float opcodes (and of float movs,
 * which Mesa's reg_cp lets read them) hold f32 values the hardware
 * converts (constant demotion: Mesa's lower_immed), other half reads take
 * the low 16 bits. */
static struct sval read_const(struct srun *r, const struct ir3_instruction *i,
			      const struct ir3_register *src, int comp)
{
	struct sval v = { 0 };
	if (comp < 0 || comp >= SIM_CONSTS || !r->const_set[comp]) {
		v.poison = true;
		return v;
	}
	v.bits = r->consts[comp];
	bool float_read = (ir3_has_flag(i, IR3_OP_FLOAT) && ir3_cat(i) >= 2 && ir3_cat(i) <= 3) ||
			  (i->opc == OPC_MOV && ir3_type_is_float(i->type));
	if (src->flags & IR3_REG_HALF)
		v.bits = float_read ? sim_f32_to_f16(v.bits) : v.bits & 0xffff;
	return v;
}

/* The component r<a0.x + n> names for fibre f: an element of its array,
 * or -1 when a0.x points outside it (poison: reads give poison, writes are
 * dropped; the hardware would reach another register). */
static int array_elem(struct srun *r, unsigned f, const struct ir3_register *reg)
{
	size_t at = sim_at(r, f, SIM_A_UNIT);
	if (r->poison[at])
		return -1;
	int k = (int16_t)r->reg[at] + reg->rel_offset;
	if (k < 0 || k >= (int)reg->size)
		return -1;
	return (int)reg->num + k;
}

struct sval sim_read(struct srun *r, uint32_t pc, unsigned f, const struct ir3_register *src,
		     unsigned e)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	struct sval v = { 0 };
	if (src->flags & IR3_REG_IMMED) {
		/* (r) on an immediate (bary.f, flat.b): the next one each repetition */
		uint32_t u = src->uim + ((src->flags & IR3_REG_R) ? e : 0);
		v.bits = (src->flags & IR3_REG_HALF) ? u & 0xffff : u;
		return v;
	}
	if (src->flags & IR3_REG_CONST) {
		int comp = (int)src->num + (int)e;
		if (src->flags & IR3_REG_RELATIV) {
			size_t at = sim_at(r, f, SIM_A_UNIT);
			comp = (int16_t)r->reg[at] + src->rel_offset + (int)e;
			if (r->poison[at])
				return (struct sval){ 0, true, r->cause[at] };
		}
		v = read_const(r, i, src, comp);
	} else if (ir3_reg_is_array_access(src) && (src->flags & IR3_REG_RELATIV)) {
		int at = array_elem(r, f, src);
		if (at < 0)
			return (struct sval){ 0, true, pc + 1 };
		struct ir3_register one = *src;
		one.flags &= ~(IR3_REG_ARRAY | IR3_REG_RELATIV);
		one.num = (unsigned)at;
		v.bits = read_units(r, f, sim_unit(r->sim, &one, 0), sim_unit_count(src), &v.poison,
				    &v.cause);
	} else {
		unsigned unit = sim_unit(r->sim, src, e);
		v.bits = read_units(r, f, unit, sim_unit_count(src), &v.poison, &v.cause);
	}
	for (unsigned n = 0; n < i->nsrc; n++)
		if (i->srcs[n] == src && refused_bit(r, f, n, e)) {
			v.poison = true;
			v.cause = pc + 1;
		}
	return v;
}

struct sval sim_read_tex(struct srun *r, uint32_t pc, unsigned f, unsigned n, unsigned e)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	const struct ir3_register *src = i->srcs[n];
	const struct stiming *t = r->wave->t;
	if (reads_register(src)) {
		unsigned unit = sim_unit(r->sim, src, e);
		for (unsigned k = 0; k < t->num_aliases; k++) {
			if (t->alias[k].unit != unit)
				continue;
			struct sval v = sim_read(r, pc, f, t->alias[k].src, t->alias[k].elem);
			if (refused_bit(r, f, n, e)) {
				v.poison = true;
				v.cause = pc + 1;
			}
			return v;
		}
	}
	return sim_read(r, pc, f, src, e);
}

static bool pending(const struct srun *r, size_t at)
{
	const struct stiming *t = r->wave->t;
	return r->t_ss[at] > t->ss_tick || r->t_sy[at] > t->sy_tick;
}

static bool war_pending(const struct srun *r, size_t at)
{
	const struct stiming *t = r->wave->t;
	uint32_t any = t->ss_tick > t->sy_tick ? t->ss_tick : t->sy_tick;
	return r->t_war_ss[at] > t->ss_tick || r->t_war_any[at] > any;
}

static void refuse(struct srun *r, uint32_t pc, unsigned f, unsigned n, unsigned e,
		   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* A write: to a register still waiting for an asynchronous result (the
 * late result may land after it: poison), or one an asynchronous
 * instruction may still read (its result is poison, a store's undefined). */
void sim_write(struct srun *r, uint32_t pc, unsigned f, const struct ir3_register *dst,
	       unsigned e, struct sval v)
{
	struct ir3_register one;
	if (ir3_reg_is_array_access(dst) && (dst->flags & IR3_REG_RELATIV)) {
		int at = array_elem(r, f, dst);
		if (at < 0)
			return;
		one = *dst;
		one.flags &= ~(IR3_REG_ARRAY | IR3_REG_RELATIV);
		one.num = (unsigned)at;
		dst = &one;
		e = 0;
	}
	unsigned unit = sim_unit(r->sim, dst, e), n = sim_unit_count(dst);
	bool clobbered = false;
	for (unsigned k = 0; k < n; k++) {
		size_t at = sim_at(r, f, unit + k);
		if (pending(r, at)) {
			clobbered = true;
			const struct ir3_instruction *p = r->sim->prog[r->t_pend_by[at] - 1].i;
			refuse(r, pc, f, 16, 0, "writes a register whose %s result is still to come",
			       ir3_op(p->opc)->name);
		}
		if (war_pending(r, at)) {
			uint32_t by = r->t_war_by[at];
			refuse(r, pc, f, 16, 0, "overwrites a register %s may still read",
			       ir3_op(r->sim->prog[by - 1].i->opc)->name);
			r->t_war_ss[at] = r->t_war_any[at] = 0;
			sim_war_poison(r, by - 1, f);
		}
	}
	for (unsigned k = 0; k < n; k++) {
		size_t at = sim_at(r, f, unit + k);
		r->reg[at] = (uint16_t)(v.bits >> (16 * k));
		r->poison[at] = v.poison || clobbered;
		r->cause[at] = clobbered ? pc + 1 : v.cause;
		r->writer[at] = pc + 1;
	}
	if (dst->flags & IR3_REG_PREDICATE)
		r->reg[sim_at(r, f, unit)] = v.bits & 1;
}

/* ------------------------------------------------------------------ */
/* timing (the verifier's rules, on the cycles the wave really runs) */

static bool is_alu(const struct ir3_instruction *i)
{
	return ir3_cat(i) >= 1 && ir3_cat(i) <= 3;
}

static bool takes_cycles(const struct ir3_instruction *i)
{
	if (is_alu(i))
		return true;
	if (ir3_cat(i) != 0)
		return false;
	return i->opc != OPC_JUMP && i->opc != OPC_BR && i->opc != OPC_BRAA && i->opc != OPC_BRAO;
}

/* swz, gat, sct: their (rptN) counts their sources, one element each */
static bool multi_mov(const struct ir3_instruction *i)
{
	return i->opc == OPC_SWZ || i->opc == OPC_GAT || i->opc == OPC_SCT;
}

static unsigned late_read(const struct ir3_sim *sim, const struct ir3_instruction *i, unsigned n)
{
	if (i->opc == OPC_GAT || i->opc == OPC_SWZ)
		return n;
	return ir3_has_flag(i, IR3_OP_MAD) && n == 2 ? sim->t->delay.cat3_src2_read : 0;
}

static bool needs_ss_result(const struct ir3_instruction *i)
{
	if (ir3_cat(i) == 4)
		return true;
	return ir3_is_local_load(i) || i->opc == OPC_SHFL || i->opc == OPC_GETFIBERID ||
	       i->opc == OPC_RESINFO ||
	       (ir3_has_flag(i, IR3_OP_ATOMIC) && ir3_has_flag(i, IR3_OP_LOCAL));
}

static bool needs_sy_result(const struct ir3_instruction *i)
{
	if (ir3_cat(i) == 5)
		return i->ndst > 0;
	if (ir3_has_flag(i, IR3_OP_LOCAL))
		return false;
	return (ir3_has_flag(i, IR3_OP_LOAD) || ir3_has_flag(i, IR3_OP_ATOMIC)) &&
	       i->opc != OPC_LDLV;
}

static unsigned elems(const struct ir3_register *r)
{
	unsigned first;
	return ir3_reg_span(r, &first);
}

/* The units of element e of r, in the timing state; 0 when none. */
static unsigned timing_units(const struct ir3_sim *sim, const struct ir3_register *r, unsigned e,
			     unsigned *first)
{
	if (!reads_register(r) || (r->flags & IR3_REG_SHARED))
		return 0;
	*first = sim_unit(sim, r, e);
	return sim_unit_count(r);
}

static void refuse(struct srun *r, uint32_t pc, unsigned f, unsigned n, unsigned e,
		   const char *fmt, ...)
{
	if (n < 16 && e < 32)
		r->refused[(size_t)f * 16 + n] |= 1u << e;
	if (r->first_refused)
		return;
	r->first_refused = pc + 1;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&r->refused_msg, fmt, ap);
	va_end(ap);
	strbuf_addstr(&r->refused_msg, " in ");
	sim_print_instr(&r->refused_msg, r->sim, pc);
}

static void unit_name(struct strbuf *sb, const struct ir3_register *reg, unsigned e)
{
	unsigned num = reg->num + e;
	if (reg->flags & IR3_REG_PREDICATE)
		strbuf_addf(sb, "p0.%c", "xyzw"[num & 3]);
	else if (reg->flags & IR3_REG_ADDR)
		strbuf_addf(sb, "a%u.x", num & 1);
	else
		ir3_reg_name(sb, num, reg->flags & IR3_REG_HALF);
}

/* Check fibre f's read of element `el` of `reg` at cycle `at`: element e
 * of source n. */
static void check_read(struct srun *r, uint32_t pc, unsigned f, const struct ir3_register *reg,
		       unsigned el, unsigned n, unsigned e, int64_t at, bool delay)
{
	const struct ir3_sim *sim = r->sim;
	const struct ir3_instruction *i = sim->prog[pc].i;
	unsigned first = 0, count = timing_units(sim, reg, el, &first);
	bool half = reg->flags & IR3_REG_HALF;
	bool pred = reg->flags & (IR3_REG_PREDICATE | IR3_REG_ADDR);
	const struct stiming *t = r->wave->t;
	for (unsigned u = first; u < first + count; u++) {
		size_t x = sim_at(r, f, u);
		const char *why = r->t_ss[x] > t->ss_tick ? "(ss)" : r->t_sy[x] > t->sy_tick ? "(sy)" : NULL;
		int64_t need = 0;
		if (!why && delay && r->t_written[x] != INT32_MIN) {
			bool same = pred || (bool)r->t_half[x] == half;
			need = (int64_t)r->t_written[x] +
			       (is_alu(i) && same && !pred ? sim->t->delay.alu_to_alu : sim->t->delay.non_alu);
		}
		if (!why && at >= need)
			continue;
		struct strbuf name = STRBUF_INIT;
		unit_name(&name, reg, el);
		if (why)
			refuse(r, pc, f, n, e, "reads %s without the %s its producer (%s) needs", name.buf,
			       why, ir3_op(sim->prog[r->t_pend_by[x] - 1].i->opc)->name);
		else
			refuse(r, pc, f, n, e, "reads %s %lld cycle(s) before it is ready", name.buf,
			       (long long)(need - at));
		strbuf_release(&name);
		return;
	}
}

/* An alias.tex in effect for this unit: its index, or -1. */
static int alias_of(const struct stiming *t, unsigned unit)
{
	for (unsigned k = 0; k < t->num_aliases; k++)
		if (t->alias[k].unit == unit)
			return (int)k;
	return -1;
}

static void check_reads(struct srun *r, uint32_t pc, unsigned f, int64_t issue)
{
	const struct ir3_sim *sim = r->sim;
	const struct ir3_instruction *i = sim->prog[pc].i;
	const struct stiming *t = r->wave->t;
	bool end = i->opc == OPC_END || i->opc == OPC_CHMASK;
	for (unsigned n = 0; n < i->nsrc; n++) {
		const struct ir3_register *s = i->srcs[n];
		if (s->flags & IR3_REG_TIED)
			continue;	/* an array write's old version: no operand */
		if ((s->flags & IR3_REG_CONST) && !(s->flags & IR3_REG_RELATIV) &&
		    s->num < SIM_CONSTS && bitset_test(t->const_ss, s->num) &&
		    !(i->flags & IR3_INSTR_SS))
			refuse(r, pc, f, n, 0, "reads a const an stc wrote without (ss)");
		if ((s->flags & IR3_REG_RELATIV) ||
		    (n == 0 && i->ndst && (i->dsts[0]->flags & IR3_REG_RELATIV))) {
			struct ir3_register a0 = { .flags = IR3_REG_ADDR, .num = 0, .wrmask = 1 };
			check_read(r, pc, f, &a0, 0, n, 0, issue, true);
		}
		bool vec = ir3_cat(i) >= 5 || end || multi_mov(i);
		unsigned ne = vec ? elems(s) : i->repeat + 1;
		int64_t at = issue + late_read(sim, i, n);
		for (unsigned e = 0; e < ne; e++) {
			unsigned el = vec || (s->flags & IR3_REG_R) ? e : 0;
			unsigned first = 0;
			int k;
			if (ir3_cat(i) == 5 && timing_units(sim, s, el, &first) &&
			    (k = alias_of(t, first)) >= 0) {
				/* alias.tex: its source is read now */
				const struct ir3_register *as = t->alias[k].src;
				if (reads_register(as))
					check_read(r, pc, f, as, t->alias[k].elem, n, e, at, true);
				continue;
			}
			check_read(r, pc, f, s, el, n, e, at, !end);
			if (i->repeat && !(s->flags & IR3_REG_RELATIV))
				at++;
		}
	}
}

static void set_pending(struct srun *r, unsigned f, uint32_t *set, uint32_t *by,
			const struct ir3_register *reg, uint32_t pc)
{
	for (unsigned e = 0; e < elems(reg); e++) {
		unsigned first = 0, count = timing_units(r->sim, reg, e, &first);
		for (unsigned u = first; u < first + count; u++) {
			size_t x = sim_at(r, f, u);
			set[x] = r->wave->t->tick;
			by[x] = pc + 1;
		}
	}
}

static void record_writes(struct srun *r, unsigned f, const struct ir3_instruction *i,
			  int64_t issue)
{
	for (unsigned n = 0; n < i->ndst; n++) {
		const struct ir3_register *d = i->dsts[n];
		int64_t w = issue + 1 + ((i->opc == OPC_SWZ || i->opc == OPC_SCT) ? (int64_t)n : 0);
		unsigned ne = i->repeat && !multi_mov(i) ? i->repeat + 1 : elems(d);
		for (unsigned e = 0; e < ne; e++) {
			unsigned first = 0, count = timing_units(r->sim, d, e, &first);
			for (unsigned u = first; u < first + count; u++) {
				size_t x = sim_at(r, f, u);
				r->t_written[x] = is_alu(i) ? (int32_t)w : INT32_MIN;
				r->t_half[x] = (d->flags & IR3_REG_HALF) != 0;
			}
			if (i->repeat)
				w++;
		}
	}
}

static void timing_before(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	const struct swave *w = r->wave;
	struct stiming *t = w->t;
	unsigned fl = i->flags;
	t->tick++;
	if (fl & IR3_INSTR_SS)
		t->barrier_ss = false;
	if (fl & IR3_INSTR_SY)
		t->barrier_sy = false;
	if (t->barrier_block != r->sim->prog[pc].block)
		t->barrier_ss = t->barrier_sy = false;	/* Mesa's rule: the same block */
	if ((t->barrier_ss || t->barrier_sy) && i->opc != OPC_NOP) {
		struct strbuf sb = STRBUF_INIT;
		sim_print_instr(&sb, r->sim, pc);
		sim_stop(r, "%s follows a barrier without (ss)(sy)", sb.buf);
		strbuf_release(&sb);
		return;
	}
	/* a sync waits for the whole wave's outstanding results */
	if (fl & IR3_INSTR_SS) {
		t->ss_tick = t->tick;
		memset(t->const_ss, 0, sizeof(t->const_ss));
	}
	if (fl & IR3_INSTR_SY)
		t->sy_tick = t->tick;
	t->tick++;
	for (unsigned f = w->first; f < w->first + w->count; f++) {
		if (!r->active[f])
			continue;
		memset(&r->refused[(size_t)f * 16], 0, 16 * sizeof(uint32_t));
		if (i->opc != OPC_ALIAS)
			check_reads(r, pc, f, t->cycle);
	}
}

static bool is_store(const struct ir3_instruction *i)
{
	return ir3_has_flag(i, IR3_OP_STORE);
}

static void timing_after(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	const struct swave *w = r->wave;
	struct stiming *t = w->t;
	if (i->opc == OPC_ALIAS)
		return;
	if (ir3_syncs_next(i)) {
		t->barrier_ss = t->barrier_sy = true;
		t->barrier_block = r->sim->prog[pc].block;
	}
	else if (i->opc != OPC_NOP)
		t->barrier_ss = t->barrier_sy = false;
	for (unsigned f = w->first; f < w->first + w->count; f++) {
		if (!r->active[f])
			continue;
		record_writes(r, f, i, t->cycle);
		if (i->ndst && needs_ss_result(i))
			set_pending(r, f, r->t_ss, r->t_pend_by, i->dsts[0], pc);
		if (i->ndst && needs_sy_result(i))
			set_pending(r, f, r->t_sy, r->t_pend_by, i->dsts[0], pc);
		if (ir3_cat(i) >= 4 && ir3_cat(i) <= 6) {
			bool ss = needs_ss_result(i) || is_store(i);
			for (unsigned n = 0; n < i->nsrc; n++)
				if (reads_register(i->srcs[n]))
					set_pending(r, f, ss ? r->t_war_ss : r->t_war_any, r->t_war_by,
						    i->srcs[n], pc);
		}
	}
	if (i->opc == OPC_STC && i->nsrc >= 2 && (i->srcs[0]->flags & IR3_REG_IMMED))
		for (unsigned k = ir3_stc_dst(i); k < ir3_stc_dst(i) + elems(i->srcs[1]) && k < SIM_CONSTS; k++)
			bitset_set(t->const_ss, k);
	if (ir3_cat(i) == 5)
		t->num_aliases = 0;
	if (takes_cycles(i))
		t->cycle += 1 + (int64_t)i->repeat + (int64_t)i->nop;
}

/* A write-after-read hazard: the asynchronous instruction at `pc` may read
 * fibre f's new value: its result is poison (a store's: undefined). */
void sim_war_poison(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	if (!i->ndst) {
		struct strbuf sb = STRBUF_INIT;
		sim_print_instr(&sb, r->sim, pc);
		sim_stop(r, "a source of %s is overwritten before it was read", sb.buf);
		strbuf_release(&sb);
		return;
	}
	for (unsigned e = 0; e < elems(i->dsts[0]); e++) {
		unsigned unit = sim_unit(r->sim, i->dsts[0], e);
		for (unsigned k = 0; k < sim_unit_count(i->dsts[0]); k++) {
			r->poison[sim_at(r, f, unit + k)] = true;
			r->cause[sim_at(r, f, unit + k)] = pc + 1;
		}
	}
}

/* ------------------------------------------------------------------ */
/* flow */

static bool pred_of(struct srun *r, uint32_t pc, unsigned f, unsigned n)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	struct sval v = sim_read(r, pc, f, i->srcs[n], 0);
	if (v.poison) {
		struct strbuf sb = STRBUF_INIT;
		sim_print_instr(&sb, r->sim, pc);
		sim_stop(r, "%s branches on an undefined predicate", sb.buf);
		strbuf_release(&sb);
		return false;
	}
	return v.bits & 1;
}

static void each_active(struct srun *r, void (*fn)(struct srun *, uint32_t, unsigned), uint32_t pc)
{
	const struct swave *w = r->wave;
	for (unsigned f = w->first; f < w->first + w->count && !r->stop; f++)
		if (r->active[f])
			fn(r, pc, f);
}

static void exec_br(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	bool c = pred_of(r, pc, f, 0);
	if (i->flags & IR3_INSTR_INV)
		c = !c;
	if (i->opc == OPC_BRAA || i->opc == OPC_BRAO) {
		bool d = pred_of(r, pc, f, 1);
		c = i->opc == OPC_BRAA ? c && d : c || d;
	}
	if (c)
		r->pc[f] = r->sim->prog[pc].target;
}

static void exec_kill(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	bool c = pred_of(r, pc, f, 0);
	if (i->flags & IR3_INSTR_INV)
		c = !c;
	if (!c)
		return;
	if (i->opc == OPC_DEMOTE) {
		r->demoted[f] = true;
		return;
	}
	r->state[f] = FIBRE_KILLED;
	if (!r->gs_verts)	/* a GS fibre killed: a vertex not emitted */
		r->res->fate[f] = LANE_DISCARDED;
}

static void exec_end(struct srun *r, uint32_t pc, unsigned f)
{
	(void)pc;
	sim_bind_outputs(r, f);
	r->state[f] = FIBRE_ENDED;
}

/* bany/ball, getone, shps: one decision for the fibres at the instruction. */
static void exec_wave_flow(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	const struct swave *w = r->wave;
	uint32_t target = r->sim->prog[pc].target;
	bool any = false, all = true, first = true;
	for (unsigned f = w->first; f < w->first + w->count && !r->stop; f++) {
		if (!r->active[f])
			continue;
		switch (i->opc) {
		case OPC_BANY: case OPC_BALL: {
			bool c = pred_of(r, pc, f, 0);
			if (i->flags & IR3_INSTR_INV)
				c = !c;
			any |= c;
			all &= c;
			break;
		}
		case OPC_GETONE:
			if (!first)
				r->pc[f] = target;
			first = false;
			break;
		case OPC_SHPS:
			if (r->preamble_done)
				r->pc[f] = target;
			break;
		default:
			break;
		}
	}
	if (i->opc != OPC_BANY && i->opc != OPC_BALL)
		return;
	bool take = i->opc == OPC_BANY ? any : all;
	for (unsigned f = w->first; f < w->first + w->count; f++)
		if (r->active[f] && take)
			r->pc[f] = target;
}

static void exec_flow(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	switch (i->opc) {
	case OPC_NOP:
		return;
	case OPC_JUMP:
		for (unsigned f = r->wave->first; f < r->wave->first + r->wave->count; f++)
			if (r->active[f])
				r->pc[f] = r->sim->prog[pc].target;
		return;
	case OPC_BR: case OPC_BRAA: case OPC_BRAO:
		each_active(r, exec_br, pc);
		return;
	case OPC_KILL: case OPC_DEMOTE:
		each_active(r, exec_kill, pc);
		return;
	case OPC_END:
		each_active(r, exec_end, pc);
		return;
	case OPC_BANY: case OPC_BALL: case OPC_GETONE: case OPC_SHPS:
		exec_wave_flow(r, pc);
		return;
	case OPC_SHPE:
		r->preamble_done = true;
		return;
	default:
		sim_error(r, "the simulator does not run %s", ir3_op(i->opc)->name);
		return;
	}
}

static void exec_cat7(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	struct stiming *t = r->wave->t;
	if (i->opc == OPC_ALIAS && i->alias_scope == ALIAS_TEX) {
		unsigned first = 0;
		if (timing_units(r->sim, i->dsts[0], 0, &first) && t->num_aliases < SIM_MAX_ALIASES) {
			t->alias[t->num_aliases].unit = first;
			t->alias[t->num_aliases].src = i->srcs[0];
			t->alias[t->num_aliases++].elem = 0;
		}
		return;
	}
	if (i->opc == OPC_ALIAS && i->alias_scope == ALIAS_RT) {
		sim_bind_rt(r, i, pc);
		return;
	}
	if (i->opc == OPC_BAR)
		r->wave->at_barrier = true;
	/* the rest change nothing a shader computes: fence, the caches' and
	 * a7xx's lock/unlock before a compute shader's end (a hardware
	 * workaround, no data of its own) */
}

/* ------------------------------------------------------------------ */
/* running */

static void exec(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = r->sim->prog[pc].i;
	const struct swave *w = r->wave;
	if (++r->steps > r->step_limit) {
		r->stop = true;
		r->status = INTERP_STEP_LIMIT;
		strbuf_addf(&r->msg, "the machine code ran more than %llu instructions",
			    (unsigned long long)r->step_limit);
		return;
	}
	for (unsigned f = w->first; f < w->first + w->count; f++)
		if (r->active[f])
			r->pc[f] = pc + 1;
	timing_before(r, pc);
	if (r->stop)
		return;
	switch (ir3_cat(i)) {
	case 0: exec_flow(r, pc); break;
	case 1: case 2: case 3: case 4: sim_exec_alu(r, pc); break;
	case 5: sim_exec_tex(r, pc); break;
	case 6: sim_exec_mem(r, pc); break;
	case 7: exec_cat7(r, pc); break;
	default: break;
	}
	timing_after(r, pc);
}

/* One instruction of wave w (false: it has ended). */
static bool step_wave(struct srun *r, struct swave *w)
{
	r->wave = w;
	uint32_t min = UINT32_MAX;
	for (unsigned f = w->first; f < w->first + w->count; f++)
		if (r->state[f] == FIBRE_RUNNING && r->pc[f] < min)
			min = r->pc[f];
	if (min == UINT32_MAX) {
		w->done = true;
		return false;
	}
	if (min >= r->sim->nprog) {
		sim_stop(r, "a fibre ran past the last instruction");
		return false;
	}
	for (unsigned f = w->first; f < w->first + w->count; f++)
		r->active[f] = r->state[f] == FIBRE_RUNNING && r->pc[f] == min;
	exec(r, min);
	return true;
}

/* The waves one instruction each in turn (the interpreter's order: an
 * instruction for every lane, then the next), a wave at a barrier waiting
 * until every wave that has not ended is there. */
static void run_waves(struct srun *r)
{
	for (;;) {
		bool ran = false, all_done = true;
		for (unsigned k = 0; k < r->nwaves && !r->stop; k++) {
			struct swave *w = &r->waves[k];
			if (!w->done && !w->at_barrier)
				ran |= step_wave(r, w);
			all_done &= w->done;
		}
		if (r->stop || all_done)
			return;
		if (!ran)
			for (unsigned k = 0; k < r->nwaves; k++)
				r->waves[k].at_barrier = false;
	}
}

static void setup_waves(struct srun *r)
{
	unsigned ws = r->sim->wave_size;
	r->nwaves = (r->nf + ws - 1) / ws;
	r->waves = arena_array(&r->arena, struct swave, r->nwaves);
	for (unsigned k = 0; k < r->nwaves; k++) {
		struct swave *w = &r->waves[k];
		w->first = k * ws;
		w->count = r->nf - w->first < ws ? r->nf - w->first : ws;
		w->t = arena_array(&r->arena, struct stiming, 1);
	}
	size_t n = (size_t)r->nf * SIM_UNITS;
	r->t_written = arena_array(&r->arena, int32_t, n);
	for (size_t k = 0; k < n; k++)
		r->t_written[k] = INT32_MIN;
	r->t_half = arena_array(&r->arena, uint8_t, n);
	r->t_ss = arena_array(&r->arena, uint32_t, n);
	r->t_sy = arena_array(&r->arena, uint32_t, n);
	r->t_war_ss = arena_array(&r->arena, uint32_t, n);
	r->t_war_any = arena_array(&r->arena, uint32_t, n);
	r->t_pend_by = arena_array(&r->arena, uint32_t, n);
	r->t_war_by = arena_array(&r->arena, uint32_t, n);
	r->refused = arena_array(&r->arena, uint32_t, (size_t)r->nf * 16);
}

struct interp_result *ir3_sim_run(struct ir3_sim *sim, const struct interp_inputs *in)
{
	if (sim->last) {
		arena_release(&sim->last->arena);
		strbuf_release(&sim->last->msg);
		strbuf_release(&sim->last->refused_msg);
		free(sim->last);
	}
	struct srun *r = xcalloc(1, sizeof(*r));
	sim->last = r;
	arena_init(&r->arena);
	strbuf_init(&r->msg);
	strbuf_init(&r->refused_msg);
	r->sim = sim;
	r->in = in;
	r->nf = sim_stage_fibres(sim, in);
	r->gs_verts = sim->s->stage == STAGE_GEOMETRY ? r->nf / in->num_lanes : 0;
	r->res = interp_result_create(sim->s, in);
	r->outs = r->res->outputs;
	size_t n = (size_t)r->nf * SIM_UNITS;
	r->reg = arena_array(&r->arena, uint16_t, n);
	r->poison = arena_alloc(&r->arena, n);
	memset(r->poison, 1, n);
	r->writer = arena_array(&r->arena, uint32_t, n);
	r->cause = arena_array(&r->arena, uint32_t, n);
	r->state = arena_array(&r->arena, uint8_t, r->nf);
	r->demoted = arena_array(&r->arena, uint8_t, r->nf);
	r->pc = arena_array(&r->arena, uint32_t, r->nf);
	r->active = arena_array(&r->arena, uint8_t, r->nf);
	setup_waves(r);
	/* the machine runs several instructions for one of the IR, per wave */
	r->step_limit = 16 * exec_step_limit(r->nf) * r->nwaves;
	r->wave = &r->waves[0];
	sim_mem_setup(r);
	sim_bind_inputs(r);
	if (!r->stop)
		run_waves(r);
	if (!r->stop && !r->gs_verts)
		for (unsigned f = 0; f < r->nf; f++)
			if (r->state[f] == FIBRE_ENDED && r->demoted[f])
				r->res->fate[f] = LANE_DEMOTED;
	sim_stage_finish(r);
	sim_mem_finish(r);
	r->res->status = r->stop ? r->status : INTERP_OK;
	if (r->stop)
		r->res->message = arena_strdup(&r->res->arena, r->msg.buf);
	r->res->steps = r->steps;
	return r->res;
}

/* ------------------------------------------------------------------ */
/* preparing */

/* The opcodes the simulator runs (the rest: ir3_sim_create says no). */
static bool supported(const struct ir3_instruction *i)
{
	switch (i->opc) {
	case OPC_RET: case OPC_CHMASK: case OPC_CHSH: case OPC_GETLAST: case OPC_PREDT:
	case OPC_PREDF: case OPC_PREDE: case OPC_EMIT: case OPC_CUT:
	case OPC_GAT: case OPC_SCT: case OPC_SETRM: case OPC_SHB: case OPC_MSAD:
	case OPC_SAD_S16: case OPC_SAD_S32: case OPC_DP2ACC: case OPC_DP4ACC:
	case OPC_SHRM: case OPC_SHLM: case OPC_SHRG: case OPC_SHLG: case OPC_ANDG:
	case OPC_HRSQ: case OPC_HLOG2: case OPC_HEXP2:
	case OPC_GETPOS: case OPC_GETBUF: case OPC_CONV: case OPC_CONVM: case OPC_SAMGP0:
	case OPC_SAMGP1: case OPC_SAMGP2: case OPC_SAMGP3: case OPC_RGETINFO:
	case OPC_BRCST_ACTIVE: case OPC_TCINV: case OPC_GETSPID: case OPC_GETWID:
	case OPC_STSC: case OPC_SLEEP: case OPC_ICINV:
		return false;
	default:
		break;
	}
	/* a shared register holds one value for the wave: selection only
	 * places values every fibre has there (a shared system value), which
	 * each fibre's copy of the file holds; a relative one is not run */
	for (unsigned n = 0; n < i->nsrc; n++)
		if ((i->srcs[n]->flags & IR3_REG_RELATIV) &&
		    !(i->srcs[n]->flags & (IR3_REG_CONST | IR3_REG_ARRAY)))
			return false;
	return true;
}

static bool stage_supported(enum shader_stage st)
{
	return st == STAGE_VERTEX || st == STAGE_FRAGMENT || st == STAGE_COMPUTE ||
	       st == STAGE_TESS_CTRL || st == STAGE_TESS_EVAL || st == STAGE_GEOMETRY;
}

struct ir3_sim *ir3_sim_create(struct ir3 *ir, struct shader *s, struct strbuf *why)
{
	if (!ir->iface) {
		strbuf_addstr(why, "the program has no interface (not made by instruction selection)");
		return NULL;
	}
	if (!ir->legalized) {
		strbuf_addstr(why, "the program is not legalised");
		return NULL;
	}
	if (!stage_supported(s->stage)) {
		strbuf_addf(why, "the simulator does not run %s shaders yet", stage_name(s->stage));
		return NULL;
	}
	if (s->stage == STAGE_GEOMETRY &&
	    (s->info.invocations ? s->info.invocations : 1) * s->info.vertices_out > SIM_MAX_FIBRES) {
		strbuf_addf(why, "a geometry shader of more than %u output vertices in all its "
			    "invocations (the simulator's fibres)", SIM_MAX_FIBRES);
		return NULL;
	}
	struct ir3_sim *sim = xcalloc(1, sizeof(*sim));
	arena_init(&sim->arena);
	sim->ir = ir;
	sim->f = ir->iface;
	sim->t = ir->target;
	sim->s = s;
	sim->wave_size = ir->target->threadsize_base;
	unsigned count = 0, nblocks = 0;
	foreach_block(b, ir) {
		nblocks++;
		foreach_instr(i, b)
			count++;
	}
	sim->prog = arena_array(&sim->arena, struct sinstr, count + 1);
	sim->setup = arena_array(&sim->arena, const struct ir3_instruction *, count + 1);
	uint32_t *block_pc = calloc(nblocks + 1, sizeof(uint32_t));
	ir3_index_blocks(ir);
	foreach_block(b, ir) {
		block_pc[b->index] = sim->nprog;
		foreach_instr(i, b) {
			if (i->opc == OPC_META_INPUT || i->opc == OPC_META_TEX_PREFETCH)
				sim->setup[sim->nsetup++] = i;
			if (ir3_is_meta(i))
				continue;
			if (!supported(i) && !why->len) {
				strbuf_addf(why, "the simulator does not run `%s`", ir3_op(i->opc)->name);
				if (i->nsrc && (i->srcs[0]->flags & IR3_REG_RELATIV))
					strbuf_addstr(why, " with a relative register");
			}
			if (i->opc == OPC_END)
				sim->end = i;
			sim->prog[sim->nprog++] = (struct sinstr){ .i = i, .block = b->index };
		}
	}
	for (unsigned pc = 0; pc < sim->nprog; pc++) {
		const struct ir3_instruction *i = sim->prog[pc].i;
		if (i->target)
			sim->prog[pc].target = block_pc[i->target->index];
	}
	free(block_pc);
	if (!sim->end && !why->len)
		strbuf_addstr(why, "the program has no end");
	if (why->len) {
		ir3_sim_free(sim);
		return NULL;
	}
	return sim;
}

void ir3_sim_free(struct ir3_sim *sim)
{
	if (!sim)
		return;
	if (sim->last) {
		arena_release(&sim->last->arena);
		strbuf_release(&sim->last->msg);
		strbuf_release(&sim->last->refused_msg);
		free(sim->last);
	}
	arena_release(&sim->arena);
	free(sim);
}

void ir3_sim_prepare(struct ir3_sim *sim, struct interp_inputs *in)
{
	in->subgroup_size = sim->wave_size;
	/* Mesa selects dsx/dsy for ddx/ddy and the coarse ones, dsxpp.1 for
	 * the fine ones: the plain derivatives are coarse */
	in->coarse_derivatives = true;
	/* a3xx-a5xx read UBOs with ldg at the address the const file holds */
	in->ubo_unchecked = !sim->t->ubo_ldc;
	/* a3xx/a4xx: 32-bit GPU addresses (the machine code keeps a
	 * pointer's low half for the access) */
	in->address_bits = sim->t->is_64bit ? 0 : 32;
}

static void prepare_cb(void *ctx, struct interp_inputs *in)
{
	ir3_sim_prepare(ctx, in);
}

static struct interp_result *run_cb(void *ctx, const struct interp_inputs *in)
{
	struct ir3_sim *sim = ctx;
	return ir3_sim_run(sim, in);
}

static void origin_cb(void *ctx, const struct interp_diff *at, struct strbuf *out)
{
	ir3_sim_origin(ctx, at, out);
}

/* The lowered shader reads the const file through load_uniform (its
 * uniforms are the last run's const file) and its constant data UBO. */
static void lowered_inputs_cb(void *ctx, const struct interp_inputs *in, struct interp_inputs *out)
{
	struct ir3_sim *sim = ctx;
	struct srun *r = sim->last;
	*out = *in;
	uint8_t *image = arena_alloc(&r->arena, sizeof(r->consts));
	memcpy(image, r->consts, sizeof(r->consts));
	out->uniforms = out->push_constants = (struct interp_buffer){ image, sizeof(r->consts) };
	out->num_ubos = r->nubo;
	out->ubo = arena_array(&r->arena, struct interp_buffer, r->nubo + 1);
	for (unsigned k = 0; k < r->nubo; k++)
		out->ubo[k] = (struct interp_buffer){ r->ubo[k].data, r->ubo[k].size };
	sim_stage_lowered_inputs(r, out);
	out->layer_truncates = sim->t->array_index_add_half;
}

/* The lowered shader's narrowed float outputs widened back, as the
 * simulator reports them (put_output): both then say the same bits. */
static void lowered_result_cb(void *ctx, struct interp_result *run)
{
	struct ir3_sim *sim = ctx;
	sim_stage_lowered_result(sim->last, run);
	const struct shader *ls = sim->lowered;
	for (unsigned k = 0; ls && k < run->num_outputs && k < ls->num_outputs && k < sim->s->num_outputs; k++) {
		if (sim->s->outputs[k]->bit_size != 32 || ls->outputs[k]->bit_size != 16)
			continue;
		struct interp_output *o = &run->outputs[k];
		for (size_t x = 0; x < o->count; x++)
			o->vals[x] = ir_float_to_bits(ir_float_from_bits(o->vals[x] & 0xffffu, 16), 32);
	}
}

struct exec_backend ir3_sim_backend(struct ir3_sim *sim, struct shader *lowered)
{
	sim->lowered = lowered;
	return (struct exec_backend){ .name = "ir3 simulator", .ctx = sim, .prepare = prepare_cb,
				      .run = run_cb, .origin = origin_cb, .lowered = lowered,
				      .lowered_inputs = lowered_inputs_cb,
				      .lowered_result = lowered_result_cb };
}
