/*
 * Helpers shared by the passes (opt_util.h): instruction properties from
 * the tables, and control-flow surgery with its phi and use fix-ups.
 */
#include "compiler/opt/opt_util.h"

#include "compiler/util/array.h"

/* ---- properties ---- */

bool instr_is_eliminable(const struct instr *i)
{
	switch (i->type) {
	case INSTR_intrinsic:
		return intrinsic_infos[instr_as_intrinsic(i)->op].flags & INTR_CAN_ELIMINATE;
	case INSTR_jump:
		return false;
	default:
		return true;
	}
}

bool instr_is_reorderable(const struct instr *i)
{
	switch (i->type) {
	case INSTR_alu: case INSTR_load_const: case INSTR_undef: case INSTR_tex:
		return true;
	case INSTR_intrinsic: {
		const struct intrinsic_instr *intr = instr_as_intrinsic(i);
		const struct intrinsic_info *info = &intrinsic_infos[intr->op];
		if (info->flags & INTR_CAN_REORDER)
			return true;
		/* a load of memory opt_access found read-only */
		int slot = intrinsic_index_slot(intr->op, INTR_IDX_access);
		return slot >= 0 && (info->flags & INTR_CAN_ELIMINATE) &&
		       (intr->const_index[slot] & ACCESS_CAN_REORDER);
	}
	default:
		return false;
	}
}

static bool src_is_const_cb(struct src *src, void *data)
{
	(void)data;
	return ssa_def_as_const(src->ssa) != NULL;
}

bool instr_is_speculatable(const struct instr *i)
{
	switch (i->type) {
	case INSTR_alu: case INSTR_load_const: case INSTR_undef:
		return true;
	case INSTR_intrinsic:
		return instr_is_reorderable(i) &&
		       instr_foreach_src((struct instr *)i, src_is_const_cb, NULL);
	default:
		return false;
	}
}

bool alu_src_is_identity(const struct alu_instr *alu, unsigned src)
{
	unsigned n = alu_src_components(alu, src);
	if (alu->src[src].src.ssa->num_components != n)
		return false;
	for (unsigned c = 0; c < n; c++)
		if (alu->src[src].swizzle[c] != c)
			return false;
	return true;
}

/* ---- ALU lowering ---- */

bool lower_alu_instrs(struct shader *s, alu_lower_fn lower, const void *data)
{
	bool progress = false;
	foreach_block(blk, s->fn) {
		foreach_instr_safe(i, blk) {
			if (i->type != INSTR_alu)
				continue;
			struct alu_instr *alu = instr_as_alu(i);
			struct builder b;
			builder_init(&b, s, cursor_before_instr(i));
			b.exact = alu->exact;
			struct ssa_def *def = lower(&b, alu, data);
			if (!def)
				continue;
			if (def->num_components != alu->def.num_components ||
			    def->bit_size != alu->def.bit_size)
				BUG("lowering %s gave %ux%u for %ux%u", alu_op_infos[alu->op].name,
				    def->bit_size, def->num_components, alu->def.bit_size,
				    alu->def.num_components);
			ssa_def_rewrite_uses(&alu->def, def);
			instr_remove(i);
			progress = true;
		}
	}
	return progress;
}

struct ssa_def *b_alu_src(struct builder *b, struct alu_instr *alu, unsigned k)
{
	if (alu_src_is_identity(alu, k))
		return alu->src[k].src.ssa;
	unsigned swz[16];
	for (unsigned c = 0; c < alu_src_components(alu, k); c++)
		swz[c] = alu->src[k].swizzle[c];
	return b_swizzle(b, alu->src[k].src.ssa, swz, alu_src_components(alu, k));
}

/* ---- undefs and removal ---- */

struct ssa_def *opt_undef_def(struct shader *s, unsigned num_components, unsigned bit_size)
{
	struct undef_instr *u = undef_instr_create(s, num_components, bit_size);
	instr_insert(cursor_before_block(function_start_block(s->fn)), &u->instr);
	return &u->def;
}

static void undef_remaining_uses(struct shader *s, struct ssa_def *def)
{
	if (ssa_def_has_uses(def))
		ssa_def_rewrite_uses(def, opt_undef_def(s, def->num_components, def->bit_size));
}

void opt_remove_instr(struct instr *i)
{
	struct shader *s = i->shader;
	struct ssa_def *def = instr_def(i);
	instr_remove(i);
	if (def)
		undef_remaining_uses(s, def);
}

/* ---- deleting code ---- */

typedef ARRAY(struct ssa_def *) def_array;

static void delete_list_contents(struct list *list, def_array *removed);

static void unlink_condition(struct cf_if *nif)
{
	if (nif->condition.use_link.next)
		list_del(&nif->condition.use_link);
}

