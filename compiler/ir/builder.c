/*
 * The builder (builder.h): instructions at a cursor, with the sizes the
 * validator expects.
 */
#include "compiler/ir/builder.h"

#include <string.h>

void builder_init(struct builder *b, struct shader *s, struct cursor c)
{
	memset(b, 0, sizeof(*b));
	b->shader = s;
	b->cursor = c;
}

void builder_init_at_end(struct builder *b, struct shader *s)
{
	builder_init(b, s, cursor_after_block(cf_list_last_block(&s->fn->body)));
}

void b_insert(struct builder *b, struct instr *instr)
{
	instr_insert(b->cursor, instr);
	b->cursor = cursor_after_instr(instr);
}

/* ---- ALU ---- */

static unsigned alu_dest_bits(const struct alu_op_info *info, struct ssa_def *const *srcs)
{
	unsigned bits = alu_type_bits(info->output_type);
	if (bits)
		return bits;
	for (unsigned i = 0; i < info->num_inputs; i++)
		if (!alu_type_bits(info->input_types[i]))
			return srcs[i]->bit_size;
	BUG("%s: no unsized source to size the result", info->name);
}

struct ssa_def *b_alu_n(struct builder *b, enum alu_op op, struct ssa_def *const *srcs)
{
	const struct alu_op_info *info = &alu_op_infos[op];
	struct alu_instr *alu = alu_instr_create(b->shader, op);
	unsigned comps = info->output_size;

	for (unsigned i = 0; i < info->num_inputs; i++)
		if (!srcs[i])
			BUG("%s: source %u missing", info->name, i);
	if (!comps)
		for (unsigned i = 0; i < info->num_inputs; i++)
			if (srcs[i]->num_components > comps)
				comps = srcs[i]->num_components;
	for (unsigned i = 0; i < info->num_inputs; i++) {
		src_init(&alu->src[i].src, &alu->instr, srcs[i]);
		bool broadcast = !info->input_sizes[i] && srcs[i]->num_components == 1;
		for (unsigned c = 0; c < 16; c++)
			alu->src[i].swizzle[c] = broadcast ? 0 : (uint8_t)c;
	}
	alu->exact = b->exact;
	alu->mediump = b->mediump;
	ssa_def_init(&alu->instr, &alu->def, comps, alu_dest_bits(info, srcs));
	b_insert(b, &alu->instr);
	return &alu->def;
}

struct ssa_def *b_alu(struct builder *b, enum alu_op op, struct ssa_def *s0, struct ssa_def *s1,
		      struct ssa_def *s2, struct ssa_def *s3)
{
	struct ssa_def *srcs[4] = { s0, s1, s2, s3 };
	if (alu_op_infos[op].num_inputs > 4)
		BUG("b_alu: %s takes %u sources; use b_alu_n", alu_op_infos[op].name,
		    alu_op_infos[op].num_inputs);
	return b_alu_n(b, op, srcs);
}

struct ssa_def *b_vec(struct builder *b, struct ssa_def *const *srcs, unsigned n)
{
	switch (n) {
	case 1: return srcs[0];
	case 2: return b_alu_n(b, OP_vec2, srcs);
	case 3: return b_alu_n(b, OP_vec3, srcs);
	case 4: return b_alu_n(b, OP_vec4, srcs);
	case 8: return b_alu_n(b, OP_vec8, srcs);
	case 16: return b_alu_n(b, OP_vec16, srcs);
	}
	BUG("b_vec of %u components", n);
}

struct ssa_def *b_vec2(struct builder *b, struct ssa_def *x, struct ssa_def *y)
{
	return b_alu(b, OP_vec2, x, y, NULL, NULL);
}

struct ssa_def *b_vec3(struct builder *b, struct ssa_def *x, struct ssa_def *y, struct ssa_def *z)
{
	return b_alu(b, OP_vec3, x, y, z, NULL);
}

struct ssa_def *b_vec4(struct builder *b, struct ssa_def *x, struct ssa_def *y, struct ssa_def *z,
		       struct ssa_def *w)
{
	return b_alu(b, OP_vec4, x, y, z, w);
}

