/*
 * Images and samplers: UniformConstant variables of image, sampler and
 * sampled-image type become texture, sampler and image declarations (a
 * combined image sampler is a texture and a sampler, both `combined`);
 * loading one gives a handle — declarations plus a descriptor index — that
 * OpSampledImage, OpImage and function parameters pass around.  Sampling,
 * fetches, gathers and queries are `tex` instructions; storage images use
 * image_load, image_store, image_atomic and image_size.
 *
 *	%t = OpImageSampleImplicitLod %v4 %si %uv Bias|ConstOffset %b %off
 *	   → 32x4 %t = txb 2d float texture=0 sampler=0 coord=%uv bias=%b offset=%off
 *
 * ConstOffsets gathers are four tg4s (one per offset, each giving its .w);
 * sparse lookups are translated as the plain ones, with every texel
 * reported resident.
 */
#include <string.h>

#include "compiler/spirv/spirv_private.h"

static enum image_dim dim_of(struct spv *r, SpvDim d)
{
	char buf[40];
	switch (d) {
	case SpvDim1D: return DIM_1d;
	case SpvDim2D: return DIM_2d;
	case SpvDim3D: return DIM_3d;
	case SpvDimCube: return DIM_cube;
	case SpvDimRect: return DIM_rect;
	case SpvDimBuffer: return DIM_buffer;
	case SpvDimSubpassData: return DIM_subpass;
	default: spv_unsupported(r, "Dim %s", spv_enum_name_or_number(SPV_KIND_Dim, d, buf));
	}
}

static enum base_type sampled_type(struct spv *r, const struct spv_type *img)
{
	const struct spv_type *t = img->elem;
	if (t->kind == T_FLOAT)
		return BASE_float;
	if (t->kind == T_INT)
		return t->is_signed ? BASE_int : BASE_uint;
	spv_unsupported(r, "images of %s", spv_type_str(r, t));
}

static enum image_format format_of(SpvImageFormat f)
{
	switch (f) {
	case SpvImageFormatRgba32f: return FORMAT_rgba32f;
	case SpvImageFormatRgba16f: return FORMAT_rgba16f;
	case SpvImageFormatR32f: return FORMAT_r32f;
	case SpvImageFormatRgba8: return FORMAT_rgba8;
	case SpvImageFormatRgba8Snorm: return FORMAT_rgba8_snorm;
	case SpvImageFormatRg32f: return FORMAT_rg32f;
	case SpvImageFormatRg16f: return FORMAT_rg16f;
	case SpvImageFormatR11fG11fB10f: return FORMAT_r11f_g11f_b10f;
	case SpvImageFormatR16f: return FORMAT_r16f;
	case SpvImageFormatRgba16: return FORMAT_rgba16;
	case SpvImageFormatRgb10A2: return FORMAT_rgb10_a2;
	case SpvImageFormatRg16: return FORMAT_rg16;
	case SpvImageFormatRg8: return FORMAT_rg8;
	case SpvImageFormatR16: return FORMAT_r16;
	case SpvImageFormatR8: return FORMAT_r8;
	case SpvImageFormatRgba16Snorm: return FORMAT_rgba16_snorm;
	case SpvImageFormatRg16Snorm: return FORMAT_rg16_snorm;
	case SpvImageFormatRg8Snorm: return FORMAT_rg8_snorm;
	case SpvImageFormatR16Snorm: return FORMAT_r16_snorm;
	case SpvImageFormatR8Snorm: return FORMAT_r8_snorm;
	case SpvImageFormatRgba32i: return FORMAT_rgba32i;
	case SpvImageFormatRgba16i: return FORMAT_rgba16i;
	case SpvImageFormatRgba8i: return FORMAT_rgba8i;
	case SpvImageFormatR32i: return FORMAT_r32i;
	case SpvImageFormatRg32i: return FORMAT_rg32i;
	case SpvImageFormatRg16i: return FORMAT_rg16i;
	case SpvImageFormatRg8i: return FORMAT_rg8i;
	case SpvImageFormatR16i: return FORMAT_r16i;
	case SpvImageFormatR8i: return FORMAT_r8i;
	case SpvImageFormatRgba32ui: return FORMAT_rgba32ui;
	case SpvImageFormatRgba16ui: return FORMAT_rgba16ui;
	case SpvImageFormatRgba8ui: return FORMAT_rgba8ui;
	case SpvImageFormatR32ui: return FORMAT_r32ui;
	case SpvImageFormatRgb10a2ui: return FORMAT_rgb10_a2ui;
	case SpvImageFormatRg32ui: return FORMAT_rg32ui;
	case SpvImageFormatRg16ui: return FORMAT_rg16ui;
	case SpvImageFormatRg8ui: return FORMAT_rg8ui;
	case SpvImageFormatR16ui: return FORMAT_r16ui;
	case SpvImageFormatR8ui: return FORMAT_r8ui;
	case SpvImageFormatR64ui: return FORMAT_r64ui;
	case SpvImageFormatR64i: return FORMAT_r64i;
	default: return FORMAT_unknown;
	}
}

