/*
 * Textures in the interpreter (interp_tex.c): lookups are deterministic,
 * and every source of a tex instruction changes the result — coordinate,
 * layer, lod, bias, offset, gradients, min_lod, projector, comparator,
 * gather component, sample index, texture and sampler offsets — while
 * queries (txs, query_levels, texture_samples, lod) give the model's sizes.
 */
#include "compiler/ir/builder.h"
#include "interp_util.h"

/* Texture slots of the test shader. */
enum {
	T_2D = 0,		/* 2 slots: 0 and 1 */
	T_ARRAY = 2,
	T_SHADOW = 3,
	T_MS = 4,
	T_CUBE = 5,
	T_3D = 6,
	T_INT = 7,
};

struct src_val {
	enum tex_src_type type;
	unsigned n;
	bool is_int;
	double v[4];
};

struct query {
	enum tex_op op;
	unsigned texture, sampler;
	uint8_t component;
	bool sparse;
	double frag_scale;		/* coord = frag_coord.xy × scale, when not 0 */
	unsigned nsrc;
	struct src_val src[6];
};

static void add_texture(struct shader *s, enum image_dim dim, bool array, bool shadow, bool ms,
			enum base_type type, unsigned array_size)
{
	struct resource_decl *t = shader_add_texture(s);
	t->dim = dim, t->is_array = array, t->is_shadow = shadow, t->is_ms = ms, t->type = type;
	t->array_size = array_size;
}

static struct shader *texture_shader(void)
{
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	add_texture(s, DIM_2d, false, false, false, BASE_float, 2);
	add_texture(s, DIM_2d, true, false, false, BASE_float, 0);
	add_texture(s, DIM_2d, false, true, false, BASE_float, 0);
	add_texture(s, DIM_2d, false, false, true, BASE_uint, 0);
	add_texture(s, DIM_cube, false, false, false, BASE_float, 0);
	add_texture(s, DIM_3d, false, false, false, BASE_float, 0);
	add_texture(s, DIM_2d, false, false, false, BASE_int, 0);
	shader_add_sampler(s)->array_size = 2;
	shader_add_sampler(s)->is_shadow = true;
	struct io_decl *o = shader_add_output(s);
	o->location = 0, o->num_components = 4, o->bit_size = 32;
	return s;
}

static struct ssa_def *src_def(struct builder *b, const struct src_val *v)
{
	uint64_t bits[4];
	for (unsigned k = 0; k < v->n; k++)
		bits[k] = v->is_int ? (uint64_t)(uint32_t)(int32_t)v->v[k]
			  : ir_float_to_bits(v->v[k], 32);
	return b_const(b, v->n, 32, bits);
}

static enum image_dim dim_of(unsigned texture)
{
	return texture == T_CUBE ? DIM_cube : texture == T_3D ? DIM_3d : DIM_2d;
}

/* Run one lookup; lane 0's result components into out[], their count into
 * *n.  Returns false when the run fails. */
static bool lookup(const struct query *q, uint64_t *out, unsigned *n, bool *is_float,
		   uint64_t *lane1)
{
	struct shader *s = texture_shader();
	struct builder b;
	builder_init_at_end(&b, s);
	struct tex_src_desc srcs[8];
	unsigned ns = 0;
	if (q->frag_scale != 0) {
		struct ssa_def *fc = b_sysval(&b, INTR_load_frag_coord);
		unsigned xy[2] = { 0, 1 };
		struct ssa_def *co = b_fmul(&b, b_swizzle(&b, fc, xy, 2), b_imm_float(&b, q->frag_scale));
		srcs[ns++] = (struct tex_src_desc){ TEX_SRC_coord, co };
	}
	for (unsigned i = 0; i < q->nsrc; i++)
		srcs[ns++] = (struct tex_src_desc){ q->src[i].type, src_def(&b, &q->src[i]) };
	struct tex_desc d = {
		.op = q->op, .dim = dim_of(q->texture), .is_array = q->texture == T_ARRAY,
		.is_shadow = q->texture == T_SHADOW, .is_sparse = q->sparse,
		.dest_type = q->texture == T_MS ? BASE_uint : q->texture == T_INT ? BASE_int : BASE_float,
		.texture = q->texture, .sampler = q->sampler, .component = q->component,
	};
	if (q->op == TEX_OP_txs || q->op == TEX_OP_query_levels || q->op == TEX_OP_texture_samples)
		d.dest_type = BASE_int;
	struct ssa_def *r = b_tex(&b, &d, srcs, ns);
	struct ssa_def *ch[4];
	for (unsigned k = 0; k < 4; k++)
		ch[k] = k < r->num_components ? b_channel(&b, r, k) : b_imm_int(&b, 0);
	struct ssa_def *zero = b_imm_int(&b, 0);
	b_store_output(&b, b_vec4(&b, ch[0], ch[1], ch[2], ch[3]), 0, 0, 0xf, zero);

	struct diag dg = DIAG_INIT;
	bool good = ir_validate(s, &dg, "tex");
	if (!good)
		tap_diag("%s", dg.text.buf);
	diag_release(&dg);
	struct interp_inputs *in = interp_inputs_create(s);
	for (unsigned i = 0; i < in->num_textures; i++) {
		struct interp_texture *t = &in->texture[i];
		t->size[0] = t->size[1] = 16;
		t->size[2] = i == T_3D ? 16 : 1;
		t->levels = 5;
		t->hash = 1000 + i;
	}
	struct interp_result *res = interp_run(s, in, NULL);
	good &= res->status == INTERP_OK;
	if (res->status != INTERP_OK)
		tap_diag("%s", res->message);
	*n = r->num_components;
	for (unsigned k = 0; k < *n && k < 4; k++) {
		out[k] = out_or(res, s, 0, 0, k, POISON);
		if (lane1)
			lane1[k] = out_or(res, s, 0, 1, k, POISON);
	}
	if (is_float)
		*is_float = res->outputs[0].tags[0] & INTERP_TAG_FLOAT;
	interp_result_free(res);
	interp_inputs_free(in);
	shader_free(s);
	return good;
}

