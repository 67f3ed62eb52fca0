/*
 * opt_algebraic: algebraic simplification by the rules of
 * algebraic_rules.c (notation and exactness in algebraic.h).
 *
 * Matching.  A rule's search pattern is matched top-down from an ALU
 * instruction, following sources through their swizzles: a pattern node
 * below the root reads, for each component c of the root, component
 * swz[c] of its value, and its own sources compose their swizzles with
 * that.  A variable binds a value and the swizzle it is read with; a
 * second occurrence must read the same value the same way.  Commutative
 * opcodes are tried in both orders: every combination of orders of the
 * pattern's commutative nodes is tried in turn (few nodes, so few tries).
 *
 *	rule	iadd(iadd(na, kb), kc) => iadd(a, iadd(b, c))
 *	32 %3 = iadd %1, %2		(%2 = load_const 4, %1 not constant)
 *	32 %5 = iadd %4, %3		(%4 = load_const 1)
 *	=>	32 %7 = load_const 5	(iadd(b, c) folded at once)
 *		32 %8 = iadd %1, %7
 *
 * Rewriting.  The replacement is built just before the root with the
 * root's component count, the root's uses move to it and the root goes;
 * sources that die are left for opt_dce.  The walk then resumes at the
 * first instruction built, so a rewrite that enables another is taken in
 * the same run (with a budget against rule sets that would cycle).
 * Rules are indexed by the opcode of their root per run: the table stays
 * constant and nothing is global.
 *
 * Inexact rules apply to instructions not marked exact, at the float sizes
 * whose signed zeros, infinities and NaNs the shader does not ask to
 * preserve (float_controls szinp16/32/64): Vulkan's default float rules,
 * and what Mesa does.  The registry declares it (.float_relaxed), so the
 * interpreter's equivalence test holds the pass to those rules.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/opt/algebraic.h"
#include "compiler/opt/opt.h"

struct binding {
	struct ssa_def *def;
	uint8_t swz[16];
};

struct match {
	const struct algebraic_rule *rule;
	struct alu_instr *root;
	unsigned nc;			/* components of the root */
	struct binding vars[ALGEBRAIC_MAX_VARS];
	unsigned bound;			/* mask of bound variables */
	unsigned swaps;			/* order choice of each commutative node */
	unsigned next_comm;		/* commutative nodes numbered so far */
};

/* ---- conditions on constants ---- */

static uint64_t mask_bits(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : v & (((uint64_t)1 << bits) - 1);
}

static int64_t sext_bits(uint64_t v, unsigned bits)
{
	if (bits >= 64)
		return (int64_t)v;
	uint64_t sign = (uint64_t)1 << (bits - 1);
	return (int64_t)((mask_bits(v, bits) ^ sign) - sign);
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* ±2^k with 1/x a normal float of the same size. */
static bool is_fpow2_rcp(uint64_t raw, unsigned bits)
{
	static const int min_exp[] = { [16] = -14, [32] = -126, [64] = -1022 };
	static const int max_exp[] = { [16] = 15, [32] = 127, [64] = 1023 };
	if (bits < 16)
		return false;
	double x = ir_float_from_bits(raw, bits);
	int e;
	if (x == 0 || !isfinite(x) || fabs(frexp(x, &e)) != 0.5)
		return false;
	/* x = ±2^(e-1): the reciprocal is 2^(1-e) */
	return 1 - e >= min_exp[bits] && 1 - e <= max_exp[bits];
}

static bool const_cond_ok(enum var_cond cond, uint64_t v, unsigned bits)
{
	switch (cond) {
	case VC_POW2:
		return is_pow2(mask_bits(v, bits));
	case VC_POS_POW2:
		return sext_bits(v, bits) > 0 && is_pow2(mask_bits(v, bits));
	case VC_NEG_POW2:
		return sext_bits(v, bits) < 0 && is_pow2((uint64_t)0 - (uint64_t)sext_bits(v, bits));
	case VC_FPOW2_RCP:
		return is_fpow2_rcp(v, bits);
	case VC_NOT_NAN:
		return bits >= 16 && !isnan(ir_float_from_bits(v, bits));
	default:
		return true;
	}
}

static bool var_cond_ok(struct match *m, enum var_cond cond, struct ssa_def *def,
			const uint8_t *swz)
{
	struct load_const_instr *lc = ssa_def_as_const(def);
	if (cond == VC_ANY)
		return true;
	if (cond == VC_NOT_CONST)
		return !lc;
	if (!lc)
		return false;
	for (unsigned c = 0; c < m->nc; c++)
		if (!const_cond_ok(cond, lc->value[swz[c]], def->bit_size))
			return false;
	return true;
}

/* A literal's bits at a bit size (false: a float literal below 16 bits). */
static bool literal_value(const struct pnode *n, unsigned bits, uint64_t *v)
{
	if (n->kind == PN_FLOAT) {
		if (bits < 16)
			return false;
		*v = ir_float_to_bits(n->f, bits);
		return true;
	}
	*v = mask_bits((uint64_t)n->i, bits);
	return true;
}

/* ---- matching ---- */

static bool match_value(struct match *m, const struct pnode *n, struct ssa_def *def,
			const uint8_t *swz);

static bool match_alu(struct match *m, const struct pnode *n, struct alu_instr *alu,
		      const uint8_t *swz)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	if (alu->op != n->op || info->output_size)
		return false;
	if (m->rule->inexact && alu->exact)
		return false;
	bool swap = false;
	if ((info->props & ALU_COMMUTATIVE) && info->num_inputs >= 2)
		swap = (m->swaps >> m->next_comm++) & 1;
	for (unsigned k = 0; k < info->num_inputs; k++) {
		unsigned from = swap && k < 2 ? 1 - k : k;
		uint8_t child[16];
		for (unsigned c = 0; c < m->nc; c++)
			child[c] = alu->src[from].swizzle[swz[c]];
		if (!match_value(m, n->src[k], alu->src[from].src.ssa, child))
			return false;
	}
	return true;
}

