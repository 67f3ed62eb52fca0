/*
 * etna_verify_regs: an independent check of the allocated program.  It
 * follows what every channel of every physical temporary holds — which
 * value and which of its components — through the blocks (a forward
 * dataflow; where two paths disagree the channel holds nothing known),
 * and checks that every channel an instruction reads holds the component
 * of the value its source named before allocation:
 *
 *  - a per-component or scalar instruction reads, for each channel it
 *    writes, its sources at the channels their swizzles give;
 *  - dp2/3/4 read their sources' first 2/3/4 channels, texture fetches,
 *    loads and outputs as many as the value has (outputs at channels
 *    x, y, …: the register is handed on as it is), branches and kills one;
 *  - inputs are in their registers from the start (the channels of an
 *    input register hold that input register's channels, whichever values
 *    read them: two loads of one input, a vector and one of its
 *    components, read the same channels); a fragment shader's t0 holds the
 *    position; on a path where a phi's source is undefined (an `undef`
 *    marker) its register holds the phi's value, whatever it holds.
 *
 * It does not trust the allocator's liveness or interference: an
 * allocation that lets a write clobber a value still to be read, a wrong
 * write mask, a swizzle that reads the wrong channel — each shows as a read
 * of something else.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/etna/etna_ra.h"
#include "compiler/util/error.h"

#define CELLS (ETNA_MAX_TEMPS * 4)
#define CELL_TOP 0xffffffffu		/* not reached yet */
#define CELL_MIXED 0xfffffffeu		/* paths disagree */
#define CELL_POS 0xfffffff0u		/* + channel: the fragment position */
#define CELL_INPUT 0xf0000000u		/* + register × 4 + channel: an input */

static uint32_t cell(unsigned value, unsigned comp)
{
	return (value + 1) << 2 | comp;
}

struct vstate {
	const struct etna_shader *s;
	struct strbuf *err;
	uint32_t *in;			/* per block: CELLS cells at entry */
	bool failed;
};

static const char comps[] = "xyzw";

static void describe(struct strbuf *out, uint32_t c)
{
	if (c == 0)
		strbuf_addstr(out, "nothing written");
	else if (c >= CELL_INPUT && c < CELL_INPUT + ETNA_MAX_TEMPS * 4)
		strbuf_addf(out, "input t%u.%c", (c - CELL_INPUT) / 4, comps[(c - CELL_INPUT) & 3]);
	else if (c == CELL_MIXED)
		strbuf_addstr(out, "different values on different paths");
	else if (c >= CELL_POS && c < CELL_POS + 4)
		strbuf_addf(out, "the position .%c", comps[c - CELL_POS]);
	else
		strbuf_addf(out, "%%%u.%c", (c >> 2) - 1, comps[c & 3]);
}

static void fail(struct vstate *v, const struct etna_instr *in, const struct etna_src *src,
		 unsigned chan, uint32_t want, uint32_t got)
{
	if (v->failed)
		return;
	v->failed = true;
	strbuf_addf(v->err, "instruction %u (%s) reads t%u.%c: expected ", in->ip,
		    etna_op_infos[in->opc].name, src->reg, comps[chan & 3]);
	describe(v->err, want);
	strbuf_addstr(v->err, ", holds ");
	describe(v->err, got);
}

/* What component `comp` of `value` is: an input's is the channel of its
 * register it arrives in. */
static uint32_t value_cell(const struct etna_shader *s, unsigned value, unsigned comp)
{
	const struct etna_value *val = &s->values.data[value];
	if (!val->live_in)
		return cell(value, comp);
	unsigned base = etna_vreg_base(val->vreg, s->stage);
	return CELL_INPUT + base * 4 + etna_reg_swiz[etna_vreg_type(val->vreg)][comp & 3];
}

static void check(struct vstate *v, const uint32_t *st, const struct etna_instr *in,
		  const struct etna_src *src, unsigned p)
{
	if (src->file != ETNA_FILE_TEMP)
		return;
	unsigned chan = src->swiz[p] & 3;
	uint32_t want = src->fixed ? CELL_POS + (src->vswiz[p] & 3)
				   : value_cell(v->s, src->value, src->vswiz[p]);
	uint32_t got = st[src->reg * 4 + chan];
	if (got != want && got != CELL_TOP)	/* TOP: an unreachable block */
		fail(v, in, src, chan, want, got);
}

/* The instruction channel a written physical channel computes. */
static unsigned channel_of(const struct etna_shader *s, const struct etna_instr *in, unsigned p)
{
	if (in->dst.file != ETNA_FILE_TEMP)
		return p;
	enum etna_reg_type t = etna_vreg_type(s->values.data[in->dst.value].vreg);
	unsigned k = (unsigned)__builtin_popcount(etna_reg_writemask[t] & ((1u << p) - 1));
	return in->dst.vmap[k];
}

