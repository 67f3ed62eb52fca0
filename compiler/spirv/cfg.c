/*
 * Structured control flow and calls: the entry point's blocks become the
 * IR's ifs and loops, every call is inlined.
 *
 * A region is a run of blocks that ends at a known label (an if branch at
 * its selection merge, a loop body at its continue target, a continue
 * construct at its loop header) or at a terminator.  emit_region() walks
 * one, block by block; every branch target is classified against the
 * enclosing constructs:
 *
 *	the region's end          fall through (nothing to emit)
 *	the innermost loop merge  `break`
 *	its continue target       the continue construct, then `continue`
 *	the innermost switch's merge, or a return from an inlined function,
 *	                          where no IR jump fits: an escape (below)
 *	anything else             the next block of the region
 *
 * Selections become ifs; a conditional branch without a merge (`if (c)
 * break;`) becomes an if around its jump; a loop is `loop { header; body;
 * continue construct }`, the continue construct copied before every
 * `continue`; a switch becomes an else-if chain on the selector, cases that
 * fall through into the next one grouped under one condition with the
 * earlier cases guarded (SPIR-V orders fall-through cases consecutively).
 *
 * Escapes.  A switch break from inside nested ifs, or a `return` from an
 * inlined function inside its ifs and loops, sets a flag (a bool local,
 * false at the top of the shader and again after its construct) and leaves
 * its region; the rest of each enclosing region runs under `if (!flag)`,
 * and a loop it left with `break` is followed by `if (flag) break;` while
 * another loop lies between it and its construct.  A return from the entry
 * point is the IR's `return`.
 *
 * Phis travel through locals: each predecessor stores its value before its
 * branch, the phi's block loads it; lower_vars_to_ssa makes phis again.
 * Kill, TerminateInvocation and Unreachable end a region with nothing after
 * them (the IR's discard and terminate stop the invocation).
 */
#include <string.h>

#include "compiler/spirv/spirv_private.h"

struct frame {
	struct spv_func *f;
	bool entry;
	struct spv_var *ret_var;	/* the return value, when a return escapes */
	struct spv_val *ret_val;	/* the value of the final top-level return */
	int ret_flag;			/* local index, or -1 */
	struct cf_region *top;
};

struct loopctx {
	uint32_t header, merge, cont;
	struct cf_loop *loop;
};

struct switchctx {
	uint32_t merge;
	uint32_t *labels;
	unsigned num_labels;
	int brk_flag;			/* local index, or -1 */
};

enum region_kind { R_FUNC, R_LOOP, R_CONT, R_IF, R_CASE };

struct escape {
	int flag;			/* local index */
	void *target;			/* the switchctx or frame consuming it */
	struct loopctx *broke;		/* the loop it left by `break`, or NULL */
};

/* A list of escapes, in the reader's arena (an error longjmps out): as many
 * as the shader has, no fixed limit. */
struct escapes {
	struct escape *v;
	unsigned n, cap;
};

struct cf_region {
	struct cf_region *parent;
	enum region_kind kind;
	uint32_t end;			/* the label ending it, 0: none */
	struct frame *frame;
	struct loopctx *loop;		/* R_LOOP, R_CONT */
	struct switchctx *sw;		/* R_CASE */
	bool last_in_chain;		/* R_CASE: a break at its top level is natural */
	struct escapes esc;		/* distinct (flag, broke) pairs leaving it */
	struct cf_if **guards;		/* the `if (!flag)` around its rest, open */
	unsigned num_guards, cap_guards;
};

enum tgt {
	TGT_NORMAL, TGT_END, TGT_BREAK, TGT_CONTINUE, TGT_SWITCH_BREAK,
};

static bool emit_region(struct spv *r, struct cf_region *R, uint32_t label);

static struct spv_block *block_of(struct spv *r, uint32_t label)
{
	struct spv_id *x = spv_id(r, label);
	if (x->kind != ID_LABEL)
		spv_fail(r, "%%%u is not a label", label);
	return x->block;
}

static void child(struct cf_region *c, struct cf_region *parent, enum region_kind kind,
		  uint32_t end)
{
	memset(c, 0, sizeof(*c));
	c->parent = parent;
	c->kind = kind;
	c->end = end;
	c->frame = parent->frame;
	c->loop = parent->loop;
	c->sw = parent->sw;
}

/* ---- flags ---- */

static int new_flag(struct spv *r)
{
	struct local_decl *d = shader_add_local(r->s);
	d->num_elements = 1;
	d->num_components = 1;
	d->bit_size = 1;
	d->name = "flag";
	int flag = (int)r->s->num_locals - 1;
	struct ssa_def *off = spv_imm_u32(r, 0);
	struct ssa_def *f = spv_imm(r, 1, 1, (uint64_t[]){ 0 });
	struct builder top;
	builder_init(&top, r->s, spv_top_cursor(r));
	b_store_local(&top, f, (unsigned)flag, 0, 1, off);
	/* the store: later constants go after it */
	r->last_const = top.cursor.instr;
	return flag;
}

