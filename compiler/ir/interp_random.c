/*
 * Inputs for the interpreter: sized from a shader's declarations
 * (interp_inputs_create()) and filled from a seed
 * (interp_inputs_random()).
 *
 * The seed picks a level: seed % 4 == 0 is tame (small integers 0–3,
 * floats in [-4, 4] on a 1/16 grid, so loops end and indices are in
 * range), 1 mixes in special values (15%), 2 is wild (50%), 3 is tame
 * with floats in [0, 1] (colours, texture coordinates, roughness: what a
 * square root or a logarithm of them expects).  Special
 * floats: NaNs with and without payload, signalling NaN, ±inf, ±0, the
 * smallest and largest denormals, the smallest normal, the largest
 * finite, powers of two at integer-conversion edges, f16 overflow edges;
 * special integers: 0, ±1, the limits of each size, shift counts around
 * the bit size, single bits, random bits.  Each component of a stage input
 * is a float or an integer, at random (input_is_float()); so is each
 * 32-bit word of a buffer, unless the shader reads it at a constant place
 * and uses it as a float or as an integer (word_kinds()): a uniform the
 * shader divides by is a float, not an integer's bits.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/interp.h"

/* ---- splitmix64 ---- */

struct rng {
	uint64_t s;
	unsigned level;		/* 0 tame, 1 mixed, 2 wild, 3 unit */
};

static uint64_t next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned below(struct rng *r, unsigned n)
{
	return (unsigned)(next(r) % n);
}

static bool special(struct rng *r)
{
	static const unsigned percent[4] = { 0, 15, 50, 0 };
	return below(r, 100) < percent[r->level];
}

