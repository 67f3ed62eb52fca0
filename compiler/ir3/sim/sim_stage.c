/*
 * The stage interfaces that go through memory (lower_ir3_tess.c): the
 * simulator lays out what the producer stage would have written, as the
 * driver describes it in the const file (the primitive params and map),
 * and reads back what the shader wrote.
 *
 * TES: fibre f runs on patch f (rel_patch_id f): its per-vertex inputs are
 * the interpreter's lane f, its patch inputs the shared ones, in the tess
 * param buffer as a TCS writes them (patch slots first, 4 dwords a
 * location, then each per-vertex slot, patch_vertices_in × 4 dwords:
 * Mesa's build_primitive_map), the tessellation levels in the tess factor
 * buffer (a patch's primitive id, outer, inner levels).
 *
 * TCS: the fibres are the invocations of one patch (rel_patch_id 0, the
 * header's invocation id f); fibre f reads its per-vertex inputs (the
 * interpreter's lane f: each lane has its own) as local primitive f of the
 * VS's output in local memory (16 bytes a slot, Mesa's stride layout);
 * its outputs are read back from the tess param and factor buffers at the
 * TCS's own map (ir3_tcs_output_map()), what it did not write poison.
 */
#include "compiler/ir3/sim/sim_priv.h"

#include <string.h>


static bool is_tess_level(const struct io_decl *d)
{
	return d->builtin == BUILTIN_tess_level_outer || d->builtin == BUILTIN_tess_level_inner;
}

static void put_word(struct smem *m, uint64_t dword, uint64_t v)
{
	if (dword * 4 + 4 > m->size)
		return;
	for (unsigned b = 0; b < 4; b++) {
		m->data[dword * 4 + b] = (uint8_t)(v >> (8 * b));
		m->tags[dword * 4 + b] = 0;
	}
}

/* A word back into the result: its tag says whether the shader wrote it. */
static void get_word(struct srun *r, const struct smem *m, uint64_t dword, unsigned decl,
		     size_t x)
{
	struct interp_output *o = &r->res->outputs[decl];
	if (x >= o->count)
		return;
	if (dword * 4 + 4 > m->size) {
		o->tags[x] = INTERP_TAG_POISON;
		return;
	}
	uint32_t v = 0;
	uint8_t poison = 0;
	for (unsigned b = 0; b < 4; b++) {
		v |= (uint32_t)m->data[dword * 4 + b] << (8 * b);
		poison |= m->tags[dword * 4 + b] & INTERP_TAG_POISON;
	}
	o->vals[x] = v;
	o->tags[x] = poison;
	r->out_writer[decl][x] = m->writer[dword * 4];
}

static void set_param(struct srun *r, unsigned which, uint32_t v)
{
	sim_set_const(r, r->sim->f->layout.primitive_param_vec4 * 4 + which, v);
}

/* The primitive map's entries the const layout has room for (the highest
 * slot the shader locates: the immediates follow). */
static void set_map(struct srun *r, const unsigned *map)
{
	const struct ir3_const_layout *l = &r->sim->f->layout;
	unsigned n = (l->size_vec4 - l->primitive_map_vec4) * 4;
	for (unsigned k = 0; k < n && k < IR3_MAX_MAP_SLOTS; k++)
		sim_set_const(r, l->primitive_map_vec4 * 4 + k, map[k]);
}

static uint64_t align16(uint64_t v) { return (v + 15) / 16 * 16; }

/* The tess param buffer right after the global memory, the factor buffer
 * right after it: the lowered shader reads the three as one region. */
static void buffers(struct srun *r, uint32_t param_bytes, uint32_t factor_bytes)
{
	uint64_t param = r->global.base + align16(r->global.size);
	uint64_t factor = param + align16(param_bytes);
	set_param(r, IR3_PP_TESS_PARAM_BASE, (uint32_t)param);
	set_param(r, IR3_PP_TESS_PARAM_BASE + 1, (uint32_t)(param >> 32));
	set_param(r, IR3_PP_TESS_FACTOR_BASE, (uint32_t)factor);
	set_param(r, IR3_PP_TESS_FACTOR_BASE + 1, (uint32_t)(factor >> 32));
	sim_mem_region(r, &r->tess_param, param_bytes, param, true);
	sim_mem_region(r, &r->tess_factor, factor_bytes, factor, true);
}

/* Only 32-bit stage inputs and outputs are laid out. */
static bool words_only(struct srun *r, struct io_decl **decls, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (decls[k]->bit_size != 32) {
			sim_error(r, "the simulator lays out 32-bit tessellation I/O only");
			return false;
		}
	return true;
}

/* The tess factor buffer's dword of level `comp` of `d` in patch p. */
static uint64_t factor_dword(const struct ir3_sim *sim, const struct io_decl *d, unsigned p,
			     unsigned comp)
{
	unsigned inner, outer;
	ir3_tess_level_counts(sim->s->info.tess_primitive, &inner, &outer);
	unsigned at = d->builtin == BUILTIN_tess_level_outer ? 1 : 1 + outer;
	return (uint64_t)p * (1 + inner + outer) + at + comp;
}