static void set_flag(struct spv *r, int flag, bool v)
{
	b_store_local(&r->b, spv_imm(r, 1, 1, (uint64_t[]){ v }), (unsigned)flag, 0, 1,
		      spv_imm_u32(r, 0));
}

static struct ssa_def *read_flag(struct spv *r, int flag)
{
	return b_load_local(&r->b, (unsigned)flag, 0, spv_imm_u32(r, 0));
}

/* ---- escapes ---- */

/* Add e to the list unless it holds one with its flag and loop already. */
static void escapes_add(struct spv *r, struct escapes *l, struct escape e)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i].flag == e.flag && l->v[i].broke == e.broke)
			return;
	if (l->n == l->cap) {
		unsigned cap = l->cap ? 2 * l->cap : 4;
		l->v = arena_realloc(&r->arena, l->v, l->cap * sizeof(*l->v), cap * sizeof(*l->v));
		l->cap = cap;
	}
	l->v[l->n++] = e;
}

static void escapes_add_all(struct spv *r, struct escapes *to, const struct escapes *from)
{
	for (unsigned i = 0; i < from->n; i++)
		escapes_add(r, to, from->v[i]);
}

static void add_escape(struct spv *r, struct cf_region *R, struct escape e)
{
	escapes_add(r, &R->esc, e);
}

/* The innermost loop between R and the construct `target` (a frame or a
 * switch), or NULL. */
static struct loopctx *loop_between(struct cf_region *R, void *target)
{
	for (struct cf_region *x = R; x; x = x->parent) {
		if ((x->kind == R_LOOP || x->kind == R_CONT) && x->loop)
			return x->loop;
		if (x->kind == R_FUNC || (x->kind == R_CASE && x->sw == target))
			return NULL;
	}
	return NULL;
}

static void open_guard(struct spv *r, struct cf_region *R, const struct escapes *list)
{
	struct ssa_def *any = NULL;
	for (unsigned i = 0; i < list->n; i++) {
		struct ssa_def *f = read_flag(r, list->v[i].flag);
		any = any ? b_ior(&r->b, any, f) : f;
	}
	if (r->depth + 1 > SPV_MAX_NESTING)
		spv_unsupported(r, "control flow nested more than %u deep", SPV_MAX_NESTING);
	if (R->num_guards == R->cap_guards) {
		unsigned cap = R->cap_guards ? 2 * R->cap_guards : 4;
		R->guards = arena_realloc(&r->arena, R->guards, R->cap_guards * sizeof(*R->guards),
					  cap * sizeof(*R->guards));
		R->cap_guards = cap;
	}
	r->depth++;
	R->guards[R->num_guards++] = b_push_if(&r->b, b_inot(&r->b, any));
}

/*
 * Escapes coming out of a construct just emitted in region R (`closed`: the
 * loop that construct was, if any): those that left `closed` by a break
 * leave the next loop too, or make the rest of R conditional; flag-only
 * ones make the rest of R conditional.
 */
static void absorb(struct spv *r, struct cf_region *R, const struct escapes *list,
		   struct loopctx *closed)
{
	struct escapes guard = { 0 };
	for (unsigned i = 0; i < list->n; i++) {
		struct escape e = list->v[i];
		if (e.broke && e.broke != closed) {
			add_escape(r, R, e);	/* already out of a loop around R */
			continue;
		}
		struct loopctx *next = loop_between(R, e.target);
		if (next) {
			struct cf_if *nif = b_push_if(&r->b, read_flag(r, e.flag));
			b_break(&r->b);
			b_pop_if(&r->b, nif);
			e.broke = next;
			add_escape(r, R, e);
		} else {
			e.broke = NULL;
			add_escape(r, R, e);
			escapes_add(r, &guard, e);
		}
	}
	if (guard.n)
		open_guard(r, R, &guard);
}

static void close_guards(struct spv *r, struct cf_region *R)
{
	while (R->num_guards) {
		b_pop_if(&r->b, R->guards[--R->num_guards]);
		r->depth--;
	}
}

/* ---- phis ---- */

static struct spv_var *phi_var(struct spv *r, uint32_t id)
{
	struct spv_id *x = spv_id(r, id);
	if (!x->phi_var)
		x->phi_var = spv_temp_var(r, x->type, spv_id_name(r, id));
	return x->phi_var;
}

/* Before `from` branches to `to`: store the values `to`'s phis take from it. */
static void store_phis(struct spv *r, struct spv_block *from, uint32_t to)
{
	struct spv_block *blk = block_of(r, to);
	size_t save = r->cur;
	for (size_t at = blk->begin; at < r->num_words && spv_opcode(r, at) == SpvOpPhi;
	     at += spv_count(r, at)) {
		r->cur = at;
		for (unsigned i = 3; i + 1 < spv_nwords(r); i += 2) {
			if (spv_word(r, i + 1) != from->label)
				continue;
			uint32_t value = spv_word(r, i);
			struct spv_id *x = spv_id(r, value);
			if (x->kind == ID_NONE && x->in_function)
				break;	/* not defined on this path: undefined */
			struct spv_val *v = spv_get_val(r, value);
			struct spv_var *pv = phi_var(r, spv_word(r, 2));
			if (!spv_types_match(v->type, pv->type))
				spv_fail(r, "a phi of %s takes %s", spv_type_str(r, pv->type),
					 spv_type_str(r, v->type));
			spv_store(r, spv_var_ptr(r, pv), v, 0);
			break;
		}
	}
	r->cur = save;
}

