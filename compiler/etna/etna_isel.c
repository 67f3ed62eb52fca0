/*
 * etna_isel: the machine IR for one lowered shader (etna_isel.h), as Mesa's
 * etnaviv emit_shader does it (../../shared/reference/targets.md §4.3):
 *
 *  1. classify every value: constants and uniforms (read from the uniform
 *     file), the position and front face, registers;
 *  2. out of SSA (nir_convert_from_ssa, phi webs only): each phi and its
 *     sources share one value where they do not interfere (SSA liveness
 *     and dominance, as nir_from_ssa's merge sets); the others — and
 *     constant sources — are copied by movs at the end of the predecessor;
 *  3. real defs: results that only feed a vecN or a mov write the vector's
 *     or the mov's value directly;
 *  4. emission in program order, one block per IR block: instructions, the
 *     phi copies, then the flow control of emit_cf_list: a branch on the
 *     negated condition to the else branch, a branch over a non-empty else
 *     branch, a branch for every break and continue and at each loop's end.
 */
#include "compiler/etna/etna_isel.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

void esel_error(struct isel *c, const char *fmt, ...)
{
	if (c->failed)
		return;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(c->err, fmt, ap);
	va_end(ap);
	c->failed = true;
}

struct etna_instr *esel_emit(struct isel *c, enum etna_opc opc)
{
	return etna_instr_create(c->cur, opc);
}

/* ---- phi webs ---- */

static unsigned find(struct isel *c, unsigned x)
{
	while (c->d[x].set != x) {
		c->d[x].set = c->d[c->d[x].set].set;
		x = c->d[x].set;
	}
	return x;
}

static bool dominates(const struct ssa_def *a, const struct ssa_def *b)
{
	struct block *ba = a->parent->block, *bb = b->parent->block;
	if (ba != bb)
		return block_dominates(ba, bb);
	if (a->parent->type == INSTR_phi && b->parent->type != INSTR_phi)
		return true;
	return a->parent->index < b->parent->index;
}

/* Whether `a` is live where `b` is defined (nir_def_is_live_at). */
static bool live_at(const struct ssa_def *a, const struct ssa_def *b)
{
	if (a == b)
		return false;
	if (b->parent->type == INSTR_phi)
		return bitset_test(b->parent->block->live_in, a->index);
	return ssa_def_is_live_after((struct ssa_def *)a, b->parent);
}

static bool defs_interfere(const struct ssa_def *a, const struct ssa_def *b)
{
	return (dominates(a, b) && live_at(a, b)) || (dominates(b, a) && live_at(b, a));
}

struct web_member {
	unsigned root;
	struct ssa_def *def;
};

struct phi_copy {
	struct block *pred;
	struct phi_instr *phi;
	struct ssa_def *src;
};

struct webs {
	ARRAY(struct web_member) members;	/* every def in some web */
	ARRAY(struct phi_copy) copies;
};

static bool sets_interfere(struct isel *c, struct webs *w, unsigned ra, unsigned rb)
{
	__typeof__(&w->members) m = &w->members;
	for (size_t i = 0; i < m->len; i++) {
		if (find(c, m->data[i].root) != ra)
			continue;
		for (size_t j = 0; j < m->len; j++)
			if (find(c, m->data[j].root) == rb &&
			    defs_interfere(m->data[i].def, m->data[j].def))
				return true;
	}
	return false;
}

static void add_member(struct webs *w, struct ssa_def *def)
{
	for (size_t i = 0; i < w->members.len; i++)
		if (w->members.data[i].def == def)
			return;
	array_push(&w->members, ((struct web_member){ def->index, def }));
}

/* Whether `def` is read from an input register (emit_input): that register
 * holds the input all along, whichever load reads it, so no other value
 * may be written there. */
static bool is_input(const struct ssa_def *def)
{
	if (def->parent->type != INSTR_intrinsic)
		return false;
	switch (instr_as_intrinsic(def->parent)->op) {
	case INTR_load_input: case INTR_load_point_coord:
	case INTR_load_vertex_id: case INTR_load_instance_id:
		return true;
	default:
		return false;
	}
}

/* Merge each phi with its sources where they do not interfere, in block
 * order (nir_from_ssa's aggressive coalescing); the rest are copies, and
 * so are inputs (their register is theirs). */