struct ssa_def *b_swizzle(struct builder *b, struct ssa_def *def, const unsigned *swizzle,
			  unsigned n)
{
	struct alu_instr *mov = alu_instr_create(b->shader, OP_mov);
	src_init(&mov->src[0].src, &mov->instr, def);
	for (unsigned c = 0; c < n; c++)
		mov->src[0].swizzle[c] = (uint8_t)swizzle[c];
	mov->exact = b->exact;
	mov->mediump = b->mediump;
	ssa_def_init(&mov->instr, &mov->def, n, def->bit_size);
	b_insert(b, &mov->instr);
	return &mov->def;
}

struct ssa_def *b_channel(struct builder *b, struct ssa_def *def, unsigned c)
{
	return b_swizzle(b, def, &c, 1);
}

/* ---- constants ---- */

struct ssa_def *b_const(struct builder *b, unsigned num_components, unsigned bit_size,
			const uint64_t *values)
{
	struct load_const_instr *lc = load_const_instr_create(b->shader, num_components, bit_size);
	for (unsigned c = 0; c < num_components; c++)
		lc->value[c] = bit_size >= 64 ? values[c] : values[c] & (((uint64_t)1 << bit_size) - 1);
	b_insert(b, &lc->instr);
	return &lc->def;
}

struct ssa_def *b_imm_intN(struct builder *b, int64_t v, unsigned bit_size)
{
	uint64_t u = (uint64_t)v;
	return b_const(b, 1, bit_size, &u);
}

struct ssa_def *b_imm_floatN(struct builder *b, double v, unsigned bit_size)
{
	uint64_t u = ir_float_to_bits(v, bit_size);
	return b_const(b, 1, bit_size, &u);
}

struct ssa_def *b_imm_bool(struct builder *b, bool v)
{
	uint64_t u = v;
	return b_const(b, 1, 1, &u);
}

struct ssa_def *b_imm_vec4(struct builder *b, double x, double y, double z, double w)
{
	uint64_t u[4] = { ir_float_to_bits(x, 32), ir_float_to_bits(y, 32),
			  ir_float_to_bits(z, 32), ir_float_to_bits(w, 32) };
	return b_const(b, 4, 32, u);
}

struct ssa_def *b_undef(struct builder *b, unsigned num_components, unsigned bit_size)
{
	struct undef_instr *u = undef_instr_create(b->shader, num_components, bit_size);
	b_insert(b, &u->instr);
	return &u->def;
}

/* ---- intrinsics ---- */

/* The only bit size a mask allows, or 32. */
static unsigned default_bits(unsigned mask)
{
	static const unsigned sizes[] = { 1, 8, 16, 32, 64 };
	unsigned found = 0, n = 0;
	for (unsigned i = 0; i < 5; i++)
		if (mask & ir_bits_mask(sizes[i]))
			found = sizes[i], n++;
	return n == 1 ? found : 32;
}

static int32_t index_value(const struct intr_indices *idx, enum intr_index i)
{
	switch (i) {
#define X(n, kind) case INTR_IDX_##n: return idx->n;
	INTR_INDICES(X)
#undef X
	default: return 0;
	}
}

struct intrinsic_instr *b_intrinsic(struct builder *b, enum intrinsic op,
				    unsigned num_components, unsigned bit_size,
				    struct ssa_def *const *srcs, const struct intr_indices *idx)
{
	const struct intrinsic_info *info = &intrinsic_infos[op];
	struct intrinsic_instr *intr = intrinsic_instr_create(b->shader, op);
	if (intrinsic_has_variable_size(op))
		intr->num_components = (uint8_t)num_components;
	for (unsigned i = 0; i < info->num_srcs; i++)
		src_init(&intr->src[i], &intr->instr, srcs[i]);
	for (unsigned k = 0; k < INTR_MAX_INDICES && info->indices[k]; k++) {
		enum intr_index i = (enum intr_index)info->indices[k];
		intr->const_index[k] = idx ? index_value(idx, i) : 0;
		if (i == INTR_IDX_write_mask && !intr->const_index[k])
			intr->const_index[k] = (int32_t)((1u << num_components) - 1);
	}
	if (intrinsic_has_dest(op)) {
		unsigned comps = info->dest_components ? (unsigned)info->dest_components
				 : num_components;
		ssa_def_init(&intr->instr, &intr->def, comps,
			     bit_size ? bit_size : default_bits(info->dest_bit_sizes));
	}
	b_insert(b, &intr->instr);
	return intr;
}

