/*
 * lower_vars_to_ssa: promote local variables to SSA values (Cytron et al.'s
 * construction: phis on the iterated dominance frontiers of the stores,
 * then a renaming walk down the dominator tree).
 *
 * A local is promoted when every load_local and store_local of it has a
 * constant element offset; each of its elements is then a variable of its
 * own.  A local indexed by a value (`a[i]`) stays a local, whole.  A store
 * with a partial write mask merges with the value before it; a load before
 * any store reads `undef`.  An access at a constant element past the end
 * (dead or undefined code that constant folding made plain) neither stops
 * promotion nor names a variable: the load reads `undef`, the store is
 * dropped, as Mesa's vars_to_ssa does with nir_deref_instr_is_known_out_of_bounds.
 * Phis no load needs are removed, and promoted locals vanish from the
 * declarations (the others are renumbered).
 *
 *	@store_local %x, %c0 local=0 base=1 write_mask=x
 *	32 %y = @load_local %c0 local=0 base=1        →  uses of %y read %x
 *
 * Control flow is unchanged: block indices and dominance are preserved.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

struct block_phis {
	unsigned n, cap;
	unsigned *vars;
	struct phi_instr **phis;
};

struct vars {
	struct shader *s;
	struct function *fn;
	unsigned num_locals;
	bool *direct;			/* by local: every access has a constant offset */
	unsigned *first;		/* by local: its first variable */
	unsigned num_vars;
	struct ssa_def **cur;		/* by variable: its value during renaming */
	struct ssa_def **undef;		/* by variable: its undef, made on demand */
	struct block_phis *phis;	/* by block index: the phis made there */
	struct phi_instr **made;	/* every phi made */
	unsigned num_made, cap_made;
};

/* The element a constant-offset access names (maybe past the end). */
static uint64_t elem_of(struct intrinsic_instr *intr)
{
	return (uint64_t)intrinsic_get(intr, INTR_IDX_base) +
	       ssa_def_as_const(local_access_offset(intr)->ssa)->value[0];
}

static bool out_of_bounds(struct vars *v, struct intrinsic_instr *intr)
{
	unsigned local = (unsigned)intrinsic_get(intr, INTR_IDX_local);
	return elem_of(intr) >= v->s->locals[local]->num_elements;
}

/* The variable an access to a promoted local names. */
static unsigned var_of(struct vars *v, struct intrinsic_instr *intr)
{
	unsigned local = (unsigned)intrinsic_get(intr, INTR_IDX_local);
	return v->first[local] + (unsigned)elem_of(intr);
}

static bool promoted(struct vars *v, struct intrinsic_instr *intr)
{
	return v->direct[intrinsic_get(intr, INTR_IDX_local)];
}

/* ---- which locals ---- */

static bool find_direct(struct vars *v)
{
	bool any = false;
	for (unsigned i = 0; i < v->num_locals; i++)
		v->direct[i] = true;
	foreach_block(b, v->fn) {
		foreach_instr(i, b) {
			if (!instr_is_local_access(i, NULL))
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(i);
			unsigned local = (unsigned)intrinsic_get(intr, INTR_IDX_local);
			if (!ssa_def_as_const(local_access_offset(intr)->ssa))
				v->direct[local] = false;
		}
	}
	v->num_vars = 0;
	for (unsigned i = 0; i < v->num_locals; i++) {
		v->first[i] = v->num_vars;
		if (v->direct[i]) {
			v->num_vars += v->s->locals[i]->num_elements;
			any = true;
		}
	}
	return any;
}

/* ---- phis ---- */

static const struct local_decl *decl_of_var(struct vars *v, unsigned var)
{
	unsigned lo = 0, hi = v->num_locals;
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;
		if (v->first[mid] <= var)
			lo = mid;
		else
			hi = mid;
	}
	while (!v->direct[lo] || var >= v->first[lo] + v->s->locals[lo]->num_elements)
		lo++;
	return v->s->locals[lo];
}

#define MADE_BY_US 1
#define LIVE 2

