/*
 * Textures in the interpreter: each texture is a deterministic function of
 * its texel coordinates, level, layer and sample (interp_texel_hash()), and
 * sampling is done as a GPU would, so every source of a tex instruction
 * changes the result and equal requests give equal results:
 *
 *  - float coordinates: bilinear (trilinear for 3D) filtering of the texels
 *    around the coordinate, and linear between the two nearest mip levels;
 *    integer textures (int/uint results) take the nearest texel of the
 *    nearest level;
 *  - the level of detail: implicit (tex, txb, lod) from the fine
 *    derivatives of the coordinate over the 2×2 quad in fragment and
 *    compute shaders (0 in other stages; poison when a quad neighbour is not
 *    running), explicit (txl), from ddx/ddy (txd); plus bias, at least
 *    min_lod, clamped to the levels;
 *  - the projector divides the coordinate and the comparator; a shadow
 *    lookup compares `ref <= texel` for each texel before filtering;
 *  - offsets move the texel indices; an even sampler slot repeats, an odd
 *    one clamps to the edge; texture_offset and sampler_offset move the
 *    slots;
 *  - txf/txf_ms outside the texture, a level, layer or sample out of range,
 *    an undeclared texture: 0.  txs of a level beyond the last: poison.
 *  - tg4 returns component `component` of the four texels of the bilinear
 *    footprint at level 0, in the order (i0,j1) (i1,j1) (i1,j0) (i0,j0).
 *  - sparse lookups are always resident (residency code 0).
 * Texel values: floats in [0, 1) (24 bits of hash), integers the hash's bits.
 */
#include <math.h>
#include <string.h>

#include "compiler/ir/interp_priv.h"

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

uint64_t interp_texel_hash(const struct interp_texture *t, unsigned slot, unsigned level,
			   const int64_t *xyz, unsigned layer, unsigned sample, unsigned comp)
{
	uint64_t h = mix64(t->hash + 0x9e3779b97f4a7c15ull * (slot + 1));
	h = mix64(h ^ level);
	h = mix64(h ^ (uint64_t)xyz[0]);
	h = mix64(h ^ (uint64_t)xyz[1] << 1);
	h = mix64(h ^ (uint64_t)xyz[2] << 2);
	h = mix64(h ^ layer);
	h = mix64(h ^ sample);
	return mix64(h ^ comp);
}

static double texel_float(uint64_t h)
{
	return (double)(h >> 40) / (double)(1 << 24);
}

/* ---- one lookup ---- */

struct lookup {
	struct ictx *c;
	const struct tex_instr *tex;
	const struct interp_texture *t;
	unsigned slot;
	bool clamp;			/* sampler: clamp to edge, else repeat */
	unsigned dims;			/* coordinates without the layer (cube: 2 after projection) */
	double co[3];			/* coordinates (cube: face s, t) */
	unsigned layer;
	int64_t offset[3];
	double ref;			/* comparator */
	bool shadow;
	bool int_result;
	bool unnormalized;		/* rect: coordinates in texels */
	unsigned sample;
};

static const struct ssa_def *src_of(const struct tex_instr *tex, enum tex_src_type type)
{
	int i = tex_instr_src_index(tex, type);
	return i < 0 ? NULL : tex->src[i].src.ssa;
}

static double fval(struct ictx *c, const struct ssa_def *d, unsigned l, unsigned k)
{
	return ir_float_from_bits(ival(c, d, l)[k], d->bit_size);
}

static unsigned level_size(const struct interp_texture *t, unsigned k, unsigned level)
{
	uint32_t s = level < 32 ? t->size[k] >> level : 0;
	return s ? s : 1;
}

static int64_t wrap(const struct lookup *lk, int64_t i, unsigned size)
{
	if (lk->clamp)
		return i < 0 ? 0 : i >= size ? size - 1 : i;
	int64_t m = i % (int64_t)size;
	return m < 0 ? m + size : m;
}

/* Component `comp` of one texel, or its comparison with the reference. */
static double texel(const struct lookup *lk, unsigned level, const int64_t *xyz, unsigned comp)
{
	uint64_t h = interp_texel_hash(lk->t, lk->slot, level, xyz, lk->layer, lk->sample,
				       lk->shadow ? 0 : comp);
	double v = texel_float(h);
	if (lk->shadow)
		return lk->ref <= v ? 1.0 : 0.0;
	return v;
}

