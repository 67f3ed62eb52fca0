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
 *  - txf/txf_ms outside the texture, a level, layer or sample out of range:
 *    0; a texture slot past the declared ones: poison; txs of a level
 *    beyond the last: poison;
 *  - the lod query: 8 fractional bits (mipmapPrecisionBits), toward zero.
 *  - tg4 returns component `component` of the four texels of the bilinear
 *    footprint at level 0, in the order (i0,j1) (i1,j1) (i1,j0) (i0,j0).
 *  - sparse lookups are always resident (residency code 0).
 * Texel values: floats in [0, 1) (24 bits of hash), integers the hash's bits.
 */
#include <math.h>
#include <stdlib.h>
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
	const struct interp_tex_request *rq;
	const struct interp_tex_lane *ln;	/* the lane's operands */
	const struct interp_texture *t;
	unsigned slot;
	bool clamp;			/* sampler: clamp to edge, else repeat */
	unsigned dims;			/* coordinates without the layer (cube: 2 after projection) */
	double co[3];			/* coordinates (cube: face s, t) */
	unsigned layer;
	int64_t offset[3];
	double ref;			/* comparator */
	bool shadow;
	bool unnormalized;		/* rect: coordinates in texels */
	unsigned sample;
	uint64_t *vals;			/* the results and their tags */
	uint8_t *tags;
};

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

/* The unclamped lambda of an implicit-lod lookup of lane l; false when a
 * quad neighbour it needs is not running or its coordinates are poison. */
static bool implicit_lambda(const struct interp_tex_request *rq, const struct interp_tex_lane *lanes,
			    unsigned nlanes, unsigned l, const struct interp_texture *t, double *lambda)
{
	*lambda = 0;
	if (!rq->has_quads)
		return true;
	unsigned x0 = l & ~1u, x1 = l | 1u, y0 = l & ~2u, y1 = l | 2u;
	unsigned need[4] = { x0, x1, y0, y1 };
	for (unsigned i = 0; i < 4; i++)
		if (need[i] >= nlanes || !lanes[need[i]].active || lanes[need[i]].coord_poison)
			return false;
	double dx[3], dy[3];
	for (unsigned k = 0; k < 3; k++) {
		dx[k] = lanes[x1].coord[k] - lanes[x0].coord[k];
		dy[k] = lanes[y1].coord[k] - lanes[y0].coord[k];
	}
	*lambda = log2(rho_of(t, image_dim_coords(rq->dim), dx, dy));
	return true;
}

/* ---- results ---- */

static void result(struct lookup *lk, unsigned k, double f, uint64_t bits, bool is_float)
{
	unsigned b = lk->rq->bit_size;
	lk->vals[k] = is_float ? ir_float_to_bits(f, b) : bits & imask(b);
	lk->tags[k] = interp_mem_tag(false, is_float, b);
}

static void result_poison(const struct interp_tex_request *rq, uint64_t *vals, uint8_t *tags)
{
	for (unsigned k = 0; k < rq->num_components; k++) {
		vals[k] = 0;
		tags[k] = INTERP_TAG_POISON;
	}
}

static void result_zero(struct lookup *lk)
{
	const struct interp_tex_request *rq = lk->rq;
	for (unsigned k = 0; k < rq->num_components; k++)
		result(lk, k, 0, 0, !rq->int_result && !rq->query && k + rq->is_sparse < rq->num_components);
}

static unsigned layer_of(double v, unsigned layers)
{
	double f = floor(v + 0.5);
	if (!(f >= 0))
		return 0;
	return f >= layers ? layers - 1 : (unsigned)f;
}

/* txs, query_levels, texture_samples. */
static void exec_query(struct lookup *lk)
{
	const struct interp_tex_request *rq = lk->rq;
	const struct interp_texture *t = lk->t;
	if (rq->op == TEX_OP_query_levels || rq->op == TEX_OP_texture_samples) {
		result(lk, 0, 0, rq->op == TEX_OP_query_levels ? t->levels : t->samples, false);
		return;
	}
	uint64_t lod = lk->ln->ilod;
	if (lod >= t->levels) {
		result_poison(rq, lk->vals, lk->tags);
		return;
	}
	unsigned n = rq->dim == DIM_cube ? 2 : image_dim_coords(rq->dim);
	for (unsigned k = 0; k < rq->num_components; k++)
		result(lk, k, 0, k < n ? level_size(t, k, (unsigned)lod)
		       : k == n && rq->is_array ? t->layers : 0, false);
}