static uint64_t mask_bits(unsigned bits)
{
	return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

/* ---- values ---- */

/* A float of `bits` bits from sign, exponent field and mantissa field. */
static uint64_t make_float(unsigned bits, unsigned sign, uint64_t exp, uint64_t mant)
{
	unsigned m = bits == 16 ? 10 : bits == 32 ? 23 : 52;
	unsigned e = bits - 1 - m;
	return (uint64_t)sign << (bits - 1) | (exp & mask_bits(e)) << m | (mant & mask_bits(m));
}

static uint64_t special_float(struct rng *r, unsigned bits)
{
	unsigned m = bits == 16 ? 10 : bits == 32 ? 23 : 52;
	uint64_t emax = mask_bits(bits - 1 - m), top = (uint64_t)1 << (m - 1);
	unsigned sign = below(r, 2);
	static const double values[] = {
		1, 0.5, 2, 0.1, 1.0 / 3, 16777216, 16777217, 2147483648.0, 4294967296.0,
		9223372036854775808.0, 1e20, 1e-20, 65504, 65520, 1e-7, 3.14159265358979,
	};
	switch (below(r, 12)) {
	case 0: return make_float(bits, 0, emax, top);			/* canonical NaN */
	case 1: return make_float(bits, sign, emax, top | 1 | (uint64_t)below(r, 64) << 1);
	case 2: return make_float(bits, sign, emax, 1);			/* signalling NaN */
	case 3: return make_float(bits, sign, emax, 0);			/* ±inf */
	case 4: return make_float(bits, 1, 0, 0);			/* -0.0 */
	case 5: return make_float(bits, sign, 0, 1);			/* smallest denormal */
	case 6: return make_float(bits, sign, 0, mask_bits(m));		/* largest denormal */
	case 7: return make_float(bits, sign, 1, 0);			/* smallest normal */
	case 8: return make_float(bits, sign, emax - 1, mask_bits(m));	/* largest finite */
	case 9: return next(r) & mask_bits(bits);
	default: {
		double v = values[below(r, sizeof(values) / sizeof(*values))];
		return ir_float_to_bits(sign ? -v : v, bits);
	}
	}
}

static uint64_t random_float(struct rng *r, unsigned bits)
{
	if (bits < 16)
		return next(r) & mask_bits(bits);
	if (special(r))
		return special_float(r, bits);
	if (r->level == 3)
		return ir_float_to_bits((double)below(r, 17) / 16, bits);
	double v = ((double)below(r, 129) - 64) / 16;
	if ((r->level == 1 || r->level == 2) && below(r, 4) == 0)
		v = ((double)(int64_t)(next(r) % 2000001) - 1000000) / 1000;
	return ir_float_to_bits(v, bits);
}

static uint64_t special_int(struct rng *r, unsigned bits)
{
	uint64_t m = mask_bits(bits);
	switch (below(r, 10)) {
	case 0: return m;				/* -1 / UINT_MAX */
	case 1: return m >> 1;				/* INT_MAX */
	case 2: return (m >> 1) + 1;			/* INT_MIN */
	case 3: return (bits - 1 + below(r, 3)) & m;	/* shift counts at the bit size */
	case 4: return (uint64_t)(2 * bits) & m;
	case 5: return ((uint64_t)1 << below(r, bits)) & m;	/* one bit */
	case 6: return (m - below(r, 4)) & m;		/* -2 … -4 */
	case 7: return (uint64_t)(31 + below(r, 35)) & m;
	case 8: return 0;
	default: return next(r) & m;
	}
}

static uint64_t random_int(struct rng *r, unsigned bits)
{
	if (special(r))
		return special_int(r, bits);
	if (r->level == 0 || r->level == 3 || below(r, 2))
		return below(r, 4) & mask_bits(bits);
	return (uint64_t)((int64_t)below(r, 12) - 4) & mask_bits(bits);
}

static uint64_t random_value(struct rng *r, unsigned bits, bool is_float)
{
	return is_float ? random_float(r, bits) : random_int(r, bits);
}

/* ---- sizing ---- */

static unsigned stage_lanes(const struct shader *s, unsigned *subgroup)
{
	unsigned n = 4;
	*subgroup = 4;
	switch (s->stage) {
	case STAGE_COMPUTE: case STAGE_TASK: case STAGE_MESH:
		*subgroup = 16;
		n = 0;	/* from the workgroup size */
		break;
	case STAGE_TESS_CTRL:
		n = s->info.vertices_out ? s->info.vertices_out : 1;
		break;
	case STAGE_GEOMETRY:
		n = s->info.invocations ? s->info.invocations : 1;
		break;
	default:
		break;
	}
	if (s->info.subgroup_size)
		*subgroup = s->info.subgroup_size;
	return n;
}

static unsigned primitive_vertices(enum primitive p)
{
	switch (p) {
	case PRIM_points: return 1;
	case PRIM_lines: case PRIM_line_strip: return 2;
	case PRIM_lines_adjacency: return 4;
	case PRIM_triangles_adjacency: return 6;
	default: return 3;
	}
}

static size_t input_components(const struct interp_inputs *in, const struct io_decl *d)
{
	return (size_t)(d->patch ? 1 : in->num_lanes) * (d->per_vertex ? in->num_vertices : 1) *
	       decl_num_slots(d->array_size) * d->num_components;
}

static unsigned buffer_slots(struct buffer_decl **d, unsigned n)
{
	unsigned slots = 0;
	for (unsigned i = 0; i < n; i++)
		if (d[i]->slot + decl_num_slots(d[i]->array_size) > slots)
			slots = d[i]->slot + decl_num_slots(d[i]->array_size);
	return slots;
}

static unsigned resource_slots(struct resource_decl **d, unsigned n)
{
	unsigned slots = 0;
	for (unsigned i = 0; i < n; i++)
		if (d[i]->slot + decl_num_slots(d[i]->array_size) > slots)
			slots = d[i]->slot + decl_num_slots(d[i]->array_size);
	return slots;
}

static void buffer_alloc(struct interp_inputs *in, struct interp_buffer *b, uint32_t size)
{
	b->size = size;
	b->data = arena_zalloc(&in->arena, size + 1);
}

/* Texture defaults: 4×4 (×4 in 3D), 3 levels, 2 layers when arrayed, 4
 * samples when multisampled. */
static void texture_default(struct interp_texture *t, const struct resource_decl *d)
{
	unsigned n = d ? image_dim_coords(d->dim) : 2;
	for (unsigned k = 0; k < 3; k++)
		t->size[k] = k < n && !(d && d->dim == DIM_cube && k == 2) ? 4 : 1;
	t->layers = d && d->is_array ? 2 : 1;
	t->levels = 3;
	t->samples = d && d->is_ms ? 4 : 1;
	t->hash = 0;
}

static void textures_create(struct interp_inputs *in, struct resource_decl **decls, unsigned n,
			    unsigned *num, struct interp_texture **out)
{
	*num = resource_slots(decls, n);
	*out = arena_array(&in->arena, struct interp_texture, *num + 1);
	for (unsigned i = 0; i < *num; i++)
		texture_default(&(*out)[i], NULL);
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < decl_num_slots(decls[i]->array_size); k++)
			texture_default(&(*out)[decls[i]->slot + k], decls[i]);
}