/* ---- declarations ---- */

static bool is_storage(const struct spv_type *img)
{
	return img->sampled == 2;
}

static void fill(struct spv *r, struct spv_var *var, struct resource_decl *d,
		 const struct spv_type *img, unsigned count)
{
	d->set = spv_deco_arg(r, var->id, -1, SpvDecorationDescriptorSet, 0);
	d->binding = spv_deco_arg(r, var->id, -1, SpvDecorationBinding, 0);
	d->array_size = var->type->kind == T_IMAGE || var->type->kind == T_SAMPLER ||
			var->type->kind == T_SAMPLED_IMAGE ? 0 : count;
	d->name = var->name ? arena_strdup(&r->s->arena, var->name) : NULL;
	if (!img)
		return;
	d->dim = dim_of(r, img->dim);
	d->is_array = img->arrayed;
	d->is_ms = img->ms;
	d->type = sampled_type(r, img);
}

static unsigned count_descriptors(struct spv_type **t)
{
	uint64_t n = 1;
	while ((*t)->kind == T_ARRAY || (*t)->kind == T_RUNTIME_ARRAY) {
		n *= (*t)->kind == T_ARRAY ? (*t)->length : SPV_RUNTIME_DESCRIPTORS;
		*t = (*t)->elem;
	}
	return n > 65536 ? 65536 : (unsigned)n;
}

void spv_resource_decl(struct spv *r, struct spv_var *var)
{
	if (var->tex || var->smp || var->img)
		return;
	struct spv_type *t = var->type;
	unsigned n = count_descriptors(&t);
	switch (t->kind) {
	case T_SAMPLED_IMAGE:
		var->tex = shader_add_texture(r->s);
		fill(r, var, var->tex, t->elem, n);
		var->tex->combined = true;
		var->tex->is_shadow = t->elem->depth == 1;
		var->smp = shader_add_sampler(r->s);
		fill(r, var, var->smp, NULL, n);
		var->smp->combined = true;
		var->smp->is_shadow = var->tex->is_shadow;
		break;
	case T_IMAGE:
		if (is_storage(t) || t->dim == SpvDimSubpassData) {
			var->img = shader_add_image(r->s);
			fill(r, var, var->img, t, n);
			var->img->format = format_of(t->format);
			var->img->access = spv_access_decorations(r, var->id);
		} else {
			var->tex = shader_add_texture(r->s);
			fill(r, var, var->tex, t, n);
			var->tex->is_shadow = t->depth == 1;
		}
		break;
	case T_SAMPLER:
		var->smp = shader_add_sampler(r->s);
		fill(r, var, var->smp, NULL, n);
		break;
	default:
		spv_unsupported(r, "a resource of %s", spv_type_str(r, t));
	}
}

/* ---- handles ---- */

struct spv_handle *spv_load_handle(struct spv *r, struct spv_ptr *p)
{
	struct spv_var *var = p->var;
	if (!var)
		spv_unsupported(r, "images or samplers in physical memory");
	if (var->mode == VM_HANDLE) {
		if (!var->held)
			spv_fail(r, "an image or sampler variable read before it is written");
		if (p->n)
			spv_unsupported(r, "an array of images or samplers in a function variable");
		return var->held;
	}
	if (var->mode != VM_RESOURCE)
		spv_unsupported(r, "%s of storage class %u", spv_type_str(r, p->type), var->sc);
	spv_resource_decl(r, var);
	struct spv_handle *h = arena_new(&r->arena, struct spv_handle);
	struct spv_index idx = { 0 };
	struct spv_type *t = var->type;
	for (unsigned k = 0; k < p->n; k++) {
		struct spv_index i = p->path[k];
		uint32_t len = t->kind == T_ARRAY ? t->length : 1;
		if (t->kind != T_ARRAY && t->kind != T_RUNTIME_ARRAY)
			spv_fail(r, "an index into %s", spv_type_str(r, t));
		idx.c = idx.c * len + i.c;
		if (idx.d || i.d) {
			struct ssa_def *d = idx.d ? b_imul(&r->b, idx.d, spv_imm_u32(r, len)) : NULL;
			idx.d = d && i.d ? b_iadd(&r->b, d, i.d) : d ? d : i.d;
		}
		t = t->elem;
	}
	h->type = t;
	h->tex = var->tex;
	h->smp = var->smp;
	h->img = var->img;
	h->tex_i = h->smp_i = h->img_i = idx;
	return h;
}

