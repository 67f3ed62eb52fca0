/*
 * ir3_nir_analyze_ubo_ranges: UBO loads at constant offsets are read from
 * the const file, where the driver uploads those ranges, instead of with
 * ldc/ldg (Mesa's ir3_nir_analyze_ubo_ranges + ir3_nir_lower_ubo_loads),
 * and the const file's layout is fixed here (ir3_setup_const_state; the
 * layout is described in ir3_nir.h).
 *
 * Ranges: each load_ubo with a constant buffer index and offset needs the
 * bytes [start, end) of its buffer aligned to the const upload unit (4 vec4,
 * 8 on a3xx: Mesa's get_ubo_load_range with const_upload_unit); one at a
 * dynamic offset, the bytes its range_base and range bound (an array of
 * known length; none: it stays a load from memory); ranges of a buffer
 * that overlap or touch merge.  They are placed in the order they
 * were found, after the push constants (from a multiple of the upload
 * unit, as Mesa's ubo offset), while they fit under the stage's const
 * size (Mesa's ir3_max_const(): max_const_frag, _compute or _geom vec4;
 * max_const_safe only for a variant recompiled to fit a pipeline's
 * limit, which a shader compiled alone is not), less what the rest of the
 * layout takes (Mesa also keeps room for immediates), the preamble's values
 * included: ir3_nir_opt_preamble ran first and took its room, which follows
 * the ranges (Mesa's preamble_base).  A pushed load becomes
 *
 *	load_uniform 0 base=<byte offset in the const file>
 *
 * and load_push_constant becomes load_uniform over the same bytes.
 */
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"
#include "compiler/opt/opt_util.h"

static bool const_src(struct src *s, uint32_t *v)
{
	struct load_const_instr *lc = ssa_def_as_const(s->ssa);
	if (!lc || lc->instr.type != INSTR_load_const)
		return false;
	*v = (uint32_t)lc->value[0];
	return true;
}

/* The range a direct load needs, or false; the constant data's loads need
 * the whole of it, whatever their offset (Mesa knows a load_constant's
 * range). */
static bool load_range(const struct ir3_const_layout *l, struct intrinsic_instr *intr,
		       unsigned unit, unsigned *slot, unsigned *start, unsigned *end)
{
	unsigned align = unit * 16;
	uint32_t s, o;
	if (intr->op != INTR_load_ubo || !const_src(&intr->src[0], &s))
		return false;
	if ((int)s == l->const_data_slot && !const_src(&intr->src[1], &o)) {
		*slot = s;
		*start = 0;
		*end = (l->const_data_size + align - 1) / align * align;
		return true;
	}
	unsigned bytes = intr->num_components * intr->def.bit_size / 8;
	if (!const_src(&intr->src[1], &o)) {
		/* a dynamic offset within the bytes the front end bounded (an
		 * array of known length: Mesa's range_base and range) */
		uint32_t rb = (uint32_t)intrinsic_get(intr, INTR_IDX_range_base);
		uint32_t rn = (uint32_t)intrinsic_get(intr, INTR_IDX_range);
		if (!rn)
			return false;
		o = rb;
		bytes = rn;
	}
	*slot = s;
	*start = o / align * align;
	*end = (o + bytes + align - 1) / align * align;
	return true;
}

/* A range that grew may now touch later ones of its buffer: they merge
 * into it, the last range taking the freed place (Mesa's merge_neighbors). */
static void merge_neighbors(struct ir3_const_layout *l, unsigned k)
{
	struct ir3_ubo_range *a = &l->ranges[k];
	for (unsigned j = k + 1; j < l->num_ranges; j++) {
		struct ir3_ubo_range *b = &l->ranges[j];
		if (b->slot != a->slot || a->start > b->end || a->end < b->start)
			continue;
		a->start = b->start < a->start ? b->start : a->start;
		a->end = b->end > a->end ? b->end : a->end;
		*b = l->ranges[--l->num_ranges];
	}
}