static bool match_value(struct match *m, const struct pnode *n, struct ssa_def *def,
			const uint8_t *swz)
{
	switch (n->kind) {
	case PN_VAR: {
		struct binding *b = &m->vars[n->var];
		if (n->bits && def->bit_size != n->bits)
			return false;
		if (!var_cond_ok(m, n->cond, def, swz))
			return false;
		if (m->bound & (1u << n->var))
			return b->def == def && !memcmp(b->swz, swz, m->nc);
		m->bound |= 1u << n->var;
		b->def = def;
		memcpy(b->swz, swz, m->nc);
		return true;
	}
	case PN_FLOAT:
	case PN_INT: {
		struct load_const_instr *lc = ssa_def_as_const(def);
		uint64_t want;
		if (!lc || !literal_value(n, def->bit_size, &want))
			return false;
		for (unsigned c = 0; c < m->nc; c++)
			if (lc->value[swz[c]] != want)
				return false;
		return true;
	}
	case PN_OP:
		if (def->parent->type != INSTR_alu)
			return false;
		if (n->once && ssa_def_num_uses(def) != 1)
			return false;
		return match_alu(m, n, instr_as_alu(def->parent), swz);
	}
	return false;
}

static unsigned count_commutative(const struct pnode *n)
{
	if (n->kind != PN_OP)
		return 0;
	const struct alu_op_info *info = &alu_op_infos[n->op];
	unsigned count = (info->props & ALU_COMMUTATIVE) && info->num_inputs >= 2;
	for (unsigned k = 0; k < info->num_inputs; k++)
		count += count_commutative(n->src[k]);
	return count;
}

static bool rule_cond_ok(struct match *m)
{
	switch ((enum rule_cond)m->rule->cond) {
	case RC_SHIFTS_FIT: {
		unsigned bits = m->vars[0].def->bit_size;
		struct load_const_instr *b = ssa_def_as_const(m->vars[1].def);
		struct load_const_instr *c = ssa_def_as_const(m->vars[2].def);
		for (unsigned k = 0; k < m->nc; k++) {
			uint64_t x = b->value[m->vars[1].swz[k]], y = c->value[m->vars[2].swz[k]];
			if (x >= bits || y >= bits || x + y >= bits)
				return false;
		}
		return true;
	}
	default:
		return true;
	}
}

/* Whether the shader lets inexact rules touch floats of this size. */
static bool inexact_allowed(struct shader *s, unsigned bits)
{
	unsigned bit = bits == 16 ? FLOAT_CONTROL_BIT_szinp16
		       : bits == 32 ? FLOAT_CONTROL_BIT_szinp32 : FLOAT_CONTROL_BIT_szinp64;
	return !(s->info.float_controls & (1u << bit));
}

/* `bits`: the root's unsized bit size; `num_comm`: the pattern's
 * commutative nodes (count_commutative()). */
