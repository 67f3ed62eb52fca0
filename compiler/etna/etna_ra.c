/*
 * etna_ra: register allocation of the etnaviv model, as Mesa's
 * etna_ra_assign (../../shared/reference/targets.md §4.3), on the generic
 * colouring allocator (compiler/util/register_allocate.h, targets.md §5).
 *
 * Policy.
 *  - Liveness is a linear range per value over the order in which values
 *    are first written (Mesa's etna_live_defs): a value starts at its own
 *    ordinal and ends at the ordinal current at its last read; block
 *    boundaries extend the ranges of values live in or out (a backward
 *    dataflow over the blocks), inputs start at 0 and are live from the
 *    entry to their last read (their `input` marks no definition), outputs
 *    live to the end.  Two values interfere when their ranges overlap.
 *  - A value's class is its size (VEC2T for fast-transcendental results,
 *    VEC2C/VEC3C for LOAD results, VEC4 for outputs), set by selection.
 *  - Inputs are precoloured to their input register (type by size),
 *    vertex and instance id to the register after the attributes (.x, .y),
 *    a fragment shader's depth to t0.z.
 *  - Colouring is ra_allocate with Mesa's q table; there is no spilling: a
 *    value that finds no register fails the shader (Mesa asserts).
 *  - num_temps (the `temps` statistic) is the highest physical temporary
 *    used plus one; a fragment shader's include t0.
 *
 * Then every operand becomes physical: swizzles and write masks are
 * composed from the virtual registers' shapes as Mesa's ra_src, ra_def and
 * src_swizzle do (etna.h).
 */
#include "compiler/etna/etna_ra.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/register_allocate.h"
#include "compiler/util/bitset.h"
#include "compiler/util/error.h"

#define X 0
#define Y 1
#define Z 2
#define W 3
#define SW(a, b, c, d) { a, b, c, d }

const uint8_t etna_reg_writemask[ETNA_NUM_REG_TYPES] = {
	[ETNA_REG_VEC4] = 0xf,
	[ETNA_REG_VEC3_XYZ] = 0x7, [ETNA_REG_VEC3_XYW] = 0xb, [ETNA_REG_VEC3_XZW] = 0xd,
	[ETNA_REG_VEC3_YZW] = 0xe,
	[ETNA_REG_VEC2_XY] = 0x3, [ETNA_REG_VEC2_XZ] = 0x5, [ETNA_REG_VEC2_XW] = 0x9,
	[ETNA_REG_VEC2_YZ] = 0x6, [ETNA_REG_VEC2_YW] = 0xa, [ETNA_REG_VEC2_ZW] = 0xc,
	[ETNA_REG_SCALAR_X] = 0x1, [ETNA_REG_SCALAR_Y] = 0x2, [ETNA_REG_SCALAR_Z] = 0x4,
	[ETNA_REG_SCALAR_W] = 0x8,
	[ETNA_REG_VEC2T_XY] = 0x3, [ETNA_REG_VEC2T_ZW] = 0xc,
	[ETNA_REG_VEC2C_XY] = 0x3, [ETNA_REG_VEC2C_YZ] = 0x6, [ETNA_REG_VEC2C_ZW] = 0xc,
	[ETNA_REG_VEC3C_XYZ] = 0x7, [ETNA_REG_VEC3C_YZW] = 0xe,
};

/* Mesa's reg_swiz: the channels of the value's components, the unused
 * ones filled as Mesa fills them (they only show in the disassembly). */
