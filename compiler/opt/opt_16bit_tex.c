/*
 * opt_16bit_tex: texture operations at 16 bits where the shader only wants
 * 16 (Mesa's nir_opt_16bit_tex_image, as ir3 runs it on a5xx+):
 *
 *  - a float result that every user narrows (f2f16) is returned at 16 bits
 *    (the sampler converts it) and the narrowings become movs;
 *  - sources that are 16-bit values widened (f2f32), or constants 16 bits
 *    hold exactly, are given at 16 bits — all of a fetch's sources of the
 *    kinds `src_types` names or none, as the hardware reads them at one
 *    precision.
 *
 *	16x2 %h = …                           16x2 %h = …
 *	32x2 %c = f2f32 %h                    16x4 %t = tex … coord=%h
 *	32x4 %t = tex … coord=%c        →     16x4 %n = mov %t
 *	16x4 %n = f2f16 %t
 *
 * Integer sources and results (txf coordinates, offsets, integer textures)
 * are left alone: only float conversions are folded here.  Image loads and
 * stores, which Mesa narrows on a6xx, too.
 */
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

static struct alu_instr *alu_of(struct ssa_def *d)
{
	return d->parent->type == INSTR_alu ? instr_as_alu(d->parent) : NULL;
}

/* Every use of the result is an f2f16 (not an if condition). */
static bool only_narrowed(struct ssa_def *d)
{
	bool any = false;
	foreach_use(u, d) {
		if (u->parent_if || u->parent_instr->type != INSTR_alu ||
		    instr_as_alu(u->parent_instr)->op != OP_f2f16)
			return false;
		any = true;
	}
	return any;
}

/* An operation that fetches texels (not a query). */
static bool fetches(const struct tex_instr *tex)
{
	switch (tex->op) {
	case TEX_OP_tex: case TEX_OP_txb: case TEX_OP_txl: case TEX_OP_txd: case TEX_OP_txf:
	case TEX_OP_txf_ms: case TEX_OP_tg4:
		return true;
	default:
		return false;
	}
}

static bool float_src(const struct tex_instr *tex, enum tex_src_type t)
{
	switch (t) {
	case TEX_SRC_coord: case TEX_SRC_lod:
		return tex->op != TEX_OP_txf && tex->op != TEX_OP_txf_ms;
	case TEX_SRC_comparator: case TEX_SRC_bias: case TEX_SRC_min_lod:
	case TEX_SRC_ddx: case TEX_SRC_ddy:
		return true;
	default:
		return false;
	}
}

/* A 32-bit float source that is a 16-bit value widened, or a constant
 * 16 bits hold exactly. */
static bool narrowable(struct ssa_def *d)
{
	if (d->bit_size != 32)
		return false;
	struct alu_instr *a = alu_of(d);
	if (a)
		return a->op == OP_f2f32 && a->src[0].src.ssa->bit_size == 16;
	struct load_const_instr *c = ssa_def_as_const(d);
	if (!c)
		return false;
	for (unsigned k = 0; k < d->num_components; k++) {
		double v = ir_float_from_bits(c->value[k], 32);
		if (ir_float_from_bits(ir_float_to_bits(v, 16), 16) != v)
			return false;
	}
	return true;
}

static struct ssa_def *narrowed(struct builder *b, struct ssa_def *d)
{
	struct alu_instr *a = alu_of(d);
	if (a) {
		unsigned swz[16];
		for (unsigned k = 0; k < d->num_components; k++)
			swz[k] = a->src[0].swizzle[k];
		return b_swizzle(b, a->src[0].src.ssa, swz, d->num_components);
	}
	struct load_const_instr *c = ssa_def_as_const(d);
	uint64_t v[16];
	for (unsigned k = 0; k < d->num_components; k++)
		v[k] = ir_float_to_bits(ir_float_from_bits(c->value[k], 32), 16);
	return b_const(b, d->num_components, 16, v);
}

static bool narrow_srcs(struct shader *s, struct tex_instr *tex, unsigned src_types)
{
	unsigned n = 0;
	for (unsigned k = 0; k < tex->num_srcs; k++) {
		enum tex_src_type t = tex->src[k].type;
		if (!(src_types & (1u << t)))
			continue;
		if (!float_src(tex, t) || !narrowable(tex->src[k].src.ssa))
			return false;
		n++;
	}
	if (!n)
		return false;
	struct builder b;
	builder_init(&b, s, cursor_before_instr(&tex->instr));
	for (unsigned k = 0; k < tex->num_srcs; k++)
		if (src_types & (1u << tex->src[k].type))
			src_rewrite(&tex->src[k].src, narrowed(&b, tex->src[k].src.ssa));
	return true;
}

bool opt_16bit_tex(struct shader *s, unsigned src_types)
{
	bool progress = false;
	foreach_block(blk, s->fn)
		foreach_instr(i, blk) {
			if (i->type != INSTR_tex)
				continue;
			struct tex_instr *tex = instr_as_tex(i);
			if (!fetches(tex))
				continue;
			if (tex->dest_type == BASE_float && tex->def.bit_size == 32 &&
			    only_narrowed(&tex->def)) {
				tex->def.bit_size = 16;
				foreach_use(u, &tex->def)
					instr_as_alu(u->parent_instr)->op = OP_mov;
				progress = true;
			}
			progress |= narrow_srcs(s, tex, src_types);
		}
	return shader_progress(s, progress, META_BLOCK_INDEX | META_DOMINANCE);
}
