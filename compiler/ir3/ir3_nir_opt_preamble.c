/*
 * ir3_nir_opt_preamble: work that depends only on uniforms moves into a
 * preamble that one fibre of the first wave runs once per draw; its results
 * go to the const file and the main shader reads them as consts (Mesa's
 * nir_opt_preamble with ir3_nir_opt_preamble's cost model, and
 * ir3_nir_lower_preamble's sequence).  a6xx+ (`has_preamble`).  The result:
 *
 *	if (preamble_start_ir3) {            shps
 *		if (elect_any_ir3) {         getone
 *			%m = …the moved work…
 *			store_preamble %m base=0
 *			preamble_end_ir3     shpe
 *		}
 *	}
 *	%r = load_preamble base=0            a const read in the main shader
 *
 * The rules, Mesa's:
 *  - What can move (can_move): constants, ALU of movable sources, and
 *    intrinsics whose result is the same for the whole draw: UBO, uniform
 *    and push-constant loads of movable offsets, the draw id, base vertex
 *    and base instance, the subgroup size and count, the workgroup size and
 *    count, buffer and image sizes, ballot queries of a movable ballot.  A
 *    phi moves when the if before it has a movable condition (the if is
 *    then rebuilt in the preamble).  What sits in a loop or a non-uniform
 *    if moves too (every such value may be computed speculatively: UBO
 *    loads are bounds-checked).  64-bit values stay (ir3 splits them).
 *  - Candidates: movable values with a user that cannot move (or an if).
 *  - Value: an instruction's cost (instr_cost below), plus its movable
 *    sources' values, each shared among its movable users; a candidate's
 *    value does not flow on (choosing it does not remove its users' work).
 *    Benefit = value - the cost of reading it back (rewrite_cost); those with
 *    a positive benefit are kept while they fit the const file's free space
 *    (dwords, def_size), greedily by value per dword when they do not all.
 *  - The moved values' users read them with load_preamble; booleans travel
 *    as 32-bit integers and 16-bit values widened to 32 bits (as floats
 *    when every user reads a float: the narrowing folds into the use).
 *
 * ir3_nir_analyze_ubo_ranges then places the region (after the pushed UBO
 * ranges, before the driver params; ir3_nir.h) and pushes the preamble's
 * own UBO loads; selection makes shps/getone/shpe and stc (ir3_isel*.c).
 * Not modelled: textures in the preamble (Mesa turns a tex of uniform
 * coordinates into txd), a7xx descriptor prefetches.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/ir3/ir3_nir.h"

struct def_state {
	bool can_move, candidate, replace, reconstruct;
	unsigned can_move_users;
	unsigned size, offset;		/* dwords */
	float value, benefit;
};

struct preamble {
	struct shader *s;
	struct def_state *st;		/* by SSA index, below num_defs */
	unsigned num_defs;
	struct cf_if **rebuilt;		/* ifs the preamble rebuilds */
	unsigned num_rebuilt, cap_rebuilt;
	struct ssa_def **remap;		/* by SSA index: the preamble's copy */
	struct cf_node *skip;		/* the preamble's own if */
	unsigned cf_depth;		/* ifs and loops around what can_move_list sees */
};

static struct def_state *state(struct preamble *p, struct ssa_def *d)
{
	return d->index < p->num_defs ? &p->st[d->index] : NULL;
}

/* ------------------------------------------------------------------ */
/* can_move (what sits in loops and non-uniform ifs too: Mesa moves it from
 * there when it may be speculated, and every value below may) */

static bool src_movable(struct src *src, void *data)
{
	struct def_state *s = state(data, src->ssa);
	return s && s->can_move;
}

static bool srcs_movable(struct preamble *p, struct instr *in)
{
	return instr_foreach_src(in, src_movable, p);
}

static bool intrinsic_movable(struct preamble *p, struct intrinsic_instr *intr)
{
	switch (intr->op) {
	case INTR_load_base_instance: case INTR_load_base_vertex: case INTR_load_draw_id:
	case INTR_load_subgroup_size: case INTR_load_num_subgroups:
	case INTR_load_workgroup_size: case INTR_load_num_workgroups:
		return true;
	case INTR_load_ubo: case INTR_load_uniform: case INTR_load_push_constant:
	case INTR_get_ssbo_size: case INTR_image_size: case INTR_image_samples:
	case INTR_ballot_bitfield_extract: case INTR_ballot_find_lsb: case INTR_ballot_find_msb:
	case INTR_ballot_bit_count_reduce: case INTR_load_sample_pos_from_id:
		return srcs_movable(p, &intr->instr);
	case INTR_load_ssbo: case INTR_image_load:
		/* CAN_REORDER (nothing in the shader writes them: opt_access), and
		 * outside any if or loop: they cannot be speculated, and the
		 * preamble rebuilds an if only for a phi (Mesa's nir_opt_preamble
		 * also takes those of uniform ifs, rebuilding the if) */
		return p->cf_depth == 0 &&
		       ((unsigned)intrinsic_get(intr, INTR_IDX_access) & ACCESS_CAN_REORDER) &&
		       srcs_movable(p, &intr->instr);
	default:
		return false;
	}
}