static bool same(const uint64_t *a, const uint64_t *b, unsigned n)
{
	return !memcmp(a, b, n * sizeof(*a));
}

/* Whether changing source `which` of `q` from `a` to `b` changes lane 0. */
static void check_source(struct query q, unsigned which, const double *a, const double *b,
			 const char *what)
{
	uint64_t ra[4], rb[4];
	unsigned n;
	memcpy(q.src[which].v, a, sizeof(q.src[which].v));
	bool good = lookup(&q, ra, &n, NULL, NULL);
	memcpy(q.src[which].v, b, sizeof(q.src[which].v));
	good &= lookup(&q, rb, &n, NULL, NULL);
	ok(good && !same(ra, rb, n), "%s changes the result", what);
}

#define SRC(t, n, ...) { TEX_SRC_##t, n, false, { __VA_ARGS__ } }
#define ISRC(t, n, ...) { TEX_SRC_##t, n, true, { __VA_ARGS__ } }
#define V(...) (const double[4]){ __VA_ARGS__ }

static void test_determinism(void)
{
	struct query q = { .op = TEX_OP_tex, .frag_scale = 0.05 };
	uint64_t a[4], b[4], a1[4], b1[4];
	unsigned n;
	bool f;
	bool good = lookup(&q, a, &n, &f, a1) && lookup(&q, b, &n, NULL, b1);
	ok(good && same(a, b, 4) && same(a1, b1, 4), "a lookup gives the same result every time");
	ok(!same(a, a1, 4), "… and a different one at another coordinate");
	ok(f, "a float texture's result is tagged float");
	q.texture = T_INT;
	good = lookup(&q, a, &n, &f, NULL);
	ok(good && !f, "an integer texture's is not");
}