/* txf, txf_ms: integer coordinates. */
static void exec_fetch(struct lookup *lk)
{
	const struct interp_tex_request *rq = lk->rq;
	const struct interp_tex_lane *ln = lk->ln;
	const struct interp_texture *t = lk->t;
	uint64_t level = ln->ilod;
	uint64_t sample = ln->ms_index;
	unsigned n = image_dim_coords(rq->dim);
	int64_t xyz[3] = { 0, 0, 0 };
	bool in = level < t->levels && (rq->op != TEX_OP_txf_ms || sample < t->samples);
	for (unsigned k = 0; k < n && in; k++) {
		xyz[k] = ln->icoord[k] + lk->offset[k];
		in = xyz[k] >= 0 && xyz[k] < level_size(t, k, (unsigned)level);
	}
	int64_t layer = rq->is_array ? ln->icoord[n] : 0;
	if (!in || layer < 0 || layer >= t->layers) {
		result_zero(lk);
		return;
	}
	lk->layer = (unsigned)layer;
	lk->sample = rq->op == TEX_OP_txf_ms ? (unsigned)sample : 0;
	for (unsigned k = 0; k < rq->num_components; k++) {
		uint64_t h = interp_texel_hash(t, lk->slot, (unsigned)level, xyz, lk->layer,
					       lk->sample, k);
		bool sparse_code = rq->is_sparse && k == rq->num_components - 1u;
		if (sparse_code)
			result(lk, k, 0, 0, false);
		else if (rq->int_result)
			result(lk, k, 0, h, false);
		else
			result(lk, k, texel_float(h), 0, true);
	}
}

