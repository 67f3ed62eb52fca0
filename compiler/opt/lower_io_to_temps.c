/*
 * lower_io_to_temps: outputs through temporaries (Mesa's
 * nir_lower_io_to_temporaries, which ir3 runs on every stage but the TCS
 * and etnaviv on every stage, lower_all_io_to_temps):
 * every output slot becomes a local of four components; store_output and
 * load_output write and read it, wherever they are; before the shader
 * returns — at the end of its last block and before every `return` — the
 * slots written anywhere are stored from the locals.  lower_vars_to_ssa
 * then makes SSA values of them, so selection sees each output stored once
 * per exit, whatever blocks, loops or array indices wrote it:
 *
 *	if %c { @store_output %a … }        @store_local (%a, undef…) local=L …
 *	                                →   …
 *	                                    @store_output (@load_local local=L) …
 *
 * Inputs read at a dynamic slot (VS, FS) become selects over the slots.
 *
 * A geometry shader's outputs are its emitted vertices' (a backend lowers
 * them first and leaves its final stores only); a tessellation control
 * shader's are left alone (they go to memory).
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"
#include "compiler/util/error.h"

#include <stdlib.h>
#include <string.h>

struct temps {
	struct shader *s;
	int *local;			/* by output decl: its local, -1 none */
	unsigned **written;		/* by output decl and slot: components written */
};

static unsigned slots_of(const struct io_decl *d)
{
	return decl_num_slots(d->array_size);
}

static unsigned local_of(struct temps *t, unsigned o)
{
	if (t->local[o] < 0) {
		const struct io_decl *d = t->s->outputs[o];
		struct local_decl *l = shader_add_local(t->s);
		l->num_elements = slots_of(d);
		l->num_components = 4;
		l->bit_size = d->bit_size;
		l->name = d->name;
		t->local[o] = (int)(t->s->num_locals - 1);
	}
	return (unsigned)t->local[o];
}

/* `v` at components [comp, comp + n) of a 4-component value. */
static struct ssa_def *widen(struct builder *b, struct ssa_def *v, unsigned comp)
{
	struct ssa_def *c[4];
	struct ssa_def *u = NULL;
	for (unsigned k = 0; k < 4; k++) {
		if (k >= comp && k < comp + v->num_components) {
			c[k] = b_channel(b, v, k - comp);
		} else {
			if (!u)
				u = b_undef(b, 1, v->bit_size);
			c[k] = u;
		}
	}
	return b_vec4(b, c[0], c[1], c[2], c[3]);
}

static void lower_store(struct temps *t, struct builder *b, struct intrinsic_instr *intr)
{
	unsigned o = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	struct ssa_def *v = intr->src[0].ssa;
	if (!mask)
		mask = (1u << v->num_components) - 1;
	uint64_t off = 0;
	struct load_const_instr *lc = ssa_def_as_const(intr->src[1].ssa);
	bool direct = lc && lc->instr.type == INSTR_load_const;
	if (direct)
		off = lc->value[0];
	unsigned n = slots_of(t->s->outputs[o]);
	for (unsigned k = 0; k < n; k++)
		if (!direct || k == off)
			t->written[o][k] |= (mask << comp) & 0xf;
	b_store_local(b, widen(b, v, comp), local_of(t, o), 0, (mask << comp) & 0xf,
		      intr->src[1].ssa);
	instr_remove(&intr->instr);
}

static void lower_load(struct temps *t, struct builder *b, struct intrinsic_instr *intr)
{
	unsigned o = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	struct ssa_def *v = b_load_local(b, local_of(t, o), 0, intr->src[0].ssa);
	unsigned sw[4];
	for (unsigned k = 0; k < intr->def.num_components; k++)
		sw[k] = comp + k;
	ssa_def_rewrite_uses(&intr->def, b_swizzle(b, v, sw, intr->def.num_components));
	instr_remove(&intr->instr);
}

