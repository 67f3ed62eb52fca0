/*
 * Texture selection (Mesa's emit_tex, emit_tex_info, emit_tex_txs).
 *
 * The first source is a vector: the coordinates (a 1D coordinate gets a
 * second one, 0.5, as the hardware has no 1D), the shadow reference, the
 * array index, then — for txd — padding to 4 and ddx, ddy.  The second,
 * when there is one, holds the offsets and then the lod or bias.
 *
 *	tex → sam, txb → samb, txl → saml, txd → samgq, txf → isaml,
 *	txf_ms → isamm, tg4 → gather4r/g/b/a, lod → getlod, txs → getsize,
 *	query_levels / texture_samples → getinfo
 *
 * Flags: .3d for 3D and cube, .a for arrays, .s for shadow, .o with
 * offsets.  sam, samb, getlod use implicit derivatives: need_pixlod.
 */
#include "compiler/ir3/ir3_isel.h"

static enum ir3_opc tex_opc(struct tex_instr *tex)
{
	switch (tex->op) {
	case TEX_OP_tex: return OPC_SAM;
	case TEX_OP_txb: return OPC_SAMB;
	case TEX_OP_txl: return OPC_SAML;
	case TEX_OP_txd: return OPC_SAMGQ;
	case TEX_OP_txf: return OPC_ISAML;
	case TEX_OP_txf_ms: return OPC_ISAMM;
	case TEX_OP_txs: return OPC_GETSIZE;
	case TEX_OP_lod: return OPC_GETLOD;
	case TEX_OP_query_levels:
	case TEX_OP_texture_samples: return OPC_GETINFO;
	case TEX_OP_tg4:
		return tex->component == 0 ? OPC_GATHER4R : tex->component == 1 ? OPC_GATHER4G
			: tex->component == 2 ? OPC_GATHER4B : OPC_GATHER4A;
	default: return OPC_SAM;
	}
}

static enum ir3_type tex_type(struct tex_instr *tex)
{
	bool half = tex->def.bit_size == 16;
	switch (tex->dest_type) {
	case BASE_int: return half ? TYPE_S16 : TYPE_S32;
	case BASE_uint: return half ? TYPE_U16 : TYPE_U32;
	default: return half ? TYPE_F16 : TYPE_F32;
	}
}

struct tex_srcs {
	struct ir3_register *v[16];
	unsigned n;
};

static void push(struct tex_srcs *s, struct ir3_register *r)
{
	if (s->n < 16)
		s->v[s->n++] = r;
}

static struct ir3_register **src_of(struct isel *c, struct tex_instr *tex, enum tex_src_type t)
{
	int k = tex_instr_src_index(tex, t);
	return k < 0 ? NULL : isel_get(c, tex->src[k].src.ssa);
}

static unsigned src_comps(struct tex_instr *tex, enum tex_src_type t)
{
	int k = tex_instr_src_index(tex, t);
	return k < 0 ? 0 : tex->src[k].src.ssa->num_components;
}

/* txs and query_levels read a lod; the rest have coordinates. */
static void coord_srcs(struct isel *c, struct tex_instr *tex, struct tex_srcs *s0,
		       struct tex_srcs *s1, unsigned *flags)
{
	unsigned coords = image_dim_coords(tex->dim);
	struct ir3_register **coord = src_of(c, tex, TEX_SRC_coord);
	bool isam = tex->op == TEX_OP_txf || tex->op == TEX_OP_txf_ms;
	for (unsigned k = 0; k < coords && coord; k++)
		push(s0, coord[k]);
	if (coords == 1)
		push(s0, isel_imm(c, isam ? 0 : 0x3f000000, false));
	struct ir3_register **cmp = src_of(c, tex, TEX_SRC_comparator);
	if (tex->is_shadow && cmp && tex->op != TEX_OP_lod)
		push(s0, cmp[0]);
	if (tex->is_array && coord && tex->op != TEX_OP_lod)
		push(s0, coord[coords]);
	if (tex->op == TEX_OP_txd) {
		struct ir3_register **ddx = src_of(c, tex, TEX_SRC_ddx), **ddy = src_of(c, tex, TEX_SRC_ddy);
		while (s0->n < 4)
			push(s0, isel_imm(c, 0, false));
		for (unsigned k = 0; k < coords && ddx; k++)
			push(s0, ddx[k]);
		if (coords < 2)
			push(s0, isel_imm(c, 0, false));
		for (unsigned k = 0; k < coords && ddy; k++)
			push(s0, ddy[k]);
		if (coords < 2)
			push(s0, isel_imm(c, 0, false));
	}
	struct ir3_register **off = src_of(c, tex, TEX_SRC_offset);
	if (off) {
		unsigned n = src_comps(tex, TEX_SRC_offset);
		for (unsigned k = 0; k < n; k++)
			push(s1, off[k]);
		if (n < 2)
			push(s1, isel_imm(c, 0, false));
		*flags |= IR3_INSTR_O;
	}
	struct ir3_register **lod = src_of(c, tex, TEX_SRC_lod);
	struct ir3_register **bias = src_of(c, tex, TEX_SRC_bias);
	struct ir3_register **ms = src_of(c, tex, TEX_SRC_ms_index);
	if (lod)
		push(s1, lod[0]);
	else if (bias)
		push(s1, bias[0]);
	else if (ms)
		push(s1, ms[0]);
}