/* tg4: the four texels of the bilinear footprint at level 0. */
static void exec_gather(struct lookup *lk)
{
	const struct interp_tex_request *rq = lk->rq;
	int64_t i0[3] = { 0, 0, 0 };
	double fr[3];
	for (unsigned k = 0; k < 2; k++)
		axis(lk, k, 0, &i0[k], &fr[k]);
	static const unsigned corner[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
	for (unsigned k = 0; k < 4; k++) {
		int64_t xyz[3] = { wrap(lk, i0[0] + corner[k][0], level_size(lk->t, 0, 0)),
				   wrap(lk, i0[1] + corner[k][1], level_size(lk->t, 1, 0)), 0 };
		if (rq->int_result)
			result(lk, k, 0, interp_texel_hash(lk->t, lk->slot, 0, xyz, lk->layer, 0,
							   rq->component), false);
		else
			result(lk, k, texel(lk, 0, xyz, rq->component), 0, true);
	}
	if (rq->is_sparse)
		result(lk, 4, 0, 0, false);
}

/* The lambda of a sampling lookup before clamping; false: poison. */
static bool lambda_of(const struct interp_tex_request *rq, const struct interp_tex_lane *lanes,
		      unsigned nlanes, unsigned l, const struct interp_texture *t, double *lambda)
{
	const struct interp_tex_lane *ln = &lanes[l];
	switch (rq->op) {
	case TEX_OP_txl:
		*lambda = ln->lod;
		return true;
	case TEX_OP_txd:
		*lambda = log2(rho_of(t, image_dim_coords(rq->dim), ln->ddx, ln->ddy));
		return true;
	default:
		if (!implicit_lambda(rq, lanes, nlanes, l, t, lambda))
			return false;
		if (ln->has_bias)
			*lambda += ln->bias;
		return true;
	}
}

static double clamp_lambda(const struct interp_tex_lane *ln, const struct interp_texture *t,
			   double lambda)
{
	if (ln->has_min_lod && lambda < ln->min_lod)
		lambda = ln->min_lod;
	if (lambda != lambda || lambda < 0)
		return 0;
	double max = t->levels - 1.0;
	return lambda > max ? max : lambda;
}

static void exec_sample(struct lookup *lk, const struct interp_tex_lane *lanes, unsigned nlanes,
			unsigned l)
{
	const struct interp_tex_request *rq = lk->rq;
	const struct interp_texture *t = lk->t;
	double lambda;
	if (rq->op == TEX_OP_tg4) {
		exec_gather(lk);
		return;
	}
	if (!lambda_of(rq, lanes, nlanes, l, t, &lambda)) {
		result_poison(rq, lk->vals, lk->tags);
		return;
	}
	double lod = clamp_lambda(lk->ln, t, lambda);
	if (rq->op == TEX_OP_lod) {
		/* with 8 fractional bits (mipmapPrecisionBits), toward zero */
		result(lk, 0, trunc(lod * 256) / 256, 0, true);
		if (isfinite(lambda))
			result(lk, 1, trunc(lambda * 256) / 256, 0, true);
		else	/* of infinite or undefined derivatives: open */
			lk->tags[1] = INTERP_TAG_POISON, lk->vals[1] = 0;
		return;
	}
	unsigned ncomp = rq->num_components - rq->is_sparse;
	if (rq->int_result) {
		unsigned level = (unsigned)floor(lod + 0.5);
		for (unsigned k = 0; k < ncomp; k++)
			result(lk, k, 0, nearest_bits(lk, level, k), false);
	} else {
		unsigned l0 = (unsigned)floor(lod);
		double f = lod - l0;
		for (unsigned k = 0; k < ncomp; k++) {
			double v = sample_level(lk, l0, k);
			if (f > 0 && l0 + 1 < t->levels)
				v = v * (1 - f) + sample_level(lk, l0 + 1, k) * f;
			result(lk, k, v, 0, true);
		}
	}
	if (rq->is_sparse)
		result(lk, ncomp, 0, 0, false);
}

/* Fill the coordinate-related fields of a sampling lookup. */
static void setup_coords(struct lookup *lk)
{
	const struct interp_tex_request *rq = lk->rq;
	const double *co = lk->ln->coord;
	unsigned n = image_dim_coords(rq->dim);
	unsigned layer = rq->is_array ? layer_of(co[n], lk->t->layers) : 0;
	if (rq->dim == DIM_cube) {
		unsigned face;
		cube_face(co[0], co[1], co[2], &face, &lk->co[0], &lk->co[1]);
		lk->dims = 2;
		lk->layer = layer * 6 + face;
		lk->clamp = true;
	} else {
		lk->dims = n;
		for (unsigned k = 0; k < 3; k++)
			lk->co[k] = k < n ? co[k] : 0;
		lk->layer = layer;
	}
	if (rq->is_shadow && lk->ln->has_ref) {
		lk->shadow = true;
		lk->ref = lk->ln->ref;
	}
}

void interp_tex_lookup(const struct interp_inputs *in, const struct interp_tex_request *rq,
		       const struct interp_tex_lane *lanes, unsigned nlanes, unsigned l,
		       uint64_t *vals, uint8_t *tags)
{
	const struct interp_tex_lane *ln = &lanes[l];
	struct lookup lk = { .rq = rq, .ln = ln, .vals = vals, .tags = tags };
	if (ln->poison) {
		result_poison(rq, vals, tags);
		return;
	}
	if (ln->texture >= in->num_textures) {
		/* past the declared textures: undefined (Vulkan's descriptor
		 * arrays have no robustness) */
		result_poison(rq, vals, tags);
		return;
	}
	lk.slot = ln->texture;
	lk.t = &in->texture[ln->texture];
	lk.clamp = ln->sampler & 1;
	lk.unnormalized = rq->dim == DIM_rect;
	for (unsigned k = 0; k < 3; k++)
		lk.offset[k] = ln->offset[k];
	switch (rq->op) {
	case TEX_OP_txs: case TEX_OP_query_levels: case TEX_OP_texture_samples:
		exec_query(&lk);
		break;
	case TEX_OP_txf: case TEX_OP_txf_ms:
		exec_fetch(&lk);
		break;
	default:
		setup_coords(&lk);
		exec_sample(&lk, lanes, nlanes, l);
		break;
	}
}

/* ---- the interpreter's tex instruction ---- */

static const struct ssa_def *src_of(const struct tex_instr *tex, enum tex_src_type type)
{
	int i = tex_instr_src_index(tex, type);
	return i < 0 ? NULL : tex->src[i].src.ssa;
}

static double fval(struct ictx *c, const struct ssa_def *d, unsigned l, unsigned k)
{
	return ir_float_from_bits(ival(c, d, l)[k], d->bit_size);
}

static bool has_quads(const struct ictx *c)
{
	enum shader_stage st = c->s->stage;
	return st == STAGE_FRAGMENT || st == STAGE_COMPUTE || st == STAGE_TASK || st == STAGE_MESH;
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

/* Lane l's operands, the coordinates and the reference projected. */
static void lane_operands(struct ictx *c, const struct tex_instr *tex, unsigned l,
			  struct interp_tex_lane *ln)
{
	const struct ssa_def *coord = src_of(tex, TEX_SRC_coord);
	const struct ssa_def *proj = src_of(tex, TEX_SRC_projector);
	const struct ssa_def *d;
	unsigned n = image_dim_coords(tex->dim);
	ln->poison = any_poison(c, tex, l);
	ln->coord_poison = (coord && ipoison_any(c, coord, l)) || (proj && ipoison_any(c, proj, l));
	for (unsigned k = 0; coord && k < coord->num_components && k < 4; k++) {
		ln->coord[k] = fval(c, coord, l, k);
		ln->icoord[k] = (int32_t)ival(c, coord, l)[k];
	}
	if (proj)
		for (unsigned k = 0; k < n; k++)
			ln->coord[k] /= fval(c, proj, l, 0);
	/* the model rounds the layer: hand it the one truncation gives */
	if (tex->is_array && c->in->layer_truncates && coord && n < coord->num_components &&
	    tex->op != TEX_OP_txf && tex->op != TEX_OP_txf_ms)
		ln->coord[n] -= 0.5;
	if ((d = src_of(tex, TEX_SRC_comparator))) {
		ln->has_ref = true;
		ln->ref = fval(c, d, l, 0);
		if (proj)
			ln->ref /= fval(c, proj, l, 0);
	}
	if ((d = src_of(tex, TEX_SRC_lod))) {
		ln->ilod = ival(c, d, l)[0];
		if (tex->op == TEX_OP_txl)
			ln->lod = fval(c, d, l, 0);
	}
	if ((d = src_of(tex, TEX_SRC_bias))) {
		ln->has_bias = true;
		ln->bias = fval(c, d, l, 0);
	}
	if ((d = src_of(tex, TEX_SRC_min_lod))) {
		ln->has_min_lod = true;
		ln->min_lod = fval(c, d, l, 0);
	}
	const struct ssa_def *sx = src_of(tex, TEX_SRC_ddx), *sy = src_of(tex, TEX_SRC_ddy);
	for (unsigned k = 0; sx && sy && k < sx->num_components && k < 3; k++) {
		ln->ddx[k] = fval(c, sx, l, k);
		ln->ddy[k] = fval(c, sy, l, k);
	}
	const struct ssa_def *off = src_of(tex, TEX_SRC_offset);
	for (unsigned k = 0; off && k < off->num_components && k < 3; k++)
		ln->offset[k] = (int32_t)ival(c, off, l)[k];
	ln->ms_index = (uint32_t)int_src(c, tex, TEX_SRC_ms_index, l, 0);
	ln->texture = (uint32_t)((uint64_t)tex->texture_index +
				 (uint32_t)int_src(c, tex, TEX_SRC_texture_offset, l, 0));
	if ((uint64_t)tex->texture_index + (uint32_t)int_src(c, tex, TEX_SRC_texture_offset, l, 0) >
	    UINT32_MAX)
		ln->texture = UINT32_MAX;
	ln->sampler = (uint32_t)((uint64_t)tex->sampler_index +
				 (uint32_t)int_src(c, tex, TEX_SRC_sampler_offset, l, 0));
}

void interp_exec_tex(struct ictx *c, struct tex_instr *tex, const struct lanes *ls)
{
	struct interp_tex_request rq = {
		.op = tex->op, .dim = tex->dim, .is_array = tex->is_array,
		.is_shadow = tex->is_shadow, .is_sparse = tex->is_sparse,
		.int_result = tex->dest_type != BASE_float, .component = tex->component,
		.num_components = tex->def.num_components, .bit_size = tex->def.bit_size,
		.has_quads = has_quads(c),
		.query = tex->op == TEX_OP_txs || tex->op == TEX_OP_query_levels ||
			 tex->op == TEX_OP_texture_samples,
	};
	struct interp_tex_lane *lanes = calloc(c->nl, sizeof(*lanes));
	for (unsigned i = 0; i < ls->n; i++) {
		lanes[ls->l[i]].active = true;
		lane_operands(c, tex, ls->l[i], &lanes[ls->l[i]]);
	}
	uint64_t vals[16];
	uint8_t tags[16];
	for (unsigned i = 0; i < ls->n; i++) {
		unsigned l = ls->l[i];
		interp_tex_lookup(c->in, &rq, lanes, c->nl, l, vals, tags);
		for (unsigned k = 0; k < tex->def.num_components && k < 16; k++)
			iput_mem(c, &tex->def, l, k, vals[k], tags[k]);
	}
	free(lanes);
}
