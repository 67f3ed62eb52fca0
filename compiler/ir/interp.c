/*
 * The IR interpreter: a SIMT machine over the structured control flow.
 *
 * All lanes of a run (interp.h) execute each instruction together, in lane
 * order, under an active set: an `if` runs its then list with the lanes
 * whose condition is true, then its else list with the others; a loop runs
 * its body while some lane is still in it; `break` and `continue` park a
 * lane until the loop's end or the next iteration; `return` and `discard`
 * stop it.  Each lane remembers the block it ran last, and a phi reads the
 * source of that predecessor.  Barriers are then free (every lane reaches
 * an instruction before any goes past it) and derivatives and subgroup
 * operations see their neighbours' values of the same dynamic instance.
 *
 * This file: setup, control flow, ALU (the constant folder's own
 * expressions, through alu_instr_eval()), stage I/O, system values, fragment
 * and geometry control.  Memory is in interp_mem.c, textures in
 * interp_tex.c, derivatives and subgroups in interp_lanes.c.  INTERP.md
 * lists every semantic choice.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/interp_priv.h"

const char *const interp_status_names[] = { "ok", "step limit", "undefined", "error" };

/* ---- verdicts ---- */

static void verdict(struct ictx *c, enum interp_status st, const char *fmt, va_list ap)
{
	if (c->stop)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_vaddf(&sb, fmt, ap);
	c->res->status = st;
	c->res->message = arena_strdup(&c->res->arena, sb.buf);
	strbuf_release(&sb);
	c->stop = true;
}

void interp_undefined(struct ictx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verdict(c, INTERP_UNDEFINED, fmt, ap);
	va_end(ap);
}

void interp_error(struct ictx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verdict(c, INTERP_ERROR, fmt, ap);
	va_end(ap);
}

/* Count one step; false, with the verdict, past the limit. */
static bool count_step(struct ictx *c)
{
	if (++c->steps <= c->step_limit)
		return true;
	if (!c->stop) {
		c->res->status = INTERP_STEP_LIMIT;
		c->res->message = arena_printf(&c->res->arena, "step limit (%llu instructions) reached",
					       (unsigned long long)c->step_limit);
		c->stop = true;
	}
	return false;
}

unsigned interp_relaxed_bits(const struct shader *s)
{
	unsigned fc = s->info.float_controls, bits = 0;
	if (!(fc & 1u << FLOAT_CONTROL_BIT_szinp16))
		bits |= IR_BITS_16;
	if (!(fc & 1u << FLOAT_CONTROL_BIT_szinp32))
		bits |= IR_BITS_32;
	if (!(fc & 1u << FLOAT_CONTROL_BIT_szinp64))
		bits |= IR_BITS_64;
	return bits;
}

uint8_t interp_mem_tag(bool poison, bool is_float, unsigned bits)
{
	uint8_t t = poison ? INTERP_TAG_POISON : 0;
	if (is_float)
		t |= bits == 16 ? INTERP_TAG_F16 : bits == 32 ? INTERP_TAG_F32
		     : bits == 64 ? INTERP_TAG_F64 : 0;
	return t;
}

/* ---- lanes ---- */

bool interp_lane_in(struct ictx *c, const struct lanes *ls, unsigned l)
{
	if (!c->in_map_valid) {
		memset(c->in_map, 0, c->nl);
		for (unsigned i = 0; i < ls->n; i++)
			c->in_map[ls->l[i]] = 1;
		c->in_map_valid = true;
	}
	return l < c->nl && c->in_map[l];
}

/* The running lanes of `in` into `out` (which may be `in`). */
static void filter_running(struct ictx *c, const struct lanes *in, struct lanes *out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < in->n; i++)
		if (c->lane[in->l[i]].state == LS_RUNNING)
			out->l[n++] = in->l[i];
	out->n = n;
}

/* Lane lists: on the C stack for small groups. */
#define SMALL_LANES 64
#define LANES_BUF(name) \
	unsigned name##_buf[SMALL_LANES]; \
	struct lanes name = { 0, c->nl <= SMALL_LANES ? name##_buf \
				 : xmalloc(c->nl * sizeof(unsigned)) }
