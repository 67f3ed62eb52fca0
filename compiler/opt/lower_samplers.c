/*
 * lower_samplers: a texture fetch's dynamic texture or sampler index kept
 * inside its array of descriptors, as the GL state tracker's
 * nir_lower_samplers does (the index clamped by umin to the array's last
 * element: an index past the end reads the last), and an index that is
 * then constant folded into the fetch's slot.  An array of one element
 * thus loses its dynamic index altogether: etnaviv, which has no dynamic
 * texture index, compiles such fetches (targets.md §4.3).
 *
 *	tex texture=S texture_offset=%i     (S in an array of N from slot S0)
 *	  →  tex texture=S texture_offset=umin(%i, N - 1 - (S - S0))
 *	  →  tex texture=S + c                    (when that is a constant c)
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

/* The slots from `slot` to the end of its array (1 when not an array). */
static unsigned slots_left(struct resource_decl **decls, unsigned n, unsigned slot)
{
	struct resource_decl *d = shader_find_resource(decls, n, slot);
	return d ? decl_num_slots(d->array_size) - (slot - d->slot) : 1;
}

/* Whether `off` is umin(x, max) already (the pass run again). */
static bool clamped(struct ssa_def *off, unsigned max)
{
	if (off->parent->type != INSTR_alu)
		return false;
	struct alu_instr *alu = instr_as_alu(off->parent);
	if (alu->op != OP_umin)
		return false;
	struct load_const_instr *lc = ssa_def_as_const(alu->src[1].src.ssa);
	return lc && lc->value[alu->src[1].swizzle[0]] == max;
}

/* Clamp or fold the source `type` of `tex`, indexing from `*index`. */
static bool lower_offset(struct shader *s, struct tex_instr *tex, enum tex_src_type type,
			 unsigned *index, unsigned left)
{
	int k = tex_instr_src_index(tex, type);
	if (k < 0)
		return false;
	struct ssa_def *off = tex->src[k].src.ssa;
	struct load_const_instr *lc = ssa_def_as_const(off);
	if (left <= 1 || lc) {
		uint64_t c = lc ? lc->value[0] : 0;
		*index += (unsigned)(c < left ? c : left - 1);
		tex_instr_remove_src(tex, (unsigned)k);
		return true;
	}
	if (clamped(off, left - 1))
		return false;
	struct builder b;
	builder_init(&b, s, cursor_before_instr(&tex->instr));
	tex_src_set(tex, (unsigned)k, type, b_umin(&b, off, b_imm_intN(&b, left - 1, off->bit_size)));
	return true;
}

bool lower_samplers(struct shader *s)
{
	bool progress = false;
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			if (in->type != INSTR_tex)
				continue;
			struct tex_instr *tex = instr_as_tex(in);
			progress |= lower_offset(s, tex, TEX_SRC_texture_offset, &tex->texture_index,
						 slots_left(s->textures, s->num_textures, tex->texture_index));
			progress |= lower_offset(s, tex, TEX_SRC_sampler_offset, &tex->sampler_index,
						 slots_left(s->samplers, s->num_samplers, tex->sampler_index));
		}
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