/* Remove everything in a node, collecting the values it defined. */
static void delete_node_contents(struct cf_node *node, def_array *removed)
{
	switch (node->type) {
	case CF_BLOCK:
		foreach_instr_safe(i, cf_as_block(node)) {
			struct ssa_def *def = instr_def(i);
			instr_remove(i);
			if (def)
				array_push(removed, def);
		}
		break;
	case CF_IF:
		unlink_condition(cf_as_if(node));
		delete_list_contents(&cf_as_if(node)->then_list, removed);
		delete_list_contents(&cf_as_if(node)->else_list, removed);
		break;
	case CF_LOOP:
		delete_list_contents(&cf_as_loop(node)->body, removed);
		break;
	default:
		break;
	}
}

static void delete_list_contents(struct list *list, def_array *removed)
{
	foreach_cf_node(n, list)
		delete_node_contents(n, removed);
}

/* Values of deleted code still read elsewhere (by other unreachable code or
 * by phis about to lose that edge) read undefs instead. */
static void finish_delete(struct shader *s, def_array *removed)
{
	for (size_t k = 0; k < removed->len; k++)
		undef_remaining_uses(s, removed->data[k]);
	array_free(removed);
	function_cfg_stale(s->fn);
}

void cf_delete_after(struct cf_node *node)
{
	struct block *b = cf_as_block(node);
	def_array removed = ARRAY_INIT;
	struct cf_node *next;
	while ((next = cf_node_next(node))) {
		delete_node_contents(next, &removed);
		list_del(&next->link);
	}
	finish_delete(b->fn->shader, &removed);
}

void cf_empty_block(struct block *b)
{
	def_array removed = ARRAY_INIT;
	delete_node_contents(&b->cf, &removed);
	finish_delete(b->fn->shader, &removed);
}

/* ---- moving code ---- */

void block_move_instrs_to_end(struct block *from, struct block *to)
{
	struct jump_instr *j = block_jump(to);
	foreach_instr_safe(i, from)
		instr_move(j ? cursor_before_instr(&j->instr) : cursor_after_block(to), i);
}

/* Move every instruction of `from` to the front of `to`, in order. */
static void block_move_instrs_to_front(struct block *from, struct block *to)
{
	struct instr *anchor = block_first_instr(to);
	foreach_instr_safe(i, from)
		instr_move(anchor ? cursor_before_instr(anchor) : cursor_after_block(to), i);
}

void phis_rename_pred(struct function *fn, struct block *old, struct block *new_pred)
{
	foreach_block(b, fn) {
		foreach_instr(i, b) {
			if (i->type != INSTR_phi)
				break;
			struct phi_instr *phi = instr_as_phi(i);
			foreach_phi_src_safe(ps, phi) {
				if (ps->pred != old)
					continue;
				/* already one from new_pred: that edge came first (the
				 * code merged after it is unreachable), keep it */
				if (phi_get_src(phi, new_pred))
					phi_remove_src(phi, ps);
				else
					ps->pred = new_pred;
			}
		}
	}
}

void cf_inline_list(struct cf_node *node, struct list *list)
{
	struct block *prev = cf_as_block(cf_node_prev(node));
	struct block *next = cf_as_block(cf_node_next(node));
	struct block *first = cf_list_first_block(list), *last = cf_list_last_block(list);
	struct function *fn = prev->fn;
	def_array removed = ARRAY_INIT;

	block_move_instrs_to_end(first, prev);
	if (first != last) {
		block_move_instrs_to_front(last, next);
		struct cf_node *n = cf_node_next(&first->cf);
		while (n != &last->cf) {
			struct cf_node *after = cf_node_next(n);
			list_del(&n->link);
			list_insert_before(&node->link, &n->link);
			n->parent = node->parent;
			n->list = node->list;
			n = after;
		}
	}
	delete_node_contents(node, &removed);
	list_del(&node->link);
	phis_rename_pred(fn, first, prev);
	if (first == last) {
		/* prev and next are now neighbours: merge next into prev */
		block_move_instrs_to_end(next, prev);
		list_del(&next->cf.link);
		phis_rename_pred(fn, next, prev);
	} else {
		phis_rename_pred(fn, last, next);
	}
	finish_delete(fn->shader, &removed);
}

/* ---- phis ---- */

void cf_fixup_phis(struct function *fn)
{
	function_cfg_stale(fn);
	function_cfg_ensure(fn);
	foreach_block(b, fn) {
		unsigned np;
		struct block *const *preds = block_preds(b, &np);
		foreach_instr(i, b) {
			if (i->type != INSTR_phi)
				break;
			struct phi_instr *phi = instr_as_phi(i);
			foreach_phi_src_safe(ps, phi)
				if (!block_has_pred(b, ps->pred))
					phi_remove_src(phi, ps);
			/* a new edge, from code that cannot run (an emptied
			 * unreachable block now falling through) */
			for (unsigned k = 0; k < np; k++)
				if (!phi_get_src(phi, preds[k]))
					phi_add_src(phi, preds[k],
						    opt_undef_def(fn->shader, phi->def.num_components,
								  phi->def.bit_size));
		}
	}
}

