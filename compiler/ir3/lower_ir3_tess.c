/*
 * lower_ir3_tess: the stage I/O of tessellation and geometry shaders goes
 * through memory on Adreno, as Mesa's ir3_nir_lower_tess.c lowers it
 * (targets.md §2.1, ir3_nir_lower_variant: ir3_nir_lower_to_explicit_input,
 * ir3_nir_lower_tess_ctrl, ir3_nir_lower_tess_eval):
 *
 *	TCS, GS  per-vertex inputs (the VS's outputs) from local memory:
 *	         load_shared_ir3 (ldlw; ldl on a650+ TCS) at
 *	           local_primitive_id * vs_primitive_stride
 *	         + vertex * vs_vertex_stride + location(slot) + 16 * offset
 *	         + 4 * component                                    (bytes)
 *	TCS      outputs to the tess param buffer (ldg/stg, dwords):
 *	           rel_patch_id * hs_patch_stride + map(slot) + component
 *	           + 4 * vertex (per-vertex) — and the tessellation levels to
 *	         the tess factor buffer, rel_patch_id * (1 + inner + outer) + …;
 *	         the body runs under `if (invocation_id < vertices_out)`
 *	TES      per-vertex and patch inputs from the same buffers, the per-
 *	         vertex slot's place from the const file's primitive map
 *	invocation id  (header >> 11) & 31 of the TCS/GS header
 *
 * Clip and cull distances are one compact array, as Mesa's (the cull
 * distances after the clip distances, four floats a slot in slots 7 and 8:
 * ir3_io_place()); an indirect index into it addresses floats.
 *
 * One shader is compiled at a time (no linking), so the producer's layout
 * comes from the const file (load_primitive_param_ir3 / _location_ir3),
 * as the driver gives it.  The TCS's own output map is built here from
 * the slots it writes, Mesa's build_primitive_map.  Multiplications are
 * imul24 (mul.s24), as Mesa's.  Tessellation on a3xx–a5xx is compiled the
 * same way; Mesa 24.3 has no tessellation there (its ir3 crashes on those
 * shaders: mesa-ir3-dev.tsv), so those results are this model's alone.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

#include <string.h>

struct tess {
	struct shader *s;
	const struct ir3_lowering *t;
	struct builder b;
	struct ssa_def *header;		/* TCS/GS header */
	unsigned prim_start;		/* bit of the local primitive id in the header */
	unsigned map[IR3_MAX_MAP_SLOTS];/* TCS: each output slot's dword in a patch */
	unsigned inner, outer;		/* tess levels in the factor buffer */
};

int ir3_io_unique_index(const struct io_decl *d, unsigned elem)
{
	switch (d->builtin) {
	case BUILTIN_position: return 0;
	case BUILTIN_point_size: return 1;
	case BUILTIN_clip_distance: case BUILTIN_cull_distance: return 7 + (int)(elem > 0);
	case BUILTIN_layer: return 10;
	case BUILTIN_viewport: return 11;
	case BUILTIN_primitive_shading_rate: return 12;
	case BUILTIN_none:
		return d->location >= 0 && 13 + d->location + (int)elem < IR3_MAX_MAP_SLOTS
			       ? 13 + d->location + (int)elem : -1;
	default: return -1;
	}
}

unsigned ir3_io_compact_first(struct io_decl *const *decls, unsigned n, const struct io_decl *d)
{
	if (d->builtin != BUILTIN_cull_distance)
		return 0;
	for (unsigned k = 0; k < n; k++)
		if (decls[k]->builtin == BUILTIN_clip_distance && decls[k]->per_vertex == d->per_vertex)
			return decl_num_slots(decls[k]->array_size);
	return 0;
}

int ir3_io_place(struct io_decl *const *decls, unsigned n, const struct io_decl *d, unsigned elem,
		 unsigned *comp)
{
	if (!ir3_io_compact(d))
		return ir3_io_unique_index(d, elem);
	unsigned e = ir3_io_compact_first(decls, n, d) + elem + *comp;
	*comp = e % 4;
	return e < 8 ? 7 + (int)(e / 4) : -1;
}

static bool is_tess_level(const struct io_decl *d)
{
	return d->builtin == BUILTIN_tess_level_outer || d->builtin == BUILTIN_tess_level_inner;
}

static struct ssa_def *imm(struct builder *b, int64_t v) { return b_imm_int(b, v); }

static struct ssa_def *field(struct builder *b, struct ssa_def *v, unsigned start, unsigned mask)
{
	return b_iand(b, b_ushr(b, v, imm(b, start)), imm(b, mask));
}

