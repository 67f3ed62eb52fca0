/*
 * lower_ir3_tex: texture lowering per generation (Mesa's nir_lower_tex with
 * ir3's options and ir3_nir_lower_array_sampler, targets.md §2.1):
 *
 *	projector   lower_tex_projector before (a3xx lowers only 3D in Mesa;
 *	            we lower all)
 *	array index + 0.5 on a4xx+ for the filtering ops (not txf/txf_ms)
 *	txf         an explicit lod 0 when it has none (isaml reads one)
 */
#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

static bool lower_array(struct builder *b, struct tex_instr *tex)
{
	if (!tex->is_array || tex->op == TEX_OP_txf || tex->op == TEX_OP_txf_ms ||
	    tex->op == TEX_OP_txs || tex->op == TEX_OP_query_levels || tex->op == TEX_OP_lod ||
	    tex->op == TEX_OP_texture_samples)
		return false;
	int cidx = tex_instr_src_index(tex, TEX_SRC_coord);
	if (cidx < 0)
		return false;
	struct ssa_def *coord = tex->src[cidx].src.ssa;
	unsigned n = image_dim_coords(tex->dim);
	if (coord->num_components <= n)
		return false;
	struct ssa_def *c[4];
	for (unsigned k = 0; k < coord->num_components && k < 4; k++)
		c[k] = b_channel(b, coord, k);
	c[n] = b_fadd(b, c[n], b_imm_floatN(b, 0.5, coord->bit_size));
	src_rewrite(&tex->src[cidx].src, b_vec(b, c, coord->num_components));
	return true;
}

bool lower_ir3_tex(struct shader *s, const struct ir3_lowering *t)
{
	bool progress = false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr(in, blk) {
			if (in->type != INSTR_tex)
				continue;
			struct tex_instr *tex = instr_as_tex(in);
			builder_init(&b, s, cursor_before_instr(in));
			if (t->array_index_add_half)
				progress |= lower_array(&b, tex);
			/* approximation: the lod clamp is dropped (ir3 has none to
			 * give it; Mesa 24.3 does not take min_lod either) */
			int ml = tex_instr_src_index(tex, TEX_SRC_min_lod);
			if (ml >= 0) {
				tex_instr_remove_src(tex, (unsigned)ml);
				progress = true;
			}
			if (tex->op == TEX_OP_txf && tex_instr_src_index(tex, TEX_SRC_lod) < 0) {
				tex_instr_add_src(tex, TEX_SRC_lod, b_imm_int(&b, 0));
				progress = true;
			}
		}
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
