/*
 * Intrinsic selection: stage inputs and outputs, system values, the const
 * file, memory, barriers, discard and derivatives (Mesa's
 * emit_intrinsic_* in ir3_compiler_nir.c and ir3_a6xx.c / ir3_a4xx.c).
 *
 *	FS varying      bary.f r, inloc, ij       (the last one gets (ei))
 *	FS flat         flat.b r, inloc, inloc    a6xx+; bary.f before
 *	VS input        a meta input, split per component
 *	output          a source of `end` (FS colour outputs carry their rtN.c slot)
 *	load_uniform    mov from c[n] (cp folds it), c<a0.x + n> when indirect
 *	load_ubo        ldc (a6xx+), ldg from the UBO address (a3xx–a5xx)
 *	SSBO            ldib/stib/atomic.b.* (a6xx+), ldgb/stgb (a3xx–a5xx)
 *	shared          ldl/stl/atomic.*; global ldg/stg/atomic.g.*; scratch ldp/stp
 *	image           ldib/stib/atomic.b.*, resinfo for the size
 *	barrier         bar (workgroup execution), fence (memory only)
 *	discard         kill p0.x; demote (a6xx+)
 *	ddx/ddy         dsx/dsy (fine: dsxpp.1/dsypp.1)
 *	preamble        shps/getone end the blocks before its ifs (ir3_isel.c),
 *	                preamble_end_ir3 shpe, store_preamble stc,
 *	                load_preamble a const read
 *
 * Varying locations: on a6xx+ input decl n's component c is at inloc
 * 4n + c (Mesa's slot layout, decls in location order); a3xx–a5xx pack the
 * components read (pack_inlocs).
 */
#include "compiler/ir3/ir3_isel.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

/* ------------------------------------------------------------------ */
/* inputs */

static bool fs_varying(const struct io_decl *d)
{
	return d->builtin == BUILTIN_none || d->builtin == BUILTIN_primitive_id ||
	       d->builtin == BUILTIN_layer || d->builtin == BUILTIN_viewport ||
	       d->builtin == BUILTIN_clip_distance || d->builtin == BUILTIN_cull_distance;
}

static int cmp_location(const void *a, const void *b)
{
	const struct io_decl *const *x = a, *const *y = b;
	return (*x)->location - (*y)->location;
}

/* The source holding an input access's slot offset (interp_at_barycentric
 * has the barycentrics first). */
static struct src *slot_src_of(struct intrinsic_instr *intr)
{
	return &intr->src[intr->op == INTR_interp_at_barycentric];
}

/* Which components of each input slot the shader reads (pack_inlocs needs
 * it).  Slots number the declarations' elements in order (input_slot). */
static void inputs_read(struct isel *c, unsigned *mask)
{
	ir_foreach_block(blk, c->s->fn)
		ir_foreach_instr(in, blk) {
			if (in->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(in);
			if (intr->op != INTR_load_input && intr->op != INTR_interp_at_centroid &&
			    intr->op != INTR_interp_at_barycentric)
				continue;
			unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
			unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
			uint32_t off = 0;
			isel_src_const(slot_src_of(intr), 0, &off);
			if (base < c->s->num_inputs && off < decl_num_slots(c->s->inputs[base]->array_size))
				mask[c->input_slot[base] + off] |=
					((1u << intr->def.num_components) - 1) << comp;
		}
}

/* Record what varying location `inloc` holds (ir3_iface.h). */
static void iface_varying(struct isel *c, unsigned inloc, int decl, unsigned elem, unsigned comp)
{
	struct ir3_iface *f = c->ir->iface;
	if (inloc >= f->num_varyings) {
		size_t sz = sizeof(*f->varyings);
		f->varyings = arena_realloc(c->ir->arena, f->varyings, f->num_varyings * sz, (inloc + 1) * sz);
		for (unsigned k = f->num_varyings; k <= inloc; k++)
			f->varyings[k] = (struct ir3_iface_varying){ .decl = -2 };
		f->num_varyings = inloc + 1;
	}
	const char *name = decl >= 0 ? isel_decl_name(c, c->s->inputs[decl], elem)
			   : decl == -1 ? "gl_PointCoord" : NULL;
	f->varyings[inloc] = (struct ir3_iface_varying){ decl, elem, comp, name };
}

/* The varying locations (inlocs) of the FS inputs' components: a6xx+ by
 * slot, 4 each, in location order; a3xx–a5xx packed, the components read
 * only.  gl_PointCoord takes the slot after them. */
static void assign_inlocs(struct isel *c)
{
	unsigned n = c->s->num_inputs;
	c->inloc = arena_array(c->ir->arena, unsigned, c->num_input_slots * 4 + 4);
	unsigned *mask = c->input_mask;
	struct io_decl **order = xmalloc(sizeof(*order) * (n + 1));
	for (unsigned k = 0; k < n; k++)
		order[k] = c->s->inputs[k];
	qsort(order, n, sizeof(*order), cmp_location);
	unsigned next = 0;
	for (unsigned k = 0; k < n; k++) {
		unsigned idx = 0;
		while (c->s->inputs[idx] != order[k])
			idx++;
		if (!fs_varying(order[k]))
			continue;
		for (unsigned e = 0; e < decl_num_slots(order[k]->array_size); e++) {
			unsigned slot = c->input_slot[idx] + e;
			for (unsigned comp = 0; comp < 4; comp++) {
				if (c->t->inloc_per_vec4)
					c->inloc[slot * 4 + comp] = next * 4 + comp;
				else if (mask[slot] & (1u << comp))
					c->inloc[slot * 4 + comp] = next++;
				else
					continue;
				iface_varying(c, c->inloc[slot * 4 + comp], (int)idx, e, comp);
			}
			if (c->t->inloc_per_vec4)
				next++;
		}
	}
	c->point_coord_inloc = c->t->inloc_per_vec4 ? next * 4 : next;
	for (unsigned k = 0; k < 2; k++)
		iface_varying(c, c->point_coord_inloc + k, -1, 0, k);
	free(order);
}

static void stage_sysvals(struct isel *c);

/* An output at a location of its own (not a builtin): the declarations at
 * one location share its vector. */
static bool output_located(const struct io_decl *d)
{
	return d->builtin == BUILTIN_none && d->location >= 0;
}

/* Its slot: the location; a fragment output's dual-source index 1 is the
 * next render target (rt1), as the hardware blends it. */
static unsigned output_location(const struct io_decl *d)
{
	return (unsigned)d->location + d->index;
}

void isel_setup_inputs(struct isel *c)
{
	unsigned n = c->s->num_inputs;
	c->input_slot = arena_array(c->ir->arena, unsigned, n + 1);
	for (unsigned k = 0; k < n; k++) {
		c->input_slot[k] = c->num_input_slots;
		c->num_input_slots += decl_num_slots(c->s->inputs[k]->array_size);
	}
	c->input_vals = arena_array(c->ir->arena, struct ir3_register *, c->num_input_slots * 4 + 4);
	memset(c->input_vals, 0, sizeof(*c->input_vals) * (c->num_input_slots * 4 + 4));
	c->output_slot = arena_array(c->ir->arena, unsigned, c->s->num_outputs + 1);
	for (unsigned o = 0; o < c->s->num_outputs; o++)
		if (output_located(c->s->outputs[o])) {
			c->output_slot[o] = output_location(c->s->outputs[o]);
			if (c->output_slot[o] + decl_num_slots(c->s->outputs[o]->array_size) >
			    c->num_output_slots)
				c->num_output_slots = c->output_slot[o] +
						      decl_num_slots(c->s->outputs[o]->array_size);
		}
	unsigned compact = ~0u;
	for (unsigned o = 0; o < c->s->num_outputs; o++) {
		const struct io_decl *d = c->s->outputs[o];
		if (output_located(d))
			continue;
		if (ir3_io_compact(d)) {
			/* the clip and cull distances: one array, two slots */
			if (compact == ~0u) {
				compact = c->num_output_slots;
				c->num_output_slots += 2;
			}
			c->output_slot[o] = compact;
			continue;
		}
		c->output_slot[o] = c->num_output_slots;
		c->num_output_slots += decl_num_slots(d->array_size);
	}
	c->exits = arena_array(c->ir->arena, struct isel_exit, c->s->fn->num_blocks + 1);
	c->input_mask = arena_array(c->ir->arena, unsigned, c->num_input_slots + 1);
	memset(c->input_mask, 0, sizeof(unsigned) * (c->num_input_slots + 1));
	inputs_read(c, c->input_mask);
	if (c->s->stage == STAGE_FRAGMENT)
		assign_inlocs(c);
	stage_sysvals(c);
}

/* The barycentrics input of a kind (Mesa's IJ_PERSP/LINEAR_PIXEL/CENTROID/
 * SAMPLE sysvals: one two-component input each, made on first use). */
static struct ir3_register *ij_of(struct isel *c, enum isel_ij kind)
{
	if (!c->ijs[kind]) {
		struct ir3_builder top = isel_top(c);
		c->ijs[kind] = ir3_b_input(&top, 0, 2, true);
		isel_iface_input(c, c->ijs[kind], (struct ir3_iface_input){ .kind = IR3_IFACE_IJ,
										  .ij = kind });
	}
	return c->ijs[kind];
}

struct ir3_register *isel_ij(struct isel *c)
{
	return ij_of(c, ISEL_IJ_PERSP_PIXEL);
}

struct ir3_register *isel_ij_kind(struct isel *c, enum isel_ij kind)
{
	return ij_of(c, kind);
}

static enum isel_ij ij_kind(const struct io_decl *d, bool centroid)
{
	unsigned base = d->interp == INTERP_noperspective ? ISEL_IJ_LINEAR_PIXEL : ISEL_IJ_PERSP_PIXEL;
	return (enum isel_ij)(base + (centroid || d->centroid ? 1 : d->sample ? 2 : 0));
}

/* A flat varying: flat.b on a6xx+, a bary.f at (0, 0) before */
static struct ir3_register *flat_input(struct isel *c, struct ir3_builder *b, unsigned inloc)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_FLAT_B, 1, 2);
	struct ir3_register *r = ir3_dst_create(i, 0, 1);
	ir3_src_imm(i, inloc, 0);
	ir3_src_imm(i, inloc, 0);
	(void)c;
	return r;
}

static struct ir3_register *fs_input(struct isel *c, unsigned slot, unsigned comp)
{
	struct ir3_register **v = &c->input_vals[slot * 4 + comp];
	if (*v)
		return *v;
	unsigned base = 0;
	while (base + 1 < c->s->num_inputs && c->input_slot[base + 1] <= slot)
		base++;
	const struct io_decl *d = c->s->inputs[base];
	struct ir3_builder top = isel_varying_top(c);
	unsigned inloc = c->inloc[slot * 4 + comp];
	if (d->interp == INTERP_flat && c->t->flat_bypass)
		*v = flat_input(c, &top, inloc);
	else
		*v = ir3_b_bary(&top, inloc, ij_of(c, ij_kind(d, false)));
	/* a 16-bit varying travels in 32 bits: a float is interpolated at f32
	 * and bary.f writes it to a half register converted (Mesa's
	 * ir3_put_def narrows the instruction making a 16-bit value); a flat
	 * one (an integer, or a float not interpolated) is its low bits */
	if (d->bit_size == 16 && d->interp == INTERP_flat)
		*v = ir3_b_cov(&top, TYPE_U32, TYPE_U16, *v);
	else if (d->bit_size == 16)
		(*v)->flags |= IR3_REG_HALF;
	return *v;
}

/* One vector meta input per input slot, as wide as the components the
 * shader reads (Mesa's setup_input: compmask = BITFIELD_MASK(ncomp + frac),
 * widened when another load reads more), split per component. */
static struct ir3_register *vs_input(struct isel *c, unsigned base, unsigned slot, unsigned comp)
{
	struct ir3_register **v = &c->input_vals[slot * 4 + comp];
	if (!*v) {
		const struct io_decl *d = c->s->inputs[base];
		struct ir3_builder top = isel_top(c);
		unsigned width = 32 - (unsigned)__builtin_clz(c->input_mask[slot] | 1);
		if (comp >= width)
			width = comp + 1;
		struct ir3_register *vec = ir3_b_input(&top, d->bit_size == 16 ? IR3_REG_HALF : 0,
						       width, false);
		isel_iface_input(c, vec, (struct ir3_iface_input){ .kind = IR3_IFACE_ATTR, .decl = base,
								   .elem = slot - c->input_slot[base] });
		top = isel_top(c);
		for (unsigned k = 0; k < width; k++)
			c->input_vals[slot * 4 + k] = width == 1 ? vec : ir3_b_split(&top, vec, k);
	}
	return *v;
}

