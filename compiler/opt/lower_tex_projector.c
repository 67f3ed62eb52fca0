/*
 * lower_tex_projector: a texture fetch's projector divided in (Mesa's
 * nir_lower_tex with lower_txp): the coordinates — not the array index —
 * and the shadow reference are multiplied by 1/proj.
 *
 *	%t = tex %c, projector %p   →   %r = frcp %p; %c' = %c.xy * %r …; tex %c'
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

static bool lower_proj(struct builder *b, struct tex_instr *tex)
{
	int p = tex_instr_src_index(tex, TEX_SRC_projector);
	if (p < 0)
		return false;
	struct ssa_def *inv = b_frcp(b, tex->src[p].src.ssa);
	int cidx = tex_instr_src_index(tex, TEX_SRC_coord);
	if (cidx >= 0) {
		struct ssa_def *coord = tex->src[cidx].src.ssa;
		unsigned n = image_dim_coords(tex->dim);
		struct ssa_def *c[4];
		for (unsigned k = 0; k < coord->num_components && k < 4; k++) {
			c[k] = b_channel(b, coord, k);
			if (k < n)
				c[k] = b_fmul(b, c[k], inv);
		}
		src_rewrite(&tex->src[cidx].src, b_vec(b, c, coord->num_components));
	}
	int r = tex_instr_src_index(tex, TEX_SRC_comparator);
	if (r >= 0)
		src_rewrite(&tex->src[r].src, b_fmul(b, tex->src[r].src.ssa, inv));
	tex_instr_remove_src(tex, (unsigned)tex_instr_src_index(tex, TEX_SRC_projector));
	return true;
}

bool lower_tex_projector(struct shader *s)
{
	bool progress = false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			if (in->type != INSTR_tex)
				continue;
			builder_init(&b, s, cursor_before_instr(in));
			progress |= lower_proj(&b, instr_as_tex(in));
		}
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
