/*
 * The stage interfaces that go through memory (lower_ir3_tess.c,
 * lower_ir3_gs.c): the
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

/* The primitive map of the per-vertex inputs: `first` + n × `size` for
 * the n-th slot they take, in slot order (Mesa's build_primitive_map);
 * the slots taken, or -1 (an input without a place). */
static int input_map(struct srun *r, unsigned *map, unsigned first, unsigned size)
{
	const struct shader *s = r->sim->s;
	bool used[IR3_MAX_MAP_SLOTS] = { false };
	for (unsigned k = 0; k < s->num_inputs; k++) {
		const struct io_decl *d = s->inputs[k];
		for (unsigned e = 0; d->per_vertex && e < decl_num_slots(d->array_size); e++) {
			unsigned comp = d->component;
			int index = ir3_io_place(s->inputs, s->num_inputs, d, e, &comp);
			if (index < 0 || index >= IR3_MAX_MAP_SLOTS) {
				sim_error(r, "a per-vertex input without a place in the primitive map");
				return -1;
			}
			used[index] = true;
		}
	}
	int slots = 0;
	for (unsigned i = 0; i < IR3_MAX_MAP_SLOTS; i++)
		if (used[i])
			map[i] = first + (unsigned)slots++ * size;
	return slots;
}

/* The slot's place in `map` (dwords, or bytes: `unit` a dword) and the
 * dword in it of component c of element e of per-vertex input `d`. */
static unsigned map_dword(const struct shader *s, const unsigned *map, unsigned unit,
			  const struct io_decl *d, unsigned e, unsigned c)
{
	unsigned comp = d->component + c;
	int index = ir3_io_place(s->inputs, s->num_inputs, d, e, &comp);
	return map[index] / unit + comp;
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
	int slots = input_map(r, map, patch_end * 4, verts * 4);
	if (slots < 0)
		return;
	unsigned stride = patch_end * 4 + (unsigned)slots * verts * 4;
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
									 map_dword(s, map, 1, d, e, c) +
									 4 * v, x);
						else if (d->patch && d->location >= 0)
							put_word(&r->tess_param,
								 (uint64_t)f * stride +
									 ((unsigned)d->location + e) * 4 + comp, x);
					}
		}
}

/* ---- TCS, GS: the previous stage's outputs in local memory ---- */

/* Lane l's per-vertex inputs as local primitive l of the VS's (or TES's)
 * output: 16 bytes a slot, one vertex after the other, a primitive of
 * in->num_vertices vertices per lane (Mesa's stride layout). */
static bool local_inputs(struct srun *r)
{
	const struct shader *s = r->sim->s;
	const struct interp_inputs *in = r->in;
	if (!words_only(r, s->inputs, s->num_inputs))
		return false;
	unsigned map[IR3_MAX_MAP_SLOTS] = { 0 };
	int slots = input_map(r, map, 0, 16);
	if (slots < 0)
		return false;
	unsigned verts = in->num_vertices, vstride = 16 * (slots ? (unsigned)slots : 1);
	set_map(r, map);
	set_param(r, IR3_PP_VS_PRIMITIVE_STRIDE, verts * vstride);
	set_param(r, IR3_PP_VS_VERTEX_STRIDE, vstride);
	set_param(r, IR3_PP_PATCH_VERTICES_IN, verts);
	uint32_t size = in->num_lanes * verts * vstride;
	if (size < r->shared.size)
		size = r->shared.size;
	sim_mem_region(r, &r->shared, size, 0, true);
	for (unsigned l = 0; l < in->num_lanes; l++)
		for (unsigned k = 0; k < s->num_inputs; k++) {
			const struct io_decl *d = s->inputs[k];
			for (unsigned e = 0; d->per_vertex && e < decl_num_slots(d->array_size); e++)
				for (unsigned v = 0; v < verts; v++)
					for (unsigned c = 0; c < d->num_components; c++)
						put_word(&r->shared,
							 ((uint64_t)l * verts * vstride + v * vstride) / 4 +
								 map_dword(s, map, 4, d, e, c),
							 in->input[k][interp_input_index(in, d, l, v, e, c)]);
		}
	return true;
}

