/*
 * Loop analysis (META_LOOP_ANALYSIS): for every loop, its depth, size,
 * exits, induction variables, terminators and — for simple induction loops
 * — its trip count (definitions in ir.h, "loop_info").
 *
 * The trip count is found by running the loop's arithmetic through the
 * constant folder: start from the induction variable's initial constant,
 * evaluate the terminator's condition, step, and count until it breaks.
 * This handles any update and comparison opcode, wrap-around and float
 * rounding exactly, at the cost of one fold per iteration (capped at
 * LOOP_MAX_TRIP_COUNT).  Example:
 *
 *	loop {				i = phi(0 from before, i1 from the body)
 *		if (i >= 4) break;	terminator: ige i, 4 -> breaks at i = 4
 *		...
 *		i1 = iadd i, 1		update
 *	}				trip_count = 4, exact if no other exit
 */
#include "compiler/ir/ir.h"

struct loop_ctx {
	struct function *fn;
	struct cf_loop *loop;
	struct loop_info *info;
};

/* Instructions, exits and continues of a loop's body. */
static void scan_list(struct loop_ctx *c, struct list *list, bool nested);

static void scan_block(struct loop_ctx *c, struct block *b, bool nested)
{
	foreach_instr(i, b) {
		c->info->num_instrs++;
		if (i->type != INSTR_jump)
			continue;
		enum jump_type t = instr_as_jump(i)->type;
		if (t == JUMP_return)
			c->info->has_return = true;
		else if (!nested && t == JUMP_break)
			c->info->num_breaks++;
		else if (!nested && t == JUMP_continue)
			c->info->has_continue = true;
	}
}

static void scan_list(struct loop_ctx *c, struct list *list, bool nested)
{
	foreach_cf_node(n, list) {
		switch (n->type) {
		case CF_BLOCK: scan_block(c, cf_as_block(n), nested); break;
		case CF_IF:
			scan_list(c, &cf_as_if(n)->then_list, nested);
			scan_list(c, &cf_as_if(n)->else_list, nested);
			break;
		case CF_LOOP: scan_list(c, &cf_as_loop(n)->body, true); break;
		default: break;
		}
	}
}

static bool inside(struct loop_ctx *c, struct block *b)
{
	return cf_node_is_inside(&b->cf, &c->loop->cf);
}

/* The constant component an ALU source reads, if it reads a constant. */
static bool alu_src_const(struct alu_instr *alu, unsigned i, uint64_t *v)
{
	struct load_const_instr *lc = ssa_def_as_const(alu->src[i].src.ssa);
	if (!lc || alu->src[i].swizzle[0] >= lc->def.num_components)
		return false;
	*v = lc->value[alu->src[i].swizzle[0]];
	return true;
}

static bool is_scalar_binop(struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	return info->num_inputs == 2 && !info->output_size && alu->def.num_components == 1;
}

static void find_induction_var(struct loop_ctx *c, struct phi_instr *phi)
{
	struct phi_src *init = NULL, *next = NULL;
	if (phi->def.num_components != 1 || list_length(&phi->srcs) != 2)
		return;
	foreach_phi_src(ps, phi) {
		if (inside(c, ps->pred))
			next = ps;
		else
			init = ps;
	}
	if (!init || !next || !ssa_def_as_const(init->src.ssa) ||
	    next->src.ssa->parent->type != INSTR_alu)
		return;
	struct alu_instr *upd = instr_as_alu(next->src.ssa->parent);
	if (!is_scalar_binop(upd))
		return;
	for (unsigned i = 0; i < 2; i++) {
		uint64_t v;
		if (upd->src[1 - i].src.ssa == &phi->def && alu_src_const(upd, i, &v)) {
			struct induction_var *iv = &c->info->ivs[c->info->num_ivs++];
			iv->phi = phi;
			iv->init = init->src.ssa;
			iv->update = upd;
			iv->step_src = i;
			return;
		}
	}
}

/* One component of an instruction's result for these source values. */
static uint64_t fold1(struct alu_instr *alu, uint64_t s0, uint64_t s1)
{
	const uint64_t *srcs[2] = { &s0, &s1 };
	uint64_t r = 0;
	alu_fold(alu->op, 1, alu_instr_bit_size(alu), srcs, &r);
	return r;
}

static uint64_t iv_step(struct induction_var *iv, uint64_t v)
{
	uint64_t step = 0;
	alu_src_const(iv->update, iv->step_src, &step);
	return iv->step_src ? fold1(iv->update, v, step) : fold1(iv->update, step, v);
}