struct interp_inputs *interp_inputs_create(struct shader *s)
{
	struct interp_inputs *in = xcalloc(1, sizeof(*in));
	arena_init(&in->arena);
	struct arena *a = &in->arena;
	const struct shader_info *info = &s->info;

	for (unsigned k = 0; k < 3; k++) {
		in->workgroup_size[k] = info->workgroup_size[k] ? info->workgroup_size[k] : 1;
		in->num_workgroups[k] = 1;
	}
	if (info->workgroup_size_variable) {
		in->workgroup_size[0] = 4;
		in->workgroup_size[1] = 2;
		in->workgroup_size[2] = 1;
	}
	in->num_lanes = stage_lanes(s, &in->subgroup_size);
	if (!in->num_lanes)
		in->num_lanes = in->workgroup_size[0] * in->workgroup_size[1] * in->workgroup_size[2];
	in->num_vertices = s->stage == STAGE_GEOMETRY ? primitive_vertices(info->input_primitive)
			   : s->stage == STAGE_TESS_CTRL || s->stage == STAGE_TESS_EVAL ? 4 : 1;
	in->patch_vertices_in = 4;

	in->num_inputs = s->num_inputs;
	in->input = arena_array(a, uint64_t *, s->num_inputs + 1);
	in->input_count = arena_array(a, size_t, s->num_inputs + 1);
	for (unsigned i = 0; i < s->num_inputs; i++) {
		in->input_count[i] = input_components(in, s->inputs[i]);
		in->input[i] = arena_array(a, uint64_t, in->input_count[i] + 1);
	}

	buffer_alloc(in, &in->uniforms, info->uniform_size ? info->uniform_size : 256);
	buffer_alloc(in, &in->push_constants, info->push_constant_size ? info->push_constant_size : 256);
	buffer_alloc(in, &in->global, 256);
	in->num_ubos = buffer_slots(s->ubos, s->num_ubos);
	in->ubo = arena_array(a, struct interp_buffer, in->num_ubos + 1);
	for (unsigned i = 0; i < s->num_ubos; i++)
		for (unsigned k = 0; k < decl_num_slots(s->ubos[i]->array_size); k++)
			buffer_alloc(in, &in->ubo[s->ubos[i]->slot + k],
				     s->ubos[i]->size ? s->ubos[i]->size : 256);
	in->num_ssbos = buffer_slots(s->ssbos, s->num_ssbos);
	in->ssbo = arena_array(a, struct interp_buffer, in->num_ssbos + 1);
	for (unsigned i = 0; i < s->num_ssbos; i++)
		for (unsigned k = 0; k < decl_num_slots(s->ssbos[i]->array_size); k++)
			buffer_alloc(in, &in->ssbo[s->ssbos[i]->slot + k],
				     s->ssbos[i]->size ? s->ssbos[i]->size + 256 : 1024);
	textures_create(in, s->textures, s->num_textures, &in->num_textures, &in->texture);
	textures_create(in, s->images, s->num_images, &in->num_images, &in->image);