#define LANES_FREE(name) \
	do { if (name.l != name##_buf) free(name.l); } while (0)

/* ---- values ---- */

static uint64_t float_bits(double v, unsigned bits)
{
	return ir_float_to_bits(v, bits);
}

/* ---- ALU ---- */

static uint32_t src_poison(struct ictx *c, const struct alu_src *s, unsigned l)
{
	return (uint32_t)(*itag(c, s->src.ssa, l) & TAGW_POISON_ALL);
}

static uint32_t src_floats(struct ictx *c, const struct alu_src *s, unsigned l)
{
	return (uint32_t)(*itag(c, s->src.ssa, l) >> TAGW_FLOAT_SHIFT & 0xffff);
}

static uint32_t src_szero(struct ictx *c, const struct alu_src *s, unsigned l)
{
	return (uint32_t)(*itag(c, s->src.ssa, l) >> TAGW_SZERO_SHIFT & 0xffff);
}

static bool is_vec(enum alu_op op)
{
	return op == OP_vec2 || op == OP_vec3 || op == OP_vec4 || op == OP_vec8 || op == OP_vec16;
}

/* Tags of an ALU result: a component is poison when a source component
 * it reads is (bcsel: the condition or the selected source only); it is a
 * float when the op makes a float or moves one (mov, vecN, bcsel); a move
 * keeps the open sign of a zero (relaxed_tags() sets it). */
static tagword alu_tags(struct ictx *c, const struct alu_instr *alu, unsigned l)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	unsigned nc = alu->def.num_components;
	bool out_float = alu_type_base(info->output_type) == BASE_float;
	uint32_t poison = 0, flt = 0, szero = 0;

	if (alu->op == OP_bcsel) {
		const uint64_t *cond = ival(c, alu->src[0].src.ssa, l);
		for (unsigned k = 0; k < nc; k++) {
			unsigned sel = (cond[alu->src[0].swizzle[k]] & 1) ? 1 : 2;
			const struct alu_src *s = &alu->src[sel];
			uint32_t p = (src_poison(c, &alu->src[0], l) >> alu->src[0].swizzle[k]) |
				     (src_poison(c, s, l) >> s->swizzle[k]);
			poison |= (p & 1) << k;
			flt |= ((src_floats(c, s, l) >> s->swizzle[k]) & 1) << k;
			szero |= ((src_szero(c, s, l) >> s->swizzle[k]) & 1) << k;
		}
	} else if (!info->output_size) {
		for (unsigned k = 0; k < nc; k++) {
			for (unsigned i = 0; i < info->num_inputs; i++) {
				const struct alu_src *s = &alu->src[i];
				uint32_t p = src_poison(c, s, l);
				if (info->input_sizes[i]) {
					for (unsigned j = 0; j < info->input_sizes[i]; j++)
						poison |= ((p >> s->swizzle[j]) & 1) << k;
				} else {
					poison |= ((p >> s->swizzle[k]) & 1) << k;
				}
			}
			if (out_float) {
				flt |= 1u << k;
			} else if (alu->op == OP_mov) {
				unsigned sc = alu->src[0].swizzle[k];
				flt |= ((src_floats(c, &alu->src[0], l) >> sc) & 1) << k;
				szero |= ((src_szero(c, &alu->src[0], l) >> sc) & 1) << k;
			}
		}
	} else if (is_vec(alu->op)) {
		/* vecN: component k is source k */
		for (unsigned k = 0; k < nc; k++) {
			const struct alu_src *s = &alu->src[k];
			poison |= ((src_poison(c, s, l) >> s->swizzle[0]) & 1) << k;
			flt |= ((src_floats(c, s, l) >> s->swizzle[0]) & 1) << k;
			szero |= ((src_szero(c, s, l) >> s->swizzle[0]) & 1) << k;
		}
	} else {
		bool any = false;
		for (unsigned i = 0; i < info->num_inputs; i++)
			for (unsigned j = 0; j < alu_src_components(alu, i); j++)
				any |= (src_poison(c, &alu->src[i], l) >> alu->src[i].swizzle[j]) & 1;
		poison = any ? (1u << nc) - 1 : 0;
		flt = out_float ? (1u << nc) - 1 : 0;
	}
	return poison | (tagword)flt << TAGW_FLOAT_SHIFT |
	       (tagword)(szero & flt) << TAGW_SZERO_SHIFT;
}

/* Vulkan gives division its precision only for divisors with a magnitude
 * in [2^-126, 2^126] (f16: 2^±14, f64: 2^±1022); outside, any result. */
static bool divisor_in_range(double y, unsigned bits)
{
	int e = bits == 16 ? 14 : bits == 32 ? 126 : 1022;
	double m = fabs(y);
	return m >= ldexp(1.0, -e) && m <= ldexp(1.0, e);
}

/* Whether SPIR-V (or GLSL.std.450, or Vulkan's precision rules) leaves the
 * result of a per-component op undefined on these operands (raw bits;
 * `bits` is the unsized size). */
static bool spirv_undefined(enum alu_op op, unsigned bits, const uint64_t *v)
{
	const struct alu_op_info *info = &alu_op_infos[op];
	double x = 0, y = 0;
	if (alu_type_base(info->input_types[0]) == BASE_float && !alu_type_bits(info->input_types[0]))
		x = ir_float_from_bits(v[0], bits);
	if (info->num_inputs > 1 && alu_type_base(info->input_types[1]) == BASE_float)
		y = ir_float_from_bits(v[1], bits);
	if (info->props & ALU_CONVERSION && alu_type_base(info->input_types[0]) == BASE_float &&
	    alu_type_base(info->output_type) != BASE_float && op != OP_f2b1) {
		unsigned n = alu_type_bits(info->output_type);
		double t = trunc(x), lim = ldexp(1.0, (int)n - 1);
		if (alu_type_base(info->output_type) == BASE_int)
			return isnan(x) || t < -lim || t > lim - 1;
		return isnan(x) || t < 0 || t > 2 * lim - 1;
	}
	switch (op) {
	case OP_idiv: case OP_irem: case OP_imod: {
		int64_t a = isext(v[0], bits), b = isext(v[1], bits);
		return b == 0 || (b == -1 && a == isext((uint64_t)1 << (bits - 1), bits));
	}
	case OP_udiv: case OP_umod: return (v[1] & imask(bits)) == 0;
	case OP_ishl: case OP_ishr: case OP_ushr: return (v[1] & 0xffffffff) >= bits;
	case OP_ubitfield_extract: case OP_ibitfield_extract: case OP_bitfield_insert: {
		unsigned o = op == OP_bitfield_insert ? 2 : 1;
		int64_t off = isext(v[o], 32), cnt = isext(v[o + 1], 32);
		return off < 0 || cnt < 0 || off + cnt > bits;
	}
	case OP_fpow: return x < 0 || (x == 0 && y <= 0);
	case OP_flog2: case OP_frsq: return x <= 0;
	case OP_fsqrt: return x < 0;
	case OP_fmod: case OP_frem: {
		/* precision inherited from x - y * floor(x / y): none once the
		 * quotient overflows or has no fraction bits left */
		int m = bits == 16 ? 11 : bits == 32 ? 24 : 53;
		double q = fabs(x / y);
		return y == 0 || !divisor_in_range(y, bits) || !(q < ldexp(1.0, m));
	}
	case OP_fdiv:
		return y != 0 && !divisor_in_range(y, bits);
	case OP_fmin: case OP_fmax:
		return isnan(x) || isnan(y) || (x == 0 && y == 0 && signbit(x) != signbit(y));
	case OP_ldexp: {
		/* GLSL.std.450 Ldexp: undefined past the exponent range or when
		 * the product is too large; may flush below the normal range */
		int lo = bits == 16 ? -14 : bits == 32 ? -126 : -1022;
		int hi = bits == 16 ? 15 : bits == 32 ? 128 : 1024;
		int64_t e = isext(v[1], 32);
		double r = isfinite(x) ? ldexp(x, (int)e) : 0;
		return e < lo || e > hi || fabs(r) >= ldexp(1.0, hi) ||
		       (r != 0 && fabs(r) < ldexp(1.0, lo));
	}
	default: return false;
	}
}

/* interp_options.spirv_undef: poison where spirv_undefined(). */
static uint32_t spirv_undef_poison(const struct alu_instr *alu, const uint64_t *const *srcs)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	uint32_t poison = 0;
	if (info->output_size)
		return 0;
	for (unsigned k = 0; k < alu->def.num_components; k++) {
		uint64_t v[4] = { 0, 0, 0, 0 };
		for (unsigned i = 0; i < info->num_inputs && i < 4; i++)
			v[i] = srcs[i][alu->src[i].swizzle[k]];
		if (spirv_undefined(alu->op, alu_instr_bit_size(alu), v))
			poison |= 1u << k;
	}
	return poison;
}