/* How many levels of d's kind the primitive has. */
static unsigned levels(const struct ir3_sim *sim, const struct io_decl *d)
{
	unsigned inner, outer;
	ir3_tess_level_counts(sim->s->info.tess_primitive, &inner, &outer);
	return d->builtin == BUILTIN_tess_level_outer ? outer : inner;
}

/* ---- TES ---- */

static void tes_setup(struct srun *r)
{
	const struct shader *s = r->sim->s;
	const struct interp_inputs *in = r->in;
	if (!words_only(r, s->inputs, s->num_inputs))
		return;
	unsigned verts = in->num_vertices, patch_end = 0, map[IR3_MAX_MAP_SLOTS] = { 0 };
	for (unsigned k = 0; k < s->num_inputs; k++) {
		const struct io_decl *d = s->inputs[k];
		if (d->patch && !is_tess_level(d) && d->location >= 0 &&
		    (unsigned)d->location + decl_num_slots(d->array_size) > patch_end)
			patch_end = (unsigned)d->location + decl_num_slots(d->array_size);
	}
	unsigned stride = patch_end * 4;
	for (unsigned k = 0; k < s->num_inputs; k++) {
		const struct io_decl *d = s->inputs[k];
		for (unsigned e = 0; d->per_vertex && e < decl_num_slots(d->array_size); e++) {
			int index = ir3_io_unique_index(d, e);
			if (index < 0 || index >= IR3_MAX_MAP_SLOTS) {
				sim_error(r, "a per-vertex input without a place in the primitive map");
				return;
			}
			map[index] = stride;
			stride += verts * 4;
		}
	}
	set_map(r, map);
	set_param(r, IR3_PP_HS_PATCH_STRIDE, stride);
	set_param(r, IR3_PP_PATCH_VERTICES_IN, verts);
	unsigned inner, outer;
	ir3_tess_level_counts(s->info.tess_primitive, &inner, &outer);
	buffers(r, r->nf * stride * 4, r->nf * (1 + inner + outer) * 4);
	for (unsigned f = 0; f < r->nf; f++)
		for (unsigned k = 0; k < s->num_inputs; k++) {
			const struct io_decl *d = s->inputs[k];
			unsigned nv = d->per_vertex ? verts : 1;
			for (unsigned e = 0; e < decl_num_slots(d->array_size); e++)
				for (unsigned v = 0; v < nv; v++)
					for (unsigned c = 0; c < d->num_components; c++) {
						uint64_t x = in->input[k][interp_input_index(in, d, f, v, e, c)];
						unsigned comp = d->component + c;
						if (is_tess_level(d) && e + comp < levels(r->sim, d))
							put_word(&r->tess_factor,
								 factor_dword(r->sim, d, f, e + comp), x);
						else if (d->per_vertex)
							put_word(&r->tess_param,
								 (uint64_t)f * stride +
									 map[ir3_io_unique_index(d, e)] +
									 comp + 4 * v, x);
						else if (d->patch && d->location >= 0)
							put_word(&r->tess_param,
								 (uint64_t)f * stride +
									 ((unsigned)d->location + e) * 4 + comp, x);
					}
		}
}

/* ---- TCS ---- */

static void tcs_setup(struct srun *r)
{
	const struct shader *s = r->sim->s;
	const struct interp_inputs *in = r->in;
	if (!words_only(r, s->inputs, s->num_inputs) || !words_only(r, s->outputs, s->num_outputs))
		return;
	/* the inputs: 16 bytes a slot, one vertex after the other, a
	 * primitive (patch_vertices_in vertices) per fibre */
	unsigned map[IR3_MAX_MAP_SLOTS] = { 0 }, slots = 0;
	for (unsigned k = 0; k < s->num_inputs; k++) {
		const struct io_decl *d = s->inputs[k];
		for (unsigned e = 0; d->per_vertex && e < decl_num_slots(d->array_size); e++) {
			int index = ir3_io_unique_index(d, e);
			if (index < 0 || index >= IR3_MAX_MAP_SLOTS) {
				sim_error(r, "a per-vertex input without a place in the primitive map");
				return;
			}
			map[index] = 16 * slots++;
		}
	}
	unsigned verts = in->num_vertices, vstride = 16 * (slots ? slots : 1);
	set_map(r, map);
	set_param(r, IR3_PP_VS_PRIMITIVE_STRIDE, verts * vstride);
	set_param(r, IR3_PP_VS_VERTEX_STRIDE, vstride);
	set_param(r, IR3_PP_PATCH_VERTICES_IN, verts);
	uint32_t size = r->nf * verts * vstride;
	if (size < r->shared.size)
		size = r->shared.size;
	sim_mem_region(r, &r->shared, size, 0, true);
	for (unsigned f = 0; f < r->nf; f++)
		for (unsigned k = 0; k < s->num_inputs; k++) {
			const struct io_decl *d = s->inputs[k];
			for (unsigned e = 0; d->per_vertex && e < decl_num_slots(d->array_size); e++)
				for (unsigned v = 0; v < verts; v++)
					for (unsigned c = 0; c < d->num_components; c++)
						put_word(&r->shared,
							 ((uint64_t)f * verts * vstride + v * vstride +
							  map[ir3_io_unique_index(d, e)]) / 4 + d->component + c,
							 in->input[k][interp_input_index(in, d, f, v, e, c)]);
		}
	/* the outputs: the TCS's own map, one patch */
	unsigned omap[IR3_MAX_MAP_SLOTS] = { 0 }, stride = ir3_tcs_output_map(s, omap), inner, outer;
	ir3_tess_level_counts(s->info.tess_primitive, &inner, &outer);
	set_param(r, IR3_PP_HS_PATCH_STRIDE, stride);
	buffers(r, stride * 4, (1 + inner + outer) * 4);
}

