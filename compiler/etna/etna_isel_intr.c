/*
 * Selection of intrinsics and texture fetches for etnaviv (etna_isel.h),
 * as Mesa's etnaviv emit_intrinsic / emit_tex and the I/O setup of
 * etna_compile_shader (../../shared/reference/targets.md §4.3):
 *
 *  - inputs arrive in registers: a VS attribute or an FS varying at its
 *    driver location (used inputs in location order, inputs sharing a
 *    location one register; an FS's start at t1), vertex and instance id
 *    after the attributes (.x, .y);
 *  - uniforms (loose uniforms and push constants, the default block) read
 *    at a constant offset are uniform-file words, as are on HALTI0 the
 *    UBOs' contents (no UBOs in GL there: they follow the default block);
 *    at a dynamic offset they are read with movar and a mov indexed by
 *    a0.x, the whole block mirrored in the uniform file;
 *  - on HALTI2+ UBO loads are LOADs from the UBO's address (a uniform);
 *  - outputs are handed on in whole vec4 registers (FS depth in t0.z); a
 *    constant or system value stored is moved to a register first;
 *  - texture fetches take coordinate, lod/bias/ddx and comparator/ddy in
 *    src0..2; the VS's samplers follow the FS's.
 * What Mesa's etnaviv does not handle is refused by name.
 */
#include "compiler/etna/etna_isel.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

static const uint8_t identity[4] = { 0, 1, 2, 3 };
static const uint8_t xxxx[4] = { 0, 0, 0, 0 };

static bool const_u32(const struct ssa_def *def, uint32_t *v)
{
	struct load_const_instr *lc = ssa_def_as_const(def);
	if (!lc || lc->instr.type != INSTR_load_const)
		return false;
	*v = (uint32_t)lc->value[0];
	return true;
}

static void set_const(struct isel_def *d, unsigned n, unsigned kind, unsigned first)
{
	d->kind = ISEL_CONST;
	d->num_components = (uint8_t)n;
	for (unsigned k = 0; k < n && k < 4; k++)
		d->c[k] = ETNA_UNIFORM(kind, first + k);
}

/* ---- inputs ---- */

struct input_order {
	int location;
	unsigned component;
	unsigned decl;
	unsigned element;	/* a split array's element, or ~0 for the whole */
};

static int cmp_input(const void *a, const void *b)
{
	const struct input_order *x = a, *y = b;
	if (x->location != y->location)
		return x->location < y->location ? -1 : 1;
	if (x->component != y->component)
		return x->component < y->component ? -1 : 1;
	if (x->decl != y->decl)
		return x->decl < y->decl ? -1 : 1;
	return x->element < y->element ? -1 : x->element > y->element;
}

struct slot_reg {
	int location;
	unsigned reg;
};

static unsigned slot_reg_find(const struct slot_reg *t, unsigned n, int location)
{
	for (unsigned i = 0; i < n; i++)
		if (t[i].location == location)
			return t[i].reg;
	return ~0u;
}

/* Where Mesa's gl_varying_slot puts the built-in inputs, relative to the
 * first generic varying (VARYING_SLOT_VAR0 = 32): driver locations follow
 * that order, so built-ins take the registers before the generic ones. */
#define CLIP_DIST_LOCATION (17 - 32)
#define POINT_COORD_LOCATION (25 - 32)

static bool is_clip_cull(const struct io_decl *d)
{
	return d->builtin == BUILTIN_clip_distance || d->builtin == BUILTIN_cull_distance;
}

static int input_location(const struct io_decl *d)
{
	switch (d->builtin) {
	case BUILTIN_none: return d->location;
	case BUILTIN_clip_distance: case BUILTIN_cull_distance: return CLIP_DIST_LOCATION;
	case BUILTIN_primitive_id: return 21 - 32;
	case BUILTIN_layer: return 22 - 32;
	case BUILTIN_viewport: return 23 - 32;
	default: return 0 - 32;
	}
}

/* Clip and cull distances are one compact array, as
 * nir_lower_clip_cull_distance_arrays makes them: the clip distances, then
 * the cull distances, four to a register.  The element of `decl`'s array
 * element `index` in that array. */
static unsigned clip_cull_element(const struct isel *c, const struct io_decl *decl, unsigned index)
{
	return decl->builtin == BUILTIN_cull_distance ? c->cull_offset + index : index;
}

/* Whether the input's array (or matrix) elements are inputs of their own:
 * Mesa's linker splits a fragment shader's generic input arrays and
 * matrices (nir_lower_io_arrays_to_elements_no_indirects), so the elements
 * it does not read take no register.  One read at a dynamic index was
 * copied whole by lower_io_to_temps: every element is read then. */
static bool input_split(const struct isel *c, const struct io_decl *d)
{
	return c->ir->stage == STAGE_FRAGMENT && d->builtin == BUILTIN_none && d->array_size > 0;
}

/* The register of input `decl`'s slot `slot`, or ~0. */
static unsigned input_reg(const struct isel *c, unsigned decl, unsigned slot)
{
	unsigned at = c->input_first[decl] + slot;
	return at < c->input_slots ? c->input_reg[at] : ~0u;
}