static void build_webs(struct isel *c, struct webs *w)
{
	foreach_block(b, c->ir->fn)
		foreach_instr(in, b) {
			if (in->type != INSTR_phi)
				break;
			add_member(w, &instr_as_phi(in)->def);
		}
	foreach_block(b, c->ir->fn) {
		for (unsigned k = 0; k < block_num_succs(b); k++) {
			struct block *succ = block_succ(b, k);
			foreach_instr(in, succ) {
				if (in->type != INSTR_phi)
					break;
				struct phi_instr *phi = instr_as_phi(in);
				struct phi_src *ps = phi_get_src(phi, b);
				if (!ps)
					continue;
				struct ssa_def *src = ps->src.ssa;
				if (src->parent->type == INSTR_undef)
					continue;
				unsigned rp = find(c, phi->def.index), rs = find(c, src->index);
				if (rp == rs)
					continue;
				if (isel_def(c, src)->kind == ISEL_TEMP && !is_input(src)) {
					add_member(w, src);
					if (!sets_interfere(c, w, rp, rs)) {
						c->d[rs].set = rp;
						continue;
					}
				}
				array_push(&w->copies, ((struct phi_copy){ b, phi, src }));
			}
		}
	}
	for (size_t i = 0; i < w->members.len; i++)
		isel_def(c, w->members.data[i].def)->web = true;
}

unsigned esel_own_value(struct isel *c, const struct ssa_def *def)
{
	unsigned root = find(c, def->index);
	struct isel_def *r = &c->d[root];
	if (r->value == ETNA_NO_VALUE)
		r->value = etna_value_create(c->s, def->num_components);
	isel_def(c, def)->value = r->value;
	return r->value;
}

/* The copies at the end of `b`, as a parallel copy: a copy waits while
 * its destination is still to be read by another; a cycle goes through a
 * temporary. */
static void emit_copies(struct isel *c, struct webs *w, struct block *b)
{
	ARRAY(struct phi_copy) todo = ARRAY_INIT;
	for (size_t i = 0; i < w->copies.len; i++)
		if (w->copies.data[i].pred == b)
			array_push(&todo, w->copies.data[i]);
	uint8_t id[4] = { 0, 1, 2, 3 };
	while (todo.len) {
		size_t pick = todo.len;
		for (size_t i = 0; i < todo.len && pick == todo.len; i++) {
			unsigned dst = esel_own_value(c, &todo.data[i].phi->def);
			bool read = false;
			for (size_t j = 0; j < todo.len; j++) {
				const struct isel_def *s = isel_def(c, todo.data[j].src);
				read |= j != i && s->kind == ISEL_TEMP && s->value == dst;
			}
			if (!read)
				pick = i;
		}
		struct phi_copy pc = todo.data[pick == todo.len ? 0 : pick];
		unsigned n = pc.phi->def.num_components;
		struct etna_src src = esel_src(c, pc.src, id);
		if (pick == todo.len) {
			/* a cycle: save the source first */
			unsigned tmp = etna_value_create(c->s, n);
			struct etna_instr *mov = esel_emit(c, ETNA_OP_mov);
			mov->dst = (struct etna_dst){ .file = ETNA_FILE_TEMP, .value = tmp,
						      .mask = (uint8_t)((1u << n) - 1),
						      .map = { 0, 1, 2, 3 } };
			mov->src[2] = src;
			src = (struct etna_src){ .file = ETNA_FILE_TEMP, .value = tmp,
						 .swiz = { 0, 1, 2, 3 } };
			pick = 0;
		}
		struct etna_instr *mov = esel_emit(c, ETNA_OP_mov);
		mov->dst = (struct etna_dst){ .file = ETNA_FILE_TEMP,
					      .value = esel_own_value(c, &pc.phi->def),
					      .mask = (uint8_t)((1u << n) - 1),
					      .map = { 0, 1, 2, 3 } };
		mov->src[2] = src;
		todo.data[pick] = todo.data[--todo.len];
	}
	array_free(&todo);
}

/* A phi whose source from `b` is undefined: its value is undefined at the
 * end of `b` (a marker that emits nothing, for the register verifier). */
static void emit_undefs(struct isel *c, struct block *b)
{
	for (unsigned k = 0; k < block_num_succs(b); k++)
		foreach_instr(in, block_succ(b, k)) {
			if (in->type != INSTR_phi)
				break;
			struct phi_instr *phi = instr_as_phi(in);
			struct phi_src *ps = phi_get_src(phi, b);
			if (!ps || ps->src.ssa->parent->type != INSTR_undef ||
			    isel_def(c, &phi->def)->kind != ISEL_TEMP)
				continue;
			unsigned n = phi->def.num_components;
			struct etna_instr *u = esel_emit(c, ETNA_OP_undef);
			u->dst = (struct etna_dst){ .file = ETNA_FILE_TEMP,
						    .value = esel_own_value(c, &phi->def),
						    .mask = (uint8_t)((1u << n) - 1),
						    .map = { 0, 1, 2, 3 } };
		}
}