struct spv_handle *spv_get_handle(struct spv *r, uint32_t id)
{
	struct spv_id *x = spv_id(r, id);
	if (x->kind != ID_HANDLE)
		spv_fail(r, "%%%u is not an image or sampler", id);
	return x->handle;
}

static void set_handle(struct spv *r, uint32_t id, struct spv_handle *h)
{
	struct spv_id *x = spv_id(r, id);
	x->kind = ID_HANDLE;
	x->handle = h;
}

static const struct spv_type *image_type(struct spv *r, const struct spv_handle *h)
{
	const struct spv_type *t = h->type;
	if (t->kind == T_SAMPLED_IMAGE)
		t = t->elem;
	if (t->kind != T_IMAGE)
		spv_fail(r, "%s is not an image", spv_type_str(r, t));
	return t;
}

/* ---- texture instructions ---- */

struct tex_build {
	struct tex_desc d;
	struct tex_src_desc src[16];
	unsigned n;
};

static void add_src(struct tex_build *tb, enum tex_src_type type, struct ssa_def *def)
{
	tb->src[tb->n].type = type;
	tb->src[tb->n++].def = def;
}

static unsigned slot_of(struct spv *r, struct resource_decl *d, struct spv_index i)
{
	uint32_t count = decl_num_slots(d->array_size);
	if (!i.d && i.c >= count)
		spv_unsupported(r, "descriptor %u of an array of %u", i.c, count);
	return d->slot + i.c;
}

static void tex_setup(struct spv *r, struct tex_build *tb, struct spv_handle *h, enum tex_op op)
{
	const struct spv_type *img = image_type(r, h);
	memset(tb, 0, sizeof(*tb));
	if (!h->tex)
		spv_fail(r, "a texture operation on a storage image");
	tb->d.op = op;
	tb->d.dim = dim_of(r, img->dim);
	tb->d.is_array = img->arrayed;
	tb->d.dest_type = sampled_type(r, img);
	tb->d.texture = slot_of(r, h->tex, h->tex_i);
	if (h->tex_i.d)
		add_src(tb, TEX_SRC_texture_offset, h->tex_i.d);
	bool needs_sampler = op == TEX_OP_tex || op == TEX_OP_txb || op == TEX_OP_txl ||
			     op == TEX_OP_txd || op == TEX_OP_lod || op == TEX_OP_tg4;
	if (needs_sampler) {
		if (!h->smp)
			spv_fail(r, "sampling an image without a sampler");
		tb->d.sampler = slot_of(r, h->smp, h->smp_i);
		if (h->smp_i.d)
			add_src(tb, TEX_SRC_sampler_offset, h->smp_i.d);
	}
}

static struct ssa_def *as_f32(struct spv *r, struct ssa_def *x)
{
	return x->bit_size == 32 ? x : b_f2f32(&r->b, x);
}

static struct ssa_def *as_i32(struct spv *r, struct ssa_def *x)
{
	return x->bit_size == 32 ? x : b_i2i32(&r->b, x);
}

/* Coordinates: the first n components (the projector, when asked, after). */
static void coords(struct spv *r, struct tex_build *tb, struct ssa_def *c, bool proj, bool int_)
{
	unsigned n = image_dim_coords(tb->d.dim) + tb->d.is_array;
	if (tb->d.dim == DIM_subpass)
		n = 2;
	unsigned have = c->num_components;
	if (have < n + proj)
		spv_fail(r, "a %u-component coordinate for a %u-component lookup", have, n + proj);
	if (proj)
		add_src(tb, TEX_SRC_projector, as_f32(r, b_channel(&r->b, c, n)));
	if (have != n)
		c = b_swizzle(&r->b, c, (unsigned[]){ 0, 1, 2, 3 }, n);
	add_src(tb, TEX_SRC_coord, int_ ? as_i32(r, c) : as_f32(r, c));
}