/* Evaluate the loop until the terminator's comparison breaks it. */
static int64_t simulate(struct loop_terminator *t, unsigned iv_src, uint64_t limit)
{
	uint64_t v = ssa_def_as_const(t->iv->init)->value[0];
	for (int64_t k = 0; k <= LOOP_MAX_TRIP_COUNT; k++) {
		uint64_t x = t->tests_next ? iv_step(t->iv, v) : v;
		uint64_t cond = iv_src == 0 ? fold1(t->cond, x, limit) : fold1(t->cond, limit, x);
		if ((cond != 0) == t->breaks_on)
			return k;
		v = iv_step(t->iv, v);
	}
	return -1;
}

/* A lone break: a branch of one block holding only `break`. */
static bool is_lone_break(struct list *list)
{
	struct block *b = cf_list_first_block(list);
	if (!b || cf_list_last_block(list) != b)
		return false;
	struct instr *i = block_first_instr(b);
	return i && i == block_last_instr(b) && i->type == INSTR_jump &&
	       instr_as_jump(i)->type == JUMP_break;
}

/* The comparison that breaks when it is `breaks_on`, inverted, for ops
 * that have an inverse. */
static enum alu_op exit_comparison(enum alu_op op, bool breaks_on)
{
	static const enum alu_op inverse[][2] = {
		{ OP_ilt, OP_ige }, { OP_ult, OP_uge }, { OP_flt, OP_fge },
	};
	if (breaks_on)
		return op;
	for (unsigned k = 0; k < sizeof(inverse) / sizeof(inverse[0]); k++) {
		if (inverse[k][0] == op)
			return inverse[k][1];
		if (inverse[k][1] == op)
			return inverse[k][0];
	}
	return OP_COUNT;
}

/*
 * A limit that is min/max of a constant and anything bounds the trip count
 * when the exit comparison splits over it (nir_loop_analyze's try_find_limit:
 * `i >= min(x, 4)` is `i >= x || i >= 4`, so the loop breaks at i = 4 at the
 * latest): `c >= min(a, b)`, `c < max(a, b)`, `min(a, b) < c`, `max(a, b)
 * >= c`, with the min/max of the comparison's type.
 */
static bool minmax_limit(struct alu_instr *cmp, unsigned iv_src, bool breaks_on, uint64_t *v)
{
	struct ssa_def *limit = cmp->src[1 - iv_src].src.ssa;
	if (limit->num_components != 1 || limit->parent->type != INSTR_alu)
		return false;
	struct alu_instr *mm = instr_as_alu(limit->parent);
	bool is_max;
	switch (mm->op) {
	case OP_imin: case OP_umin: case OP_fmin: is_max = false; break;
	case OP_imax: case OP_umax: case OP_fmax: is_max = true; break;
	default: return false;
	}
	enum alu_op op = exit_comparison(cmp->op, breaks_on);
	if (op == OP_COUNT || alu_op_infos[mm->op].input_types[0] != alu_op_infos[op].input_types[0])
		return false;
	bool limit_rhs = iv_src == 0;
	bool lt = op == OP_ilt || op == OP_ult || op == OP_flt;
	if (lt ? limit_rhs != is_max : limit_rhs == is_max)
		return false;
	for (unsigned i = 0; i < 2; i++)
		if (alu_src_const(mm, i, v))
			return true;
	return false;
}

/*
 * Whether `cmp` compares an induction variable (or its next value) with a
 * limit: a constant (`minmax` false) or a min/max with a constant (`minmax`
 * true, a bound only).  Fills the terminator's comparison and trip count.
 */
static bool try_comparison(struct loop_ctx *c, struct loop_terminator *t, struct ssa_def *cmp,
			   bool breaks_on, bool minmax)
{
	if (cmp->num_components != 1 || cmp->parent->type != INSTR_alu)
		return false;
	struct alu_instr *alu = instr_as_alu(cmp->parent);
	if (!is_scalar_binop(alu))
		return false;
	for (unsigned i = 0; i < 2; i++) {
		struct ssa_def *x = alu->src[i].src.ssa;
		for (unsigned k = 0; k < c->info->num_ivs; k++) {
			struct induction_var *iv = &c->info->ivs[k];
			uint64_t limit;
			if (x != &iv->phi->def && x != &iv->update->def)
				continue;
			if (minmax ? !minmax_limit(alu, i, breaks_on, &limit)
				   : !alu_src_const(alu, 1 - i, &limit))
				continue;
			t->cond = alu;
			t->iv = iv;
			t->tests_next = x == &iv->update->def;
			t->breaks_on = breaks_on;
			t->exact = !minmax;
			if (!c->info->has_continue)
				t->trip_count = simulate(t, i, limit);
			return true;
		}
	}
	return false;
}

