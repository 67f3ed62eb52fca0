/*
 * The simulator's side of the interface (ir3_iface.h): the interpreter's
 * inputs put where the driver and the hardware put them, the outputs read
 * back where `end` and alias.rt leave them.
 *
 *  - input registers: vertex attributes, system values (frag_coord's x, y
 *    are the pixel's integer coordinates, front_face 0 for front and -1
 *    for back, …), barycentrics;
 *  - the const file (ir3_nir.h): user constants (push constants, or the
 *    loose uniforms when the shader has none), the UBO ranges pushed,
 *    UBO addresses (a3xx–a5xx), driver params, the immediates;
 *  - varyings (bary.f, flat.b): the interpreter gives each lane its own
 *    input value; bary.f at a lane's own pixel barycentrics returns it
 *    exactly, elsewhere it adds the input's change across the quad times
 *    the offset in pixels (what the interpreter's interp_at_* compute),
 *    in double, rounded once.  A 16-bit varying travels in 32 bits: a
 *    float as f32, a flat one as its bits.  A lane's pixel barycentrics are those of
 *    the interpreter's load_barycentric_coord model, 1/8 apart.
 */
#include "compiler/ir3/sim/sim_priv.h"

#include <string.h>

#define SIM_UBO_BASE 0x10000000u
#define SIM_UBO_STRIDE 0x100000u

/* ---- the const file ---- */

void sim_set_const(struct srun *r, unsigned comp, uint32_t v)
{
	if (comp < SIM_CONSTS) {
		r->consts[comp] = v;
		r->const_set[comp] = true;
	}
}

static void const_bytes(struct srun *r, unsigned byte, const uint8_t *data, uint32_t size,
			uint32_t from, uint32_t len)
{
	for (uint32_t k = 0; k < len; k += 4) {
		uint32_t w = 0;
		for (unsigned b = 0; b < 4; b++)
			if (from + k + b < size)
				w |= (uint32_t)data[from + k + b] << (8 * b);
		sim_set_const(r, (byte + k) / 4, w);
	}
}

static void driver_params(struct srun *r, unsigned at)
{
	const struct interp_inputs *in = r->in;
	const struct ir3_const_layout *l = &r->sim->f->layout;
	unsigned n = (l->num_driver_params + 3) / 4 * 4, ws = r->sim->wave_size;
	for (unsigned k = 0; k < n; k++)
		sim_set_const(r, at + k, 0);
	switch (r->sim->s->stage) {
	case STAGE_VERTEX:
		sim_set_const(r, at + IR3_DP_DRAWID, in->draw_id);
		sim_set_const(r, at + IR3_DP_VTXID_BASE, in->base_vertex);
		sim_set_const(r, at + IR3_DP_INSTID_BASE, in->base_instance);
		break;
	case STAGE_COMPUTE:
		for (unsigned k = 0; k < 3; k++)
			sim_set_const(r, at + IR3_DP_NUM_WORK_GROUPS_X + k, in->num_workgroups[k]);
		sim_set_const(r, at + IR3_DP_CS_SUBGROUP_SIZE, ws);
		sim_set_const(r, at + IR3_DP_SUBGROUP_ID_SHIFT, (uint32_t)__builtin_ctz(ws));
		if (n > IR3_DP_WORKGROUP_ID_X)
			for (unsigned k = 0; k < 3; k++)
				sim_set_const(r, at + IR3_DP_WORKGROUP_ID_X + k, in->workgroup_id[k]);
		break;
	case STAGE_FRAGMENT:
		sim_set_const(r, at + IR3_DP_FS_SUBGROUP_SIZE, ws);
		sim_set_const(r, at + IR3_DP_FS_FRAG_INVOCATION_COUNT, 1);
		sim_set_const(r, at + IR3_DP_FS_FRAG_SIZE, 1);
		sim_set_const(r, at + IR3_DP_FS_FRAG_SIZE + 1, 1);
		break;
	default:
		break;
	}
}