/* Texel position and weight along one axis. */
static void axis(const struct lookup *lk, unsigned k, unsigned level, int64_t *i0, double *frac)
{
	unsigned size = level_size(lk->t, k, level);
	double u = (lk->unnormalized ? lk->co[k] : lk->co[k] * size) - 0.5;
	if (!isfinite(u))
		u = 0;
	if (lk->clamp)
		u = u < -1 ? -1 : u > size ? size : u;
	else
		u = fmod(u, (double)size);
	double f = floor(u);
	*i0 = (int64_t)f + lk->offset[k];
	*frac = u - f;
}

/* A filtered sample of component `comp` at one level. */
static double sample_level(const struct lookup *lk, unsigned level, unsigned comp)
{
	int64_t i0[3] = { 0, 0, 0 };
	double fr[3] = { 0, 0, 0 };
	for (unsigned k = 0; k < lk->dims; k++)
		axis(lk, k, level, &i0[k], &fr[k]);
	double sum = 0;
	for (unsigned corner = 0; corner < (1u << lk->dims); corner++) {
		int64_t xyz[3] = { 0, 0, 0 };
		double w = 1;
		for (unsigned k = 0; k < lk->dims; k++) {
			bool hi = corner >> k & 1;
			xyz[k] = wrap(lk, i0[k] + hi, level_size(lk->t, k, level));
			w *= hi ? fr[k] : 1 - fr[k];
		}
		if (w != 0)
			sum += w * texel(lk, level, xyz, comp);
	}
	return sum;
}

/* The nearest texel (integer textures). */
static uint64_t nearest_bits(const struct lookup *lk, unsigned level, unsigned comp)
{
	int64_t xyz[3] = { 0, 0, 0 };
	for (unsigned k = 0; k < lk->dims; k++) {
		unsigned size = level_size(lk->t, k, level);
		double u = lk->unnormalized ? lk->co[k] : lk->co[k] * size;
		u = isfinite(u) ? fmod(u, (double)size) : 0;
		xyz[k] = wrap(lk, (int64_t)floor(u) + lk->offset[k], size);
	}
	return interp_texel_hash(lk->t, lk->slot, level, xyz, lk->layer, lk->sample, comp);
}

/* ---- cube maps: direction to face and (s, t) ---- */

static void cube_face(double x, double y, double z, unsigned *face, double *s, double *t)
{
	double ax = fabs(x), ay = fabs(y), az = fabs(z), ma, sc, tc;
	if (ax >= ay && ax >= az) {
		*face = x >= 0 ? 0 : 1;
		ma = ax, sc = x >= 0 ? -z : z, tc = -y;
	} else if (ay >= az) {
		*face = y >= 0 ? 2 : 3;
		ma = ay, sc = x, tc = y >= 0 ? z : -z;
	} else {
		*face = z >= 0 ? 4 : 5;
		ma = az, sc = z >= 0 ? x : -x, tc = -y;
	}
	*s = (sc / ma + 1) / 2;
	*t = (tc / ma + 1) / 2;
}

/* ---- level of detail ---- */

/* The projected coordinate of lane l (cube: the raw direction). */
static void coords_of(struct ictx *c, const struct tex_instr *tex, unsigned l, double *co)
{
	const struct ssa_def *coord = src_of(tex, TEX_SRC_coord);
	const struct ssa_def *proj = src_of(tex, TEX_SRC_projector);
	unsigned n = image_dim_coords(tex->dim);
	for (unsigned k = 0; k < 3; k++)
		co[k] = coord && k < n ? fval(c, coord, l, k) : 0;
	if (proj)
		for (unsigned k = 0; k < n; k++)
			co[k] /= fval(c, proj, l, 0);
}

/* rho: the longer of the two screen-space derivatives in texels. */
static double rho_of(const struct interp_texture *t, unsigned n, const double *dx, const double *dy)
{
	double lx = 0, ly = 0;
	for (unsigned k = 0; k < n && k < 3; k++) {
		double s = t->size[k];
		lx += dx[k] * s * dx[k] * s;
		ly += dy[k] * s * dy[k] * s;
	}
	return sqrt(lx > ly ? lx : ly);
}

static bool has_quads(const struct ictx *c)
{
	enum shader_stage st = c->s->stage;
	return st == STAGE_FRAGMENT || st == STAGE_COMPUTE || st == STAGE_TASK || st == STAGE_MESH;
}

/* The unclamped lambda of an implicit-lod lookup; false when a quad
 * neighbour it needs is not running or poison. */
