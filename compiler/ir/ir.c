/*
 * The IR's core: shaders and declarations, instructions and their sources,
 * use lists, insertion and removal, control-flow nodes and the derived CFG.
 * The invariants are those of ir.h; the validator (validate.c) checks them.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

#define NAME(n) #n,
const char *const base_type_names[BASE_COUNT] = { IR_BASE_TYPES(NAME) };
const char *const builtin_names[BUILTIN_COUNT] = { IR_BUILTINS(NAME) };
const char *const interp_names[INTERP_COUNT] = { IR_INTERPS(NAME) };
const char *const dim_names[DIM_COUNT] = { IR_DIMS(NAME) };
const char *const format_names[FORMAT_COUNT] = { IR_FORMATS(NAME) };
const char *const primitive_names[PRIM_COUNT] = { IR_PRIMITIVES(NAME) };
const char *const spacing_names[SPACING_COUNT] = { IR_SPACINGS(NAME) };
const char *const depth_layout_names[DEPTH_COUNT] = { IR_DEPTH_LAYOUTS(NAME) };
const char *const scope_names[SCOPE_COUNT] = { IR_SCOPES(NAME) };
const char *const atomic_op_names[ATOMIC_COUNT] = { IR_ATOMIC_OPS(NAME) };

enum alu_op atomic_op_alu(enum atomic_op op)
{
	switch (op) {
	case ATOMIC_iadd: return OP_iadd;
	case ATOMIC_imin: return OP_imin;
	case ATOMIC_umin: return OP_umin;
	case ATOMIC_imax: return OP_imax;
	case ATOMIC_umax: return OP_umax;
	case ATOMIC_iand: return OP_iand;
	case ATOMIC_ior: return OP_ior;
	case ATOMIC_ixor: return OP_ixor;
	case ATOMIC_fadd: return OP_fadd;
	case ATOMIC_fmin: return OP_fmin;
	case ATOMIC_fmax: return OP_fmax;
	default: return OP_mov;
	}
}
const char *const semantics_names[SEMANTICS_BIT_COUNT] = { IR_SEMANTICS(NAME) };
const char *const mode_names[MODE_BIT_COUNT] = { IR_MODES(NAME) };
const char *const access_names[ACCESS_BIT_COUNT] = { IR_ACCESS(NAME) };
const char *const float_control_names[FLOAT_CONTROL_BIT_COUNT] = { IR_FLOAT_CONTROLS(NAME) };
const char *const tex_op_names[TEX_OP_COUNT] = { IR_TEX_OPS(NAME) };
const char *const tex_src_names[TEX_SRC_COUNT] = { IR_TEX_SRCS(NAME) };
const char *const if_hint_names[IF_HINT_COUNT] = { IR_IF_HINTS(NAME) };
const char *const loop_hint_names[LOOP_HINT_COUNT] = { IR_LOOP_HINTS(NAME) };
static const char *const instr_type_names[] = { IR_INSTR_TYPES(NAME) };
#undef NAME

const char *instr_type_name(enum instr_type t)
{
	return (unsigned)t < sizeof(instr_type_names) / sizeof(*instr_type_names)
	       ? instr_type_names[t] : "?";
}

int ir_name_lookup(const char *const *names, unsigned count, const char *s, size_t len)
{
	for (unsigned i = 0; i < count; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], s, len))
			return (int)i;
	return -1;
}

unsigned ir_bits_mask(unsigned bit_size)
{
	switch (bit_size) {
	case 1: return IR_BITS_1;
	case 8: return IR_BITS_8;
	case 16: return IR_BITS_16;
	case 32: return IR_BITS_32;
	case 64: return IR_BITS_64;
	}
	return 0;
}

bool ir_valid_bit_size(unsigned bit_size)
{
	return ir_bits_mask(bit_size) != 0;
}

bool ir_valid_num_components(unsigned n)
{
	return (n >= 1 && n <= 4) || n == 8 || n == 16;
}

unsigned image_dim_coords(enum image_dim dim)
{
	switch (dim) {
	case DIM_1d: case DIM_buffer: return 1;
	case DIM_2d: case DIM_rect: case DIM_subpass: return 2;
	case DIM_3d: case DIM_cube: return 3;
	default: return 0;
	}
}

/* ---- shaders and declarations ---- */

static struct block *block_new(struct function *fn)
{
	struct block *b = arena_new(&fn->shader->arena, struct block);
	b->cf.type = CF_BLOCK;
	b->fn = fn;
	list_init(&b->instrs);
	return b;
}

struct shader *shader_create(enum shader_stage stage, const char *name)
{
	struct shader *s = xcalloc(1, sizeof(*s));
	arena_init(&s->arena);
	s->stage = stage;
	struct function *fn = arena_new(&s->arena, struct function);
	fn->cf.type = CF_FUNCTION;
	fn->shader = s;
	fn->name = arena_strdup(&s->arena, name ? name : "main");
	list_init(&fn->body);
	fn->end_block = block_new(fn);
	fn->end_block->cf.parent = &fn->cf;
	function_cfg_stale(fn);
	s->fn = fn;
	cf_append_block(fn, &fn->body, &fn->cf);
	return s;
}

void shader_free(struct shader *s)
{
	if (!s)
		return;
	free(s->fn->dom_storage);
	free(s->fn->live_storage);
	arena_release(&s->arena);
	free(s);
}