static struct ssa_def *param(struct builder *b, unsigned which)
{
	return b_intr(b, load_primitive_param_ir3, 1, 32, (), .base = (int32_t)which);
}

/* A constant source's value, or false. */
static bool const_of(struct src *s, uint32_t *v)
{
	struct load_const_instr *lc = ssa_def_as_const(s->ssa);
	if (!lc || lc->instr.type != INSTR_load_const)
		return false;
	*v = (uint32_t)lc->value[0];
	return true;
}

/* ---- local memory (VS → TCS, VS/TES → GS): Mesa's build_local_offset ---- */

static struct ssa_def *location(struct builder *b, int index)
{
	return b_intr(b, load_primitive_location_ir3, 1, 32, (), .base = index < 0 ? 0 : index);
}

/* (A compact array indexed indirectly: its floats from slot 7 on, 16
 * bytes a slot, the producer's slots 7 and 8 one after the other.) */
static struct ssa_def *local_offset(struct tess *st, struct ssa_def *vertex,
				    const struct io_decl *d, unsigned comp, struct src *off)
{
	struct builder *b = &st->b;
	struct shader *s = st->s;
	uint32_t c = 0;
	bool direct = const_of(off, &c);
	struct ssa_def *prim = field(b, st->header, st->prim_start, 63);
	struct ssa_def *prim_off = b_imul24(b, prim, param(b, IR3_PP_VS_PRIMITIVE_STRIDE));
	struct ssa_def *vtx_off = b_imul24(b, vertex, param(b, IR3_PP_VS_VERTEX_STRIDE));
	struct ssa_def *attr;
	if (ir3_io_compact(d) && !direct) {
		unsigned first = ir3_io_compact_first(s->inputs, s->num_inputs, d);
		attr = b_iadd(b, b_iadd(b, location(b, 7), imm(b, 4 * (first + comp))),
			      b_ishl(b, off->ssa, imm(b, 2)));
	} else {
		unsigned at = comp;
		int index = ir3_io_place(s->inputs, s->num_inputs, d, direct ? c : 0, &at);
		attr = b_iadd(b, location(b, index), imm(b, 4 * at));
		if (!direct)
			attr = b_iadd(b, attr, b_ishl(b, off->ssa, imm(b, 4)));
	}
	return b_iadd(b, b_iadd(b, prim_off, vtx_off), attr);
}

/* The TCS's inputs and outputs are scalar, one access a component, as
 * Mesa's (ir3_nir_lower_variant runs nir_lower_io_to_scalar on the TCS's
 * in and out before ir3_nir_lower_tess_ctrl); the other stages' are
 * vectors. */
static unsigned io_width(const struct tess *st, unsigned n)
{
	return st->s->stage == STAGE_TESS_CTRL ? 1 : n;
}

static void lower_per_vertex_input(struct tess *st, struct intrinsic_instr *intr)
{
	const struct io_decl *d = st->s->inputs[intrinsic_get(intr, INTR_IDX_base)];
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	unsigned n = intr->def.num_components, w = io_width(st, n);
	struct ssa_def *c[16];
	for (unsigned k = 0; k < n; k += w) {
		struct ssa_def *off = local_offset(st, intr->src[0].ssa, d, comp + k, &intr->src[1]);
		c[k] = b_intr(&st->b, load_shared_ir3, w, intr->def.bit_size, (off), .base = 0);
	}
	ssa_def_rewrite_uses(&intr->def, w == n ? c[0] : b_vec(&st->b, c, n));
	instr_remove(&intr->instr);
}

/* ---- the tess buffers (TCS → TES): Mesa's build_per_vertex_offset ---- */