/* ---- blocks ---- */

static void emit_block_body(struct spv *r, struct spv_block *blk)
{
	spv_budget(r, 1);
	for (size_t at = blk->begin; at < blk->term; at += spv_count(r, at)) {
		r->cur = at;
		if (spv_opcode(r, at) == SpvOpPhi) {
			uint32_t id = spv_result_id(r);
			struct spv_val *v = spv_load(r, spv_var_ptr(r, phi_var(r, id)), 0);
			spv_set_val(r, id, v);
			continue;
		}
		spv_instr(r);
	}
	r->cur = blk->term;
}

/* ---- branch targets ---- */

static bool is_case_label(const struct switchctx *sw, uint32_t label)
{
	for (unsigned i = 0; i < sw->num_labels; i++)
		if (sw->labels[i] == label)
			return true;
	return false;
}

static enum tgt classify(struct spv *r, struct cf_region *R, uint32_t T)
{
	if (R->end && T == R->end)
		return TGT_END;
	if (R->kind == R_CASE && R->sw) {
		if (T == R->sw->merge)
			return R->last_in_chain ? TGT_END : TGT_SWITCH_BREAK;
		if (is_case_label(R->sw, T))
			return TGT_END;
	}
	bool in_cont = false;
	for (struct cf_region *x = R; x; x = x->parent) {
		if (x->kind == R_CONT)
			in_cont = true;
		if ((x->kind == R_LOOP || x->kind == R_CONT) && x->loop) {
			struct loopctx *L = x->loop;
			if (T == L->merge)
				return TGT_BREAK;
			if (T == L->cont && !in_cont)
				return TGT_CONTINUE;
			if (T == L->header)
				return in_cont ? TGT_END : TGT_CONTINUE;
			break;
		}
		if (x->kind == R_FUNC)
			break;
	}
	for (struct cf_region *x = R; x && x->kind != R_FUNC; x = x->parent) {
		if ((x->kind == R_LOOP || x->kind == R_CONT) && x->loop)
			break;
		if (x->kind == R_CASE && x->sw && T == x->sw->merge)
			return TGT_SWITCH_BREAK;
	}
	for (struct cf_region *x = R->parent; x && x->kind != R_FUNC; x = x->parent)
		if (x->end == T)
			spv_unsupported(r, "a branch to %%%u out of a construct that does not end there",
					T);
	return TGT_NORMAL;
}

static struct loopctx *innermost_loop(struct cf_region *R)
{
	for (struct cf_region *x = R; x && x->kind != R_FUNC; x = x->parent)
		if ((x->kind == R_LOOP || x->kind == R_CONT) && x->loop)
			return x->loop;
	return NULL;
}

static struct switchctx *innermost_switch(struct cf_region *R)
{
	for (struct cf_region *x = R; x && x->kind != R_FUNC; x = x->parent)
		if (x->kind == R_CASE && x->sw)
			return x->sw;
	return NULL;
}

/* The continue construct of the innermost loop, then `continue`. */
static void emit_continue(struct spv *r, struct cf_region *R)
{
	struct loopctx *L = innermost_loop(R);
	bool falls = true;
	if (L->cont != L->header) {
		struct cf_region C;
		child(&C, R, R_CONT, L->header);
		C.loop = L;
		falls = emit_region(r, &C, L->cont);
		absorb(r, R, &C.esc, NULL);
	}
	if (falls)
		b_continue(&r->b);
}

/* Emit the jump a classified target needs; false when nothing follows. */
static bool jump(struct spv *r, struct cf_region *R, enum tgt t)
{
	switch (t) {
	case TGT_END:
		return true;
	case TGT_BREAK:
		b_break(&r->b);
		return false;
	case TGT_CONTINUE:
		emit_continue(r, R);
		return false;
	case TGT_SWITCH_BREAK: {
		struct switchctx *sw = innermost_switch(R);
		if (sw->brk_flag < 0)
			sw->brk_flag = new_flag(r);
		set_flag(r, sw->brk_flag, true);
		add_escape(r, R, (struct escape){ .flag = sw->brk_flag, .target = sw });
		return false;
	}
	default:
		spv_fail(r, "internal: a jump to a normal block");
	}
}

/* A jump that is a real IR jump (nothing after it runs). */
static bool is_ir_jump(enum tgt t)
{
	return t == TGT_BREAK || t == TGT_CONTINUE;
}

/* ---- returns ---- */

