/*
 * The machine IR's core: the opcode table built from ir3_ops.def, creation
 * and editing of instructions, registers and blocks, the builder helpers
 * instruction selection uses, CFG utilities, and the per-opcode rules every
 * pass asks (which source flags are valid, which immediates encode).
 */
#include "compiler/ir3/ir3.h"

#include <math.h>
#include <string.h>

#include "compiler/util/error.h"

/* ------------------------------------------------------------------ */
/* the opcode table */

#define K IR3_REG_CONST
#define I IR3_REG_IMMED
#define R IR3_REG_RELATIV
#define S IR3_REG_SHARED
#define FM (IR3_REG_FNEG | IR3_REG_FABS)
#define FN IR3_REG_FNEG
#define SM (IR3_REG_SNEG | IR3_REG_SABS)
#define BN IR3_REG_BNOT
#define RPT IR3_OP_RPT
#define COMM IR3_OP_COMM
#define FLOAT IR3_OP_FLOAT
#define COND IR3_OP_COND
#define MAD IR3_OP_MAD
#define ALT IR3_OP_ALT
#define TERM IR3_OP_TERM
#define NOCOUNT IR3_OP_NOCOUNT
#define SIDE IR3_OP_SIDE
#define LOAD IR3_OP_LOAD
#define STORE IR3_OP_STORE
#define ATOMIC IR3_OP_ATOMIC
#define LOCAL IR3_OP_LOCAL
#define GLOBAL IR3_OP_GLOBAL
#define PRIVATE IR3_OP_PRIVATE
#define CONSTMEM IR3_OP_CONSTMEM
#define SSDST IR3_OP_SSDST
#define INPUT IR3_OP_INPUT
#define HELPERS IR3_OP_HELPERS
#define BARRIER IR3_OP_BARRIER
#define NOALIAS IR3_OP_NOALIAS
#define WAVE IR3_OP_WAVE

const struct ir3_opc_info ir3_opc_info[OPC_COUNT] = {
#define OP(id, nm, c, nd, ns, fl, s0, s1, s2, s3) \
	[OPC_##id] = { .name = nm, .cat = c, .ndst = nd, .nsrc = ns, .flags = (fl), \
		       .src_flags = { (s0), (s1), (s2), (s3) } },
#include "compiler/ir3/ir3_ops.def"
};

#undef K
#undef I
#undef R
#undef S
#undef FM
#undef FN
#undef SM
#undef BN
#undef RPT
#undef COMM
#undef FLOAT
#undef COND
#undef MAD
#undef ALT
#undef TERM
#undef NOCOUNT
#undef SIDE
#undef LOAD
#undef STORE
#undef ATOMIC
#undef LOCAL
#undef GLOBAL
#undef PRIVATE
#undef CONSTMEM
#undef SSDST
#undef INPUT
#undef HELPERS
#undef BARRIER
#undef NOALIAS
#undef WAVE

/* ------------------------------------------------------------------ */
/* types and conditions */

static const char *const type_names[TYPE_COUNT] = {
	[TYPE_F16] = "f16", [TYPE_F32] = "f32", [TYPE_U16] = "u16", [TYPE_U32] = "u32",
	[TYPE_S16] = "s16", [TYPE_S32] = "s32", [TYPE_U8] = "u8", [TYPE_S8] = "s8",
	[TYPE_ATOMIC_U64] = "u64",
};

const char *ir3_type_name(enum ir3_type t)
{
	return t < TYPE_COUNT ? type_names[t] : "?";
}

bool ir3_type_is_half(enum ir3_type t)
{
	return t == TYPE_F16 || t == TYPE_U16 || t == TYPE_S16 || t == TYPE_U8 || t == TYPE_S8;
}

bool ir3_type_is_float(enum ir3_type t)
{
	return t == TYPE_F16 || t == TYPE_F32;
}

static const char *const cond_names[COND_COUNT] = { "lt", "le", "gt", "ge", "eq", "ne" };

const char *ir3_cond_name(enum ir3_cond c)
{
	return c < COND_COUNT ? cond_names[c] : "?";
}

/* ------------------------------------------------------------------ */
/* creation */

struct ir3 *ir3_create(struct arena *arena, enum shader_stage stage)
{
	struct ir3 *ir = arena_new(arena, struct ir3);
	ir->arena = arena;
	ir->stage = stage;
	ir->branchstack = -1;
	ir->loops = -1;
	return ir;
}

struct ir3_block *ir3_block_create(struct ir3 *ir)
{
	struct ir3_block *b = arena_new(ir->arena, struct ir3_block);
	b->ir = ir;
	b->index = ir->nblocks++;
	b->prev = ir->last;
	if (ir->last)
		ir->last->next = b;
	else
		ir->first = b;
	ir->last = b;
	return b;
}

