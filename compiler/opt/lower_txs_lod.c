/*
 * lower_txs_lod: a size query at a level other than 0 as the base level's
 * size minified (Mesa's nir_lower_tex with lower_txs_lod, which etnaviv
 * asks for: its size query reads the uniform file, one size per texture):
 *
 *	%s = txs lod %l		→	%s0 = txs lod 0
 *					%s = imin(%s0, imax(%s0 >> %l, 1))
 *
 * (min with the base size so that a missing texture stays 0); an array's
 * layer count is not minified.
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

static struct ssa_def *splat(struct builder *b, struct ssa_def *x, unsigned n)
{
	static const unsigned xxxx[4] = { 0, 0, 0, 0 };
	return n == 1 ? x : b_swizzle(b, x, xxxx, n);
}

static bool lower_txs(struct shader *s, struct tex_instr *tex)
{
	int l = tex_instr_src_index(tex, TEX_SRC_lod);
	if (tex->op != TEX_OP_txs || l < 0)
		return false;
	struct ssa_def *lod = tex->src[l].src.ssa;
	struct load_const_instr *lc = ssa_def_as_const(lod);
	if (lc && lc->value[0] == 0)
		return false;
	struct builder b;
	builder_init(&b, s, cursor_before_instr(&tex->instr));
	src_rewrite(&tex->src[l].src, b_imm_int(&b, 0));
	b.cursor = cursor_after_instr(&tex->instr);
	unsigned n = tex->def.num_components;
	struct ssa_def *size = &tex->def;
	struct ssa_def *min = b_imin(&b, size, b_imax(&b, b_ushr(&b, size, splat(&b, lod, n)),
						    splat(&b, b_imm_int(&b, 1), n)));
	if (tex->is_array && n > 1) {
		struct ssa_def *c[4];
		for (unsigned k = 0; k + 1 < n; k++)
			c[k] = b_channel(&b, min, k);
		c[n - 1] = b_channel(&b, size, n - 1);
		min = b_vec(&b, c, n);
	}
	ssa_def_rewrite_uses_after(size, min, min->parent);
	return true;
}

bool lower_txs_lod(struct shader *s)
{
	bool progress = false;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk)
			if (in->type == INSTR_tex)
				progress |= lower_txs(s, instr_as_tex(in));
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