static bool implicit_lambda(struct ictx *c, const struct tex_instr *tex, const struct lanes *ls,
			    unsigned l, const struct interp_texture *t, double *lambda)
{
	*lambda = 0;
	if (!has_quads(c))
		return true;
	const struct ssa_def *coord = src_of(tex, TEX_SRC_coord);
	unsigned x0 = l & ~1u, x1 = l | 1u, y0 = l & ~2u, y1 = l | 2u;
	unsigned need[4] = { x0, x1, y0, y1 };
	for (unsigned i = 0; i < 4; i++) {
		if (need[i] >= c->nl || !interp_lane_in(c, ls, need[i]) || ipoison_any(c, coord, need[i]))
			return false;
		const struct ssa_def *proj = src_of(tex, TEX_SRC_projector);
		if (proj && ipoison_any(c, proj, need[i]))
			return false;
	}
	double a[3], b[3], cc[3], d[3], dx[3], dy[3];
	coords_of(c, tex, x0, a);
	coords_of(c, tex, x1, b);
	coords_of(c, tex, y0, cc);
	coords_of(c, tex, y1, d);
	for (unsigned k = 0; k < 3; k++) {
		dx[k] = b[k] - a[k];
		dy[k] = d[k] - cc[k];
	}
	*lambda = log2(rho_of(t, image_dim_coords(tex->dim), dx, dy));
	return true;
}

/* ---- the instruction ---- */

static void result(struct ictx *c, const struct tex_instr *tex, unsigned l, unsigned k, double f,
		   uint64_t bits, bool is_float)
{
	const struct ssa_def *d = &tex->def;
	uint64_t v = is_float ? ir_float_to_bits(f, d->bit_size) : bits & imask(d->bit_size);
	ival(c, d, l)[k] = v;
	tagword *t = itag(c, d, l);
	*t &= ~itag_bits(k);
	*t |= (tagword)is_float << (k + TAGW_FLOAT_SHIFT);
}

static void result_poison(struct ictx *c, const struct tex_instr *tex, unsigned l)
{
	memset(ival(c, &tex->def, l), 0, tex->def.num_components * sizeof(uint64_t));
	*itag(c, &tex->def, l) = TAGW_POISON_ALL;
}

static void result_zero(struct ictx *c, const struct tex_instr *tex, unsigned l)
{
	for (unsigned k = 0; k < tex->def.num_components; k++)
		result(c, tex, l, k, 0, 0, tex->dest_type == BASE_float &&
		       k + tex->is_sparse < tex->def.num_components);
}

/* Whether any source of the instruction is poison for lane l. */
static bool any_poison(struct ictx *c, const struct tex_instr *tex, unsigned l)
{
	for (unsigned i = 0; i < tex->num_srcs; i++)
		if (ipoison_any(c, tex->src[i].src.ssa, l))
			return true;
	return false;
}

static uint64_t int_src(struct ictx *c, const struct tex_instr *tex, enum tex_src_type type,
			unsigned l, uint64_t dflt)
{
	const struct ssa_def *d = src_of(tex, type);
	return d ? ival(c, d, l)[0] : dflt;
}

/* The texture of a lookup, or NULL when its slot is not declared. */
static const struct interp_texture *texture_of(struct ictx *c, const struct tex_instr *tex,
					       unsigned l, unsigned *slot)
{
	uint64_t s = (uint64_t)tex->texture_index +
		     (uint32_t)int_src(c, tex, TEX_SRC_texture_offset, l, 0);
	if (s >= c->in->num_textures)
		return NULL;
	*slot = (unsigned)s;
	return &c->in->texture[s];
}

static unsigned layer_of(double v, unsigned layers)
{
	double f = floor(v + 0.5);
	if (!(f >= 0))
		return 0;
	return f >= layers ? layers - 1 : (unsigned)f;
}

/* txs, query_levels, texture_samples. */
static void exec_query(struct ictx *c, const struct tex_instr *tex, unsigned l,
		       const struct interp_texture *t)
{
	if (tex->op == TEX_OP_query_levels || tex->op == TEX_OP_texture_samples) {
		result(c, tex, l, 0, 0, tex->op == TEX_OP_query_levels ? t->levels : t->samples, false);
		return;
	}
	uint64_t lod = int_src(c, tex, TEX_SRC_lod, l, 0);
	if (lod >= t->levels) {
		result_poison(c, tex, l);
		return;
	}
	unsigned n = tex->dim == DIM_cube ? 2 : image_dim_coords(tex->dim);
	for (unsigned k = 0; k < tex->def.num_components; k++)
		result(c, tex, l, k, 0, k < n ? level_size(t, k, (unsigned)lod)
		       : k == n && tex->is_array ? t->layers : 0, false);
}