void ir3_block_remove(struct ir3_block *b)
{
	struct ir3 *ir = b->ir;
	if (b->prev)
		b->prev->next = b->next;
	else
		ir->first = b->next;
	if (b->next)
		b->next->prev = b->prev;
	else
		ir->last = b->prev;
	b->prev = b->next = NULL;
}

static struct ir3_register **grow_regs(struct arena *a, struct ir3_register **old, unsigned n,
				       unsigned *cap)
{
	unsigned ncap = *cap ? *cap * 2 : 4;
	while (ncap < n)
		ncap *= 2;
	struct ir3_register **r = arena_array(a, struct ir3_register *, ncap);
	if (old)
		memcpy(r, old, sizeof(*r) * *cap);
	*cap = ncap;
	return r;
}

struct ir3_instruction *ir3_instr_new(struct ir3 *ir, enum ir3_opc opc, unsigned ndst,
				      unsigned nsrc)
{
	struct ir3_instruction *i = arena_new(ir->arena, struct ir3_instruction);
	i->ir = ir;
	i->opc = opc;
	i->serial = ir->serial++;
	i->dst_cap = ndst;
	i->src_cap = nsrc;
	i->dsts = ndst ? arena_array(ir->arena, struct ir3_register *, ndst) : NULL;
	i->srcs = nsrc ? arena_array(ir->arena, struct ir3_register *, nsrc) : NULL;
	i->type = TYPE_U32;
	i->dst_type = TYPE_U32;
	return i;
}

struct ir3_instruction *ir3_instr_create(struct ir3_block *block, enum ir3_opc opc,
					 unsigned ndst, unsigned nsrc)
{
	struct ir3_instruction *i = ir3_instr_new(block->ir, opc, ndst, nsrc);
	ir3_instr_append(block, i);
	return i;
}

void ir3_instr_append(struct ir3_block *b, struct ir3_instruction *i)
{
	i->block = b;
	i->prev = b->last;
	i->next = NULL;
	if (b->last)
		b->last->next = i;
	else
		b->first = i;
	b->last = i;
}

void ir3_instr_prepend(struct ir3_block *b, struct ir3_instruction *i)
{
	i->block = b;
	i->next = b->first;
	i->prev = NULL;
	if (b->first)
		b->first->prev = i;
	else
		b->last = i;
	b->first = i;
}

void ir3_instr_insert_before(struct ir3_instruction *pos, struct ir3_instruction *i)
{
	struct ir3_block *b = pos->block;
	i->block = b;
	i->next = pos;
	i->prev = pos->prev;
	if (pos->prev)
		pos->prev->next = i;
	else
		b->first = i;
	pos->prev = i;
}

void ir3_instr_insert_after(struct ir3_instruction *pos, struct ir3_instruction *i)
{
	if (pos->next)
		ir3_instr_insert_before(pos->next, i);
	else
		ir3_instr_append(pos->block, i);
}

void ir3_instr_remove(struct ir3_instruction *i)
{
	struct ir3_block *b = i->block;
	if (i->prev)
		i->prev->next = i->next;
	else
		b->first = i->next;
	if (i->next)
		i->next->prev = i->prev;
	else
		b->last = i->prev;
	i->prev = i->next = NULL;
}

struct ir3_instruction *ir3_block_terminator(struct ir3_block *b)
{
	struct ir3_instruction *last = b->last;
	while (last && ir3_is_meta(last))
		last = last->prev;
	return last && ir3_is_terminator(last) ? last : NULL;
}

void ir3_instr_insert_before_terminator(struct ir3_block *b, struct ir3_instruction *i)
{
	struct ir3_instruction *t = ir3_block_terminator(b);
	if (t)
		ir3_instr_insert_before(t, i);
	else
		ir3_instr_append(b, i);
}

void ir3_add_src(struct ir3_instruction *i, struct ir3_register *r)
{
	if (i->nsrc == i->src_cap)
		i->srcs = grow_regs(i->ir->arena, i->srcs, i->nsrc + 1, &i->src_cap);
	r->instr = i;
	i->srcs[i->nsrc++] = r;
}

void ir3_add_dst(struct ir3_instruction *i, struct ir3_register *r)
{
	if (i->ndst == i->dst_cap)
		i->dsts = grow_regs(i->ir->arena, i->dsts, i->ndst + 1, &i->dst_cap);
	r->instr = i;
	i->dsts[i->ndst++] = r;
}

static struct ir3 *instr_ir(struct ir3_instruction *i)
{
	return i->ir;
}

