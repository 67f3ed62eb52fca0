/*
 * lower_ir3_large_constants: local arrays that only ever hold constants
 * become constant data read from a UBO the driver uploads with the shader
 * (Mesa's nir_opt_large_constants, threshold 32 bytes of vec4-padded
 * elements, then ir3_nir_lower_load_constant: load_ubo of the constant data
 * buffer, which ir3_nir_analyze_ubo_ranges pushes into the const file, so a
 * dynamic index is a relative const read c<a0.x + n>):
 *
 *	@store_local (1.0, 2.0) local=L base=0   …     (every element, constants,
 *	@store_local (3.0, 4.0) local=L base=1          in the first block)
 *	32x2 %v = @load_local %i local=L base=0    →    %o = ishl %i, 4
 *	                                                32x2 %v = @load_ubo %slot, %o
 *
 * Elements are 16 bytes apart (vec4 padding).  The locals lowerd here are
 * those lower_vars_to_ssa could not promote: some access has a dynamic
 * index.
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"
#include "compiler/util/error.h"

#include <stdlib.h>
#include <string.h>

struct cand {
	bool ok;
	unsigned *stores;		/* by element: stores seen */
};

static bool is_const(struct ssa_def *d)
{
	struct load_const_instr *lc = ssa_def_as_const(d);
	return lc && lc->instr.type == INSTR_load_const;
}

static bool local_access(struct instr *in, struct intrinsic_instr **out)
{
	if (in->type != INSTR_intrinsic)
		return false;
	struct intrinsic_instr *intr = instr_as_intrinsic(in);
	*out = intr;
	return intr->op == INTR_load_local || intr->op == INTR_store_local;
}

/* Which locals qualify: stored only with constants at constant elements,
 * once each, every element, all in the first block before any load of it. */
static void find(struct shader *s, struct cand *c)
{
	struct block *first = function_start_block(s->fn);
	for (unsigned l = 0; l < s->num_locals; l++) {
		const struct local_decl *d = s->locals[l];
		c[l].ok = d->bit_size == 32 && d->num_elements * 16 >= 32;
		c[l].stores = xcalloc(d->num_elements, sizeof(unsigned));
	}
	bool *loaded = xcalloc(s->num_locals + 1, sizeof(bool));
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			struct intrinsic_instr *intr;
			if (!local_access(in, &intr))
				continue;
			unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
			if (intr->op == INTR_load_local) {
				loaded[l] = true;
				continue;
			}
			const struct local_decl *d = s->locals[l];
			unsigned full = (1u << d->num_components) - 1;
			struct load_const_instr *off = ssa_def_as_const(intr->src[1].ssa);
			unsigned e = (unsigned)intrinsic_get(intr, INTR_IDX_base) +
				     (off && off->instr.type == INSTR_load_const ? (unsigned)off->value[0] : 0);
			if (blk != first || loaded[l] || !is_const(intr->src[0].ssa) || !off ||
			    off->instr.type != INSTR_load_const || e >= d->num_elements ||
			    ((unsigned)intrinsic_get(intr, INTR_IDX_write_mask) & full) != full)
				c[l].ok = false;
			else
				c[l].stores[e]++;
		}
	for (unsigned l = 0; l < s->num_locals; l++)
		for (unsigned e = 0; c[l].ok && e < s->locals[l]->num_elements; e++)
			c[l].ok = c[l].stores[e] == 1;
	free(loaded);
}

/* The bytes a constant store puts in the constant data (its element's
 * vec4, components of 4 bytes): the driver's upload. */
static void store_data(uint8_t *data, const struct local_decl *d, struct intrinsic_instr *st)
{
	struct load_const_instr *v = ssa_def_as_const(st->src[0].ssa);
	struct load_const_instr *off = ssa_def_as_const(st->src[1].ssa);
	unsigned e = (unsigned)intrinsic_get(st, INTR_IDX_base) + (unsigned)off->value[0];
	for (unsigned k = 0; k < d->num_components && k < 4; k++) {
		uint32_t w = (uint32_t)v->value[k];
		memcpy(data + e * 16 + 4 * k, &w, 4);
	}
}

bool lower_ir3_large_constants(struct shader *s, const struct ir3_lowering *t,
			       struct ir3_const_layout *layout)
{
	(void)t;
	layout->const_data_slot = -1;
	layout->const_data_size = 0;
	if (!s->num_locals)
		return shader_progress(s, false, META_ALL);
	struct cand *c = xcalloc(s->num_locals, sizeof(*c));
	find(s, c);
	unsigned *at = xcalloc(s->num_locals, sizeof(unsigned));
	unsigned size = 0;
	for (unsigned l = 0; l < s->num_locals; l++)
		if (c[l].ok) {
			at[l] = size;
			size += s->locals[l]->num_elements * 16;
		}
	bool progress = size != 0;
	if (progress) {
		struct buffer_decl *ubo = shader_add_ubo(s);
		ubo->size = size;
		ubo->name = "constant data";
		layout->const_data_slot = (int)ubo->slot;
		layout->const_data_size = size;
		layout->const_data = arena_alloc(&s->arena, size);
		memset(layout->const_data, 0, size);
		struct builder b;
		foreach_block(blk, s->fn)
			foreach_instr_safe(in, blk) {
				struct intrinsic_instr *intr;
				if (!local_access(in, &intr))
					continue;
				unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
				if (!c[l].ok)
					continue;
				if (intr->op == INTR_store_local)
					store_data(layout->const_data + at[l], s->locals[l], intr);
				if (intr->op == INTR_load_local) {
					builder_init(&b, s, cursor_before_instr(in));
					unsigned base = at[l] + (unsigned)intrinsic_get(intr, INTR_IDX_base) * 16;
					struct ssa_def *off = b_iadd(&b, b_ishl(&b, intr->src[0].ssa, b_imm_int(&b, 4)),
								     b_imm_int(&b, base));
					struct ssa_def *v = b_intr(&b, load_ubo, intr->def.num_components, 32,
								   (b_imm_int(&b, ubo->slot), off),
								   .align_mul = 16, .align_offset = 0);
					ssa_def_rewrite_uses(&intr->def, v);
				}
				instr_remove(in);
			}
	}
	for (unsigned l = 0; l < s->num_locals; l++)
		free(c[l].stores);
	free(c);
	free(at);
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