static void bind_consts(struct srun *r)
{
	const struct interp_inputs *in = r->in;
	const struct ir3_sim *sim = r->sim;
	const struct ir3_const_layout *l = &sim->f->layout;
	const struct shader *s = sim->s;
	bool push = s->info.push_constant_size && s->info.push_constant_size >= s->info.uniform_size;
	const struct interp_buffer *user = push ? &in->push_constants : &in->uniforms;
	const_bytes(r, 0, user->data, user->size, 0, l->user_vec4 * 16);
	for (unsigned k = 0; k < l->num_ranges; k++) {
		const struct ir3_ubo_range *u = &l->ranges[k];
		if (u->offset == ~0u || u->slot >= r->nubo)
			continue;
		const struct smem *m = &r->ubo[u->slot];
		const_bytes(r, u->offset, m->data, m->size, u->start, u->end - u->start);
	}
	if (l->ubo_ptrs) {
		unsigned ptrsz = sim->t->is_64bit ? 2 : 1;
		for (unsigned k = 0; k < l->num_ubos; k++) {
			sim_set_const(r, l->ubo_ptr_vec4 * 4 + k * ptrsz, SIM_UBO_BASE + k * SIM_UBO_STRIDE);
			if (ptrsz == 2)
				sim_set_const(r, l->ubo_ptr_vec4 * 4 + k * 2 + 1, 0);
		}
	}
	if (l->num_driver_params)
		driver_params(r, l->driver_vec4 * 4);
	for (unsigned k = 0; k < sim->ir->nimmediates; k++)
		sim_set_const(r, sim->ir->const_size * 4 + k, sim->ir->immediates[k]);
}

/* ---- input registers ---- */

static const struct ir3_iface_input *iface_of(const struct ir3_sim *sim,
					      const struct ir3_instruction *i)
{
	for (unsigned k = 0; k < sim->f->num_inputs; k++)
		if (sim->f->inputs[k].instr == i)
			return &sim->f->inputs[k];
	return NULL;
}

static uint32_t float_bits(float v)
{
	uint32_t b;
	memcpy(&b, &v, 4);
	return b;
}

/* Component k of a system value for fibre f; false when the simulator
 * does not know it. */
static bool sysval(struct srun *r, enum intrinsic op, unsigned f, unsigned k, uint32_t *v)
{
	const struct interp_inputs *in = r->in;
	const uint32_t *ws = in->workgroup_size;
	switch (op) {
	case INTR_load_frag_coord:
		if (k < 2)
			*v = (k ? in->quad_y : in->quad_x) * 2 + (k ? (f >> 1 & 1) : (f & 1));
		else
			*v = float_bits(in->frag_zw[2 * f + k - 2]);
		return true;
	case INTR_load_front_face: *v = in->front_face[f] & 1 ? 0 : 0xffff; return true;
	case INTR_load_sample_id: *v = in->sample_id; return true;
	case INTR_load_sample_mask_in: *v = in->sample_mask_in; return true;
	case INTR_load_vertex_id: *v = in->vertex_id_base + f; return true;
	case INTR_load_instance_id: *v = in->instance_id; return true;
	case INTR_load_primitive_id: *v = in->primitive_id; return true;
	case INTR_load_view_index: *v = in->view_index; return true;
	case INTR_load_local_invocation_id:
		*v = k == 0 ? f % ws[0] : k == 1 ? (f / ws[0]) % ws[1] : f / (ws[0] * ws[1]);
		return true;
	case INTR_load_workgroup_id: *v = in->workgroup_id[k < 3 ? k : 0]; return true;
	default: return sim_stage_sysval(r, op, f, k, v);
	}
}

/* Component k (of the slot) of an attribute for fibre f. */
static uint32_t attribute(struct srun *r, const struct ir3_iface_input *fi, unsigned f, unsigned k)
{
	const struct shader *s = r->sim->s;
	if (fi->decl >= s->num_inputs)
		return 0;
	const struct io_decl *d = s->inputs[fi->decl];
	int dc = (int)(fi->comp + k) - (int)d->component;
	if (dc < 0 || dc >= (int)d->num_components)
		return 0;
	return (uint32_t)r->in->input[fi->decl][interp_input_index(r->in, d, f, 0, fi->elem,
								   (unsigned)dc)];
}

static void bind_input(struct srun *r, const struct ir3_instruction *i)
{
	const struct ir3_iface_input *fi = iface_of(r->sim, i);
	const struct ir3_register *d = i->dsts[0];
	if (!fi) {
		sim_error(r, "an input register the interface does not describe");
		return;
	}
	for (unsigned f = 0; f < r->nf; f++)
		for (unsigned k = 0; k < ir3_reg_elems(d); k++) {
			uint32_t v = 0;
			switch (fi->kind) {
			case IR3_IFACE_ATTR:
				v = attribute(r, fi, f, k);
				break;
			case IR3_IFACE_IJ: {
				float ij[2];
				interp_pixel_barycentrics(f, &ij[0], &ij[1]);
				v = float_bits(ij[k & 1]);
				break;
			}
			case IR3_IFACE_SYSVAL:
				if (!sysval(r, fi->sysval, f, k, &v)) {
					sim_error(r, "the simulator does not give the system value %s",
						  intrinsic_infos[fi->sysval].name);
					return;
				}
				break;
			}
			unsigned unit = sim_unit(r->sim, d, k);
			for (unsigned u = 0; u < sim_unit_count(d); u++) {
				size_t at = sim_at(r, f, unit + u);
				r->reg[at] = (uint16_t)(v >> (16 * u));
				r->poison[at] = false;
			}
		}
}