/* The if just before a phi's block (the only phis that move: those with
 * a source from the end of each branch). */
static struct cf_if *phi_if(struct instr *phi)
{
	struct cf_node *prev = cf_node_prev(&phi->block->cf);
	if (!prev || prev->type != CF_IF)
		return NULL;
	struct cf_if *nif = cf_as_if(prev);
	struct phi_instr *p = instr_as_phi(phi);
	bool then_src = false, else_src = false;
	foreach_phi_src(ps, p) {
		then_src |= ps->pred == cf_list_last_block(&nif->then_list);
		else_src |= ps->pred == cf_list_last_block(&nif->else_list);
	}
	return then_src && else_src ? nif : NULL;
}

static bool instr_movable(struct preamble *p, struct instr *in)
{
	struct ssa_def *d = instr_def(in);
	if (!d || d->bit_size == 64)
		return false;
	switch (in->type) {
	case INSTR_alu: return srcs_movable(p, in);
	case INSTR_load_const: case INSTR_undef: return true;
	case INSTR_intrinsic: return intrinsic_movable(p, instr_as_intrinsic(in));
	case INSTR_tex: {
		/* a fetch that takes no derivatives (the preamble runs one
		 * fibre): sizes, levels, explicit lods, texel fetches, gathers;
		 * Mesa also moves a plain tex, made a txd of zero gradients */
		enum tex_op op = instr_as_tex(in)->op;
		return op != TEX_OP_tex && op != TEX_OP_txb && op != TEX_OP_lod &&
		       srcs_movable(p, in);
	}
	case INSTR_phi: {
		struct cf_if *nif = phi_if(in);
		return nif && src_movable(&nif->condition, p) && srcs_movable(p, in);
	}
	default: return false;
	}
}

static void can_move_list(struct preamble *p, struct list *list)
{
	foreach_cf_node(node, list) {
		switch (node->type) {
		case CF_BLOCK:
			foreach_instr(in, cf_as_block(node)) {
				struct ssa_def *d = instr_def(in);
				if (d)
					p->st[d->index].can_move = instr_movable(p, in);
			}
			break;
		case CF_IF:
			p->cf_depth++;
			can_move_list(p, &cf_as_if(node)->then_list);
			can_move_list(p, &cf_as_if(node)->else_list);
			p->cf_depth--;
			break;
		case CF_LOOP:
			p->cf_depth++;
			can_move_list(p, &cf_as_loop(node)->body);
			p->cf_depth--;
			break;
		case CF_FUNCTION: BUG("a function inside a function");
		}
	}
}

/* ------------------------------------------------------------------ */
/* ir3's cost model (ir3_nir_opt_preamble.c's instr_cost, rewrite_cost,
 * def_size) */

static unsigned alu_src_index(struct alu_instr *alu, struct src *use)
{
	for (unsigned k = 0; k < alu_op_infos[alu->op].num_inputs; k++)
		if (&alu->src[k].src == use)
			return k;
	BUG("a use that is not a source of its instruction");
}

/* Every user reads it as a float (source modifiers fold a negation, an
 * absolute value or a conversion there); not src2 of a cat3 unless
 * `allow_src2`. */
static bool all_uses_float(struct ssa_def *d, bool allow_src2)
{
	foreach_use(use, d) {
		if (use->parent_if || use->parent_instr->type != INSTR_alu)
			return false;
		struct alu_instr *alu = instr_as_alu(use->parent_instr);
		unsigned k = alu_src_index(alu, use);
		if (alu_type_base(alu_op_infos[alu->op].input_types[k]) != BASE_float ||
		    (k == 2 && !allow_src2))
			return false;
	}
	return true;
}