/* The dword of (decl, comp, off) for `vertex` (NULL: a patch slot). */
static struct ssa_def *buffer_offset(struct tess *st, struct ssa_def *vertex,
				     const struct io_decl *d, unsigned comp, struct src *off)
{
	struct builder *b = &st->b;
	struct ssa_def *patch_off = b_imul24(b, b_sysval(b, INTR_load_rel_patch_id_ir3),
					     param(b, IR3_PP_HS_PATCH_STRIDE));
	uint32_t c = 0;
	bool direct = const_of(off, &c);
	struct ssa_def *dyn = direct ? imm(b, 0) : b_ishl(b, off->ssa, imm(b, 2));
	struct ssa_def *attr, *vtx_off;
	if (vertex) {
		struct shader *s = st->s;
		bool tcs = s->stage == STAGE_TESS_CTRL;
		struct io_decl *const *decls = tcs ? s->outputs : s->inputs;
		unsigned n = tcs ? s->num_outputs : s->num_inputs;
		struct ssa_def *verts = tcs ? imm(b, s->info.vertices_out)
					    : param(b, IR3_PP_PATCH_VERTICES_IN);
		if (ir3_io_compact(d) && !direct) {
			/* float e of the compact array: component e % 4 of
			 * slot 7 + e / 4 (a slot is 4 × vertices dwords) */
			struct ssa_def *e = b_iadd(b, off->ssa,
						   imm(b, ir3_io_compact_first(decls, n, d) + comp));
			struct ssa_def *base = tcs ? imm(b, st->map[7]) : location(b, 7);
			attr = b_iadd(b, b_iadd(b, base, b_iand(b, e, imm(b, 3))),
				      b_imul24(b, b_ushr(b, e, imm(b, 2)), b_ishl(b, verts, imm(b, 2))));
		} else {
			unsigned at = comp;
			int index = ir3_io_place(decls, n, d, c, &at);
			attr = tcs ? imm(b, (index < 0 ? 0 : st->map[index]) + at)
				   : b_iadd(b, location(b, index), imm(b, at));
			attr = b_iadd(b, attr, b_imul24(b, dyn, verts));
		}
		vtx_off = b_ishl(b, vertex, imm(b, 2));
	} else {
		int loc = d->location < 0 ? 0 : d->location;
		attr = b_iadd(b, dyn, imm(b, (loc + c) * 4 + comp));
		vtx_off = imm(b, 0);
	}
	return b_iadd(b, b_iadd(b, patch_off, attr), vtx_off);
}

static struct ssa_def *buffer_base(struct builder *b, bool factors)
{
	unsigned lo = factors ? IR3_PP_TESS_FACTOR_BASE : IR3_PP_TESS_PARAM_BASE;
	return b_vec2(b, param(b, lo), param(b, lo + 1));
}

/* The tess factor buffer: primitive id, outer levels, inner levels per
 * patch (Mesa's build_tessfactor_base). */
static struct ssa_def *factor_offset(struct tess *st, const struct io_decl *d, unsigned comp)
{
	struct builder *b = &st->b;
	unsigned stride = 1 + st->inner + st->outer;
	unsigned at = d->builtin == BUILTIN_tess_level_outer ? 1 : 1 + st->outer;
	return b_iadd(b, b_imul24(b, b_sysval(b, INTR_load_rel_patch_id_ir3), imm(b, stride)),
		      imm(b, at + comp));
}

static void replace_load(struct intrinsic_instr *intr, struct ssa_def *v)
{
	ssa_def_rewrite_uses(&intr->def, v);
	instr_remove(&intr->instr);
}

static struct ssa_def *load_buffer(struct tess *st, struct intrinsic_instr *intr, bool factors,
				   struct ssa_def *off)
{
	return b_intr(&st->b, load_global_ir3, intr->def.num_components, intr->def.bit_size,
		      (buffer_base(&st->b, factors), off));
}

/* A load from the tess param buffer of `vertex`'s (NULL: the patch's)
 * slot, whole or a component at a time (io_width()). */
static void lower_buffer_load(struct tess *st, struct intrinsic_instr *intr,
			      const struct io_decl *d, struct ssa_def *vertex, struct src *off)
{
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	unsigned n = intr->def.num_components, w = io_width(st, n);
	struct ssa_def *c[16];
	for (unsigned k = 0; k < n; k += w)
		c[k] = b_intr(&st->b, load_global_ir3, w, intr->def.bit_size,
			      (buffer_base(&st->b, false), buffer_offset(st, vertex, d, comp + k, off)));
	replace_load(intr, w == n ? c[0] : b_vec(&st->b, c, n));
}

/* load_input/load_output of a patch slot or a tess level (TES, TCS). */
static void lower_patch_load(struct tess *st, struct intrinsic_instr *intr,
			     const struct io_decl *d)
{
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	if (!is_tess_level(d)) {
		lower_buffer_load(st, intr, d, NULL, &intr->src[0]);
		return;
	}
	/* one ldg per level, as Mesa's scalar tess level loads */
	struct ssa_def *c[4];
	unsigned n = intr->def.num_components;
	for (unsigned k = 0; k < n; k++)
		c[k] = b_intr(&st->b, load_global_ir3, 1, intr->def.bit_size,
			      (buffer_base(&st->b, true), factor_offset(st, d, comp + k)));
	replace_load(intr, b_vec(&st->b, c, n));
}

/* Contiguous runs of a write mask (stores must be whole, Mesa asserts). */
static unsigned next_run(unsigned mask, unsigned from, unsigned *len)
{
	while (from < 4 && !(mask & (1u << from)))
		from++;
	*len = 0;
	while (from + *len < 4 && (mask & (1u << (from + *len))))
		(*len)++;
	return from;
}