static void add_range(struct ir3_const_layout *l, unsigned slot, unsigned start, unsigned end)
{
	for (unsigned k = 0; k < l->num_ranges; k++) {
		struct ir3_ubo_range *r = &l->ranges[k];
		if (r->slot == slot && start <= r->end && end >= r->start) {
			r->start = start < r->start ? start : r->start;
			r->end = end > r->end ? end : r->end;
			merge_neighbors(l, k);
			return;
		}
	}
	if (l->num_ranges < IR3_MAX_UBO_RANGES)
		l->ranges[l->num_ranges++] = (struct ir3_ubo_range){ slot, start, end, 0 };
}

/* The range holding a load, or NULL when it was not pushed. */
static const struct ir3_ubo_range *find(const struct ir3_const_layout *l, unsigned slot,
					 unsigned start, unsigned end)
{
	for (unsigned k = 0; k < l->num_ranges; k++) {
		const struct ir3_ubo_range *r = &l->ranges[k];
		if (r->slot == slot && r->start <= start && end <= r->end && r->offset != ~0u)
			return r;
	}
	return NULL;
}

int ir3_driver_param(enum shader_stage stage, enum intrinsic op, bool shared_regfile)
{
	switch (op) {
	case INTR_load_workgroup_id:
		/* Mesa's emit_intrinsic: "For a3xx/a4xx, this comes in via const
		 * injection by the hw" */
		return stage == STAGE_COMPUTE && !shared_regfile ? IR3_DP_WORKGROUP_ID_X : -1;
	case INTR_load_draw_id: return stage == STAGE_VERTEX ? IR3_DP_DRAWID : -1;
	case INTR_load_base_vertex: return stage == STAGE_VERTEX ? IR3_DP_VTXID_BASE : -1;
	case INTR_load_base_instance: return stage == STAGE_VERTEX ? IR3_DP_INSTID_BASE : -1;
	case INTR_load_num_workgroups: return stage == STAGE_COMPUTE ? IR3_DP_NUM_WORK_GROUPS_X : -1;
	case INTR_load_subgroup_size:
		return stage == STAGE_COMPUTE ? IR3_DP_CS_SUBGROUP_SIZE
		       : stage == STAGE_FRAGMENT ? IR3_DP_FS_SUBGROUP_SIZE : -1;
	case INTR_load_subgroup_id: case INTR_load_num_subgroups:
		return stage == STAGE_COMPUTE ? IR3_DP_SUBGROUP_ID_SHIFT : -1;
	case INTR_load_frag_size: return stage == STAGE_FRAGMENT ? IR3_DP_FS_FRAG_SIZE : -1;
	case INTR_load_frag_invocation_count:
		return stage == STAGE_FRAGMENT ? IR3_DP_FS_FRAG_INVOCATION_COUNT : -1;
	default: return -1;
	}
}

/* The highest end (in dwords) `end_of` gives over the shader's intrinsics. */
static unsigned max_end(struct shader *s, const struct ir3_lowering *t,
			unsigned (*end_of)(const struct shader *, const struct ir3_lowering *,
					   const struct intrinsic_instr *))
{
	unsigned n = 0;
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			if (in->type != INSTR_intrinsic)
				continue;
			unsigned end = end_of(s, t, instr_as_intrinsic(in));
			if (end > n)
				n = end;
		}
	return n;
}

/* past the driver param it reads (3 more for a vector one), or 0 */
static unsigned driver_param_end(const struct shader *s, const struct ir3_lowering *t,
				 const struct intrinsic_instr *intr)
{
	int dp = ir3_driver_param(s->stage, intr->op, t->has_shared_regfile);
	return dp < 0 ? 0 : (unsigned)dp + intr->def.num_components;
}