static void tcs_setup(struct srun *r)
{
	const struct shader *s = r->sim->s;
	if (!words_only(r, s->outputs, s->num_outputs) || !local_inputs(r))
		return;
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
					unsigned comp = d->component + c, at = comp;
					int index = ir3_io_place(s->outputs, s->num_outputs, d, e, &at);
					if (is_tess_level(d) && e + comp < levels(r->sim, d))
						get_word(r, &r->tess_factor,
							 factor_dword(r->sim, d, 0, e + comp), k, x);
					else if (!d->patch && index >= 0)
						get_word(r, &r->tess_param, omap[index] + at + 4 * v, k, x);
					else if (d->patch && d->location >= 0)
						get_word(r, &r->tess_param, ((unsigned)d->location + e) * 4 + comp,
							 k, x);
				}
	}
}

/* ---- GS ---- */

/*
 * lower_ir3_gs: the hardware runs a fibre per output vertex of each
 * invocation (lane l's vertex v is fibre l·vertices_out + v, its header's
 * local thread id v); fibre v keeps the outputs of the v-th emit_vertex,
 * with vertex_flags (the stream; 4: a primitive starts at it), and the
 * fibres of vertices never emitted are killed.  The lanes' vertices are
 * read back from the fibres that ended, in order.
 */
static void gs_setup(struct srun *r)
{
	const struct shader *s = r->sim->s;
	if (!local_inputs(r))
		return;
	r->gs_local = arena_alloc(&r->arena, r->shared.size + 1);
	memcpy(r->gs_local, r->shared.data, r->shared.size);
	r->outs = arena_array(&r->arena, struct interp_output, s->num_outputs + 1);
	for (unsigned o = 0; o < s->num_outputs; o++) {
		const struct interp_output *lo = &r->res->outputs[o];
		size_t per_lane = lo->count / (lo->lanes ? lo->lanes : 1);
		struct interp_output *fo = &r->outs[o];
		fo->lanes = r->nf;
		fo->vertices = lo->vertices;
		fo->count = per_lane * r->nf;
		fo->vals = arena_array(&r->arena, uint64_t, fo->count + 1);
		fo->tags = arena_alloc(&r->arena, fo->count + 1);
		memset(fo->tags, INTERP_TAG_POISON, fo->count);
	}
	r->gs_flags = arena_array(&r->arena, uint32_t, r->nf);
	r->gs_flags_poison = arena_alloc(&r->arena, r->nf);
	memset(r->gs_flags_poison, 1, r->nf);
}

bool sim_stage_output(struct srun *r, unsigned f, unsigned decl, struct sval v)
{
	/* lower_ir3_gs adds vertex_flags after the source's outputs */
	if (!r->gs_verts || decl != r->sim->s->num_outputs)
		return false;
	r->gs_flags[f] = v.bits;
	r->gs_flags_poison[f] = v.poison;
	return true;
}

/* What the fibres of a geometry shader left: their outputs (a lane per
 * fibre), whether each ended (its vertex emitted) and its vertex_flags. */
struct gs_fibres {
	unsigned lanes, verts;
	const struct interp_output *outs;
	const uint8_t *ended, *flags_poison;
	const uint32_t *flags;
};

static void add_event(struct interp_result *res, const struct gs_fibres *g, unsigned lane,
		      unsigned f, bool end, unsigned stream)
{
	unsigned n = res->num_gs_events;
	res->gs_events = arena_realloc(&res->arena, res->gs_events, n * sizeof(*res->gs_events),
				       (n + 1) * sizeof(*res->gs_events));
	struct interp_gs_event *e = &res->gs_events[res->num_gs_events++];
	*e = (struct interp_gs_event){ .lane = lane, .end_primitive = end, .stream = stream };
	if (end)
		return;
	e->outputs = arena_array(&res->arena, struct interp_output, res->num_outputs + 1);
	for (unsigned o = 0; o < res->num_outputs; o++) {
		const struct interp_output *fo = &g->outs[o];
		size_t per = fo->count / fo->lanes;
		struct interp_output *d = &e->outputs[o];
		*d = (struct interp_output){ .lanes = 1, .vertices = fo->vertices, .count = per };
		d->vals = arena_array(&res->arena, uint64_t, per + 1);
		d->tags = arena_alloc(&res->arena, per + 1);
		memcpy(d->vals, fo->vals + per * f, per * sizeof(uint64_t));
		memcpy(d->tags, fo->tags + per * f, per);
	}
}

