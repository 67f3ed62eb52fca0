/*
 * Operations across lanes: derivatives, interpolation at an offset, and
 * subgroup operations.
 *
 * Quads: lanes 4q … 4q+3 form a 2×2 quad, (x, y) = (l & 1, l >> 1 & 1).
 * ddx = ddx_fine = v(x=1) - v(x=0) in the lane's row, ddy = ddy_fine the
 * same in its column; the coarse ones use the quad's top-left lane for both
 * rows (columns), and so do ddx/ddy when the inputs say the machine computes
 * them coarse (coarse_derivatives: the API lets it).  The difference is an fsub of the constant folder.  A
 * derivative reading a lane that does not run the instruction (discarded,
 * in another branch, absent) is poison.
 *
 * Subgroups: lanes S·k … S·k+S-1 (S = inputs->subgroup_size).  The active
 * lanes of a subgroup are those running the instruction.  Reading an
 * inactive or absent lane (read_invocation, shuffles, quad ops) gives
 * poison, as does ballot_find_lsb/msb of an empty ballot.  Reductions and
 * scans combine the active lanes in increasing order with the reduction
 * opcode's constant-folding expression; an exclusive scan of the first lane
 * gives the opcode's identity (fadd: +0.0).
 */
#include <string.h>

#include "compiler/ir/interp_priv.h"

/* Copy component k of `src` in lane `from` to `def` in lane `to`. */
static void copy_comp(struct ictx *c, const struct ssa_def *def, unsigned to,
		      const struct ssa_def *src, unsigned from, unsigned k)
{
	iput_mem(c, def, to, k, ival(c, src, from)[k], itag_mem(c, src, from, k));
}

/* ---- derivatives ---- */

static void exec_derivative(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	const struct ssa_def *v = intr->src[0].ssa;
	bool is_x = intr->op == INTR_ddx || intr->op == INTR_ddx_fine ||
		    intr->op == INTR_ddx_coarse;
	bool coarse = intr->op == INTR_ddx_coarse || intr->op == INTR_ddy_coarse ||
		      (c->in->coarse_derivatives && (intr->op == INTR_ddx || intr->op == INTR_ddy));
	unsigned step = is_x ? 1 : 2;
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		unsigned a = coarse ? l & ~3u : l & ~step;
		unsigned b = a | step;
		bool ok = b < c->nl && interp_lane_in(c, ls, a) && interp_lane_in(c, ls, b);
		for (unsigned k = 0; k < v->num_components; k++) {
			if (!ok || ipoison(c, v, a, k) || ipoison(c, v, b, k)) {
				iput(c, &intr->def, l, k, 0, true, false);
				continue;
			}
			uint64_t r;
			const uint64_t *srcs[2] = { &ival(c, v, b)[k], &ival(c, v, a)[k] };
			alu_fold(OP_fsub, 1, v->bit_size, srcs, &r);
			iput(c, &intr->def, l, k, r, false, true);
		}
	}
}

/* ---- interpolation ---- */

void interp_pixel_barycentrics(unsigned l, float *i, float *j)
{
	*i = 0.25f + 0.125f * (float)(l & 1);
	*j = 0.25f + 0.125f * (float)((l >> 1) & 1);
}

void interp_barycentric_offset(unsigned l, float i, float j, double *ox, double *oy)
{
	float pi, pj;
	interp_pixel_barycentrics(l, &pi, &pj);
	*ox = ((double)i - pi) / 0.125;
	*oy = ((double)j - pj) / 0.125;
}

