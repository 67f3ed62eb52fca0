/*
 * cat5 in the simulator, through the interpreter's texture model
 * (interp_tex_lookup), so both read the same texels.  The texture's
 * dimension and the sampler's wrap come from the slot's declaration, as
 * the hardware takes them from its descriptors; the instruction gives
 * the operation, .a/.s/.o/.3d and its operands, as selection laid them
 * out (ir3_isel_tex.c):
 *
 *	src0  coordinates (1D: one more, ignored), shadow reference, array
 *	      layer, then for samgq padding to 4 and ddx, ddy (2 at least)
 *	src1  offsets (2 at least), then lod, bias or sample index
 *	last  with .s2en: (sampler, texture) slots
 *
 * The array layer arrives with Mesa's + 0.5 (a4xx+), which the hardware
 * truncates; getlod returns the lod in s16.8 fixed point.  dsx/dsy are the
 * quad's coarse derivatives (its first row, column: Mesa selects them for
 * ddx_coarse and dsxpp.1/dsypp.1 for the fine ones), dsxpp/dsypp the fine
 * ones; a quad neighbour that does not run the instruction gives poison.
 */
#include "compiler/ir3/sim/sim_priv.h"

#include <math.h>
#include <string.h>

static const struct ir3_instruction *instr_at(struct srun *r, uint32_t pc)
{
	return r->sim->prog[pc].i;
}

static bool has_quads(const struct srun *r)
{
	enum shader_stage st = r->sim->s->stage;
	return st == STAGE_FRAGMENT || st == STAGE_COMPUTE;
}

static enum tex_op op_of(enum ir3_opc opc)
{
	switch (opc) {
	case OPC_SAMB: return TEX_OP_txb;
	case OPC_SAML: return TEX_OP_txl;
	case OPC_SAMGQ: return TEX_OP_txd;
	case OPC_ISAML: case OPC_ISAM: return TEX_OP_txf;
	case OPC_ISAMM: return TEX_OP_txf_ms;
	case OPC_GATHER4R: case OPC_GATHER4G: case OPC_GATHER4B: case OPC_GATHER4A: return TEX_OP_tg4;
	case OPC_GETLOD: return TEX_OP_lod;
	case OPC_GETSIZE: return TEX_OP_txs;
	case OPC_GETINFO: return TEX_OP_query_levels;
	default: return TEX_OP_tex;
	}
}

static float as_float(uint32_t v, bool half)
{
	if (half)
		v = sim_f16_to_f32(v);
	float f;
	memcpy(&f, &v, 4);
	return f;
}

/* Reads one source element into the lane's operands. */
struct reader {
	struct srun *r;
	uint32_t pc;
	unsigned f, n, at;		/* source, next element */
	struct interp_tex_lane *ln;
};

static uint32_t next(struct reader *rd)
{
	const struct ir3_instruction *i = instr_at(rd->r, rd->pc);
	if (rd->n >= i->nsrc || rd->at >= ir3_reg_elems(i->srcs[rd->n]))
		return 0;
	struct sval v = sim_read_tex(rd->r, rd->pc, rd->f, rd->n, rd->at++);
	if (v.poison)
		rd->ln->poison = true;
	return v.bits;
}

static float next_f(struct reader *rd)
{
	const struct ir3_instruction *i = instr_at(rd->r, rd->pc);
	bool half = rd->n < i->nsrc && (i->srcs[rd->n]->flags & IR3_REG_HALF);
	return as_float(next(rd), half);
}

static const struct resource_decl *texture_decl(const struct srun *r, unsigned slot)
{
	return shader_find_resource(r->sim->s->textures, r->sim->s->num_textures, slot);
}

/* The texture and sampler slots of lane f: the instruction's, or with
 * .s2en its last source's. */
static void slots(struct srun *r, uint32_t pc, unsigned f, struct interp_tex_lane *ln)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	ln->texture = i->tex;
	ln->sampler = i->samp;
	if (i->flags & IR3_INSTR_S2EN) {
		struct reader sl = { r, pc, f, i->nsrc - 1, 0, ln };
		ln->sampler = next(&sl) & 0xffff;
		ln->texture = next(&sl) & 0xffff;
	}
}