/* The outputs' final stores, at the builder's cursor. */
static void store_outputs(struct temps *t, struct builder *b)
{
	for (unsigned o = 0; o < t->s->num_outputs; o++) {
		if (t->local[o] < 0)
			continue;
		for (unsigned k = 0; k < slots_of(t->s->outputs[o]); k++) {
			unsigned m = t->written[o][k];
			if (!m)
				continue;
			unsigned lo = (unsigned)__builtin_ctz(m), hi = 32 - (unsigned)__builtin_clz(m);
			struct ssa_def *v = b_load_local(b, (unsigned)t->local[o], k, b_imm_int(b, 0));
			unsigned sw[4];
			for (unsigned c = lo; c < hi; c++)
				sw[c - lo] = c;
			struct ssa_def *part = b_swizzle(b, v, sw, hi - lo);
			struct ssa_def *slot = b_imm_int(b, k);
			b_intr(b, store_output, hi - lo, 0, (part, slot), .base = (int32_t)o,
			       .component = (int32_t)lo, .write_mask = (int32_t)(m >> lo));
		}
	}
}

/* An input read at a dynamic slot: every slot read, the right one chosen
 * (nir_lower_indirect_derefs on inputs, after if-conversion). */
static bool lower_indirect_input(struct shader *s, struct builder *b, struct intrinsic_instr *intr)
{
	struct load_const_instr *lc = ssa_def_as_const(intr->src[0].ssa);
	if (lc && lc->instr.type == INSTR_load_const)
		return false;
	unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
	unsigned comp = (unsigned)intrinsic_get(intr, INTR_IDX_component);
	unsigned n = base < s->num_inputs ? decl_num_slots(s->inputs[base]->array_size) : 1;
	struct ssa_def *v = NULL;
	for (unsigned k = 0; k < n; k++) {
		struct ssa_def *e = b_intr(b, load_input, intr->def.num_components, intr->def.bit_size,
					   (b_imm_int(b, k)), .base = (int32_t)base,
					   .component = (int32_t)comp);
		v = v ? b_bcsel(b, b_ieq(b, intr->src[0].ssa, b_imm_int(b, k)), e, v) : e;
	}
	ssa_def_rewrite_uses(&intr->def, v);
	instr_remove(&intr->instr);
	return true;
}

static bool lower_inputs(struct shader *s)
{
	bool progress = false;
	struct builder b;
	if (s->stage != STAGE_VERTEX && s->stage != STAGE_FRAGMENT)
		return false;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_intrinsic || instr_as_intrinsic(in)->op != INTR_load_input)
				continue;
			builder_init(&b, s, cursor_before_instr(in));
			progress |= lower_indirect_input(s, &b, instr_as_intrinsic(in));
		}
	return progress;
}

bool lower_io_to_temps(struct shader *s)
{
	bool inputs = lower_inputs(s);
	if (s->stage == STAGE_TESS_CTRL || s->stage == STAGE_GEOMETRY || !s->num_outputs)
		return shader_progress(s, inputs, META_BLOCK_INDEX | META_DOMINANCE);
	struct temps t = { .s = s };
	t.local = xmalloc(sizeof(int) * s->num_outputs);
	t.written = xcalloc(s->num_outputs, sizeof(unsigned *));
	for (unsigned o = 0; o < s->num_outputs; o++) {
		t.local[o] = -1;
		t.written[o] = xcalloc(slots_of(s->outputs[o]), sizeof(unsigned));
	}
	struct builder b;
	bool progress = false;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(in);
			builder_init(&b, s, cursor_before_instr(in));
			if (intr->op == INTR_store_output) {
				lower_store(&t, &b, intr);
				progress = true;
			} else if (intr->op == INTR_load_output) {
				lower_load(&t, &b, intr);
				progress = true;
			}
		}
	if (progress) {
		/* before every return, and at the end when the last block falls
		 * through to it */
		foreach_block(blk, s->fn) {
			struct jump_instr *j = block_jump(blk);
			if (j && j->type == JUMP_return) {
				builder_init(&b, s, cursor_before_instr(&j->instr));
				store_outputs(&t, &b);
			}
		}
		struct block *last = function_last_block(s->fn);
		if (!block_jump(last)) {
			builder_init(&b, s, cursor_after_block(last));
			store_outputs(&t, &b);
		}
	}
	for (unsigned o = 0; o < s->num_outputs; o++)
		free(t.written[o]);
	free(t.written);
	free(t.local);
	return shader_progress(s, progress || inputs, META_BLOCK_INDEX | META_DOMINANCE);
}