	unsigned nl = in->num_lanes;
	in->frag_zw = arena_array(a, float, 2 * nl);
	in->tess_coord = arena_array(a, float, 3 * nl);
	in->point_coord = arena_array(a, float, 2 * nl);
	in->front_face = arena_array(a, uint8_t, nl);
	for (unsigned l = 0; l < nl; l++) {
		in->frag_zw[2 * l] = 0.5f;
		in->frag_zw[2 * l + 1] = 1.0f;
		for (unsigned k = 0; k < 3; k++)
			in->tess_coord[3 * l + k] = 1.0f / 3;
		in->point_coord[2 * l] = in->point_coord[2 * l + 1] = 0.5f;
		in->front_face[l] = 1;
	}
	in->sample_mask_in = 1;
	return in;
}

void interp_inputs_free(struct interp_inputs *in)
{
	if (!in)
		return;
	arena_release(&in->arena);
	free(in);
}

/* ---- what the shader makes of buffer words ---- */

enum word_kind { WORD_ANY, WORD_INT, WORD_FLOAT };

/* The kinds of the 32-bit words of each buffer (NULL: none known). */
struct word_kinds {
	uint8_t *uniforms, *push_constants, **ubo, **ssbo;
};

/* How the ALU ops reading component k of `def` take it: as a float if one
 * does, else as an integer if one does. */
static enum word_kind use_kind(struct ssa_def *def, unsigned k)
{
	enum word_kind kind = WORD_ANY;
	foreach_use(u, def) {
		if (!u->parent_instr || u->parent_instr->type != INSTR_alu)
			continue;
		struct alu_instr *alu = instr_as_alu(u->parent_instr);
		const struct alu_op_info *info = &alu_op_infos[alu->op];
		for (unsigned i = 0; i < info->num_inputs; i++) {
			if (alu->src[i].src.ssa != def)
				continue;
			unsigned n = info->input_sizes[i] ? info->input_sizes[i] : alu->def.num_components;
			bool reads = false;
			for (unsigned c = 0; c < n && c < 16; c++)
				reads |= alu->src[i].swizzle[c] == k;
			enum base_type base = alu_type_base(info->input_types[i]);
			if (reads && base == BASE_float)
				return WORD_FLOAT;
			if (reads && (base == BASE_int || base == BASE_uint))
				kind = WORD_INT;
		}
	}
	return kind;
}

static void mark_words(struct arena *a, uint8_t **kinds, uint32_t size, uint64_t offset,
		       struct intrinsic_instr *intr)
{
	if (intr->def.bit_size != 32)
		return;
	if (!*kinds)
		*kinds = arena_zalloc(a, size / 4 + 1);
	for (unsigned k = 0; k < intr->def.num_components; k++) {
		uint64_t w = offset / 4 + k;
		enum word_kind kind = offset % 4 ? WORD_ANY : use_kind(&intr->def, k);
		if (w < size / 4 && kind > (*kinds)[w])
			(*kinds)[w] = (uint8_t)kind;
	}
}

static bool const_of(struct src *s, uint64_t *v)
{
	struct load_const_instr *lc = ssa_def_as_const(s->ssa);
	if (!lc || lc->instr.type != INSTR_load_const)
		return false;
	*v = lc->value[0];
	return true;
}