const uint8_t etna_reg_swiz[ETNA_NUM_REG_TYPES][4] = {
	[ETNA_REG_VEC4] = SW(X, Y, Z, W),
	[ETNA_REG_VEC3_XYZ] = SW(X, Y, Z, W), [ETNA_REG_VEC3_XYW] = SW(X, Y, W, X),
	[ETNA_REG_VEC3_XZW] = SW(X, Z, W, X), [ETNA_REG_VEC3_YZW] = SW(Y, Z, W, X),
	[ETNA_REG_VEC2_XY] = SW(X, Y, Z, W), [ETNA_REG_VEC2_XZ] = SW(X, Z, X, Z),
	[ETNA_REG_VEC2_XW] = SW(X, W, X, W), [ETNA_REG_VEC2_YZ] = SW(Y, Z, Y, Z),
	[ETNA_REG_VEC2_YW] = SW(Y, W, Y, W), [ETNA_REG_VEC2_ZW] = SW(Z, W, Z, W),
	[ETNA_REG_SCALAR_X] = SW(X, X, X, X), [ETNA_REG_SCALAR_Y] = SW(Y, Y, Y, Y),
	[ETNA_REG_SCALAR_Z] = SW(Z, Z, Z, Z), [ETNA_REG_SCALAR_W] = SW(W, W, W, W),
	[ETNA_REG_VEC2T_XY] = SW(X, Y, Z, W), [ETNA_REG_VEC2T_ZW] = SW(Z, W, Z, W),
	[ETNA_REG_VEC2C_XY] = SW(X, Y, Z, W), [ETNA_REG_VEC2C_YZ] = SW(Y, Z, Y, Z),
	[ETNA_REG_VEC2C_ZW] = SW(Z, W, Z, W),
	[ETNA_REG_VEC3C_XYZ] = SW(X, Y, Z, W), [ETNA_REG_VEC3C_YZW] = SW(Y, Z, W, X),
};

/* Mesa's reg_dst_swiz. */
const uint8_t etna_reg_dst_swiz[ETNA_NUM_REG_TYPES][4] = {
	[ETNA_REG_VEC4] = SW(X, Y, Z, W),
	[ETNA_REG_VEC3_XYZ] = SW(X, Y, Z, W), [ETNA_REG_VEC3_XYW] = SW(X, Y, Z, Z),
	[ETNA_REG_VEC3_XZW] = SW(X, Y, Y, Z), [ETNA_REG_VEC3_YZW] = SW(X, X, Y, Z),
	[ETNA_REG_VEC2_XY] = SW(X, Y, Z, W), [ETNA_REG_VEC2_XZ] = SW(X, X, Y, Y),
	[ETNA_REG_VEC2_XW] = SW(X, X, Y, Y), [ETNA_REG_VEC2_YZ] = SW(X, X, Y, Y),
	[ETNA_REG_VEC2_YW] = SW(X, X, Y, Y), [ETNA_REG_VEC2_ZW] = SW(X, X, X, Y),
	[ETNA_REG_SCALAR_X] = SW(X, Y, Z, W), [ETNA_REG_SCALAR_Y] = SW(X, X, X, X),
	[ETNA_REG_SCALAR_Z] = SW(X, X, X, X), [ETNA_REG_SCALAR_W] = SW(X, X, X, X),
	[ETNA_REG_VEC2T_XY] = SW(X, Y, Z, W), [ETNA_REG_VEC2T_ZW] = SW(X, X, X, Y),
	[ETNA_REG_VEC2C_XY] = SW(X, Y, Z, W), [ETNA_REG_VEC2C_YZ] = SW(X, X, Y, Y),
	[ETNA_REG_VEC2C_ZW] = SW(X, X, X, Y),
	[ETNA_REG_VEC3C_XYZ] = SW(X, Y, Z, W), [ETNA_REG_VEC3C_YZW] = SW(X, X, Y, Z),
};