static void emit_return(struct spv *r, struct cf_region *R, uint32_t value)
{
	struct frame *fr = R->frame;
	struct spv_val *v = value ? spv_get_val(r, value) : NULL;
	if (v && !spv_types_match(v->type, fr->f->type->elem))
		spv_fail(r, "returning %s from a function of %s", spv_type_str(r, v->type),
			 spv_type_str(r, fr->f->type->elem));
	/* with outputs in locals the entry point returns to their copy at its end */
	if (fr->entry && !r->output_temps) {
		if (R != fr->top)
			b_return(&r->b);
		return;
	}
	if (R == fr->top && !fr->ret_var) {
		fr->ret_val = v;
		return;
	}
	if (v) {
		if (!fr->ret_var)
			fr->ret_var = spv_temp_var(r, fr->f->type->elem, "return_value");
		spv_store(r, spv_var_ptr(r, fr->ret_var), v, 0);
	}
	if (R == fr->top)
		return;
	if (fr->ret_flag < 0)
		fr->ret_flag = new_flag(r);
	set_flag(r, fr->ret_flag, true);
	struct loopctx *L = loop_between(R, fr);
	if (L)
		b_break(&r->b);
	add_escape(r, R, (struct escape){ .flag = fr->ret_flag, .target = fr, .broke = L });
}

/* ---- selections ---- */

static enum if_hint if_hint(struct spv *r, struct spv_block *blk)
{
	if (!blk->merge || blk->loop)
		return IF_HINT_none;
	uint32_t c = r->w[blk->merge + 2];
	return c & SpvSelectionControlFlattenMask ? IF_HINT_flatten :
	       c & SpvSelectionControlDontFlattenMask ? IF_HINT_dont_flatten : IF_HINT_none;
}

/* if (cond) { region(t) } else { region(f) }, both ending at `end`. */
static bool emit_if(struct spv *r, struct cf_region *R, struct ssa_def *cond, uint32_t t,
		    uint32_t f, uint32_t end, enum if_hint hint)
{
	struct cf_region T, F;
	if (++r->depth > SPV_MAX_NESTING)
		spv_unsupported(r, "control flow nested more than %u deep", SPV_MAX_NESTING);
	struct cf_if *nif = b_push_if(&r->b, cond);
	nif->hint = hint;
	child(&T, R, R_IF, end);
	bool ft = emit_region(r, &T, t);
	b_push_else(&r->b, nif);
	child(&F, R, R_IF, end);
	bool ff = emit_region(r, &F, f);
	b_pop_if(&r->b, nif);
	r->depth--;
	struct escapes all = { 0 };
	escapes_add_all(r, &all, &T.esc);
	escapes_add_all(r, &all, &F.esc);
	absorb(r, R, &all, NULL);
	return ft || ff;
}

/* A region like R, nested in an if: the rest of R after a conditional exit. */
static void clone_region(struct cf_region *c, struct cf_region *R)
{
	child(c, R, R->kind, R->end);
	c->last_in_chain = R->last_in_chain;
}

/*
 * A conditional branch without a selection merge: one side leaves the
 * region (break, continue, the region's end, a switch break).
 * Returns the label to go on with, or 0 when the region is done
 * (*falls: whether control may reach its end).
 */
static uint32_t branch_no_merge(struct spv *r, struct cf_region *R, struct ssa_def *cond,
				uint32_t t, uint32_t f, bool *falls)
{
	enum tgt ct = classify(r, R, t), cf = classify(r, R, f);
	struct builder *b = &r->b;
	if (t == f || (ct == TGT_NORMAL && cf == TGT_NORMAL)) {
		if (t != f)
			spv_unsupported(r, "a conditional branch to two blocks without a merge instruction");
		return t;
	}
	if (ct != TGT_NORMAL && cf != TGT_NORMAL) {
		struct cf_region T, F;
		struct cf_if *nif = b_push_if(b, cond);
		clone_region(&T, R);
		bool ft = jump(r, &T, ct);
		b_push_else(b, nif);
		clone_region(&F, R);
		bool ff = jump(r, &F, cf);
		b_pop_if(b, nif);
		struct escapes all = { 0 };
		escapes_add_all(r, &all, &T.esc);
		escapes_add_all(r, &all, &F.esc);
		absorb(r, R, &all, NULL);
		*falls = ft || ff;
		return 0;
	}
	/* one side leaves: the other goes on */
	bool leave_on_true = ct != TGT_NORMAL;
	enum tgt lt = leave_on_true ? ct : cf;
	uint32_t other = leave_on_true ? f : t;
	if (is_ir_jump(lt)) {
		struct cf_if *nif = b_push_if(b, cond);
		if (!leave_on_true)
			b_push_else(b, nif);
		struct cf_region J;
		clone_region(&J, R);
		jump(r, &J, lt);
		b_pop_if(b, nif);
		absorb(r, R, &J.esc, NULL);
		return other;
	}
	/* the rest of the region runs in the other branch */
	struct cf_region J, rest;
	if (++r->depth > SPV_MAX_NESTING)
		spv_unsupported(r, "control flow nested more than %u deep", SPV_MAX_NESTING);
	struct cf_if *nif = b_push_if(b, cond);
	clone_region(&J, R);
	clone_region(&rest, R);
	bool fj, fr;
	if (leave_on_true) {
		fj = jump(r, &J, lt);
		b_push_else(b, nif);
		fr = emit_region(r, &rest, other);
	} else {
		fr = emit_region(r, &rest, other);
		b_push_else(b, nif);
		fj = jump(r, &J, lt);
	}
	b_pop_if(b, nif);
	r->depth--;
	escapes_add_all(r, &R->esc, &J.esc);
	escapes_add_all(r, &R->esc, &rest.esc);
	*falls = fj || fr;
	return 0;
}