uint64_t interp_input_at(const struct interp_inputs *in, const struct io_decl *d, unsigned decl,
			 unsigned l, unsigned slot, unsigned comp, double ox, double oy,
			 unsigned bits)
{
	const uint64_t *vals = in->input[decl];
	uint64_t raw = vals[interp_input_index(in, d, l, 0, slot, comp)];
	if (d->interp == INTERP_flat || (ox == 0 && oy == 0 && bits == d->bit_size))
		return raw;
	unsigned q = l & ~3u, lx = q + 1 < in->num_lanes ? q + 1 : q,
		 ly = q + 2 < in->num_lanes ? q + 2 : q, n = d->bit_size;
	double v = ir_float_from_bits(raw, n);
	if (ox == 0 && oy == 0)
		return ir_float_to_bits(v, bits);
	double v0 = ir_float_from_bits(vals[interp_input_index(in, d, q, 0, slot, comp)], n);
	double vx = ir_float_from_bits(vals[interp_input_index(in, d, lx, 0, slot, comp)], n);
	double vy = ir_float_from_bits(vals[interp_input_index(in, d, ly, 0, slot, comp)], n);
	return ir_float_to_bits(v + (vx - v0) * ox + (vy - v0) * oy, bits);
}

/* interp_at_*: the input plus its per-pixel change across the quad times
 * the offset (interp_input_at(); centroid: the pixel centre; sample: the
 * standard 4x pattern; at_barycentric: the barycentrics' distance from
 * the pixel centre). */
static void exec_interp(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	const struct interp_inputs *in = c->in;
	int32_t base = intrinsic_get(intr, INTR_IDX_base);
	const struct io_decl *d = c->s->inputs[base];
	unsigned comp0 = (unsigned)intrinsic_get(intr, INTR_IDX_component) - d->component;
	unsigned off_src = intrinsic_infos[intr->op].num_srcs - 1;
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		uint64_t slot = isrc(c, intr, off_src, l);
		double ox = 0, oy = 0;
		bool undef = ipoison(c, intr->src[off_src].ssa, l, 0);
		if (intr->op == INTR_interp_at_offset || intr->op == INTR_interp_at_barycentric) {
			const struct ssa_def *o = intr->src[0].ssa;
			ox = ir_float_from_bits(ival(c, o, l)[0], o->bit_size);
			oy = ir_float_from_bits(ival(c, o, l)[1], o->bit_size);
			if (intr->op == INTR_interp_at_barycentric)
				interp_barycentric_offset(l, (float)ox, (float)oy, &ox, &oy);
			undef |= ipoison_any(c, o, l);
		} else if (intr->op == INTR_interp_at_sample) {
			uint64_t s = isrc(c, intr, 0, l);
			ox = interp_sample_positions[s & 3][0] - 0.5;
			oy = interp_sample_positions[s & 3][1] - 0.5;
			undef |= ipoison(c, intr->src[0].ssa, l, 0);
		}
		if (undef || slot >= decl_num_slots(d->array_size)) {
			iput_poison(c, &intr->def, l);
			continue;
		}
		for (unsigned k = 0; k < intr->def.num_components; k++) {
			uint64_t v = interp_input_at(in, d, (unsigned)base, l, (unsigned)slot, comp0 + k, ox,
						     oy, intr->def.bit_size);
			iput(c, &intr->def, l, k, v, false, d->interp != INTERP_flat);
		}
	}
}

/* load_barycentric_pixel, load_sample_pos_from_id */
static void exec_barycentrics(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	for (unsigned n = 0; n < ls->n; n++) {
		unsigned l = ls->l[n];
		float p[2];
		if (intr->op == INTR_load_barycentric_pixel) {
			interp_pixel_barycentrics(l, &p[0], &p[1]);
		} else {
			if (ipoison(c, intr->src[0].ssa, l, 0)) {
				iput_poison(c, &intr->def, l);
				continue;
			}
			uint64_t s = isrc(c, intr, 0, l);
			p[0] = interp_sample_positions[s & 3][0];
			p[1] = interp_sample_positions[s & 3][1];
		}
		for (unsigned k = 0; k < 2; k++)
			iput(c, &intr->def, l, k, ir_float_to_bits(p[k], 32), false, true);
	}
}

/* ---- subgroups ---- */

struct subgroup {
	unsigned base, size;	/* first lane, lanes (S) */
};