static bool nan_or_inf(uint64_t v, unsigned bits)
{
	double d = ir_float_from_bits(v, bits);
	return isnan(d) || isinf(d);
}

/* Whether component k of a value is a float zero whose sign is open. */
static bool szero_open(struct ictx *c, const struct ssa_def *d, unsigned l, unsigned k)
{
	return *itag(c, d, l) >> (k + TAGW_SZERO_SHIFT) & 1;
}

static bool is_zero(uint64_t v, unsigned bits)
{
	return !(v << (65 - bits));	/* every bit but the sign */
}

/*
 * interp_options.float_relaxed, for the float sizes the shader does not
 * preserve: poison where a float operand or the result of a non-exact op
 * is NaN or infinite, or where an integer operation (not a move: mov, vecN,
 * bcsel) reads a float zero whose sign is open; and the sign of a zero
 * result is open when the op is not exact or reads such a zero.
 */
static tagword relaxed_tags(struct ictx *c, const struct alu_instr *alu, unsigned l,
			    const uint64_t *const *srcs, const uint64_t *dst)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	unsigned ub = alu_instr_bit_size(alu), nc = alu->def.num_components;
	bool moves = alu->op == OP_mov || alu->op == OP_bcsel || is_vec(alu->op);
	uint32_t poison = 0, open_in = 0, szero = 0;
	for (unsigned i = 0; i < info->num_inputs; i++) {
		const struct ssa_def *d = alu->src[i].src.ssa;
		bool is_float = alu_type_base(info->input_types[i]) == BASE_float;
		unsigned bits = alu_type_bits(info->input_types[i]);
		if (!bits)
			bits = ub;
		for (unsigned j = 0; j < alu_src_components(alu, i); j++) {
			unsigned sc = alu->src[i].swizzle[j];
			uint32_t bit = info->output_size ? (1u << nc) - 1 : 1u << j;
			if (is_float) {
				if (!alu->exact && (c->relaxed_bits & ir_bits_mask(bits)) &&
				    nan_or_inf(srcs[i][sc], bits))
					poison |= bit;
				if (szero_open(c, d, l, sc))
					open_in |= bit;
			} else if (!moves && szero_open(c, d, l, sc)) {
				poison |= bit;
			}
		}
	}
	unsigned obits = alu->def.bit_size;
	if (alu_type_base(info->output_type) == BASE_float &&
	    (c->relaxed_bits & ir_bits_mask(obits))) {
		for (unsigned k = 0; k < nc; k++) {
			if (!alu->exact && nan_or_inf(dst[k], obits))
				poison |= 1u << k;
			if (is_zero(dst[k], obits) && (!alu->exact || (open_in >> k & 1)))
				szero |= 1u << k;
		}
	}
	return poison | (tagword)szero << TAGW_SZERO_SHIFT;
}

static void exec_alu(struct ictx *c, struct alu_instr *alu, const struct lanes *ls)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	const uint64_t *srcs[ALU_MAX_INPUTS];
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		for (unsigned k = 0; k < info->num_inputs; k++)
			srcs[k] = ival(c, alu->src[k].src.ssa, l);
		alu_instr_eval(alu, srcs, ival(c, &alu->def, l));
		*itag(c, &alu->def, l) = alu_tags(c, alu, l);
		if (c->spirv_undef)
			*itag(c, &alu->def, l) |= spirv_undef_poison(alu, srcs);
		if (c->relaxed_bits)
			*itag(c, &alu->def, l) |= relaxed_tags(c, alu, l, srcs,
							       ival(c, &alu->def, l));
	}
}

/* ---- stage inputs and outputs ---- */

size_t interp_io_index(const struct io_decl *d, unsigned nlanes_stored, unsigned nverts,
		       unsigned lane, unsigned vertex, unsigned slot, unsigned comp)
{
	size_t lane_idx = nlanes_stored > 1 ? lane : 0;
	return ((lane_idx * nverts + vertex) * decl_num_slots(d->array_size) + slot) *
	       d->num_components + comp;
}

size_t interp_input_index(const struct interp_inputs *in, const struct io_decl *d,
			  unsigned lane, unsigned vertex, unsigned slot, unsigned comp)
{
	return interp_io_index(d, d->patch ? 1 : in->num_lanes, d->per_vertex ? in->num_vertices : 1,
			       lane, vertex, slot, comp);
}

/* Where an I/O access lands, or false when out of range. */
struct io_at {
	const struct io_decl *d;
	unsigned vertex, slot, comp;
};

static bool io_locate(struct ictx *c, struct intrinsic_instr *intr, bool output, unsigned l,
		      unsigned nverts, struct io_at *at, bool *poisoned)
{
	const struct intrinsic_info *info = &intrinsic_infos[intr->op];
	unsigned off_src = info->num_srcs - 1;
	int32_t base = intrinsic_get(intr, INTR_IDX_base);
	at->d = output ? c->s->outputs[base] : c->s->inputs[base];
	at->comp = (unsigned)intrinsic_get(intr, INTR_IDX_component) - at->d->component;
	bool per_vertex = intr->op == INTR_load_per_vertex_input ||
			  intr->op == INTR_load_per_vertex_output ||
			  intr->op == INTR_store_per_vertex_output;
	unsigned vsrc = per_vertex ? off_src - 1 : 0;
	*poisoned = ipoison(c, intr->src[off_src].ssa, l, 0) ||
		    (per_vertex && ipoison(c, intr->src[vsrc].ssa, l, 0));
	uint64_t slot = isrc(c, intr, off_src, l);
	uint64_t vertex = per_vertex ? isrc(c, intr, vsrc, l) : 0;
	at->slot = (unsigned)slot;
	at->vertex = (unsigned)vertex;
	return slot < decl_num_slots(at->d->array_size) && vertex < nverts;
}

/* A tessellation level the primitive does not have (a triangle's second
 * inner level, its fourth outer one …): the tessellator never reads it, so
 * a TCS's is not a result (and reads as undefined) and a TES's is
 * undefined.  A shader that does not
 * say its primitive is taken for triangles, as a driver compiling it alone
 * does. */