/* past the preamble's value it reads or writes (load/store_preamble), or 0 */
static unsigned preamble_end(const struct shader *s, const struct ir3_lowering *t,
			     const struct intrinsic_instr *intr)
{
	(void)s;
	(void)t;
	if (intr->op == INTR_load_preamble)
		return (unsigned)intrinsic_get(intr, INTR_IDX_base) + intr->def.num_components;
	if (intr->op == INTR_store_preamble)
		return (unsigned)intrinsic_get(intr, INTR_IDX_base) + intr->src[0].ssa->num_components;
	return 0;
}

/* TCS/TES: 2 vec4 of params, GS: 1; then the primitive map, as large as
 * the highest input slot it locates (Mesa's ir3_setup_const_state). */
static void primitive_block(struct shader *s, struct ir3_const_layout *l, unsigned *at)
{
	unsigned params = s->stage == STAGE_GEOMETRY ? 1 :
			  s->stage == STAGE_TESS_CTRL || s->stage == STAGE_TESS_EVAL ? 2 : 0;
	if (!params)
		return;
	unsigned slots = 0;
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			if (in->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(in);
			if (intr->op == INTR_load_primitive_location_ir3 &&
			    (unsigned)intrinsic_get(intr, INTR_IDX_base) + 1 > slots)
				slots = (unsigned)intrinsic_get(intr, INTR_IDX_base) + 1;
		}
	l->primitive_param_vec4 = *at;
	l->primitive_map_vec4 = *at + params;
	*at += params + (slots + 3) / 4;
}

/* Place the ranges after `first` vec4 while they fit under the stage's
 * const size less `reserve` vec4; returns the byte offset past the last. */
static unsigned place_ranges(const struct shader *s, const struct ir3_lowering *t,
			     struct ir3_const_layout *l, unsigned first, unsigned reserve)
{
	unsigned max = ir3_stage_max_const(s->stage, t->max_const_geom, t->max_const_frag,
					   t->max_const_compute);
	unsigned limit = max > reserve ? (max - reserve) * 16 : 0;
	unsigned offset = first * 16;
	for (unsigned k = 0; k < l->num_ranges; k++) {
		struct ir3_ubo_range *r = &l->ranges[k];
		unsigned size = r->end - r->start;
		if (offset - first * 16 + size > limit) {
			r->offset = ~0u;
			continue;
		}
		r->offset = offset;
		offset += size;
	}
	return offset;
}

/* Whether a UBO load stays a load from memory once the ranges are placed
 * (a3xx-a5xx then need the buffers' addresses in the const file). */
static bool loads_ubo(struct shader *s, const struct ir3_const_layout *l, unsigned unit)
{
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			unsigned slot, start, end;
			if (in->type != INSTR_intrinsic || instr_as_intrinsic(in)->op != INTR_load_ubo)
				continue;
			if (!load_range(l, instr_as_intrinsic(in), unit, &slot, &start, &end) ||
			    !find(l, slot, start, end))
				return true;
		}
	return false;
}

/* The UBO addresses (a3xx-a5xx) take room only when some load still reads
 * memory once every range that fits is pushed: a shader whose loads are
 * all pushed reads none (Mesa's constlen counts no address it does not
 * read; the addresses of an array of 10,000 UBOs would not fit the file). */
static void layout_ranges(struct shader *s, const struct ir3_lowering *t, struct ir3_const_layout *l)
{
	unsigned user = s->info.push_constant_size > s->info.uniform_size ? s->info.push_constant_size
									   : s->info.uniform_size;
	l->user_vec4 = (user + 15) / 16;
	unsigned unit = t->const_upload_unit ? t->const_upload_unit : 1;
	unsigned first = (l->user_vec4 + unit - 1) / unit * unit;
	unsigned params = (l->num_driver_params + 3) / 4 + l->preamble_size_vec4;
	unsigned offset = place_ranges(s, t, l, first, first + params);
	unsigned ptrs = 0;
	if (!t->ubo_ldc && loads_ubo(s, l, unit)) {
		unsigned n = 0;
		for (unsigned k = 0; k < s->num_ubos; k++)
			n = s->ubos[k]->slot + decl_num_slots(s->ubos[k]->array_size);
		l->num_ubos = n;
		ptrs = (n * (t->is_64bit ? 2 : 1) + 3) / 4;
		offset = place_ranges(s, t, l, first, first + ptrs + params);
	}
	l->ubo_vec4 = l->num_ranges && offset > first * 16 ? offset / 16 : l->user_vec4;
	l->preamble_vec4 = l->ubo_vec4;
	unsigned at = l->ubo_vec4 + l->preamble_size_vec4;
	if (!t->ubo_ldc && l->num_ubos) {
		l->ubo_ptrs = true;
		l->ubo_ptr_vec4 = at;
		at += ptrs;
	}
	l->driver_vec4 = at;
	at += (l->num_driver_params + 3) / 4;
	primitive_block(s, l, &at);
	l->size_vec4 = at;
}