static void tcs_outputs(struct srun *r)
{
	const struct shader *s = r->sim->s;
	unsigned omap[IR3_MAX_MAP_SLOTS] = { 0 };
	ir3_tcs_output_map(s, omap);
	for (unsigned k = 0; k < s->num_outputs; k++) {
		const struct io_decl *d = s->outputs[k];
		const struct interp_output *o = &r->res->outputs[k];
		for (unsigned v = 0; v < o->vertices; v++)
			for (unsigned e = 0; e < decl_num_slots(d->array_size); e++)
				for (unsigned c = 0; c < d->num_components; c++) {
					size_t x = interp_io_index(d, o->lanes, o->vertices, 0, v, e, c);
					unsigned comp = d->component + c;
					int index = ir3_io_unique_index(d, e);
					if (is_tess_level(d) && e + comp < levels(r->sim, d))
						get_word(r, &r->tess_factor,
							 factor_dword(r->sim, d, 0, e + comp), k, x);
					else if (!d->patch && index >= 0)
						get_word(r, &r->tess_param, omap[index] + comp + 4 * v, k, x);
					else if (d->patch && d->location >= 0)
						get_word(r, &r->tess_param, ((unsigned)d->location + e) * 4 + comp,
							 k, x);
				}
	}
}

/* ---- the system values the stages take from their header ---- */

bool sim_stage_sysval(struct srun *r, enum intrinsic op, unsigned f, unsigned k, uint32_t *v)
{
	const struct ir3_sim *sim = r->sim;
	float t;
	switch (op) {
	case INTR_load_tess_coord:
		t = r->in->tess_coord[3 * f + (k < 2 ? k : 0)];
		memcpy(v, &t, 4);
		return true;
	case INTR_load_rel_patch_id_ir3:
		*v = sim->s->stage == STAGE_TESS_EVAL ? f : 0;
		return true;
	case INTR_load_tcs_header_ir3:
		/* the invocation id in bits 11-15, the local primitive (the
		 * fibre's own inputs) from bit 16 (a650+) or 0 */
		*v = (uint32_t)f << 11 | (uint32_t)f << (sim->t->tess_use_shared ? 16 : 0);
		return true;
	default:
		return false;
	}
}

/* The lowered TES reads what its run read: the primitive params and map
 * from the const file, its patch, and the tess buffers after the global
 * memory (exec_check compares the global memory the source shader has).
 * (A lowered TCS writes its outputs to memory the run does not return:
 * it has none to compare.) */
void sim_stage_lowered_inputs(struct srun *r, struct interp_inputs *out)
{
	if (r->sim->s->stage != STAGE_TESS_EVAL || !r->tess_param.data)
		return;
	const struct ir3_const_layout *l = &r->sim->f->layout;
	out->primitive_params = &r->consts[l->primitive_param_vec4 * 4];
	out->num_primitive_params = 8;
	out->primitive_map = &r->consts[l->primitive_map_vec4 * 4];
	out->num_primitive_map = (l->size_vec4 - l->primitive_map_vec4) * 4;
	uint32_t *patch = arena_array(&r->arena, uint32_t, r->nf + 1);
	for (unsigned f = 0; f < r->nf; f++)
		patch[f] = f;
	out->rel_patch_id = patch;
	uint64_t base = out->global_base, param = r->tess_param.base - base;
	uint64_t factor = r->tess_factor.base - base, size = factor + r->tess_factor.size;
	uint8_t *g = arena_zalloc(&r->arena, size + 1);
	memcpy(g, out->global.data, out->global.size);
	memcpy(g + param, r->tess_param.data, r->tess_param.size);
	memcpy(g + factor, r->tess_factor.data, r->tess_factor.size);
	out->global = (struct interp_buffer){ g, (uint32_t)size };
}

void sim_stage_setup(struct srun *r)
{
	switch (r->sim->s->stage) {
	case STAGE_TESS_EVAL: tes_setup(r); return;
	case STAGE_TESS_CTRL: tcs_setup(r); return;
	default: return;
	}
}

void sim_stage_finish(struct srun *r)
{
	if (r->sim->s->stage == STAGE_TESS_CTRL && !r->stop)
		tcs_outputs(r);
}