static bool tess_level_unused(const struct shader *s, const struct io_decl *d, unsigned comp)
{
	unsigned inner = 1, outer = 3;
	if (s->info.tess_primitive == PRIM_quads)
		inner = 2, outer = 4;
	else if (s->info.tess_primitive == PRIM_isolines)
		inner = 0, outer = 2;
	return (d->builtin == BUILTIN_tess_level_outer && comp >= outer) ||
	       (d->builtin == BUILTIN_tess_level_inner && comp >= inner);
}

static void exec_load_input(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	const struct interp_inputs *in = c->in;
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		struct io_at at;
		bool bad;
		bool ok = io_locate(c, intr, false, l, in->num_vertices, &at, &bad);
		int32_t base = intrinsic_get(intr, INTR_IDX_base);
		for (unsigned k = 0; k < intr->def.num_components; k++) {
			if (!ok || bad || tess_level_unused(c->s, at.d, at.comp + k)) {
				iput(c, &intr->def, l, k, 0, true, false);
				continue;
			}
			uint64_t v = in->input[base][interp_input_index(in, at.d, l, at.vertex, at.slot,
									   at.comp + k)];
			/* a mediump input is declared a float: a backend may
			 * move it at lower precision (lower_ir3_mediump_io) */
			iput(c, &intr->def, l, k, v, false, at.d->mediump);
		}
	}
}

static struct interp_output *output_of(struct ictx *c, struct intrinsic_instr *intr)
{
	return &c->res->outputs[intrinsic_get(intr, INTR_IDX_base)];
}

static void exec_load_output(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	struct interp_output *o = output_of(c, intr);
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		struct io_at at;
		bool bad;
		bool ok = io_locate(c, intr, true, l, o->vertices, &at, &bad);
		for (unsigned k = 0; k < intr->def.num_components; k++) {
			if (!ok || bad || tess_level_unused(c->s, at.d, at.comp + k)) {
				iput(c, &intr->def, l, k, 0, true, false);
				continue;
			}
			size_t x = interp_io_index(at.d, o->lanes, o->vertices, l, at.vertex, at.slot,
						   at.comp + k);
			iput_mem(c, &intr->def, l, k, o->vals[x], o->tags[x]);
		}
	}
}

static void exec_store_output(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	struct interp_output *o = output_of(c, intr);
	const struct ssa_def *v = intr->src[0].ssa;
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		struct io_at at;
		bool bad;
		bool ok = io_locate(c, intr, true, l, o->vertices, &at, &bad);
		if (bad || !ok) {
			interp_undefined(c, "store_output: %s offset or vertex (lane %u)",
					 bad ? "undefined" : "out-of-range", l);
			return;
		}
		for (unsigned k = 0; k < intr->num_components; k++) {
			if (!(mask >> k & 1))
				continue;
			size_t x = interp_io_index(at.d, o->lanes, o->vertices, l, at.vertex, at.slot,
						   at.comp + k);
			o->vals[x] = ival(c, v, l)[k];
			o->tags[x] = itag_mem(c, v, l, k);
		}
	}
}

/* ---- system values ---- */

const float interp_sample_positions[4][2] = {
	{ 0.375f, 0.125f }, { 0.875f, 0.375f }, { 0.125f, 0.625f }, { 0.625f, 0.875f },
};

static void put_u32(struct ictx *c, struct intrinsic_instr *intr, unsigned l, unsigned k,
		    uint64_t v)
{
	iput(c, &intr->def, l, k, v, false, false);
}

static void put_f32(struct ictx *c, struct intrinsic_instr *intr, unsigned l, unsigned k, double v)
{
	iput(c, &intr->def, l, k, float_bits(v, 32), false, true);
}

/* Bits of a subgroup mask (uvec4) relative to lane `sl` of a subgroup of `n`. */
static uint64_t subgroup_mask_bit(enum intrinsic op, unsigned sl, unsigned n, unsigned bit)
{
	if (bit >= n)
		return 0;
	switch (op) {
	case INTR_load_subgroup_eq_mask: return bit == sl;
	case INTR_load_subgroup_ge_mask: return bit >= sl;
	case INTR_load_subgroup_gt_mask: return bit > sl;
	case INTR_load_subgroup_le_mask: return bit <= sl;
	default: return bit < sl;
	}
}

static void local_id(struct ictx *c, unsigned l, uint32_t *id)
{
	const uint32_t *ws = c->in->workgroup_size;
	id[0] = l % ws[0];
	id[1] = (l / ws[0]) % ws[1];
	id[2] = l / (ws[0] * ws[1]);
}