/* Which component of getinfo a query reads. */
static unsigned info_comp(struct tex_instr *tex)
{
	return tex->op == TEX_OP_query_levels ? 2 : 3;
}

/* ---- texture prefetch (a6xx+ FS): Mesa's ir3_nir_lower_tex_prefetch ---- */

#define IR3_MAX_SAMPLER_PREFETCH 4	/* SP_FS_PREFETCH[0..3] */

/* A dynamically indexed slot: offset + first slot (no add for slot 0, as
 * NIR folds the iadd of nir_lower_tex's offset), or the slot itself. */
static struct ir3_register *slot_index(struct isel *c, struct ir3_register **off, unsigned slot)
{
	if (!off)
		return isel_imm(c, slot, false);
	if (!slot)
		return off[0];
	return ir3_b_alu2(&c->b, OPC_ADD_U, off[0], isel_imm(c, slot, false));
}

static bool is_varying(const struct intrinsic_instr *in)
{
	return in->op == INTR_load_input || in->op == INTR_load_point_coord;
}

/* The load_input (or gl_PointCoord, a varying of its own: Mesa's
 * VARYING_SLOT_PNTC) and first component the coordinates are, when they
 * are two consecutive components of one varying (directly, or gathered by
 * a mov or vec2 as varying packing leaves them); else NULL. */
static struct intrinsic_instr *coord_input(struct ssa_def *coord, unsigned *comp)
{
	if (coord->num_components != 2)
		return NULL;
	struct instr *p = coord->parent;
	if (p->type == INSTR_intrinsic) {
		struct intrinsic_instr *in = instr_as_intrinsic(p);
		*comp = 0;
		return is_varying(in) ? in : NULL;
	}
	if (p->type != INSTR_alu)
		return NULL;
	struct alu_instr *alu = instr_as_alu(p);
	struct intrinsic_instr *in = NULL;
	for (unsigned k = 0; k < 2; k++) {
		unsigned s = alu->op == OP_mov ? 0 : k;
		if ((alu->op != OP_mov && alu->op != OP_vec2) || alu->src[s].src.ssa->parent->type != INSTR_intrinsic)
			return NULL;
		struct intrinsic_instr *src = instr_as_intrinsic(alu->src[s].src.ssa->parent);
		unsigned sw = alu->src[s].swizzle[alu->op == OP_mov ? k : 0];
		if (!is_varying(src) || (in && src != in) || (k && sw != *comp + 1))
			return NULL;
		if (!k)
			*comp = sw;
		in = src;
	}
	return in;
}

static bool prefetchable(struct isel *c, struct tex_instr *tex, unsigned *inloc)
{
	if (c->s->stage != STAGE_FRAGMENT || !c->t->has_fs_tex_prefetch ||
	    c->prefetches >= IR3_MAX_SAMPLER_PREFETCH || tex->op != TEX_OP_tex ||
	    tex->dim != DIM_2d || tex->is_array || tex->is_shadow || tex->is_sparse ||
	    tex->texture_index > 0x1f || tex->sampler_index > 0xf ||
	    tex->instr.block != isel_main_start(c->s->fn))
		return false;
	int coord = -1;
	for (unsigned k = 0; k < tex->num_srcs; k++) {
		if (tex->src[k].type != TEX_SRC_coord)
			return false;
		coord = (int)k;
	}
	unsigned comp;
	struct intrinsic_instr *in = coord < 0 ? NULL : coord_input(tex->src[coord].src.ssa, &comp);
	if (!in)
		return false;
	if (in->op == INTR_load_point_coord) {
		*inloc = c->point_coord_inloc + comp;
		return true;
	}
	uint32_t off;
	unsigned base = (unsigned)intrinsic_get(in, INTR_IDX_base);
	if (!isel_src_const(&in->src[0], 0, &off) || off || base >= c->s->num_inputs)
		return false;
	const struct io_decl *d = c->s->inputs[base];
	if ((d->interp != INTERP_smooth && d->interp != INTERP_none) || d->centroid || d->sample)
		return false;
	comp += (unsigned)intrinsic_get(in, INTR_IDX_component);
	*inloc = c->inloc[c->input_slot[base] * 4 + comp];
	return true;
}

/* A simple 2D `sam` at a varying's coordinates in the first block (after the
 * preamble, as Mesa's lower_tex_prefetch_func) becomes a
 * prefetch the hardware runs before the shader (at most 4), which takes
 * it out of the instruction stream; the barycentrics go to r0.x. */
