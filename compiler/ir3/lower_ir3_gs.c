/*
 * lower_ir3_gs: geometry shader emission as Mesa's ir3_nir_lower_gs does it
 * (targets.md §2.1, ir3_finalize_nir).  The hardware runs one fibre per
 * emitted vertex: fibre N keeps the outputs current at the N-th
 * EmitVertex() and stores them once, at the end, with a `vertex_flags`
 * output telling where primitives start (4) and which stream the vertex is
 * for:
 *
 *	outputs          → "old" temporaries (locals)
 *	EmitVertex(s)    → if (vertex_count == local_thread_id) {
 *	                       vertex_flags |= s; emit temporaries = old ones;
 *	                       emitted++ }
 *	                   vertex_count++; vertex_flags = 0
 *	EndPrimitive()   → vertex_flags = 4
 *	at the end       → if (emitted == 0) { vertex_flags = 4; emit = old }
 *	                   discard_if (emitted == 0); outputs = emit temporaries
 *
 * local_thread_id is bits 16–25 of the GS header.  Counts known at compile
 * time fold away once lower_vars_to_ssa and the optimisation loop run.
 * Streams are not split (Mesa's lower_mixed_streams duplicates the shader
 * per stream when several are mixed: not modelled).
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"
#include "compiler/util/error.h"

#include <stdlib.h>

struct gs {
	struct shader *s;
	struct builder b;
	unsigned num_outputs;		/* including vertex_flags */
	unsigned *old, *emit;		/* by output: its locals */
	unsigned count, emitted, flags;	/* the locals of the counters; flags = vertex_flags' output */
};

static unsigned new_local(struct shader *s, unsigned elems, unsigned comps, unsigned bits)
{
	struct local_decl *l = shader_add_local(s);
	l->num_elements = elems;
	l->num_components = (uint8_t)comps;
	l->bit_size = (uint8_t)bits;
	return s->num_locals - 1;
}

static struct ssa_def *zero_offset(struct builder *b) { return b_imm_int(b, 0); }

static struct ssa_def *load_u(struct gs *g, unsigned local)
{
	return b_load_local(&g->b, local, 0, zero_offset(&g->b));
}

static void store_u(struct gs *g, unsigned local, struct ssa_def *v)
{
	b_store_local(&g->b, v, local, 0, 1, zero_offset(&g->b));
}

/* vertex_flags is output num_outputs - 1: component x of its old temporary */
static void set_flags(struct gs *g, struct ssa_def *v)
{
	struct builder *b = &g->b;
	struct ssa_def *u = b_undef(b, 1, 32);
	b_store_local(b, b_vec4(b, v, u, u, u), g->old[g->flags], 0, 1, zero_offset(b));
}

static struct ssa_def *get_flags(struct gs *g)
{
	return b_channel(&g->b, b_load_local(&g->b, g->old[g->flags], 0, zero_offset(&g->b)), 0);
}

/* emit temporaries = old temporaries, every slot */
static void copy_outputs(struct gs *g, unsigned *to, unsigned *from)
{
	for (unsigned o = 0; o < g->num_outputs; o++) {
		unsigned n = decl_num_slots(g->s->outputs[o]->array_size);
		for (unsigned k = 0; k < n; k++)
			b_store_local(&g->b, b_load_local(&g->b, from[o], k, zero_offset(&g->b)), to[o], k,
				      0xf, zero_offset(&g->b));
	}
}

static void lower_emit(struct gs *g, struct intrinsic_instr *intr)
{
	struct builder *b = &g->b;
	struct ssa_def *count = load_u(g, g->count);
	struct ssa_def *tid = b_iand(b, b_ushr(b, b_sysval(b, INTR_load_gs_header_ir3), b_imm_int(b, 16)),
				     b_imm_int(b, 1023));
	struct cf_if *nif = b_push_if(b, b_ieq(b, count, tid));
	set_flags(g, b_ior(b, get_flags(g), b_imm_int(b, intrinsic_get(intr, INTR_IDX_stream))));
	copy_outputs(g, g->emit, g->old);
	store_u(g, g->emitted, b_iadd(b, load_u(g, g->emitted), b_imm_int(b, 1)));
	b_pop_if(b, nif);
	store_u(g, g->count, b_iadd(b, count, b_imm_int(b, 1)));
	set_flags(g, b_imm_int(b, 0));
}