/* The operands of lane f as selection laid them out. */
static void operands(struct srun *r, uint32_t pc, unsigned f, const struct interp_tex_request *rq,
		     struct interp_tex_lane *ln)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	struct reader rd = { r, pc, f, 0, 0, ln };
	unsigned n = image_dim_coords(rq->dim);
	ln->active = true;
	if (rq->query) {
		ln->ilod = next(&rd);
		return;
	}
	bool integer = rq->op == TEX_OP_txf || rq->op == TEX_OP_txf_ms;
	for (unsigned k = 0; k < n; k++) {
		uint32_t v = next(&rd);
		ln->icoord[k] = (int32_t)v;
		ln->coord[k] = as_float(v, i->srcs[0]->flags & IR3_REG_HALF);
	}
	if (n == 1)
		next(&rd);
	if (rq->is_shadow && rq->op != TEX_OP_lod) {
		ln->has_ref = true;
		ln->ref = next_f(&rd);
	}
	if (rq->is_array && rq->op != TEX_OP_lod) {
		uint32_t v = next(&rd);
		ln->icoord[n] = (int32_t)v;
		/* the hardware truncates the layer Mesa added 0.5 to (a4xx+); the
		 * model rounds: hand it the layer it rounds to the same */
		ln->coord[n] = integer ? 0 : as_float(v, false) - (r->sim->t->array_index_add_half ? 0.5 : 0.0);
	}
	ln->coord_poison = ln->poison;
	if (rq->op == TEX_OP_txd) {
		rd.at = 4 > rd.at ? 4 : rd.at;
		unsigned m = n < 2 ? 2 : n;
		for (unsigned k = 0; k < m; k++)
			ln->ddx[k < 3 ? k : 2] = k < n ? next_f(&rd) : (next(&rd), 0);
		for (unsigned k = 0; k < m; k++)
			ln->ddy[k < 3 ? k : 2] = k < n ? next_f(&rd) : (next(&rd), 0);
	}
	rd.n = 1;
	rd.at = 0;
	if (i->flags & IR3_INSTR_O) {
		unsigned m = n < 2 ? 2 : n;
		for (unsigned k = 0; k < m; k++) {
			int32_t o = (int32_t)next(&rd);
			if (k < 3)
				ln->offset[k] = o;
		}
	}
	switch (rq->op) {
	case TEX_OP_txl: ln->lod = next_f(&rd); break;
	case TEX_OP_txb: ln->has_bias = true; ln->bias = next_f(&rd); break;
	case TEX_OP_txf: ln->ilod = next(&rd); break;
	case TEX_OP_txf_ms: ln->ms_index = next(&rd); break;
	default: break;
	}
}

static struct interp_tex_request request(struct srun *r, const struct ir3_instruction *i,
					 unsigned slot)
{
	const struct resource_decl *d = texture_decl(r, slot);
	bool half = i->ndst && (i->dsts[0]->flags & IR3_REG_HALF);
	struct interp_tex_request rq = {
		.op = op_of(i->opc),
		.dim = d ? d->dim : (i->flags & IR3_INSTR_3D) ? DIM_3d : DIM_2d,
		.is_array = i->flags & IR3_INSTR_A,
		.is_shadow = i->flags & IR3_INSTR_S,
		.int_result = !ir3_type_is_float(i->type),
		.num_components = 4,
		.bit_size = half ? 16 : 32,
		.has_quads = has_quads(r),
	};
	if (i->opc >= OPC_GATHER4R && i->opc <= OPC_GATHER4A)
		rq.component = i->opc - OPC_GATHER4R;
	rq.query = rq.op == TEX_OP_txs || rq.op == TEX_OP_query_levels;
	if (rq.op == TEX_OP_lod)
		rq.int_result = false;
	return rq;
}

static void write_result(struct srun *r, uint32_t pc, unsigned f, const uint64_t *vals,
			 const uint8_t *tags, unsigned n)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	for (unsigned k = 0; k < n && k < ir3_reg_elems(i->dsts[0]); k++)
		sim_write(r, pc, f, i->dsts[0], k,
			  (struct sval){ (uint32_t)vals[k], (tags[k] & INTERP_TAG_POISON) != 0, 0 });
}