/* Offsets have the image's dimensions, not the layer. */
static struct ssa_def *fit_offset(struct spv *r, struct tex_build *tb, struct ssa_def *o)
{
	unsigned n = image_dim_coords(tb->d.dim);
	o = as_i32(r, o);
	if (o->num_components > n)
		o = b_swizzle(&r->b, o, (unsigned[]){ 0, 1, 2 }, n);
	if (o->num_components != n)
		spv_fail(r, "an offset of %u components", o->num_components);
	return o;
}

static struct ssa_def *fit_grad(struct spv *r, struct tex_build *tb, struct ssa_def *g)
{
	unsigned n = image_dim_coords(tb->d.dim);
	g = as_f32(r, g);
	if (g->num_components > n)
		g = b_swizzle(&r->b, g, (unsigned[]){ 0, 1, 2 }, n);
	if (g->num_components != n)
		spv_fail(r, "a gradient of %u components", g->num_components);
	return g;
}

/* Image operands from operand `i` on; returns the ConstOffsets id (or 0). */
static uint32_t image_operands(struct spv *r, struct tex_build *tb, unsigned i, bool *has_lod,
			       struct ssa_def **sample)
{
	if (i >= spv_nwords(r))
		return 0;
	uint32_t mask = spv_word(r, i++), offsets = 0;
	for (unsigned bit = 0; bit < 32; bit++) {
		uint32_t m = 1u << bit;
		if (!(mask & m))
			continue;
		switch (m) {
		case SpvImageOperandsBiasMask:
			add_src(tb, TEX_SRC_bias, as_f32(r, spv_get_def(r, spv_word(r, i++))));
			if (tb->d.op == TEX_OP_tex)
				tb->d.op = TEX_OP_txb;
			break;
		case SpvImageOperandsLodMask: {
			struct ssa_def *lod = spv_get_def(r, spv_word(r, i++));
			bool int_lod = tb->d.op == TEX_OP_txf || tb->d.op == TEX_OP_txs;
			if (tb->d.dim != DIM_buffer && tb->d.op != TEX_OP_txf_ms)
				add_src(tb, TEX_SRC_lod, int_lod ? as_i32(r, lod) : as_f32(r, lod));
			*has_lod = true;
			if (tb->d.op == TEX_OP_tex)
				tb->d.op = TEX_OP_txl;
			break;
		}
		case SpvImageOperandsGradMask:
			add_src(tb, TEX_SRC_ddx, fit_grad(r, tb, spv_get_def(r, spv_word(r, i))));
			add_src(tb, TEX_SRC_ddy, fit_grad(r, tb, spv_get_def(r, spv_word(r, i + 1))));
			i += 2;
			if (tb->d.op == TEX_OP_tex)
				tb->d.op = TEX_OP_txd;
			break;
		case SpvImageOperandsConstOffsetMask: case SpvImageOperandsOffsetMask:
			add_src(tb, TEX_SRC_offset, fit_offset(r, tb, spv_get_def(r, spv_word(r, i++))));
			break;
		case SpvImageOperandsConstOffsetsMask:
			offsets = spv_word(r, i++);
			break;
		case SpvImageOperandsSampleMask:
			*sample = spv_get_def(r, spv_word(r, i++));
			break;
		case SpvImageOperandsMinLodMask:
			add_src(tb, TEX_SRC_min_lod, as_f32(r, spv_get_def(r, spv_word(r, i++))));
			break;
		case SpvImageOperandsMakeTexelAvailableMask: case SpvImageOperandsMakeTexelVisibleMask:
			i++;
			break;
		case SpvImageOperandsNonPrivateTexelMask: case SpvImageOperandsVolatileTexelMask:
		case SpvImageOperandsSignExtendMask: case SpvImageOperandsZeroExtendMask:
		case SpvImageOperandsNontemporalMask:
			break;
		default: {
			char buf[40];
			spv_unsupported(r, "image operand %s",
					spv_enum_name_or_number(SPV_KIND_ImageOperands, m, buf));
		}
		}
	}
	return offsets;
}