/* The lanes' events into `res` in the canonical form interp_compare()
 * reads (a cut only before a vertex that follows one of its stream), the
 * fibre of each in `fibre` (or NULL); -1, or the first fibre whose
 * vertex_flags are undefined. */
static int gs_events(struct interp_result *res, const struct gs_fibres *g, struct arena *a,
		     unsigned **fibre)
{
	for (unsigned l = 0; l < g->lanes; l++) {
		bool seen[4] = { false };
		for (unsigned v = 0; v < g->verts; v++) {
			unsigned f = l * g->verts + v;
			if (!g->ended[f])
				continue;
			if (g->flags_poison[f])
				return (int)f;
			unsigned stream = g->flags[f] & 3;
			for (int end = (g->flags[f] & 4) && seen[stream]; end >= 0; end--) {
				if (fibre) {
					unsigned n = res->num_gs_events;
					*fibre = arena_realloc(a, *fibre, n * sizeof(unsigned),
							       (n + 1) * sizeof(unsigned));
					(*fibre)[n] = f;
				}
				add_event(res, g, l, f, end, stream);
			}
			seen[stream] = true;
		}
	}
	return -1;
}

static void gs_finish(struct srun *r)
{
	uint8_t *ended = arena_alloc(&r->arena, r->nf);
	for (unsigned f = 0; f < r->nf; f++)
		ended[f] = r->state[f] == FIBRE_ENDED;
	struct gs_fibres g = { r->in->num_lanes, r->gs_verts, r->outs, ended, r->gs_flags_poison,
			       r->gs_flags };
	int bad = gs_events(r->res, &g, &r->arena, &r->gs_event_fibre);
	if (bad >= 0)
		sim_stop(r, "lane %u vertex %u: its vertex_flags are undefined",
			 (unsigned)bad / r->gs_verts, (unsigned)bad % r->gs_verts);
}

/* The lowered geometry shader's run (a lane per fibre, vertex_flags its
 * last output) as the source's result: the lanes' vertices. */
static void gs_lowered_result(struct srun *r, struct interp_result *run)
{
	const struct shader *s = r->sim->s;
	if (run->num_lanes != r->nf || run->num_outputs != s->num_outputs + 1)
		return;
	const struct interp_output *fl = &run->outputs[s->num_outputs];
	uint8_t *ended = arena_alloc(&run->arena, r->nf), *poison = arena_alloc(&run->arena, r->nf);
	uint32_t *flags = arena_array(&run->arena, uint32_t, r->nf);
	for (unsigned f = 0; f < r->nf; f++) {
		ended[f] = run->fate[f] == LANE_LIVE;
		flags[f] = f < fl->count ? (uint32_t)fl->vals[f] : 0;
		poison[f] = f >= fl->count || (fl->tags[f] & INTERP_TAG_POISON);
	}
	struct gs_fibres g = { r->in->num_lanes, r->gs_verts, run->outputs, ended, poison, flags };
	const struct interp_result *shape = r->res;
	run->num_lanes = shape->num_lanes;
	run->fate = arena_array(&run->arena, uint8_t, shape->num_lanes);
	run->num_outputs = s->num_outputs;
	if (gs_events(run, &g, &run->arena, NULL) >= 0) {
		run->status = INTERP_UNDEFINED;
		run->message = arena_strdup(&run->arena, "a vertex_flags output is undefined");
	}
	/* the outputs at the end are not results: poison */
	struct interp_output *outs = arena_array(&run->arena, struct interp_output,
						 s->num_outputs + 1);
	for (unsigned o = 0; o < s->num_outputs; o++) {
		outs[o] = shape->outputs[o];
		outs[o].vals = arena_array(&run->arena, uint64_t, outs[o].count + 1);
		outs[o].tags = arena_alloc(&run->arena, outs[o].count + 1);
		memset(outs[o].tags, INTERP_TAG_POISON, outs[o].count);
	}
	run->outputs = outs;
}

