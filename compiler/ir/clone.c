/*
 * shader_clone(): a deep copy in a new arena, so one front-end result can
 * be optimised and lowered once per target.  The copy keeps every value's
 * index, so print(clone(s)) == print(s); metadata is not copied.
 *
 * Two passes: first every CF node and instruction is created (values get
 * their old index), then every source is pointed at the copy of what it
 * read — values defined later (phis on back edges) need no special case.
 */
#include <string.h>

#include "compiler/ir/ir.h"
#include "compiler/util/array.h"
#include "compiler/util/hash.h"

struct instr_pair {
	struct instr *old, *copy;
};

struct if_pair {
	struct cf_if *old, *copy;
};

struct clone_ctx {
	struct shader *src, *dst;
	struct ssa_def **defs;		/* old index → copy */
	struct u64map blocks;		/* old block → copy */
	ARRAY(struct instr_pair) instrs;
	ARRAY(struct if_pair) ifs;
};

static const char *dup_name(struct clone_ctx *c, const char *s)
{
	return s ? arena_strdup(&c->dst->arena, s) : NULL;
}

#define CLONE_DECLS(c, field, T, add) \
	for (unsigned i_ = 0; i_ < (c)->src->num_##field; i_++) { \
		T *d_ = add((c)->dst); \
		*d_ = *(c)->src->field[i_]; \
		d_->name = dup_name((c), d_->name); \
	}

static void clone_decls(struct clone_ctx *c)
{
	c->dst->info = c->src->info;
	CLONE_DECLS(c, inputs, struct io_decl, shader_add_input);
	CLONE_DECLS(c, outputs, struct io_decl, shader_add_output);
	CLONE_DECLS(c, ubos, struct buffer_decl, shader_add_ubo);
	CLONE_DECLS(c, ssbos, struct buffer_decl, shader_add_ssbo);
	CLONE_DECLS(c, textures, struct resource_decl, shader_add_texture);
	CLONE_DECLS(c, samplers, struct resource_decl, shader_add_sampler);
	CLONE_DECLS(c, images, struct resource_decl, shader_add_image);
	CLONE_DECLS(c, locals, struct local_decl, shader_add_local);
}

struct instr *instr_clone_shell(struct shader *s, const struct instr *i)
{
	struct instr *copy = NULL;
	switch (i->type) {
	case INSTR_alu: {
		const struct alu_instr *a = instr_as_alu((struct instr *)i);
		struct alu_instr *n = alu_instr_create(s, a->op);
		n->exact = a->exact;
		n->mediump = a->mediump;
		n->no_signed_wrap = a->no_signed_wrap;
		n->no_unsigned_wrap = a->no_unsigned_wrap;
		for (unsigned k = 0; k < alu_op_infos[a->op].num_inputs; k++)
			memcpy(n->src[k].swizzle, a->src[k].swizzle, sizeof(n->src[k].swizzle));
		ssa_def_init(&n->instr, &n->def, a->def.num_components, a->def.bit_size);
		copy = &n->instr;
		break;
	}
	case INSTR_load_const: {
		const struct load_const_instr *l = instr_as_load_const((struct instr *)i);
		struct load_const_instr *n = load_const_instr_create(s, l->def.num_components,
								      l->def.bit_size);
		memcpy(n->value, l->value, l->def.num_components * sizeof(*n->value));
		copy = &n->instr;
		break;
	}
	case INSTR_undef: {
		const struct undef_instr *u = instr_as_undef((struct instr *)i);
		copy = &undef_instr_create(s, u->def.num_components, u->def.bit_size)->instr;
		break;
	}
	case INSTR_intrinsic: {
		const struct intrinsic_instr *t = instr_as_intrinsic((struct instr *)i);
		struct intrinsic_instr *n = intrinsic_instr_create(s, t->op);
		n->num_components = t->num_components;
		memcpy(n->const_index, t->const_index, sizeof(n->const_index));
		if (intrinsic_has_dest(t->op))
			ssa_def_init(&n->instr, &n->def, t->def.num_components, t->def.bit_size);
		copy = &n->instr;
		break;
	}
	case INSTR_tex: {
		const struct tex_instr *t = instr_as_tex((struct instr *)i);
		struct tex_instr *n = tex_instr_create(s, t->num_srcs);
		n->op = t->op;
		n->dim = t->dim;
		n->is_array = t->is_array;
		n->is_shadow = t->is_shadow;
		n->is_sparse = t->is_sparse;
		n->dest_type = t->dest_type;
		n->component = t->component;
		n->texture_index = t->texture_index;
		n->sampler_index = t->sampler_index;
		for (unsigned k = 0; k < t->num_srcs; k++)
			n->src[k].type = t->src[k].type;
		ssa_def_init(&n->instr, &n->def, t->def.num_components, t->def.bit_size);
		copy = &n->instr;
		break;
	}
	case INSTR_phi: {
		const struct phi_instr *p = instr_as_phi((struct instr *)i);
		struct phi_instr *n = phi_instr_create(s);
		ssa_def_init(&n->instr, &n->def, p->def.num_components, p->def.bit_size);
		copy = &n->instr;
		break;
	}
	case INSTR_jump:
		copy = &jump_instr_create(s, instr_as_jump((struct instr *)i)->type)->instr;
		break;
	}
	copy->line = i->line;
	return copy;
}