static struct ir3_register *reg_new(struct ir3 *ir, unsigned flags, unsigned ncomp)
{
	struct ir3_register *r = arena_new(ir->arena, struct ir3_register);
	r->flags = flags;
	r->wrmask = ncomp >= 32 ? ~0u : (1u << (ncomp ? ncomp : 1)) - 1;
	r->slot = -1;
	return r;
}

void ir3_reg_set_shape(struct ir3_register *r, const struct ir3_register *like)
{
	r->flags = (r->flags & ~(IR3_REG_HALF | IR3_REG_ARRAY)) |
		   (like->flags & (IR3_REG_HALF | IR3_REG_ARRAY));
	r->wrmask = like->wrmask;
	r->size = like->size;
	r->array_id = like->array_id;
}

struct ir3_register *ir3_dst_create(struct ir3_instruction *i, unsigned flags, unsigned ncomp)
{
	struct ir3 *ir = instr_ir(i);
	struct ir3_register *r = reg_new(ir, flags | IR3_REG_SSA, ncomp);
	r->name = ir->ndefs++;
	ir3_add_dst(i, r);
	return r;
}

struct ir3_register *ir3_dst_phys(struct ir3_instruction *i, unsigned flags, unsigned num,
				  unsigned ncomp)
{
	struct ir3_register *r = reg_new(instr_ir(i), flags | IR3_REG_ASSIGNED, ncomp);
	r->num = num;
	ir3_add_dst(i, r);
	return r;
}

struct ir3_register *ir3_src_ssa(struct ir3_instruction *i, struct ir3_register *def,
				 unsigned flags)
{
	unsigned cls = def->flags & (IR3_REG_HALF | IR3_REG_PREDICATE | IR3_REG_ADDR | IR3_REG_SHARED |
				     IR3_REG_ARRAY);
	struct ir3_register *r = reg_new(instr_ir(i), flags | cls | IR3_REG_SSA, 1);
	r->def = def;
	r->wrmask = def->wrmask;
	r->size = def->size;
	r->array_id = def->array_id;
	ir3_add_src(i, r);
	return r;
}

struct ir3_register *ir3_src_array(struct ir3_instruction *i, unsigned id, unsigned size,
				   unsigned flags)
{
	struct ir3_register *r = reg_new(instr_ir(i), flags | IR3_REG_ARRAY | IR3_REG_SSA, 1);
	r->array_id = id;
	r->size = size;
	ir3_add_src(i, r);
	return r;
}

struct ir3_register *ir3_dst_array(struct ir3_instruction *i, unsigned id, unsigned size,
				   unsigned flags)
{
	struct ir3_register *r = ir3_dst_create(i, flags | IR3_REG_ARRAY, 1);
	r->array_id = id;
	r->size = size;
	return r;
}

struct ir3_register *ir3_src_imm(struct ir3_instruction *i, uint32_t bits, unsigned flags)
{
	struct ir3_register *r = reg_new(instr_ir(i), flags | IR3_REG_IMMED, 1);
	r->uim = bits;
	ir3_add_src(i, r);
	return r;
}

struct ir3_register *ir3_src_const(struct ir3_instruction *i, unsigned comp, unsigned flags)
{
	struct ir3_register *r = reg_new(instr_ir(i), flags | IR3_REG_CONST, 1);
	r->num = comp;
	ir3_add_src(i, r);
	return r;
}

struct ir3_register *ir3_src_phys(struct ir3_instruction *i, unsigned flags, unsigned num,
				  unsigned ncomp)
{
	struct ir3_register *r = reg_new(instr_ir(i), flags | IR3_REG_ASSIGNED, ncomp);
	r->num = num;
	ir3_add_src(i, r);
	return r;
}

struct ir3_register *ir3_reg_clone(struct ir3 *ir, const struct ir3_register *src)
{
	struct ir3_register *r = arena_new(ir->arena, struct ir3_register);
	*r = *src;
	return r;
}

struct ir3_instruction *ir3_instr_copy_shell(struct ir3_instruction *orig)
{
	struct ir3_instruction *i = ir3_instr_new(orig->ir, orig->opc, orig->ndst, orig->nsrc);
	struct ir3_register **dsts = i->dsts, **srcs = i->srcs;
	unsigned serial = i->serial;
	*i = *orig;
	i->serial = serial;
	i->dsts = dsts;
	i->srcs = srcs;
	i->prev = i->next = NULL;
	i->data = NULL;
	i->rpt_id = 0;		/* a copy is in no repeat group (Mesa's clones) */
	i->rpt_orig = NULL;
	return i;
}