int sim_stage_event_fibre(const struct srun *r, unsigned lane, int event)
{
	for (unsigned i = 0; i < r->res->num_gs_events && r->gs_event_fibre; i++)
		if (r->res->gs_events[i].lane == lane && event-- == 0)
			return (int)r->gs_event_fibre[i];
	return -1;
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
	case INTR_load_gs_header_ir3: {
		/* the local thread id (the vertex) in bits 16-25, the invocation
		 * id in bits 11-15, the local primitive (the lane's own inputs)
		 * from bit 0 */
		unsigned lane = f / r->gs_verts, vertex = f % r->gs_verts;
		*v = (uint32_t)vertex << 16 | (uint32_t)lane << 11 | lane;
		return true;
	}
	default:
		return false;
	}
}

/* The lowered TES reads what its run read: the primitive params and map
 * from the const file, its patch, and the tess buffers after the global
 * memory (exec_check compares the global memory the source shader has).
 * (A lowered TCS writes its outputs to memory the run does not return:
 * it has none to compare.)  The lowered GS: gs_lowered_inputs(). */
static void lowered_params(struct srun *r, struct interp_inputs *out)
{
	const struct ir3_const_layout *l = &r->sim->f->layout;
	out->primitive_params = &r->consts[l->primitive_param_vec4 * 4];
	out->num_primitive_params = 8;
	out->primitive_map = &r->consts[l->primitive_map_vec4 * 4];
	out->num_primitive_map = (l->size_vec4 - l->primitive_map_vec4) * 4;
}

/* The lowered GS runs a lane per fibre, with its header, on the local
 * memory the run started with; it reads no stage input of its own. */
static void gs_lowered_inputs(struct srun *r, struct interp_inputs *out)
{
	const struct shader *s = r->sim->s;
	lowered_params(r, out);
	out->num_lanes = r->nf;
	uint32_t *header = arena_array(&r->arena, uint32_t, r->nf + 1);
	for (unsigned f = 0; f < r->nf; f++)
		sim_stage_sysval(r, INTR_load_gs_header_ir3, f, 0, &header[f]);
	out->header = header;
	out->shared = (struct interp_buffer){ r->gs_local, r->shared.size };
	out->input = arena_array(&r->arena, uint64_t *, s->num_inputs + 1);
	out->input_count = arena_array(&r->arena, size_t, s->num_inputs + 1);
	for (unsigned k = 0; k < s->num_inputs; k++) {
		const struct io_decl *d = s->inputs[k];
		out->input_count[k] = (size_t)(d->patch ? 1 : r->nf) *
				      (d->per_vertex ? out->num_vertices : 1) *
				      decl_num_slots(d->array_size) * d->num_components;
		out->input[k] = arena_array(&r->arena, uint64_t, out->input_count[k] + 1);
	}
}

void sim_stage_lowered_inputs(struct srun *r, struct interp_inputs *out)
{
	if (r->sim->s->stage == STAGE_GEOMETRY && r->gs_local) {
		gs_lowered_inputs(r, out);
		return;
	}
	if (r->sim->s->stage != STAGE_TESS_EVAL || !r->tess_param.data)
		return;
	lowered_params(r, out);
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

void sim_stage_lowered_result(struct srun *r, struct interp_result *run)
{
	if (r->sim->s->stage == STAGE_GEOMETRY)
		gs_lowered_result(r, run);
}

unsigned sim_stage_fibres(const struct ir3_sim *sim, const struct interp_inputs *in)
{
	if (sim->s->stage != STAGE_GEOMETRY)
		return in->num_lanes;
	unsigned v = sim->s->info.vertices_out;
	return in->num_lanes * (v ? v : 1);
}

void sim_stage_setup(struct srun *r)
{
	switch (r->sim->s->stage) {
	case STAGE_TESS_EVAL: tes_setup(r); return;
	case STAGE_TESS_CTRL: tcs_setup(r); return;
	case STAGE_GEOMETRY: gs_setup(r); return;
	default: return;
	}
}

void sim_stage_finish(struct srun *r)
{
	if (r->stop)
		return;
	if (r->sim->s->stage == STAGE_TESS_CTRL)
		tcs_outputs(r);
	if (r->sim->s->stage == STAGE_GEOMETRY)
		gs_finish(r);
}