static bool exec_sysval(struct ictx *c, struct intrinsic_instr *intr, unsigned l)
{
	const struct interp_inputs *in = c->in;
	unsigned sg = in->subgroup_size, sl = l % sg;
	uint32_t id[3];
	switch (intr->op) {
	case INTR_load_frag_coord: {
		double center = c->s->info.pixel_center_integer ? 0 : 0.5;
		put_f32(c, intr, l, 0, in->quad_x * 2.0 + (l & 1) + center);
		put_f32(c, intr, l, 1, in->quad_y * 2.0 + (l >> 1 & 1) + center);
		put_f32(c, intr, l, 2, in->frag_zw[2 * l]);
		put_f32(c, intr, l, 3, in->frag_zw[2 * l + 1]);
		return true;
	}
	case INTR_load_front_face: put_u32(c, intr, l, 0, in->front_face[l] & 1); return true;
	case INTR_load_point_coord:
		put_f32(c, intr, l, 0, in->point_coord[2 * l]);
		put_f32(c, intr, l, 1, in->point_coord[2 * l + 1]);
		return true;
	case INTR_load_sample_id: put_u32(c, intr, l, 0, in->sample_id); return true;
	case INTR_load_sample_pos:
		put_f32(c, intr, l, 0, interp_sample_positions[in->sample_id % 4][0]);
		put_f32(c, intr, l, 1, interp_sample_positions[in->sample_id % 4][1]);
		return true;
	case INTR_load_sample_mask_in: put_u32(c, intr, l, 0, in->sample_mask_in); return true;
	case INTR_load_helper_invocation: put_u32(c, intr, l, 0, 0); return true;
	case INTR_load_view_index: put_u32(c, intr, l, 0, in->view_index); return true;
	case INTR_load_vertex_id: put_u32(c, intr, l, 0, in->vertex_id_base + l); return true;
	case INTR_load_instance_id: put_u32(c, intr, l, 0, in->instance_id); return true;
	case INTR_load_base_vertex: put_u32(c, intr, l, 0, in->base_vertex); return true;
	case INTR_load_base_instance: put_u32(c, intr, l, 0, in->base_instance); return true;
	case INTR_load_draw_id: put_u32(c, intr, l, 0, in->draw_id); return true;
	case INTR_load_primitive_id: put_u32(c, intr, l, 0, in->primitive_id); return true;
	case INTR_load_invocation_id: put_u32(c, intr, l, 0, l); return true;
	case INTR_load_tess_coord:
		for (unsigned k = 0; k < 3; k++)
			put_f32(c, intr, l, k, in->tess_coord[3 * l + k]);
		return true;
	case INTR_load_patch_vertices_in:
		put_u32(c, intr, l, 0, in->patch_vertices_in);
		return true;
	/* the ir3 backend's (made after optimisation): unless the inputs say
	 * (a simulator's), the header of the invocation (its id in bits
	 * 11–15), patch 0, a zeroed primitive block and the identity
	 * primitive map (16 bytes per slot) */
	case INTR_load_tcs_header_ir3: case INTR_load_gs_header_ir3:
		put_u32(c, intr, l, 0, in->header ? in->header[l] : (uint64_t)l << 11);
		return true;
	case INTR_load_rel_patch_id_ir3:
		put_u32(c, intr, l, 0, in->rel_patch_id ? in->rel_patch_id[l] : 0);
		return true;
	case INTR_load_primitive_param_ir3: {
		unsigned k = (unsigned)intrinsic_get(intr, INTR_IDX_base);
		put_u32(c, intr, l, 0, k < in->num_primitive_params ? in->primitive_params[k] : 0);
		return true;
	}
	case INTR_load_primitive_location_ir3: {
		unsigned k = (unsigned)intrinsic_get(intr, INTR_IDX_base);
		put_u32(c, intr, l, 0, k < in->num_primitive_map ? in->primitive_map[k] : k * 16);
		return true;
	}
	case INTR_load_local_invocation_id:
		local_id(c, l, id);
		for (unsigned k = 0; k < 3; k++)
			put_u32(c, intr, l, k, id[k]);
		return true;
	case INTR_load_local_invocation_index: put_u32(c, intr, l, 0, l); return true;
	case INTR_load_workgroup_id:
		for (unsigned k = 0; k < 3; k++)
			put_u32(c, intr, l, k, in->workgroup_id[k]);
		return true;
	case INTR_load_num_workgroups:
		for (unsigned k = 0; k < 3; k++)
			put_u32(c, intr, l, k, in->num_workgroups[k]);
		return true;
	case INTR_load_global_invocation_id:
		local_id(c, l, id);
		for (unsigned k = 0; k < 3; k++)
			put_u32(c, intr, l, k,
				(uint64_t)in->workgroup_id[k] * in->workgroup_size[k] + id[k]);
		return true;
	case INTR_load_workgroup_size:
		for (unsigned k = 0; k < 3; k++)
			put_u32(c, intr, l, k, in->workgroup_size[k]);
		return true;
	case INTR_load_subgroup_id: put_u32(c, intr, l, 0, l / sg); return true;
	case INTR_load_num_subgroups: put_u32(c, intr, l, 0, (c->nl + sg - 1) / sg); return true;
	case INTR_load_subgroup_size: put_u32(c, intr, l, 0, sg); return true;
	case INTR_load_subgroup_invocation: put_u32(c, intr, l, 0, sl); return true;
	case INTR_load_subgroup_eq_mask: case INTR_load_subgroup_ge_mask:
	case INTR_load_subgroup_gt_mask: case INTR_load_subgroup_le_mask:
	case INTR_load_subgroup_lt_mask:
		for (unsigned k = 0; k < 4; k++) {
			uint64_t w = 0;
			for (unsigned b = 0; b < 32; b++)
				w |= subgroup_mask_bit(intr->op, sl, sg, 32 * k + b) << b;
			put_u32(c, intr, l, k, w);
		}
		return true;
	case INTR_shader_clock:
		/* time is not a function of the inputs: undefined */
		iput(c, &intr->def, l, 0, 0, true, false);
		iput(c, &intr->def, l, 1, 0, true, false);
		return true;
	default:
		return false;
	}
}

/* ---- fragment and geometry control, barriers ---- */

/* A condition source: false with an undefined-behaviour verdict when poison. */
static bool cond_of(struct ictx *c, struct intrinsic_instr *intr, unsigned l, bool *cond)
{
	if (ipoison(c, intr->src[0].ssa, l, 0)) {
		interp_undefined(c, "%s on an undefined condition (lane %u)",
				 intrinsic_infos[intr->op].name, l);
		return false;
	}
	*cond = isrc(c, intr, 0, l) & 1;
	return true;
}

static void exec_kill(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	bool conditional = intr->op == INTR_discard_if || intr->op == INTR_demote_if ||
			   intr->op == INTR_terminate_if;
	bool demote = intr->op == INTR_demote || intr->op == INTR_demote_if;
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		bool cond = true;
		if (conditional && !cond_of(c, intr, l, &cond))
			return;
		if (!cond)
			continue;
		if (demote) {
			c->lane[l].demoted = true;
		} else {
			c->lane[l].state = LS_TERMINATED;
			c->res->fate[l] = LANE_DISCARDED;
			c->lanes_changed = true;
		}
	}
}

static void exec_barrier(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	int32_t scope = intrinsic_get(intr, INTR_IDX_execution_scope);
	if (scope < SCOPE_workgroup)
		return;
	unsigned alive = 0;
	for (unsigned l = 0; l < c->nl; l++)
		alive += c->lane[l].state != LS_TERMINATED;
	if (ls->n != alive)
		interp_undefined(c, "barrier in non-uniform control flow (%u of %u lanes)", ls->n,
				 alive);
}