const uint8_t etna_reg_class[ETNA_NUM_REG_TYPES] = {
	[ETNA_REG_VEC4] = ETNA_CLASS_VEC4,
	[ETNA_REG_VEC3_XYZ] = ETNA_CLASS_VEC3, [ETNA_REG_VEC3_XYW] = ETNA_CLASS_VEC3,
	[ETNA_REG_VEC3_XZW] = ETNA_CLASS_VEC3, [ETNA_REG_VEC3_YZW] = ETNA_CLASS_VEC3,
	[ETNA_REG_VEC2_XY] = ETNA_CLASS_VEC2, [ETNA_REG_VEC2_XZ] = ETNA_CLASS_VEC2,
	[ETNA_REG_VEC2_XW] = ETNA_CLASS_VEC2, [ETNA_REG_VEC2_YZ] = ETNA_CLASS_VEC2,
	[ETNA_REG_VEC2_YW] = ETNA_CLASS_VEC2, [ETNA_REG_VEC2_ZW] = ETNA_CLASS_VEC2,
	[ETNA_REG_SCALAR_X] = ETNA_CLASS_SCALAR, [ETNA_REG_SCALAR_Y] = ETNA_CLASS_SCALAR,
	[ETNA_REG_SCALAR_Z] = ETNA_CLASS_SCALAR, [ETNA_REG_SCALAR_W] = ETNA_CLASS_SCALAR,
	[ETNA_REG_VEC2T_XY] = ETNA_CLASS_VEC2T, [ETNA_REG_VEC2T_ZW] = ETNA_CLASS_VEC2T,
	[ETNA_REG_VEC2C_XY] = ETNA_CLASS_VEC2C, [ETNA_REG_VEC2C_YZ] = ETNA_CLASS_VEC2C,
	[ETNA_REG_VEC2C_ZW] = ETNA_CLASS_VEC2C,
	[ETNA_REG_VEC3C_XYZ] = ETNA_CLASS_VEC3C, [ETNA_REG_VEC3C_YZW] = ETNA_CLASS_VEC3C,
};

const char *const etna_reg_class_names[ETNA_NUM_CLASSES] = {
	"scalar", "vec2", "vec3", "vec4", "vec2t", "vec2c", "vec3c",
};

/* Mesa's q_values (precomputed from the write masks; etna_q.py). */
const unsigned etna_q_values[ETNA_NUM_CLASSES][ETNA_NUM_CLASSES] = {
	{ 1, 2, 3, 4, 2, 2, 3 },
	{ 3, 5, 6, 6, 5, 5, 6 },
	{ 3, 4, 4, 4, 4, 4, 4 },
	{ 1, 1, 1, 1, 1, 1, 1 },
	{ 1, 2, 2, 2, 1, 2, 2 },
	{ 2, 3, 3, 3, 2, 3, 3 },
	{ 2, 2, 2, 2, 2, 2, 2 },
};

enum etna_reg_type etna_input_type(unsigned component, unsigned num_components)
{
	/* by number of components, then first component: the contiguous
	 * channels from `component` on (a load the optimiser narrowed) */
	static const enum etna_reg_type t[4][4] = {
		{ ETNA_REG_SCALAR_X, ETNA_REG_SCALAR_Y, ETNA_REG_SCALAR_Z, ETNA_REG_SCALAR_W },
		{ ETNA_REG_VEC2_XY, ETNA_REG_VEC2_YZ, ETNA_REG_VEC2_ZW, ETNA_REG_VEC2_ZW },
		{ ETNA_REG_VEC3_XYZ, ETNA_REG_VEC3_YZW, ETNA_REG_VEC3_YZW, ETNA_REG_VEC3_YZW },
		{ ETNA_REG_VEC4, ETNA_REG_VEC4, ETNA_REG_VEC4, ETNA_REG_VEC4 },
	};
	return t[(num_components - 1) & 3][component & 3];
}

struct ra_regs *etna_ra_regs_create(const unsigned *q)
{
	struct ra_regs *regs = ra_regs_create(ETNA_MAX_TEMPS, ETNA_NUM_REG_TYPES);
	for (unsigned c = 0; c < ETNA_NUM_CLASSES; c++)
		ra_add_class(regs);
	for (unsigned t = 0; t < ETNA_NUM_REG_TYPES; t++) {
		ra_class_add_type(regs, etna_reg_class[t], t);
		for (unsigned u = 0; u < t; u++)
			if (etna_reg_writemask[t] & etna_reg_writemask[u])
				ra_add_type_conflict(regs, t, u);
	}
	ra_regs_finalize(regs, q);
	return regs;
}