/* txf, txf_ms: integer coordinates. */
static void exec_fetch(struct ictx *c, const struct tex_instr *tex, unsigned l, struct lookup *lk)
{
	const struct ssa_def *coord = src_of(tex, TEX_SRC_coord);
	const struct interp_texture *t = lk->t;
	uint64_t level = int_src(c, tex, TEX_SRC_lod, l, 0);
	uint64_t sample = int_src(c, tex, TEX_SRC_ms_index, l, 0);
	unsigned n = image_dim_coords(tex->dim);
	int64_t xyz[3] = { 0, 0, 0 };
	bool in = level < t->levels && (tex->op != TEX_OP_txf_ms || sample < t->samples);
	for (unsigned k = 0; k < n && in; k++) {
		xyz[k] = (int32_t)ival(c, coord, l)[k] + lk->offset[k];
		in = xyz[k] >= 0 && xyz[k] < level_size(t, k, (unsigned)level);
	}
	int64_t layer = tex->is_array ? (int32_t)ival(c, coord, l)[n] : 0;
	if (!in || layer < 0 || layer >= t->layers) {
		result_zero(c, tex, l);
		return;
	}
	lk->layer = (unsigned)layer;
	lk->sample = tex->op == TEX_OP_txf_ms ? (unsigned)sample : 0;
	for (unsigned k = 0; k < tex->def.num_components; k++) {
		uint64_t h = interp_texel_hash(t, lk->slot, (unsigned)level, xyz, lk->layer,
					       lk->sample, k);
		bool sparse_code = tex->is_sparse && k == tex->def.num_components - 1u;
		if (sparse_code)
			result(c, tex, l, k, 0, 0, false);
		else if (lk->int_result)
			result(c, tex, l, k, 0, h, false);
		else
			result(c, tex, l, k, texel_float(h), 0, true);
	}
}