/* getlod: s16.8 fixed point of the clamped and the unclamped lod */
static void fixed_lod(uint64_t *vals, const uint8_t *tags)
{
	for (unsigned k = 0; k < 2; k++) {
		if (tags[k] & INTERP_TAG_POISON)
			continue;
		double v = ir_float_from_bits(vals[k], 32) * 256.0;
		vals[k] = (uint32_t)(int32_t)(v != v ? 0 : v > 2e9 ? 2e9 : v < -2e9 ? -2e9 : v);
	}
}

static void exec_sample(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	const struct swave *w = r->wave;
	struct interp_tex_lane *lanes = arena_array(&r->arena, struct interp_tex_lane, r->nf);
	struct interp_tex_request *rqs = arena_array(&r->arena, struct interp_tex_request, r->nf);
	for (unsigned f = w->first; f < w->first + w->count; f++) {
		if (!r->active[f])
			continue;
		slots(r, pc, f, &lanes[f]);
		rqs[f] = request(r, i, lanes[f].texture);
		operands(r, pc, f, &rqs[f], &lanes[f]);
	}
	uint64_t vals[8];
	uint8_t tags[8];
	for (unsigned f = w->first; f < w->first + w->count; f++) {
		if (!r->active[f])
			continue;
		struct interp_tex_request lr = rqs[f];
		if (lr.op == TEX_OP_query_levels) {
			/* getinfo: levels in .z, samples in .w */
			uint64_t lv[4];
			uint8_t lt[4];
			memset(vals, 0, sizeof(vals));
			memset(tags, 0, sizeof(tags));
			lr.num_components = 1;
			interp_tex_lookup(r->in, &lr, lanes, r->nf, f, lv, lt);
			vals[2] = lv[0], tags[2] = lt[0];
			lr.op = TEX_OP_texture_samples;
			interp_tex_lookup(r->in, &lr, lanes, r->nf, f, lv, lt);
			vals[3] = lv[0], tags[3] = lt[0];
		} else {
			if (lr.op == TEX_OP_txs)
				lr.num_components = ir3_reg_elems(i->dsts[0]);
			if (lr.op == TEX_OP_lod)
				lr.num_components = 2;
			interp_tex_lookup(r->in, &lr, lanes, r->nf, f, vals, tags);
			if (lr.op == TEX_OP_lod)
				fixed_lod(vals, tags);
		}
		write_result(r, pc, f, vals, tags, 4);
	}
}

/* ---- quad operations ---- */

/* The fibre of quad lane q (0–3) of fibre f's quad, or -1. */
static int quad_fibre(const struct srun *r, unsigned f, unsigned q)
{
	unsigned g = (f & ~3u) + q;
	return g < r->nf && r->active[g] ? (int)g : -1;
}

static struct sval quad_read(struct srun *r, uint32_t pc, int g)
{
	if (g < 0)
		return (struct sval){ 0, true, 0 };
	return sim_read_tex(r, pc, (unsigned)g, 0, 0);
}

/* dsx/dsy (and the fine dsxpp/dsypp): v(x=1) - v(x=0) of the fibre's row,
 * v(y=1) - v(y=0) of its column. */
static struct sval deriv(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	bool x = i->opc == OPC_DSX || i->opc == OPC_DSXPP_1;
	bool coarse = i->opc == OPC_DSX || i->opc == OPC_DSY;
	unsigned q = coarse ? 0 : f & 3, step = x ? 1 : 2;
	unsigned a = q & ~step, b = q | step;
	struct sval va = quad_read(r, pc, quad_fibre(r, f, a)), vb = quad_read(r, pc, quad_fibre(r, f, b));
	if (va.poison || vb.poison)
		return (struct sval){ 0, true, va.poison ? va.cause : vb.cause };
	unsigned bits = (i->srcs[0]->flags & IR3_REG_HALF) ? 16 : 32;
	uint64_t s0 = vb.bits, s1 = va.bits, d;
	const uint64_t *src[2] = { &s0, &s1 };
	alu_fold(OP_fsub, 1, bits, src, &d);
	return (struct sval){ (uint32_t)d, false, 0 };
}