/* The set every compile allocates with (Mesa's q table), built once per
 * process as Mesa builds it once per screen; read-only once finalised. */
static struct ra_regs *etna_regs;
static pthread_once_t etna_regs_once = PTHREAD_ONCE_INIT;

static void etna_regs_init(void)
{
	etna_regs = etna_ra_regs_create(&etna_q_values[0][0]);
}

/* ---- liveness (Mesa's etna_live_defs) ---- */

struct live {
	struct etna_shader *s;
	unsigned num_nodes;
	unsigned *node_of;		/* by value: its node, or ~0 */
	unsigned *value_of;		/* by node */
	struct etna_instr **def;	/* by node: the instruction giving its ordinal */
	unsigned *start, *end;
	unsigned *block_index;		/* by block: ordinal at its start; [n]: the end */
	bitset_word **live_in, **live_out;
	unsigned index;			/* the walk's current ordinal */
	struct etna_block **blocks;
};

static void range_include(struct live *l, unsigned n, unsigned index)
{
	if (l->start[n] > index)
		l->start[n] = index;
	if (l->end[n] < index)
		l->end[n] = index;
}

/* Number the values in the order their first writer comes. */
static void number_nodes(struct live *l)
{
	struct etna_shader *s = l->s;
	unsigned b = 0;
	etna_foreach_block(blk, s) {
		l->blocks[b] = blk;
		l->block_index[b++] = l->num_nodes;
		etna_foreach_instr(in, blk) {
			if (in->dst.file != ETNA_FILE_TEMP || in->dst.fixed)
				continue;
			unsigned v = in->dst.value;
			if (l->node_of[v] != ~0u)
				continue;
			unsigned n = l->num_nodes++;
			l->node_of[v] = n;
			l->value_of[n] = v;
			l->def[n] = in;
			l->start[n] = s->values.data[v].live_in ? 0 : n;
			l->end[n] = 0;
		}
	}
	l->block_index[b] = l->num_nodes;
}

static void use(struct live *l, struct etna_block *blk, const struct etna_src *src,
		unsigned index)
{
	if (src->file != ETNA_FILE_TEMP || src->fixed)
		return;
	unsigned n = l->node_of[src->value];
	if (n == ~0u)
		BUG("value %%%u read but never written", src->value);
	bitset_set(l->live_in[blk->index], n);
	range_include(l, n, index);
}

static void scan_block(struct live *l, struct etna_block *blk)
{
	size_t words = BITSET_WORDS(l->num_nodes);
	bitset_word *in = l->live_in[blk->index];
	memcpy(in, l->live_out[blk->index], words * sizeof(bitset_word));
	unsigned index = l->block_index[blk->index + 1];
	etna_foreach_instr_rev(i, blk) {
		if (index && i == l->def[index - 1]) {
			index--;
			/* an input is in its register from the start, wherever
			 * selection put its `input`: live up to the entry, so
			 * nothing takes its register on a loop's back edge */
			if (i->opc != ETNA_OP_input)
				bitset_clear(in, index);
		}
		/* outputs stay live to the end */
		unsigned at = i->opc == ETNA_OP_output ? ~0u : index;
		for (unsigned s = 0; s < 3; s++)
			use(l, blk, &i->src[s], at);
	}
}