struct ir3_instruction *ir3_instr_clone(struct ir3_instruction *orig)
{
	struct ir3 *ir = orig->ir;
	struct ir3_instruction *i = ir3_instr_copy_shell(orig);
	for (unsigned n = 0; n < orig->ndst; n++) {
		struct ir3_register *r = ir3_reg_clone(ir, orig->dsts[n]);
		if (r->flags & IR3_REG_SSA)
			r->name = ir->ndefs++;
		r->instr = i;
		r->merge_set = NULL;
		i->dsts[n] = r;
	}
	for (unsigned n = 0; n < orig->nsrc; n++) {
		i->srcs[n] = ir3_reg_clone(ir, orig->srcs[n]);
		i->srcs[n]->instr = i;
	}
	return i;
}

unsigned ir3_const_add_imm(struct ir3 *ir, uint32_t bits)
{
	for (unsigned n = 0; n < ir->nimmediates; n++)
		if (ir->immediates[n] == bits)
			return ir->const_size * 4 + n;
	if (ir->nimmediates == ir->immediates_cap) {
		unsigned cap = ir->immediates_cap ? ir->immediates_cap * 2 : 8;
		ir->immediates = arena_realloc(ir->arena, ir->immediates,
					       sizeof(uint32_t) * ir->immediates_cap,
					       sizeof(uint32_t) * cap);
		ir->immediates_cap = cap;
	}
	ir->immediates[ir->nimmediates] = bits;
	return ir->const_size * 4 + ir->nimmediates++;
}

/* ------------------------------------------------------------------ */
/* CFG */

void ir3_block_link(struct ir3_block *from, struct ir3_block *to)
{
	if (!from->succ[0])
		from->succ[0] = to;
	else if (!from->succ[1])
		from->succ[1] = to;
	else
		BUG("block has more than two successors");
}

void ir3_index_blocks(struct ir3 *ir)
{
	unsigned n = 0;
	foreach_block(b, ir)
		b->index = n++;
	ir->nblocks = n;
}

void ir3_calc_preds(struct ir3 *ir)
{
	ir3_index_blocks(ir);
	foreach_block(b, ir)
		b->npreds = 0;
	foreach_block(b, ir)
		for (int s = 0; s < 2; s++)
			if (b->succ[s])
				b->succ[s]->npreds++;
	foreach_block(b, ir) {
		if (b->npreds > b->preds_cap) {
			b->preds_cap = b->npreds + 2;
			b->preds = arena_array(ir->arena, struct ir3_block *, b->preds_cap);
		}
		b->npreds = 0;
	}
	foreach_block(b, ir)
		for (int s = 0; s < 2; s++)
			if (b->succ[s] && (s == 0 || b->succ[1] != b->succ[0]))
				b->succ[s]->preds[b->succ[s]->npreds++] = b;
}

void ir3_block_add_pred(struct ir3_block *b, struct ir3_block *pred)
{
	for (unsigned n = 0; n < b->npreds; n++)
		if (b->preds[n] == pred)
			return;
	if (b->npreds == b->preds_cap) {
		unsigned cap = b->preds_cap ? b->preds_cap * 2 : 4;
		struct ir3_block **p = arena_array(b->ir->arena, struct ir3_block *, cap);
		if (b->npreds)
			memcpy(p, b->preds, sizeof(*p) * b->npreds);
		b->preds = p;
		b->preds_cap = cap;
	}
	b->preds[b->npreds++] = pred;
}

void ir3_block_remove_pred(struct ir3_block *b, struct ir3_block *pred)
{
	unsigned out = 0;
	for (unsigned n = 0; n < b->npreds; n++)
		if (b->preds[n] != pred)
			b->preds[out++] = b->preds[n];
	b->npreds = out;
}

unsigned ir3_pred_index(struct ir3_block *b, struct ir3_block *pred)
{
	for (unsigned n = 0; n < b->npreds; n++)
		if (b->preds[n] == pred)
			return n;
	BUG("block %u is not a predecessor of block %u", pred->index, b->index);
}

/* Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm", over a
 * reverse postorder of the blocks reachable from the first one. */
struct dom_ctx {
	struct ir3_block **rpo;
	unsigned *order;		/* block index → position in rpo, or ~0 */
	unsigned n;
};

static void dfs_post(struct dom_ctx *c, struct ir3_block *b, bool *seen,
		     struct ir3_block **post, unsigned *np)
{
	seen[b->index] = true;
	for (int s = 1; s >= 0; s--)
		if (b->succ[s] && !seen[b->succ[s]->index])
			dfs_post(c, b->succ[s], seen, post, np);
	post[(*np)++] = b;
}