static void place_phi(struct vars *v, struct block *b, unsigned var)
{
	struct block_phis *bp = &v->phis[b->index];
	const struct local_decl *d = decl_of_var(v, var);
	struct builder bld;
	builder_init(&bld, v->s, cursor_before_block(b));
	struct phi_instr *phi = b_phi(&bld, b, d->num_components, d->bit_size);
	phi->instr.pass_flags = MADE_BY_US;
	if (bp->n == bp->cap) {
		bp->cap = bp->cap ? 2 * bp->cap : 4;
		bp->vars = xrealloc(bp->vars, bp->cap * sizeof(*bp->vars));
		bp->phis = xrealloc(bp->phis, bp->cap * sizeof(*bp->phis));
	}
	bp->vars[bp->n] = var;
	bp->phis[bp->n++] = phi;
	if (v->num_made == v->cap_made) {
		v->cap_made = v->cap_made ? 2 * v->cap_made : 16;
		v->made = xrealloc(v->made, v->cap_made * sizeof(*v->made));
	}
	v->made[v->num_made++] = phi;
}

/* Phis of each variable on the iterated dominance frontier of its stores
 * (the start block counts as a store of undef). */
static void place_phis(struct vars *v)
{
	struct function *fn = v->fn;
	unsigned nb = fn->num_blocks + 1;
	unsigned **def_blocks = xcalloc(v->num_vars, sizeof(*def_blocks));
	unsigned *num_defs = xcalloc(v->num_vars, sizeof(*num_defs));
	unsigned *cap_defs = xcalloc(v->num_vars, sizeof(*cap_defs));
	foreach_block(b, fn) {
		foreach_instr(i, b) {
			if (!instr_is_local_access(i, NULL) || instr_as_intrinsic(i)->op != INTR_store_local ||
			    !promoted(v, instr_as_intrinsic(i)) || out_of_bounds(v, instr_as_intrinsic(i)))
				continue;
			unsigned var = var_of(v, instr_as_intrinsic(i));
			if (num_defs[var] && def_blocks[var][num_defs[var] - 1] == b->index)
				continue;
			if (num_defs[var] == cap_defs[var]) {
				cap_defs[var] = cap_defs[var] ? 2 * cap_defs[var] : 4;
				def_blocks[var] = xrealloc(def_blocks[var],
							   cap_defs[var] * sizeof(**def_blocks));
			}
			def_blocks[var][num_defs[var]++] = b->index;
		}
	}
	unsigned *has_phi = xcalloc(nb, sizeof(*has_phi)), *queued = xcalloc(nb, sizeof(*queued));
	struct block **work = xmalloc((nb + 1) * sizeof(*work));
	for (unsigned var = 0; var < v->num_vars; var++) {
		unsigned n = 0, stamp = var + 1;
		if (!num_defs[var])
			continue;
		for (unsigned k = 0; k < num_defs[var]; k++) {
			struct block *b = fn->blocks[def_blocks[var][k]];
			if (queued[b->index] != stamp) {
				queued[b->index] = stamp;
				work[n++] = b;
			}
		}
		while (n) {
			struct block *b = work[--n];
			for (unsigned k = 0; k < b->num_dom_frontier; k++) {
				struct block *f = b->dom_frontier[k];
				if (f == fn->end_block || has_phi[f->index] == stamp)
					continue;
				has_phi[f->index] = stamp;
				place_phi(v, f, var);
				if (queued[f->index] != stamp) {
					queued[f->index] = stamp;
					work[n++] = f;
				}
			}
		}
	}
	for (unsigned var = 0; var < v->num_vars; var++)
		free(def_blocks[var]);
	free(def_blocks);
	free(num_defs);
	free(cap_defs);
	free(has_phi);
	free(queued);
	free(work);
}

/* ---- renaming ---- */

static struct ssa_def *undef_of(struct vars *v, unsigned var)
{
	if (!v->undef[var]) {
		const struct local_decl *d = decl_of_var(v, var);
		struct builder b;
		builder_init(&b, v->s, cursor_before_block(function_start_block(v->fn)));
		v->undef[var] = b_undef(&b, d->num_components, d->bit_size);
	}
	return v->undef[var];
}

static struct ssa_def *current(struct vars *v, unsigned var)
{
	return v->cur[var] ? v->cur[var] : undef_of(v, var);
}