static void gs_event(struct ictx *c, struct intrinsic_instr *intr, unsigned l, bool end)
{
	struct interp_result *r = c->res;
	r->gs_events = arena_realloc(&r->arena, r->gs_events,
				     r->num_gs_events * sizeof(*r->gs_events),
				     (r->num_gs_events + 1) * sizeof(*r->gs_events));
	struct interp_gs_event *e = &r->gs_events[r->num_gs_events++];
	memset(e, 0, sizeof(*e));
	e->lane = l;
	e->end_primitive = end;
	e->stream = (unsigned)intrinsic_get(intr, INTR_IDX_stream);
	if (end)
		return;
	/* the vertex: this lane's outputs, which become undefined afterwards */
	e->outputs = arena_array(&r->arena, struct interp_output, r->num_outputs);
	for (unsigned o = 0; o < r->num_outputs; o++) {
		struct interp_output *src = &r->outputs[o], *dst = &e->outputs[o];
		size_t per_lane = src->count / src->lanes;
		size_t first = src->lanes > 1 ? l * per_lane : 0;
		dst->lanes = 1;
		dst->vertices = src->vertices;
		dst->count = per_lane;
		dst->vals = arena_array(&r->arena, uint64_t, per_lane);
		dst->tags = arena_array(&r->arena, uint8_t, per_lane);
		memcpy(dst->vals, src->vals + first, per_lane * sizeof(uint64_t));
		memcpy(dst->tags, src->tags + first, per_lane);
		memset(src->tags + first, INTERP_TAG_POISON, per_lane);
	}
}

static void exec_gs(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	for (unsigned i = 0; i < ls->n; i++)
		if (!c->lane[ls->l[i]].demoted)
			gs_event(c, intr, ls->l[i], intr->op == INTR_end_primitive);
}

/* ---- intrinsics ---- */

static void exec_intrinsic(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	switch (intr->op) {
	case INTR_load_input: case INTR_load_per_vertex_input:
		exec_load_input(c, intr, ls);
		return;
	case INTR_load_output: case INTR_load_per_vertex_output:
		exec_load_output(c, intr, ls);
		return;
	case INTR_store_output: case INTR_store_per_vertex_output:
		exec_store_output(c, intr, ls);
		return;
	case INTR_discard: case INTR_discard_if: case INTR_demote: case INTR_demote_if:
	case INTR_terminate: case INTR_terminate_if:
		exec_kill(c, intr, ls);
		return;
	case INTR_barrier:
		exec_barrier(c, intr, ls);
		return;
	case INTR_begin_invocation_interlock: case INTR_end_invocation_interlock:
		return;		/* the lanes of a run are different pixels */
	case INTR_emit_vertex: case INTR_end_primitive:
		exec_gs(c, intr, ls);
		return;
	case INTR_is_helper_invocation:
		for (unsigned i = 0; i < ls->n; i++)
			iput(c, &intr->def, ls->l[i], 0, c->lane[ls->l[i]].demoted, false, false);
		return;
	default:
		break;
	}
	if (ls->n && exec_sysval(c, intr, ls->l[0])) {
		for (unsigned i = 1; i < ls->n; i++)
			exec_sysval(c, intr, ls->l[i]);
		return;
	}
	if (interp_exec_memory(c, intr, ls) || interp_exec_cross_lane(c, intr, ls) ||
	    interp_exec_newer(c, intr, ls))
		return;
	interp_error(c, "the interpreter does not implement @%s", intrinsic_infos[intr->op].name);
}

/* ---- control flow ---- */

static void exec_phis(struct ictx *c, struct block *b, const struct lanes *ls)
{
	unsigned nphis = 0;
	foreach_instr(i, b) {
		if (i->type != INSTR_phi)
			break;
		nphis++;
	}
	if (!nphis)
		return;
	c->steps += nphis;
	/* read every source first: phis of a block copy in parallel */
	struct { uint64_t v[16]; tagword t; } *tmp = xmalloc(sizeof(*tmp) * nphis * ls->n);
	unsigned p = 0;
	foreach_instr(i, b) {
		if (i->type != INSTR_phi)
			break;
		struct phi_instr *phi = instr_as_phi(i);
		for (unsigned j = 0; j < ls->n; j++) {
			unsigned l = ls->l[j];
			struct phi_src *ps = phi_get_src(phi, c->lane[l].pred);
			if (!ps) {
				interp_error(c, "phi %%%u has no source for the lane's predecessor",
					     phi->def.index);
				free(tmp);
				return;
			}
			memcpy(tmp[p * ls->n + j].v, ival(c, ps->src.ssa, l),
			       phi->def.num_components * sizeof(uint64_t));
			tmp[p * ls->n + j].t = *itag(c, ps->src.ssa, l);
		}
		p++;
	}
	p = 0;
	foreach_instr(i, b) {
		if (i->type != INSTR_phi)
			break;
		struct phi_instr *phi = instr_as_phi(i);
		for (unsigned j = 0; j < ls->n; j++) {
			memcpy(ival(c, &phi->def, ls->l[j]), tmp[p * ls->n + j].v,
			       phi->def.num_components * sizeof(uint64_t));
			*itag(c, &phi->def, ls->l[j]) = tmp[p * ls->n + j].t;
		}
		p++;
	}
	free(tmp);
}

static void exec_jump(struct ictx *c, struct jump_instr *j, const struct lanes *ls)
{
	uint8_t st = j->type == JUMP_break ? LS_BROKE : j->type == JUMP_continue ? LS_CONTINUED
		     : LS_RETURNED;
	for (unsigned i = 0; i < ls->n; i++)
		c->lane[ls->l[i]].state = st;
	c->lanes_changed = true;
}

static void exec_instr(struct ictx *c, struct instr *instr, const struct lanes *ls)
{
	switch (instr->type) {
	case INSTR_alu:
		exec_alu(c, instr_as_alu(instr), ls);
		break;
	case INSTR_load_const: {
		struct load_const_instr *lc = instr_as_load_const(instr);
		for (unsigned i = 0; i < ls->n; i++) {
			memcpy(ival(c, &lc->def, ls->l[i]), lc->value,
			       lc->def.num_components * sizeof(uint64_t));
			*itag(c, &lc->def, ls->l[i]) = 0;
		}
		break;
	}
	case INSTR_undef: {
		struct undef_instr *u = instr_as_undef(instr);
		for (unsigned i = 0; i < ls->n; i++) {
			memset(ival(c, &u->def, ls->l[i]), 0, u->def.num_components * sizeof(uint64_t));
			*itag(c, &u->def, ls->l[i]) = TAGW_POISON_ALL;
		}
		break;
	}
	case INSTR_intrinsic:
		exec_intrinsic(c, instr_as_intrinsic(instr), ls);
		break;
	case INSTR_tex:
		interp_exec_tex(c, instr_as_tex(instr), ls);
		break;
	case INSTR_phi:
		break;
	case INSTR_jump:
		exec_jump(c, instr_as_jump(instr), ls);
		break;
	}
}