/* tg4: the four texels of the bilinear footprint at level 0. */
static void exec_gather(struct ictx *c, const struct tex_instr *tex, unsigned l, struct lookup *lk)
{
	int64_t i0[3] = { 0, 0, 0 };
	double fr[3];
	for (unsigned k = 0; k < 2; k++)
		axis(lk, k, 0, &i0[k], &fr[k]);
	static const unsigned corner[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
	for (unsigned k = 0; k < 4; k++) {
		int64_t xyz[3] = { wrap(lk, i0[0] + corner[k][0], level_size(lk->t, 0, 0)),
				   wrap(lk, i0[1] + corner[k][1], level_size(lk->t, 1, 0)), 0 };
		if (lk->int_result)
			result(c, tex, l, k, 0, interp_texel_hash(lk->t, lk->slot, 0, xyz, lk->layer, 0,
								  tex->component), false);
		else
			result(c, tex, l, k, texel(lk, 0, xyz, tex->component), 0, true);
	}
	if (tex->is_sparse)
		result(c, tex, l, 4, 0, 0, false);
}

/* The lambda of a sampling lookup before clamping; false: poison. */
static bool lambda_of(struct ictx *c, const struct tex_instr *tex, const struct lanes *ls,
		      unsigned l, const struct interp_texture *t, double *lambda)
{
	const struct ssa_def *d;
	switch (tex->op) {
	case TEX_OP_txl:
		*lambda = fval(c, src_of(tex, TEX_SRC_lod), l, 0);
		return true;
	case TEX_OP_txd: {
		double dx[3] = { 0, 0, 0 }, dy[3] = { 0, 0, 0 };
		const struct ssa_def *sx = src_of(tex, TEX_SRC_ddx), *sy = src_of(tex, TEX_SRC_ddy);
		for (unsigned k = 0; k < sx->num_components && k < 3; k++) {
			dx[k] = fval(c, sx, l, k);
			dy[k] = fval(c, sy, l, k);
		}
		*lambda = log2(rho_of(t, image_dim_coords(tex->dim), dx, dy));
		return true;
	}
	default:
		if (!implicit_lambda(c, tex, ls, l, t, lambda))
			return false;
		if ((d = src_of(tex, TEX_SRC_bias)))
			*lambda += fval(c, d, l, 0);
		return true;
	}
}

static double clamp_lambda(struct ictx *c, const struct tex_instr *tex, unsigned l,
			   const struct interp_texture *t, double lambda)
{
	const struct ssa_def *d = src_of(tex, TEX_SRC_min_lod);
	if (d) {
		double m = fval(c, d, l, 0);
		if (lambda < m)
			lambda = m;
	}
	if (lambda != lambda || lambda < 0)
		return 0;
	double max = t->levels - 1.0;
	return lambda > max ? max : lambda;
}

static void exec_sample(struct ictx *c, const struct tex_instr *tex, const struct lanes *ls,
			unsigned l, struct lookup *lk)
{
	const struct interp_texture *t = lk->t;
	double lambda;
	if (tex->op == TEX_OP_tg4) {
		exec_gather(c, tex, l, lk);
		return;
	}
	if (!lambda_of(c, tex, ls, l, t, &lambda)) {
		result_poison(c, tex, l);
		return;
	}
	double lod = clamp_lambda(c, tex, l, t, lambda);
	if (tex->op == TEX_OP_lod) {
		result(c, tex, l, 0, lod, 0, true);
		result(c, tex, l, 1, lambda, 0, true);
		return;
	}
	unsigned ncomp = tex->def.num_components - tex->is_sparse;
	if (lk->int_result) {
		unsigned level = (unsigned)floor(lod + 0.5);
		for (unsigned k = 0; k < ncomp; k++)
			result(c, tex, l, k, 0, nearest_bits(lk, level, k), false);
	} else {
		unsigned l0 = (unsigned)floor(lod);
		double f = lod - l0;
		for (unsigned k = 0; k < ncomp; k++) {
			double v = sample_level(lk, l0, k);
			if (f > 0 && l0 + 1 < t->levels)
				v = v * (1 - f) + sample_level(lk, l0 + 1, k) * f;
			result(c, tex, l, k, v, 0, true);
		}
	}
	if (tex->is_sparse)
		result(c, tex, l, ncomp, 0, 0, false);
}

/* Fill the coordinate-related fields of a sampling lookup. */
static void setup_coords(struct ictx *c, const struct tex_instr *tex, unsigned l, struct lookup *lk)
{
	double co[3];
	coords_of(c, tex, l, co);
	unsigned n = image_dim_coords(tex->dim);
	const struct ssa_def *coord = src_of(tex, TEX_SRC_coord);
	unsigned layers = lk->t->layers;
	unsigned layer = tex->is_array && coord ? layer_of(fval(c, coord, l, n), layers) : 0;
	if (tex->dim == DIM_cube) {
		unsigned face;
		cube_face(co[0], co[1], co[2], &face, &lk->co[0], &lk->co[1]);
		lk->dims = 2;
		lk->layer = layer * 6 + face;
		lk->clamp = true;
	} else {
		lk->dims = n;
		memcpy(lk->co, co, sizeof(co));
		lk->layer = layer;
	}
	const struct ssa_def *cmp = src_of(tex, TEX_SRC_comparator);
	if (cmp && tex->is_shadow) {
		lk->shadow = true;
		lk->ref = fval(c, cmp, l, 0);
		const struct ssa_def *proj = src_of(tex, TEX_SRC_projector);
		if (proj)
			lk->ref /= fval(c, proj, l, 0);
	}
}

void interp_exec_tex(struct ictx *c, struct tex_instr *tex, const struct lanes *ls)
{
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		struct lookup lk = { .c = c, .tex = tex };
		if (any_poison(c, tex, l)) {
			result_poison(c, tex, l);
			continue;
		}
		lk.t = texture_of(c, tex, l, &lk.slot);
		if (!lk.t) {
			result_zero(c, tex, l);
			continue;
		}
		uint64_t sampler = (uint64_t)tex->sampler_index +
				   (uint32_t)int_src(c, tex, TEX_SRC_sampler_offset, l, 0);
		lk.clamp = sampler & 1;
		lk.int_result = tex->dest_type != BASE_float;
		lk.unnormalized = tex->dim == DIM_rect;
		const struct ssa_def *off = src_of(tex, TEX_SRC_offset);
		for (unsigned k = 0; off && k < off->num_components && k < 3; k++)
			lk.offset[k] = (int32_t)ival(c, off, l)[k];
		switch (tex->op) {
		case TEX_OP_txs: case TEX_OP_query_levels: case TEX_OP_texture_samples:
			exec_query(c, tex, l, lk.t);
			break;
		case TEX_OP_txf: case TEX_OP_txf_ms:
			exec_fetch(c, tex, l, &lk);
			break;
		default:
			setup_coords(c, tex, l, &lk);
			exec_sample(c, tex, ls, l, &lk);
			break;
		}
	}
}