/* Every user is a bitwise op that takes (not) on its source. */
static bool all_uses_bit(struct ssa_def *d)
{
	foreach_use(use, d) {
		if (use->parent_if || use->parent_instr->type != INSTR_alu)
			return false;
		switch (instr_as_alu(use->parent_instr)->op) {
		case OP_iand: case OP_ior: case OP_inot: case OP_ixor: case OP_bitfield_reverse:
		case OP_ufind_msb: case OP_ifind_msb: case OP_find_lsb: case OP_ishl: case OP_ushr:
		case OP_ishr: case OP_bit_count:
			continue;
		default:
			return false;
		}
	}
	return true;
}

static bool is_vec_or_mov(enum alu_op op)
{
	return op == OP_mov || op == OP_vec2 || op == OP_vec3 || op == OP_vec4 || op == OP_vec8 ||
	       op == OP_vec16;
}

static float alu_cost(struct alu_instr *alu)
{
	float n = alu->def.num_components;
	switch (alu->op) {
	case OP_frcp: case OP_fsqrt: case OP_frsq: case OP_flog2: case OP_fexp2: case OP_fsin:
	case OP_fcos:
		return 4 * n;			/* cat4 */
	case OP_f2f32: case OP_f2f16: case OP_fneg:
		return all_uses_float(&alu->def, true) ? 0 : n;
	case OP_fabs:
		return all_uses_float(&alu->def, false) ? 0 : n;
	case OP_inot:
		return all_uses_bit(&alu->def) ? 0 : n;
	default:
		return is_vec_or_mov(alu->op) ? 0 : n;
	}
}

static bool const_source(struct src *s)
{
	struct load_const_instr *lc = ssa_def_as_const(s->ssa);
	return lc && lc->instr.type == INSTR_load_const;
}

static float instr_cost(struct instr *in)
{
	switch (in->type) {
	case INSTR_alu: return alu_cost(instr_as_alu(in));
	case INSTR_tex: return 8;
	case INSTR_phi: return 2;	/* a proxy for the if's branches */
	case INSTR_intrinsic: {
		struct intrinsic_instr *intr = instr_as_intrinsic(in);
		switch (intr->op) {
		case INTR_load_ubo:
			/* UBO pushing takes a direct load better */
			return const_source(&intr->src[0]) && const_source(&intr->src[1]) ? 0 : 8;
		case INTR_load_ssbo: case INTR_get_ssbo_size: case INTR_image_load:
			return 8;
		default:
			return 0;
		}
	}
	default: return 0;
	}
}

/* Reading it back in the main shader: booleans need a conversion, and a
 * const cannot go where a register must (a non-ALU user, a vecN or mov:
 * one mov per component); elsewhere the const folds into the source. */
static float rewrite_cost(struct ssa_def *d)
{
	if (d->bit_size == 1)
		return d->num_components;
	foreach_use(use, d) {
		if (use->parent_if)
			continue;
		struct instr *u = use->parent_instr;
		if (u->type != INSTR_alu || is_vec_or_mov(instr_as_alu(u)->op))
			return d->num_components;
	}
	return 0;
}

static unsigned def_size(const struct ssa_def *d)
{
	return d->num_components * (d->bit_size > 32 ? d->bit_size / 32 : 1);
}

/* ------------------------------------------------------------------ */
/* choosing what moves */

static void find_candidates(struct preamble *p)
{
	foreach_block_reverse(blk, p->s->fn)
		foreach_instr_reverse(in, blk) {
			struct ssa_def *d = instr_def(in);
			struct def_state *st = d ? state(p, d) : NULL;
			if (!st || !st->can_move)
				continue;
			st->value = in->type == INSTR_load_const || in->type == INSTR_undef
					    ? 0 : instr_cost(in);
			foreach_use(use, d) {
				struct ssa_def *ud = use->parent_if ? NULL : instr_def(use->parent_instr);
				if (ud && state(p, ud)->can_move)
					st->can_move_users++;
				else
					st->candidate = true;
			}
		}
}

static bool add_src_value(struct src *src, void *data)
{
	struct def_state *const *pair = data;
	struct def_state *from = &pair[0][src->ssa->index];
	if (!from->candidate)
		pair[1]->value += from->value;
	return true;
}

/* by value per dword, then program order (Mesa's qsort; ours is stable) */
static int by_density(const void *a, const void *b)
{
	const struct def_state *x = *(struct def_state *const *)a;
	const struct def_state *y = *(struct def_state *const *)b;
	float vx = x->value / (float)x->size, vy = y->value / (float)y->size;
	if (vx != vy)
		return vx < vy ? 1 : -1;
	return x < y ? -1 : x > y;
}

/* Values flow down; candidates with a benefit are chosen while they fit.
 * Returns the dwords used. */