static void assign_inputs(struct isel *c)
{
	struct shader *s = c->ir;
	/* the clip and cull distances: one entry for both, the clip
	 * distances' declared size before the cull distances */
	unsigned clip_cull = ~0u, elements = 0;
	c->cull_offset = 0;
	for (unsigned i = 0; i < s->num_inputs; i++)
		if (s->inputs[i]->builtin == BUILTIN_clip_distance)
			c->cull_offset = decl_num_slots(s->inputs[i]->array_size);
	for (unsigned i = 0; i < s->num_inputs; i++) {
		if (!is_clip_cull(s->inputs[i]))
			continue;
		unsigned end = clip_cull_element(c, s->inputs[i],
						 decl_num_slots(s->inputs[i]->array_size));
		elements = end > elements ? end : elements;
	}
	unsigned clip_cull_slots = (elements + 3) / 4;
	/* a register per slot of every declaration; the clip and cull
	 * distances share theirs */
#define SLOTS(d) (is_clip_cull(s->inputs[d]) ? clip_cull_slots : decl_num_slots(s->inputs[d]->array_size))
	c->input_first = xcalloc(s->num_inputs + 1, sizeof(unsigned));
	unsigned total = 0;
	for (unsigned i = 0; i < s->num_inputs; i++) {
		c->input_first[i] = total;
		total += SLOTS(i);
	}
	c->input_slots = total;
	c->input_reg = xcalloc(total + 1, sizeof(unsigned));
	memset(c->input_reg, 0xff, (total + 1) * sizeof(unsigned));
	bool *used = xcalloc(total + 1, sizeof(bool));
	bool point_coord = false;
	foreach_block(b, s->fn)
		foreach_instr(in, b) {
			if (in->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(in);
			uint32_t slot = 0;
			if (intr->op == INTR_load_input) {
				unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
				/* the clip and cull distances read by element */
				if (base < s->num_inputs && const_u32(intr->src[0].ssa, &slot))
					used[c->input_first[base] +
					     (is_clip_cull(s->inputs[base]) ? 0 :
					      slot < SLOTS(base) ? slot : 0)] = true;
			}
			point_coord |= intr->op == INTR_load_point_coord;
		}
	for (unsigned i = 0; i < s->num_inputs; i++)
		if (is_clip_cull(s->inputs[i]))
			for (unsigned k = 0; k < SLOTS(i); k++)
				if (used[c->input_first[i] + k] && clip_cull == ~0u)
					clip_cull = i;
	struct input_order *order = xcalloc(total + 2, sizeof(*order));
	unsigned n = 0;
	for (unsigned i = 0; i < s->num_inputs; i++) {
		const struct io_decl *d = s->inputs[i];
		if (is_clip_cull(d) && i != clip_cull)
			continue;
		bool any = false;
		for (unsigned k = 0; k < SLOTS(i); k++) {
			bool u = used[c->input_first[i] + k];
			any |= u;
			if (u && input_split(c, d))
				order[n++] = (struct input_order){ input_location(d) + (int)k, d->component,
								   i, k };
		}
		if (any && !input_split(c, d))
			order[n++] = (struct input_order){ input_location(d), d->component, i, ~0u };
	}
	if (point_coord)
		order[n++] = (struct input_order){ POINT_COORD_LOCATION, 0, ~0u, ~0u };
	qsort(order, n, sizeof(*order), cmp_input);
	c->point_coord_slot = ~0u;
	/* registers by location, as nir_assign_io_var_locations gives
	 * driver locations: an input takes the next registers, one per slot
	 * (an array, a matrix: one per element), unless an earlier one holds
	 * its location (components packed in one slot): then it shares that
	 * register, and slots past the earlier input's take new ones */
	struct slot_reg *taken = xcalloc(total + 1, sizeof(*taken));
	unsigned num_taken = 0, reg = 0;
	for (unsigned k = 0; k < n; k++) {
		if (order[k].decl == ~0u) {
			c->point_coord_slot = reg++;
			continue;
		}
		bool element = order[k].element != ~0u;
		unsigned slots = element ? 1 : SLOTS(order[k].decl);
		unsigned at = c->input_first[order[k].decl] + (element ? order[k].element : 0);
		int loc = order[k].location;
		unsigned first = ~0u;
		for (unsigned i = 0; i < slots && first == ~0u; i++) {
			unsigned r = slot_reg_find(taken, num_taken, loc + (int)i);
			if (r != ~0u)
				first = r - i;
		}
		if (first == ~0u)
			first = reg;
		for (unsigned i = 0; i < slots; i++) {
			unsigned r = slot_reg_find(taken, num_taken, loc + (int)i);
			if (r == ~0u) {
				r = first + i >= reg ? reg++ : first + i;
				taken[num_taken++] = (struct slot_reg){ loc + (int)i, r };
			}
			c->input_reg[at + i] = r;
		}
	}
#undef SLOTS
	for (unsigned i = 0; i < s->num_inputs && clip_cull != ~0u; i++)
		if (is_clip_cull(s->inputs[i]))
			c->input_first[i] = c->input_first[clip_cull];
	c->num_inputs = reg;
	c->s->num_inputs = reg;
	free(taken);
	free(order);
	free(used);
}

/* ---- the uniform file ---- */

static unsigned block_dwords(unsigned bytes)
{
	return (bytes + 15) / 16 * 4;
}

/* HALTI0: the default block, then every UBO, vec4-aligned. */
static void layout_uniforms(struct isel *c)
{
	struct shader *s = c->ir;
	unsigned at = block_dwords(s->info.uniform_size > s->info.push_constant_size
					   ? s->info.uniform_size : s->info.push_constant_size);
	unsigned slots = 0;
	for (unsigned i = 0; i < s->num_ubos; i++) {
		unsigned end = s->ubos[i]->slot + decl_num_slots(s->ubos[i]->array_size);
		if (end > slots)
			slots = end;
	}
	c->ubo_base = xcalloc(slots + 1, sizeof(unsigned));
	for (unsigned i = 0; i < s->num_ubos; i++) {
		const struct buffer_decl *u = s->ubos[i];
		for (unsigned k = 0; k < decl_num_slots(u->array_size); k++) {
			c->ubo_base[u->slot + k] = at;
			at += block_dwords(u->size);
		}
	}
}

/* Mesa's have_indirect_uniform: the block read at a dynamic offset is
 * mirrored at the start of the uniform file, its words in their places. */
static void mirror_uniforms(struct isel *c, unsigned end_dword)
{
	unsigned vec4 = (end_dword + 3) / 4;
	if (vec4 * 4 > ETNA_MAX_IMM) {
		esel_error(c, "uniform storage of %u vec4 exceeds the uniform file", vec4);
		return;
	}
	for (unsigned i = 0; i < vec4 * 4; i++)
		if (!c->s->consts[i])
			c->s->consts[i] = ETNA_UNIFORM(ETNA_UNIFORM_UNIFORM, i);
	if (vec4 > c->s->const_count)
		c->s->const_count = vec4;
}

static bool is_uniform_load(enum intrinsic op)
{
	return op == INTR_load_uniform || op == INTR_load_push_constant;
}

/* A uniform load's first dword in the uniform file, or -1 when its
 * offset is dynamic (then `end` is where its block ends). */
static int uniform_dword(struct isel *c, struct intrinsic_instr *intr, unsigned *end)
{
	struct shader *s = c->ir;
	uint32_t off;
	if (is_uniform_load(intr->op)) {
		unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
		*end = block_dwords(base + (intr->op == INTR_load_uniform ? s->info.uniform_size
									  : s->info.push_constant_size));
		if (!const_u32(intr->src[0].ssa, &off))
			return -1;
		return (int)((base + off) / 4);
	}
	uint32_t slot = 0;
	const_u32(intr->src[0].ssa, &slot);
	struct buffer_decl *u = shader_find_buffer(s->ubos, s->num_ubos, slot);
	unsigned first = c->ubo_base[u ? slot : 0];
	*end = first + (u ? block_dwords(u->size) : 0);
	if (!const_u32(intr->src[1].ssa, &off))
		return -1;
	return (int)(first + off / 4);
}

static const char *unhandled(struct intrinsic_instr *intr)
{
	return intrinsic_infos[intr->op].name;
}

static void classify_intrinsic(struct isel *c, struct intrinsic_instr *intr)
{
	struct isel_def *d = intrinsic_has_dest(intr->op) ? isel_def(c, &intr->def) : NULL;
	unsigned end;
	uint32_t slot;
	switch (intr->op) {
	case INTR_load_frag_coord:
		d->kind = ISEL_POS;
		return;
	case INTR_load_uniform:
	case INTR_load_push_constant: {
		int dw = uniform_dword(c, intr, &end);
		if (dw >= 0) {
			set_const(d, intr->def.num_components, ETNA_UNIFORM_UNIFORM, (unsigned)dw);
			return;
		}
		if (!c->t->has_ubo)
			mirror_uniforms(c, end);
		d->kind = ISEL_TEMP;
		return;
	}
	case INTR_load_ubo:
		if (!const_u32(intr->src[0].ssa, &slot)) {
			esel_error(c, "not handled by the etnaviv backend: load_ubo(dynamic-block-index)");
			return;
		}
		if (!c->t->has_ubo) {
			int dw = uniform_dword(c, intr, &end);
			if (dw >= 0) {
				set_const(d, intr->def.num_components, ETNA_UNIFORM_UNIFORM,
					  (unsigned)dw);
				return;
			}
			mirror_uniforms(c, end);
		}
		d->kind = ISEL_TEMP;
		return;
	case INTR_load_base_vertex:
	case INTR_load_base_instance:
		/* draw parameters: the state tracker's uniforms */
		set_const(d, 1, ETNA_UNIFORM_DRIVER, intr->op == INTR_load_base_instance);
		return;
	case INTR_load_input:
	case INTR_load_point_coord:
	case INTR_load_vertex_id:
	case INTR_load_instance_id:
	case INTR_load_front_face:
	case INTR_ddx: case INTR_ddy: case INTR_ddx_fine: case INTR_ddy_fine:
	case INTR_ddx_coarse: case INTR_ddy_coarse:
		d->kind = ISEL_TEMP;
		return;
	case INTR_store_output:
	case INTR_discard: case INTR_discard_if:
	case INTR_terminate: case INTR_terminate_if:
		return;
	default:
		esel_error(c, "not handled by the etnaviv backend: %s", unhandled(intr));
		return;
	}
}

/* txs reads the texture's size from the uniform file (lower_txs). */
static void classify_tex(struct isel *c, struct tex_instr *tex)
{
	if (tex->op == TEX_OP_txs)
		set_const(isel_def(c, &tex->def), tex->def.num_components,
			  ETNA_UNIFORM_TEXTURE_SIZE, tex->texture_index * 4);
}

static void count_shared_outputs(struct isel *c);

void esel_intrinsics_classify(struct isel *c)
{
	assign_inputs(c);
	count_shared_outputs(c);
	layout_uniforms(c);
	foreach_block(b, c->ir->fn)
		foreach_instr(in, b) {
			if (c->failed)
				return;
			if (in->type == INSTR_intrinsic)
				classify_intrinsic(c, instr_as_intrinsic(in));
			else if (in->type == INSTR_tex)
				classify_tex(c, instr_as_tex(in));
		}
}

/* ---- emission ---- */

/* A value arriving in a register: precoloured, live from the start. */
static void emit_input(struct isel *c, struct intrinsic_instr *intr, unsigned base,
		       enum etna_reg_type type)
{
	struct etna_instr *in = esel_emit(c, ETNA_OP_input);
	esel_dst(c, in, &intr->def);
	struct etna_value *v = &c->s->values.data[in->dst.value];
	v->forced = (int)etna_vreg(base, type);
	v->live_in = true;
}

/* movar a0.x, offset; mov dst, u[a0.x + base] */
static void emit_indirect_uniform(struct isel *c, struct intrinsic_instr *intr)
{
	unsigned end;
	uniform_dword(c, intr, &end);
	struct etna_instr *movar = esel_emit(c, ETNA_OP_movar);
	movar->dst = (struct etna_dst){ .file = ETNA_FILE_ADDR, .value = ETNA_NO_VALUE,
					.mask = 1 };
	const struct ssa_def *off = intr->src[is_uniform_load(intr->op) ? 0 : 1].ssa;
	movar->src[2] = esel_src(c, off, xxxx);
	struct etna_instr *mov = esel_emit(c, ETNA_OP_mov);
	esel_dst(c, mov, &intr->def);
	unsigned base = 0;
	if (intr->op == INTR_load_ubo) {
		uint32_t slot = 0;
		const_u32(intr->src[0].ssa, &slot);
		base = c->ubo_base[slot] / 4;
	} else {
		base = (unsigned)intrinsic_get(intr, INTR_IDX_base) / 16;
	}
	mov->src[2] = (struct etna_src){ .file = ETNA_FILE_UNIFORM, .value = ETNA_NO_VALUE,
					 .rel = true, .reg = (uint16_t)base,
					 .cmap = { 0, 1, 2, 3 } };
	memcpy(mov->src[2].swiz, identity, 4);
}

static void emit_load_ubo(struct isel *c, struct intrinsic_instr *intr)
{
	uint32_t slot = 0;
	const_u32(intr->src[0].ssa, &slot);
	struct etna_instr *in = esel_emit(c, ETNA_OP_load);
	in->type = ETNA_TYPE_u32;
	esel_dst(c, in, &intr->def);
	struct etna_value *v = &c->s->values.data[in->dst.value];
	if (intr->def.num_components == 2)
		v->cls = ETNA_CLASS_VEC2C;
	else if (intr->def.num_components == 3)
		v->cls = ETNA_CLASS_VEC3C;
	in->src[0] = esel_src(c, intr->src[1].ssa, xxxx);
	uint64_t addr = ETNA_UNIFORM(ETNA_UNIFORM_UBO_ADDR, slot + 1);
	in->src[1] = esel_const_src(c, &addr, 1, xxxx);
}

static void emit_front_face(struct isel *c, struct intrinsic_instr *intr)
{
	/* the hardware's flag is 0.0/1.0: compared with 0 (etna_lower_io) */
	struct etna_instr *in = esel_emit(c, c->t->has_integers ? ETNA_OP_cmp : ETNA_OP_set);
	in->cond = ETNA_COND_ne;
	in->type = c->t->has_integers ? ETNA_TYPE_s32 : ETNA_TYPE_f32;
	esel_dst(c, in, &intr->def);
	in->src[0] = (struct etna_src){ .file = ETNA_FILE_INTERNAL, .value = ETNA_NO_VALUE };
	uint64_t zero = ETNA_UNIFORM(ETNA_UNIFORM_CONSTANT, 0);
	in->src[1] = esel_const_src(c, &zero, 1, xxxx);
	if (c->t->has_integers)
		in->src[2] = (struct etna_src){ .file = ETNA_FILE_IMMED, .value = ETNA_NO_VALUE,
						.imm_type = ETNA_IMM_INT20, .imm = 0xfffff };
}

static void emit_derivative(struct isel *c, struct intrinsic_instr *intr, bool y)
{
	struct etna_instr *in = esel_emit(c, y ? ETNA_OP_dsy : ETNA_OP_dsx);
	esel_dst(c, in, &intr->def);
	in->src[0] = in->src[2] = esel_src(c, intr->src[0].ssa, identity);
}

static void emit_kill(struct isel *c, struct intrinsic_instr *intr, bool conditional)
{
	struct etna_instr *in = esel_emit(c, ETNA_OP_texkill);
	if (!conditional)
		return;
	in->cond = ETNA_COND_nz;
	in->type = c->t->has_integers ? ETNA_TYPE_u32 : ETNA_TYPE_f32;
	in->src[0] = esel_src(c, intr->src[0].ssa, xxxx);
}

/* Whether an input read can be handed on as an output in its own register:
 * Mesa's etnaviv loads an input whole (nir_opt_shrink_vectors drops only
 * the components past the last one read), so a part of it that is stored
 * is a swizzling mov's result there, a register of its own.  Ours reads
 * inputs by component: one that does not start at .x of its register, or
 * is narrower than what the shader reads of that input, is moved too. */
static bool input_is_whole(const struct isel *c, const struct intrinsic_instr *load)
{
	if (intrinsic_get(load, INTR_IDX_component) != 0)
		return false;
	unsigned base = (unsigned)intrinsic_get(load, INTR_IDX_base);
	uint32_t slot = 0, other = 0;
	const_u32(load->src[0].ssa, &slot);
	unsigned extent = 0;
	foreach_block(b, c->ir->fn)
		foreach_instr(in, b) {
			if (in->type != INSTR_intrinsic)
				continue;
			const struct intrinsic_instr *l = instr_as_intrinsic(in);
			if (l->op != INTR_load_input ||
			    (unsigned)intrinsic_get(l, INTR_IDX_base) != base ||
			    !const_u32(l->src[0].ssa, &other) || other != slot)
				continue;
			unsigned end = (unsigned)intrinsic_get(l, INTR_IDX_component) +
				       l->def.num_components;
			extent = end > extent ? end : extent;
		}
	return load->def.num_components >= extent;
}

/* Whether vertex output `o` shares its location with another output in
 * other components (`layout(component = N)`): the linker merges such
 * varyings into one vec4 (nir_lower_io_to_vector under etnaviv's
 * vectorize_io), and the hardware hands on one register per location.
 * Outputs whose components overlap stay apart, as there. */
static bool output_shared(const struct shader *s, unsigned o)
{
	const struct io_decl *a = s->outputs[o];
	if (s->stage != STAGE_VERTEX || a->builtin != BUILTIN_none)
		return false;
	for (unsigned k = 0; k < s->num_outputs; k++) {
		const struct io_decl *b = s->outputs[k];
		if (k == o || b->builtin != BUILTIN_none)
			continue;
		unsigned as = decl_num_slots(a->array_size), bs = decl_num_slots(b->array_size);
		bool same_slot = a->location < b->location + (int)bs &&
				 b->location < a->location + (int)as;
		bool apart = a->component + a->num_components <= b->component ||
			     b->component + b->num_components <= a->component;
		if (same_slot && apart)
			return true;
	}
	return false;
}

/* The location a store to a shared location writes, or false. */
static bool shared_store_location(const struct isel *c, const struct intrinsic_instr *st,
				  int *location)
{
	if (st->op != INTR_store_output)
		return false;
	unsigned o = (unsigned)intrinsic_get(st, INTR_IDX_base);
	uint32_t slot = 0;
	if (o >= c->ir->num_outputs || !c->out_shared[o] || !const_u32(st->src[1].ssa, &slot))
		return false;
	*location = c->ir->outputs[o]->location + (int)slot;
	return true;
}

static struct out_slot *find_slot(const struct isel *c, int location)
{
	for (unsigned k = 0; k < c->num_out_slots; k++)
		if (c->out_slots[k].location == location)
			return &c->out_slots[k];
	return NULL;
}

/* The shared location a store writes, or NULL. */
static struct out_slot *store_slot(const struct isel *c, const struct intrinsic_instr *st)
{
	int loc;
	return c->num_out_slots && shared_store_location(c, st, &loc) ? find_slot(c, loc) : NULL;
}

/* The outputs that share a location, those locations and how many stores
 * each gets. */
static void count_shared_outputs(struct isel *c)
{
	struct shader *s = c->ir;
	c->out_shared = xcalloc(s->num_outputs + 1, sizeof(bool));
	bool any = false;
	for (unsigned o = 0; o < s->num_outputs; o++)
		any |= c->out_shared[o] = output_shared(s, o);
	if (!any)
		return;
	foreach_block(b, s->fn)
		foreach_instr(in, b) {
			int loc;
			if (in->type != INSTR_intrinsic ||
			    !shared_store_location(c, instr_as_intrinsic(in), &loc))
				continue;
			struct out_slot *t = find_slot(c, loc);
			if (!t) {
				c->out_slots = xrealloc(c->out_slots,
							(c->num_out_slots + 1) * sizeof(*c->out_slots));
				t = &c->out_slots[c->num_out_slots++];
				*t = (struct out_slot){ loc, ETNA_NO_VALUE, 0, 0 };
			}
			t->stores++;
		}
}

static void emit_output_instr(struct isel *c, const struct io_decl *decl, struct etna_src src,
			      unsigned mask)
{
	struct etna_instr *out = esel_emit(c, ETNA_OP_output);
	out->src[2] = src;
	out->dst.mask = (uint8_t)mask;	/* channels handed on (0: all) */
	if (c->ir->stage == STAGE_VERTEX && decl) {
		if (decl->builtin == BUILTIN_point_size)
			c->s->has_point_size = true;
		else if (decl->builtin != BUILTIN_position)
			c->s->num_outputs++;
	}
}

static unsigned slot_value(struct isel *c, struct out_slot *t)
{
	if (t->value == ETNA_NO_VALUE) {
		t->value = etna_value_create(c->s, 4);
		c->s->values.data[t->value].cls = ETNA_CLASS_VEC4;
	}
	return t->value;
}

unsigned esel_shared_output_value(struct isel *c, const struct ssa_def *def, unsigned *comp)
{
	if (!c->num_out_slots || ssa_def_num_uses(def) != 1)
		return ETNA_NO_VALUE;
	foreach_use(u, def) {
		struct instr *in = u->parent_instr;
		if (!in || in->type != INSTR_intrinsic)
			return ETNA_NO_VALUE;
		struct intrinsic_instr *st = instr_as_intrinsic(in);
		struct out_slot *t = st->src[0].ssa == def ? store_slot(c, st) : NULL;
		if (!t || (unsigned)intrinsic_get(st, INTR_IDX_write_mask) !=
			  (1u << def->num_components) - 1)
			return ETNA_NO_VALUE;
		*comp = (unsigned)intrinsic_get(st, INTR_IDX_component);
		if (*comp + def->num_components > 4)
			return ETNA_NO_VALUE;
		return slot_value(c, t);
	}
	return ETNA_NO_VALUE;
}

/* A part of a shared location: a mov into its channels of the location's
 * register (none when the value was computed there); after the last one,
 * the register is handed on. */
static void emit_shared_output(struct isel *c, struct intrinsic_instr *intr,
			       const struct io_decl *decl, struct out_slot *t)
{
	slot_value(c, t);
	const struct ssa_def *v = intr->src[0].ssa;
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	unsigned wm = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	uint8_t swiz[4] = { 0, 0, 0, 0 };
	unsigned mask = 0;
	for (unsigned k = 0; k < v->num_components && comp + k < 4; k++)
		if (wm & (1u << k)) {
			swiz[comp + k] = (uint8_t)k;
			mask |= 1u << (comp + k);
		}
	if (isel_def(c, v)->into != t->value) {
		struct etna_instr *mov = esel_emit(c, ETNA_OP_mov);
		mov->dst = (struct etna_dst){ .file = ETNA_FILE_TEMP, .value = t->value,
					      .mask = (uint8_t)mask, .map = { 0, 1, 2, 3 } };
		mov->src[2] = esel_src(c, v, swiz);
	}
	t->written |= mask;
	if (--t->stores == 0)
		emit_output_instr(c, decl, (struct etna_src){ .file = ETNA_FILE_TEMP, .value = t->value,
							      .swiz = { 0, 1, 2, 3 } },
				  t->written);
}

/* The output's value: a register the stage hands on whole. */
static void emit_output(struct isel *c, struct intrinsic_instr *intr)
{
	struct shader *s = c->ir;
	unsigned o = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	const struct io_decl *decl = o < s->num_outputs ? s->outputs[o] : NULL;
	bool depth = s->stage == STAGE_FRAGMENT && decl && decl->builtin == BUILTIN_frag_depth;
	if (s->stage == STAGE_FRAGMENT && decl && decl->builtin != BUILTIN_none && !depth) {
		esel_error(c, "unsupported fragment output %s (etnaviv: color, depth)",
			   builtin_names[decl->builtin]);
		return;
	}
	struct out_slot *t = decl ? store_slot(c, intr) : NULL;
	if (t) {
		emit_shared_output(c, intr, decl, t);
		return;
	}
	const struct ssa_def *v = intr->src[0].ssa;
	const struct isel_def *d = isel_def(c, v);
	struct etna_src src;
	bool part = v->parent->type == INSTR_intrinsic &&
		    instr_as_intrinsic(v->parent)->op == INTR_load_input &&
		    !input_is_whole(c, instr_as_intrinsic(v->parent));
	/* Mesa's emit_shader moves a stored system value first (is_sysval):
	 * the vertex and instance ids share one register, .x and .y */
	bool sysval = v->parent->type == INSTR_intrinsic &&
		      (instr_as_intrinsic(v->parent)->op == INTR_load_vertex_id ||
		       instr_as_intrinsic(v->parent)->op == INTR_load_instance_id);
	if (d->kind != ISEL_TEMP || part || sysval || (depth && v->parent->type != INSTR_alu)) {
		unsigned copy = etna_value_create(c->s, v->num_components);
		struct etna_instr *mov = esel_emit(c, ETNA_OP_mov);
		mov->dst = (struct etna_dst){ .file = ETNA_FILE_TEMP, .value = copy,
					      .mask = (uint8_t)((1u << v->num_components) - 1),
					      .map = { 0, 1, 2, 3 } };
		mov->src[2] = esel_src(c, v, identity);
		src = (struct etna_src){ .file = ETNA_FILE_TEMP, .value = copy,
					 .swiz = { 0, 1, 2, 3 } };
	} else {
		src = esel_src(c, v, identity);
	}
	if (c->failed || src.file != ETNA_FILE_TEMP)
		return;
	struct etna_value *val = &c->s->values.data[src.value];
	if (depth)
		val->forced = (int)ETNA_VREG_FRAG_DEPTH;
	else
		val->cls = ETNA_CLASS_VEC4;
	emit_output_instr(c, decl, src, 0);
}

void esel_intrinsic(struct isel *c, struct intrinsic_instr *intr)
{
	const struct isel_def *d = intrinsic_has_dest(intr->op) ? isel_def(c, &intr->def) : NULL;
	if (d && (d->kind != ISEL_TEMP || d->dead))
		return;
	switch (intr->op) {
	case INTR_load_input: {
		unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
		uint32_t slot = 0;
		if (!const_u32(intr->src[0].ssa, &slot)) {
			/* lower_io_to_temps left none: a compiler bug, said as one */
			esel_error(c, "internal error: an input read at a dynamic slot");
			return;
		}
		unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
		if (comp + intr->def.num_components > 4) {
			esel_error(c, "an input of %u components from component %u", intr->def.num_components,
				   comp);
			return;
		}
		const struct io_decl *decl = base < c->ir->num_inputs ? c->ir->inputs[base] : NULL;
		if (decl && is_clip_cull(decl)) {
			/* one component of the compact array */
			unsigned e = clip_cull_element(c, decl, slot);
			slot = e / 4;
			comp += e % 4;
		}
		unsigned reg = decl ? input_reg(c, base, slot) : 0;
		if (reg == ~0u) {
			esel_error(c, "internal error: input %u slot %u has no register", base, slot);
			return;
		}
		emit_input(c, intr, reg, etna_input_type(comp, intr->def.num_components));
		return;
	}
	case INTR_load_point_coord:
		emit_input(c, intr, c->point_coord_slot, etna_input_type(0, intr->def.num_components));
		return;
	case INTR_load_vertex_id:
		emit_input(c, intr, c->num_inputs, ETNA_REG_SCALAR_X);
		return;
	case INTR_load_instance_id:
		emit_input(c, intr, c->num_inputs, ETNA_REG_SCALAR_Y);
		return;
	case INTR_load_front_face:
		emit_front_face(c, intr);
		return;
	case INTR_load_uniform:
	case INTR_load_push_constant:
		if (c->t->has_ubo) {	/* the default block is UBO 0 */
			esel_error(c, "not handled yet: uniform read at a dynamic offset on HALTI2+");
			return;
		}
		emit_indirect_uniform(c, intr);
		return;
	case INTR_load_ubo:
		if (c->t->has_ubo)
			emit_load_ubo(c, intr);
		else
			emit_indirect_uniform(c, intr);
		return;
	case INTR_ddx: case INTR_ddx_fine: case INTR_ddx_coarse:
		emit_derivative(c, intr, false);
		return;
	case INTR_ddy: case INTR_ddy_fine: case INTR_ddy_coarse:
		emit_derivative(c, intr, true);
		return;
	case INTR_discard:
	case INTR_terminate:
		emit_kill(c, intr, false);
		return;
	case INTR_discard_if:
	case INTR_terminate_if:
		emit_kill(c, intr, true);
		return;
	case INTR_store_output:
		emit_output(c, intr);
		return;
	default:
		esel_error(c, "not handled by the etnaviv backend: %s", unhandled(intr));
		return;
	}
}

void esel_finish_io(struct isel *c)
{
	free(c->input_first);
	free(c->input_reg);
	c->input_first = c->input_reg = NULL;
	free(c->out_slots);
	free(c->out_shared);
	c->out_slots = NULL;
	c->out_shared = NULL;
}

/* ---- textures ---- */

/* Before HALTI5 the lod or bias travels in the coordinate's source, in the
 * components after the coordinate's own (etna_lower_io builds a vec4):
 *
 *	txl %c (vec2), lod %l   →   %v = vec4 %c.x, %c.y, %l, %l; txl %v
 *
 * Done on selection's own copy of the shader, as the texture source no
 * longer validates (a 4-component coordinate); the vec4 is selected as
 * any vecN: its sources write into it, or movs do.  Mesa builds it before
 * its last optimisation loop, whose CSE makes fetches of one coordinate
 * and lod share it: here a fetch reuses the vec4 of an earlier one of the
 * same coordinate and lod whose block dominates its own. */
struct packed {
	struct ssa_def *coord, *lod, *vec;
	struct block *block;
};

void esel_pack_tex(struct isel *c)
{
	if (c->t->has_halti5_tex)
		return;
	metadata_require(c->ir->fn, META_DOMINANCE);
	struct packed *done = NULL;
	size_t n = 0, cap = 0;
	foreach_block(b, c->ir->fn)
		foreach_instr(in, b) {
			if (in->type != INSTR_tex)
				continue;
			struct tex_instr *tex = instr_as_tex(in);
			int l = tex_instr_src_index(tex, TEX_SRC_lod);
			if (l < 0)
				l = tex_instr_src_index(tex, TEX_SRC_bias);
			int ci = tex_instr_src_index(tex, TEX_SRC_coord);
			if (l < 0 || ci < 0 || tex->op == TEX_OP_txs)
				continue;
			struct ssa_def *coord = tex->src[ci].src.ssa, *lod = tex->src[l].src.ssa;
			if (coord->num_components >= 4 || lod->num_components != 1 ||
			    coord->bit_size != 32 || lod->bit_size != 32)
				continue;
			struct ssa_def *v = NULL;
			for (size_t k = 0; k < n && !v; k++)
				if (done[k].coord == coord && done[k].lod == lod &&
				    block_dominates(done[k].block, b))
					v = done[k].vec;
			if (!v) {
				struct alu_instr *vec = alu_instr_create(c->ir, OP_vec4);
				for (unsigned k = 0; k < 4; k++) {
					bool own = k < coord->num_components;
					src_init(&vec->src[k].src, &vec->instr, own ? coord : lod);
					vec->src[k].swizzle[0] = (uint8_t)(own ? k : 0);
				}
				ssa_def_init(&vec->instr, &vec->def, 4, 32);
				instr_insert(cursor_before_instr(in), &vec->instr);
				v = &vec->def;
				if (n == cap)
					done = xrealloc(done, (cap = cap ? 2 * cap : 8) * sizeof(*done));
				done[n++] = (struct packed){ coord, lod, v, b };
			}
			src_rewrite(&tex->src[ci].src, v);
			tex_instr_remove_src(tex, (unsigned)l);
		}
	free(done);
}

static enum etna_opc tex_opcode(const struct tex_instr *tex)
{
	switch (tex->op) {
	case TEX_OP_tex: return ETNA_OP_texld;
	case TEX_OP_txb: return ETNA_OP_texldb;
	case TEX_OP_txl: return ETNA_OP_texldl;
	case TEX_OP_txd: return ETNA_OP_texldd;
	default: return ETNA_OP_COUNT;
	}
}

void esel_tex(struct isel *c, struct tex_instr *tex)
{
	struct isel_def *d = isel_def(c, &tex->def);
	if (d->kind != ISEL_TEMP || d->dead)
		return;
	enum etna_opc opc = tex_opcode(tex);
	if (opc == ETNA_OP_COUNT) {
		esel_error(c, "Unhandled NIR tex type: %s", tex_op_names[tex->op]);
		return;
	}
	if (tex->def.bit_size != 32) {
		esel_error(c, "not handled by the etnaviv backend: %u-bit texture result",
			   tex->def.bit_size);
		return;
	}
	struct etna_src src[3] = { { .value = ETNA_NO_VALUE }, { .value = ETNA_NO_VALUE },
				   { .value = ETNA_NO_VALUE } };
	for (unsigned i = 0; i < tex->num_srcs; i++) {
		unsigned slot;
		switch (tex->src[i].type) {
		case TEX_SRC_coord: slot = 0; break;
		case TEX_SRC_bias: case TEX_SRC_lod: case TEX_SRC_ddx: slot = 1; break;
		case TEX_SRC_comparator: case TEX_SRC_ddy: slot = 2; break;
		default:
			esel_error(c, "Unhandled NIR tex src type: %s",
				   tex_src_names[tex->src[i].type]);
			return;
		}
		src[slot] = esel_src(c, tex->src[i].src.ssa, identity);
	}
	bool fs = c->ir->stage == STAGE_FRAGMENT;
	unsigned count = fs ? c->t->fragment_sampler_count : c->t->vertex_sampler_count;
	if (tex->sampler_index >= count) {
		/* GL refuses the program when linking (MAX_TEXTURE_IMAGE_UNITS) */
		esel_error(c, "sampler %u: a %s shader has %u samplers", tex->sampler_index,
			   fs ? "fragment" : "vertex", count);
		return;
	}
	struct etna_instr *in = esel_emit(c, opc);
	esel_dst(c, in, &tex->def);
	memcpy(in->src, src, sizeof(src));
	in->tex_id = tex->sampler_index;
	if (!fs)
		in->tex_id += c->t->vertex_sampler_offset;
}