struct ssa_def *phi_single_src(struct phi_instr *phi)
{
	struct list_node *n = list_first(&phi->srcs);
	if (!n || n->next != &phi->srcs.head)
		return NULL;
	return list_entry(n, struct phi_src, link)->src.ssa;
}

void block_remove_single_src_phis(struct block *b)
{
	foreach_instr_safe(i, b) {
		if (i->type != INSTR_phi)
			break;
		struct phi_instr *phi = instr_as_phi(i);
		struct ssa_def *v = phi_single_src(phi);
		if (!v)
			continue;
		if (v == &phi->def)
			v = opt_undef_def(b->fn->shader, v->num_components, v->bit_size);
		ssa_def_rewrite_uses(&phi->def, v);
		instr_remove(i);
	}
}

bool block_has_phis(struct block *b)
{
	struct instr *first = block_first_instr(b);
	return first && first->type == INSTR_phi;
}

void opt_split_offset(struct ssa_def *o, struct ssa_def **base, int64_t *off)
{
	struct load_const_instr *lc = ssa_def_as_const(o);
	if (lc) {
		*base = NULL;
		*off = (int64_t)(uint32_t)lc->value[0];
		return;
	}
	*base = o;
	*off = 0;
	if (o->parent->type != INSTR_alu)
		return;
	struct alu_instr *add = instr_as_alu(o->parent);
	if (add->op != OP_iadd || add->def.num_components != 1)
		return;
	for (unsigned k = 0; k < 2; k++) {
		struct load_const_instr *c = ssa_def_as_const(add->src[k].src.ssa);
		if (c && add->src[1 - k].src.ssa->num_components == 1) {
			*base = add->src[1 - k].src.ssa;
			*off = (int64_t)(int32_t)(uint32_t)c->value[add->src[k].swizzle[0]];
			return;
		}
	}
}

bool opt_same_scalar(struct ssa_def *x, struct ssa_def *y)
{
	if (x == y)
		return true;
	struct load_const_instr *a = x ? ssa_def_as_const(x) : NULL, *b = y ? ssa_def_as_const(y) : NULL;
	return a && b && x->num_components == 1 && y->num_components == 1 &&
	       x->bit_size == y->bit_size && a->value[0] == b->value[0];
}

/* ---- SSBO and shared memory accesses ---- */

bool opt_is_ssbo_access(enum intrinsic op)
{
	return op == INTR_load_ssbo || op == INTR_store_ssbo || op == INTR_ssbo_atomic ||
	       op == INTR_ssbo_atomic_swap;
}

bool opt_is_shared_access(enum intrinsic op)
{
	return op == INTR_load_shared || op == INTR_store_shared || op == INTR_shared_atomic ||
	       op == INTR_shared_atomic_swap;
}

bool opt_is_mem_store(enum intrinsic op)
{
	return op == INTR_store_ssbo || op == INTR_store_shared;
}

bool opt_is_mem_load(enum intrinsic op)
{
	return op == INTR_load_ssbo || op == INTR_load_shared;
}

struct ssa_def *opt_mem_describe(struct intrinsic_instr *intr, struct opt_mem_range *r)
{
	bool ssbo = opt_is_ssbo_access(intr->op);
	unsigned first = opt_is_mem_store(intr->op) ? 1 : 0;	/* stores: the value first */
	struct ssa_def *offset = intr->src[first + (ssbo ? 1 : 0)].ssa;
	struct ssa_def *v = opt_is_mem_store(intr->op) ? intr->src[0].ssa : &intr->def;
	*r = (struct opt_mem_range){ .slot = ssbo ? intr->src[first].ssa : NULL };
	if (ssbo)
		r->restrict_ = (intrinsic_get(intr, INTR_IDX_access) & ACCESS_RESTRICT) != 0;
	if (!opt_is_mem_load(intr->op) && !opt_is_mem_store(intr->op)) {
		r->whole = true;
		return offset;
	}
	opt_split_offset(offset, &r->base, &r->off);
	if (!ssbo)
		r->off += intrinsic_get(intr, INTR_IDX_base);
	r->bytes = v->num_components * (v->bit_size / 8);
	return offset;
}

bool opt_mem_same_buffer(const struct opt_mem_range *a, const struct opt_mem_range *b)
{
	return (!a->slot && !b->slot) || (a->slot && b->slot && opt_same_scalar(a->slot, b->slot));
}

bool opt_mem_may_alias(const struct opt_mem_range *w, const struct opt_mem_range *k)
{
	if (!w->slot != !k->slot)
		return false;			/* shared memory and an SSBO */
	if (!opt_mem_same_buffer(w, k))
		return !(w->restrict_ || k->restrict_);
	if (w->whole || k->whole || w->base != k->base)
		return true;
	return w->off < k->off + (int64_t)k->bytes && k->off < w->off + (int64_t)w->bytes;
}