/* Fit the tex result to the SPIR-V result type (sparse: a struct). */
static void set_tex_result(struct spv *r, struct spv_type *t, struct ssa_def *res, bool sparse)
{
	uint32_t id = spv_result_id(r);
	if (sparse) {
		if (t->kind != T_STRUCT || t->length != 2)
			spv_fail(r, "a sparse result that is not a struct of two members");
		struct spv_val *v = spv_val_new(r, t);
		v->elems[0] = spv_val_def(r, t->members[0].type,
					  b_imm_intN(&r->b, 0, t->members[0].type->bit_size));
		t = t->members[1].type;
		unsigned n = spv_type_components(t);
		if (n < res->num_components)
			res = b_swizzle(&r->b, res, (unsigned[]){ 0, 1, 2, 3 }, n);
		v->elems[1] = spv_val_def(r, t, res);
		spv_set_val(r, id, v);
		return;
	}
	unsigned n = spv_type_components(t);
	if (n < res->num_components)
		res = b_swizzle(&r->b, res, (unsigned[]){ 0, 1, 2, 3 }, n);
	spv_set_def(r, id, res);
}

static bool is_sparse(uint32_t op)
{
	return op >= SpvOpImageSparseSampleImplicitLod && op <= SpvOpImageSparseRead;
}

static void gather_offsets(struct spv *r, struct tex_build *tb, uint32_t offsets,
			   struct spv_type *t, bool sparse)
{
	struct spv_const *c = spv_get_const(r, offsets);
	struct ssa_def *ch[4];
	if (c->type->kind != T_ARRAY || c->type->length != 4 || !c->elems)
		spv_fail(r, "ConstOffsets is not an array of 4 offsets");
	for (unsigned k = 0; k < 4; k++) {
		struct tex_build one = *tb;
		add_src(&one, TEX_SRC_offset, fit_offset(r, &one, spv_const_val(r, c->elems[k])->def));
		ch[k] = b_channel(&r->b, b_tex(&r->b, &one.d, one.src, one.n), 3);
	}
	set_tex_result(r, t, b_vec(&r->b, ch, 4), sparse);
}

static void sample_instr(struct spv *r, uint32_t op)
{
	struct spv_type *t = spv_result_type(r);
	struct spv_handle *h = spv_get_handle(r, spv_word(r, 3));
	struct ssa_def *coord = spv_get_def(r, spv_word(r, 4)), *sample = NULL;
	bool sparse = is_sparse(op), has_lod = false;
	uint32_t base = sparse ? op - SpvOpImageSparseSampleImplicitLod + SpvOpImageSampleImplicitLod
			: op;
	bool proj = base >= SpvOpImageSampleProjImplicitLod && base <= SpvOpImageSampleProjDrefExplicitLod;
	bool dref = base == SpvOpImageSampleDrefImplicitLod || base == SpvOpImageSampleDrefExplicitLod ||
		    base == SpvOpImageSampleProjDrefImplicitLod ||
		    base == SpvOpImageSampleProjDrefExplicitLod;
	struct tex_build tb;
	tex_setup(r, &tb, h, TEX_OP_tex);
	coords(r, &tb, coord, proj, false);
	unsigned next = 5;
	if (dref) {
		add_src(&tb, TEX_SRC_comparator, as_f32(r, spv_get_def(r, spv_word(r, next++))));
		tb.d.is_shadow = true;
	}
	image_operands(r, &tb, next, &has_lod, &sample);
	if (sample)
		spv_fail(r, "a Sample operand on a sampling instruction");
	tb.d.bit_size = spv_type_scalar(r, sparse ? t->members[1].type : t)->bit_size;
	spv_budget(r, 1);
	set_tex_result(r, t, b_tex(&r->b, &tb.d, tb.src, tb.n), sparse);
}

static void fetch_instr(struct spv *r, uint32_t op)
{
	struct spv_type *t = spv_result_type(r);
	struct spv_handle *h = spv_get_handle(r, spv_word(r, 3));
	const struct spv_type *img = image_type(r, h);
	struct ssa_def *coord = spv_get_def(r, spv_word(r, 4)), *sample = NULL;
	bool sparse = is_sparse(op), has_lod = false;
	struct tex_build tb;
	tex_setup(r, &tb, h, img->ms ? TEX_OP_txf_ms : TEX_OP_txf);
	tb.d.is_array = img->arrayed;
	coords(r, &tb, coord, false, true);
	image_operands(r, &tb, 5, &has_lod, &sample);
	if (img->ms)
		add_src(&tb, TEX_SRC_ms_index, sample ? as_i32(r, sample) : spv_imm_u32(r, 0));
	else if (!has_lod && tb.d.dim != DIM_buffer && tb.d.dim != DIM_rect)
		add_src(&tb, TEX_SRC_lod, spv_imm_u32(r, 0));
	tb.d.bit_size = spv_type_scalar(r, sparse ? t->members[1].type : t)->bit_size;
	spv_budget(r, 1);
	set_tex_result(r, t, b_tex(&r->b, &tb.d, tb.src, tb.n), sparse);
}