/* ---- switches ---- */

struct case_info {
	uint32_t label;
	uint64_t *lits;
	unsigned num_lits;
	bool is_default;
	uint32_t falls_to;		/* the case label it falls through to, or 0 */
	bool fallen_into;
};

/* Blocks reachable from a case without leaving the switch: does one branch
 * to another case label? */
static uint32_t find_fallthrough(struct spv *r, struct cf_region *R, struct switchctx *sw,
				 uint32_t start)
{
	uint32_t *stack = NULL, found = 0;
	size_t n = 0, cap = 0;
	struct spv_block **seen = NULL;
	size_t nseen = 0, cap_seen = 0;
	size_t save = r->cur;
	/* from the arena: an error may longjmp out of here */
#define PUSH(x) do { if (n == cap) { \
			     stack = arena_realloc(&r->arena, stack, cap * sizeof(*stack), \
						   (cap ? 2 * cap : 16) * sizeof(*stack)); \
			     cap = cap ? 2 * cap : 16; } \
		     stack[n++] = (x); } while (0)
	PUSH(start);
	while (n && !found) {
		uint32_t label = stack[--n];
		if (label == sw->merge)
			continue;
		if (label != start && is_case_label(sw, label)) {
			found = label;
			break;
		}
		bool stop = false;
		for (struct cf_region *x = R; x && x->kind != R_FUNC; x = x->parent) {
			if (x->loop && (label == x->loop->merge || label == x->loop->cont ||
					label == x->loop->header))
				stop = true;
			if (x->end == label)
				stop = true;
		}
		if (stop)
			continue;
		struct spv_block *blk = block_of(r, label);
		if (blk->visiting)
			continue;
		blk->visiting = true;
		if (nseen == cap_seen) {
			seen = arena_realloc(&r->arena, seen, cap_seen * sizeof(*seen),
					     (cap_seen ? 2 * cap_seen : 16) * sizeof(*seen));
			cap_seen = cap_seen ? 2 * cap_seen : 16;
		}
		seen[nseen++] = blk;
		r->cur = blk->term;
		uint32_t op = spv_opcode(r, blk->term);
		if (op == SpvOpBranch) {
			PUSH(spv_word(r, 1));
		} else if (op == SpvOpBranchConditional) {
			PUSH(spv_word(r, 2));
			PUSH(spv_word(r, 3));
		} else if (op == SpvOpSwitch) {
			struct spv_type *st = spv_id(r, spv_word(r, 1))->type;
			unsigned step = st && st->bit_size == 64 ? 3 : 2;
			PUSH(spv_word(r, 2));
			for (unsigned i = 3; i + step - 1 < spv_nwords(r); i += step)
				PUSH(spv_word(r, i + step - 1));
		}
		if (blk->merge && blk->merge_label)
			PUSH(blk->merge_label);
		if (blk->loop && blk->continue_label)
			PUSH(blk->continue_label);
	}
#undef PUSH
	for (size_t i = 0; i < nseen; i++)
		seen[i]->visiting = false;
	r->cur = save;
	return found;
}

static struct ssa_def *case_cond(struct spv *r, struct ssa_def *sel, const struct case_info *c)
{
	struct ssa_def *cond = NULL;
	for (unsigned i = 0; i < c->num_lits; i++) {
		struct ssa_def *eq = b_ieq(&r->b, sel, spv_imm(r, 1, sel->bit_size, &c->lits[i]));
		cond = cond ? b_ior(&r->b, cond, eq) : eq;
	}
	return cond;
}

static bool emit_case(struct spv *r, struct cf_region *R, struct switchctx *sw, uint32_t label,
		      bool last, struct escapes *esc)
{
	struct cf_region C;
	child(&C, R, R_CASE, 0);
	C.sw = sw;
	C.last_in_chain = last;
	bool falls = label == sw->merge || emit_region(r, &C, label);
	escapes_add_all(r, esc, &C.esc);
	return falls;
}

/* One chain of cases falling into each other, in a region of its own:
 * case j runs when the selector matches cases 0..j (or default among them
 * and no case of the chain). */