static struct subgroup subgroup_of(struct ictx *c, unsigned l)
{
	unsigned s = c->in->subgroup_size;
	return (struct subgroup){ l - l % s, s };
}

/* Whether lane `base + i` exists and runs the instruction. */
static bool sg_active(struct ictx *c, const struct lanes *ls, struct subgroup sg, uint64_t i)
{
	return i < sg.size && sg.base + i < c->nl && interp_lane_in(c, ls, sg.base + (unsigned)i);
}

/* Lane `target` of the subgroup into lane l, or poison when inactive. */
static void read_lane(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls,
		      unsigned l, uint64_t target, bool undef)
{
	struct subgroup sg = subgroup_of(c, l);
	const struct ssa_def *v = intr->src[0].ssa;
	if (undef || !sg_active(c, ls, sg, target)) {
		iput_poison(c, &intr->def, l);
		return;
	}
	for (unsigned k = 0; k < v->num_components; k++)
		copy_comp(c, &intr->def, l, v, sg.base + (unsigned)target, k);
}

static void exec_read(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		struct subgroup sg = subgroup_of(c, l);
		uint64_t sl = l - sg.base, t = 0, x = 0;
		bool undef = false;
		if (intrinsic_infos[intr->op].num_srcs > 1) {
			x = isrc(c, intr, 1, l);
			undef = ipoison(c, intr->src[1].ssa, l, 0);
		}
		switch (intr->op) {
		case INTR_read_invocation: case INTR_shuffle: t = x; break;
		case INTR_read_first_invocation:
			for (t = 0; t < sg.size && !sg_active(c, ls, sg, t); t++)
				;
			break;
		case INTR_shuffle_xor: t = sl ^ x; break;
		case INTR_shuffle_up: t = x <= sl ? sl - x : UINT64_MAX; break;
		case INTR_shuffle_down: t = sl + x; break;
		case INTR_quad_broadcast: t = x < 4 ? (sl & ~(uint64_t)3) + x : UINT64_MAX; break;
		case INTR_quad_swap_horizontal: t = sl ^ 1; break;
		case INTR_quad_swap_vertical: t = sl ^ 2; break;
		default: t = sl ^ 3; break;	/* quad_swap_diagonal */
		}
		read_lane(c, intr, ls, l, t, undef);
	}
}

/* The 128-bit ballot of a uvec4 source, and whether it is poison. */
static void ballot_of(struct ictx *c, const struct ssa_def *d, unsigned l, uint64_t *lo,
		      uint64_t *hi, bool *poison)
{
	const uint64_t *v = ival(c, d, l);
	*lo = (v[0] & 0xffffffff) | v[1] << 32;
	*hi = (v[2] & 0xffffffff) | v[3] << 32;
	*poison = ipoison_any(c, d, l);
}

/* Bits [0, n) of a ballot. */
static void ballot_clip(uint64_t *lo, uint64_t *hi, unsigned n)
{
	if (n < 64) {
		*lo &= ((uint64_t)1 << n) - 1;
		*hi = 0;
	} else if (n < 128) {
		*hi &= ((uint64_t)1 << (n - 64)) - 1;
	}
}

static unsigned popcount128(uint64_t lo, uint64_t hi)
{
	return (unsigned)(__builtin_popcountll(lo) + __builtin_popcountll(hi));
}