static struct word_kinds word_kinds(struct shader *s, struct interp_inputs *in)
{
	struct word_kinds wk = { 0 };
	wk.ubo = arena_array(&in->arena, uint8_t *, in->num_ubos + 1);
	wk.ssbo = arena_array(&in->arena, uint8_t *, in->num_ssbos + 1);
	foreach_block(blk, s->fn)
		foreach_instr(instr, blk) {
			if (instr->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(instr);
			uint64_t a, b;
			int64_t base = intrinsic_has(intr->op, INTR_IDX_base)
					       ? intrinsic_get(intr, INTR_IDX_base) : 0;
			switch (intr->op) {
			case INTR_load_uniform:
				if (const_of(&intr->src[0], &a))
					mark_words(&in->arena, &wk.uniforms, in->uniforms.size,
						   (uint64_t)base + a, intr);
				break;
			case INTR_load_push_constant:
				if (const_of(&intr->src[0], &a))
					mark_words(&in->arena, &wk.push_constants,
						   in->push_constants.size, (uint64_t)base + a, intr);
				break;
			case INTR_load_ubo:
				if (const_of(&intr->src[0], &a) && const_of(&intr->src[1], &b) &&
				    a < in->num_ubos)
					mark_words(&in->arena, &wk.ubo[a], in->ubo[a].size, b, intr);
				break;
			case INTR_load_ssbo:
				if (const_of(&intr->src[0], &a) && const_of(&intr->src[1], &b) &&
				    a < in->num_ssbos)
					mark_words(&in->arena, &wk.ssbo[a], in->ssbo[a].size, b, intr);
				break;
			default:
				break;
			}
		}
	return wk;
}

/* ---- filling ---- */

static void fill_buffer(struct rng *r, struct interp_buffer *b, const uint8_t *kinds)
{
	for (uint32_t i = 0; i + 4 <= b->size; i += 4) {
		bool is_float = below(r, 2);
		if (kinds && kinds[i / 4] != WORD_ANY)
			is_float = kinds[i / 4] == WORD_FLOAT;
		uint64_t v = random_value(r, 32, is_float);
		memcpy(b->data + i, &(uint32_t){ (uint32_t)v }, 4);
	}
	for (uint32_t i = b->size & ~3u; i < b->size; i++)
		b->data[i] = (uint8_t)next(r);
}

/* Interpolated fragment inputs are floats; flat ones mostly integers (GLSL
 * integer varyings must be flat); others floats 60% of the time. */
static bool input_is_float(const struct shader *s, const struct io_decl *d, struct rng *r)
{
	if (d->bit_size < 16)
		return false;
	if (s->stage == STAGE_FRAGMENT)
		return d->interp != INTERP_flat || below(r, 10) < 2;
	return below(r, 10) < 6;
}

static void fill_inputs(struct rng *r, struct shader *s, struct interp_inputs *in)
{
	for (unsigned i = 0; i < s->num_inputs; i++) {
		const struct io_decl *d = s->inputs[i];
		bool comp_float[16];
		for (unsigned k = 0; k < d->num_components && k < 16; k++)
			comp_float[k] = input_is_float(s, d, r);
		for (size_t x = 0; x < in->input_count[i]; x++)
			in->input[i][x] = random_value(r, d->bit_size, comp_float[x % d->num_components]);
	}
}

/* Two inputs declared at one component of a location (interp_io_overlap())
 * read what the previous stage wrote there, one value: the later
 * declaration takes the earlier one's bits. */
static void share_inputs(struct shader *s, struct interp_inputs *in)
{
	unsigned lanes = in->num_lanes, verts = in->num_vertices;
	for (unsigned j = 0; j < s->num_inputs; j++)
		for (unsigned i = 0; i < j; i++) {
			const struct io_decl *a = s->inputs[i], *b = s->inputs[j];
			if (!interp_io_overlap(a, b))
				continue;
			uint64_t mask = b->bit_size >= 64 ? UINT64_MAX : ((uint64_t)1 << b->bit_size) - 1;
			for (unsigned l = 0; l < (b->patch ? 1 : lanes); l++)
				for (unsigned v = 0; v < (b->per_vertex ? verts : 1); v++)
					for (unsigned e = 0; e < decl_num_slots(b->array_size); e++)
						for (unsigned c = 0; c < b->num_components; c++) {
							int ae = b->location + (int)e - a->location;
							int ac = b->component + (int)c - a->component;
							if (ae < 0 || ae >= (int)decl_num_slots(a->array_size) ||
							    ac < 0 || ac >= (int)a->num_components)
								continue;
							in->input[j][interp_input_index(in, b, l, v, e, c)] =
								in->input[i][interp_input_index(
									in, a, l, v, (unsigned)ae, (unsigned)ac)] &
								mask;
						}
		}
}

static void fill_texture(struct rng *r, struct interp_texture *t, const struct resource_decl *d)
{
	unsigned n = d ? image_dim_coords(d->dim) : 2, maxdim = 1;
	for (unsigned k = 0; k < 3; k++) {
		t->size[k] = k < n ? 1u << below(r, k == 2 ? 3 : 5) : 1;
		if (d && d->dim == DIM_cube)
			t->size[k] = k < 2 ? t->size[0] : 1;
		if (t->size[k] > maxdim)
			maxdim = t->size[k];
	}
	unsigned max_levels = 1;
	while ((maxdim >> max_levels) > 0)
		max_levels++;
	t->levels = 1 + below(r, max_levels);
	t->layers = d && d->is_array ? 1 + below(r, 4) : 1;
	t->samples = d && d->is_ms ? 2u << below(r, 2) : 1;
	t->hash = next(r);
}

static void fill_textures(struct rng *r, struct resource_decl **decls, unsigned n,
			  struct interp_texture *t)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < decl_num_slots(decls[i]->array_size); k++)
			fill_texture(r, &t[decls[i]->slot + k], decls[i]);
}