static void liveness(struct live *l)
{
	struct etna_shader *s = l->s;
	size_t words = BITSET_WORDS(l->num_nodes);
	for (unsigned b = 0; b < s->num_blocks; b++) {
		l->live_in[b] = xcalloc(words + 1, sizeof(bitset_word));
		l->live_out[b] = xcalloc(words + 1, sizeof(bitset_word));
	}
	/* backward to a fixed point: blocks in reverse order, again while
	 * anything changes */
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned b = s->num_blocks; b-- > 0;) {
			struct etna_block *blk = l->blocks[b];
			for (unsigned k = 0; k < 2; k++)
				if (blk->succ[k])
					changed |= bitset_union(l->live_out[b],
								l->live_in[blk->succ[k]->index],
								l->num_nodes);
			scan_block(l, blk);
		}
	}
	for (unsigned b = 0; b < s->num_blocks; b++)
		for (unsigned n = 0; n < l->num_nodes; n++) {
			if (bitset_test(l->live_in[b], n))
				range_include(l, n, l->block_index[b]);
			if (bitset_test(l->live_out[b], n))
				range_include(l, n, l->block_index[b + 1]);
		}
}

/* ---- allocation ---- */

static void precolour(struct live *l, struct ra_graph *g)
{
	for (unsigned n = 0; n < l->num_nodes; n++) {
		const struct etna_value *v = &l->s->values.data[l->value_of[n]];
		ra_set_node_class(g, n, v->cls);
		if (v->forced >= 0)
			ra_set_node_reg(g, n, (unsigned)v->forced);
	}
}

static void interfere(struct live *l, struct ra_graph *g)
{
	for (unsigned i = 0; i < l->num_nodes; i++) {
		if (l->end[i] <= l->start[i])
			l->end[i] = l->start[i] + 1;	/* written, never read */
		for (unsigned j = 0; j < i; j++)
			if (!(l->start[i] >= l->end[j] || l->start[j] >= l->end[i]))
				ra_add_node_interference(g, i, j);
	}
}

/* ---- assignment: the physical form ---- */

struct phys {
	unsigned base;
	enum etna_reg_type type;
};

static struct phys phys_of(const struct etna_shader *s, unsigned value)
{
	unsigned vreg = s->values.data[value].vreg;
	return (struct phys){ etna_vreg_base(vreg, s->stage), etna_vreg_type(vreg) };
}

/* Where component k of a source's value is: its channel. */
static unsigned src_channel(const struct etna_shader *s, const struct etna_src *src, unsigned k)
{
	switch (src->file) {
	case ETNA_FILE_TEMP:
		return src->fixed ? k : etna_reg_swiz[phys_of(s, src->value).type][k];
	case ETNA_FILE_UNIFORM:
		return src->cmap[k];
	default:
		return k;
	}
}

static void assign_src(const struct etna_shader *s, struct etna_src *src, const uint8_t *chan,
		       uint8_t first_written)
{
	uint8_t swiz[4];
	if (src->file == ETNA_FILE_NONE || src->file == ETNA_FILE_IMMED ||
	    src->file == ETNA_FILE_INTERNAL)
		return;
	for (unsigned p = 0; p < 4; p++)
		swiz[p] = (uint8_t)src_channel(s, src, src->swiz[chan[p]]);
	if (first_written < 4) {
		uint8_t x = swiz[first_written];
		swiz[0] = swiz[1] = swiz[2] = swiz[3] = x;
	}
	memcpy(src->swiz, swiz, 4);
	if (src->file == ETNA_FILE_TEMP && !src->fixed)
		src->reg = (uint16_t)phys_of(s, src->value).base;
}