static void exec_ballot_op(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		struct subgroup sg = subgroup_of(c, l);
		unsigned sl = l - sg.base;
		uint64_t lo, hi, r = 0;
		bool poison;
		ballot_of(c, intr->src[0].ssa, l, &lo, &hi, &poison);
		switch (intr->op) {
		case INTR_inverse_ballot:
			r = (sl < 64 ? lo >> sl : hi >> (sl - 64)) & 1;
			break;
		case INTR_ballot_bitfield_extract: {
			uint64_t b = isrc(c, intr, 1, l);
			poison |= ipoison(c, intr->src[1].ssa, l, 0);
			r = b < 64 ? lo >> b & 1 : b < 128 ? hi >> (b - 64) & 1 : 0;
			break;
		}
		case INTR_ballot_bit_count_reduce:
			ballot_clip(&lo, &hi, sg.size);
			r = popcount128(lo, hi);
			break;
		case INTR_ballot_bit_count_inclusive: case INTR_ballot_bit_count_exclusive:
			ballot_clip(&lo, &hi, sl + (intr->op == INTR_ballot_bit_count_inclusive));
			r = popcount128(lo, hi);
			break;
		case INTR_ballot_find_lsb:
			ballot_clip(&lo, &hi, sg.size);
			poison |= !lo && !hi;
			r = lo ? (uint64_t)__builtin_ctzll(lo)
			       : hi ? 64 + (uint64_t)__builtin_ctzll(hi) : 0;
			break;
		default:	/* ballot_find_msb */
			ballot_clip(&lo, &hi, sg.size);
			poison |= !lo && !hi;
			r = hi ? 127 - (uint64_t)__builtin_clzll(hi)
			       : lo ? 63 - (uint64_t)__builtin_clzll(lo) : 0;
			break;
		}
		iput(c, &intr->def, l, 0, r, poison, false);
	}
}

/* ballot, elect, votes: a function of the active lanes of the subgroup. */
static void exec_vote(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		struct subgroup sg = subgroup_of(c, l);
		bool elect = intr->op == INTR_elect || intr->op == INTR_elect_any_ir3;
		const struct ssa_def *v = elect ? NULL : intr->src[0].ssa;
		uint64_t bits[2] = { 0, 0 };
		bool poison = false, any = false, all = true, first_set = false, eq = true;
		unsigned first = 0;
		for (unsigned j = 0; j < sg.size; j++) {
			if (!sg_active(c, ls, sg, j))
				continue;
			unsigned m = sg.base + j;
			if (!first_set) {
				first = m;
				first_set = true;
			}
			if (!v)
				continue;
			poison |= ipoison_any(c, v, m);
			bool b = ival(c, v, m)[0] & 1;
			any |= b;
			all &= b;
			if (b)
				bits[j / 64] |= (uint64_t)1 << (j % 64);
			for (unsigned k = 0; k < v->num_components; k++) {
				uint64_t x = ival(c, v, m)[k], y = ival(c, v, first)[k], r;
				if (intr->op == INTR_vote_feq) {
					const uint64_t *srcs[2] = { &x, &y };
					alu_fold(OP_feq, 1, v->bit_size, srcs, &r);
					eq &= r != 0;
				} else {
					eq &= x == y;
				}
			}
		}
		switch (intr->op) {
		case INTR_elect: case INTR_elect_any_ir3:
			iput(c, &intr->def, l, 0, l == first, false, false);
			break;
		case INTR_vote_any: iput(c, &intr->def, l, 0, any, poison, false); break;
		case INTR_vote_all: iput(c, &intr->def, l, 0, all, poison, false); break;
		case INTR_vote_ieq: case INTR_vote_feq:
			iput(c, &intr->def, l, 0, eq, poison, false);
			break;
		default:	/* ballot */
			for (unsigned k = 0; k < 4; k++)
				iput(c, &intr->def, l, k, bits[k / 2] >> (32 * (k % 2)), poison, false);
			break;
		}
	}
}

/* The identity of a reduction opcode at a bit size. */
static uint64_t reduction_identity(enum alu_op op, unsigned bits)
{
	uint64_t ones = imask(bits);
	switch (op) {
	case OP_imul: return 1;
	case OP_fmul: return ir_float_to_bits(1.0, bits);
	case OP_imin: return ones >> 1;
	case OP_imax: return (ones >> 1) + 1;
	case OP_umin: case OP_iand: return ones;
	case OP_fmin: return ir_float_to_bits(__builtin_inf(), bits);
	case OP_fmax: return ir_float_to_bits(-__builtin_inf(), bits);
	default: return 0;	/* iadd, fadd, umax, ior, ixor */
	}
}