static void check_reads(struct vstate *v, const uint32_t *st, const struct etna_instr *in)
{
	const struct etna_shader *s = v->s;
	unsigned f = etna_op_infos[in->opc].flags;
	for (unsigned k = 0; k < 3; k++) {
		struct etna_src src = in->src[k];
		if (src.file != ETNA_FILE_TEMP)
			continue;
		unsigned n = src.fixed ? 4 : s->values.data[src.value].num_components;
		if (f & ETNA_HORIZ) {
			n = in->opc == ETNA_OP_dp2 ? 2 : in->opc == ETNA_OP_dp3 ? 3 : 4;
			for (unsigned p = 0; p < n; p++)
				check(v, st, in, &src, p);
		} else if (f & ETNA_FLOW) {
			check(v, st, in, &src, 0);
		} else if ((f & (ETNA_PER_COMP | ETNA_SCALAR)) && !(f & ETNA_LOAD)) {
			for (unsigned p = 0; p < 4; p++) {
				if (!(in->dst.mask & (1u << p)))
					continue;
				unsigned ch = channel_of(s, in, p);
				struct etna_src one = src;
				one.vswiz[p] = src.vswiz[ch];
				check(v, st, in, &one, p);
				if (f & ETNA_SCALAR)
					break;
			}
		} else if (in->opc == ETNA_OP_output &&
			   s->values.data[src.value].vreg != ETNA_VREG_FRAG_DEPTH) {
			/* the hardware hands on the register, unswizzled
			 * (the fragment depth: t0.z); a location several
			 * outputs share, the channels they stored */
			for (unsigned p = 0; p < n && p < 4; p++) {
				if (in->dst.mask && !(in->dst.mask & (1u << p)))
					continue;
				struct etna_src one = src;
				one.swiz[p] = (uint8_t)p;
				check(v, st, in, &one, p);
			}
		} else {
			for (unsigned p = 0; p < n && p < 4; p++)
				check(v, st, in, &src, p);
		}
	}
}

static void apply_writes(const struct etna_shader *s, uint32_t *st, const struct etna_instr *in)
{
	if (in->dst.file != ETNA_FILE_TEMP || in->dst.fixed)
		return;
	const struct etna_value *val = &s->values.data[in->dst.value];
	enum etna_reg_type t = etna_vreg_type(val->vreg);
	unsigned base = in->dst.reg;
	if (in->opc == ETNA_OP_input)
		return;	/* in its register from the start */
	/* an undefined value is whatever its register holds */
	if (in->opc == ETNA_OP_undef) {
		for (unsigned k = 0; k < val->num_components; k++)
			st[base * 4 + etna_reg_swiz[t][k]] = cell(in->dst.value, k);
		return;
	}
	for (unsigned p = 0, k = 0; p < 4; p++) {
		if (!(etna_reg_writemask[t] & (1u << p)))
			continue;
		if (in->dst.mask & (1u << p))
			st[base * 4 + p] = cell(in->dst.value, k);
		k++;
	}
}

static void meet(uint32_t *to, const uint32_t *from)
{
	for (unsigned i = 0; i < CELLS; i++) {
		if (from[i] == CELL_TOP || to[i] == from[i])
			continue;
		to[i] = to[i] == CELL_TOP ? from[i] : CELL_MIXED;
	}
}

/* Run one block from its entry state; with `checking`, check its reads.
 * Returns whether a successor's entry changed. */
static bool run_block(struct vstate *v, struct etna_block *b, bool checking)
{
	uint32_t st[CELLS];
	memcpy(st, v->in + b->index * CELLS, sizeof(st));
	etna_foreach_instr(in, b) {
		if (checking)
			check_reads(v, st, in);
		apply_writes(v->s, st, in);
	}
	bool changed = false;
	for (unsigned k = 0; k < 2; k++) {
		if (!b->succ[k])
			continue;
		uint32_t *to = v->in + b->succ[k]->index * CELLS, before[CELLS];
		memcpy(before, to, sizeof(before));
		meet(to, st);
		changed |= memcmp(before, to, sizeof(before)) != 0;
	}
	return changed;
}

bool etna_verify_regs(const struct etna_shader *s, struct strbuf *err)
{
	struct vstate v = { .s = s, .err = err };
	if (!s->assigned) {
		strbuf_addstr(err, "registers are not assigned");
		return false;
	}
	v.in = xmalloc(sizeof(uint32_t) * CELLS * (s->num_blocks + 1));
	memset(v.in, 0xff, sizeof(uint32_t) * CELLS * (s->num_blocks + 1));
	struct etna_block *first = list_entry(list_first(&s->blocks), struct etna_block, link);
	uint32_t *entry = v.in + first->index * CELLS;
	for (unsigned i = 0; i < CELLS; i++)
		entry[i] = 0;
	if (s->stage == STAGE_FRAGMENT)
		for (unsigned c = 0; c < 4; c++)
			entry[c] = CELL_POS + c;
	etna_foreach_block(b, s)
		etna_foreach_instr(in, b)
			if (in->opc == ETNA_OP_input) {
				const struct etna_value *val = &s->values.data[in->dst.value];
				unsigned mask = etna_reg_writemask[etna_vreg_type(val->vreg)];
				for (unsigned c = 0; c < 4; c++)
					if (mask & (1u << c))
						entry[in->dst.reg * 4 + c] = CELL_INPUT + in->dst.reg * 4 + c;
			}
	for (bool changed = true; changed;) {
		changed = false;
		etna_foreach_block(b, s)
			changed |= run_block(&v, b, false);
	}
	etna_foreach_block(b, s)
		if (!v.failed)
			run_block(&v, b, true);
	free(v.in);
	return !v.failed;
}