static bool has_copies(const struct webs *w, const struct block *b)
{
	for (size_t i = 0; i < w->copies.len; i++)
		if (w->copies.data[i].pred == b)
			return true;
	return false;
}

/* ---- operands ---- */

void esel_dst(struct isel *c, struct etna_instr *in, const struct ssa_def *def)
{
	const struct isel_def *d = isel_def(c, def);
	if (d->into == ETNA_NO_VALUE)
		BUG("%%%u written without a value", def->index);
	in->dst.file = ETNA_FILE_TEMP;
	in->dst.value = d->into;
	in->dst.mask = 0;
	/* the class from the first writer (etna_ra_assign): the fast
	 * transcendentals write XY or ZW */
	struct etna_value *v = &c->s->values.data[d->into];
	if (!v->written && c->t->has_new_transcendentals &&
	    (in->opc == ETNA_OP_div || in->opc == ETNA_OP_log || in->opc == ETNA_OP_sin ||
	     in->opc == ETNA_OP_cos))
		v->cls = ETNA_CLASS_VEC2T;
	v->written = true;
	for (unsigned k = 0; k < 4; k++) {
		in->dst.map[k] = d->wr[k] == ISEL_NO_COMP ? 0 : d->wr[k];
		if (d->wr[k] != ISEL_NO_COMP)
			in->dst.mask |= (uint8_t)(1u << k);
	}
}

struct etna_src esel_src(struct isel *c, const struct ssa_def *def, const uint8_t *swiz)
{
	const struct isel_def *d = isel_def(c, def);
	struct etna_src src = { .value = ETNA_NO_VALUE };
	switch (d->kind) {
	case ISEL_CONST:
		return esel_const_src(c, d->c, d->num_components, swiz);
	case ISEL_TEMP:
		if (d->bypassed)
			BUG("%%%u is written into another value and read", def->index);
		src.file = ETNA_FILE_TEMP;
		src.value = d->into;
		break;
	case ISEL_POS:
		src.file = ETNA_FILE_TEMP;
		src.fixed = true;
		src.reg = 0;
		break;
	case ISEL_FACE:
		src.file = ETNA_FILE_INTERNAL;
		return src;
	case ISEL_BYPASS: {
		const struct alu_instr *mov = instr_as_alu(def->parent);
		uint8_t s[4];
		for (unsigned k = 0; k < 4; k++)
			s[k] = mov->src[0].swizzle[swiz[k] & 15];
		return esel_src(c, mov->src[0].src.ssa, s);
	}
	default:
		esel_error(c, "internal error: %%%u read before it is selected", def->index);
		return src;
	}
	memcpy(src.swiz, swiz, 4);
	return src;
}

/* ---- control flow (Mesa's emit_cf_list) ---- */

struct emit {
	struct isel *c;
	struct webs *w;
};

static void emit_cf_list(struct emit *e, struct list *list);

static struct etna_instr *emit_branch(struct isel *c, struct block *target)
{
	struct etna_instr *br = esel_emit(c, ETNA_OP_branch);
	br->target = target ? c->blocks[target->index] : NULL;
	return br;
}

static void emit_instr(struct isel *c, struct instr *in)
{
	switch (in->type) {
	case INSTR_alu:
		esel_alu(c, instr_as_alu(in));
		break;
	case INSTR_intrinsic:
		esel_intrinsic(c, instr_as_intrinsic(in));
		break;
	case INSTR_tex:
		esel_tex(c, instr_as_tex(in));
		break;
	default:
		break;	/* constants, undefs, phis, jumps: elsewhere */
	}
}

static void emit_block(struct emit *e, struct block *b)
{
	struct isel *c = e->c;
	c->cur = c->blocks[b->index];
	foreach_instr(in, b)
		emit_instr(c, in);
	emit_copies(c, e->w, b);
	emit_undefs(c, b);
	struct jump_instr *j = block_jump(b);
	struct block *succ = block_succ(b, 0);
	if (j)
		emit_branch(c, j->type == JUMP_return ? NULL : succ);
	else if (succ && succ != c->ir->fn->end_block && succ->index < b->index)
		emit_branch(c, succ);	/* the loop's back edge */
}