/*
 * The trip count of a terminator, as nir_loop_analyze's find_trip_count
 * finds it: its condition compares an induction variable with a constant
 * (exact), or with min/max of a constant, or is `a && b` breaking when false
 * (`a || b` breaking when true) with such a comparison in a or b — then the
 * count is only the latest the terminator breaks (`while (h < refh && i <
 * 32)` breaks at i = 32 or before).
 */
static void analyze_terminator(struct loop_ctx *c, struct loop_terminator *t)
{
	struct ssa_def *cond = t->nif->condition.ssa;
	bool breaks_on = t->break_in_then;
	t->trip_count = -1;
	t->exact = false;
	if (!cond || cond->num_components != 1 || cond->parent->type != INSTR_alu)
		return;
	struct alu_instr *alu = instr_as_alu(cond->parent);
	if (alu->op == OP_inot && alu->src[0].src.ssa->num_components == 1 &&
	    alu->src[0].src.ssa->parent->type == INSTR_alu) {
		cond = alu->src[0].src.ssa;
		alu = instr_as_alu(cond->parent);
		breaks_on = !breaks_on;
	}
	if ((alu->op == OP_iand && !breaks_on) || (alu->op == OP_ior && breaks_on)) {
		for (int minmax = 0; minmax < 2; minmax++) {
			for (unsigned i = 0; i < 2; i++) {
				if (try_comparison(c, t, alu->src[i].src.ssa, breaks_on, minmax)) {
					t->exact = false;
					return;
				}
			}
		}
		return;
	}
	if (!try_comparison(c, t, cond, breaks_on, false))
		try_comparison(c, t, cond, breaks_on, true);
}

static void find_terminators(struct loop_ctx *c)
{
	foreach_cf_node(n, &c->loop->body) {
		if (n->type != CF_IF)
			continue;
		struct cf_if *nif = cf_as_if(n);
		bool then_break = is_lone_break(&nif->then_list);
		if (!then_break && !is_lone_break(&nif->else_list))
			continue;
		struct loop_terminator *t = &c->info->terminators[c->info->num_terminators++];
		t->nif = nif;
		t->break_in_then = then_break;
		analyze_terminator(c, t);
		if (t->trip_count >= 0 &&
		    (!c->info->limiting || t->trip_count < c->info->trip_count)) {
			c->info->limiting = t;
			c->info->trip_count = t->trip_count;
		}
	}
}

static void analyze_loop(struct function *fn, struct cf_loop *loop, unsigned depth)
{
	struct arena *a = &fn->shader->arena;
	struct loop_info *info = arena_new(a, struct loop_info);
	struct loop_ctx c = { fn, loop, info };
	struct block *header = cf_loop_header(loop);
	unsigned num_phis = 0, num_ifs = 0;

	loop->info = info;
	info->depth = depth;
	info->trip_count = -1;
	scan_list(&c, &loop->body, false);
	foreach_instr(i, header)
		num_phis += i->type == INSTR_phi;
	foreach_cf_node(n, &loop->body)
		num_ifs += n->type == CF_IF;
	info->ivs = arena_array(a, struct induction_var, num_phis ? num_phis : 1);
	info->terminators = arena_array(a, struct loop_terminator, num_ifs ? num_ifs : 1);
	foreach_instr(i, header) {
		if (i->type != INSTR_phi)
			break;
		find_induction_var(&c, instr_as_phi(i));
	}
	find_terminators(&c);
	/* exact when every way out is a terminator with an exact count */
	bool exact = info->limiting && info->num_breaks == info->num_terminators && !info->has_return;
	for (unsigned k = 0; k < info->num_terminators; k++)
		exact &= info->terminators[k].exact && info->terminators[k].trip_count >= 0;
	info->exact_trip_count = exact;
}

static void walk_list(struct function *fn, struct list *list, unsigned depth)
{
	foreach_cf_node(n, list) {
		switch (n->type) {
		case CF_IF:
			walk_list(fn, &cf_as_if(n)->then_list, depth);
			walk_list(fn, &cf_as_if(n)->else_list, depth);
			break;
		case CF_LOOP:
			analyze_loop(fn, cf_as_loop(n), depth + 1);
			walk_list(fn, &cf_as_loop(n)->body, depth + 1);
			break;
		default:
			break;
		}
	}
}

void calc_loop_analysis(struct function *fn)
{
	walk_list(fn, &fn->body, 0);
	fn->valid_metadata |= META_LOOP_ANALYSIS;
}