struct ssa_def *b_intrinsic_def_(struct builder *b, enum intrinsic op, unsigned num_components,
				 unsigned bit_size, struct ssa_def *const *srcs,
				 const struct intr_indices *idx)
{
	struct intrinsic_instr *intr = b_intrinsic(b, op, num_components, bit_size, srcs, idx);
	return intrinsic_has_dest(op) ? &intr->def : NULL;
}

struct ssa_def *b_sysval(struct builder *b, enum intrinsic op)
{
	return b_intrinsic_def_(b, op, 0, 0, NULL, NULL);
}

struct ssa_def *b_load_input(struct builder *b, unsigned comps, unsigned bits, unsigned base,
			     unsigned component, struct ssa_def *offset)
{
	return b_intr(b, load_input, comps, bits, (offset), .base = (int32_t)base,
		      .component = (int32_t)component);
}

void b_store_output(struct builder *b, struct ssa_def *value, unsigned base, unsigned component,
		    unsigned write_mask, struct ssa_def *offset)
{
	b_intr(b, store_output, value->num_components, 0, (value, offset), .base = (int32_t)base,
	       .component = (int32_t)component, .write_mask = (int32_t)write_mask);
}

struct ssa_def *b_load_local(struct builder *b, unsigned local, unsigned base,
			     struct ssa_def *offset)
{
	struct local_decl *d = b->shader->locals[local];
	return b_intr(b, load_local, d->num_components, d->bit_size, (offset),
		      .local = (int32_t)local, .base = (int32_t)base);
}

void b_store_local(struct builder *b, struct ssa_def *value, unsigned local, unsigned base,
		   unsigned write_mask, struct ssa_def *offset)
{
	b_intr(b, store_local, value->num_components, 0, (value, offset), .local = (int32_t)local,
	       .base = (int32_t)base, .write_mask = (int32_t)write_mask);
}

struct ssa_def *b_load_ubo(struct builder *b, unsigned comps, unsigned bits, struct ssa_def *slot,
			   struct ssa_def *offset)
{
	return b_intr(b, load_ubo, comps, bits, (slot, offset), .align_mul = (int32_t)(bits / 8),
		      .align_offset = 0);
}

void b_discard(struct builder *b)
{
	b_intrinsic(b, INTR_discard, 0, 0, NULL, NULL);
}

void b_discard_if(struct builder *b, struct ssa_def *cond)
{
	b_intrinsic(b, INTR_discard_if, 0, 0, &cond, NULL);
}

/* ---- textures ---- */

unsigned tex_dest_components(const struct tex_instr *tex)
{
	unsigned n;
	switch (tex->op) {
	case TEX_OP_txs:
		n = (tex->dim == DIM_cube ? 2 : image_dim_coords(tex->dim)) + tex->is_array;
		break;
	case TEX_OP_query_levels:
	case TEX_OP_texture_samples:
		n = 1;
		break;
	case TEX_OP_lod:
		n = 2;
		break;
	case TEX_OP_tg4:
		n = 4;
		break;
	default:
		n = tex->is_shadow ? 1 : 4;
		break;
	}
	return n + tex->is_sparse;
}

struct ssa_def *b_tex(struct builder *b, const struct tex_desc *d,
		      const struct tex_src_desc *srcs, unsigned num_srcs)
{
	struct tex_instr *tex = tex_instr_create(b->shader, num_srcs);
	tex->op = d->op;
	tex->dim = d->dim;
	tex->is_array = d->is_array;
	tex->is_shadow = d->is_shadow;
	tex->is_sparse = d->is_sparse;
	tex->dest_type = d->dest_type ? d->dest_type : BASE_float;
	tex->texture_index = d->texture;
	tex->sampler_index = d->sampler;
	tex->component = d->component;
	for (unsigned i = 0; i < num_srcs; i++)
		tex_src_set(tex, i, srcs[i].type, srcs[i].def);
	ssa_def_init(&tex->instr, &tex->def, tex_dest_components(tex),
		     d->bit_size ? d->bit_size : 32);
	b_insert(b, &tex->instr);
	return &tex->def;
}