static void exec_reduce(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	const struct ssa_def *v = intr->src[0].ssa;
	enum alu_op op = (enum alu_op)intrinsic_get(intr, INTR_IDX_reduction_op);
	bool is_float = alu_type_base(alu_op_infos[op].output_type) == BASE_float;
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		struct subgroup sg = subgroup_of(c, l);
		unsigned sl = l - sg.base, lo = 0, hi = sg.size;	/* lanes [lo, hi) combined */
		if (intr->op == INTR_reduce) {
			unsigned cs = (unsigned)intrinsic_get(intr, INTR_IDX_cluster_size);
			if (cs && cs < sg.size) {
				lo = sl - sl % cs;
				hi = lo + cs;
			}
		} else {
			hi = sl + (intr->op == INTR_inclusive_scan);
		}
		for (unsigned k = 0; k < v->num_components; k++) {
			uint64_t acc = reduction_identity(op, v->bit_size);
			bool poison = false, have = false;
			for (unsigned j = lo; j < hi; j++) {
				if (!sg_active(c, ls, sg, j))
					continue;
				unsigned m = sg.base + j;
				uint64_t x = ival(c, v, m)[k];
				poison |= ipoison(c, v, m, k);
				if (!have) {
					acc = x;
					have = true;
					continue;
				}
				const uint64_t *srcs[2] = { &acc, &x };
				uint64_t r;
				alu_fold(op, 1, v->bit_size, srcs, &r);
				acc = r;
			}
			iput(c, &intr->def, l, k, acc, poison, is_float);
		}
	}
}

bool interp_exec_cross_lane(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	switch (intr->op) {
	case INTR_ddx: case INTR_ddy: case INTR_ddx_fine: case INTR_ddy_fine:
	case INTR_ddx_coarse: case INTR_ddy_coarse:
		exec_derivative(c, intr, ls);
		return true;
	case INTR_interp_at_centroid: case INTR_interp_at_sample: case INTR_interp_at_offset:
	case INTR_interp_at_barycentric:
		exec_interp(c, intr, ls);
		return true;
	case INTR_load_barycentric_pixel: case INTR_load_sample_pos_from_id:
		exec_barycentrics(c, intr, ls);
		return true;
	case INTR_elect: case INTR_ballot: case INTR_vote_any: case INTR_vote_all:
	case INTR_vote_ieq: case INTR_vote_feq: case INTR_elect_any_ir3:
		exec_vote(c, intr, ls);
		return true;
	case INTR_preamble_start_ir3:
		/* the ir3 preamble runs in the first subgroup (wave) */
		for (unsigned i = 0; i < ls->n; i++)
			iput(c, &intr->def, ls->l[i], 0, subgroup_of(c, ls->l[i]).base == 0, false,
			     false);
		return true;
	case INTR_preamble_end_ir3:
		return true;
	case INTR_inverse_ballot: case INTR_ballot_bitfield_extract:
	case INTR_ballot_bit_count_reduce: case INTR_ballot_bit_count_inclusive:
	case INTR_ballot_bit_count_exclusive: case INTR_ballot_find_lsb: case INTR_ballot_find_msb:
		exec_ballot_op(c, intr, ls);
		return true;
	case INTR_read_invocation: case INTR_read_first_invocation: case INTR_shuffle:
	case INTR_shuffle_xor: case INTR_shuffle_up: case INTR_shuffle_down:
	case INTR_quad_broadcast: case INTR_quad_swap_horizontal: case INTR_quad_swap_vertical:
	case INTR_quad_swap_diagonal:
		exec_read(c, intr, ls);
		return true;
	case INTR_reduce: case INTR_inclusive_scan: case INTR_exclusive_scan:
		exec_reduce(c, intr, ls);
		return true;
	default:
		return false;
	}
}