static bool input_slot(struct isel *c, struct intrinsic_instr *intr, unsigned *slot)
{
	uint32_t off;
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	if (!isel_src_const(slot_src_of(intr), 0, &off)) {
		isel_error(c, "%s at a dynamic slot is not supported", intrinsic_infos[intr->op].name);
		return false;
	}
	if (base >= c->s->num_inputs || off >= decl_num_slots(c->s->inputs[base]->array_size) ||
	    comp + intr->def.num_components > 4) {
		isel_error(c, "load_input of an input the shader does not declare");
		return false;
	}
	*slot = c->input_slot[base] + off;
	return true;
}

static void emit_load_input(struct isel *c, struct intrinsic_instr *intr)
{
	unsigned slot;
	if (!input_slot(c, intr, &slot))
		return;
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	struct ir3_register **d = isel_def(c, &intr->def);
	unsigned id = 0;
	for (unsigned k = 0; k < intr->def.num_components; k++) {
		if (c->s->stage != STAGE_FRAGMENT) {
			d[k] = vs_input(c, base, slot, comp + k);
			continue;
		}
		bool fresh = !c->input_vals[slot * 4 + comp + k];
		d[k] = fs_input(c, slot, comp + k);
		/* the components a load interpolates are one repeat group
		 * (Mesa's create_frag_input: ir3_BARY_F_rpt, ir3_FLAT_B_rpt) */
		struct ir3_instruction *i = d[k]->instr;
		if (fresh && intr->def.num_components > 1 &&
		    (i->opc == OPC_BARY_F || i->opc == OPC_FLAT_B)) {
			if (!id)
				id = ++c->ir->rpt_ids;
			i->rpt_id = id;
		}
	}
}

/* interp_at_centroid: bary.f at the centroid barycentrics;
 * interp_at_barycentric (lower_ir3_interp: at an offset or a sample): at
 * the barycentrics the shader computed. */
static void emit_interp_at(struct isel *c, struct intrinsic_instr *intr)
{
	unsigned slot;
	if (!input_slot(c, intr, &slot))
		return;
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	const struct io_decl *d = c->s->inputs[base];
	struct ir3_register *ij;
	if (intr->op == INTR_interp_at_centroid) {
		ij = ij_of(c, ij_kind(d, true));
	} else {
		struct ir3_register **v = isel_get(c, intr->src[0].ssa);
		ij = ir3_b_collect(&c->b, 2, v);
	}
	struct ir3_register **dst = isel_def(c, &intr->def);
	for (unsigned k = 0; k < intr->def.num_components; k++) {
		dst[k] = ir3_b_bary(&c->b, c->inloc[slot * 4 + comp + k], ij);
		if (d->bit_size == 16)
			dst[k]->flags |= IR3_REG_HALF;	/* as fs_input */
	}
}

/* load_barycentric_pixel: the pixel barycentrics of input `base`'s
 * interpolation; load_sample_pos_from_id: rgetpos. */
static void emit_barycentrics(struct isel *c, struct intrinsic_instr *intr)
{
	struct ir3_register **d = isel_def(c, &intr->def), *v;
	if (intr->op == INTR_load_barycentric_pixel) {
		const struct io_decl *in = c->s->inputs[intrinsic_get(intr, INTR_IDX_base)];
		v = ij_of(c, ij_kind(in, false) - (in->centroid ? 1 : in->sample ? 2 : 0));
		c->ir->need_pixlod = true;
	} else {
		struct ir3_register *id = isel_get(c, intr->src[0].ssa)[0];
		v = ir3_b_tex(&c->b, OPC_RGETPOS, TYPE_F32, 0x3, 0, 0, 1, &id);
	}
	for (unsigned k = 0; k < 2; k++)
		d[k] = ir3_b_split(&c->b, v, k);
}

/* gl_PointCoord: a varying of its own after the others (two bary.f) */
static void emit_point_coord(struct isel *c, struct intrinsic_instr *intr)
{
	struct ir3_register **d = isel_def(c, &intr->def);
	struct ir3_builder top = isel_varying_top(c);
	for (unsigned k = 0; k < 2; k++) {
		if (!c->point_coord[k])
			c->point_coord[k] = ir3_b_bary(&top, c->point_coord_inloc + k, isel_ij(c));
		d[k] = c->point_coord[k];
	}
}

/* ------------------------------------------------------------------ */
/* outputs */

/* The outputs of the exit the current block is (created on first use). */
static struct ir3_register **exit_vals(struct isel *c)
{
	for (unsigned k = 0; k < c->num_exits; k++)
		if (c->exits[k].block == c->b.block)
			return c->exits[k].vals;
	struct isel_exit *x = &c->exits[c->num_exits++];
	x->block = c->b.block;
	x->vals = arena_array(c->ir->arena, struct ir3_register *, c->num_output_slots * 4 + 4);
	memset(x->vals, 0, sizeof(*x->vals) * (c->num_output_slots * 4 + 4));
	return x->vals;
}

/* The slot and component element `elem`, component `comp` of output `o`
 * is stored in; false: none.  The clip and cull distances are one compact
 * array of floats, four to a slot, the cull distances after the clip
 * distances (Mesa's nir_lower_clip_cull_distance_arrays, ir3_io_place), so
 * its slot is a vector like any other: `gl_ClipDistance[1] = p.y` beside
 * `gl_Position = p` costs the movs of two vectors sharing components. */
static bool output_place(struct isel *c, unsigned o, unsigned elem, unsigned comp, unsigned *slot,
			 unsigned *at)
{
	const struct io_decl *d = c->s->outputs[o];
	*at = comp;
	if (!ir3_io_compact(d)) {
		*slot = c->output_slot[o] + elem;
		return comp < 4;
	}
	int index = ir3_io_place(c->s->outputs, c->s->num_outputs, d, elem, at);
	if (index < 0)
		return false;
	*slot = c->output_slot[o] + (unsigned)(index - 7);
	return true;
}

/* After lower_io_to_temps, outputs are stored only in the blocks that end
 * the shader, at constant slots. */
static void emit_store_output(struct isel *c, struct intrinsic_instr *intr)
{
	uint32_t off;
	struct block *blk = intr->instr.block;
	if (!isel_src_const(&intr->src[1], 0, &off) || !block_has_pred(c->s->fn->end_block, blk)) {
		isel_error(c, "internal error: store_output left by lower_io_to_temps");
		return;
	}
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	if (base >= c->s->num_outputs || off >= decl_num_slots(c->s->outputs[base]->array_size)) {
		isel_error(c, "store_output to an output the shader does not declare");
		return;
	}
	struct ir3_register **v = isel_get(c, intr->src[0].ssa);
	struct ir3_register **vals = exit_vals(c);
	for (unsigned k = 0; k < intr->num_components; k++) {
		unsigned slot, at;
		if ((mask & (1u << k)) && output_place(c, base, off, comp + k, &slot, &at))
			vals[slot * 4 + at] = v[k];
	}
}

/* One value per output component at the end: the exit's, or a phi of the
 * exits' (a zero where an exit left it unwritten). */