static struct sval quad_shuffle(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	unsigned q = f & 3, from;
	switch (i->opc) {
	case OPC_QUAD_SHUFFLE_HORIZ: from = q ^ 1; break;
	case OPC_QUAD_SHUFFLE_VERT: from = q ^ 2; break;
	case OPC_QUAD_SHUFFLE_DIAG: from = q ^ 3; break;
	default: {
		struct sval idx = sim_read_tex(r, pc, f, 1, 0);
		if (idx.poison)
			return idx;
		from = idx.bits & 3;
		break;
	}
	}
	return quad_read(r, pc, quad_fibre(r, f, from));
}

static void exec_quad(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	const struct swave *w = r->wave;
	struct sval *v = arena_array(&r->arena, struct sval, 2 * w->count);
	for (unsigned f = w->first; f < w->first + w->count; f++) {
		if (!r->active[f])
			continue;
		struct sval *o = &v[2 * (f - w->first)];
		switch (i->opc) {
		case OPC_DSX: case OPC_DSY: case OPC_DSXPP_1: case OPC_DSYPP_1:
			o[0] = deriv(r, pc, f);
			break;
		case OPC_RGETPOS: {
			struct sval id = sim_read_tex(r, pc, f, 0, 0);
			for (unsigned k = 0; k < 2; k++) {
				float p = interp_sample_positions[id.bits & 3][k];
				memcpy(&o[k].bits, &p, 4);
				o[k].poison = id.poison;
			}
			break;
		}
		default:
			o[0] = quad_shuffle(r, pc, f);
			break;
		}
	}
	for (unsigned f = w->first; f < w->first + w->count; f++)
		if (r->active[f])
			for (unsigned k = 0; k < ir3_reg_elems(i->dsts[0]) && k < 2; k++)
				sim_write(r, pc, f, i->dsts[0], k, v[2 * (f - w->first) + k]);
}

void sim_exec_tex(struct srun *r, uint32_t pc)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	switch (i->opc) {
	case OPC_DSX: case OPC_DSY: case OPC_DSXPP_1: case OPC_DSYPP_1: case OPC_RGETPOS:
	case OPC_QUAD_SHUFFLE_BRCST: case OPC_QUAD_SHUFFLE_HORIZ: case OPC_QUAD_SHUFFLE_VERT:
	case OPC_QUAD_SHUFFLE_DIAG:
		exec_quad(r, pc);
		return;
	default:
		if (!i->ndst) {
			sim_error(r, "the simulator does not run %s", ir3_op(i->opc)->name);
			return;
		}
		if (i->flags & IR3_INSTR_SSBO) {	/* a buffer through the texture cache */
			sim_exec_mem(r, pc);
			return;
		}
		exec_sample(r, pc);
		return;
	}
}

/* A texture prefetch: a 2D `sam` at the varying at its inloc, before the
 * shader starts, into its destination. */
void sim_prefetch(struct srun *r, const struct ir3_instruction *i)
{
	struct interp_tex_request rq = request(r, i, i->tex);
	rq.op = TEX_OP_tex;
	rq.dim = DIM_2d;
	struct interp_tex_lane *lanes = arena_array(&r->arena, struct interp_tex_lane, r->nf);
	for (unsigned f = 0; f < r->nf; f++) {
		float pi, pj;
		interp_pixel_barycentrics(f, &pi, &pj);
		struct interp_tex_lane *ln = &lanes[f];
		ln->active = true;
		ln->texture = i->tex;
		ln->sampler = i->samp;
		for (unsigned k = 0; k < 2; k++) {
			struct sval v = sim_varying(r, f, (unsigned)i->off + k, pi, pj, false);
			float c;
			memcpy(&c, &v.bits, 4);
			ln->coord[k] = c;
			ln->poison |= v.poison;
		}
		ln->coord_poison = ln->poison;
	}
	uint64_t vals[8];
	uint8_t tags[8];
	for (unsigned f = 0; f < r->nf; f++) {
		interp_tex_lookup(r->in, &rq, lanes, r->nf, f, vals, tags);
		for (unsigned k = 0; k < 4; k++) {
			unsigned unit = sim_unit(r->sim, i->dsts[0], k);
			for (unsigned u = 0; u < sim_unit_count(i->dsts[0]); u++) {
				size_t at = sim_at(r, f, unit + u);
				r->reg[at] = (uint16_t)(vals[k] >> (16 * u));
				r->poison[at] = (tags[k] & INTERP_TAG_POISON) != 0;
			}
		}
	}
}