static bool emit_chain(struct spv *r, struct cf_region *R, struct switchctx *sw,
		       struct ssa_def *sel, struct case_info **chain, unsigned n,
		       struct escapes *esc)
{
	struct cf_region G;
	bool falls = false;
	child(&G, R, R_IF, 0);
	for (unsigned j = 0; j < n; j++) {
		struct cf_if *nif = NULL;
		if (j + 1 < n) {
			struct ssa_def *cond = NULL;
			bool dflt = false;
			for (unsigned k = 0; k <= j; k++) {
				struct ssa_def *c = case_cond(r, sel, chain[k]);
				if (c)
					cond = cond ? b_ior(&r->b, cond, c) : c;
				dflt |= chain[k]->is_default;
			}
			if (dflt) {
				struct ssa_def *other = NULL;
				for (unsigned k = 0; k < n; k++) {
					struct ssa_def *c = case_cond(r, sel, chain[k]);
					if (c)
						other = other ? b_ior(&r->b, other, c) : c;
				}
				struct ssa_def *d = other ? b_inot(&r->b, other) : b_imm_bool(&r->b, true);
				cond = cond ? b_ior(&r->b, cond, d) : d;
			}
			nif = b_push_if(&r->b, cond);
		}
		struct escapes e = { 0 };
		bool f = emit_case(r, &G, sw, chain[j]->label, j + 1 == n, &e);
		if (nif)
			b_pop_if(&r->b, nif);
		if (j + 1 == n) {
			falls = f;
			escapes_add_all(r, &G.esc, &e);	/* nothing follows to guard */
		} else {
			absorb(r, &G, &e, NULL);
		}
	}
	close_guards(r, &G);
	escapes_add_all(r, esc, &G.esc);
	return falls || G.esc.n;
}

static uint32_t emit_switch(struct spv *r, struct cf_region *R, struct spv_block *blk)
{
	struct ssa_def *sel = spv_get_def(r, spv_word(r, 1));
	unsigned step = sel->bit_size == 64 ? 3 : 2;
	unsigned ntargets = 1 + (spv_nwords(r) - 3) / step;
	struct switchctx *sw = arena_new(&r->arena, struct switchctx);
	struct case_info *cases = arena_array(&r->arena, struct case_info, ntargets);
	unsigned ncases = 0;

	if (!blk->merge || blk->loop)
		spv_unsupported(r, "OpSwitch without a selection merge");
	if ((spv_nwords(r) - 3) % step)
		spv_fail(r, "a malformed target list");
	sw->merge = blk->merge_label;
	sw->brk_flag = -1;
	sw->labels = arena_array(&r->arena, uint32_t, ntargets);
	for (unsigned i = 0; i < ntargets; i++) {
		uint32_t label = i == 0 ? spv_word(r, 2) : spv_word(r, 3 + (i - 1) * step + step - 1);
		uint64_t lit = 0;
		if (i) {
			lit = spv_word(r, 3 + (i - 1) * step);
			if (step == 3)
				lit |= (uint64_t)spv_word(r, 4 + (i - 1) * step) << 32;
			else if (sel->bit_size < 32)
				lit &= ((uint64_t)1 << sel->bit_size) - 1;
		}
		block_of(r, label);
		struct case_info *c = NULL;
		for (unsigned k = 0; k < ncases; k++)
			if (cases[k].label == label)
				c = &cases[k];
		if (!c) {
			c = &cases[ncases++];
			c->label = label;
			c->lits = arena_array(&r->arena, uint64_t, ntargets);
			if (label != sw->merge)
				sw->labels[sw->num_labels++] = label;
		}
		if (i)
			c->lits[c->num_lits++] = lit;
		else
			c->is_default = true;
	}
	for (unsigned k = 0; k < ncases; k++)
		store_phis(r, blk, cases[k].label);
	for (unsigned k = 0; k < ncases; k++) {
		if (cases[k].label == sw->merge)
			continue;
		cases[k].falls_to = find_fallthrough(r, R, sw, cases[k].label);
		for (unsigned j = 0; j < ncases; j++)
			if (cases[j].label == cases[k].falls_to) {
				if (cases[j].fallen_into)
					spv_unsupported(r, "two cases falling into one");
				cases[j].fallen_into = true;
			}
	}
	/* chains, the default's last */
	struct case_info **order = arena_array(&r->arena, struct case_info *, ncases + 1);
	unsigned *starts = arena_array(&r->arena, unsigned, ncases + 1), nchains = 0, norder = 0;
	unsigned *lens = arena_array(&r->arena, unsigned, ncases + 1);
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned k = 0; k < ncases; k++) {
			struct case_info *c = &cases[k];
			if (c->fallen_into || (c->label == sw->merge && (c->is_default || !c->num_lits)))
				continue;
			bool has_default = false;
			for (struct case_info *x = c; x;) {
				has_default |= x->is_default;
				struct case_info *next = NULL;
				for (unsigned j = 0; j < ncases && x->falls_to; j++)
					if (cases[j].label == x->falls_to)
						next = &cases[j];
				x = next;
			}
			if (has_default != (pass == 1))
				continue;
			starts[nchains] = norder;
			unsigned len = 0;
			for (struct case_info *x = c; x && len <= ncases;) {
				order[norder++] = x;
				len++;
				struct case_info *next = NULL;
				for (unsigned j = 0; j < ncases && x->falls_to; j++)
					if (cases[j].label == x->falls_to)
						next = &cases[j];
				x = next;
			}
			if (len > ncases)
				spv_unsupported(r, "cases falling through in a cycle");
			lens[nchains++] = len;
		}
	}
	/* if (chain 0) { … } else if (chain 1) { … } … else { default chain } */
	struct escapes esc = { 0 };
	unsigned npushed = 0;
	bool falls = false;
	struct cf_if **ifs = arena_array(&r->arena, struct cf_if *, nchains + 1);
	if (r->depth + nchains > SPV_MAX_NESTING)
		spv_unsupported(r, "a switch of %u cases nested too deeply", nchains);
	for (unsigned c = 0; c < nchains; c++) {
		struct case_info **chain = order + starts[c];
		bool dflt = false;
		struct ssa_def *cond = NULL;
		for (unsigned k = 0; k < lens[c]; k++) {
			dflt |= chain[k]->is_default;
			struct ssa_def *x = case_cond(r, sel, chain[k]);
			if (x)
				cond = cond ? b_ior(&r->b, cond, x) : x;
		}
		if (!dflt) {
			ifs[npushed++] = b_push_if(&r->b, cond);
			r->depth++;
		}
		falls |= emit_chain(r, R, sw, sel, chain, lens[c], &esc);
		if (!dflt)
			b_push_else(&r->b, ifs[npushed - 1]);
		else
			break;
	}
	bool has_default_body = false;
	for (unsigned k = 0; k < ncases; k++)
		has_default_body |= cases[k].is_default && cases[k].label != sw->merge;
	if (!has_default_body)
		falls = true;	/* no case matched: on to the merge */
	while (npushed) {
		b_pop_if(&r->b, ifs[--npushed]);
		r->depth--;
	}
	if (sw->brk_flag >= 0) {
		set_flag(r, sw->brk_flag, false);
		falls = true;
	}
	struct escapes rest = { 0 };
	for (unsigned i = 0; i < esc.n; i++)
		if (esc.v[i].target != sw)
			escapes_add(r, &rest, esc.v[i]);
	absorb(r, R, &rest, NULL);
	return falls ? sw->merge : 0;
}