static struct ir3_register **end_values(struct isel *c)
{
	unsigned n = c->num_output_slots * 4;
	if (c->num_exits <= 1)
		return c->num_exits ? c->exits[0].vals
				    : arena_array(c->ir->arena, struct ir3_register *, n + 4);
	struct ir3_register **v = arena_array(c->ir->arena, struct ir3_register *, n + 4);
	struct ir3_block *end = c->b.block;
	for (unsigned k = 0; k < n; k++) {
		v[k] = NULL;
		struct ir3_register *any = NULL;
		for (unsigned x = 0; x < c->num_exits; x++)
			any = any ? any : c->exits[x].vals[k];
		if (!any)
			continue;
		v[k] = ir3_b_phi(end, any->flags & IR3_REG_HALF, 1);
		for (unsigned x = 0; x < c->num_exits; x++) {
			struct ir3_register *e = c->exits[x].vals[k];
			if (!e) {
				struct ir3_builder b = ir3_builder_at_end(c->exits[x].block);
				struct ir3_instruction *t = ir3_block_terminator(c->exits[x].block);
				b.before = t;
				e = ir3_b_imm(&b, (any->flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32, 0);
			}
			ir3_phi_add_src(v[k], c->exits[x].block, e);
		}
	}
	return v;
}

/* What output slot `sl` holds, component by component, in the
 * interface's terms; its rtN.c when it is a colour output. */
static struct ir3_iface_output slot_owners(struct isel *c, unsigned sl)
{
	struct ir3_iface_output io = { .slot = -1 };
	for (unsigned k = 0; k < 4; k++)
		io.comp[k].decl = -1;
	for (unsigned o = 0; o < c->s->num_outputs; o++) {
		const struct io_decl *d = c->s->outputs[o];
		if (ir3_io_compact(d)) {
			for (unsigned e = 0; e < decl_num_slots(d->array_size); e++) {
				unsigned slot, at;
				if (!output_place(c, o, e, 0, &slot, &at) || slot != sl)
					continue;
				io.comp[at] = (struct ir3_iface_comp){ (int)o, e, 0 };
				if (!io.name)
					io.name = isel_decl_name(c, d, e);
			}
			continue;
		}
		if (sl < c->output_slot[o] || sl - c->output_slot[o] >= decl_num_slots(d->array_size))
			continue;
		for (unsigned k = d->component; k < 4 && k < d->component + d->num_components; k++)
			io.comp[k] = (struct ir3_iface_comp){ (int)o, sl - c->output_slot[o], k - d->component };
		if (c->s->stage == STAGE_FRAGMENT && output_located(d) && sl < 8)
			io.slot = (int)sl * 4;
		if (!io.name)
			io.name = isel_decl_name(c, d, sl - c->output_slot[o]);
	}
	return io;
}

/* `end` reads each output slot as a vector of its components (Mesa's
 * output collects: an output takes consecutive registers, so a value
 * written to two components, or components from different places, costs
 * movs); a hole below the last component written reads 0.  FS colour
 * outputs carry their rtN slot (alias.rt). */
void isel_emit_end(struct isel *c)
{
	struct ir3_register *srcs[ISEL_MAX_OUTPUT_SLOTS];
	struct ir3_iface_output owners[ISEL_MAX_OUTPUT_SLOTS];
	unsigned n = 0;
	struct ir3_register **vals = end_values(c);
	/* the collects (and the movs of their immediates, the covs of their
	 * halves) go before the jump of the end block's one predecessor, as
	 * Mesa's, so that the schedulers can put those movs where nops would
	 * be; `end` stays in the end block */
	struct ir3_builder end_block = c->b;
	if (c->num_exits == 1 && ir3_block_terminator(c->exits[0].block)) {
		c->b = ir3_builder_at_end(c->exits[0].block);
		c->b.before = ir3_block_terminator(c->exits[0].block);
	}
	for (unsigned sl = 0; sl < c->num_output_slots && n < ISEL_MAX_OUTPUT_SLOTS; sl++) {
		struct ir3_register **v = &vals[sl * 4];
		unsigned ncomp = 0;
		for (unsigned k = 0; k < 4; k++)
			if (v[k])
				ncomp = k + 1;
		if (!ncomp)
			continue;
		struct ir3_register *comps[4];
		bool half = false;
		for (unsigned k = 0; k < ncomp; k++)
			half |= v[k] && (v[k]->flags & IR3_REG_HALF);
		for (unsigned k = 0; k < ncomp; k++)
			comps[k] = v[k] ? isel_resize(c, v[k], half) : isel_imm(c, 0, half);
		srcs[n] = isel_collect(c, comps, ncomp);
		owners[n++] = slot_owners(c, sl);
	}
	c->b = end_block;
	struct ir3_instruction *end = ir3_b_end(&c->b, n, srcs);
	for (unsigned k = 0; k < n; k++)
		end->srcs[k]->slot = owners[k].slot;
	struct ir3_iface *f = c->ir->iface;
	f->outputs = arena_array(c->ir->arena, struct ir3_iface_output, n + 1);
	f->num_outputs = n;
	memcpy(f->outputs, owners, n * sizeof(*owners));
}

/* ------------------------------------------------------------------ */
/* system values */

/* A system value in registers: one vector meta input of `ncomp`
 * components, split (Mesa's create_sysval_input with its compmask). */
static struct ir3_register *sysval_input(struct isel *c, enum intrinsic op, unsigned ncomp,
					 unsigned flags, unsigned comp)
{
	if (!c->sysvals[op][comp]) {
		struct ir3_builder top = isel_top(c);
		struct ir3_register *vec = ir3_b_input(&top, flags, ncomp, false);
		isel_iface_input(c, vec, (struct ir3_iface_input){ .kind = IR3_IFACE_SYSVAL, .sysval = op });
		top = isel_top(c);
		for (unsigned k = 0; k < ncomp; k++)
			c->sysvals[op][k] = ncomp == 1 ? vec : ir3_b_split(&top, vec, k);
	}
	return c->sysvals[op][comp];
}

/* A system value the hardware delivers in shared registers (a5xx+: the
 * compute workgroup id, Mesa's create_sysval_input with IR3_REG_SHARED):
 * one vector input from r48.x, split.  RA leaves the shared file alone, so
 * it is placed here, as the first thing in it; `full` does not count it. */
static struct ir3_register *shared_sysval(struct isel *c, enum intrinsic op, unsigned ncomp,
					  unsigned comp)
{
	if (!c->sysvals[op][comp]) {
		struct ir3_builder top = isel_top(c);
		struct ir3_register *vec = ir3_b_input(&top, IR3_REG_SHARED, ncomp, false);
		vec->num = IR3_SHARED_FIRST;
		vec->flags |= IR3_REG_ASSIGNED;
		isel_iface_input(c, vec, (struct ir3_iface_input){ .kind = IR3_IFACE_SYSVAL, .sysval = op });
		c->shared_values = true;
		top = isel_top(c);
		for (unsigned k = 0; k < ncomp; k++) {
			struct ir3_register *e = ir3_b_split(&top, vec, k);
			e->flags |= IR3_REG_SHARED | IR3_REG_ASSIGNED;
			e->num = vec->num + k;
			c->sysvals[op][k] = e;
		}
	}
	return c->sysvals[op][comp];
}

/* A system value input the hardware delivers in a fixed register r0.<comp>
 * (Mesa precolours the TCS and GS headers, the TCS's relative patch id and
 * their primitive ids: the producer stage chains to them). */
static struct ir3_register *fixed_sysval(struct isel *c, enum intrinsic op, unsigned regid)
{
	struct ir3_register *r = sysval_input(c, op, 1, 0, 0);
	r->num = regid;
	r->flags |= IR3_REG_ASSIGNED;
	return r;
}

/* The system values Mesa's emit_instructions creates for every TCS, TES
 * and GS, used or not. */
static void stage_sysvals(struct isel *c)
{
	switch (c->s->stage) {
	case STAGE_TESS_CTRL:
		fixed_sysval(c, INTR_load_tcs_header_ir3, 0);
		fixed_sysval(c, INTR_load_rel_patch_id_ir3, 1);
		break;
	case STAGE_TESS_EVAL:
		sysval_input(c, INTR_load_rel_patch_id_ir3, 1, 0, 0);
		break;
	case STAGE_GEOMETRY:
		fixed_sysval(c, INTR_load_gs_header_ir3, 0);
		break;
	default:
		break;
	}
	if (c->s->stage == STAGE_TESS_CTRL && c->t->tess_use_shared) {
		/* a650+: the TCS reads its inputs with ldl, after a (ss)(sy) bar
		 * (Mesa's emit_instructions) */
		struct ir3_builder top = isel_top(c);
		struct ir3_instruction *bar = ir3_b_instr(&top, OPC_BAR, 0, 0);
		bar->flags |= IR3_INSTR_FIXED_SYNC;
	}
}

static struct ir3_register *primitive_id(struct isel *c)
{
	if (c->s->stage == STAGE_TESS_CTRL)
		return fixed_sysval(c, INTR_load_primitive_id, 2);
	if (c->s->stage == STAGE_GEOMETRY)
		return fixed_sysval(c, INTR_load_primitive_id, 1);
	return sysval_input(c, INTR_load_primitive_id, 1, 0, 0);
}

/* TES: the hardware gives u, v; w = 1 - u - v for triangles, else 0
 * (nir_lower_tess_coord_z). */
static void tess_coord(struct isel *c, struct ir3_register **d)
{
	d[0] = sysval_input(c, INTR_load_tess_coord, 2, 0, 0);
	d[1] = sysval_input(c, INTR_load_tess_coord, 2, 0, 1);
	if (c->s->info.tess_primitive == PRIM_quads || c->s->info.tess_primitive == PRIM_isolines) {
		d[2] = isel_imm(c, 0, false);
		return;
	}
	struct ir3_register *t = ir3_b_alu2(&c->b, OPC_ADD_F, ir3_b_imm(&c->b, TYPE_F32, 0x3f800000), d[0]);
	t->instr->srcs[1]->flags |= IR3_REG_FNEG;
	d[2] = ir3_b_alu2(&c->b, OPC_ADD_F, t, d[1]);
	d[2]->instr->srcs[1]->flags |= IR3_REG_FNEG;
}

static struct ir3_register *driver_param(struct isel *c, unsigned dp)
{
	return isel_const(c, c->cl->driver_vec4 * 4 + dp);
}

/* A system value read from the driver params, one per component; false
 * when the stage has none for it. */
static bool driver_params(struct isel *c, struct intrinsic_instr *intr)
{
	int dp = ir3_driver_param(c->s->stage, intr->op, c->t->has_shared_regfile);
	if (dp < 0)
		return false;
	struct ir3_register **d = isel_def(c, &intr->def);
	for (unsigned k = 0; k < intr->def.num_components; k++)
		d[k] = driver_param(c, (unsigned)dp + k);
	return true;
}

static bool emit_sysval(struct isel *c, struct intrinsic_instr *intr)
{
	struct ir3_register **d;
	switch (intr->op) {
	case INTR_load_frag_coord:
		/* the hardware gives the pixel's integer position; FragCoord is
		 * its centre unless the shader asks for integer centres (the
		 * + 0.5 of nir_lower_wpos_center) */
		d = isel_def(c, &intr->def);
		{
			/* x and y: a repeat group per step (Mesa's get_frag_coord
			 * builds them with the _rpt builders, the + 0.5 is a vec2
			 * fadd) */
			unsigned cov_id = ++c->ir->rpt_ids, add_id = ++c->ir->rpt_ids;
			for (unsigned k = 0; k < 4; k++) {
				struct ir3_register *v = sysval_input(c, intr->op, 4, 0, k);
				d[k] = v;
				if (k >= 2)
					continue;
				d[k] = ir3_b_cov(&c->b, TYPE_U32, TYPE_F32, v);
				d[k]->instr->rpt_id = cov_id;
				if (c->s->info.pixel_center_integer)
					continue;
				d[k] = ir3_b_alu2(&c->b, OPC_ADD_F, d[k], ir3_b_imm(&c->b, TYPE_F32, 0x3f000000));
				d[k]->instr->rpt_id = add_id;
			}
		}
		return true;
	case INTR_load_front_face: {
		/* -1 for back, 0 for front: front = (face == 0) */
		struct ir3_register *f = sysval_input(c, intr->op, 1, IR3_REG_HALF, 0);
		isel_def(c, &intr->def)[0] =
			ir3_b_cmp(&c->b, OPC_CMPS_S, COND_EQ, c->bool_flags, f, isel_imm(c, 0, true));
		return true;
	}
	case INTR_load_sample_id: case INTR_load_sample_mask_in: case INTR_load_vertex_id:
	case INTR_load_instance_id:
		isel_def(c, &intr->def)[0] = sysval_input(c, intr->op, 1, 0, 0);
		return true;
	case INTR_load_primitive_id:
		isel_def(c, &intr->def)[0] = primitive_id(c);
		return true;
	case INTR_load_tcs_header_ir3: case INTR_load_gs_header_ir3:
		isel_def(c, &intr->def)[0] = sysval_input(c, intr->op, 1, 0, 0);
		return true;
	case INTR_load_rel_patch_id_ir3:
		isel_def(c, &intr->def)[0] = c->s->stage == STAGE_TESS_CTRL
			? fixed_sysval(c, intr->op, 1) : sysval_input(c, intr->op, 1, 0, 0);
		return true;
	case INTR_load_tess_coord:
		tess_coord(c, isel_def(c, &intr->def));
		return true;
	case INTR_load_primitive_param_ir3:
		isel_def(c, &intr->def)[0] = isel_const(c, c->cl->primitive_param_vec4 * 4 +
						(unsigned)intrinsic_get(intr, INTR_IDX_base));
		return true;
	case INTR_load_primitive_location_ir3:
		isel_def(c, &intr->def)[0] = isel_const(c, c->cl->primitive_map_vec4 * 4 +
						(unsigned)intrinsic_get(intr, INTR_IDX_base));
		return true;
	case INTR_load_workgroup_id:
		if (ir3_driver_param(c->s->stage, intr->op, c->t->has_shared_regfile) >= 0)
			return driver_params(c, intr);
		d = isel_def(c, &intr->def);
		for (unsigned k = 0; k < 3; k++)
			d[k] = shared_sysval(c, intr->op, 3, k);
		return true;
	case INTR_load_local_invocation_id:
		d = isel_def(c, &intr->def);
		for (unsigned k = 0; k < 3; k++)
			d[k] = sysval_input(c, intr->op, 3, 0, k);
		return true;
	case INTR_load_draw_id: case INTR_load_base_vertex: case INTR_load_base_instance:
	case INTR_load_num_workgroups: case INTR_load_frag_size:
	case INTR_load_frag_invocation_count:
		return driver_params(c, intr);
	case INTR_load_subgroup_size: {
		/* a driver param where the wave size is chosen at draw time (FS,
		 * CS), else the single threadsize */
		int dp = ir3_driver_param(c->s->stage, intr->op, c->t->has_shared_regfile);
		isel_def(c, &intr->def)[0] = dp < 0 ? isel_imm(c, c->t->threadsize_base, false)
						    : driver_param(c, (unsigned)dp);
		return true;
	}
	case INTR_load_subgroup_id: case INTR_load_num_subgroups: {
		/* local index >> shift; the count from the workgroup size (Mesa's
		 * nir_lower_compute_system_values with ir3's subgroup_id_shift) */
		if (c->s->stage != STAGE_COMPUTE)
			return false;
		struct ir3_register *shift = driver_param(c, IR3_DP_SUBGROUP_ID_SHIFT);
		unsigned total = c->ir->local_size[0] * c->ir->local_size[1] * c->ir->local_size[2];
		struct ir3_register *v;
		if (intr->op == INTR_load_subgroup_id) {
			struct ir3_register *id[3];
			for (unsigned k = 0; k < 3; k++)
				id[k] = sysval_input(c, INTR_load_local_invocation_id, 3, 0, k);
			v = id[0];
			if (c->ir->local_size[1] > 1)
				v = ir3_b_alu3(&c->b, OPC_MAD_U24, id[1], isel_imm(c, c->ir->local_size[0], false), v);
			if (c->ir->local_size[2] > 1)
				v = ir3_b_alu3(&c->b, OPC_MAD_U24, id[2],
					       isel_imm(c, c->ir->local_size[0] * c->ir->local_size[1], false), v);
			v = ir3_b_alu2(&c->b, OPC_SHR_B, v, shift);
		} else {
			struct ir3_register *t = isel_imm(c, total ? total - 1 : 0, false);
			v = ir3_b_alu2(&c->b, OPC_ADD_U, ir3_b_alu2(&c->b, OPC_SHR_B, t, shift),
				       isel_imm(c, 1, false));
		}
		isel_def(c, &intr->def)[0] = v;
		return true;
	}
	case INTR_load_view_index:
		isel_def(c, &intr->def)[0] = sysval_input(c, intr->op, 1, 0, 0);
		return true;
	case INTR_load_sample_pos: {
		struct ir3_register *id = sysval_input(c, INTR_load_sample_id, 1, 0, 0);
		struct ir3_register *pos = ir3_b_tex(&c->b, OPC_RGETPOS, TYPE_F32, 0x3, 0, 0, 1, &id);
		d = isel_def(c, &intr->def);
		for (unsigned k = 0; k < 2; k++)
			d[k] = ir3_b_split(&c->b, pos, k);
		return true;
	}
	case INTR_load_helper_invocation: case INTR_is_helper_invocation: {
		/* not covered: the sample mask is empty */
		struct ir3_register *m = sysval_input(c, INTR_load_sample_mask_in, 1, 0, 0);
		isel_def(c, &intr->def)[0] =
			ir3_b_cmp(&c->b, OPC_CMPS_S, COND_EQ, c->bool_flags, m, isel_imm(c, 0, false));
		return true;
	}
	case INTR_load_barycentric_coord: case INTR_load_barycentric_coord_noperspective: {
		/* (i, j, 1 - i - j) of the pixel barycentrics */
		struct ir3_register *ij = isel_ij_kind(c, intr->op == INTR_load_barycentric_coord
							? ISEL_IJ_PERSP_PIXEL : ISEL_IJ_LINEAR_PIXEL);
		d = isel_def(c, &intr->def);
		d[0] = ir3_b_split(&c->b, ij, 0);
		d[1] = ir3_b_split(&c->b, ij, 1);
		struct ir3_register *t = ir3_b_alu2(&c->b, OPC_ADD_F, ir3_b_imm(&c->b, TYPE_F32, 0x3f800000), d[0]);
		t->instr->srcs[1]->flags |= IR3_REG_FNEG;
		d[2] = ir3_b_alu2(&c->b, OPC_ADD_F, t, d[1]);
		d[2]->instr->srcs[1]->flags |= IR3_REG_FNEG;
		return true;
	}
	case INTR_load_subgroup_invocation:
		/* getfiberid (a6xx+; older generations have no subgroups in Mesa:
		 * the same instruction stands in) */
		isel_def(c, &intr->def)[0] = ir3_dst_create(ir3_b_instr(&c->b, OPC_GETFIBERID, 1, 0), 0, 1);
		d = c->vals[intr->def.index];
		d[0]->instr->type = TYPE_U32;
		return true;
	default:
		return false;
	}
}

/* ------------------------------------------------------------------ */
/* the const file and UBOs */

/* Component `comp` of `d`, a byte offset, when it is itself a shift by a
 * constant: shifted right by `shift` more as one shift (Mesa's
 * ir3_nir_try_propagate_bit_shift, which ir3_nir_lower_io_offsets tries
 * first).  NULL when it is not one, or the direction would turn, or the
 * amount leave -31 … 31. */
static struct ir3_register *propagate_shift(struct isel *c, struct ssa_def *d, unsigned comp,
					    int shift)
{
	if (d->parent->type != INSTR_alu)
		return NULL;
	struct alu_instr *alu = instr_as_alu(d->parent);
	int dir;
	enum ir3_opc opc;
	switch (alu->op) {
	case OP_ishl: dir = 1; opc = OPC_SHL_B; break;
	case OP_ishr: dir = -1; opc = OPC_ASHR_B; break;
	case OP_ushr: dir = -1; opc = OPC_SHR_B; break;
	default: return NULL;
	}
	uint32_t amount;
	if (alu->def.bit_size != 32 || !isel_src_const(&alu->src[1].src, alu->src[1].swizzle[comp], &amount))
		return NULL;
	int cur = (int)amount * dir, now = cur + shift;
	if ((cur < 0 && now > 0) || (cur > 0 && now < 0) || now < -31 || now > 31)
		return NULL;
	int by = shift * dir < 0 ? (int)amount - abs(shift) : (int)amount + abs(shift);
	struct ir3_register *x = isel_get(c, alu->src[0].src.ssa)[alu->src[0].swizzle[comp]];
	return by ? ir3_b_alu2(&c->b, opc, x, isel_imm(c, (uint32_t)by, false)) : x;
}

/* A byte offset in dwords: a shift by a constant takes the division by 4
 * into its own count (propagate_shift), else a shift right by 2. */
static struct ir3_register *dword_offset(struct isel *c, struct ssa_def *off)
{
	struct ir3_register *y = propagate_shift(c, off, 0, -2);
	if (y)
		return y;
	return ir3_b_alu2(&c->b, OPC_SHR_B, isel_get(c, off)[0], isel_imm(c, 2, false));
}

/* a0.x = a byte offset / 4, a signed 16-bit value; one mova per offset
 * and block (Mesa's ir3_get_addr0 and its addr0_ht). */
static struct ir3_instruction *offset_addr0(struct isel *c, struct ssa_def *off)
{
	/* (code placed before an instruction could precede a mova kept) */
	bool cache = !c->b.before;
	if (c->addr0_block != c->b.block) {
		c->addr0_block = c->b.block;
		c->num_addr0 = 0;
	}
	for (unsigned k = 0; cache && k < c->num_addr0; k++)
		if (c->addr0[k].off == off)
			return c->addr0[k].mova;
	struct ir3_register *h = ir3_b_cov(&c->b, TYPE_U32, TYPE_S16, dword_offset(c, off));
	struct ir3_instruction *mova = ir3_b_instr(&c->b, OPC_MOVA, 1, 1);
	mova->type = mova->dst_type = TYPE_S16;
	ir3_dst_create(mova, IR3_REG_ADDR, 1);
	ir3_src_ssa(mova, h, 0);
	if (cache && c->num_addr0 < sizeof(c->addr0) / sizeof(c->addr0[0]))
		c->addr0[c->num_addr0++] = (struct isel_addr0){ off, mova };
	return mova;
}

/* c[n] from a byte offset: direct, or c<a0.x + n> for a dynamic offset. */
static void emit_load_uniform(struct isel *c, struct intrinsic_instr *intr)
{
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	struct ir3_register **d = isel_def(c, &intr->def);
	unsigned bits = intr->def.bit_size;
	/* 64-bit values are two dwords each (Mesa's ir3_nir_lower_64b_intrinsics) */
	unsigned n = intr->def.num_components * (bits == 64 ? 2 : 1);
	uint32_t off;
	bool direct = isel_src_const(&intr->src[0], 0, &off);
	if (bits < 32 && direct) {
		/* bytes and halves of the const file: shifted out of their dword */
		unsigned at = base + off;
		for (unsigned k = 0; k < intr->def.num_components; k++, at += bits / 8) {
			struct ir3_register *w = isel_const(c, at / 4);
			if (at % 4)
				w = ir3_b_alu2(&c->b, OPC_SHR_B, w, isel_imm(c, 8 * (at % 4), false));
			d[k] = ir3_b_cov(&c->b, TYPE_U32, TYPE_U16, w);
		}
		return;
	}
	if (bits < 32) {
		isel_error(c, "load_uniform of %u-bit values at a dynamic offset is not supported",
			   bits);
		return;
	}
	if (direct) {
		unsigned comp = (base + off) / 4;
		for (unsigned k = 0; k < n; k++)
			d[k] = isel_const(c, comp + k);
		return;
	}
	struct ir3_instruction *mova = offset_addr0(c, intr->src[0].ssa);
	for (unsigned k = 0; k < n; k++) {
		struct ir3_instruction *i = ir3_b_instr(&c->b, OPC_MOV, 1, 1);
		i->type = i->dst_type = TYPE_U32;
		d[k] = ir3_dst_create(i, 0, 1);
		struct ir3_register *r = ir3_src_const(i, 0, IR3_REG_RELATIV);
		r->rel_offset = (int)(base / 4 + k);
		i->address = mova;
	}
}

/* a6xx+: ldc.offset0 dst, vec4 offset, ubo (nir_lower_ubo_vec4). */
static void emit_ldc(struct isel *c, struct intrinsic_instr *intr, struct ir3_register *ubo,
		     struct ir3_register **d)
{
	unsigned align_mul = (unsigned)intrinsic_get(intr, INTR_IDX_align_mul);
	unsigned align_off = (unsigned)intrinsic_get(intr, INTR_IDX_align_offset);
	unsigned ncomp = intr->def.num_components;
	if (align_mul < 16 || (align_off & 3) || (align_off % 16) / 4 + ncomp > 4) {
		isel_error(c, "load_ubo with a dynamic offset not aligned to its vec4 is not supported");
		return;
	}
	unsigned first = (align_off % 16) / 4;
	uint32_t co;
	struct ir3_register *vec4;
	if (isel_src_const(&intr->src[1], 0, &co)) {
		vec4 = isel_imm(c, co >> 4, false);	/* folded, as NIR's ushr of a constant */
	} else {
		struct ir3_register *o = isel_get(c, intr->src[1].ssa)[0];
		vec4 = ir3_b_alu2(&c->b, OPC_SHR_B, o, isel_imm(c, 4, false));
	}
	struct ir3_instruction *i = ir3_b_instr(&c->b, OPC_LDC, 1, 2);
	i->type = TYPE_U32;
	/* ldc.offset<first>.<ncomp>: the components from `first` of the vec4 */
	i->off = (int)first;
	struct ir3_register *dst = ir3_dst_create(i, 0, ncomp);
	ir3_src_ssa(i, vec4, 0);
	ir3_src_ssa(i, ubo, 0);
	for (unsigned k = 0; k < ncomp; k++)
		d[k] = ncomp == 1 ? dst : ir3_b_split(&c->b, dst, k);
}

/* a3xx–a5xx: ldg from the UBO's address, read from the const file. */
/* A const-file dword read through a0.x: c<a0.x + n> (the mova of `idx`
 * times `scale`, Mesa's ir3_get_addr0 + create_uniform_indirect). */
static struct ir3_instruction *addr0(struct isel *c, struct ir3_register *idx, unsigned scale)
{
	if (scale > 1)
		idx = ir3_b_alu2(&c->b, OPC_MUL_S24, idx, isel_imm(c, scale, false));
	struct ir3_register *h = ir3_b_cov(&c->b, TYPE_U32, TYPE_S16, idx);
	struct ir3_instruction *mova = ir3_b_instr(&c->b, OPC_MOVA, 1, 1);
	mova->type = mova->dst_type = TYPE_S16;
	ir3_dst_create(mova, IR3_REG_ADDR, 1);
	ir3_src_ssa(mova, h, 0);
	return mova;
}

static struct ir3_register *relative_const(struct isel *c, struct ir3_instruction *mova, unsigned n)
{
	struct ir3_instruction *i = ir3_b_instr(&c->b, OPC_MOV, 1, 1);
	i->type = i->dst_type = TYPE_U32;
	struct ir3_register *d = ir3_dst_create(i, 0, 1);
	ir3_src_const(i, 0, IR3_REG_RELATIV)->rel_offset = (int)n;
	i->address = mova;
	return d;
}

static void emit_ubo_ldg(struct isel *c, struct intrinsic_instr *intr, unsigned ubo,
			 struct ir3_register **d)
{
	unsigned ptrsz = c->t->is_64bit ? 2 : 1;
	unsigned ptr = c->cl->ubo_ptr_vec4 * 4 + ubo * ptrsz;
	uint32_t cu;
	struct ir3_instruction *mova = NULL;
	if (!isel_src_const(&intr->src[0], 0, &cu)) {
		/* a dynamic buffer index: its address through a0.x */
		mova = addr0(c, isel_get(c, intr->src[0].ssa)[0], ptrsz);
		ptr = c->cl->ubo_ptr_vec4 * 4;
	}
	struct ir3_register *lo = mova ? relative_const(c, mova, ptr) : isel_const(c, ptr);
	struct ir3_register *addr = lo;
	int off = 0;
	uint32_t coff;
	if (isel_src_const(&intr->src[1], 0, &coff))
		off = (int)coff;
	else
		addr = ir3_b_alu2(&c->b, OPC_ADD_S, lo, isel_get(c, intr->src[1].ssa)[0]);
	int ncomp = intr->def.num_components;
	if (off + ncomp * 4 > 1024) {
		int off2 = off + ncomp * 4 - 1024;
		addr = ir3_b_alu2(&c->b, OPC_ADD_S, addr, isel_imm(c, (uint32_t)off2, false));
		off -= off2;
	}
	if (ptrsz == 2) {
		struct ir3_register *carry = ir3_b_cmp(&c->b, OPC_CMPS_U, COND_LT, 0, addr, lo);
		struct ir3_register *hi = ir3_b_alu2(&c->b, OPC_ADD_S,
						     mova ? relative_const(c, mova, ptr + 1)
							  : isel_const(c, ptr + 1), carry);
		struct ir3_register *pair[2] = { addr, hi };
		addr = ir3_b_collect(&c->b, 2, pair);
	}
	for (int k = 0; k < ncomp; k++) {
		struct ir3_instruction *i = ir3_b_instr(&c->b, OPC_LDG, 1, 3);
		i->type = TYPE_U32;
		d[k] = ir3_dst_create(i, 0, 1);
		ir3_src_ssa(i, addr, 0);
		ir3_src_imm(i, (uint32_t)(off + 4 * k), 0);
		ir3_src_imm(i, 1, 0);
	}
}

static void emit_load_ubo(struct isel *c, struct intrinsic_instr *intr)
{
	uint32_t ubo = 0;
	isel_src_const(&intr->src[0], 0, &ubo);
	if (intr->def.bit_size != 32) {
		isel_error(c, "load_ubo of %u-bit values is not supported", intr->def.bit_size);
		return;
	}
	struct ir3_register **d = isel_def(c, &intr->def);
	if (c->t->ubo_ldc)
		emit_ldc(c, intr, isel_get(c, intr->src[0].ssa)[0], d);
	else
		emit_ubo_ldg(c, intr, ubo, d);
}

/* ------------------------------------------------------------------ */
/* memory */

static enum ir3_type mem_type(unsigned bit_size)
{
	return bit_size == 16 ? TYPE_U16 : bit_size == 8 ? TYPE_U8 : TYPE_U32;
}

/* log2 of an a6xx SSBO access's offset unit: the offset counts dwords,
 * 16-bit words for 16-bit accesses, bytes for 8-bit ones (Mesa's
 * ir3_nir_lower_io_offsets and the 8-bit cases of ir3_a6xx.c). */
static unsigned offset_shift(unsigned bit_size)
{
	return bit_size == 8 ? 0 : bit_size == 16 ? 1 : 2;
}

/* An a6xx SSBO access's offset in elements of `bit_size`, from the byte
 * offset `src` plus `extra` bytes: a register and, where the instruction
 * takes one (`imm_bits`, 0 for none) on a target with
 * has_ssbo_imm_offsets, an immediate below 1 << imm_bits in *imm.
 * Mesa's ir3_nir_lower_io_offsets: a byte offset made by a shift becomes
 * one shift (propagate_shift); one that adds a constant to a value shifts
 * the value alone and adds the constant shifted (its create_shift), so
 * that nir_opt_offsets can move that constant into the instruction when
 * it fits (ir3_nir_max_imm_offset: 127 for ldib/stib, 255 for isam.v).
 * A constant offset is split into a multiple of the bound and the rest
 * (ir3_lower_imm_offset), so neighbouring accesses share the register. */
static struct ir3_register *ssbo_offset_imm(struct isel *c, struct src *src, uint32_t extra,
					    unsigned bit_size, unsigned imm_bits, unsigned *imm)
{
	unsigned shift = offset_shift(bit_size);
	uint32_t bound = imm_bits && c->t->has_ssbo_imm_offsets ? 1u << imm_bits : 0, v;
	*imm = 0;
	if (isel_src_const(src, 0, &v)) {
		uint32_t full = (v + extra) >> shift;
		*imm = bound ? full % bound : 0;
		return isel_imm(c, full - *imm, false);
	}
	struct ssa_def *d = src->ssa;
	unsigned comp = 0;
	if (bound && d->parent->type == INSTR_alu) {
		struct alu_instr *add = instr_as_alu(d->parent);
		for (unsigned k = 0; add->op == OP_iadd && add->def.bit_size == 32 && k < 2; k++) {
			if (isel_src_const(&add->src[k].src, add->src[k].swizzle[0], &v) &&
			    ((extra + v) >> shift) < bound) {
				extra += v;
				d = add->src[1 - k].src.ssa;
				comp = add->src[1 - k].swizzle[0];
				break;
			}
		}
	}
	struct ir3_register *y = shift ? propagate_shift(c, d, comp, -(int)shift) : NULL;
	if (!y) {
		y = isel_get(c, d)[comp];
		if (shift)
			y = ir3_b_alu2(&c->b, OPC_SHR_B, y, isel_imm(c, shift, false));
	}
	uint32_t k = extra >> shift;
	if (k && k < bound)
		*imm = k;
	else if (k)
		y = ir3_b_alu2(&c->b, OPC_ADD_U, y, isel_imm(c, k, false));
	return y;
}

/* The same, where the instruction takes no immediate offset. */
static struct ir3_register *ssbo_offset(struct isel *c, struct src *src, unsigned bit_size)
{
	unsigned imm;
	return ssbo_offset_imm(c, src, 0, bit_size, 0, &imm);
}

/* A memory instruction, placed (place()) once its sources are built: they
 * may emit code (offsets, collects) that must come first. */
static struct ir3_instruction *mem_instr(struct isel *c, enum ir3_opc opc, unsigned ndst,
					 enum ir3_type type)
{
	struct ir3_instruction *i = ir3_instr_new(c->ir, opc, ndst, 0);
	i->type = type;
	return i;
}

static void place(struct isel *c, struct ir3_instruction *i)
{
	if (c->b.before)
		ir3_instr_insert_before(c->b.before, i);
	else
		ir3_instr_append(c->b.block, i);
}

static void split_into(struct isel *c, struct ir3_register *dst, unsigned n, struct ir3_register **d)
{
	if (n == 1) {
		d[0] = dst;
		return;
	}
	for (unsigned k = 0; k < n; k++)
		d[k] = ir3_b_split(&c->b, dst, k);
}

/* A buffer or image descriptor slot: an immediate, or — indexed
 * dynamically — a 16-bit register (Mesa's flat GL-slot model: the IBO
 * index in a register, nonuniform mode). */
struct slot {
	bool direct;
	uint32_t imm;
	struct ir3_register *reg;
};

static struct slot slot_of(struct isel *c, struct src *src)
{
	struct slot s = { .direct = isel_src_const(src, 0, &s.imm) };
	if (!s.direct)
		s.reg = ir3_b_cov(&c->b, TYPE_U32, TYPE_U16, isel_get(c, src->ssa)[0]);
	return s;
}

static void slot_src(struct ir3_instruction *i, struct slot s)
{
	if (s.direct)
		ir3_src_imm(i, s.imm, 0);
	else
		ir3_src_ssa(i, s.reg, 0);
}

/* An SSBO load nothing in the shader writes, through the texture cache
 * (Mesa's emit_intrinsic_load_ssbo with has_isam_ssbo): isam at (offset,
 * 0) of one component (lower_ir3_ssbo_scalar), or with isam.v a vector at
 * the offset alone.  A dynamically indexed SSBO keeps ldib. */
static bool emit_isam_ssbo(struct isel *c, struct intrinsic_instr *intr, struct slot slot)
{
	unsigned n = intr->def.num_components, bits = intr->def.bit_size;
	if (!c->t->has_isam_ssbo || !slot.direct || (bits != 16 && bits != 32) ||
	    !((unsigned)intrinsic_get(intr, INTR_IDX_access) & ACCESS_CAN_REORDER) ||
	    (n > 1 && !c->t->has_isam_v))
		return false;
	unsigned imm;
	struct ir3_register *coord = ssbo_offset_imm(c, &intr->src[1], 0, bits,
						     c->t->has_isam_v ? 8 : 0, &imm);
	if (!c->t->has_isam_v) {
		struct ir3_register *xy[2] = { coord, isel_imm(c, 0, false) };
		coord = isel_collect(c, xy, 2);
	}
	struct ir3_register *dst = ir3_b_tex(&c->b, OPC_ISAM, bits == 16 ? TYPE_U16 : TYPE_U32,
					     (1u << n) - 1, slot.imm, 0, 1, &coord);
	dst->instr->flags |= IR3_INSTR_SSBO;
	dst->instr->off = (int)imm;
	split_into(c, dst, n, isel_def(c, &intr->def));
	return true;
}

static void emit_load_ssbo(struct isel *c, struct intrinsic_instr *intr)
{
	struct slot slot = slot_of(c, &intr->src[0]);
	if (emit_isam_ssbo(c, intr, slot))
		return;
	unsigned n = intr->def.num_components;
	bool ibo = c->t->ibo_ssbo;
	struct ir3_instruction *i = mem_instr(c, ibo ? OPC_LDIB : OPC_LDGB, 1, mem_type(intr->def.bit_size));
	struct ir3_register *dst = ir3_dst_create(i, isel_reg_flags(c, intr->def.bit_size), n);
	slot_src(i, slot);
	if (ibo) {
		unsigned imm;
		ir3_src_ssa(i, ssbo_offset_imm(c, &intr->src[1], 0, intr->def.bit_size, 7, &imm), 0);
		i->off = (int)imm;
	} else
		ir3_src_ssa(i, isel_get(c, intr->src[1].ssa)[0], 0);
	place(c, i);
	split_into(c, dst, n, isel_def(c, &intr->def));
}

/* Contiguous runs of a write mask, one store each (nir_lower_wrmasks). */
static unsigned next_run(unsigned mask, unsigned from, unsigned *len)
{
	while (from < 16 && !(mask & (1u << from)))
		from++;
	*len = 0;
	while (from + *len < 16 && (mask & (1u << (from + *len))))
		(*len)++;
	return from;
}

static void emit_store_ssbo(struct isel *c, struct intrinsic_instr *intr)
{
	struct slot slot = slot_of(c, &intr->src[1]);
	struct ir3_register **v = isel_get(c, intr->src[0].ssa);
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	unsigned bytes = intr->src[0].ssa->bit_size / 8;
	bool ibo = c->t->ibo_ssbo;
	unsigned len;
	for (unsigned k = next_run(mask, 0, &len); len; k = next_run(mask, k + len, &len)) {
		struct ir3_register *off;
		unsigned imm = 0;
		uint32_t co;
		if (ibo)
			off = ssbo_offset_imm(c, &intr->src[2], k * bytes, 8 * bytes, 7, &imm);
		else if (isel_src_const(&intr->src[2], 0, &co))
			off = isel_imm(c, co + k * bytes, false);
		else {
			off = isel_get(c, intr->src[2].ssa)[0];
			if (k)
				off = ir3_b_alu2(&c->b, OPC_ADD_U, off, isel_imm(c, k * bytes, false));
		}
		struct ir3_instruction *i = mem_instr(c, ibo ? OPC_STIB : OPC_STGB, 0,
						      mem_type(intr->src[0].ssa->bit_size));
		i->off = (int)imm;
		slot_src(i, slot);
		ir3_src_ssa(i, off, 0);
		ir3_src_ssa(i, isel_collect(c, v + k, len), 0);
		place(c, i);
	}
}

static enum ir3_opc atomic_opc(struct isel *c, enum atomic_op op, enum ir3_opc add)
{
	switch (op) {
	case ATOMIC_iadd: return add;
	case ATOMIC_xchg: return add + 1;
	case ATOMIC_cmpxchg: return add + 2;
	case ATOMIC_imin: case ATOMIC_umin: return add + 3;
	case ATOMIC_imax: case ATOMIC_umax: return add + 4;
	case ATOMIC_iand: return add + 5;
	case ATOMIC_ior: return add + 6;
	case ATOMIC_ixor: return add + 7;
	/* float atomics: the integer opcode of the same shape, typed f32
	 * (approximation: ir3 has them as .f32 variants on a7xx) */
	case ATOMIC_fadd: return add;
	case ATOMIC_fmin: return add + 3;
	case ATOMIC_fmax: return add + 4;
	case ATOMIC_fcmpxchg: return add + 2;
	default:
		isel_error(c, "unsupported atomic operation '%s'", atomic_op_names[op]);
		return add;
	}
}

static enum ir3_type atomic_type(enum atomic_op op)
{
	if (op == ATOMIC_fadd || op == ATOMIC_fmin || op == ATOMIC_fmax || op == ATOMIC_fcmpxchg)
		return TYPE_F32;
	return op == ATOMIC_imin || op == ATOMIC_imax ? TYPE_S32 : TYPE_U32;
}

/* data, or (compare, data) for cmpxchg */
static struct ir3_register *atomic_data(struct isel *c, struct src *data, struct src *cmp)
{
	struct ir3_register *v = isel_get(c, data->ssa)[0];
	if (!cmp)
		return v;
	struct ir3_register *pair[2] = { isel_get(c, cmp->ssa)[0], v };
	return ir3_b_collect(&c->b, 2, pair);
}

/* A 64-bit SSBO atomic (a6xx+, Mesa's emit_intrinsic_atomic_ssbo with
 * TYPE_ATOMIC_U64): the old value in two registers; the data, and for
 * cmpxchg the comparand before it, as (low, high) pairs.  Mesa also emits
 * signed min/max with the unsigned type; those are refused here rather than
 * given unsigned semantics. */
static void emit_atomic64(struct isel *c, struct intrinsic_instr *intr, enum ir3_opc opc,
			  const struct slot *slot, struct ir3_register *addr, struct src *data,
			  struct src *cmp)
{
	enum atomic_op op = (enum atomic_op)intrinsic_get(intr, INTR_IDX_atomic_op);
	if (op == ATOMIC_imin || op == ATOMIC_imax) {
		isel_error(c, "64-bit signed atomic min/max are not supported (ir3's u64 atomics "
			   "compare unsigned)");
		return;
	}
	struct ir3_register *v[4];
	unsigned n = 0;
	if (cmp) {
		v[n++] = isel_get(c, cmp->ssa)[0];
		v[n++] = isel_get(c, cmp->ssa)[1];
	}
	v[n++] = isel_get(c, data->ssa)[0];
	v[n++] = isel_get(c, data->ssa)[1];
	struct ir3_instruction *i = mem_instr(c, opc, 1, TYPE_ATOMIC_U64);
	struct ir3_register *dst = ir3_dst_create(i, 0, 2);
	slot_src(i, *slot);
	ir3_src_ssa(i, addr, 0);
	ir3_src_ssa(i, ir3_b_collect(&c->b, n, v), 0);
	place(c, i);
	split_into(c, dst, 2, isel_def(c, &intr->def));
}

static void emit_atomic(struct isel *c, struct intrinsic_instr *intr, enum ir3_opc base,
			const struct slot *slot, struct ir3_register *addr, struct src *data,
			struct src *cmp)
{
	enum atomic_op op = (enum atomic_op)intrinsic_get(intr, INTR_IDX_atomic_op);
	if (intr->def.bit_size == 64 && slot && c->t->ibo_ssbo) {
		emit_atomic64(c, intr, atomic_opc(c, op, base), slot, addr, data, cmp);
		return;
	}
	if (intr->def.bit_size != 32) {
		isel_error(c, "%u-bit atomics are not supported", intr->def.bit_size);
		return;
	}
	enum ir3_opc opc = atomic_opc(c, op, base);
	struct ir3_instruction *i = mem_instr(c, opc, 1, atomic_type(op));
	isel_def(c, &intr->def)[0] = ir3_dst_create(i, 0, 1);
	if (slot)
		slot_src(i, *slot);
	ir3_src_ssa(i, addr, 0);
	ir3_src_ssa(i, atomic_data(c, data, cmp), 0);
	place(c, i);
}

static void emit_ssbo_atomic(struct isel *c, struct intrinsic_instr *intr, bool swap)
{
	struct slot slot = slot_of(c, &intr->src[0]);
	/* in dwords on a6xx+, whatever the size (Mesa: nir multiplies the
	 * offset by four) */
	struct ir3_register *off = c->t->ibo_ssbo ? ssbo_offset(c, &intr->src[1], 32)
						  : isel_get(c, intr->src[1].ssa)[0];
	emit_atomic(c, intr, OPC_ATOMIC_B_ADD, &slot, off, swap ? &intr->src[3] : &intr->src[2],
		    swap ? &intr->src[2] : NULL);
}

/* ldl/ldlw of local memory at the address in src[0], the base folded into
 * the immediate offset */
static void emit_local_load(struct isel *c, struct intrinsic_instr *intr, enum ir3_opc opc)
{
	unsigned n = intr->def.num_components;
	struct ir3_instruction *i = mem_instr(c, opc, 1, mem_type(intr->def.bit_size));
	struct ir3_register *dst = ir3_dst_create(i, isel_reg_flags(c, intr->def.bit_size), n);
	ir3_src_ssa(i, isel_get(c, intr->src[0].ssa)[0], 0);
	ir3_src_imm(i, (uint32_t)intrinsic_get(intr, INTR_IDX_base), 0);
	ir3_src_imm(i, n, 0);
	place(c, i);
	split_into(c, dst, n, isel_def(c, &intr->def));
}

/* shared memory: ldl/stl with the base folded into the immediate offset */
static void emit_load_shared(struct isel *c, struct intrinsic_instr *intr)
{
	emit_local_load(c, intr, OPC_LDL);
}

static void emit_store_shared(struct isel *c, struct intrinsic_instr *intr)
{
	struct ir3_register **v = isel_get(c, intr->src[0].ssa);
	struct ir3_register *addr = isel_get(c, intr->src[1].ssa)[0];
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	unsigned bytes = intr->src[0].ssa->bit_size / 8;
	unsigned len;
	for (unsigned k = next_run(mask, 0, &len); len; k = next_run(mask, k + len, &len)) {
		struct ir3_instruction *i = mem_instr(c, OPC_STL, 0, mem_type(intr->src[0].ssa->bit_size));
		ir3_src_ssa(i, addr, 0);
		ir3_src_ssa(i, isel_collect(c, v + k, len), 0);
		ir3_src_imm(i, len, 0);
		i->off = (int)(base + k * bytes);
		place(c, i);
	}
}

static void emit_shared_atomic(struct isel *c, struct intrinsic_instr *intr, bool swap)
{
	struct ir3_register *addr = isel_get(c, intr->src[0].ssa)[0];
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	if (base)
		addr = ir3_b_alu2(&c->b, OPC_ADD_U, addr, isel_imm(c, base, false));
	emit_atomic(c, intr, OPC_ATOMIC_ADD, NULL, addr, swap ? &intr->src[2] : &intr->src[1],
		    swap ? &intr->src[1] : NULL);
}

/* global memory: a 64-bit address (a 32-bit one on a3xx/a4xx) */
static struct ir3_register *global_addr(struct isel *c, struct src *src)
{
	struct ir3_register **a = isel_get(c, src->ssa);
	if (!c->t->is_64bit)
		return a[0];
	return ir3_b_collect(&c->b, 2, a);
}

static void emit_load_global(struct isel *c, struct intrinsic_instr *intr)
{
	unsigned n = intr->def.num_components;
	if (intr->def.bit_size == 64) {
		isel_error(c, "64-bit global loads are not supported");
		return;
	}
	struct ir3_instruction *i = mem_instr(c, OPC_LDG, 1, mem_type(intr->def.bit_size));
	struct ir3_register *dst = ir3_dst_create(i, isel_reg_flags(c, intr->def.bit_size), n);
	ir3_src_ssa(i, global_addr(c, &intr->src[0]), 0);
	ir3_src_imm(i, 0, 0);
	ir3_src_imm(i, n, 0);
	place(c, i);
	split_into(c, dst, n, isel_def(c, &intr->def));
}

static void emit_store_global(struct isel *c, struct intrinsic_instr *intr)
{
	struct ir3_register **v = isel_get(c, intr->src[0].ssa);
	struct ir3_register *addr = global_addr(c, &intr->src[1]);
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	unsigned bytes = intr->src[0].ssa->bit_size / 8;
	unsigned len;
	if (bytes == 8) {
		isel_error(c, "64-bit global stores are not supported");
		return;
	}
	for (unsigned k = next_run(mask, 0, &len); len; k = next_run(mask, k + len, &len)) {
		struct ir3_instruction *i = mem_instr(c, OPC_STG, 0, mem_type(intr->src[0].ssa->bit_size));
		ir3_src_ssa(i, addr, 0);
		ir3_src_imm(i, k * bytes, 0);
		ir3_src_ssa(i, isel_collect(c, v + k, len), 0);
		ir3_src_imm(i, len, 0);
		place(c, i);
	}
}

static void emit_global_atomic(struct isel *c, struct intrinsic_instr *intr, bool swap)
{
	emit_atomic(c, intr, OPC_ATOMIC_G_ADD, NULL, global_addr(c, &intr->src[0]),
		    swap ? &intr->src[2] : &intr->src[1], swap ? &intr->src[1] : NULL);
}

/* images: the IBO (a6xx's ldib/stib, a4xx/a5xx's typed ldib/stib) */
/* The coordinates, and the sample index after them for a multisampled
 * image (Mesa's ldib/stib take it as the last coordinate). */
static struct ir3_register *image_coords(struct isel *c, struct intrinsic_instr *intr)
{
	unsigned n = intrinsic_src_components(intr, 1);
	struct ir3_register *v[5];
	struct ir3_register **co = isel_get(c, intr->src[1].ssa);
	for (unsigned k = 0; k < n && k < 4; k++)
		v[k] = co[k];
	if (intr->op != INTR_image_size && intrinsic_has(intr->op, INTR_IDX_image_dim)) {
		uint32_t slot;
		struct resource_decl *d = isel_src_const(&intr->src[0], 0, &slot)
			? shader_find_resource(c->s->images, c->s->num_images, slot) : NULL;
		if (d && d->is_ms && n < 4)
			v[n++] = isel_get(c, intr->src[2].ssa)[0];
	}
	return isel_collect(c, v, n);
}

/* Images follow the SSBOs in the IBO (Mesa's ir3_image_to_ibo), so one
 * index names either. */
static bool image_slot(struct isel *c, struct intrinsic_instr *intr, struct slot *slot)
{
	unsigned base = c->ir->iface->image_ibo;
	uint32_t v;
	if (isel_src_const(&intr->src[0], 0, &v)) {
		*slot = (struct slot){ .direct = true, .imm = v + base };
		return true;
	}
	struct ir3_register *idx = isel_get(c, intr->src[0].ssa)[0];
	if (base)
		idx = ir3_b_alu2(&c->b, OPC_ADD_U, idx, isel_imm(c, base, false));
	*slot = (struct slot){ .reg = ir3_b_cov(&c->b, TYPE_U32, TYPE_U16, idx) };
	return true;
}

static void emit_image(struct isel *c, struct intrinsic_instr *intr)
{
	struct slot slot;
	if (!image_slot(c, intr, &slot))
		return;
	switch (intr->op) {
	case INTR_image_load: {
		unsigned n = intr->def.num_components;
		struct ir3_instruction *i = mem_instr(c, OPC_LDIB, 1, mem_type(intr->def.bit_size));
		if (intrinsic_get(intr, INTR_IDX_dest_type) == BASE_int)
			i->type = TYPE_S32;
		struct ir3_register *dst = ir3_dst_create(i, isel_reg_flags(c, intr->def.bit_size), n);
		slot_src(i, slot);
		ir3_src_ssa(i, image_coords(c, intr), 0);
		place(c, i);
	split_into(c, dst, n, isel_def(c, &intr->def));
		return;
	}
	case INTR_image_store: {
		unsigned n = intr->num_components ? intr->num_components : 4;
		struct ir3_instruction *i = mem_instr(c, OPC_STIB, 0, mem_type(intr->src[3].ssa->bit_size));
		slot_src(i, slot);
		ir3_src_ssa(i, image_coords(c, intr), 0);
		ir3_src_ssa(i, isel_collect(c, isel_get(c, intr->src[3].ssa), n), 0);
		place(c, i);
		return;
	}
	case INTR_image_atomic:
	case INTR_image_atomic_swap: {
		bool swap = intr->op == INTR_image_atomic_swap;
		emit_atomic(c, intr, OPC_ATOMIC_B_ADD, &slot, image_coords(c, intr),
			    swap ? &intr->src[4] : &intr->src[3], swap ? &intr->src[3] : NULL);
		return;
	}
	case INTR_image_samples: {
		/* resinfo's last component (the sample count) */
		struct ir3_instruction *i = mem_instr(c, OPC_RESINFO, 1, TYPE_U32);
		struct ir3_register *dst = ir3_dst_create(i, 0, 4);
		slot_src(i, slot);
		place(c, i);
		isel_def(c, &intr->def)[0] = ir3_b_split(&c->b, dst, 3);
		return;
	}
	case INTR_image_size: {
		unsigned n = intr->def.num_components;
		struct ir3_instruction *i = mem_instr(c, OPC_RESINFO, 1, TYPE_U32);
		struct ir3_register *dst = ir3_dst_create(i, 0, n);
		slot_src(i, slot);
		place(c, i);
	split_into(c, dst, n, isel_def(c, &intr->def));
		return;
	}
	default:
		isel_error(c, "unsupported intrinsic '%s'", intrinsic_infos[intr->op].name);
	}
}

static void emit_ssbo_size(struct isel *c, struct intrinsic_instr *intr)
{
	struct slot slot = slot_of(c, &intr->src[0]);
	struct ir3_instruction *i = mem_instr(c, OPC_RESINFO, 1, TYPE_U32);
	struct ir3_register *dst = ir3_dst_create(i, 0, 3);
	slot_src(i, slot);
	place(c, i);
	struct ir3_register **d = isel_def(c, &intr->def);
	if (c->t->ibo_ssbo) {
		d[0] = ir3_b_split(&c->b, dst, 0);
		return;
	}
	/* a5xx: low 16 bits in .x, high 16 bits in .y */
	struct ir3_register *hi = ir3_b_alu2(&c->b, OPC_SHL_B, ir3_b_split(&c->b, dst, 1),
					     isel_imm(c, 16, false));
	d[0] = ir3_b_alu2(&c->b, OPC_ADD_U, hi, ir3_b_split(&c->b, dst, 0));
}

/* The address register and immediate offset of an ldp/stp (Mesa's
 * stp_ldp_offset): a constant offset goes into the signed 13-bit immediate
 * field, sign-extended from its low 13 bits, and the register holds the rest
 * (0 unless the offset is large), so constant accesses share one register.
 * A dynamic offset keeps the array's base in the field while it fits. */
static struct ir3_register *scratch_addr(struct isel *c, struct src *off, int32_t *base)
{
	uint32_t k;
	if (!isel_src_const(off, 0, &k)) {
		struct ir3_register *r = isel_get(c, off->ssa)[0];
		if (*base >= -4096 && *base < 4096)
			return r;
		r = ir3_b_alu2(&c->b, OPC_ADD_U, r, isel_imm(c, (uint32_t)*base, false));
		*base = 0;
		return r;
	}
	uint32_t total = k + (uint32_t)*base;
	*base = (int32_t)(total << 19) >> 19;
	return isel_imm(c, total - (uint32_t)*base, false);
}

static void emit_scratch(struct isel *c, struct intrinsic_instr *intr)
{
	if (!c->t->has_pvtmem) {
		isel_error(c, "scratch memory needs private memory (a5xx+)");
		return;
	}
	int32_t base = (int32_t)intrinsic_get(intr, INTR_IDX_base);
	if (intr->op == INTR_load_scratch) {
		unsigned n = intr->def.num_components;
		struct ir3_register *addr = scratch_addr(c, &intr->src[0], &base);
		struct ir3_instruction *i = mem_instr(c, OPC_LDP, 1, mem_type(intr->def.bit_size));
		struct ir3_register *dst = ir3_dst_create(i, isel_reg_flags(c, intr->def.bit_size), n);
		ir3_src_ssa(i, addr, 0);
		ir3_src_imm(i, (uint32_t)base, 0);
		ir3_src_imm(i, n, 0);
		place(c, i);
	split_into(c, dst, n, isel_def(c, &intr->def));
		return;
	}
	struct ir3_register **v = isel_get(c, intr->src[0].ssa);
	struct ir3_register *addr = scratch_addr(c, &intr->src[1], &base);
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	unsigned len;
	for (unsigned k = next_run(mask, 0, &len); len; k = next_run(mask, k + len, &len)) {
		struct ir3_instruction *i = mem_instr(c, OPC_STP, 0, mem_type(intr->src[0].ssa->bit_size));
		ir3_src_ssa(i, addr, 0);
		ir3_src_ssa(i, isel_collect(c, v + k, len), 0);
		ir3_src_imm(i, len, 0);
		i->off = base + (int)(k * intr->src[0].ssa->bit_size / 8);
		place(c, i);
	}
}

/* tessellation and geometry I/O (lower_ir3_tess.c) */

/* ldlw (ldl in an a650+ TCS: Mesa's tess_use_shared), byte offsets */
static void emit_load_shared_ir3(struct isel *c, struct intrinsic_instr *intr)
{
	bool ldl = c->s->stage == STAGE_TESS_CTRL && c->t->tess_use_shared;
	emit_local_load(c, intr, ldl ? OPC_LDL : OPC_LDLW);
}

static void emit_store_shared_ir3(struct isel *c, struct intrinsic_instr *intr)
{
	struct ir3_register **v = isel_get(c, intr->src[0].ssa);
	unsigned n = intr->src[0].ssa->num_components;
	struct ir3_instruction *i = mem_instr(c, OPC_STLW, 0, mem_type(intr->src[0].ssa->bit_size));
	ir3_src_ssa(i, isel_get(c, intr->src[1].ssa)[0], 0);
	ir3_src_ssa(i, isel_collect(c, v, n), 0);
	ir3_src_imm(i, n, 0);
	i->off = intrinsic_get(intr, INTR_IDX_base);
	place(c, i);
}

/* The address of a tess buffer plus a dword offset (Mesa's
 * emit_intrinsic_load/store_global_ir3): ldg with the offset as an
 * immediate when it is a small constant, else ldg.a/stg.a on a6xx+ (address,
 * dword offset, [value,] components) and an address add before (a 32-bit
 * address on a3xx/a4xx). */
static struct ir3_register *global_ir3_addr(struct isel *c, struct src *addr)
{
	struct ir3_register **a = isel_get(c, addr->ssa);
	return !c->t->is_64bit ? a[0] : ir3_b_collect(&c->b, 2, a);
}

/* A constant dword offset ldg (within ±256) or stg (within ±1024) takes as
 * an immediate. */
static bool small_offset(struct src *off, int32_t *v, int32_t bound)
{
	uint32_t u;
	if (!isel_src_const(off, 0, &u))
		return false;
	*v = (int32_t)u;
	return *v < bound && *v > -bound;
}

/* ldg.a/stg.a's offset register: dwords, or bytes on a7xx. */
static struct ir3_register *ldg_a_offset(struct isel *c, struct src *off)
{
	struct ir3_register *o = isel_get(c, off->ssa)[0];
	return c->t->ldg_a_bytes ? ir3_b_alu2(&c->b, OPC_SHL_B, o, isel_imm(c, 2, false)) : o;
}

static struct ir3_register *added_addr(struct isel *c, struct intrinsic_instr *intr, unsigned a,
				       unsigned o)
{
	struct ir3_register **lo = isel_get(c, intr->src[a].ssa);
	struct ir3_register *bytes = ir3_b_alu2(&c->b, OPC_SHL_B, isel_get(c, intr->src[o].ssa)[0],
						isel_imm(c, 2, false));
	struct ir3_register *sum = ir3_b_alu2(&c->b, OPC_ADD_S, lo[0], bytes);
	if (!c->t->is_64bit)
		return sum;
	struct ir3_register *carry = ir3_b_cmp(&c->b, OPC_CMPS_U, COND_LT, 0, sum, lo[0]);
	struct ir3_register *pair[2] = { sum, ir3_b_alu2(&c->b, OPC_ADD_S, lo[1], carry) };
	return ir3_b_collect(&c->b, 2, pair);
}

static void emit_load_global_ir3(struct isel *c, struct intrinsic_instr *intr)
{
	unsigned n = intr->def.num_components;
	enum ir3_type type = mem_type(intr->def.bit_size);
	unsigned flags = isel_reg_flags(c, intr->def.bit_size);
	int32_t off;
	struct ir3_instruction *i;
	if (small_offset(&intr->src[1], &off, 256) || !c->t->has_ldg_a) {
		struct ir3_register *addr = !c->t->has_ldg_a && !small_offset(&intr->src[1], &off, 256)
			? added_addr(c, intr, 0, 1) : global_ir3_addr(c, &intr->src[0]);
		if (!small_offset(&intr->src[1], &off, 256))
			off = 0;
		i = mem_instr(c, OPC_LDG, 1, type);
		ir3_dst_create(i, flags, n);
		ir3_src_ssa(i, addr, 0);
		ir3_src_imm(i, (uint32_t)(off * 4), 0);
		ir3_src_imm(i, n, 0);
	} else {
		struct ir3_register *addr = global_ir3_addr(c, &intr->src[0]);
		struct ir3_register *o = ldg_a_offset(c, &intr->src[1]);
		i = mem_instr(c, OPC_LDG_A, 1, type);
		ir3_dst_create(i, flags, n);
		ir3_src_ssa(i, addr, 0);
		ir3_src_ssa(i, o, 0);
		ir3_src_imm(i, n, 0);
	}
	place(c, i);
	split_into(c, i->dsts[0], n, isel_def(c, &intr->def));
}

static void emit_store_global_ir3(struct isel *c, struct intrinsic_instr *intr)
{
	unsigned n = intr->src[0].ssa->num_components;
	enum ir3_type type = mem_type(intr->src[0].ssa->bit_size);
	struct ir3_register *v = isel_collect(c, isel_get(c, intr->src[0].ssa), n);
	int32_t off;
	struct ir3_instruction *i;
	if (small_offset(&intr->src[2], &off, 1024) || !c->t->has_ldg_a) {
		struct ir3_register *addr = !c->t->has_ldg_a && !small_offset(&intr->src[2], &off, 1024)
			? added_addr(c, intr, 1, 2) : global_ir3_addr(c, &intr->src[1]);
		if (!small_offset(&intr->src[2], &off, 1024))
			off = 0;
		i = mem_instr(c, OPC_STG, 0, type);
		ir3_src_ssa(i, addr, 0);
		ir3_src_imm(i, (uint32_t)(off * 4), 0);
		ir3_src_ssa(i, v, 0);
		ir3_src_imm(i, n, 0);
	} else {
		struct ir3_register *o = ldg_a_offset(c, &intr->src[2]);
		i = mem_instr(c, OPC_STG_A, 0, type);
		ir3_src_ssa(i, global_ir3_addr(c, &intr->src[1]), 0);
		ir3_src_ssa(i, o, 0);
		ir3_src_ssa(i, v, 0);
		ir3_src_imm(i, n, 0);
	}
	place(c, i);
}

/* ------------------------------------------------------------------ */
/* subgroups (what lower_ir3_subgroups leaves) */

/* Mesa's ballot.macro, elect.macro and read_first.macro (which its
 * ir3_lower_subgroups expands after RA into short branches around
 * movmsk/getone writing a shared register) stay macros here, which the
 * simulator runs as what the expansion computes:
 *
 *	ballot(c)          (rpt1)ballot.macro c (a wave of 64: .x .y)
 *	vote_any/all(c)    any.macro c / all.macro c
 *	elect()            elect.macro
 *	read_first(x)      read_first.macro x, per component
 */
static struct ir3_register *ballot(struct isel *c, struct ir3_register *cond)
{
	struct ir3_instruction *i = ir3_b_instr(&c->b, OPC_BALLOT_MACRO, 1, 1);
	i->type = i->dst_type = TYPE_U32;
	i->repeat = 1;
	struct ir3_register *d = ir3_dst_create(i, 0, 2);
	ir3_src_ssa(i, cond, 0);
	return d;
}

static void emit_subgroup(struct isel *c, struct intrinsic_instr *intr)
{
	struct ir3_register **d = isel_def(c, &intr->def);
	switch (intr->op) {
	case INTR_ballot: {
		struct ir3_register *m = ballot(c, isel_get(c, intr->src[0].ssa)[0]);
		for (unsigned k = 0; k < intr->def.num_components; k++)
			d[k] = k < 2 ? ir3_b_split(&c->b, m, k) : isel_imm(c, 0, false);
		return;
	}
	case INTR_vote_any: case INTR_vote_all: {
		struct ir3_instruction *v = ir3_b_instr(
			&c->b, intr->op == INTR_vote_any ? OPC_ANY_MACRO : OPC_ALL_MACRO, 1, 1);
		v->type = v->dst_type = (c->bool_flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32;
		d[0] = ir3_dst_create(v, c->bool_flags & IR3_REG_HALF, 1);
		ir3_src_ssa(v, isel_get(c, intr->src[0].ssa)[0], 0);
		return;
	}
	case INTR_elect: {
		struct ir3_instruction *e = ir3_b_instr(&c->b, OPC_ELECT_MACRO, 1, 0);
		e->type = e->dst_type = (c->bool_flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32;
		d[0] = ir3_dst_create(e, c->bool_flags & IR3_REG_HALF, 1);
		return;
	}
	case INTR_shuffle: case INTR_shuffle_xor: case INTR_shuffle_up: case INTR_shuffle_down:
	case INTR_read_invocation: {
		/* a7xx's shfl (Mesa: has_shfl); the same instruction models the
		 * read_invocation loops older generations use (approximation) */
		struct ir3_register **v = isel_get(c, intr->src[0].ssa);
		struct ir3_register *idx = isel_get(c, intr->src[1].ssa)[0];
		unsigned n = intr->def.num_components * (intr->def.bit_size == 64 ? 2 : 1);
		for (unsigned k = 0; k < n; k++) {
			struct ir3_instruction *i = ir3_b_instr(&c->b, OPC_SHFL, 1, 2);
			i->type = (v[k]->flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32;
			i->off = intr->op == INTR_shuffle_xor ? 1 : intr->op == INTR_shuffle_up ? 2
				 : intr->op == INTR_shuffle_down ? 3 : 0;
			d[k] = ir3_dst_create(i, v[k]->flags & IR3_REG_HALF, 1);
			ir3_src_ssa(i, v[k], 0);
			ir3_src_ssa(i, idx, 0);
		}
		return;
	}
	case INTR_quad_broadcast: case INTR_quad_swap_horizontal: case INTR_quad_swap_vertical:
	case INTR_quad_swap_diagonal: {
		enum ir3_opc opc = intr->op == INTR_quad_broadcast ? OPC_QUAD_SHUFFLE_BRCST
				   : intr->op == INTR_quad_swap_horizontal ? OPC_QUAD_SHUFFLE_HORIZ
				   : intr->op == INTR_quad_swap_vertical ? OPC_QUAD_SHUFFLE_VERT
									  : OPC_QUAD_SHUFFLE_DIAG;
		struct ir3_register **v = isel_get(c, intr->src[0].ssa);
		unsigned n = intr->def.num_components * (intr->def.bit_size == 64 ? 2 : 1);
		for (unsigned k = 0; k < n; k++) {
			struct ir3_register *s[2] = { v[k], intr->op == INTR_quad_broadcast
						   ? isel_get(c, intr->src[1].ssa)[0] : NULL };
			d[k] = ir3_b_tex(&c->b, opc, (v[k]->flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32, 1,
					 0, 0, s[1] ? 2 : 1, s);
		}
		return;
	}
	default: {
		/* read_first_invocation */
		struct ir3_register **v = isel_get(c, intr->src[0].ssa);
		unsigned n = intr->def.num_components * (intr->def.bit_size == 64 ? 2 : 1);
		for (unsigned k = 0; k < n; k++) {
			struct ir3_instruction *i = ir3_b_instr(&c->b, OPC_READ_FIRST_MACRO, 1, 1);
			i->type = i->dst_type = (v[k]->flags & IR3_REG_HALF) ? TYPE_U16 : TYPE_U32;
			d[k] = ir3_dst_create(i, v[k]->flags & IR3_REG_HALF, 1);
			ir3_src_ssa(i, v[k], 0);
		}
		return;
	}
	}
}

/* ------------------------------------------------------------------ */
/* control */

static void emit_barrier(struct isel *c, struct intrinsic_instr *intr)
{
	enum scope exec = (enum scope)intrinsic_get(intr, INTR_IDX_execution_scope);
	enum scope mem = (enum scope)intrinsic_get(intr, INTR_IDX_memory_scope);
	unsigned modes = (unsigned)intrinsic_get(intr, INTR_IDX_memory_modes);
	unsigned sem = (unsigned)intrinsic_get(intr, INTR_IDX_memory_semantics);
	/* Mesa's emit_intrinsic_barrier: a fence for memory others see (a TCS's
	 * outputs need none: the hardware syncs its invocations), then a bar
	 * for the workgroup's execution */
	modes &= MODE_SHARED | MODE_SSBO | MODE_GLOBAL | MODE_IMAGE;
	if (modes && (sem & (SEMANTICS_ACQUIRE | SEMANTICS_RELEASE)) && mem > SCOPE_subgroup)
		ir3_b_instr(&c->b, OPC_FENCE, 0, 0);
	if (exec >= SCOPE_workgroup)
		ir3_b_instr(&c->b, OPC_BAR, 0, 0);
}

static void emit_kill(struct isel *c, struct intrinsic_instr *intr, bool demote)
{
	struct ir3_register *cond;
	if (intr->op == INTR_discard_if || intr->op == INTR_demote_if || intr->op == INTR_terminate_if)
		cond = isel_get(c, intr->src[0].ssa)[0];
	else
		cond = ir3_b_imm(&c->b, c->bool_type, 1);
	struct ir3_register *p = isel_predicate(c, cond);
	struct ir3_instruction *i = ir3_b_instr(&c->b, demote && c->t->has_demote ? OPC_DEMOTE : OPC_KILL,
						0, 1);
	ir3_src_ssa(i, p, 0);
}

static void emit_deriv(struct isel *c, struct intrinsic_instr *intr)
{
	enum ir3_opc opc;
	switch (intr->op) {
	case INTR_ddx: case INTR_ddx_coarse: opc = OPC_DSX; break;
	case INTR_ddy: case INTR_ddy_coarse: opc = OPC_DSY; break;
	case INTR_ddx_fine: opc = OPC_DSXPP_1; break;
	default: opc = OPC_DSYPP_1; break;
	}
	/* compute shaders have quad derivatives too (their quads are groups
	 * of four invocations) */
	if (c->s->stage != STAGE_FRAGMENT && c->s->stage != STAGE_COMPUTE) {
		isel_error(c, "derivatives outside fragment and compute shaders are not supported");
		return;
	}
	c->ir->need_pixlod |= c->s->stage == STAGE_FRAGMENT;
	struct ir3_register **s = isel_get(c, intr->src[0].ssa);
	struct ir3_register **d = isel_def(c, &intr->def);
	bool half = intr->def.bit_size == 16;
	for (unsigned k = 0; k < intr->def.num_components; k++) {
		struct ir3_register *src = s[k];
		d[k] = ir3_b_tex(&c->b, opc, half ? TYPE_F16 : TYPE_F32, 1, 0, 0, 1, &src);
	}
}

/* ------------------------------------------------------------------ */
/* the preamble (ir3_nir_opt_preamble): its region of the const file */

static unsigned preamble_comp(struct isel *c, struct intrinsic_instr *intr)
{
	return c->cl->preamble_vec4 * 4 + (unsigned)intrinsic_get(intr, INTR_IDX_base);
}

/* a1.x = `value` (a multiple of 256), one mova1 per value and block
 * (Mesa's ir3_get_addr1) */
static struct ir3_register *addr1(struct isel *c, unsigned value)
{
	if (c->a1 && c->a1->instr->block == c->b.block && c->a1_value == value)
		return c->a1;
	struct ir3_register *v = isel_imm(c, value, true);
	struct ir3_instruction *mova1 = ir3_b_instr(&c->b, OPC_MOVA1, 1, 1);
	mova1->type = mova1->dst_type = TYPE_U16;
	c->a1 = ir3_dst_create(mova1, IR3_REG_ADDR, 1);
	ir3_src_ssa(mova1, v, 0);
	c->a1_value = value;
	return c->a1;
}

/* Mesa's store_const_ir3: stc c[n], value, components; a destination past
 * c63.w keeps its low 8 bits and adds a1.x. */
static void emit_store_preamble(struct isel *c, struct intrinsic_instr *intr)
{
	unsigned n = intr->src[0].ssa->num_components, dst = preamble_comp(c, intr);
	struct ir3_register *a1 = dst >> 8 ? addr1(c, dst & ~0xffu) : NULL;
	struct ir3_instruction *i = mem_instr(c, OPC_STC, 0, TYPE_U32);
	ir3_src_imm(i, dst & 0xff, 0);
	ir3_src_ssa(i, isel_collect(c, isel_get(c, intr->src[0].ssa), n), 0);
	if (a1)
		ir3_src_ssa(i, a1, 0);
	place(c, i);
}

static void emit_load_preamble(struct isel *c, struct intrinsic_instr *intr)
{
	struct ir3_register **d = isel_def(c, &intr->def);
	for (unsigned k = 0; k < intr->def.num_components; k++)
		d[k] = isel_const(c, preamble_comp(c, intr) + k);
}

void isel_intrinsic(struct isel *c, struct intrinsic_instr *intr)
{
	if (emit_sysval(c, intr))
		return;
	switch (intr->op) {
	case INTR_load_input: emit_load_input(c, intr); return;
	case INTR_load_local: case INTR_store_local:
		c->has_arrays = true;
		isel_local(c, intr);
		return;
	case INTR_interp_at_centroid: case INTR_interp_at_barycentric:
		emit_interp_at(c, intr);
		return;
	case INTR_load_barycentric_pixel: case INTR_load_sample_pos_from_id:
		emit_barycentrics(c, intr);
		return;
	case INTR_load_point_coord: emit_point_coord(c, intr); return;
	case INTR_ballot: case INTR_vote_any: case INTR_vote_all: case INTR_elect:
	case INTR_read_first_invocation: case INTR_shuffle: case INTR_shuffle_xor:
	case INTR_shuffle_up: case INTR_shuffle_down: case INTR_read_invocation:
	case INTR_quad_broadcast: case INTR_quad_swap_horizontal: case INTR_quad_swap_vertical:
	case INTR_quad_swap_diagonal:
		emit_subgroup(c, intr);
		return;
	case INTR_rq_initialize: case INTR_rq_proceed: case INTR_rq_load: case INTR_rq_terminate:
	case INTR_rq_generate_intersection: case INTR_rq_confirm_intersection:
		isel_error(c, "ray queries are not supported (no a3xx–a7xx ir3 ray tracing in Mesa "
			   "24.3; it fails them too)");
		return;
	case INTR_begin_invocation_interlock: case INTR_end_invocation_interlock:
		isel_error(c, "fragment shader interlock is not supported (Mesa 24.3's ir3 fails "
			   "it too)");
		return;
	case INTR_store_output: emit_store_output(c, intr); return;
	case INTR_load_uniform: emit_load_uniform(c, intr); return;
	case INTR_load_preamble: emit_load_preamble(c, intr); return;
	case INTR_store_preamble: emit_store_preamble(c, intr); return;
	case INTR_preamble_start_ir3: case INTR_elect_any_ir3:
		/* only an if reads them: emit_if makes the branch */
		isel_def(c, &intr->def)[0] = isel_imm(c, 0, c->bool_flags & IR3_REG_HALF);
		return;
	case INTR_preamble_end_ir3: ir3_b_instr(&c->b, OPC_SHPE, 0, 0); return;
	case INTR_load_ubo: emit_load_ubo(c, intr); return;
	case INTR_load_ssbo: emit_load_ssbo(c, intr); return;
	case INTR_store_ssbo: emit_store_ssbo(c, intr); return;
	case INTR_ssbo_atomic: emit_ssbo_atomic(c, intr, false); return;
	case INTR_ssbo_atomic_swap: emit_ssbo_atomic(c, intr, true); return;
	case INTR_get_ssbo_size: emit_ssbo_size(c, intr); return;
	case INTR_load_shared: emit_load_shared(c, intr); return;
	case INTR_store_shared: emit_store_shared(c, intr); return;
	case INTR_shared_atomic: emit_shared_atomic(c, intr, false); return;
	case INTR_shared_atomic_swap: emit_shared_atomic(c, intr, true); return;
	case INTR_load_global: emit_load_global(c, intr); return;
	case INTR_store_global: emit_store_global(c, intr); return;
	case INTR_global_atomic: emit_global_atomic(c, intr, false); return;
	case INTR_global_atomic_swap: emit_global_atomic(c, intr, true); return;
	case INTR_load_scratch: case INTR_store_scratch: emit_scratch(c, intr); return;
	case INTR_image_load: case INTR_image_store: case INTR_image_atomic:
	case INTR_image_atomic_swap: case INTR_image_size: case INTR_image_samples:
		emit_image(c, intr);
		return;
	case INTR_barrier: emit_barrier(c, intr); return;
	case INTR_load_shared_ir3: emit_load_shared_ir3(c, intr); return;
	case INTR_store_shared_ir3: emit_store_shared_ir3(c, intr); return;
	case INTR_load_global_ir3: emit_load_global_ir3(c, intr); return;
	case INTR_store_global_ir3: emit_store_global_ir3(c, intr); return;
	case INTR_discard: case INTR_discard_if: case INTR_terminate: case INTR_terminate_if:
		emit_kill(c, intr, false);
		return;
	case INTR_demote: case INTR_demote_if:
		emit_kill(c, intr, true);
		return;
	case INTR_ddx: case INTR_ddy: case INTR_ddx_fine: case INTR_ddy_fine: case INTR_ddx_coarse:
	case INTR_ddy_coarse:
		emit_deriv(c, intr);
		return;
	default:
		isel_error(c, "unsupported intrinsic '%s'", intrinsic_infos[intr->op].name);
	}
}