/* store_output / load_output on the old temporaries (as lower_io_to_temps) */
static void lower_io(struct gs *g, struct intrinsic_instr *intr)
{
	struct builder *b = &g->b;
	unsigned o = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	if (intr->op == INTR_load_output) {
		struct ssa_def *v = b_load_local(b, g->old[o], 0, intr->src[0].ssa);
		unsigned sw[4];
		for (unsigned k = 0; k < intr->def.num_components; k++)
			sw[k] = comp + k;
		ssa_def_rewrite_uses(&intr->def, b_swizzle(b, v, sw, intr->def.num_components));
		return;
	}
	struct ssa_def *v = intr->src[0].ssa, *c[4], *u = b_undef(b, 1, v->bit_size);
	for (unsigned k = 0; k < 4; k++)
		c[k] = k >= comp && k < comp + v->num_components ? b_channel(b, v, k - comp) : u;
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	if (!mask)
		mask = (1u << v->num_components) - 1;
	b_store_local(b, b_vec4(b, c[0], c[1], c[2], c[3]), g->old[o], 0, (mask << comp) & 0xf,
		      intr->src[1].ssa);
}

/* The end of the shader (each exit): the fibres of unemitted vertices die;
 * the others store their vertex. */
static void finish(struct gs *g)
{
	struct builder *b = &g->b;
	struct ssa_def *none = b_ieq(b, load_u(g, g->emitted), b_imm_int(b, 0));
	struct cf_if *nif = b_push_if(b, none);
	set_flags(g, b_imm_int(b, 4));
	copy_outputs(g, g->emit, g->old);
	b_pop_if(b, nif);
	b_intr(b, discard_if, 0, 0, (none));
	for (unsigned o = 0; o < g->num_outputs; o++) {
		const struct io_decl *d = g->s->outputs[o];
		for (unsigned k = 0; k < decl_num_slots(d->array_size); k++) {
			struct ssa_def *v = b_load_local(b, g->emit[o], k, zero_offset(b));
			unsigned sw[4], n = d->num_components ? d->num_components : 4;
			for (unsigned c = 0; c < n; c++)
				sw[c] = d->component + c;
			struct ssa_def *part = b_swizzle(b, v, sw, n);
			struct ssa_def *slot = b_imm_int(b, k);
			b_intr(b, store_output, n, 0, (part, slot), .base = (int32_t)o,
			       .component = d->component, .write_mask = (int32_t)((1u << n) - 1));
		}
	}
}

bool lower_ir3_gs(struct shader *s, const struct ir3_lowering *t)
{
	(void)t;
	if (s->stage != STAGE_GEOMETRY)
		return shader_progress(s, false, META_ALL);
	struct gs g = { .s = s };
	struct io_decl *vf = shader_add_output(s);
	vf->location = 255;	/* past every varying: the driver knows it by name */
	vf->num_components = 1;
	vf->bit_size = 32;
	vf->name = "vertex_flags";
	g.num_outputs = s->num_outputs;
	g.flags = g.num_outputs - 1;
	g.old = xmalloc(sizeof(unsigned) * g.num_outputs);
	g.emit = xmalloc(sizeof(unsigned) * g.num_outputs);
	for (unsigned o = 0; o < g.num_outputs; o++) {
		const struct io_decl *d = s->outputs[o];
		unsigned bits = d->bit_size ? d->bit_size : 32;
		g.old[o] = new_local(s, decl_num_slots(d->array_size), 4, bits);
		g.emit[o] = new_local(s, decl_num_slots(d->array_size), 4, bits);
	}
	g.count = new_local(s, 1, 1, 32);
	g.emitted = new_local(s, 1, 1, 32);

	builder_init(&g.b, s, cursor_before_block(function_start_block(s->fn)));
	store_u(&g, g.count, b_imm_int(&g.b, 0));
	store_u(&g, g.emitted, b_imm_int(&g.b, 0));
	set_flags(&g, b_imm_int(&g.b, 4));

	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(in);
			builder_init(&g.b, s, cursor_before_instr(in));
			switch (intr->op) {
			case INTR_emit_vertex: lower_emit(&g, intr); break;
			case INTR_end_primitive: set_flags(&g, b_imm_int(&g.b, 4)); break;
			case INTR_store_output: case INTR_load_output: lower_io(&g, intr); break;
			default: continue;
			}
			instr_remove(in);
		}
	foreach_block(blk, s->fn) {
		struct jump_instr *j = block_jump(blk);
		if (j && j->type == JUMP_return) {
			builder_init(&g.b, s, cursor_before_instr(&j->instr));
			finish(&g);
		}
	}
	struct block *last = function_last_block(s->fn);
	if (!block_jump(last)) {
		builder_init(&g.b, s, cursor_after_block(last));
		finish(&g);
	}
	free(g.old);
	free(g.emit);
	return shader_progress(s, true, 0);
}