bool isel_tex_prefetch(struct isel *c, struct tex_instr *tex)
{
	unsigned inloc;
	if (!prefetchable(c, tex, &inloc))
		return false;
	struct ir3_register *ij = isel_ij(c);
	ij->num = 0;
	ij->flags |= IR3_REG_ASSIGNED;
	struct ir3_builder top = isel_top(c);
	struct ir3_instruction *i = ir3_b_instr(&top, OPC_META_TEX_PREFETCH, 1, 1);
	i->type = tex_type(tex);
	i->tex = tex->texture_index;
	i->samp = tex->sampler_index;
	i->off = (int)inloc;
	struct ir3_register *dst = ir3_dst_create(i, tex->def.bit_size == 16 ? IR3_REG_HALF : 0, 4);
	ir3_src_ssa(i, ij, 0);
	c->prefetches++;
	struct ir3_register **d = isel_def(c, &tex->def);
	for (unsigned k = 0; k < tex->def.num_components; k++)
		d[k] = ir3_b_split(&c->b, dst, k);
	return true;
}

void isel_tex(struct isel *c, struct tex_instr *tex)
{
	if (isel_tex_prefetch(c, tex))
		return;
	if (tex->is_sparse) {
		isel_error(c, "sparse texture fetches are not supported");
		return;
	}
	struct ir3_register **toff = src_of(c, tex, TEX_SRC_texture_offset);
	struct ir3_register **soff = src_of(c, tex, TEX_SRC_sampler_offset);
	if (src_of(c, tex, TEX_SRC_projector) || src_of(c, tex, TEX_SRC_min_lod)) {
		isel_error(c, "tex with a projector or min_lod should have been lowered");
		return;
	}
	enum ir3_opc opc = tex_opc(tex);
	struct tex_srcs s0 = { 0 }, s1 = { 0 };
	unsigned flags = 0;
	if (tex->dim == DIM_3d || tex->dim == DIM_cube)
		flags |= IR3_INSTR_3D;
	if (tex->is_array)
		flags |= IR3_INSTR_A;
	if (tex->is_shadow)
		flags |= IR3_INSTR_S;

	bool info = opc == OPC_GETSIZE || opc == OPC_GETINFO;
	if (info) {
		struct ir3_register **lod = src_of(c, tex, TEX_SRC_lod);
		push(&s0, lod ? lod[0] : isel_imm(c, 0, false));
	} else {
		coord_srcs(c, tex, &s0, &s1, &flags);
	}
	if (opc == OPC_SAM || opc == OPC_SAMB || opc == OPC_GETLOD) {
		if (c->s->stage != STAGE_FRAGMENT && opc != OPC_GETLOD)
			opc = OPC_SAML, push(&s1, isel_imm(c, 0, false));
		else
			c->ir->need_pixlod = true;
	}

	struct ir3_register *srcs[3];
	unsigned nsrc = 0;
	if (s0.n)
		srcs[nsrc++] = isel_collect(c, s0.v, s0.n);
	if (s1.n)
		srcs[nsrc++] = isel_collect(c, s1.v, s1.n);
	if (toff || soff) {
		/* a texture array indexed dynamically (Mesa's flat GL slots, non-
		 * bindless): .s2en, the sampler and texture indices as a half
		 * vec2 in the last source */
		struct ir3_register *idx[2] = {
			slot_index(c, soff, tex->sampler_index),
			slot_index(c, toff, tex->texture_index),
		};
		for (unsigned k = 0; k < 2; k++)
			idx[k] = ir3_b_cov(&c->b, TYPE_U32, TYPE_U16, idx[k]);
		srcs[nsrc++] = ir3_b_collect(&c->b, 2, idx);
		flags |= IR3_INSTR_S2EN;
	}

	unsigned ncomp = info ? (opc == OPC_GETINFO ? 4 : tex->def.num_components) : 4;
	if (opc == OPC_GETLOD)
		ncomp = 2;
	enum ir3_type type = info ? TYPE_U32 : opc == OPC_GETLOD ? TYPE_S32 : tex_type(tex);
	unsigned slot_tex = tex->texture_index, slot_samp = tex->sampler_index;
	struct ir3_register *dst = ir3_b_tex(&c->b, opc, type, (1u << ncomp) - 1, slot_tex,
					     slot_samp, nsrc, srcs);
	dst->instr->flags |= flags;

	struct ir3_register **d = isel_def(c, &tex->def);
	if (opc == OPC_GETINFO) {
		d[0] = ir3_b_split(&c->b, dst, info_comp(tex));
		return;
	}
	for (unsigned k = 0; k < tex->def.num_components; k++)
		d[k] = ir3_b_split(&c->b, dst, k);
	if (opc == OPC_GETLOD) {
		/* getlod returns the lod as a fixed-point s16.8: lod / 256 */
		for (unsigned k = 0; k < tex->def.num_components && k < 2; k++) {
			struct ir3_register *f = ir3_b_cov(&c->b, TYPE_S32, TYPE_F32, d[k]);
			d[k] = ir3_b_alu2(&c->b, OPC_MUL_F, f, isel_imm(c, 0x3b800000, false));
		}
	}
}