static void gather_instr(struct spv *r, uint32_t op)
{
	struct spv_type *t = spv_result_type(r);
	struct spv_handle *h = spv_get_handle(r, spv_word(r, 3));
	struct ssa_def *coord = spv_get_def(r, spv_word(r, 4)), *sample = NULL;
	bool sparse = is_sparse(op), has_lod = false;
	bool dref = op == SpvOpImageDrefGather || op == SpvOpImageSparseDrefGather;
	struct tex_build tb;
	tex_setup(r, &tb, h, TEX_OP_tg4);
	coords(r, &tb, coord, false, false);
	if (dref) {
		add_src(&tb, TEX_SRC_comparator, as_f32(r, spv_get_def(r, spv_word(r, 5))));
		tb.d.is_shadow = true;
	} else {
		uint32_t comp;
		if (!spv_id_const_u32(r, spv_word(r, 5), &comp) || comp > 3)
			spv_fail(r, "the gathered component is not a constant from 0 to 3");
		tb.d.component = (uint8_t)comp;
	}
	uint32_t offsets = image_operands(r, &tb, 6, &has_lod, &sample);
	tb.d.op = TEX_OP_tg4;
	for (unsigned i = 0; i < tb.n; i++)
		if (tb.src[i].type == TEX_SRC_lod || tb.src[i].type == TEX_SRC_bias)
			spv_unsupported(r, "a gather with a lod or bias");
	tb.d.bit_size = spv_type_scalar(r, sparse ? t->members[1].type : t)->bit_size;
	spv_budget(r, 4);
	if (offsets) {
		gather_offsets(r, &tb, offsets, t, sparse);
		return;
	}
	set_tex_result(r, t, b_tex(&r->b, &tb.d, tb.src, tb.n), sparse);
}

/* ---- storage images ---- */

struct img_access {
	struct ssa_def *slot, *coord, *sample;
	enum image_dim dim;
	bool array;
	enum image_format format;
	unsigned access;
	enum base_type type;
};

static void img_setup(struct spv *r, struct img_access *ia, struct spv_handle *h,
		      struct ssa_def *coord, struct ssa_def *sample)
{
	const struct spv_type *img = image_type(r, h);
	struct resource_decl *d = h->img;
	if (!d)
		spv_fail(r, "a storage image operation on a sampled image");
	ia->slot = h->img_i.d ? b_iadd(&r->b, h->img_i.d, spv_imm_u32(r, slot_of(r, d, h->img_i)))
		   : spv_imm_u32(r, slot_of(r, d, h->img_i));
	ia->dim = dim_of(r, img->dim);
	ia->array = img->arrayed;
	if (ia->dim == DIM_cube && ia->array) {	/* faces and layers: a 2D array */
		ia->dim = DIM_2d;
	}
	ia->format = format_of(img->format);
	ia->access = d->access;
	ia->type = sampled_type(r, img);
	ia->sample = sample ? as_i32(r, sample) : spv_imm_u32(r, 0);
	if (!coord)
		return;		/* a query */
	unsigned n = image_dim_coords(ia->dim) + ia->array;
	coord = as_i32(r, coord);
	if (ia->dim == DIM_subpass) {
		struct ssa_def *fc = b_f2i32(&r->b, b_swizzle(&r->b, b_sysval(&r->b, INTR_load_frag_coord),
							    (unsigned[]){ 0, 1 }, 2));
		coord = b_iadd(&r->b, fc, b_swizzle(&r->b, coord, (unsigned[]){ 0, 1 }, 2));
	}
	if (coord->num_components > n)
		coord = b_swizzle(&r->b, coord, (unsigned[]){ 0, 1, 2, 3 }, n);
	if (coord->num_components != n)
		spv_fail(r, "a %u-component coordinate for a %u-component image",
			 coord->num_components, n);
	ia->coord = coord;
}