static struct ir3_block *intersect(struct dom_ctx *c, struct ir3_block *a, struct ir3_block *b)
{
	while (a != b) {
		while (c->order[a->index] > c->order[b->index])
			a = a->idom;
		while (c->order[b->index] > c->order[a->index])
			b = b->idom;
	}
	return a;
}

/* Children lists of the dominator tree, in program order: `first[b]` and
 * `sibling[c]` index blocks (~0u: none). */
static void dom_children(struct ir3 *ir, unsigned *first, unsigned *sibling)
{
	foreach_block(b, ir)
		first[b->index] = sibling[b->index] = ~0u;
	foreach_block_rev(c, ir)
		if (c->idom && c->idom != c) {
			sibling[c->index] = first[c->idom->index];
			first[c->idom->index] = c->index;
		}
}

static unsigned number_dom_tree(struct ir3_block **blocks, const unsigned *first,
				const unsigned *sibling, struct ir3_block *b, unsigned n)
{
	b->dom_pre = n++;
	for (unsigned c = first[b->index]; c != ~0u; c = sibling[c])
		n = number_dom_tree(blocks, first, sibling, blocks[c], n);
	b->dom_post = n++;
	return n;
}

void ir3_calc_dominance(struct ir3 *ir)
{
	ir3_index_blocks(ir);
	struct arena *a = ir->arena;
	struct dom_ctx c = { 0 };
	bool *seen = arena_array(a, bool, ir->nblocks);
	struct ir3_block **post = arena_array(a, struct ir3_block *, ir->nblocks);
	c.order = arena_array(a, unsigned, ir->nblocks);
	unsigned np = 0;
	foreach_block(b, ir)
		b->idom = NULL;
	if (!ir->first)
		return;
	dfs_post(&c, ir->first, seen, post, &np);
	for (unsigned n = 0; n < ir->nblocks; n++)
		c.order[n] = ~0u;
	for (unsigned n = 0; n < np; n++)
		c.order[post[np - 1 - n]->index] = n;
	ir->first->idom = ir->first;
	bool changed = true;
	while (changed) {
		changed = false;
		for (unsigned n = 1; n < np; n++) {
			struct ir3_block *b = post[np - 1 - n], *idom = NULL;
			for (unsigned p = 0; p < b->npreds; p++) {
				struct ir3_block *pred = b->preds[p];
				if (c.order[pred->index] == ~0u || !pred->idom)
					continue;
				idom = idom ? intersect(&c, pred, idom) : pred;
			}
			if (idom != b->idom) {
				b->idom = idom;
				changed = true;
			}
		}
	}
	unsigned *first = arena_array(a, unsigned, ir->nblocks);
	unsigned *sibling = arena_array(a, unsigned, ir->nblocks);
	struct ir3_block **blocks = arena_array(a, struct ir3_block *, ir->nblocks);
	foreach_block(b, ir)
		blocks[b->index] = b;
	dom_children(ir, first, sibling);
	number_dom_tree(blocks, first, sibling, ir->first, 0);
}

void ir3_dom_children(struct ir3 *ir, unsigned *first, unsigned *sibling)
{
	dom_children(ir, first, sibling);
}

bool ir3_block_dominates(const struct ir3_block *a, const struct ir3_block *b)
{
	return a->dom_pre <= b->dom_pre && b->dom_post <= a->dom_post;
}

/* ------------------------------------------------------------------ */
/* builder */

struct ir3_instruction *ir3_b_instr(struct ir3_builder *b, enum ir3_opc opc, unsigned ndst,
				   unsigned nsrc)
{
	struct ir3_instruction *i = ir3_instr_new(b->block->ir, opc, ndst, nsrc);
	if (b->before)
		ir3_instr_insert_before(b->before, i);
	else
		ir3_instr_append(b->block, i);
	return i;
}

static unsigned type_flags(enum ir3_type t)
{
	return ir3_type_is_half(t) ? IR3_REG_HALF : 0;
}

struct ir3_register *ir3_b_input(struct ir3_builder *b, unsigned flags, unsigned ncomp, bool bary)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_META_INPUT, 1, 0);
	i->bary_input = bary;
	return ir3_dst_create(i, flags, ncomp);
}

struct ir3_register *ir3_b_cov(struct ir3_builder *b, enum ir3_type from, enum ir3_type to,
			       struct ir3_register *src)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_MOV, 1, 1);
	i->type = from;
	i->dst_type = to;
	struct ir3_register *d = ir3_dst_create(i, type_flags(to), 1);
	if (src->flags & IR3_REG_SSA) {
		ir3_src_ssa(i, src, 0);
	} else {
		struct ir3_register *r = ir3_reg_clone(b->block->ir, src);
		ir3_add_src(i, r);
	}
	return d;
}