/* ---- phis and control flow ---- */

/* Whether a cursor in `block` points among its phis (before any other instruction). */
static bool cursor_among_phis(struct cursor c, struct block *block)
{
	if (cursor_block(c) != block)
		return false;
	switch (c.option) {
	case CURSOR_BEFORE_BLOCK:
		return true;
	case CURSOR_AFTER_BLOCK: {
		struct instr *last = block_last_instr(block);
		return !last || last->type == INSTR_phi;
	}
	case CURSOR_BEFORE_INSTR: {
		struct instr *prev = instr_prev(c.instr);
		return !prev || prev->type == INSTR_phi;
	}
	case CURSOR_AFTER_INSTR:
		return c.instr->type == INSTR_phi;
	}
	return false;
}

struct phi_instr *b_phi(struct builder *b, struct block *block, unsigned num_components,
			unsigned bit_size)
{
	struct phi_instr *phi = phi_instr_create(b->shader);
	bool move = cursor_among_phis(b->cursor, block);
	ssa_def_init(&phi->instr, &phi->def, num_components, bit_size);
	instr_insert(cursor_after_phis(block), &phi->instr);
	if (move)
		b->cursor = cursor_after_instr(&phi->instr);
	return phi;
}

struct ssa_def *b_if_phi(struct builder *b, struct cf_if *nif, struct ssa_def *then_def,
			 struct ssa_def *else_def)
{
	struct block *after = cf_as_block(cf_node_next(&nif->cf));
	struct phi_instr *phi = b_phi(b, after, then_def->num_components, then_def->bit_size);
	phi_add_src(phi, cf_list_last_block(&nif->then_list), then_def);
	phi_add_src(phi, cf_list_last_block(&nif->else_list), else_def);
	return &phi->def;
}

struct cf_if *b_push_if(struct builder *b, struct ssa_def *cond)
{
	struct cf_if *nif = cf_insert_if(b->cursor, cond);
	b->cursor = cursor_after_block(cf_list_last_block(&nif->then_list));
	return nif;
}

void b_push_else(struct builder *b, struct cf_if *nif)
{
	b->cursor = cursor_after_block(cf_list_last_block(&nif->else_list));
}

void b_pop_if(struct builder *b, struct cf_if *nif)
{
	b->cursor = cursor_after_phis(cf_as_block(cf_node_next(&nif->cf)));
}

struct cf_loop *b_push_loop(struct builder *b)
{
	struct cf_loop *loop = cf_insert_loop(b->cursor);
	b->cursor = cursor_after_block(cf_loop_header(loop));
	return loop;
}

void b_pop_loop(struct builder *b, struct cf_loop *loop)
{
	b->cursor = cursor_after_phis(cf_as_block(cf_node_next(&loop->cf)));
}

void b_jump(struct builder *b, enum jump_type type)
{
	b_insert(b, &jump_instr_create(b->shader, type)->instr);
}

bool b_lower_alus(struct shader *s, b_alu_lower_fn fn, const void *data)
{
	bool progress = false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_alu)
				continue;
			struct alu_instr *alu = instr_as_alu(in);
			builder_init(&b, s, cursor_before_instr(in));
			b.exact = alu->exact;
			b.mediump = alu->mediump;
			struct ssa_def *r = fn(&b, alu, data);
			if (!r)
				continue;
			ssa_def_rewrite_uses(&alu->def, r);
			instr_remove(in);
			progress = true;
		}
	return progress;
}

bool b_lower_intrinsics(struct shader *s, b_intrinsic_lower_fn fn, void *data)
{
	bool progress = false;
	struct builder b;
	foreach_block(blk, s->fn)
		foreach_instr_safe(in, blk) {
			if (in->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(in);
			builder_init(&b, s, cursor_before_instr(in));
			struct ssa_def *r = fn(&b, intr, data);
			if (!r)
				continue;
			ssa_def_rewrite_uses(&intr->def, r);
			instr_remove(in);
			progress = true;
		}
	return progress;
}