static void test_sources(void)
{
	struct query q = { .op = TEX_OP_txl, .nsrc = 2,
			   .src = { SRC(coord, 2, 0.3, 0.3), SRC(lod, 1, 0) } };
	check_source(q, 0, V(0.3, 0.3), V(0.6, 0.3), "txl: the coordinate");
	check_source(q, 1, V(0), V(1.5), "txl: the lod");
	q.nsrc = 3;
	q.src[2] = (struct src_val)ISRC(offset, 2, 0, 0);
	check_source(q, 2, V(0, 0), V(1, 0), "txl: the offset");

	struct query bias = { .op = TEX_OP_txb, .frag_scale = 0.05, .nsrc = 1,
			      .src = { SRC(bias, 1, 0) } };
	check_source(bias, 0, V(0), V(1), "txb: the bias");
	struct query minlod = { .op = TEX_OP_tex, .frag_scale = 0.05, .nsrc = 1,
				.src = { SRC(min_lod, 1, 0) } };
	check_source(minlod, 0, V(0), V(2), "tex: min_lod");
	struct query proj = { .op = TEX_OP_tex, .frag_scale = 0.05, .nsrc = 1,
			      .src = { SRC(projector, 1, 1) } };
	check_source(proj, 0, V(1), V(2), "tex: the projector");
	struct query grad = { .op = TEX_OP_txd, .nsrc = 3,
			      .src = { SRC(coord, 2, 0.3, 0.3), SRC(ddx, 2, 0.01, 0), SRC(ddy, 2, 0, 0.01) } };
	check_source(grad, 1, V(0.01, 0), V(0.3, 0), "txd: ddx");
	check_source(grad, 2, V(0, 0.01), V(0, 0.3), "txd: ddy");

	/* at a texel centre the reference alone decides: 0 passes, 1 fails */
	struct query shadow = { .op = TEX_OP_txl, .texture = T_SHADOW, .sampler = 2, .nsrc = 3,
				.src = { SRC(coord, 2, 0.5 / 16, 0.5 / 16), SRC(lod, 1, 0),
					 SRC(comparator, 1, 0) } };
	check_source(shadow, 2, V(0), V(1), "a shadow lookup: the comparator");
	uint64_t r[4];
	unsigned n;
	bool good = lookup(&shadow, r, &n, NULL, NULL);
	ok(good && n == 1 && r[0] == fbits(1.0f), "a reference below the texel passes: 1.0");

	struct query gather = { .op = TEX_OP_tg4, .nsrc = 1, .src = { SRC(coord, 2, 0.3, 0.3) } };
	uint64_t g0[4], g1[4];
	good = lookup(&gather, g0, &n, NULL, NULL);
	gather.component = 1;
	good &= lookup(&gather, g1, &n, NULL, NULL);
	ok(good && n == 4 && !same(g0, g1, 4), "tg4: the gathered component");
	gather.nsrc = 2;
	gather.src[1] = (struct src_val)ISRC(offset, 2, 0, 0);
	check_source(gather, 1, V(0, 0), V(0, 1), "tg4: the offset");

	struct query ms = { .op = TEX_OP_txf_ms, .texture = T_MS, .nsrc = 2,
			    .src = { ISRC(coord, 2, 3, 4), ISRC(ms_index, 1, 0) } };
	check_source(ms, 1, V(0), V(1), "txf_ms: the sample index");
	check_source(ms, 0, V(3, 4), V(4, 3), "txf_ms: the coordinate");
	struct query fetch = { .op = TEX_OP_txf, .nsrc = 2,
			       .src = { ISRC(coord, 2, 3, 4), ISRC(lod, 1, 0) } };
	check_source(fetch, 1, V(0), V(1), "txf: the level");

	struct query dyn = { .op = TEX_OP_txl, .nsrc = 3,
			     .src = { SRC(coord, 2, 1.3, 0.4), SRC(lod, 1, 0),
				      ISRC(texture_offset, 1, 0) } };
	check_source(dyn, 2, V(0), V(1), "texture_offset");
	dyn.src[2] = (struct src_val)ISRC(sampler_offset, 1, 0);
	check_source(dyn, 2, V(0), V(1), "sampler_offset (repeat or clamp)");

	struct query layer = { .op = TEX_OP_txl, .texture = T_ARRAY, .nsrc = 2,
			       .src = { SRC(coord, 3, 0.3, 0.3, 0), SRC(lod, 1, 0) } };
	check_source(layer, 0, V(0.3, 0.3, 0), V(0.3, 0.3, 1), "the array layer");
	struct query cube = { .op = TEX_OP_txl, .texture = T_CUBE, .nsrc = 2,
			      .src = { SRC(coord, 3, 1, 0.2, 0.1), SRC(lod, 1, 0) } };
	check_source(cube, 0, V(1, 0.2, 0.1), V(-1, 0.2, 0.1), "a cube map: the face");
	struct query vol = { .op = TEX_OP_txl, .texture = T_3D, .nsrc = 2,
			     .src = { SRC(coord, 3, 0.3, 0.3, 0.1), SRC(lod, 1, 0) } };
	check_source(vol, 0, V(0.3, 0.3, 0.1), V(0.3, 0.3, 0.7), "a 3D texture: r");
}

static void test_queries(void)
{
	uint64_t r[4];
	unsigned n;
	struct query txs = { .op = TEX_OP_txs, .nsrc = 1, .src = { ISRC(lod, 1, 1) } };
	bool good = lookup(&txs, r, &n, NULL, NULL);
	ok(good && n == 2 && r[0] == 8 && r[1] == 8, "txs at level 1 of a 16×16 texture: 8×8");
	txs.src[0].v[0] = 7;
	good = lookup(&txs, r, &n, NULL, NULL);
	ok(good && r[0] == POISON, "txs past the last level is poison");
	struct query levels = { .op = TEX_OP_query_levels };
	good = lookup(&levels, r, &n, NULL, NULL);
	ok(good && r[0] == 5, "query_levels");
	struct query samples = { .op = TEX_OP_texture_samples, .texture = T_MS };
	good = lookup(&samples, r, &n, NULL, NULL);
	ok(good && r[0] == 4, "texture_samples");
	/* coord = frag_coord × 0.25: 4 texels per pixel, lambda = 2 */
	struct query lod = { .op = TEX_OP_lod, .frag_scale = 0.25 };
	good = lookup(&lod, r, &n, NULL, NULL);
	ok(good && n == 2 && r[0] == fbits(2.0f) && r[1] == fbits(2.0f), "lod from the quad's derivatives");
	struct query out = { .op = TEX_OP_txf, .nsrc = 2, .src = { ISRC(coord, 2, 16, 0), ISRC(lod, 1, 0) } };
	good = lookup(&out, r, &n, NULL, NULL);
	ok(good && r[0] == 0 && r[3] == 0, "txf outside the texture gives 0");
	struct query sparse = { .op = TEX_OP_txl, .texture = T_SHADOW, .sampler = 2, .sparse = true,
				.nsrc = 3, .src = { SRC(coord, 2, 0.3, 0.3), SRC(lod, 1, 0),
						    SRC(comparator, 1, 0.5) } };
	good = lookup(&sparse, r, &n, NULL, NULL);
	ok(good && n == 2 && r[1] == 0, "a sparse lookup is resident (code 0)");
}

int main(void)
{
	test_determinism();
	test_sources();
	test_queries();
	return done_testing();
}