static void *decl_push(struct shader *s, void ***arr, unsigned *num, unsigned *cap, size_t size)
{
	if (*num == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 4;
		*arr = arena_realloc(&s->arena, *arr, *cap * sizeof(void *), ncap * sizeof(void *));
		*cap = ncap;
	}
	void *d = arena_zalloc(&s->arena, size);
	(*arr)[(*num)++] = d;
	return d;
}

#define DECL_PUSH(s, name, T) \
	((T *)decl_push((s), (void ***)&(s)->name, &(s)->num_##name, &(s)->cap_##name, sizeof(T)))

struct io_decl *shader_add_input(struct shader *s)
{
	return DECL_PUSH(s, inputs, struct io_decl);
}

struct io_decl *shader_add_output(struct shader *s)
{
	return DECL_PUSH(s, outputs, struct io_decl);
}

static unsigned next_buffer_slot(struct buffer_decl **d, unsigned n)
{
	return n ? d[n - 1]->slot + decl_num_slots(d[n - 1]->array_size) : 0;
}

static unsigned next_resource_slot(struct resource_decl **d, unsigned n)
{
	return n ? d[n - 1]->slot + decl_num_slots(d[n - 1]->array_size) : 0;
}

struct buffer_decl *shader_add_ubo(struct shader *s)
{
	unsigned slot = next_buffer_slot(s->ubos, s->num_ubos);
	struct buffer_decl *d = DECL_PUSH(s, ubos, struct buffer_decl);
	d->slot = slot;
	return d;
}

struct buffer_decl *shader_add_ssbo(struct shader *s)
{
	unsigned slot = next_buffer_slot(s->ssbos, s->num_ssbos);
	struct buffer_decl *d = DECL_PUSH(s, ssbos, struct buffer_decl);
	d->slot = slot;
	return d;
}

#define RESOURCE_ADD(fname, field) \
	struct resource_decl *fname(struct shader *s) \
	{ \
		unsigned slot = next_resource_slot(s->field, s->num_##field); \
		struct resource_decl *d = DECL_PUSH(s, field, struct resource_decl); \
		d->slot = slot; \
		return d; \
	}
RESOURCE_ADD(shader_add_texture, textures)
RESOURCE_ADD(shader_add_sampler, samplers)
RESOURCE_ADD(shader_add_image, images)

struct local_decl *shader_add_local(struct shader *s)
{
	return DECL_PUSH(s, locals, struct local_decl);
}

struct buffer_decl *shader_find_buffer(struct buffer_decl **decls, unsigned n, unsigned slot)
{
	for (unsigned i = 0; i < n; i++)
		if (slot >= decls[i]->slot && slot - decls[i]->slot < decl_num_slots(decls[i]->array_size))
			return decls[i];
	return NULL;
}

struct resource_decl *shader_find_resource(struct resource_decl **decls, unsigned n,
					   unsigned slot)
{
	for (unsigned i = 0; i < n; i++)
		if (slot >= decls[i]->slot && slot - decls[i]->slot < decl_num_slots(decls[i]->array_size))
			return decls[i];
	return NULL;
}

/* ---- values and sources ---- */

void ssa_def_init(struct instr *instr, struct ssa_def *def, unsigned num_components,
		  unsigned bit_size)
{
	def->parent = instr;
	list_init(&def->uses);
	def->num_components = (uint8_t)num_components;
	def->bit_size = (uint8_t)bit_size;
	def->index = SSA_INDEX_NONE;	/* numbered when inserted */
}

struct ssa_def *instr_def(struct instr *instr)
{
	switch (instr->type) {
	case INSTR_alu: return &instr_as_alu(instr)->def;
	case INSTR_load_const: return &instr_as_load_const(instr)->def;
	case INSTR_undef: return &instr_as_undef(instr)->def;
	case INSTR_tex: return &instr_as_tex(instr)->def;
	case INSTR_phi: return &instr_as_phi(instr)->def;
	case INSTR_intrinsic: {
		struct intrinsic_instr *intr = instr_as_intrinsic(instr);
		return intrinsic_has_dest(intr->op) ? &intr->def : NULL;
	}
	case INSTR_jump: return NULL;
	}
	return NULL;
}

static bool src_is_linked(const struct src *src)
{
	return src->use_link.next != NULL;
}

static void src_link(struct src *src)
{
	if (src->ssa && !src_is_linked(src))
		list_add_tail(&src->ssa->uses, &src->use_link);
}

static void src_unlink(struct src *src)
{
	if (src_is_linked(src))
		list_del(&src->use_link);
}

/* Sources are linked into use lists while their instruction is in a block. */
void src_init(struct src *src, struct instr *instr, struct ssa_def *def)
{
	src_unlink(src);
	src->ssa = def;
	src->parent_instr = instr;
	src->parent_if = NULL;
	if (instr->block)
		src_link(src);
}

void src_rewrite(struct src *src, struct ssa_def *def)
{
	bool linked = src_is_linked(src);
	src_unlink(src);
	src->ssa = def;
	if (linked || (src->parent_instr && src->parent_instr->block) || src->parent_if)
		src_link(src);
}

void if_set_condition(struct cf_if *nif, struct ssa_def *def)
{
	src_unlink(&nif->condition);
	nif->condition.ssa = def;
	nif->condition.parent_instr = NULL;
	nif->condition.parent_if = nif;
	src_link(&nif->condition);
}

bool instr_foreach_src(struct instr *instr, src_cb cb, void *data)
{
	switch (instr->type) {
	case INSTR_alu: {
		struct alu_instr *alu = instr_as_alu(instr);
		for (unsigned i = 0; i < alu_op_infos[alu->op].num_inputs; i++)
			if (!cb(&alu->src[i].src, data))
				return false;
		return true;
	}
	case INSTR_intrinsic: {
		struct intrinsic_instr *intr = instr_as_intrinsic(instr);
		for (unsigned i = 0; i < intrinsic_infos[intr->op].num_srcs; i++)
			if (!cb(&intr->src[i], data))
				return false;
		return true;
	}
	case INSTR_tex: {
		struct tex_instr *tex = instr_as_tex(instr);
		for (unsigned i = 0; i < tex->num_srcs; i++)
			if (!cb(&tex->src[i].src, data))
				return false;
		return true;
	}
	case INSTR_phi:
		foreach_phi_src(ps, instr_as_phi(instr))
			if (!cb(&ps->src, data))
				return false;
		return true;
	default:
		return true;
	}
}

static bool link_cb(struct src *src, void *data)
{
	(void)data;
	src_link(src);
	return true;
}

static bool unlink_cb(struct src *src, void *data)
{
	(void)data;
	src_unlink(src);
	return true;
}

/* ---- creating instructions ---- */

static void *instr_alloc(struct shader *s, size_t size, enum instr_type type)
{
	struct instr *i = arena_zalloc(&s->arena, size);
	i->type = type;
	i->shader = s;
	return i;
}

struct alu_instr *alu_instr_create(struct shader *s, enum alu_op op)
{
	unsigned n = alu_op_infos[op].num_inputs;
	struct alu_instr *alu = instr_alloc(s, sizeof(*alu) + n * sizeof(struct alu_src),
					    INSTR_alu);
	alu->op = op;
	for (unsigned i = 0; i < n; i++) {
		alu->src[i].src.parent_instr = &alu->instr;
		for (unsigned c = 0; c < 16; c++)
			alu->src[i].swizzle[c] = (uint8_t)c;
	}
	return alu;
}

struct load_const_instr *load_const_instr_create(struct shader *s, unsigned num_components,
						 unsigned bit_size)
{
	struct load_const_instr *lc = instr_alloc(s, sizeof(*lc) + num_components * sizeof(uint64_t),
						  INSTR_load_const);
	ssa_def_init(&lc->instr, &lc->def, num_components, bit_size);
	return lc;
}

struct undef_instr *undef_instr_create(struct shader *s, unsigned num_components,
				       unsigned bit_size)
{
	struct undef_instr *u = instr_alloc(s, sizeof(*u), INSTR_undef);
	ssa_def_init(&u->instr, &u->def, num_components, bit_size);
	return u;
}

struct intrinsic_instr *intrinsic_instr_create(struct shader *s, enum intrinsic op)
{
	unsigned n = intrinsic_infos[op].num_srcs;
	struct intrinsic_instr *intr = instr_alloc(s, sizeof(*intr) + n * sizeof(struct src),
						   INSTR_intrinsic);
	intr->op = op;
	for (unsigned i = 0; i < n; i++)
		intr->src[i].parent_instr = &intr->instr;
	return intr;
}

struct tex_instr *tex_instr_create(struct shader *s, unsigned num_srcs)
{
	struct tex_instr *tex = instr_alloc(s, sizeof(*tex), INSTR_tex);
	tex->num_srcs = num_srcs;
	tex->src = arena_array(&s->arena, struct tex_src, num_srcs ? num_srcs : 1);
	tex->dest_type = BASE_float;
	for (unsigned i = 0; i < num_srcs; i++)
		tex->src[i].src.parent_instr = &tex->instr;
	return tex;
}

struct phi_instr *phi_instr_create(struct shader *s)
{
	struct phi_instr *phi = instr_alloc(s, sizeof(*phi), INSTR_phi);
	list_init(&phi->srcs);
	return phi;
}

struct jump_instr *jump_instr_create(struct shader *s, enum jump_type type)
{
	struct jump_instr *j = instr_alloc(s, sizeof(*j), INSTR_jump);
	j->type = type;
	return j;
}

struct phi_src *phi_add_src(struct phi_instr *phi, struct block *pred, struct ssa_def *def)
{
	struct phi_src *ps = arena_new(&phi->instr.shader->arena, struct phi_src);
	ps->pred = pred;
	list_add_tail(&phi->srcs, &ps->link);
	src_init(&ps->src, &phi->instr, def);
	return ps;
}

void phi_remove_src(struct phi_instr *phi, struct phi_src *ps)
{
	(void)phi;
	src_unlink(&ps->src);
	list_del(&ps->link);
}

struct phi_src *phi_get_src(struct phi_instr *phi, struct block *pred)
{
	foreach_phi_src(ps, phi)
		if (ps->pred == pred)
			return ps;
	return NULL;
}

void tex_src_set(struct tex_instr *tex, unsigned i, enum tex_src_type type, struct ssa_def *def)
{
	if (i >= tex->num_srcs)
		BUG("tex source %u of %u", i, tex->num_srcs);
	tex->src[i].type = type;
	src_init(&tex->src[i].src, &tex->instr, def);
}

/* Move the source array (relinking every use, whose list nodes move too). */
static void tex_resize_srcs(struct tex_instr *tex, unsigned n)
{
	struct shader *s = tex->instr.shader;
	struct tex_src *src = arena_array(&s->arena, struct tex_src, n ? n : 1);
	unsigned keep = n < tex->num_srcs ? n : tex->num_srcs;
	for (unsigned i = 0; i < tex->num_srcs; i++)
		src_unlink(&tex->src[i].src);
	for (unsigned i = 0; i < keep; i++) {
		src[i] = tex->src[i];
		src[i].src.use_link.prev = src[i].src.use_link.next = NULL;
		if (tex->instr.block)
			src_link(&src[i].src);
	}
	for (unsigned i = keep; i < n; i++)
		src[i].src.parent_instr = &tex->instr;
	tex->src = src;
	tex->num_srcs = n;
}

void tex_instr_add_src(struct tex_instr *tex, enum tex_src_type type, struct ssa_def *def)
{
	tex_resize_srcs(tex, tex->num_srcs + 1);
	tex_src_set(tex, tex->num_srcs - 1, type, def);
}

void tex_instr_remove_src(struct tex_instr *tex, unsigned i)
{
	if (i >= tex->num_srcs)
		BUG("tex source %u of %u", i, tex->num_srcs);
	src_unlink(&tex->src[i].src);
	for (unsigned j = i; j + 1 < tex->num_srcs; j++) {
		src_unlink(&tex->src[j + 1].src);
		tex->src[j] = tex->src[j + 1];
		tex->src[j].src.use_link.prev = tex->src[j].src.use_link.next = NULL;
		if (tex->instr.block)
			src_link(&tex->src[j].src);
	}
	tex->num_srcs--;
}

int tex_instr_src_index(const struct tex_instr *tex, enum tex_src_type type)
{
	for (unsigned i = 0; i < tex->num_srcs; i++)
		if (tex->src[i].type == type)
			return (int)i;
	return -1;
}

int32_t intrinsic_get(const struct intrinsic_instr *intr, enum intr_index idx)
{
	int slot = intrinsic_index_slot(intr->op, idx);
	if (slot < 0)
		BUG("%s has no index %s", intrinsic_infos[intr->op].name, intr_index_infos[idx].name);
	return intr->const_index[slot];
}

void intrinsic_set(struct intrinsic_instr *intr, enum intr_index idx, int32_t value)
{
	int slot = intrinsic_index_slot(intr->op, idx);
	if (slot < 0)
		BUG("%s has no index %s", intrinsic_infos[intr->op].name, intr_index_infos[idx].name);
	intr->const_index[slot] = value;
}

bool intrinsic_has(enum intrinsic op, enum intr_index idx)
{
	return intrinsic_index_slot(op, idx) >= 0;
}

bool intrinsic_has_dest(enum intrinsic op)
{
	return intrinsic_infos[op].dest_components != INTR_NO_DEST;
}

unsigned intrinsic_src_components(const struct intrinsic_instr *intr, unsigned i)
{
	int n = intrinsic_infos[intr->op].src_components[i];
	if (n > 0)
		return (unsigned)n;
	if (n == 0)
		return intr->num_components;
	int32_t dim = intrinsic_get(intr, INTR_IDX_image_dim);
	int32_t array = intrinsic_get(intr, INTR_IDX_image_array);
	if (dim < 0 || dim >= DIM_COUNT)
		return 0;
	return image_dim_coords((enum image_dim)dim) + (array != 0);
}

unsigned alu_src_components(const struct alu_instr *alu, unsigned i)
{
	unsigned n = alu_op_infos[alu->op].input_sizes[i];
	return n ? n : alu->def.num_components;
}

/* ---- inserting and removing ---- */

struct block *cursor_block(struct cursor c)
{
	return c.option == CURSOR_BEFORE_BLOCK || c.option == CURSOR_AFTER_BLOCK ? c.block
	       : c.instr->block;
}

struct cursor cursor_after_phis(struct block *b)
{
	struct instr *last_phi = NULL;
	foreach_instr(i, b) {
		if (i->type != INSTR_phi)
			break;
		last_phi = i;
	}
	return last_phi ? cursor_after_instr(last_phi) : cursor_before_block(b);
}

struct cursor cursor_before_cf(struct cf_node *node)
{
	if (node->type == CF_BLOCK)
		return cursor_before_block(cf_as_block(node));
	return cursor_after_block(cf_as_block(cf_node_prev(node)));
}

struct cursor cursor_after_cf(struct cf_node *node)
{
	if (node->type == CF_BLOCK)
		return cursor_after_block(cf_as_block(node));
	return cursor_before_block(cf_as_block(cf_node_next(node)));
}

void instr_insert(struct cursor c, struct instr *instr)
{
	if (instr->block)
		BUG("inserting an instruction that is already in a block");
	struct block *b = cursor_block(c);
	switch (c.option) {
	case CURSOR_BEFORE_BLOCK: list_add_head(&b->instrs, &instr->link); break;
	case CURSOR_AFTER_BLOCK: list_add_tail(&b->instrs, &instr->link); break;
	case CURSOR_BEFORE_INSTR: list_insert_before(&c.instr->link, &instr->link); break;
	case CURSOR_AFTER_INSTR: list_insert_after(&c.instr->link, &instr->link); break;
	}
	instr->block = b;
	struct ssa_def *def = instr_def(instr);
	if (def && def->index == SSA_INDEX_NONE)
		def->index = b->fn->ssa_alloc++;
	instr_foreach_src(instr, link_cb, NULL);
	if (instr->type == INSTR_jump)
		function_cfg_stale(b->fn);
}

void block_append_instr(struct block *b, struct instr *instr)
{
	instr_insert(cursor_after_block(b), instr);
}

void instr_remove(struct instr *instr)
{
	struct block *b = instr->block;
	if (!b)
		BUG("removing an instruction that is not in a block");
	instr_foreach_src(instr, unlink_cb, NULL);
	list_del(&instr->link);
	instr->block = NULL;
	if (instr->type == INSTR_jump)
		function_cfg_stale(b->fn);
}

void instr_move(struct cursor c, struct instr *instr)
{
	/* keep the uses of its value; only its own sources relink */
	instr_remove(instr);
	instr_insert(c, instr);
}

static void use_move(struct src *use, struct ssa_def *new_def)
{
	list_del(&use->use_link);
	use->ssa = new_def;
	list_add_tail(&new_def->uses, &use->use_link);
}

void ssa_def_rewrite_uses(struct ssa_def *old, struct ssa_def *new_def)
{
	if (old == new_def)
		return;
	foreach_use_safe(use, old)
		use_move(use, new_def);
}

/* Whether `i` is `after` or before it in after's block. */
static bool at_or_before(struct instr *i, struct instr *after)
{
	if (!i || i->block != after->block)
		return false;
	for (struct instr *p = after; p; p = instr_prev(p))
		if (p == i)
			return true;
	return false;
}

void ssa_def_rewrite_uses_after(struct ssa_def *old, struct ssa_def *new_def,
				struct instr *after)
{
	if (old == new_def)
		return;
	foreach_use_safe(use, old)
		if (!at_or_before(use->parent_instr, after))
			use_move(use, new_def);
}

unsigned ssa_def_num_uses(const struct ssa_def *def)
{
	return (unsigned)list_length(&def->uses);
}

bool instr_is_local_access(struct instr *i, struct intrinsic_instr **out)
{
	if (i->type != INSTR_intrinsic)
		return false;
	struct intrinsic_instr *intr = instr_as_intrinsic(i);
	if (out)
		*out = intr;
	return intr->op == INTR_load_local || intr->op == INTR_store_local;
}

struct src *local_access_offset(struct intrinsic_instr *intr)
{
	return &intr->src[intr->op == INTR_load_local ? 0 : 1];
}

struct load_const_instr *ssa_def_as_const(const struct ssa_def *def)
{
	return def->parent->type == INSTR_load_const ? instr_as_load_const(def->parent) : NULL;
}

/* ---- control-flow nodes ---- */

static struct cf_if *if_new(struct function *fn)
{
	struct cf_if *nif = arena_new(&fn->shader->arena, struct cf_if);
	nif->cf.type = CF_IF;
	list_init(&nif->then_list);
	list_init(&nif->else_list);
	return nif;
}

static struct cf_loop *loop_new(struct function *fn)
{
	struct cf_loop *loop = arena_new(&fn->shader->arena, struct cf_loop);
	loop->cf.type = CF_LOOP;
	list_init(&loop->body);
	return loop;
}

static void list_append_node(struct list *list, struct cf_node *parent, struct cf_node *node)
{
	node->parent = parent;
	node->list = list;
	list_add_tail(list, &node->link);
}

struct block *cf_append_block(struct function *fn, struct list *list, struct cf_node *parent)
{
	struct block *b = block_new(fn);
	list_append_node(list, parent, &b->cf);
	function_cfg_stale(fn);
	return b;
}

struct cf_if *cf_append_if(struct function *fn, struct list *list, struct cf_node *parent)
{
	struct cf_if *nif = if_new(fn);
	list_append_node(list, parent, &nif->cf);
	function_cfg_stale(fn);
	return nif;
}

struct cf_loop *cf_append_loop(struct function *fn, struct list *list, struct cf_node *parent)
{
	struct cf_loop *loop = loop_new(fn);
	list_append_node(list, parent, &loop->cf);
	function_cfg_stale(fn);
	return loop;
}

/*
 * Split the block at `c`: a new block takes the instructions before the
 * cursor and goes before the original in the list.  Returns the new block.
 */
static struct block *split_block_at(struct cursor c)
{
	struct block *b = cursor_block(c);
	struct function *fn = b->fn;
	struct block *before = block_new(fn);
	struct instr *stop;	/* first instruction that stays */

	before->cf.parent = b->cf.parent;
	before->cf.list = b->cf.list;
	list_insert_before(&b->cf.link, &before->cf.link);
	switch (c.option) {
	case CURSOR_BEFORE_BLOCK: stop = block_first_instr(b); break;
	case CURSOR_AFTER_BLOCK: stop = NULL; break;
	case CURSOR_BEFORE_INSTR: stop = c.instr; break;
	default: stop = instr_next(c.instr); break;
	}
	while (block_first_instr(b) && block_first_instr(b) != stop) {
		struct instr *i = block_first_instr(b);
		list_del(&i->link);
		list_add_tail(&before->instrs, &i->link);
		i->block = before;
	}
	function_cfg_stale(fn);
	return before;
}

static void insert_node_before_block(struct block *b, struct cf_node *node)
{
	node->parent = b->cf.parent;
	node->list = b->cf.list;
	list_insert_before(&b->cf.link, &node->link);
	function_cfg_stale(b->fn);
}

struct cf_if *cf_insert_if(struct cursor c, struct ssa_def *condition)
{
	struct block *b = cursor_block(c);
	struct function *fn = b->fn;
	split_block_at(c);
	struct cf_if *nif = if_new(fn);
	insert_node_before_block(b, &nif->cf);
	cf_append_block(fn, &nif->then_list, &nif->cf);
	cf_append_block(fn, &nif->else_list, &nif->cf);
	if_set_condition(nif, condition);
	return nif;
}

struct cf_loop *cf_insert_loop(struct cursor c)
{
	struct block *b = cursor_block(c);
	struct function *fn = b->fn;
	split_block_at(c);
	struct cf_loop *loop = loop_new(fn);
	insert_node_before_block(b, &loop->cf);
	cf_append_block(fn, &loop->body, &loop->cf);
	return loop;
}

static void remove_list_contents(struct list *list);

static void remove_node_contents(struct cf_node *node)
{
	switch (node->type) {
	case CF_BLOCK:
		foreach_instr_safe(i, cf_as_block(node))
			instr_remove(i);
		break;
	case CF_IF: {
		struct cf_if *nif = cf_as_if(node);
		src_unlink(&nif->condition);
		remove_list_contents(&nif->then_list);
		remove_list_contents(&nif->else_list);
		break;
	}
	case CF_LOOP:
		remove_list_contents(&cf_as_loop(node)->body);
		break;
	case CF_FUNCTION:
		break;
	}
}

static void remove_list_contents(struct list *list)
{
	foreach_cf_node(n, list)
		remove_node_contents(n);
}

/* Whether `a` holds fewer instructions than `b`, in O(min) steps. */
static bool fewer_instrs(struct block *a, struct block *b)
{
	struct list_node *x = a->instrs.head.next, *y = b->instrs.head.next;
	for (; !list_is_head(&a->instrs, x); x = x->next, y = y->next)
		if (list_is_head(&b->instrs, y))
			return false;
	return !list_is_head(&b->instrs, y);
}

/* The blocks control reaches from `b` by the structure alone (link_list's
 * rule for one block); the CFG may be stale.  Returns how many. */
static unsigned structural_succs(struct block *b, struct block *succ[2])
{
	struct jump_instr *j = block_jump(b);
	struct cf_node *next = cf_node_next(&b->cf), *parent = b->cf.parent;
	if (j && j->type == JUMP_return)
		return succ[0] = b->fn->end_block, 1;
	if (j) {
		struct cf_loop *loop = cf_node_enclosing_loop(&b->cf);
		succ[0] = j->type == JUMP_continue ? cf_loop_header(loop)
			  : cf_as_block(cf_node_next(&loop->cf));
		return 1;
	}
	if (next && next->type == CF_IF) {
		succ[0] = cf_if_then_block(cf_as_if(next));
		succ[1] = cf_if_else_block(cf_as_if(next));
		return 2;
	}
	if (next)
		return succ[0] = cf_loop_header(cf_as_loop(next)), 1;
	if (parent->type == CF_IF)
		return succ[0] = cf_as_block(cf_node_next(parent)), 1;
	if (parent->type == CF_LOOP)
		return succ[0] = cf_loop_header(cf_as_loop(parent)), 1;
	return succ[0] = b->fn->end_block, 1;
}

/*
 * Merge two blocks that become adjacent when the node between them goes:
 * the smaller one's instructions move, so a list of many ifs removed one
 * after the other costs what their instructions do, not its square.  When
 * `next` is merged into `prev`, the phis of next's successors name prev as
 * their predecessor instead (as Mesa's stitch_blocks does).  Returns the
 * block that stays.
 */
static struct block *merge_blocks(struct block *prev, struct block *next)
{
	if (fewer_instrs(prev, next)) {
		list_for_each_entry_rev_safe(struct instr, i, &prev->instrs, link) {
			list_del(&i->link);
			list_add_head(&next->instrs, &i->link);
			i->block = next;
		}
		list_del(&prev->cf.link);
		return next;
	}
	struct block *succ[2];
	unsigned n = structural_succs(next, succ);
	for (unsigned k = 0; k < n; k++) {
		if (!succ[k] || (k && succ[k] == succ[0]))
			continue;
		foreach_instr(i, succ[k]) {
			if (i->type != INSTR_phi)
				break;
			foreach_phi_src(ps, instr_as_phi(i))
				if (ps->pred == next)
					ps->pred = prev;
		}
	}
	foreach_instr_safe(i, next) {
		list_del(&i->link);
		list_add_tail(&prev->instrs, &i->link);
		i->block = prev;
	}
	list_del(&next->cf.link);
	return prev;
}

struct block *cf_remove(struct cf_node *node)
{
	if (node->type == CF_BLOCK || node->type == CF_FUNCTION)
		BUG("cf_remove takes an if or a loop");
	struct block *prev = cf_as_block(cf_node_prev(node));
	struct block *next = cf_as_block(cf_node_next(node));
	struct instr *first = block_first_instr(next);
	if (first && first->type == INSTR_phi)
		BUG("cf_remove: the block after the node has phis");

	remove_node_contents(node);
	list_del(&node->link);
	function_cfg_stale(prev->fn);
	return merge_blocks(prev, next);
}

/* ---- navigation ---- */

struct block *cf_list_first_block(struct list *list)
{
	struct list_node *n = list_first(list);
	return n && cf_node_of(n)->type == CF_BLOCK ? cf_as_block(cf_node_of(n)) : NULL;
}

struct block *cf_list_last_block(struct list *list)
{
	struct list_node *n = list_last(list);
	return n && cf_node_of(n)->type == CF_BLOCK ? cf_as_block(cf_node_of(n)) : NULL;
}

/* The list a node is in. */
static struct list *node_list(struct cf_node *node)
{
	return node->list;
}

struct cf_node *cf_node_next(struct cf_node *node)
{
	struct list *l = node_list(node);
	return l && !list_is_head(l, node->link.next) ? cf_node_of(node->link.next) : NULL;
}

struct cf_node *cf_node_prev(struct cf_node *node)
{
	struct list *l = node_list(node);
	return l && !list_is_head(l, node->link.prev) ? cf_node_of(node->link.prev) : NULL;
}

struct block *cf_if_then_block(struct cf_if *nif)
{
	return cf_list_first_block(&nif->then_list);
}

struct block *cf_if_else_block(struct cf_if *nif)
{
	return cf_list_first_block(&nif->else_list);
}

struct block *cf_loop_header(struct cf_loop *loop)
{
	return cf_list_first_block(&loop->body);
}

struct block *function_start_block(struct function *fn)
{
	return cf_list_first_block(&fn->body);
}

struct cf_loop *cf_node_enclosing_loop(struct cf_node *node)
{
	for (struct cf_node *p = node->parent; p; p = p->parent)
		if (p->type == CF_LOOP)
			return cf_as_loop(p);
	return NULL;
}

bool cf_node_is_inside(const struct cf_node *node, const struct cf_node *ancestor)
{
	for (const struct cf_node *p = node; p; p = p->parent)
		if (p == ancestor)
			return true;
	return false;
}

/* The first block of a node. */
static struct block *node_first_block(struct cf_node *node)
{
	switch (node->type) {
	case CF_BLOCK: return cf_as_block(node);
	case CF_IF: return cf_if_then_block(cf_as_if(node));
	case CF_LOOP: return cf_loop_header(cf_as_loop(node));
	default: return NULL;
	}
}

struct block *function_next_block(struct function *fn, struct block *b)
{
	struct cf_node *node = &b->cf;
	(void)fn;
	for (;;) {
		struct cf_node *next = cf_node_next(node);
		if (next)
			return node_first_block(next);
		struct cf_node *p = node->parent;
		if (!p || p->type == CF_FUNCTION)
			return NULL;
		if (p->type == CF_IF && node_list(node) == &cf_as_if(p)->then_list)
			return cf_if_else_block(cf_as_if(p));
		node = p;
	}
}

/* The last block of a node. */
static struct block *node_last_block(struct cf_node *node)
{
	switch (node->type) {
	case CF_BLOCK: return cf_as_block(node);
	case CF_IF: return cf_list_last_block(&cf_as_if(node)->else_list);
	case CF_LOOP: return cf_list_last_block(&cf_as_loop(node)->body);
	default: return NULL;
	}
}

struct block *function_prev_block(struct function *fn, struct block *b)
{
	struct cf_node *node = &b->cf;
	(void)fn;
	for (;;) {
		struct cf_node *prev = cf_node_prev(node);
		if (prev)
			return node_last_block(prev);
		struct cf_node *p = node->parent;
		if (!p || p->type == CF_FUNCTION)
			return NULL;
		if (p->type == CF_IF && node_list(node) == &cf_as_if(p)->else_list)
			return cf_list_last_block(&cf_as_if(p)->then_list);
		node = p;
	}
}

struct block *function_last_block(struct function *fn)
{
	return cf_list_last_block(&fn->body);
}

struct instr *block_first_instr(struct block *b)
{
	struct list_node *n = list_first(&b->instrs);
	return n ? list_entry(n, struct instr, link) : NULL;
}

struct instr *block_last_instr(struct block *b)
{
	struct list_node *n = list_last(&b->instrs);
	return n ? list_entry(n, struct instr, link) : NULL;
}

struct jump_instr *block_jump(struct block *b)
{
	struct instr *last = block_last_instr(b);
	return last && last->type == INSTR_jump ? instr_as_jump(last) : NULL;
}

struct instr *instr_next(struct instr *i)
{
	return list_is_head(&i->block->instrs, i->link.next) ? NULL
	       : list_entry(i->link.next, struct instr, link);
}

struct instr *instr_prev(struct instr *i)
{
	return list_is_head(&i->block->instrs, i->link.prev) ? NULL
	       : list_entry(i->link.prev, struct instr, link);
}

/* ---- the CFG, derived from the structure ---- */

struct cfg_ctx {
	struct function *fn;
	struct arena *arena;
};

static void add_pred(struct cfg_ctx *ctx, struct block *b, struct block *pred)
{
	if (b->num_preds_ == b->preds_cap_) {
		unsigned ncap = b->preds_cap_ ? b->preds_cap_ * 2 : 2;
		b->preds_ = arena_realloc(ctx->arena, b->preds_, b->preds_cap_ * sizeof(*b->preds_),
					  ncap * sizeof(*b->preds_));
		b->preds_cap_ = ncap;
	}
	b->preds_[b->num_preds_++] = pred;
}

static void add_edge(struct cfg_ctx *ctx, struct block *from, struct block *to)
{
	if (!to)
		return;
	unsigned i = from->succ_[0] ? 1 : 0;
	if (from->succ_[i])
		return;
	from->succ_[i] = to;
	add_pred(ctx, to, from);
}

static void reset_block(struct block *b)
{
	b->succ_[0] = b->succ_[1] = NULL;
	b->num_preds_ = 0;
}

static void reset_list(struct list *list)
{
	foreach_cf_node(n, list) {
		switch (n->type) {
		case CF_BLOCK: reset_block(cf_as_block(n)); break;
		case CF_IF:
			reset_list(&cf_as_if(n)->then_list);
			reset_list(&cf_as_if(n)->else_list);
			break;
		case CF_LOOP: reset_list(&cf_as_loop(n)->body); break;
		default: break;
		}
	}
}

/*
 * Successors of the blocks of `list`: `follow` is where control goes after
 * the list's last block, `header`/`exit` where continue/break go.
 */
static void link_list(struct cfg_ctx *ctx, struct list *list, struct block *follow,
		      struct block *header, struct block *exit)
{
	foreach_cf_node(n, list) {
		struct cf_node *next = cf_node_next(n);
		struct block *after = next && next->type == CF_BLOCK ? cf_as_block(next) : NULL;
		switch (n->type) {
		case CF_BLOCK: {
			struct block *b = cf_as_block(n);
			struct jump_instr *j = block_jump(b);
			if (j) {
				add_edge(ctx, b, j->type == JUMP_break ? exit
					 : j->type == JUMP_continue ? header : ctx->fn->end_block);
			} else if (!next) {
				add_edge(ctx, b, follow);
			} else if (next->type == CF_IF) {
				add_edge(ctx, b, cf_if_then_block(cf_as_if(next)));
				add_edge(ctx, b, cf_if_else_block(cf_as_if(next)));
			} else if (next->type == CF_LOOP) {
				add_edge(ctx, b, cf_loop_header(cf_as_loop(next)));
			}
			break;
		}
		case CF_IF: {
			struct cf_if *nif = cf_as_if(n);
			link_list(ctx, &nif->then_list, after, header, exit);
			link_list(ctx, &nif->else_list, after, header, exit);
			break;
		}
		case CF_LOOP: {
			struct cf_loop *loop = cf_as_loop(n);
			struct block *h = cf_loop_header(loop);
			link_list(ctx, &loop->body, h, h, after);
			break;
		}
		default:
			break;
		}
	}
}

void function_cfg_stale(struct function *fn)
{
	fn->cfg_stale = true;
	fn->valid_metadata &= ~(unsigned)(META_BLOCK_INDEX | META_INSTR_INDEX | META_DOMINANCE |
					 META_LIVENESS | META_LOOP_ANALYSIS);
}

void function_cfg_ensure(struct function *fn)
{
	if (!fn->cfg_stale)
		return;
	struct cfg_ctx ctx = { fn, &fn->shader->arena };
	reset_list(&fn->body);
	reset_block(fn->end_block);
	link_list(&ctx, &fn->body, fn->end_block, NULL, NULL);
	fn->cfg_stale = false;
}

struct block *block_succ(struct block *b, unsigned i)
{
	function_cfg_ensure(b->fn);
	return i < 2 ? b->succ_[i] : NULL;
}

unsigned block_num_succs(struct block *b)
{
	function_cfg_ensure(b->fn);
	return (b->succ_[0] != NULL) + (b->succ_[1] != NULL);
}

struct block *const *block_preds(struct block *b, unsigned *num_preds)
{
	function_cfg_ensure(b->fn);
	*num_preds = b->num_preds_;
	return b->preds_;
}

unsigned block_num_preds(struct block *b)
{
	function_cfg_ensure(b->fn);
	return b->num_preds_;
}

bool block_has_pred(struct block *b, const struct block *pred)
{
	unsigned n;
	struct block *const *preds = block_preds(b, &n);
	for (unsigned i = 0; i < n; i++)
		if (preds[i] == pred)
			return true;
	return false;
}

/* ---- metadata ---- */

void metadata_require(struct function *fn, unsigned kinds)
{
	unsigned missing = kinds & ~fn->valid_metadata;
	if (missing & (META_BLOCK_INDEX | META_DOMINANCE | META_LOOP_ANALYSIS))
		if (!(fn->valid_metadata & META_BLOCK_INDEX))
			calc_block_index(fn);
	if (missing & (META_INSTR_INDEX | META_LIVENESS))
		if (!(fn->valid_metadata & META_INSTR_INDEX))
			calc_instr_index(fn);
	if ((missing & (META_DOMINANCE | META_LOOP_ANALYSIS)) &&
	    !(fn->valid_metadata & META_DOMINANCE))
		calc_dominance(fn);
	if (missing & META_LIVENESS)
		calc_liveness(fn);
	if (missing & META_LOOP_ANALYSIS)
		calc_loop_analysis(fn);
}

void metadata_invalidate(struct function *fn, unsigned kinds)
{
	fn->valid_metadata &= ~kinds;
}

bool shader_progress(struct shader *s, bool progress, unsigned preserved)
{
	struct function *fn = s->fn;
	fn->valid_metadata &= ~(unsigned)META_NOT_PROPERLY_RESET;
	if (progress)
		fn->valid_metadata &= preserved;
	return progress;
}