static void assign_instr(const struct etna_shader *s, struct etna_instr *in)
{
	static const uint8_t identity[4] = { 0, 1, 2, 3 };
	const struct etna_op_info *info = &etna_op_infos[in->opc];
	uint8_t dst_swiz[4] = { 0, 1, 2, 3 };
	in->dst.vmask = in->dst.mask;
	memcpy(in->dst.vmap, in->dst.map, 4);
	for (unsigned k = 0; k < 3; k++)
		memcpy(in->src[k].vswiz, in->src[k].swiz, 4);
	if (in->dst.file == ETNA_FILE_TEMP && !in->dst.fixed) {
		struct phys p = phys_of(s, in->dst.value);
		uint8_t wm = etna_reg_writemask[p.type], mask = 0;
		for (unsigned c = 0, k = 0; c < 4; c++) {
			if (!(wm & (1u << c)))
				continue;
			if (in->dst.mask & (1u << k))
				mask |= (uint8_t)(1u << c);
			k++;
		}
		for (unsigned c = 0; c < 4; c++)
			dst_swiz[c] = in->dst.map[etna_reg_dst_swiz[p.type][c]];
		in->dst.reg = (uint16_t)p.base;
		in->dst.mask = mask;
	}
	bool compose = (info->flags & (ETNA_PER_COMP | ETNA_SCALAR)) && !(info->flags & ETNA_LOAD);
	uint8_t first = 4;
	if ((info->flags & ETNA_SCALAR) && in->dst.mask)
		first = (uint8_t)__builtin_ctz(in->dst.mask);
	if (info->flags & ETNA_FLOW)
		first = 0;
	for (unsigned k = 0; k < 3; k++)
		assign_src(s, &in->src[k], compose ? dst_swiz : identity, first);
	if (info->flags & ETNA_TEX)
		memcpy(in->tex_swiz, dst_swiz, 4);
}

static void assign(struct etna_shader *s, struct live *l, struct ra_graph *g)
{
	unsigned temps = 0;
	for (unsigned n = 0; n < l->num_nodes; n++) {
		unsigned vreg = ra_get_node_reg(g, n);
		s->values.data[l->value_of[n]].vreg = vreg;
		unsigned base = etna_vreg_base(vreg, s->stage) + 1;
		if (base > temps)
			temps = base;
	}
	s->num_temps = temps;
	etna_foreach_block(b, s)
		etna_foreach_instr(in, b)
			assign_instr(s, in);
	s->assigned = true;
}

static void live_free(struct live *l, unsigned num_blocks)
{
	for (unsigned b = 0; b < num_blocks; b++) {
		free(l->live_in[b]);
		free(l->live_out[b]);
	}
	free(l->live_in);
	free(l->live_out);
	free(l->node_of);
	free(l->value_of);
	free(l->def);
	free(l->start);
	free(l->end);
	free(l->block_index);
	free(l->blocks);
}

bool etna_ra(struct etna_shader *s, struct strbuf *err)
{
	size_t nv = s->values.len + 1;
	struct live l = { .s = s };
	l.node_of = xmalloc(nv * sizeof(unsigned));
	memset(l.node_of, 0xff, nv * sizeof(unsigned));
	l.value_of = xcalloc(nv, sizeof(unsigned));
	l.def = xcalloc(nv, sizeof(*l.def));
	l.start = xcalloc(nv, sizeof(unsigned));
	l.end = xcalloc(nv, sizeof(unsigned));
	l.block_index = xcalloc(s->num_blocks + 1, sizeof(unsigned));
	l.blocks = xcalloc(s->num_blocks + 1, sizeof(*l.blocks));
	l.live_in = xcalloc(s->num_blocks + 1, sizeof(bitset_word *));
	l.live_out = xcalloc(s->num_blocks + 1, sizeof(bitset_word *));
	number_nodes(&l);
	liveness(&l);

	pthread_once(&etna_regs_once, etna_regs_init);
	struct ra_graph *g = ra_graph_create(etna_regs, l.num_nodes);
	precolour(&l, g);
	interfere(&l, g);
	bool ok = ra_allocate(g);
	if (ok) {
		assign(s, &l, g);
	} else {
		unsigned live_max = 0;
		for (unsigned i = 0; i < l.num_nodes; i++) {
			unsigned n = 0;
			for (unsigned j = 0; j < l.num_nodes; j++)
				n += l.start[j] <= l.start[i] && l.start[i] < l.end[j];
			if (n > live_max)
				live_max = n;
		}
		strbuf_addf(err, "register allocation failed: %u values live at once do not fit "
			    "%u vec4 temporaries (no spilling, as Mesa)", live_max, ETNA_MAX_TEMPS);
	}
	ra_graph_free(g);
	live_free(&l, s->num_blocks);
	return ok;
}