static void read_instr(struct spv *r, uint32_t op)
{
	struct spv_type *t = spv_result_type(r);
	struct spv_handle *h = spv_get_handle(r, spv_word(r, 3));
	struct ssa_def *sample = NULL;
	bool has_lod = false, sparse = op == SpvOpImageSparseRead;
	struct tex_build tb = { 0 };
	struct img_access ia;
	if (!h->img) {		/* OpImageRead of a sampled image: a fetch */
		fetch_instr(r, op);
		return;
	}
	tb.d.op = TEX_OP_txf;
	tb.d.dim = dim_of(r, image_type(r, h)->dim);
	image_operands(r, &tb, 5, &has_lod, &sample);
	img_setup(r, &ia, h, spv_get_def(r, spv_word(r, 4)), sample);
	struct spv_type *vt = sparse ? t->members[1].type : t;
	unsigned n = spv_type_components(vt), bits = spv_type_scalar(r, vt)->bit_size;
	spv_budget(r, 1);
	struct ssa_def *res = b_intr(&r->b, image_load, n, bits,
				     (ia.slot, ia.coord, ia.sample, spv_imm_u32(r, 0)),
				     .image_dim = ia.dim, .image_array = ia.array,
				     .format = ia.format, .access = (int32_t)ia.access,
				     .dest_type = ia.type);
	set_tex_result(r, t, res, sparse);
}

static void write_instr(struct spv *r)
{
	struct spv_handle *h = spv_get_handle(r, spv_word(r, 1));
	struct ssa_def *texel = spv_get_def(r, spv_word(r, 3)), *sample = NULL;
	bool has_lod = false;
	struct tex_build tb = { 0 };
	struct img_access ia;
	tb.d.op = TEX_OP_txf;
	tb.d.dim = DIM_2d;
	image_operands(r, &tb, 4, &has_lod, &sample);
	img_setup(r, &ia, h, spv_get_def(r, spv_word(r, 2)), sample);
	if (texel->bit_size == 8)
		spv_unsupported(r, "8-bit texels");
	spv_budget(r, 1);
	b_intr(&r->b, image_store, texel->num_components, 0,
	       (ia.slot, ia.coord, ia.sample, texel, spv_imm_u32(r, 0)),
	       .image_dim = ia.dim, .image_array = ia.array, .format = ia.format,
	       .access = (int32_t)ia.access, .src_type = ia.type);
}

bool spv_image_atomic(struct spv *r, uint32_t op, struct spv_ptr *p, struct ssa_def *value,
		      struct ssa_def *cmp, enum atomic_op aop, struct spv_type *t)
{
	struct img_access ia;
	(void)op;
	img_setup(r, &ia, p->image, p->coord, p->sample);
	spv_budget(r, 1);
	struct ssa_def *res;
	if (cmp)
		res = b_intr(&r->b, image_atomic_swap, 0, t->bit_size,
			     (ia.slot, ia.coord, ia.sample, cmp, value), .image_dim = ia.dim,
			     .image_array = ia.array, .format = ia.format, .atomic_op = aop);
	else
		res = b_intr(&r->b, image_atomic, 0, t->bit_size, (ia.slot, ia.coord, ia.sample, value),
			     .image_dim = ia.dim, .image_array = ia.array, .format = ia.format,
			     .atomic_op = aop);
	spv_set_def(r, spv_result_id(r), res);
	return true;
}

static void texel_pointer(struct spv *r)
{
	struct spv_ptr *ip = spv_get_ptr(r, spv_word(r, 3));
	struct spv_ptr *p = arena_new(&r->arena, struct spv_ptr);
	p->image = spv_load_handle(r, ip);
	p->coord = spv_get_def(r, spv_word(r, 4));
	p->sample = spv_get_def(r, spv_word(r, 5));
	p->ptr_type = spv_result_type(r);
	p->type = spv_pointee(r, p->ptr_type);
	struct spv_id *x = spv_id(r, spv_result_id(r));
	x->kind = ID_PTR;
	x->ptr = p;
	x->type = p->ptr_type;
}

/* ---- queries ---- */