static unsigned choose(struct preamble *p, unsigned storage)
{
	struct def_state **cands = xmalloc(sizeof(*cands) * (p->num_defs + 1));
	unsigned n = 0, total = 0;
	foreach_block(blk, p->s->fn)
		foreach_instr(in, blk) {
			struct ssa_def *d = instr_def(in);
			struct def_state *st = d ? state(p, d) : NULL;
			if (!st || !st->can_move)
				continue;
			struct def_state *pair[2] = { p->st, st };
			instr_foreach_src(in, add_src_value, pair);
			if (!st->candidate) {
				st->value = st->can_move_users ? st->value / st->can_move_users : 0;
				continue;
			}
			st->benefit = st->value - rewrite_cost(d);
			if (st->benefit > 0) {
				st->size = def_size(d);
				total += st->size;
				cands[n++] = st;
			}
		}
	if (total > storage)
		qsort(cands, n, sizeof(*cands), by_density);
	unsigned offset = 0;
	for (unsigned k = 0; k < n && offset + cands[k]->size <= storage; k++) {
		cands[k]->replace = true;
		cands[k]->offset = offset;
		offset += cands[k]->size;
	}
	free(cands);
	return offset;
}

/* ------------------------------------------------------------------ */
/* what the preamble rebuilds: the chosen values, what they are computed
 * from, and the ifs of the phis among them (with their conditions) */

static bool is_rebuilt(struct preamble *p, struct cf_if *nif)
{
	for (unsigned k = 0; k < p->num_rebuilt; k++)
		if (p->rebuilt[k] == nif)
			return true;
	return false;
}

static void mark_rebuilt(struct preamble *p, struct cf_if *nif)
{
	if (is_rebuilt(p, nif))
		return;
	if (p->num_rebuilt == p->cap_rebuilt) {
		p->cap_rebuilt = p->cap_rebuilt ? 2 * p->cap_rebuilt : 8;
		p->rebuilt = xrealloc(p->rebuilt, sizeof(*p->rebuilt) * p->cap_rebuilt);
	}
	p->rebuilt[p->num_rebuilt++] = nif;
}

static bool mark_src(struct src *src, void *data)
{
	struct preamble *p = data;
	p->st[src->ssa->index].reconstruct = true;
	return true;
}

static void analyze_reconstructed(struct preamble *p)
{
	foreach_block_reverse(blk, p->s->fn) {
		struct cf_node *next = cf_node_next(&blk->cf);
		if (next && next->type == CF_IF && is_rebuilt(p, cf_as_if(next)))
			p->st[cf_as_if(next)->condition.ssa->index].reconstruct = true;
		foreach_instr_reverse(in, blk) {
			struct ssa_def *d = instr_def(in);
			struct def_state *st = d ? state(p, d) : NULL;
			if (!st)
				continue;
			if (st->replace)
				st->reconstruct = true;
			if (!st->reconstruct)
				continue;
			if (!st->can_move)
				BUG("rebuilding %%%u, which cannot move", d->index);
			instr_foreach_src(in, mark_src, p);
			if (in->type == INSTR_phi)
				mark_rebuilt(p, phi_if(in));
		}
	}
}

/* ------------------------------------------------------------------ */
/* building the preamble */

static struct ssa_def *remapped(struct ssa_def *d, void *data)
{
	struct preamble *p = data;
	if (!p->remap[d->index])
		BUG("%%%u is used in the preamble before it is copied", d->index);
	return p->remap[d->index];
}

/* `v` as the 32-bit value the const file holds */
static struct ssa_def *widen(struct builder *b, struct ssa_def *v, bool as_float)
{
	if (v->bit_size == 1)
		return b_b2i32(b, v);
	if (v->bit_size == 32)
		return v;
	return as_float ? b_f2f32(b, v) : b_u2u32(b, v);
}

/* and back, in the main shader */
static struct ssa_def *narrow(struct builder *b, struct ssa_def *v, unsigned bits, bool as_float)
{
	if (bits == 1)
		return b_i2b1(b, v);
	if (bits == 32)
		return v;
	if (as_float)
		return b_f2f16(b, v);
	return bits == 16 ? b_u2u16(b, v) : b_u2u8(b, v);
}

static bool promoted_to_float(struct ssa_def *d)
{
	return d->bit_size == 16 && all_uses_float(d, true);
}

static void copy_list(struct preamble *p, struct builder *b, struct list *list);

