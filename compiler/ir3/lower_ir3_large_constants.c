/*
 * lower_ir3_large_constants: local arrays that only ever hold constants
 * become constant data read from a UBO the driver uploads with the shader
 * (Mesa's nir_opt_large_constants, threshold 32 bytes of vec4-padded
 * elements, then ir3_nir_lower_load_constant: load_ubo of the constant data
 * buffer, which ir3_nir_analyze_ubo_ranges pushes into the const file, so a
 * dynamic index is a relative const read c<a0.x + n>):
 *
 *	@store_local (1.0, 2.0) local=L base=0   …     (constants, in one block
 *	@store_local (3.0, 4.0) local=L base=1          that dominates the loads)
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
	struct block *block;		/* where its stores are */
	uint8_t *data;			/* what they store, vec4-padded elements */
	unsigned at;			/* its place in the constant data */
};

static bool is_const(struct ssa_def *d)
{
	struct load_const_instr *lc = ssa_def_as_const(d);
	return lc && lc->instr.type == INSTR_load_const;
}

/* The bytes a constant store puts in the constant data (its element's
 * vec4, components of 4 bytes, those of its write mask): the driver's
 * upload.  A later store of an element overwrites an earlier one. */
static void store_data(uint8_t *data, const struct local_decl *d, struct intrinsic_instr *st,
		       unsigned e)
{
	struct load_const_instr *v = ssa_def_as_const(st->src[0].ssa);
	unsigned mask = (unsigned)intrinsic_get(st, INTR_IDX_write_mask);
	for (unsigned k = 0; k < d->num_components && k < 4; k++)
		if (mask & 1u << k) {
			uint32_t w = (uint32_t)v->value[k];
			memcpy(data + e * 16 + 4 * k, &w, 4);
		}
}

/* Which locals qualify (Mesa's nir_opt_large_constants): stored only with
 * constants at constant elements, every store in one block and before any
 * load in the program's order, every load in a block that block dominates;
 * read at least once, and larger than 32 bytes.  An element never stored
 * reads 0 (it was undefined).  Collects their data as it goes. */
static void find(struct shader *s, struct cand *c)
{
	metadata_require(s->fn, META_DOMINANCE);
	for (unsigned l = 0; l < s->num_locals; l++) {
		const struct local_decl *d = s->locals[l];
		c[l].ok = d->bit_size == 32 && d->num_elements * 16 > 32;
		c[l].data = c[l].ok ? xcalloc(d->num_elements, 16) : NULL;
	}
	bool *loaded = xcalloc(s->num_locals + 1, sizeof(bool));
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			struct intrinsic_instr *intr;
			if (!instr_is_local_access(in, &intr))
				continue;
			unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
			if (!c[l].ok)
				continue;
			if (intr->op == INTR_load_local) {
				loaded[l] = true;
				if (!c[l].block || !block_dominates(c[l].block, blk))
					c[l].ok = false;
				continue;
			}
			const struct local_decl *d = s->locals[l];
			struct load_const_instr *off = ssa_def_as_const(intr->src[1].ssa);
			unsigned e = (unsigned)intrinsic_get(intr, INTR_IDX_base) +
				     (off && off->instr.type == INSTR_load_const ? (unsigned)off->value[0] : 0);
			if (!c[l].block)
				c[l].block = blk;
			if (blk != c[l].block || loaded[l] || !is_const(intr->src[0].ssa) || !off ||
			    off->instr.type != INSTR_load_const || e >= d->num_elements)
				c[l].ok = false;
			else
				store_data(c[l].data, d, intr, e);
		}
	for (unsigned l = 0; l < s->num_locals; l++)
		c[l].ok &= loaded[l];
	free(loaded);
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
	/* places in the constant data; locals of the same contents share one
	 * (glslang copies a constant array into a new local at each dynamic
	 * index, Mesa's pass finds them duplicates) */
	unsigned size = 0;
	for (unsigned l = 0; l < s->num_locals; l++) {
		if (!c[l].ok)
			continue;
		unsigned bytes = s->locals[l]->num_elements * 16;
		c[l].at = size;
		for (unsigned o = 0; o < l; o++)
			if (c[o].ok && s->locals[o]->num_elements * 16 == bytes &&
			    !memcmp(c[o].data, c[l].data, bytes)) {
				c[l].at = c[o].at;
				break;
			}
		if (c[l].at == size)
			size += bytes;
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
		for (unsigned l = 0; l < s->num_locals; l++)
			if (c[l].ok)
				memcpy(layout->const_data + c[l].at, c[l].data,
				       s->locals[l]->num_elements * 16);
		struct builder b;
		foreach_block(blk, s->fn)
			foreach_instr_safe(in, blk) {
				struct intrinsic_instr *intr;
				if (!instr_is_local_access(in, &intr))
					continue;
				unsigned l = (unsigned)intrinsic_get(intr, INTR_IDX_local);
				if (!c[l].ok)
					continue;
				if (intr->op == INTR_load_local) {
					builder_init(&b, s, cursor_before_instr(in));
					unsigned base = c[l].at + (unsigned)intrinsic_get(intr, INTR_IDX_base) * 16;
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
		free(c[l].data);
	free(c);
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