static void exec_block(struct ictx *c, struct block *b, const struct lanes *in)
{
	LANES_BUF(act);
	filter_running(c, in, &act);
	if (act.n) {
		exec_phis(c, b, &act);
		for (unsigned i = 0; i < act.n; i++)
			c->lane[act.l[i]].pred = b;
	}
	foreach_instr(instr, b) {
		if (!act.n || c->stop)
			break;
		if (instr->type == INSTR_phi)
			continue;
		if (!count_step(c))
			break;
		c->in_map_valid = false;
		exec_instr(c, instr, &act);
		if (c->lanes_changed) {
			c->lanes_changed = false;
			filter_running(c, &act, &act);
		}
	}
	LANES_FREE(act);
}

static void exec_list(struct ictx *c, struct list *list, const struct lanes *in);

static void exec_if(struct ictx *c, struct cf_if *nif, const struct lanes *in)
{
	LANES_BUF(then_ls);
	LANES_BUF(else_ls);
	const struct ssa_def *cond = nif->condition.ssa;
	for (unsigned i = 0; i < in->n; i++) {
		unsigned l = in->l[i];
		if (c->lane[l].state != LS_RUNNING)
			continue;
		if (ipoison(c, cond, l, 0)) {
			interp_undefined(c, "a branch on an undefined condition (%%%u, lane %u)",
					 cond->index, l);
			break;
		}
		if (ival(c, cond, l)[0] & 1)
			then_ls.l[then_ls.n++] = l;
		else
			else_ls.l[else_ls.n++] = l;
	}
	if (then_ls.n && !c->stop)
		exec_list(c, &nif->then_list, &then_ls);
	if (else_ls.n && !c->stop)
		exec_list(c, &nif->else_list, &else_ls);
	LANES_FREE(then_ls);
	LANES_FREE(else_ls);
}

static void exec_loop(struct ictx *c, struct cf_loop *loop, const struct lanes *in)
{
	LANES_BUF(entered);
	LANES_BUF(cur);
	filter_running(c, in, &entered);
	memcpy(cur.l, entered.l, entered.n * sizeof(unsigned));
	cur.n = entered.n;
	while (cur.n && !c->stop) {
		/* an iteration is a step, so that an empty loop ends too */
		if (!count_step(c))
			break;
		exec_list(c, &loop->body, &cur);
		unsigned n = 0;
		for (unsigned i = 0; i < cur.n; i++) {
			struct lane *ln = &c->lane[cur.l[i]];
			if (ln->state == LS_CONTINUED)
				ln->state = LS_RUNNING;
			if (ln->state == LS_RUNNING)
				cur.l[n++] = cur.l[i];
		}
		cur.n = n;
	}
	for (unsigned i = 0; i < entered.n; i++)
		if (c->lane[entered.l[i]].state == LS_BROKE)
			c->lane[entered.l[i]].state = LS_RUNNING;
	LANES_FREE(entered);
	LANES_FREE(cur);
}

static void exec_list(struct ictx *c, struct list *list, const struct lanes *in)
{
	foreach_cf_node(n, list) {
		if (c->stop)
			return;
		switch (n->type) {
		case CF_BLOCK: exec_block(c, cf_as_block(n), in); break;
		case CF_IF: exec_if(c, cf_as_if(n), in); break;
		case CF_LOOP: exec_loop(c, cf_as_loop(n), in); break;
		default: break;
		}
	}
}

/* ---- setup ---- */

static unsigned output_vertices(const struct shader *s, const struct io_decl *d)
{
	if (!d->per_vertex && !d->per_primitive)
		return 1;
	unsigned n = d->per_primitive && s->stage == STAGE_MESH ? s->info.primitives_out
		     : s->info.vertices_out;
	return n ? n : 1;
}

static bool inputs_match(struct ictx *c)
{
	const struct interp_inputs *in = c->in;
	if (in->num_inputs != c->s->num_inputs) {
		interp_error(c, "the inputs were made for %u input declarations, the shader has %u",
			     in->num_inputs, c->s->num_inputs);
		return false;
	}
	for (unsigned i = 0; i < in->num_inputs; i++) {
		const struct io_decl *d = c->s->inputs[i];
		size_t want = interp_input_index(in, d, 0, 0, 0, 0) +
			      (size_t)(d->patch ? 1 : in->num_lanes) *
			      (d->per_vertex ? in->num_vertices : 1) *
			      decl_num_slots(d->array_size) * d->num_components;
		if (in->input_count[i] != want) {
			interp_error(c, "the inputs do not fit input declaration %u", i);
			return false;
		}
	}
	if (in->num_lanes == 0 || in->num_lanes > INTERP_MAX_LANES || !in->subgroup_size) {
		interp_error(c, "%u lanes: not between 1 and %d", in->num_lanes, INTERP_MAX_LANES);
		return false;
	}
	return true;
}

static void setup_values(struct ictx *c)
{
	struct function *fn = c->s->fn;
	c->off = arena_array(&c->arena, size_t, fn->ssa_alloc + 1);
	size_t total = 0;
	foreach_block(b, fn) {
		foreach_instr(i, b) {
			struct ssa_def *d = instr_def(i);
			if (!d)
				continue;
			c->off[d->index] = total;
			total += (size_t)d->num_components * c->nl;
		}
	}
	c->vals = arena_array(&c->arena, uint64_t, total + 1);
	c->tags = arena_array(&c->arena, tagword, (size_t)(fn->ssa_alloc + 1) * c->nl);
}