/* A partial store: the stored components over the value before it. */
static struct ssa_def *merge(struct vars *v, struct intrinsic_instr *store, unsigned var)
{
	struct ssa_def *value = store->src[0].ssa;
	unsigned mask = (unsigned)intrinsic_get(store, INTR_IDX_write_mask);
	unsigned n = value->num_components;
	if (mask == (1u << n) - 1)
		return value;
	struct ssa_def *old = current(v, var);
	static const enum alu_op vecs[] = { OP_mov, OP_mov, OP_vec2, OP_vec3, OP_vec4 };
	enum alu_op op = n <= 4 ? vecs[n] : n == 8 ? OP_vec8 : OP_vec16;
	struct alu_instr *alu = alu_instr_create(v->s, op);
	for (unsigned c = 0; c < n; c++) {
		bool from_value = mask & (1u << c);
		src_init(&alu->src[n == 1 ? 0 : c].src, &alu->instr, from_value ? value : old);
		alu->src[n == 1 ? 0 : c].swizzle[0] = (uint8_t)c;
		if (n == 1)
			break;
	}
	ssa_def_init(&alu->instr, &alu->def, n, value->bit_size);
	instr_insert(cursor_before_instr(&store->instr), &alu->instr);
	return &alu->def;
}

struct undo {
	unsigned var;
	struct ssa_def *old;
};

struct rename {
	struct undo *log;
	size_t len, cap;
};

static void set_cur(struct vars *v, struct rename *rn, unsigned var, struct ssa_def *def)
{
	if (rn->len == rn->cap) {
		rn->cap = rn->cap ? 2 * rn->cap : 64;
		rn->log = xrealloc(rn->log, rn->cap * sizeof(*rn->log));
	}
	rn->log[rn->len++] = (struct undo){ var, v->cur[var] };
	v->cur[var] = def;
}

static void rename_block(struct vars *v, struct rename *rn, struct block *b)
{
	struct block_phis *bp = &v->phis[b->index];
	for (unsigned k = 0; k < bp->n; k++)
		set_cur(v, rn, bp->vars[k], &bp->phis[k]->def);
	foreach_instr_safe(i, b) {
		if (!instr_is_local_access(i, NULL) || !promoted(v, instr_as_intrinsic(i)))
			continue;
		struct intrinsic_instr *intr = instr_as_intrinsic(i);
		if (out_of_bounds(v, intr)) {
			if (intr->op == INTR_load_local) {
				struct builder bld;
				builder_init(&bld, v->s, cursor_before_instr(i));
				ssa_def_rewrite_uses(&intr->def, b_undef(&bld, intr->def.num_components,
									 intr->def.bit_size));
			}
			instr_remove(i);
			continue;
		}
		unsigned var = var_of(v, intr);
		if (intr->op == INTR_load_local) {
			ssa_def_rewrite_uses(&intr->def, current(v, var));
		} else {
			set_cur(v, rn, var, merge(v, intr, var));
		}
		instr_remove(i);
	}
	for (unsigned k = 0; k < 2; k++) {
		struct block *s = block_succ(b, k);
		if (!s || (k == 1 && s == block_succ(b, 0)))
			continue;
		struct block_phis *sp = &v->phis[s->index];
		for (unsigned j = 0; j < sp->n; j++)
			if (!phi_get_src(sp->phis[j], b))
				phi_add_src(sp->phis[j], b, current(v, sp->vars[j]));
	}
}

/* Depth-first over the dominator tree, undoing each block's definitions
 * on the way back up. */
static void rename_all(struct vars *v)
{
	struct function *fn = v->fn;
	unsigned nb = fn->num_blocks + 1;
	struct block **stack = xmalloc(nb * sizeof(*stack));
	size_t *mark = xmalloc(nb * sizeof(*mark));
	unsigned *next = xcalloc(nb, sizeof(*next));
	struct rename rn = { 0 };
	unsigned sp = 0;
	struct block *start = function_start_block(fn);
	stack[sp] = start;
	mark[sp++] = 0;
	rename_block(v, &rn, start);
	while (sp) {
		struct block *b = stack[sp - 1];
		if (next[b->index] < b->num_dom_children) {
			struct block *c = b->dom_children[next[b->index]++];
			mark[sp] = rn.len;
			stack[sp++] = c;
			rename_block(v, &rn, c);
			continue;
		}
		size_t to = mark[--sp];
		while (rn.len > to) {
			rn.len--;
			v->cur[rn.log[rn.len].var] = rn.log[rn.len].old;
		}
	}
	free(rn.log);
	free(stack);
	free(mark);
	free(next);
}

/* Accesses in unreachable blocks (never renamed): loads read undef. */
static void clean_unreachable(struct vars *v)
{
	foreach_block(b, v->fn) {
		if (block_is_reachable(b))
			continue;
		foreach_instr_safe(i, b) {
			if (!instr_is_local_access(i, NULL) || !promoted(v, instr_as_intrinsic(i)))
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(i);
			if (intr->op == INTR_load_local)
				ssa_def_rewrite_uses(&intr->def, undef_of(v, var_of(v, intr)));
			instr_remove(i);
		}
	}
}