struct ir3_register *ir3_b_mov(struct ir3_builder *b, enum ir3_type type, struct ir3_register *src)
{
	return ir3_b_cov(b, type, type, src);
}

struct ir3_register *ir3_b_imm(struct ir3_builder *b, enum ir3_type type, uint32_t bits)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_MOV, 1, 1);
	i->type = i->dst_type = type;
	struct ir3_register *d = ir3_dst_create(i, type_flags(type), 1);
	ir3_src_imm(i, bits, type_flags(type));
	return d;
}

struct ir3_register *ir3_b_const(struct ir3_builder *b, enum ir3_type type, unsigned comp)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_MOV, 1, 1);
	i->type = i->dst_type = type;
	struct ir3_register *d = ir3_dst_create(i, type_flags(type), 1);
	ir3_src_const(i, comp, type_flags(type));
	return d;
}

static struct ir3_register *alu(struct ir3_builder *b, enum ir3_opc opc, unsigned dflags,
				unsigned n, struct ir3_register **srcs)
{
	struct ir3_instruction *i = ir3_b_instr(b, opc, 1, n);
	struct ir3_register *d = ir3_dst_create(i, dflags, 1);
	for (unsigned k = 0; k < n; k++)
		ir3_src_ssa(i, srcs[k], 0);
	return d;
}

struct ir3_register *ir3_b_alu1(struct ir3_builder *b, enum ir3_opc opc, struct ir3_register *a)
{
	return alu(b, opc, a->flags & IR3_REG_HALF, 1, &a);
}

struct ir3_register *ir3_b_alu2(struct ir3_builder *b, enum ir3_opc opc, struct ir3_register *a,
				struct ir3_register *c)
{
	struct ir3_register *s[2] = { a, c };
	return alu(b, opc, a->flags & IR3_REG_HALF, 2, s);
}

struct ir3_register *ir3_b_alu3(struct ir3_builder *b, enum ir3_opc opc, struct ir3_register *a,
				struct ir3_register *c, struct ir3_register *d)
{
	struct ir3_register *s[3] = { a, c, d };
	return alu(b, opc, a->flags & IR3_REG_HALF, 3, s);
}

struct ir3_register *ir3_b_cmp(struct ir3_builder *b, enum ir3_opc opc, enum ir3_cond cond,
			       unsigned dst_flags, struct ir3_register *a, struct ir3_register *c)
{
	struct ir3_register *s[2] = { a, c };
	struct ir3_register *d = alu(b, opc, dst_flags, 2, s);
	d->instr->cond = cond;
	return d;
}

struct ir3_register *ir3_b_bary(struct ir3_builder *b, unsigned inloc, struct ir3_register *ij)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_BARY_F, 1, 2);
	struct ir3_register *d = ir3_dst_create(i, 0, 1);
	ir3_src_imm(i, inloc, 0);
	ir3_src_ssa(i, ij, 0);
	return d;
}

struct ir3_register *ir3_b_collect(struct ir3_builder *b, unsigned n, struct ir3_register **srcs)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_META_COLLECT, 1, n);
	struct ir3_register *d = ir3_dst_create(i, srcs[0]->flags & IR3_REG_HALF, n);
	for (unsigned k = 0; k < n; k++)
		ir3_src_ssa(i, srcs[k], 0);
	return d;
}

struct ir3_register *ir3_b_split(struct ir3_builder *b, struct ir3_register *vec, unsigned comp)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_META_SPLIT, 1, 1);
	i->off = (int)comp;
	struct ir3_register *d = ir3_dst_create(i, vec->flags & IR3_REG_HALF, 1);
	ir3_src_ssa(i, vec, 0);
	return d;
}

struct ir3_register *ir3_b_tex(struct ir3_builder *b, enum ir3_opc opc, enum ir3_type type,
			       unsigned wrmask, unsigned tex, unsigned samp, unsigned nsrc,
			       struct ir3_register **srcs)
{
	struct ir3_instruction *i = ir3_b_instr(b, opc, 1, nsrc);
	i->type = type;
	i->tex = tex;
	i->samp = samp;
	struct ir3_register *d = ir3_dst_create(i, type_flags(type), 1);
	d->wrmask = wrmask;
	for (unsigned k = 0; k < nsrc; k++)
		ir3_src_ssa(i, srcs[k], 0);
	return d;
}

struct ir3_register *ir3_b_phi(struct ir3_block *block, unsigned flags, unsigned ncomp)
{
	struct ir3_instruction *i = ir3_instr_new(block->ir, OPC_META_PHI, 1, 2);
	ir3_instr_prepend(block, i);
	return ir3_dst_create(i, flags, ncomp);
}