void sim_bind_inputs(struct srun *r)
{
	bind_consts(r);
	sim_stage_setup(r);
	const struct shader *s = r->sim->s;
	r->out_writer = arena_array(&r->arena, uint32_t *, s->num_outputs + 1);
	r->out_cause = arena_array(&r->arena, uint32_t *, s->num_outputs + 1);
	for (unsigned o = 0; o < s->num_outputs; o++) {
		r->out_writer[o] = arena_array(&r->arena, uint32_t, r->outs[o].count + 1);
		r->out_cause[o] = arena_array(&r->arena, uint32_t, r->outs[o].count + 1);
	}
	for (unsigned k = 0; k < r->sim->nsetup && !r->stop; k++)
		if (r->sim->setup[k]->opc == OPC_META_INPUT)
			bind_input(r, r->sim->setup[k]);
	for (unsigned k = 0; k < r->sim->nsetup && !r->stop; k++)
		if (r->sim->setup[k]->opc == OPC_META_TEX_PREFETCH)
			sim_prefetch(r, r->sim->setup[k]);
}

/* ---- varyings ---- */

struct sval sim_varying(struct srun *r, unsigned f, unsigned inloc, float i, float j, bool flat)
{
	const struct ir3_iface *fi = r->sim->f;
	const struct shader *s = r->sim->s;
	struct sval v = { 0, true, 0 };
	if (inloc >= fi->num_varyings || fi->varyings[inloc].decl == -2)
		return v;
	const struct ir3_iface_varying *va = &fi->varyings[inloc];
	if (va->decl == -1) {
		v.bits = float_bits(r->in->point_coord[2 * f + (va->comp & 1)]);
		v.poison = false;
		return v;
	}
	const struct io_decl *d = s->inputs[va->decl];
	int dc = (int)va->comp - (int)d->component;
	if (dc < 0 || dc >= (int)d->num_components)
		return v;
	v.poison = false;
	double ox = 0, oy = 0;
	if (!flat)
		interp_barycentric_offset(f, i, j, &ox, &oy);
	/* flat: the bits (16-bit: in the low half); bary.f: a 32-bit float */
	v.bits = (uint32_t)interp_input_at(r->in, d, (unsigned)va->decl, f, va->elem, (unsigned)dc,
					   ox, oy, flat ? d->bit_size : 32);
	return v;
}

/* ---- outputs ---- */

/* The interface output `end` source n stands for, or -1: the colour
 * outputs by their rtN slot, those without one in selection's order. */
static int output_of(const struct ir3_sim *sim, unsigned n)
{
	const struct ir3_iface *fi = sim->f;
	const struct ir3_instruction *end = sim->end;
	int slot = end->srcs[n]->slot;
	unsigned before = 0;
	for (unsigned m = 0; m < n; m++)
		before += end->srcs[m]->slot == slot;
	for (unsigned k = 0; k < fi->num_outputs; k++)
		if (fi->outputs[k].slot == slot && before-- == 0)
			return (int)k;
	return -1;
}

/* `half`: the value is in a half register.  A float output the lowering
 * narrowed (mediump, lower_ir3_mediump_io) is reported as the source
 * shader declares it, widened to 32 bits (ir3_sim_widen_narrowed). */
static void put_output(struct srun *r, unsigned f, const struct ir3_iface_output *o, unsigned comp,
		       struct sval v, uint32_t writer, bool half)
{
	const struct shader *s = r->sim->s;
	if (comp >= 4 || o->comp[comp].decl < 0)
		return;
	unsigned decl = (unsigned)o->comp[comp].decl;
	if (sim_stage_output(r, f, decl, v) || decl >= s->num_outputs)
		return;
	const struct io_decl *d = s->outputs[decl];
	unsigned dc = o->comp[comp].comp;
	if (dc >= d->num_components)
		return;
	struct interp_output *out = &r->outs[decl];
	if (f >= out->lanes && out->lanes != 1)
		return;
	size_t x = interp_io_index(d, out->lanes, out->vertices, out->lanes == 1 ? 0 : f, 0,
				   o->comp[comp].elem, dc);
	if (half && d->bit_size == 32 && r->sim->lowered && decl < r->sim->lowered->num_outputs &&
	    r->sim->lowered->outputs[decl]->bit_size == 16)
		v.bits = (uint32_t)ir_float_to_bits(ir_float_from_bits(v.bits & 0xffffu, 16), 32);
	out->vals[x] = v.bits & (d->bit_size >= 32 ? UINT32_MAX : 0xffffu);
	out->tags[x] = v.poison ? INTERP_TAG_POISON : 0;
	r->out_writer[decl][x] = writer;
	r->out_cause[decl][x] = v.cause;
}