static bool rewrite(struct shader *s, const struct ir3_const_layout *l, unsigned unit)
{
	bool progress = false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(in);
			unsigned slot, start, end, base;
			struct ssa_def *off;
			builder_init(&b, s, cursor_before_instr(in));
			if (intr->op == INTR_load_push_constant) {
				base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
				off = intr->src[0].ssa;
			} else if (load_range(l, intr, unit, &slot, &start, &end)) {
				const struct ir3_ubo_range *r = find(l, slot, start, end);
				uint32_t o = 0;
				if (!r)
					continue;
				if (const_src(&intr->src[1], &o)) {
					base = r->offset + (o - r->start);
					off = b_imm_int(&b, 0);
				} else {
					/* a constant added to the offset goes into the
					 * base, a base below 0 into the offset (Mesa's
					 * handle_partial_const, lower_ubo_load_to_uniform) */
					int64_t at = (int64_t)r->offset - (int64_t)r->start;
					int64_t k;
					opt_split_offset(intr->src[1].ssa, &off, &k);
					if (!off || (k & 3)) {
						off = intr->src[1].ssa;
						k = 0;
					}
					at += k;
					if (at < 0)
						off = b_iadd(&b, off, b_imm_int(&b, at));
					base = at < 0 ? 0 : (unsigned)at;
				}
			} else {
				continue;
			}
			struct ssa_def *u = b_intr(&b, load_uniform, intr->num_components,
						   intr->def.bit_size, (off), .base = (int32_t)base);
			ssa_def_rewrite_uses(&intr->def, u);
			instr_remove(in);
			progress = true;
		}
	return progress;
}

bool ir3_nir_analyze_ubo_ranges(struct shader *s, const struct ir3_lowering *t,
				struct ir3_const_layout *l)
{
	unsigned unit = t->const_upload_unit ? t->const_upload_unit : 1;
	int cd_slot = l->const_data_slot;
	unsigned cd_size = l->const_data_size;
	uint8_t *cd = l->const_data;
	memset(l, 0, sizeof(*l));
	l->const_data_slot = cd_slot;
	l->const_data_size = cd_size;
	l->const_data = cd;
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			unsigned slot, start, end;
			if (in->type == INSTR_intrinsic &&
			    load_range(l, instr_as_intrinsic(in), unit, &slot, &start, &end))
				add_range(l, slot, start, end);
		}
	l->num_driver_params = max_end(s, t, driver_param_end);
	l->preamble_size_vec4 = (max_end(s, t, preamble_end) + 3) / 4;
	layout_ranges(s, t, l);
	return shader_progress(s, rewrite(s, l, unit), META_BLOCK_INDEX | META_DOMINANCE);
}

unsigned ir3_const_free_vec4(struct shader *s, const struct ir3_lowering *t)
{
	struct ir3_const_layout l;
	memset(&l, 0, sizeof(l));
	l.const_data_slot = -1;
	l.num_driver_params = max_end(s, t, driver_param_end);
	layout_ranges(s, t, &l);
	unsigned max = ir3_stage_max_const(s->stage, t->max_const_geom, t->max_const_frag,
					   t->max_const_compute);
	return max > l.size_vec4 ? max - l.size_vec4 : 0;
}