void ir3_phi_add_src(struct ir3_register *phi, struct ir3_block *pred, struct ir3_register *value)
{
	struct ir3_register *r = ir3_src_ssa(phi->instr, value, 0);
	r->pred = pred;
}

struct ir3_register *ir3_phi_src(struct ir3_instruction *phi, struct ir3_block *pred)
{
	for (unsigned n = 0; n < phi->nsrc; n++)
		if (phi->srcs[n]->pred == pred)
			return phi->srcs[n];
	return NULL;
}

struct ir3_instruction *ir3_b_end(struct ir3_builder *b, unsigned n, struct ir3_register **srcs)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_END, 0, n);
	for (unsigned k = 0; k < n; k++)
		ir3_src_ssa(i, srcs[k], 0);
	return i;
}

struct ir3_instruction *ir3_b_jump(struct ir3_builder *b, struct ir3_block *to)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_JUMP, 0, 0);
	i->target = to;
	ir3_block_link(b->block, to);
	return i;
}

struct ir3_instruction *ir3_b_br(struct ir3_builder *b, struct ir3_register *pred,
				 struct ir3_block *then, struct ir3_block *otherwise)
{
	struct ir3_instruction *i = ir3_b_instr(b, OPC_BR, 0, 1);
	ir3_src_ssa(i, pred, 0);
	i->target = then;
	ir3_block_link(b->block, then);
	ir3_block_link(b->block, otherwise);
	return i;
}

/* ------------------------------------------------------------------ */
/* properties the passes ask */

bool ir3_is_ss_producer(const struct ir3_instruction *i)
{
	for (unsigned n = 0; n < i->ndst; n++)
		if (i->dsts[n]->flags & IR3_REG_SHARED)
			return true;
	return ir3_is_sfu(i) || ir3_is_local_load(i) || ir3_has_flag(i, IR3_OP_SSDST) ||
	       (ir3_has_flag(i, IR3_OP_ATOMIC) && ir3_has_flag(i, IR3_OP_LOCAL));
}

bool ir3_is_sy_producer(const struct ir3_instruction *i)
{
	if (ir3_is_tex(i))
		return i->ndst > 0;
	if (ir3_has_flag(i, IR3_OP_LOAD))
		return !ir3_has_flag(i, IR3_OP_LOCAL);
	return ir3_has_flag(i, IR3_OP_ATOMIC) && !ir3_has_flag(i, IR3_OP_LOCAL);
}

bool ir3_is_war_producer(const struct ir3_instruction *i)
{
	return ir3_is_tex(i) || ir3_is_mem(i) || ir3_is_ss_producer(i);
}

bool ir3_supports_ss(const struct ir3_instruction *i)
{
	return ir3_cat(i) < 5 || i->opc == OPC_ALIAS;
}

bool ir3_writes_addr(const struct ir3_instruction *i)
{
	return i->ndst && (i->dsts[0]->flags & IR3_REG_ADDR);
}

bool ir3_writes_pred(const struct ir3_instruction *i)
{
	return i->ndst && (i->dsts[0]->flags & IR3_REG_PREDICATE);
}

bool ir3_is_same_type_mov(const struct ir3_instruction *i)
{
	switch (i->opc) {
	case OPC_MOV:
		if (i->type != i->dst_type)
			return false;
		break;
	case OPC_ABSNEG_F:
	case OPC_ABSNEG_S:
		if (i->flags & IR3_INSTR_SAT)
			return false;
		break;
	case OPC_META_PHI:
		if (i->nsrc != 1)
			return false;
		break;
	default:
		return false;
	}
	if (i->repeat || i->ndst != 1 || i->nsrc < 1)
		return false;
	const struct ir3_register *d = i->dsts[0], *s = i->srcs[0];
	if (d->flags & (IR3_REG_RELATIV | IR3_REG_SHARED | IR3_REG_PREDICATE | IR3_REG_ADDR))
		return false;
	/* an array access reads or writes one version of the array: not a copy */
	if ((d->flags | s->flags) & IR3_REG_ARRAY)
		return false;
	/* the source has the destination's size (Mesa's is_same_type_reg) */
	return (d->flags & IR3_REG_HALF) == (s->flags & IR3_REG_HALF);
}

/* ------------------------------------------------------------------ */
/* encoding rules (targets.md §1.5) */