static void copy_instr(struct preamble *p, struct builder *b, struct instr *in)
{
	struct ssa_def *d = instr_def(in);
	struct def_state *st = d ? state(p, d) : NULL;
	if (!st || !st->reconstruct)
		return;
	struct ssa_def *copy;
	if (in->type == INSTR_phi) {
		struct cf_if *nif = phi_if(in);
		struct ssa_def *then_def = NULL, *else_def = NULL;
		foreach_phi_src(ps, instr_as_phi(in)) {
			if (ps->pred == cf_list_last_block(&nif->then_list))
				then_def = remapped(ps->src.ssa, p);
			else
				else_def = remapped(ps->src.ssa, p);
		}
		struct cf_if *copied_if = cf_as_if(cf_node_prev(&cursor_block(b->cursor)->cf));
		copy = b_if_phi(b, copied_if, then_def, else_def);
		b->cursor = cursor_after_phis(cursor_block(b->cursor));
	} else {
		struct instr *n = instr_clone_shell(p->s, in);
		instr_clone_srcs(in, n, remapped, p);
		b_insert(b, n);
		copy = instr_def(n);
	}
	p->remap[d->index] = copy;
	if (st->replace)
		b_intr(b, store_preamble, copy->num_components, 0,
		       (widen(b, copy, promoted_to_float(d))), .base = (int32_t)st->offset);
}

static void copy_list(struct preamble *p, struct builder *b, struct list *list)
{
	foreach_cf_node(node, list) {
		if (node == p->skip)
			continue;
		switch (node->type) {
		case CF_BLOCK:
			foreach_instr(in, cf_as_block(node))
				copy_instr(p, b, in);
			break;
		case CF_IF: {
			struct cf_if *nif = cf_as_if(node);
			if (!is_rebuilt(p, nif)) {
				copy_list(p, b, &nif->then_list);
				copy_list(p, b, &nif->else_list);
				break;
			}
			struct cf_if *copy = b_push_if(b, remapped(nif->condition.ssa, p));
			copy_list(p, b, &nif->then_list);
			b_push_else(b, copy);
			copy_list(p, b, &nif->else_list);
			b_pop_if(b, copy);
			break;
		}
		case CF_LOOP:
			copy_list(p, b, &cf_as_loop(node)->body);
			break;
		case CF_FUNCTION: BUG("a function inside a function");
		}
	}
}

/* The preamble at the top of the shader (Mesa's ir3_nir_lower_preamble
 * sequence), then every chosen value's users read its copy. */
static void build(struct preamble *p)
{
	struct function *fn = p->s->fn;
	struct builder b;
	builder_init(&b, p->s, cursor_before_block(function_start_block(fn)));
	struct cf_if *start = b_push_if(&b, b_intr(&b, preamble_start_ir3, 1, 1, ()));
	p->skip = &start->cf;
	struct cf_if *elect = b_push_if(&b, b_intr(&b, elect_any_ir3, 1, 1, ()));
	copy_list(p, &b, &fn->body);
	b_intr(&b, preamble_end_ir3, 0, 0, ());
	b_pop_if(&b, elect);
	b_pop_if(&b, start);

	foreach_block(blk, fn)
		foreach_instr_safe(in, blk) {
			struct ssa_def *d = instr_def(in);
			struct def_state *st = d ? state(p, d) : NULL;
			if (!st || !st->replace)
				continue;
			builder_init(&b, p->s, in->type == INSTR_phi ? cursor_after_phis(blk)
								    : cursor_after_instr(in));
			bool as_float = promoted_to_float(d);
			struct ssa_def *v = b_intr(&b, load_preamble, d->num_components, 32, (),
						   .base = (int32_t)st->offset);
			ssa_def_rewrite_uses(d, narrow(&b, v, d->bit_size, as_float));
		}
}

bool ir3_nir_opt_preamble(struct shader *s, const struct ir3_lowering *t)
{
	if (!t->has_preamble)
		return false;
	unsigned storage = ir3_const_free_vec4(s, t) * 4;
	if (!storage)
		return false;
	struct preamble p = { .s = s, .num_defs = s->fn->ssa_alloc };
	p.st = xcalloc(p.num_defs + 1, sizeof(*p.st));
	can_move_list(&p, &s->fn->body);
	find_candidates(&p);
	bool progress = choose(&p, storage) > 0;
	if (progress) {
		analyze_reconstructed(&p);
		p.remap = xcalloc(p.num_defs + 1, sizeof(*p.remap));
		build(&p);
		free(p.remap);
	}
	free(p.rebuilt);
	free(p.st);
	return shader_progress(s, progress, 0);
}