static struct ssa_def *value_part(struct builder *b, struct ssa_def *v, unsigned from, unsigned n)
{
	if (from == 0 && n == v->num_components)
		return v;
	unsigned sw[4];
	for (unsigned k = 0; k < n; k++)
		sw[k] = from + k;
	return b_swizzle(b, v, sw, n);
}

static void store_buffer(struct tess *st, struct ssa_def *v, bool factors, struct ssa_def *off)
{
	b_intr(&st->b, store_global_ir3, v->num_components, 0, (v, buffer_base(&st->b, factors), off),
	       .write_mask = (int32_t)((1u << v->num_components) - 1));
}

/* store_output (patch slots, tess levels) and store_per_vertex_output. */
static void lower_tcs_store(struct tess *st, struct intrinsic_instr *intr, bool per_vertex)
{
	struct builder *b = &st->b;
	const struct io_decl *d = st->s->outputs[intrinsic_get(intr, INTR_IDX_base)];
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	struct ssa_def *v = intr->src[0].ssa;
	struct src *off = &intr->src[per_vertex ? 2 : 1];
	unsigned len;
	for (unsigned k = next_run(mask, 0, &len); len; k = next_run(mask, k + len, &len)) {
		if (per_vertex || !is_tess_level(d)) {
			unsigned w = io_width(st, len);
			for (unsigned e = k; e < k + len; e += w) {
				struct ssa_def *o = buffer_offset(
					st, per_vertex ? intr->src[1].ssa : NULL, d, comp + e, off);
				store_buffer(st, value_part(b, v, e, w), false, o);
			}
			continue;
		}
		/* levels beyond the primitive's count are dropped (Mesa's guard) */
		unsigned levels = d->builtin == BUILTIN_tess_level_outer ? st->outer : st->inner;
		uint32_t c;
		bool direct = const_of(off, &c);
		for (unsigned e = k; e < k + len; e++) {
			if (direct && c + comp + e >= levels)
				continue;
			struct cf_if *nif = NULL;
			if (!direct)
				nif = b_push_if(b, b_ult(b, b_iadd(b, off->ssa, imm(b, comp + e)),
							 imm(b, levels)));
			struct ssa_def *o = factor_offset(st, d, comp + e);
			if (!direct)
				o = b_iadd(b, off->ssa, o);
			store_buffer(st, value_part(b, v, e, 1), true, o);
			if (nif)
				b_pop_if(b, nif);
		}
	}
	instr_remove(&intr->instr);
}

void ir3_tess_level_counts(enum primitive p, unsigned *inner, unsigned *outer)
{
	switch (p) {
	case PRIM_quads: *inner = 2; *outer = 4; break;
	case PRIM_isolines: *inner = 0; *outer = 2; break;
	default: *inner = 1; *outer = 3; break;	/* triangles (and unknown) */
	}
}

/* Varying-slot order of a declaration (gl_varying_slot: position, clip
 * distances, point size … generic locations last), for the output map. */
static int slot_order(const struct io_decl *d)
{
	switch (d->builtin) {
	case BUILTIN_position: return 0;
	case BUILTIN_point_size: return 12;
	case BUILTIN_clip_distance: return 17;
	case BUILTIN_cull_distance: return 19;
	case BUILTIN_layer: return 22;
	case BUILTIN_viewport: return 23;
	case BUILTIN_primitive_shading_rate: return 24;
	case BUILTIN_none: return 32 + d->location;
	default: return 1000;
	}
}

unsigned ir3_tcs_output_map(const struct shader *s, unsigned *map)
{
	unsigned patch_end = 0;
	for (unsigned k = 0; k < s->num_outputs; k++) {
		const struct io_decl *d = s->outputs[k];
		if (d->patch && !is_tess_level(d) && d->location >= 0) {
			unsigned end = (unsigned)d->location + decl_num_slots(d->array_size);
			if (end > patch_end)
				patch_end = end;
		}
	}
	unsigned size = s->info.vertices_out * 4, loc = patch_end * 4;
	bool placed[IR3_MAX_MAP_SLOTS] = { false };
	for (int order = 0; order < 1000; order++)
		for (unsigned k = 0; k < s->num_outputs; k++) {
			const struct io_decl *d = s->outputs[k];
			if (d->patch || slot_order(d) != order)
				continue;
			for (unsigned e = 0; e < decl_num_slots(d->array_size); e++) {
				unsigned comp = 0;
				int index = ir3_io_place(s->outputs, s->num_outputs, d, e, &comp);
				if (index >= 0 && !placed[index]) {
					placed[index] = true;
					map[index] = loc;
					loc += size;
				}
			}
		}
	return loc;
}