/* ---- loops ---- */

static uint32_t emit_terminator(struct spv *r, struct cf_region *R, struct spv_block *blk,
				bool *falls);

static uint32_t emit_loop(struct spv *r, struct cf_region *R, struct spv_block *H)
{
	struct loopctx *L = arena_new(&r->arena, struct loopctx);
	struct cf_region B;
	L->header = H->label;
	L->merge = H->merge_label;
	L->cont = H->continue_label;
	block_of(r, L->merge);
	block_of(r, L->cont);
	if (++r->depth > SPV_MAX_NESTING)
		spv_unsupported(r, "control flow nested more than %u deep", SPV_MAX_NESTING);
	L->loop = b_push_loop(&r->b);
	uint32_t control = r->w[H->merge + 3];
	L->loop->hint = control & SpvLoopControlUnrollMask ? LOOP_HINT_unroll :
			control & SpvLoopControlDontUnrollMask ? LOOP_HINT_dont_unroll : LOOP_HINT_none;
	child(&B, R, R_LOOP, L->cont != L->header ? L->cont : 0);
	B.loop = L;
	emit_block_body(r, H);
	bool falls = false;
	uint32_t next = emit_terminator(r, &B, H, &falls);
	if (next)
		falls = emit_region(r, &B, next);
	if (B.num_guards)
		spv_fail(r, "internal: guards in a loop body");
	if (falls && L->cont != L->header) {
		struct cf_region C;
		child(&C, R, R_CONT, L->header);
		C.loop = L;
		emit_region(r, &C, L->cont);
		escapes_add_all(r, &B.esc, &C.esc);
	}
	b_pop_loop(&r->b, L->loop);
	r->depth--;
	absorb(r, R, &B.esc, L);
	return L->merge;
}

/* ---- terminators ---- */

/*
 * The end of a block: returns the next label of the region, or 0 when the
 * region is done (*falls: whether it fell through to its end).
 */