/* Every predecessor gets a source; unreachable ones give undef. */
static void complete_phis(struct vars *v)
{
	for (unsigned k = 0; k < v->num_made; k++) {
		struct phi_instr *phi = v->made[k];
		unsigned np;
		struct block *const *preds = block_preds(phi->instr.block, &np);
		for (unsigned p = 0; p < np; p++) {
			if (phi_get_src(phi, preds[p]))
				continue;
			struct builder b;
			builder_init(&b, v->s, cursor_before_block(function_start_block(v->fn)));
			phi_add_src(phi, preds[p], b_undef(&b, phi->def.num_components, phi->def.bit_size));
		}
	}
}

/* Phis nothing but dead phis reads (mark from the live uses, sweep). */
static void remove_dead_phis(struct vars *v)
{
	bool changed = true;
	while (changed) {
		changed = false;
		for (unsigned k = 0; k < v->num_made; k++) {
			struct phi_instr *phi = v->made[k];
			if (phi->instr.pass_flags & LIVE)
				continue;
			foreach_use(u, &phi->def) {
				struct instr *user = u->parent_instr;
				if (!user || user->pass_flags != MADE_BY_US) {
					phi->instr.pass_flags |= LIVE;
					changed = true;
					break;
				}
			}
		}
	}
	for (unsigned k = 0; k < v->num_made; k++) {
		struct phi_instr *phi = v->made[k];
		if (!(phi->instr.pass_flags & LIVE))
			foreach_phi_src_safe(ps, phi)
				phi_remove_src(phi, ps);
	}
	for (unsigned k = 0; k < v->num_made; k++) {
		struct phi_instr *phi = v->made[k];
		if (!(phi->instr.pass_flags & LIVE))
			instr_remove(&phi->instr);
		phi->instr.pass_flags = 0;
	}
}

/* Drop the promoted locals' declarations; renumber the others. */
static void compact_locals(struct vars *v)
{
	struct shader *s = v->s;
	unsigned *map = xmalloc((v->num_locals + 1) * sizeof(*map)), n = 0;
	for (unsigned i = 0; i < v->num_locals; i++) {
		map[i] = n;
		if (!v->direct[i])
			s->locals[n++] = s->locals[i];
	}
	s->num_locals = n;
	foreach_block(b, v->fn)
		foreach_instr(i, b)
			if (instr_is_local_access(i, NULL)) {
				struct intrinsic_instr *intr = instr_as_intrinsic(i);
				intrinsic_set(intr, INTR_IDX_local,
					      (int32_t)map[intrinsic_get(intr, INTR_IDX_local)]);
			}
	free(map);
}

bool lower_vars_to_ssa(struct shader *s)
{
	struct vars v = { .s = s, .fn = s->fn, .num_locals = s->num_locals };
	if (!s->num_locals)
		return shader_progress(s, false, META_ALL);
	v.direct = xcalloc(v.num_locals, sizeof(*v.direct));
	v.first = xcalloc(v.num_locals + 1, sizeof(*v.first));
	if (!find_direct(&v)) {
		free(v.direct);
		free(v.first);
		return shader_progress(s, false, META_ALL);
	}
	metadata_require(v.fn, META_BLOCK_INDEX | META_DOMINANCE);
	foreach_block(b, v.fn)
		foreach_instr(i, b)
			i->pass_flags = 0;
	v.cur = xcalloc(v.num_vars + 1, sizeof(*v.cur));
	v.undef = xcalloc(v.num_vars + 1, sizeof(*v.undef));
	v.phis = xcalloc(v.fn->num_blocks + 1, sizeof(*v.phis));
	place_phis(&v);
	rename_all(&v);
	clean_unreachable(&v);
	complete_phis(&v);
	remove_dead_phis(&v);
	compact_locals(&v);
	for (unsigned i = 0; i <= v.fn->num_blocks; i++) {
		free(v.phis[i].vars);
		free(v.phis[i].phis);
	}
	free(v.phis);
	free(v.made);
	free(v.cur);
	free(v.undef);
	free(v.direct);
	free(v.first);
	return shader_progress(s, true, META_BLOCK_INDEX | META_DOMINANCE);
}