void sim_bind_outputs(struct srun *r, unsigned f)
{
	const struct ir3_sim *sim = r->sim;
	const struct ir3_instruction *end = sim->end;
	for (unsigned n = 0; n < end->nsrc; n++) {
		int k = output_of(sim, n);
		if (k < 0)
			continue;
		const struct ir3_register *src = end->srcs[n];
		for (unsigned c = 0; c < ir3_reg_elems(src); c++) {
			unsigned unit = sim_unit(sim, src, c);
			struct sval v = { 0 };
			for (unsigned u = 0; u < sim_unit_count(src); u++) {
				size_t at = sim_at(r, f, unit + u);
				v.bits |= (uint32_t)r->reg[at] << (16 * u);
				if (r->poison[at] && !v.poison) {
					v.poison = true;
					v.cause = r->cause[at];
				}
			}
			put_output(r, f, &sim->f->outputs[k], c, v, r->writer[sim_at(r, f, unit)],
				   src->flags & IR3_REG_HALF);
		}
	}
	for (unsigned s = 0; s < 32; s++) {
		if (!r->rt_set[s])
			continue;
		for (unsigned k = 0; k < sim->f->num_outputs; k++)
			if (sim->f->outputs[k].slot == (int)(s & ~3u))
				put_output(r, f, &sim->f->outputs[k], s & 3,
					   (struct sval){ r->rt[s], false, 0 }, r->rt_writer[s],
					   r->rt_set[s] == 2);
	}
}

void sim_bind_rt(struct srun *r, const struct ir3_instruction *alias, uint32_t pc)
{
	unsigned s = alias->dsts[0]->num;
	if (s >= 32)
		return;
	struct sval v = sim_read(r, pc, r->wave->first, alias->srcs[0], 0);
	r->rt[s] = v.bits;
	r->rt_set[s] = v.poison ? 0 : (alias->srcs[0]->flags & IR3_REG_HALF) ? 2 : 1;	/* 2: half */
	r->rt_writer[s] = pc + 1;
}

/* ---- naming what made a value ---- */

static void name_cause(const struct srun *r, uint32_t cause, struct strbuf *out)
{
	strbuf_addstr(out, "undefined since ");
	sim_print_instr(out, r->sim, cause - 1);
	strbuf_addstr(out, " read a register before its value was ready");
}

void ir3_sim_origin(struct ir3_sim *sim, const struct interp_diff *at, struct strbuf *out)
{
	const struct srun *r = sim->last;
	if (!r)
		return;
	uint32_t writer = 0, cause = 0;
	int fibre = at->kind == INTERP_DIFF_GS ? sim_stage_event_fibre(r, at->lane, at->event)
					       : (int)at->lane;
	if (at->kind == INTERP_DIFF_GS && at->decl != ~0u && fibre < 0) {
		strbuf_addstr(out, "the machine code did not emit it");
	} else if ((at->kind == INTERP_DIFF_OUTPUT || at->kind == INTERP_DIFF_GS) &&
		   at->decl < sim->s->num_outputs) {
		const struct io_decl *d = sim->s->outputs[at->decl];
		const struct interp_output *o = &r->outs[at->decl];
		size_t x = interp_io_index(d, o->lanes, o->vertices, o->lanes == 1 ? 0 : (unsigned)fibre,
					   at->vertex, at->slot, at->comp);
		if (x < o->count) {
			writer = r->out_writer[at->decl][x];
			cause = r->out_cause[at->decl][x];
		}
		if (!writer && !cause)
			strbuf_addstr(out, "the machine code did not write it");
	} else if (at->kind == INTERP_DIFF_MEMORY) {
		const struct smem *m = at->buffer < r->nssbo ? &r->ssbo[at->buffer] : &r->global;
		if (at->byte < m->size)
			writer = m->writer[at->byte];
		if (!writer)
			strbuf_addstr(out, "the machine code did not store it");
	}
	if (cause)
		name_cause(r, cause, out);
	else if (writer) {
		strbuf_addstr(out, "written by ");
		sim_print_instr(out, sim, writer - 1);
	}
	if (r->first_refused && !cause)
		strbuf_addf(out, "%stiming: %s", out->len ? "; " : "", r->refused_msg.buf);
}