bool ir3_valid_flags(const struct ir3_instruction *i, unsigned n, unsigned flags)
{
	const struct ir3_opc_info *op = ir3_op(i->opc);
	unsigned slot = op->src_flags[n < 3 ? n : 3];
	unsigned mask = IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_RELATIV | IR3_REG_SHARED |
			IR3_REG_MODS;
	bool dst_shared = i->ndst && (i->dsts[0]->flags & IR3_REG_SHARED);

	if ((flags & mask) & ~slot)
		return false;

	switch (op->cat) {
	case 2:
		/* flat.b ignores src1, which may be an immediate beside an
		 * immediate src0 (flat.b r0.x, 4, 4) */
		if (i->opc == OPC_FLAT_B)
			return true;
		if (flags & (IR3_REG_CONST | IR3_REG_IMMED | IR3_REG_SHARED)) {
			unsigned m = n ^ 1;
			if (m < i->nsrc) {
				unsigned other = i->srcs[m]->flags;
				/* at most one const (or shared) between the two sources */
				if ((flags & (IR3_REG_CONST | IR3_REG_SHARED)) &&
				    (other & (IR3_REG_CONST | IR3_REG_SHARED)))
					return false;
				if ((flags & IR3_REG_IMMED) && (other & IR3_REG_IMMED))
					return false;
			}
		}
		return true;
	case 3:
		/* src1 takes no const/relative/shared for a vector destination */
		if (n == 1 && !dst_shared && (flags & (IR3_REG_CONST | IR3_REG_RELATIV | IR3_REG_SHARED)))
			return false;
		return true;
	case 4:
		return (flags & IR3_REG_SHARED) == (dst_shared ? IR3_REG_SHARED : 0u);
	case 8:
		if (flags & (IR3_REG_IMMED | IR3_REG_CONST))
			return true;
		return (flags & IR3_REG_SHARED) == (dst_shared ? IR3_REG_SHARED : 0u);
	default:
		return true;
	}
}

bool ir3_valid_immediate(const struct ir3_instruction *i, int32_t imm)
{
	if (i->opc == OPC_MOV || ir3_is_meta(i) || i->opc == OPC_ALIAS)
		return true;
	if (ir3_is_mem(i)) {
		switch (i->opc) {
		/* 13-bit offsets and sizes: the front end's responsibility */
		case OPC_LDL: case OPC_STL: case OPC_LDP: case OPC_STP: case OPC_LDG:
		case OPC_STG: case OPC_LDG_A: case OPC_STG_A: case OPC_LDLW: case OPC_STLW:
		case OPC_LDLV:
			return true;
		default:
			return !(imm & ~0xff);
		}
	}
	if (ir3_has_flag(i, IR3_OP_ALT))
		return !(imm & ~0xfff);
	/* 10 bits, sign-extended: −512..511 */
	return imm >= -512 && imm <= 511;
}

static uint16_t float_to_half(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000;
	int exp = (int)((x >> 23) & 0xff) - 127 + 15;
	uint32_t mant = x & 0x7fffff;
	if (((x >> 23) & 0xff) == 0)
		return (uint16_t)sign;
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (exp <= 0)
		return (uint16_t)sign;
	uint32_t h = sign | ((uint32_t)exp << 10) | (mant >> 13);
	if ((mant >> 12) & 1)		/* round to nearest */
		h++;
	return (uint16_t)h;
}

/* Mesa's ir3_flut: the values float ALU ops encode as immediates. */
static const float flut_values[] = {
	0.0f, 0.5f, 1.0f, 2.0f, 2.718281828f /* e */, 3.14159265f /* pi */,
	0.318309886f /* 1/pi */, 0.693147181f /* 1/log2(e) */, 1.442695041f /* log2(e) */,
	0.301029996f /* 1/log2(10) */, 3.321928095f /* log2(10) */, 4.0f,
};

int ir3_flut(uint32_t bits, bool half)
{
	for (unsigned n = 0; n < sizeof(flut_values) / sizeof(flut_values[0]); n++) {
		uint32_t v;
		if (half) {
			v = float_to_half(flut_values[n]);
		} else {
			memcpy(&v, &flut_values[n], 4);
		}
		if (v == bits)
			return (int)n;
	}
	return -1;
}

bool ir3_imm_encodable(const struct ir3_instruction *i, const struct ir3_register *r)
{
	if (ir3_cat(i) == 2 && ir3_has_flag(i, IR3_OP_FLOAT))
		return ir3_flut(r->uim, r->flags & IR3_REG_HALF) >= 0;
	return ir3_valid_immediate(i, r->iim);
}

void ir3_reg_name(struct strbuf *sb, unsigned num, bool half)
{
	strbuf_addf(sb, "%sr%u.%c", half ? "h" : "", num >> 2, "xyzw"[num & 3]);
}