static uint32_t emit_terminator(struct spv *r, struct cf_region *R, struct spv_block *blk,
				bool *falls)
{
	uint32_t op = spv_opcode(r, blk->term);
	r->cur = blk->term;
	*falls = false;
	switch (op) {
	case SpvOpBranch: {
		uint32_t t = spv_word(r, 1);
		store_phis(r, blk, t);
		return t;
	}
	case SpvOpBranchConditional: {
		struct ssa_def *cond = spv_get_def(r, spv_word(r, 1));
		uint32_t t = spv_word(r, 2), f = spv_word(r, 3);
		if (cond->bit_size != 1 || cond->num_components != 1)
			spv_fail(r, "the condition is not a boolean");
		store_phis(r, blk, t);
		if (f != t)
			store_phis(r, blk, f);
		if (blk->merge && !blk->loop) {
			uint32_t m = blk->merge_label;
			block_of(r, m);
			*falls = emit_if(r, R, cond, t, f, m, if_hint(r, blk));
			return *falls ? m : 0;
		}
		return branch_no_merge(r, R, cond, t, f, falls);
	}
	case SpvOpSwitch:
		return emit_switch(r, R, blk);
	case SpvOpReturn:
		emit_return(r, R, 0);
		return 0;
	case SpvOpReturnValue:
		emit_return(r, R, spv_word(r, 1));
		return 0;
	case SpvOpKill:
		if (r->stage != STAGE_FRAGMENT)
			spv_fail(r, "OpKill in a %s shader", stage_name(r->stage));
		b_discard(&r->b);
		return 0;
	case SpvOpTerminateInvocation:
		if (r->stage != STAGE_FRAGMENT)
			spv_fail(r, "OpTerminateInvocation in a %s shader", stage_name(r->stage));
		b_intr(&r->b, terminate, 0, 0, (NULL));
		return 0;
	case SpvOpUnreachable:
		return 0;
	case SpvOpIgnoreIntersectionKHR: case SpvOpTerminateRayKHR: case SpvOpEmitMeshTasksEXT:
		spv_stage_instr(r, op);
		return 0;
	default: {
		char buf[24];
		spv_unsupported(r, "%s", spv_op_name(op, buf));
	}
	}
}

/* ---- regions ---- */

static bool emit_region(struct spv *r, struct cf_region *R, uint32_t label)
{
	bool falls = false;
	/* a case's or a continue construct's own first block is no exit */
	bool first = R->kind == R_CASE || R->kind == R_CONT;
	if (++r->depth > SPV_MAX_NESTING)
		spv_unsupported(r, "control flow nested more than %u deep", SPV_MAX_NESTING);
	while (label) {
		enum tgt t = first ? TGT_NORMAL : classify(r, R, label);
		first = false;
		if (t != TGT_NORMAL) {
			falls = jump(r, R, t);
			break;
		}
		struct spv_block *blk = block_of(r, label);
		if (blk->loop) {
			label = emit_loop(r, R, blk);
			continue;
		}
		emit_block_body(r, blk);
		label = emit_terminator(r, R, blk, &falls);
	}
	close_guards(r, R);
	r->depth--;
	return falls;
}

/* ---- functions ---- */

static void inline_function(struct spv *r, struct frame *fr)
{
	struct cf_region top = { .kind = R_FUNC, .frame = fr };
	fr->top = &top;
	fr->ret_flag = -1;
	if (fr->f->active)
		spv_unsupported(r, "recursion (%s calls itself)",
				spv_id_name(r, fr->f->id) ? spv_id_name(r, fr->f->id) : "a function");
	if (++r->depth > SPV_MAX_NESTING)
		spv_unsupported(r, "calls nested more than %u deep", SPV_MAX_NESTING);
	fr->f->active = true;
	size_t save = r->cur;
	emit_region(r, &top, fr->f->first_label);
	r->cur = save;
	fr->f->active = false;
	r->depth--;
	if (fr->ret_flag >= 0)
		set_flag(r, fr->ret_flag, false);
}

void spv_call(struct spv *r)
{
	uint32_t fid = spv_word(r, 3);
	struct spv_id *x = spv_id(r, fid);
	if (x->kind != ID_FUNC)
		spv_fail(r, "%%%u is not a function", fid);
	struct spv_func *f = x->func;
	struct spv_type *t = spv_result_type(r);
	uint32_t id = spv_result_id(r);
	if (!f->first_label)
		spv_unsupported(r, "a call to a function without a body (linkage)");
	if (spv_nwords(r) - 4 != f->num_params)
		spv_fail(r, "%u arguments for %u parameters", spv_nwords(r) - 4, f->num_params);
	for (unsigned i = 0; i < f->num_params; i++) {
		struct spv_id *arg = spv_id(r, spv_word(r, 4 + i));
		struct spv_id *param = spv_id(r, f->params[i]);
		if (arg->kind == ID_NONE || arg->kind == ID_TYPE || arg->kind == ID_LABEL)
			spv_fail(r, "argument %u, %%%u, has no value", i, spv_word(r, 4 + i));
		struct spv_id saved = *param;
		*param = *arg;
		param->word = saved.word;
		param->in_function = saved.in_function;
		param->decos = saved.decos;
		param->name = saved.name;
		param->phi_var = saved.phi_var;
		if (saved.type)
			param->type = saved.type;
	}
	struct frame fr = { .f = f };
	inline_function(r, &fr);
	if (t->kind == T_VOID)
		return;
	struct spv_val *v = fr.ret_var ? spv_load(r, spv_var_ptr(r, fr.ret_var), 0) : fr.ret_val;
	if (!v)
		v = spv_val_undef(r, t);
	spv_set_val(r, id, v);
}

void spv_emit_entry(struct spv *r)
{
	struct frame fr = { .f = r->ids[r->entry_id].func, .entry = true };
	if (r->output_temps)
		spv_io_find_output_writes(r);
	inline_function(r, &fr);
	if (r->output_temps && r->stage != STAGE_GEOMETRY)
		spv_io_copy_outputs(r, -1);
}