/* Move the whole body under `if (invocation_id < vertices_out)` (Mesa's
 * ir3_nir_lower_tess_ctrl: invocations past the output patch size do
 * nothing). */
static void guard_body(struct tess *st)
{
	struct shader *s = st->s;
	struct function *fn = s->fn;
	struct block *first = function_start_block(fn);
	struct builder *b = &st->b;
	builder_init(b, s, cursor_before_block(first));
	struct ssa_def *h = b_sysval(b, INTR_load_tcs_header_ir3);
	struct ssa_def *cond = b_ult(b, field(b, h, 11, 31), imm(b, s->info.vertices_out));
	/* the if goes before `first`, which keeps everything after the
	 * condition: move it and the rest of the body into the then branch */
	struct cf_if *nif = cf_insert_if(cursor_after_instr(cond->parent), cond);
	struct cf_node *then_block = cf_node_of(list_first(&nif->then_list));
	list_del(&then_block->link);
	struct list_node *n = nif->cf.link.next;
	while (!list_is_head(&fn->body, n)) {
		struct list_node *next = n->next;
		struct cf_node *node = cf_node_of(n);
		list_del(n);
		list_add_tail(&nif->then_list, n);
		node->parent = &nif->cf;
		node->list = &nif->then_list;
		n = next;
	}
	cf_append_block(fn, &fn->body, &fn->cf);
	function_cfg_stale(fn);
}

static bool lower_instr(struct tess *st, struct intrinsic_instr *intr)
{
	struct shader *s = st->s;
	enum shader_stage stage = s->stage;
	builder_init(&st->b, s, cursor_before_instr(&intr->instr));
	switch (intr->op) {
	case INTR_load_per_vertex_input:
		if (stage == STAGE_TESS_EVAL) {
			const struct io_decl *d = s->inputs[intrinsic_get(intr, INTR_IDX_base)];
			unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
			replace_load(intr, load_buffer(st, intr, false,
						       buffer_offset(st, intr->src[0].ssa, d, comp,
								     &intr->src[1])));
		} else {
			lower_per_vertex_input(st, intr);
		}
		return true;
	case INTR_load_invocation_id:
		replace_load(intr, field(&st->b, st->header, 11, 31));
		return true;
	case INTR_load_input:
		if (stage != STAGE_TESS_EVAL)
			return false;
		lower_patch_load(st, intr, s->inputs[intrinsic_get(intr, INTR_IDX_base)]);
		return true;
	case INTR_load_output:
		if (stage != STAGE_TESS_CTRL)
			return false;
		lower_patch_load(st, intr, s->outputs[intrinsic_get(intr, INTR_IDX_base)]);
		return true;
	case INTR_load_per_vertex_output:
		lower_buffer_load(st, intr, s->outputs[intrinsic_get(intr, INTR_IDX_base)],
				  intr->src[0].ssa, &intr->src[1]);
		return true;
	case INTR_store_output:
		if (stage != STAGE_TESS_CTRL)
			return false;
		lower_tcs_store(st, intr, false);
		return true;
	case INTR_store_per_vertex_output:
		lower_tcs_store(st, intr, true);
		return true;
	case INTR_load_patch_vertices_in:
		replace_load(intr, param(&st->b, IR3_PP_PATCH_VERTICES_IN));
		return true;
	default:
		return false;
	}
}

bool lower_ir3_tess(struct shader *s, const struct ir3_lowering *t)
{
	enum shader_stage stage = s->stage;
	if (stage != STAGE_TESS_CTRL && stage != STAGE_TESS_EVAL && stage != STAGE_GEOMETRY)
		return shader_progress(s, false, META_ALL);
	struct tess st = { .s = s, .t = t };
	ir3_tess_level_counts(s->info.tess_primitive, &st.inner, &st.outer);
	struct block *first = function_start_block(s->fn);
	builder_init(&st.b, s, cursor_before_block(first));
	if (stage == STAGE_TESS_CTRL) {
		st.header = b_sysval(&st.b, INTR_load_tcs_header_ir3);
		st.prim_start = t->tess_use_shared ? 16 : 0;
		ir3_tcs_output_map(s, st.map);
	} else if (stage == STAGE_GEOMETRY) {
		st.header = b_sysval(&st.b, INTR_load_gs_header_ir3);
	}
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk)
			if (in->type == INSTR_intrinsic)
				lower_instr(&st, instr_as_intrinsic(in));
	if (stage == STAGE_TESS_CTRL)
		guard_body(&st);
	return shader_progress(s, true, 0);
}