/* Whether an else branch emits nothing, as nir_cf_list_is_empty_block
 * sees it after the copies of out-of-SSA are placed: constants and
 * undefined values the optimiser sank there emit nothing either. */
static bool empty_else(struct emit *e, struct cf_if *nif)
{
	struct cf_node *n = cf_node_of(list_first(&nif->else_list));
	if (cf_node_next(n))
		return false;
	struct block *b = cf_as_block(n);
	foreach_instr(in, b)
		if (in->type != INSTR_load_const && in->type != INSTR_undef)
			return false;
	return !has_copies(e->w, b);
}

static void emit_if(struct emit *e, struct cf_if *nif)
{
	struct isel *c = e->c;
	struct etna_instr *br = emit_branch(c, cf_if_else_block(nif));
	br->cond = ETNA_COND_not;
	br->type = ETNA_TYPE_u32;
	uint8_t xxxx[4] = { 0, 0, 0, 0 };
	br->src[0] = esel_src(c, nif->condition.ssa, xxxx);
	emit_cf_list(e, &nif->then_list);
	struct block *last = cf_list_last_block(&nif->then_list);
	if (!block_jump(last) && !empty_else(e, nif)) {
		c->cur = c->blocks[last->index];
		emit_branch(c, block_succ(last, 0));
	}
	emit_cf_list(e, &nif->else_list);
}

static void emit_cf_list(struct emit *e, struct list *list)
{
	foreach_cf_node(n, list) {
		switch (n->type) {
		case CF_BLOCK:
			emit_block(e, cf_as_block(n));
			break;
		case CF_IF:
			emit_if(e, cf_as_if(n));
			break;
		case CF_LOOP:
			e->c->s->num_loops++;
			emit_cf_list(e, &cf_as_loop(n)->body);
			break;
		default:
			break;
		}
	}
}

/* One machine block per IR block, with the IR's edges. */
static void make_blocks(struct isel *c)
{
	struct function *fn = c->ir->fn;
	metadata_require(fn, META_BLOCK_INDEX);
	c->blocks = arena_array(c->s->arena, struct etna_block *, fn->num_blocks + 1);
	foreach_block(b, fn)
		c->blocks[b->index] = etna_block_create(c->s);
	foreach_block(b, fn) {
		struct etna_block *mb = c->blocks[b->index];
		for (unsigned k = 0; k < block_num_succs(b); k++) {
			struct block *s = block_succ(b, k);
			if (s == fn->end_block)
				continue;
			mb->succ[k] = c->blocks[s->index];
			etna_block_add_pred(c->blocks[s->index], mb);
		}
	}
}

struct etna_shader *etna_isel(struct shader *ir, const struct etna_info *t, struct arena *arena,
			      struct strbuf *err)
{
	struct isel c = { .ir = ir, .t = t, .err = err };
	struct function *fn = ir->fn;
	esel_pack_tex(&c);
	metadata_invalidate(fn, META_ALL);
	shader_reindex(ir);
	metadata_require(fn, META_BLOCK_INDEX | META_INSTR_INDEX | META_DOMINANCE | META_LIVENESS);
	c.s = etna_shader_create(arena, ir->stage, t);
	c.d = xcalloc(fn->ssa_alloc + 1, sizeof(*c.d));
	for (unsigned i = 0; i <= fn->ssa_alloc; i++) {
		c.d[i].value = c.d[i].into = ETNA_NO_VALUE;
		c.d[i].set = i;
	}
	make_blocks(&c);
	/* uniform reads first: a vecN of them is a constant too (Mesa's
	 * emit_shader makes them load_consts before lower_alu merges a vecN's
	 * constant sources) */
	esel_intrinsics_classify(&c);
	esel_classify(&c);
	struct webs w = { ARRAY_INIT, ARRAY_INIT };
	if (!c.failed)
		build_webs(&c, &w);
	if (!c.failed)
		esel_real_defs(&c);
	if (!c.failed) {
		struct emit e = { &c, &w };
		emit_cf_list(&e, &fn->body);
	}
	if (!c.failed)
		esel_finish_io(&c);
	array_free(&w.members);
	array_free(&w.copies);
	free(c.d);
	free(c.ubo_base);
	free(c.out_slots);	/* esel_finish_io's, unless selection failed first */
	free(c.out_shared);
	free(c.input_first);
	free(c.input_reg);
	if (c.failed)
		etna_shader_release(c.s);
	return c.failed ? NULL : c.s;
}