static bool match_rule(struct match *m, struct alu_instr *alu, const struct algebraic_rule *r,
		       unsigned bits, unsigned num_comm)
{
	static const uint8_t identity[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	if (r->search->op != alu->op || (r->bits && !(r->bits & ir_bits_mask(bits))))
		return false;
	if (r->inexact && !inexact_allowed(alu->instr.shader, bits))
		return false;
	if (r->bitops && !alu->instr.shader->info.algebraic_bitops)
		return false;
	if (r->search->once && ssa_def_num_uses(&alu->def) != 1)
		return false;
	m->rule = r;
	m->root = alu;
	m->nc = alu->def.num_components;
	for (unsigned t = 0; t < 1u << num_comm; t++) {
		m->bound = 0;
		m->next_comm = 0;
		m->swaps = t;
		if (match_alu(m, r->search, alu, identity) && rule_cond_ok(m))
			return true;
	}
	return false;
}

/* ---- building the replacement ---- */

struct built {
	struct ssa_def *def;
	uint8_t swz[16];
};

static unsigned unsized_bits(struct match *m, const struct pnode *n);

/* The bit size a replacement node has, if its sources tell (0: a literal). */
static unsigned node_bits(struct match *m, const struct pnode *n)
{
	if (n->kind == PN_VAR)
		return m->vars[n->var].def->bit_size;
	if (n->kind != PN_OP)
		return 0;
	unsigned out = alu_type_bits(alu_op_infos[n->op].output_type);
	return out ? out : unsized_bits(m, n);
}

static unsigned unsized_bits(struct match *m, const struct pnode *n)
{
	const struct alu_op_info *info = &alu_op_infos[n->op];
	for (unsigned k = 0; k < info->num_inputs; k++) {
		if (alu_type_bits(info->input_types[k]))
			continue;
		unsigned bits = node_bits(m, n->src[k]);
		if (bits)
			return bits;
	}
	return 0;
}

static struct built build(struct match *m, struct cursor at, const struct pnode *n, unsigned want)
{
	struct shader *s = m->root->instr.shader;
	struct built out;
	memset(out.swz, 0, sizeof(out.swz));
	if (n->kind == PN_VAR) {
		out.def = m->vars[n->var].def;
		memcpy(out.swz, m->vars[n->var].swz, m->nc);
		return out;
	}
	if (n->kind != PN_OP) {
		struct load_const_instr *lc = load_const_instr_create(s, 1, want);
		if (!literal_value(n, want, &lc->value[0]))
			BUG("algebraic rule at line %u: a float literal of %u bits", m->rule->line, want);
		instr_insert(at, &lc->instr);
		out.def = &lc->def;
		return out;
	}

	const struct alu_op_info *info = &alu_op_infos[n->op];
	unsigned u = unsized_bits(m, n);
	unsigned out_bits = alu_type_bits(info->output_type);
	if (!u)
		u = want;
	if (!out_bits)
		out_bits = u;
	struct alu_instr *alu = alu_instr_create(s, n->op);
	for (unsigned k = 0; k < info->num_inputs; k++) {
		unsigned w = alu_type_bits(info->input_types[k]);
		struct built src = build(m, at, n->src[k], w ? w : u);
		src_init(&alu->src[k].src, &alu->instr, src.def);
		memcpy(alu->src[k].swizzle, src.swz, m->nc);
	}
	alu->exact = m->root->exact;
	alu->mediump = m->root->mediump;
	ssa_def_init(&alu->instr, &alu->def, m->nc, out_bits);

	uint64_t value[16];
	if (alu_instr_fold_const(alu, value)) {
		/* never inserted, so never linked: it just stays in the arena */
		struct load_const_instr *lc = load_const_instr_create(s, m->nc, out_bits);
		memcpy(lc->value, value, m->nc * sizeof(*value));
		instr_insert(at, &lc->instr);
		out.def = &lc->def;
	} else {
		instr_insert(at, &alu->instr);
		out.def = &alu->def;
	}
	for (unsigned c = 0; c < m->nc; c++)
		out.swz[c] = (uint8_t)c;
	return out;
}

static void replace_root(struct match *m)
{
	struct alu_instr *root = m->root;
	struct cursor at = cursor_before_instr(&root->instr);
	const struct pnode *rep = m->rule->replace;
	struct built r;
	if (rep->kind == PN_FLOAT || rep->kind == PN_INT) {
		/* a constant result: a whole vector, not a broadcast swizzle */
		struct load_const_instr *lc =
			load_const_instr_create(root->instr.shader, m->nc, root->def.bit_size);
		for (unsigned c = 0; c < m->nc; c++) {
			literal_value(rep, root->def.bit_size, &lc->value[c]);
			r.swz[c] = (uint8_t)c;
		}
		instr_insert(at, &lc->instr);
		r.def = &lc->def;
	} else {
		r = build(m, at, rep, root->def.bit_size);
	}
	struct ssa_def *def = r.def;
	bool identity = def->num_components == m->nc;
	for (unsigned c = 0; c < m->nc; c++)
		identity &= r.swz[c] == c;
	if (!identity) {
		struct alu_instr *mov = alu_instr_create(root->instr.shader, OP_mov);
		src_init(&mov->src[0].src, &mov->instr, def);
		memcpy(mov->src[0].swizzle, r.swz, m->nc);
		mov->exact = root->exact;
		mov->mediump = root->mediump;
		ssa_def_init(&mov->instr, &mov->def, m->nc, def->bit_size);
		instr_insert(at, &mov->instr);
		def = &mov->def;
	}
	if (def->bit_size != root->def.bit_size)
		BUG("algebraic rule at line %u gives %u bits for %u", m->rule->line, def->bit_size,
		    root->def.bit_size);
	ssa_def_rewrite_uses(&root->def, def);
	instr_remove(&root->instr);
}

static struct instr *apply(struct alu_instr *alu, const struct algebraic_rule *rule,
			   unsigned bits, unsigned num_comm, bool *applied)
{
	struct match m;
	*applied = false;
	if (!match_rule(&m, alu, rule, bits, num_comm))
		return NULL;
	struct instr *prev = instr_prev(&alu->instr), *next = instr_next(&alu->instr);
	struct block *b = alu->instr.block;
	replace_root(&m);
	*applied = true;
	struct instr *first = prev ? instr_next(prev) : block_first_instr(b);
	return first != next ? first : next;
}

struct instr *algebraic_apply(struct alu_instr *alu, const struct algebraic_rule *rule,
			      bool *applied)
{
	return apply(alu, rule, alu_instr_bit_size(alu), count_commutative(rule->search), applied);
}

/* ---- the pass ---- */

/* Rules by root opcode, in table order: first[op], then next[rule]; one
 * index with the inexact rules and one without, built once per process. */
struct rule_index {
	short first[OP_COUNT];
	short *next;
};

static struct rule_index rule_index[2];	/* [inexact allowed] */
static uint8_t *rule_num_comm;
static pthread_once_t rule_index_once = PTHREAD_ONCE_INIT;

static void build_rule_index(void)
{
	rule_num_comm = xmalloc(num_algebraic_rules);
	for (unsigned r = 0; r < num_algebraic_rules; r++)
		rule_num_comm[r] = (uint8_t)count_commutative(algebraic_rules[r].search);
	for (unsigned inexact = 0; inexact < 2; inexact++) {
		struct rule_index *x = &rule_index[inexact];
		x->next = xmalloc(num_algebraic_rules * sizeof(*x->next));
		for (unsigned op = 0; op < OP_COUNT; op++)
			x->first[op] = -1;
		for (unsigned r = num_algebraic_rules; r-- > 0;) {
			if (algebraic_rules[r].inexact && !inexact)
				continue;
			unsigned op = algebraic_rules[r].search->op;
			x->next[r] = x->first[op];
			x->first[op] = (short)r;
		}
	}
}

static bool algebraic(struct shader *s, bool inexact)
{
	pthread_once(&rule_index_once, build_rule_index);
	const short *first = rule_index[inexact].first, *next = rule_index[inexact].next;
	const uint8_t *num_comm = rule_num_comm;

	bool progress = false;
	unsigned budget = 64;
	foreach_block(b, s->fn)
		foreach_instr(i, b)
			budget += 4;
	foreach_block(b, s->fn) {
		struct instr *i = block_first_instr(b);
		while (i) {
			struct instr *resume = instr_next(i);
			if (i->type == INSTR_alu && budget && first[instr_as_alu(i)->op] >= 0) {
				struct alu_instr *alu = instr_as_alu(i);
				unsigned bits = alu_instr_bit_size(alu);
				for (short r = first[alu->op]; r >= 0; r = next[r]) {
					bool applied;
					struct instr *at = apply(alu, &algebraic_rules[r], bits, num_comm[r],
								 &applied);
					if (applied) {
						resume = at;
						progress = true;
						budget--;
						break;
					}
				}
			}
			i = resume;
		}
	}
	return shader_progress(s, progress, META_CONTROL_FLOW);
}

bool opt_algebraic(struct shader *s)
{
	return algebraic(s, true);
}

bool opt_algebraic_exact(struct shader *s)
{
	return algebraic(s, false);
}