static void fill_sysvals(struct rng *r, const struct shader *s, struct interp_inputs *in)
{
	bool quads = s->info.tess_primitive == PRIM_quads || s->info.tess_primitive == PRIM_isolines;
	unsigned small = r->level == 1 || r->level == 2 ? 16 : 4;
	for (unsigned k = 0; k < 3; k++) {
		in->workgroup_id[k] = below(r, small);
		in->num_workgroups[k] = in->workgroup_id[k] + 1 + below(r, 4);
	}
	in->vertex_id_base = below(r, 100);
	in->instance_id = below(r, small);
	in->base_vertex = below(r, small);
	in->base_instance = below(r, small);
	in->draw_id = below(r, small);
	in->primitive_id = below(r, small);
	in->view_index = below(r, 2);
	in->sample_id = below(r, 4);
	in->sample_mask_in = 1 + below(r, 15);
	in->quad_x = below(r, 64);
	in->quad_y = below(r, 64);
	for (unsigned l = 0; l < in->num_lanes; l++) {
		in->frag_zw[2 * l] = (float)below(r, 1025) / 1024;
		in->frag_zw[2 * l + 1] = 0.25f + (float)below(r, 64) / 16;
		float u = (float)below(r, 65) / 64, v = (float)below(r, 65) / 64;
		if (u + v > 1 && !quads) {
			u = 1 - u;
			v = 1 - v;
		}
		in->tess_coord[3 * l] = u;
		in->tess_coord[3 * l + 1] = v;
		in->tess_coord[3 * l + 2] = quads ? 0 : 1 - u - v;	/* quads, isolines: (u, v, 0) */
		in->point_coord[2 * l] = (float)below(r, 65) / 64;
		in->point_coord[2 * l + 1] = (float)below(r, 65) / 64;
		in->front_face[l] = below(r, 2);
	}
}

bool interp_seed_is_tame(uint64_t seed)
{
	return seed % 4 == 0 || seed % 4 == 3;
}

struct interp_inputs *interp_inputs_random(struct shader *s, uint64_t seed)
{
	struct interp_inputs *in = interp_inputs_create(s);
	struct rng r = { seed * 0x2545f4914f6cdd1dull + 1, (unsigned)(seed % 4) };
	in->seed = seed;
	struct word_kinds wk = word_kinds(s, in);
	fill_inputs(&r, s, in);
	share_inputs(s, in);
	fill_buffer(&r, &in->uniforms, wk.uniforms);
	fill_buffer(&r, &in->push_constants, wk.push_constants);
	fill_buffer(&r, &in->global, NULL);
	for (unsigned i = 0; i < in->num_ubos; i++)
		fill_buffer(&r, &in->ubo[i], wk.ubo[i]);
	for (unsigned i = 0; i < in->num_ssbos; i++)
		fill_buffer(&r, &in->ssbo[i], wk.ssbo[i]);
	fill_textures(&r, s->textures, s->num_textures, in->texture);
	fill_textures(&r, s->images, s->num_images, in->image);
	fill_sysvals(&r, s, in);
	return in;
}