static void size_instr(struct spv *r, uint32_t op)
{
	struct spv_type *t = spv_result_type(r);
	struct spv_handle *h = spv_get_handle(r, spv_word(r, 3));
	unsigned n = spv_type_components(t);
	spv_budget(r, 1);
	if (h->img) {
		struct img_access ia;
		img_setup(r, &ia, h, NULL, NULL);
		struct ssa_def *res;
		if (op == SpvOpImageQuerySamples)
			res = b_intr(&r->b, image_samples, 0, 32, (ia.slot), .image_dim = ia.dim,
				     .image_array = ia.array);
		else
			res = b_intr(&r->b, image_size, n, 32, (ia.slot, spv_imm_u32(r, 0)),
				     .image_dim = ia.dim, .image_array = ia.array);
		spv_set_def(r, spv_result_id(r), res);
		return;
	}
	struct tex_build tb;
	enum tex_op top = op == SpvOpImageQueryLevels ? TEX_OP_query_levels :
			  op == SpvOpImageQuerySamples ? TEX_OP_texture_samples : TEX_OP_txs;
	tex_setup(r, &tb, h, top);
	if (top == TEX_OP_txs) {
		struct ssa_def *lod = op == SpvOpImageQuerySizeLod ? as_i32(r, spv_get_def(r, spv_word(r, 4)))
				      : spv_imm_u32(r, 0);
		const struct spv_type *img = image_type(r, h);
		if (img->dim != SpvDimBuffer && !img->ms && img->dim != SpvDimRect)
			add_src(&tb, TEX_SRC_lod, lod);
	}
	struct ssa_def *res = b_tex(&r->b, &tb.d, tb.src, tb.n);
	if (res->num_components != n)
		spv_fail(r, "a query result of %u components, the image gives %u", n,
			 res->num_components);
	spv_set_def(r, spv_result_id(r), res);
}

static void query_lod(struct spv *r)
{
	struct spv_handle *h = spv_get_handle(r, spv_word(r, 3));
	struct tex_build tb;
	tex_setup(r, &tb, h, TEX_OP_lod);
	/* the lod query takes the coordinate without the layer */
	tb.d.is_array = false;
	coords(r, &tb, spv_get_def(r, spv_word(r, 4)), false, false);
	spv_budget(r, 1);
	spv_set_def(r, spv_result_id(r), b_tex(&r->b, &tb.d, tb.src, tb.n));
}

bool spv_image_instr(struct spv *r, uint32_t op)
{
	switch (op) {
	case SpvOpSampledImage: {
		struct spv_handle *img = spv_get_handle(r, spv_word(r, 3));
		struct spv_handle *smp = spv_get_handle(r, spv_word(r, 4));
		struct spv_handle *h = arena_new(&r->arena, struct spv_handle);
		*h = *img;
		h->type = spv_result_type(r);
		h->smp = smp->smp;
		h->smp_i = smp->smp_i;
		set_handle(r, spv_result_id(r), h);
		return true;
	}
	case SpvOpImage: {
		struct spv_handle *si = spv_get_handle(r, spv_word(r, 3));
		struct spv_handle *h = arena_new(&r->arena, struct spv_handle);
		*h = *si;
		h->type = spv_result_type(r);
		set_handle(r, spv_result_id(r), h);
		return true;
	}
	case SpvOpImageSampleImplicitLod: case SpvOpImageSampleExplicitLod:
	case SpvOpImageSampleDrefImplicitLod: case SpvOpImageSampleDrefExplicitLod:
	case SpvOpImageSampleProjImplicitLod: case SpvOpImageSampleProjExplicitLod:
	case SpvOpImageSampleProjDrefImplicitLod: case SpvOpImageSampleProjDrefExplicitLod:
	case SpvOpImageSparseSampleImplicitLod: case SpvOpImageSparseSampleExplicitLod:
	case SpvOpImageSparseSampleDrefImplicitLod: case SpvOpImageSparseSampleDrefExplicitLod:
	case SpvOpImageSparseSampleProjImplicitLod: case SpvOpImageSparseSampleProjExplicitLod:
	case SpvOpImageSparseSampleProjDrefImplicitLod:
	case SpvOpImageSparseSampleProjDrefExplicitLod:
		sample_instr(r, op);
		return true;
	case SpvOpImageFetch: case SpvOpImageSparseFetch:
		fetch_instr(r, op);
		return true;
	case SpvOpImageGather: case SpvOpImageDrefGather: case SpvOpImageSparseGather:
	case SpvOpImageSparseDrefGather:
		gather_instr(r, op);
		return true;
	case SpvOpImageRead: case SpvOpImageSparseRead:
		read_instr(r, op);
		return true;
	case SpvOpImageWrite:
		write_instr(r);
		return true;
	case SpvOpImageTexelPointer:
		texel_pointer(r);
		return true;
	case SpvOpImageQuerySizeLod: case SpvOpImageQuerySize: case SpvOpImageQueryLevels:
	case SpvOpImageQuerySamples:
		size_instr(r, op);
		return true;
	case SpvOpImageQueryLod:
		query_lod(r);
		return true;
	case SpvOpImageSparseTexelsResident:
		spv_set_def(r, spv_result_id(r), b_imm_bool(&r->b, true));
		return true;
	}
	return false;
}