struct src_walk {
	struct src **srcs;
	size_t n;
};

static bool gather_cb(struct src *src, void *data)
{
	struct src_walk *w = data;
	w->srcs[w->n++] = src;
	return true;
}

void instr_clone_srcs(struct instr *old, struct instr *copy, instr_clone_map_fn map, void *data)
{
	struct src *a[ALU_MAX_INPUTS + 32], *b[ALU_MAX_INPUTS + 32];
	struct src_walk wa = { a, 0 }, wb = { b, 0 };
	if (old->type == INSTR_phi)
		BUG("instr_clone_srcs of a phi");
	if (old->type == INSTR_tex && instr_as_tex(old)->num_srcs > ALU_MAX_INPUTS + 32)
		BUG("tex with %u sources", instr_as_tex(old)->num_srcs);
	instr_foreach_src(old, gather_cb, &wa);
	instr_foreach_src(copy, gather_cb, &wb);
	for (size_t k = 0; k < wa.n && k < wb.n; k++)
		src_rewrite(b[k], map(a[k]->ssa, data));
}

/* The copy of an instruction, its value keeping the original's index. */
static struct instr *clone_instr(struct clone_ctx *c, struct instr *i)
{
	struct instr *copy = instr_clone_shell(c->dst, i);
	struct ssa_def *from = instr_def(i), *to = instr_def(copy);
	if (from && to) {
		to->index = from->index;
		if (from->index < c->src->fn->ssa_alloc)
			c->defs[from->index] = to;
	}
	return copy;
}

static void clone_list(struct clone_ctx *c, struct list *from, struct list *to,
		       struct cf_node *parent);

static void clone_node(struct clone_ctx *c, struct cf_node *n, struct list *to,
		       struct cf_node *parent)
{
	struct function *fn = c->dst->fn;
	switch (n->type) {
	case CF_BLOCK: {
		struct block *old = cf_as_block(n), *b = cf_append_block(fn, to, parent);
		u64map_set(&c->blocks, (uint64_t)(uintptr_t)old, (uint64_t)(uintptr_t)b);
		foreach_instr(i, old) {
			struct instr *copy = clone_instr(c, i);
			block_append_instr(b, copy);
			array_push(&c->instrs, ((struct instr_pair){ i, copy }));
		}
		break;
	}
	case CF_IF: {
		struct cf_if *old = cf_as_if(n), *nif = cf_append_if(fn, to, parent);
		nif->hint = old->hint;
		array_push(&c->ifs, ((struct if_pair){ old, nif }));
		clone_list(c, &old->then_list, &nif->then_list, &nif->cf);
		clone_list(c, &old->else_list, &nif->else_list, &nif->cf);
		break;
	}
	case CF_LOOP: {
		struct cf_loop *old = cf_as_loop(n), *loop = cf_append_loop(fn, to, parent);
		loop->hint = old->hint;
		clone_list(c, &old->body, &loop->body, &loop->cf);
		break;
	}
	default:
		break;
	}
}

static void clone_list(struct clone_ctx *c, struct list *from, struct list *to,
		       struct cf_node *parent)
{
	foreach_cf_node(n, from)
		clone_node(c, n, to, parent);
}

static struct ssa_def *map_def(struct clone_ctx *c, const struct ssa_def *d)
{
	return d && d->index < c->src->fn->ssa_alloc ? c->defs[d->index] : NULL;
}

static struct block *map_block(struct clone_ctx *c, struct block *b)
{
	uint64_t v = 0;
	if (b == c->src->fn->end_block)
		return c->dst->fn->end_block;
	return b && u64map_get(&c->blocks, (uint64_t)(uintptr_t)b, &v) ? (struct block *)(uintptr_t)v
	       : NULL;
}

static struct ssa_def *map_def_cb(struct ssa_def *d, void *data)
{
	return map_def(data, d);
}

static void clone_srcs(struct clone_ctx *c, struct instr *old, struct instr *copy)
{
	if (old->type == INSTR_phi) {
		foreach_phi_src(ps, instr_as_phi(old))
			phi_add_src(instr_as_phi(copy), map_block(c, ps->pred), map_def(c, ps->src.ssa));
		return;
	}
	instr_clone_srcs(old, copy, map_def_cb, c);
}

struct shader *shader_clone(struct shader *src)
{
	struct clone_ctx c = { .src = src, .blocks = U64MAP_INIT };
	c.dst = shader_create(src->stage, src->fn->name);
	c.defs = xcalloc(src->fn->ssa_alloc + 1, sizeof(*c.defs));
	clone_decls(&c);
	list_init(&c.dst->fn->body);	/* drop the empty block shader_create made */
	clone_list(&c, &src->fn->body, &c.dst->fn->body, &c.dst->fn->cf);
	c.dst->fn->ssa_alloc = src->fn->ssa_alloc;
	for (size_t i = 0; i < c.instrs.len; i++)
		clone_srcs(&c, c.instrs.data[i].old, c.instrs.data[i].copy);
	for (size_t i = 0; i < c.ifs.len; i++)
		if_set_condition(c.ifs.data[i].copy, map_def(&c, c.ifs.data[i].old->condition.ssa));
	free(c.defs);
	u64map_release(&c.blocks);
	array_free(&c.instrs);
	array_free(&c.ifs);
	return c.dst;
}