static void setup_outputs(struct ictx *c)
{
	struct interp_result *r = c->res;
	r->num_outputs = c->s->num_outputs;
	r->outputs = arena_array(&r->arena, struct interp_output, r->num_outputs);
	for (unsigned i = 0; i < r->num_outputs; i++) {
		const struct io_decl *d = c->s->outputs[i];
		struct interp_output *o = &r->outputs[i];
		o->lanes = c->shared_outputs ? 1 : c->nl;
		o->vertices = output_vertices(c->s, d);
		o->count = (size_t)o->lanes * o->vertices * decl_num_slots(d->array_size) *
			   d->num_components;
		o->vals = arena_array(&r->arena, uint64_t, o->count);
		o->tags = arena_alloc(&r->arena, o->count + 1);
		memset(o->tags, INTERP_TAG_POISON, o->count);
	}
}

bool interp_io_overlap(const struct io_decl *a, const struct io_decl *b)
{
	if (a->builtin != BUILTIN_none || b->builtin != BUILTIN_none || a->location < 0 ||
	    b->location < 0 || a->index != b->index || a->patch != b->patch ||
	    a->per_vertex != b->per_vertex)
		return false;
	int ae = a->location + (int)decl_num_slots(a->array_size);
	int be = b->location + (int)decl_num_slots(b->array_size);
	return a->location < be && b->location < ae && a->component < b->component + b->num_components &&
	       b->component < a->component + a->num_components;
}

/* Whether `s` emits vertices (a geometry shader its backend has not
 * lowered yet). */
static bool emits_vertices(struct shader *s)
{
	if (s->stage != STAGE_GEOMETRY)
		return false;
	foreach_block(b, s->fn)
		foreach_instr(in, b)
			if (in->type == INSTR_intrinsic &&
			    (instr_as_intrinsic(in)->op == INTR_emit_vertex ||
			     instr_as_intrinsic(in)->op == INTR_end_primitive))
				return true;
	return false;
}

/* Outputs that overlap another are undefined (at the end, and in every
 * vertex a geometry shader emitted), and so are the tessellation levels
 * the primitive does not have; a geometry shader's results are the
 * vertices it emitted, not what its outputs hold at the end. */
static void poison_unused_outputs(struct ictx *c)
{
	struct interp_result *r = c->res;
	bool gs = emits_vertices(c->s);
	for (unsigned i = 0; i < r->num_outputs; i++) {
		const struct io_decl *d = c->s->outputs[i];
		struct interp_output *o = &r->outputs[i];
		for (unsigned j = 0; j < r->num_outputs; j++) {
			if (i == j || !interp_io_overlap(d, c->s->outputs[j]))
				continue;
			memset(o->tags, INTERP_TAG_POISON, o->count);
			for (unsigned e = 0; e < r->num_gs_events; e++)
				if (!r->gs_events[e].end_primitive)
					memset(r->gs_events[e].outputs[i].tags, INTERP_TAG_POISON,
					       r->gs_events[e].outputs[i].count);
		}
		for (size_t x = 0; x < o->count; x++)
			if (gs || tess_level_unused(c->s, d, (unsigned)(x % d->num_components)))
				o->tags[x] = INTERP_TAG_POISON;
	}
}

struct interp_result *interp_run(struct shader *s, const struct interp_inputs *in,
				 const struct interp_options *opt)
{
	struct interp_result *r = xcalloc(1, sizeof(*r));
	arena_init(&r->arena);
	struct ictx ctx = { .s = s, .in = in, .res = r }, *c = &ctx;
	arena_init(&c->arena);
	c->nl = in->num_lanes;
	c->step_limit = opt && opt->step_limit ? opt->step_limit : INTERP_DEFAULT_STEP_LIMIT;
	c->spirv_undef = opt && opt->spirv_undef;
	if (opt && opt->float_relaxed)
		c->relaxed_bits = interp_relaxed_bits(s);
	c->shared_outputs = s->stage == STAGE_TESS_CTRL || s->stage == STAGE_MESH;
	r->num_lanes = c->nl;
	if (inputs_match(c)) {
		r->fate = arena_array(&r->arena, uint8_t, c->nl);
		c->lane = arena_array(&c->arena, struct lane, c->nl);
		c->in_map = arena_array(&c->arena, uint8_t, c->nl);
		setup_values(c);
		setup_outputs(c);
		interp_mem_setup(c);
		struct lanes all = { c->nl, arena_array(&c->arena, unsigned, c->nl) };
		for (unsigned l = 0; l < c->nl; l++)
			all.l[l] = l;
		function_cfg_ensure(s->fn);
		exec_list(c, &s->fn->body, &all);
		for (unsigned l = 0; l < c->nl; l++)
			if (c->lane[l].state != LS_TERMINATED && c->lane[l].demoted)
				r->fate[l] = LANE_DEMOTED;
		poison_unused_outputs(c);
		interp_mem_finish(c);
	}
	r->steps = c->steps;
	arena_release(&c->arena);
	return r;
}

struct interp_result *interp_result_create(const struct shader *s, const struct interp_inputs *in)
{
	struct interp_result *r = xcalloc(1, sizeof(*r));
	arena_init(&r->arena);
	struct ictx ctx = { .s = (struct shader *)s, .in = in, .res = r }, *c = &ctx;
	arena_init(&c->arena);
	c->nl = r->num_lanes = in->num_lanes;
	c->shared_outputs = s->stage == STAGE_TESS_CTRL || s->stage == STAGE_MESH;
	r->fate = arena_array(&r->arena, uint8_t, c->nl + 1);
	memset(r->fate, LANE_LIVE, c->nl);
	setup_outputs(c);
	interp_mem_setup(c);
	interp_mem_finish(c);
	arena_release(&c->arena);
	return r;
}

void interp_result_free(struct interp_result *r)
{
	if (!r)
		return;
	arena_release(&r->arena);
	free(r);
}

bool interp_output_get(const struct interp_result *r, const struct shader *s, unsigned decl,
		       unsigned lane, unsigned vertex, unsigned slot, unsigned comp, uint64_t *bits)
{
	if (decl >= r->num_outputs || decl >= s->num_outputs)
		return false;
	const struct interp_output *o = &r->outputs[decl];
	const struct io_decl *d = s->outputs[decl];
	if (lane >= r->num_lanes || vertex >= o->vertices || slot >= decl_num_slots(d->array_size) ||
	    comp >= d->num_components)
		return false;
	size_t x = interp_io_index(d, o->lanes, o->vertices, lane, vertex, slot, comp);
	*bits = o->vals[x];
	return !(o->tags[x] & INTERP_TAG_POISON);
}
