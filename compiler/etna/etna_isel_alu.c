/*
 * Selection of ALU instructions and constants for etnaviv (etna_isel.h),
 * following Mesa's etnaviv_compiler_nir.c and _emit.c
 * (../../shared/reference/targets.md §4.1, §4.3):
 *
 *  - one hardware instruction per ALU op (etna_ops[]'s mapping, HALTI0's
 *    booleans as floats: SET/SELECT on 0.0 and 1.0);
 *  - fneg/fabs feeding a float source become source modifiers;
 *  - constants and uniforms are uniform-file words read in place
 *    (const_src), immediates on HALTI2+; before GC7000 an instruction may
 *    read one uniform vec4 only: its constant sources are merged into one
 *    vec4 when they fit, else copied to temporaries (lower_alu);
 *  - a vecN emits nothing: its sources write their components, or movs do
 *    where they cannot (lower_alu, insert_vec_mov, real_def);
 *  - a result only a mov reads writes the mov's value, a mov only
 *    textures read is read through (BYPASS_DST, BYPASS_SRC).
 */
#include "compiler/etna/etna_isel.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

static bool is_vec(enum alu_op op)
{
	return op == OP_vec2 || op == OP_vec3 || op == OP_vec4;
}

static struct alu_instr *alu_of(const struct ssa_def *def)
{
	return def->parent->type == INSTR_alu ? instr_as_alu(def->parent) : NULL;
}

static bool used_by_if(const struct ssa_def *def)
{
	foreach_use(u, def)
		if (u->parent_if)
			return true;
	return false;
}

/* ---- constants ---- */

/* Mesa's const_add: the first slot of `c` holding `v` or empty. */
static int const_add(uint64_t *c, uint64_t v)
{
	for (unsigned i = 0; i < 4; i++)
		if (c[i] == v || !c[i]) {
			c[i] = v;
			return (int)i;
		}
	return -1;
}

struct etna_src esel_const_src(struct isel *c, const uint64_t *v, unsigned n, const uint8_t *swiz)
{
	struct etna_src src = { .value = ETNA_NO_VALUE };
	if (c->t->has_immediates && n == 1 && v[0] >> 32 == ETNA_UNIFORM_CONSTANT) {
		uint32_t bits = (uint32_t)v[0];
		src.file = ETNA_FILE_IMMED;
		if (!(bits & 0xfff)) {
			src.imm_type = ETNA_IMM_FLOAT20;
			src.imm = bits >> 12;
		} else if (bits < (1u << 20)) {
			src.imm_type = ETNA_IMM_UINT20;
			src.imm = bits;
		} else if (bits >= 0xfff80000u) {
			src.imm_type = ETNA_IMM_INT20;
			src.imm = bits & 0xfffff;
		} else {
			src.file = ETNA_FILE_NONE;
		}
		if (src.file)
			return src;
	}
	for (unsigned slot = 0;; slot++) {
		if ((slot + 1) * 4 > ETNA_MAX_IMM) {
			esel_error(c, "uniform file full (more than %u words)", ETNA_MAX_IMM);
			src.file = ETNA_FILE_IMMED;
			return src;
		}
		uint64_t *a = &c->s->consts[slot * 4], save[4];
		memcpy(save, a, sizeof(save));
		bool fits = true;
		for (unsigned k = 0; k < n && fits; k++) {
			int at = const_add(a, v[k]);
			fits = at >= 0;
			src.cmap[k] = (uint8_t)(at < 0 ? 0 : at);
		}
		if (!fits) {
			memcpy(a, save, sizeof(save));
			continue;
		}
		if (slot + 1 > c->s->const_count)
			c->s->const_count = slot + 1;
		src.file = ETNA_FILE_UNIFORM;
		src.reg = (uint16_t)slot;
		for (unsigned k = n; k < 4; k++)
			src.cmap[k] = src.cmap[0];
		memcpy(src.swiz, swiz, 4);
		return src;
	}
}

/* The tagged word of an IR constant component (booleans as the target
 * holds them: ~0 on HALTI2+, 1.0 before). */
static uint64_t const_word(struct isel *c, const struct load_const_instr *lc, unsigned k)
{
	uint64_t v = lc->value[k];
	if (lc->def.bit_size == 1)
		v = !v ? 0 : c->t->has_integers ? 0xffffffffu : 0x3f800000u;
	return ETNA_UNIFORM(ETNA_UNIFORM_CONSTANT, (uint32_t)v);
}

/* ---- classification: constants, vecN movs ---- */

static void classify_const(struct isel *c, struct instr *in)
{
	struct ssa_def *def = instr_def(in);
	struct isel_def *d = isel_def(c, def);
	d->kind = ISEL_CONST;
	d->num_components = def->num_components;
	for (unsigned k = 0; k < def->num_components && k < 4; k++)
		d->c[k] = in->type == INSTR_load_const
				  ? const_word(c, instr_as_load_const(in), k)
				  : ETNA_UNIFORM(ETNA_UNIFORM_CONSTANT, 0);
}

/* A vecN all of whose sources are constants is a constant (lower_alu). */
static void classify_vec(struct isel *c, struct alu_instr *alu)
{
	unsigned n = alu_op_infos[alu->op].num_inputs;
	isel_def(c, &alu->def)->kind = ISEL_TEMP;
	for (unsigned i = 0; i < n; i++)
		if (isel_def(c, alu->src[i].src.ssa)->kind != ISEL_CONST)
			return;
	struct isel_def *d = isel_def(c, &alu->def);
	d->kind = ISEL_CONST;
	d->num_components = (uint8_t)n;
	d->dead = true;
	for (unsigned i = 0; i < n; i++)
		d->c[i] = isel_def(c, alu->src[i].src.ssa)->c[alu->src[i].swizzle[0]];
}

void esel_classify(struct isel *c)
{
	foreach_block(b, c->ir->fn)
		foreach_instr(in, b) {
			struct ssa_def *def = instr_def(in);
			if (!def)
				continue;
			struct isel_def *d = isel_def(c, def);
			d->num_components = def->num_components;
			d->set = def->index;
			if (in->type == INSTR_load_const || in->type == INSTR_undef)
				classify_const(c, in);
			else if (in->type == INSTR_alu && is_vec(instr_as_alu(in)->op))
				classify_vec(c, instr_as_alu(in));
			else if (in->type != INSTR_intrinsic && d->kind == ISEL_NONE)
				d->kind = ISEL_TEMP;
			/* intrinsics and texture size queries:
			 * esel_intrinsics_classify, before */
		}
}

/* Whether source `i` of vecN `vec` needs a mov into the vector (lower_alu:
 * another user, or not an ALU or texture result). */
static bool vec_src_needs_mov(struct isel *c, struct alu_instr *vec, unsigned i)
{
	const struct ssa_def *s = vec->src[i].src.ssa;
	const struct isel_def *d = isel_def(c, s);
	if (d->kind != ISEL_TEMP)
		return true;
	if (s->parent->type != INSTR_alu && s->parent->type != INSTR_tex)
		return true;
	if (d->web)
		return true;	/* in a phi web: read through its register */
	foreach_use(u, s)
		if (u->parent_if || u->parent_instr != &vec->instr)
			return true;
	return false;
}

/* ---- real defs (Mesa's real_def): where each result is written ---- */

static void set_identity(struct isel_def *d, unsigned value)
{
	d->into = value;
	for (unsigned k = 0; k < 4; k++)
		d->wr[k] = k < d->num_components ? (uint8_t)k : ISEL_NO_COMP;
}

/* `def` writes into what `user` (a vecN or mov reading it) writes:
 * compose the user's map. */
static void write_into(struct isel *c, const struct ssa_def *def, struct alu_instr *user)
{
	struct isel_def *d = isel_def(c, def), *u = isel_def(c, &user->def);
	bool vec = is_vec(user->op);
	d->bypassed = true;
	d->into = u->into;
	for (unsigned k = 0; k < 4; k++) {
		uint8_t i = u->wr[k];
		d->wr[k] = ISEL_NO_COMP;
		if (i == ISEL_NO_COMP)
			continue;
		if (vec && user->src[i].src.ssa == def)
			d->wr[k] = user->src[i].swizzle[0];
		else if (!vec)
			d->wr[k] = user->src[0].swizzle[i];
	}
}

/* The use of `def` it writes through, or NULL. */
static struct alu_instr *bypass_use(struct isel *c, const struct ssa_def *def)
{
	if (used_by_if(def) || (def->parent->type != INSTR_alu && def->parent->type != INSTR_tex))
		return NULL;
	if (isel_def(c, def)->web)
		return NULL;
	foreach_use(u, def) {
		struct instr *in = u->parent_instr;
		if (!in || in->type != INSTR_alu)
			continue;
		struct alu_instr *alu = instr_as_alu(in);
		if (is_vec(alu->op) && isel_def(c, &alu->def)->kind == ISEL_TEMP) {
			for (unsigned i = 0; i < alu_op_infos[alu->op].num_inputs; i++)
				if (alu->src[i].src.ssa == def && !vec_src_needs_mov(c, alu, i))
					return alu;
			continue;
		}
		if (alu->op == OP_mov && ssa_def_num_uses(def) == 1)
			return alu;
	}
	return NULL;
}

/* A mov whose every reader is a texture fetch is read through. */
static bool bypass_src(struct isel *c, const struct ssa_def *def)
{
	struct alu_instr *mov = alu_of(def);
	if (!mov || mov->op != OP_mov || isel_def(c, def)->written_through || used_by_if(def))
		return false;
	foreach_use(u, def)
		if (!u->parent_instr || u->parent_instr->type != INSTR_tex)
			return false;
	return true;
}

/* Resolve the targets of every result from the last use backwards, so a
 * vecN's or mov's own target is known before its sources'. */
static void resolve(struct isel *c, struct ssa_def *def)
{
	struct isel_def *d = isel_def(c, def);
	if (d->kind != ISEL_TEMP || d->into != ETNA_NO_VALUE)
		return;
	struct alu_instr *user = bypass_use(c, def);
	if (user) {
		resolve(c, &user->def);
		isel_def(c, &user->def)->dead = true;
		isel_def(c, &user->def)->written_through = true;
		write_into(c, def, user);
		return;
	}
	/* an ALU or texture result stored whole in a location vertex outputs
	 * share is computed in that location's register, as into the vec4
	 * the linker merges them into */
	unsigned comp = 0, shared = ETNA_NO_VALUE;
	if ((def->parent->type == INSTR_alu || def->parent->type == INSTR_tex) && !d->web &&
	    !used_by_if(def))
		shared = esel_shared_output_value(c, def, &comp);
	if (shared != ETNA_NO_VALUE) {
		d->bypassed = true;
		d->into = shared;
		for (unsigned k = 0; k < 4; k++)
			d->wr[k] = k >= comp && k - comp < d->num_components ? (uint8_t)(k - comp)
									     : ISEL_NO_COMP;
		return;
	}
	set_identity(d, esel_own_value(c, def));
}

void esel_real_defs(struct isel *c)
{
	foreach_block(b, c->ir->fn)
		foreach_instr(in, b) {
			struct ssa_def *def = instr_def(in);
			if (def)
				isel_def(c, def)->into = ETNA_NO_VALUE;
		}
	foreach_block(b, c->ir->fn)
		foreach_instr(in, b) {
			struct ssa_def *def = instr_def(in);
			if (!def || isel_def(c, def)->kind != ISEL_TEMP)
				continue;
			if (in->type == INSTR_alu && bypass_src(c, def) && !bypass_use(c, def)) {
				struct isel_def *d = isel_def(c, def);
				d->kind = ISEL_BYPASS;
				d->dead = true;
				continue;
			}
			resolve(c, def);
		}
}

/* ---- sources ---- */

static bool is_mod(const struct alu_instr *p)
{
	return p && (p->op == OP_fneg || p->op == OP_fabs) && p->def.bit_size == 32;
}

/* The value under a chain of fneg/fabs and the modifiers it adds, as
 * etna_nir_lower_to_source_mods folds them instruction after instruction:
 * the parent's own op first (a negation under an abs goes away), then the
 * modifiers its source had. */
static const struct ssa_def *strip_mods(const struct ssa_def *s, uint8_t *swiz, bool *neg,
					bool *abs)
{
	struct alu_instr *p = alu_of(s);
	if (!is_mod(p))
		return s;
	for (unsigned k = 0; k < 4; k++)
		swiz[k] = p->src[0].swizzle[swiz[k] & 15];
	bool in_neg = false, in_abs = false;
	const struct ssa_def *under = strip_mods(p->src[0].src.ssa, swiz, &in_neg, &in_abs);
	if (p->op == OP_fneg && !*abs)
		*neg = !*neg;
	if (p->op == OP_fabs)
		*abs = true;
	if (in_neg && !*abs)
		*neg = !*neg;
	if (in_abs)
		*abs = true;
	return under;
}

const struct ssa_def *esel_src_mods(const struct alu_instr *alu, unsigned i, uint8_t *swiz,
				    bool *neg, bool *abs)
{
	const struct ssa_def *s = alu->src[i].src.ssa;
	*neg = *abs = false;
	if (i >= 3 || alu_type_base(alu_op_infos[alu->op].input_types[i]) != BASE_float ||
	    s->bit_size != 32)
		return s;
	return strip_mods(s, swiz, neg, abs);
}

/* Whether every use of a fneg/fabs folds into a source modifier. */
static bool folds_away(struct isel *c, const struct alu_instr *alu)
{
	(void)c;
	if (alu->op != OP_fneg && alu->op != OP_fabs)
		return false;
	if (used_by_if(&alu->def))
		return false;
	foreach_use(u, &alu->def) {
		struct instr *in = u->parent_instr;
		if (!in || in->type != INSTR_alu)
			return false;
		struct alu_instr *user = instr_as_alu(in);
		unsigned i = (unsigned)(container_of(u, struct alu_src, src) - user->src);
		if (i >= 3 || is_vec(user->op) || user->op == OP_mov ||
		    alu_type_base(alu_op_infos[user->op].input_types[i]) != BASE_float)
			return false;
	}
	return true;
}

/* ---- the op table (Mesa's etna_ops) ---- */

enum { S0 = 0, S1 = 1, S2 = 2, SX = 3 };

struct op_map {
	enum etna_opc opc;
	uint8_t cond, type;
	uint8_t slot[3];		/* hardware slot of IR source i */
	bool sat;
};

#define M(o, c, t, a, b, d) \
	((struct op_map){ ETNA_OP_##o, ETNA_COND_##c, ETNA_TYPE_##t, { a, b, d }, false })

/* HALTI0: no integers (lower_etna_int_to_float leaves none) and booleans
 * as 0.0/1.0 (nir_lower_bool_to_float). */
static bool map_bool_float(enum alu_op op, unsigned bit_size, struct op_map *m)
{
	bool bools = bit_size == 1;
	switch (op) {
	case OP_flt: *m = M(set, lt, f32, S0, S1, SX); return true;
	case OP_fge: *m = M(set, ge, f32, S0, S1, SX); return true;
	case OP_feq: *m = M(set, eq, f32, S0, S1, SX); return true;
	case OP_fneu: *m = M(set, ne, f32, S0, S1, SX); return true;
	case OP_bcsel: *m = M(select, nz, f32, S0, S1, S2); return true;
	case OP_iand: *m = M(mul, true, f32, S0, S1, SX); return bools;
	case OP_ior: *m = M(select, lt, f32, S0, S1, SX); return bools;	/* fmax */
	case OP_ixor: *m = M(set, ne, f32, S0, S1, SX); return bools;
	case OP_inot: *m = M(set, eq, f32, S0, SX, SX); return bools;	/* seq x, 0.0 */
	case OP_b2f32: case OP_b2i32: *m = M(mov, true, f32, S2, SX, SX); return true;
	/* nir_lower_int_to_float makes every int-to-float conversion a mov,
	 * whatever its source's size: a 16-bit integer input arrives as a
	 * float too (the 32-bit ones lower_etna_int_to_float took already) */
	case OP_i2f32: case OP_u2f32: *m = M(mov, true, f32, S2, SX, SX); return bit_size < 32;
	default: return false;
	}
}

static bool map_int(enum alu_op op, struct op_map *m)
{
	switch (op) {
	case OP_i2f32: *m = M(i2f, true, s32, S0, SX, SX); return true;
	case OP_u2f32: *m = M(i2f, true, u32, S0, SX, SX); return true;
	case OP_f2i32: *m = M(f2i, true, s32, S0, SX, SX); return true;
	case OP_f2u32: *m = M(f2i, true, u32, S0, SX, SX); return true;
	case OP_iadd: *m = M(add, true, s32, S0, S2, SX); return true;
	case OP_imul: case OP_imul24: *m = M(imullo0, true, s32, S0, S1, SX); return true;
	case OP_i2i32: *m = M(i2i, true, s32, S0, SX, SX); return true;
	case OP_u2u32: *m = M(i2i, true, u32, S0, SX, SX); return true;
	case OP_ineg: *m = M(add, true, s32, S2, SX, SX); return true;
	case OP_iabs: *m = M(iabs, true, s32, S2, SX, SX); return true;
	case OP_isign: *m = M(sign, true, s32, S2, SX, SX); return true;
	case OP_imin: *m = M(select, gt, s32, S0, S1, SX); return true;
	case OP_imax: *m = M(select, lt, s32, S0, S1, SX); return true;
	case OP_umin: *m = M(select, gt, u32, S0, S1, SX); return true;
	case OP_umax: *m = M(select, lt, u32, S0, S1, SX); return true;
	case OP_bcsel: *m = M(select, nz, u32, S0, S1, S2); return true;
	case OP_flt: *m = M(cmp, lt, f32, S0, S1, SX); return true;
	case OP_fge: *m = M(cmp, ge, f32, S0, S1, SX); return true;
	case OP_feq: *m = M(cmp, eq, f32, S0, S1, SX); return true;
	case OP_fneu: *m = M(cmp, ne, f32, S0, S1, SX); return true;
	case OP_ilt: *m = M(cmp, lt, s32, S0, S1, SX); return true;
	case OP_ige: *m = M(cmp, ge, s32, S0, S1, SX); return true;
	case OP_ieq: *m = M(cmp, eq, s32, S0, S1, SX); return true;
	case OP_ine: *m = M(cmp, ne, s32, S0, S1, SX); return true;
	case OP_ult: *m = M(cmp, lt, u32, S0, S1, SX); return true;
	case OP_uge: *m = M(cmp, ge, u32, S0, S1, SX); return true;
	case OP_ior: *m = M(or, true, s32, S0, S2, SX); return true;
	case OP_iand: *m = M(and, true, s32, S0, S2, SX); return true;
	case OP_ixor: *m = M(xor, true, s32, S0, S2, SX); return true;
	case OP_inot: *m = M(not, true, s32, S2, SX, SX); return true;
	case OP_ishl: *m = M(lshift, true, s32, S0, S2, SX); return true;
	case OP_ishr: *m = M(rshift, true, s32, S0, S2, SX); return true;
	case OP_ushr: *m = M(rshift, true, u32, S0, S2, SX); return true;
	case OP_uclz: *m = M(leadzero, true, u32, S2, SX, SX); return true;
	case OP_b2f32: *m = M(and, true, u32, S0, SX, SX); return true;
	case OP_b2i32: *m = M(and, true, u32, S0, SX, SX); return true;
	default: return false;
	}
}

static bool map_float(enum alu_op op, struct op_map *m)
{
	switch (op) {
	case OP_mov: case OP_fneg: case OP_fabs: *m = M(mov, true, f32, S2, SX, SX); return true;
	case OP_fsat: *m = M(mov, true, f32, S2, SX, SX); m->sat = true; return true;
	case OP_fmul: *m = M(mul, true, f32, S0, S1, SX); return true;
	case OP_fadd: *m = M(add, true, f32, S0, S2, SX); return true;
	case OP_ffma: *m = M(mad, true, f32, S0, S1, S2); return true;
	case OP_fdot2: *m = M(dp2, true, f32, S0, S1, SX); return true;
	case OP_fdot3: *m = M(dp3, true, f32, S0, S1, SX); return true;
	case OP_fdot4: *m = M(dp4, true, f32, S0, S1, SX); return true;
	case OP_fmin: *m = M(select, gt, f32, S0, S1, SX); return true;
	case OP_fmax: *m = M(select, lt, f32, S0, S1, SX); return true;
	case OP_ffract: *m = M(frc, true, f32, S2, SX, SX); return true;
	case OP_frcp: *m = M(rcp, true, f32, S2, SX, SX); return true;
	case OP_frsq: *m = M(rsq, true, f32, S2, SX, SX); return true;
	case OP_fsqrt: *m = M(sqrt, true, f32, S2, SX, SX); return true;
	case OP_fsin: *m = M(sin, true, f32, S2, SX, SX); return true;
	case OP_fcos: *m = M(cos, true, f32, S2, SX, SX); return true;
	case OP_fsign: *m = M(sign, true, f32, S2, SX, SX); return true;
	case OP_ffloor: *m = M(floor, true, f32, S2, SX, SX); return true;
	case OP_fceil: *m = M(ceil, true, f32, S2, SX, SX); return true;
	case OP_flog2: *m = M(log, true, f32, S2, SX, SX); return true;
	case OP_fexp2: *m = M(exp, true, f32, S2, SX, SX); return true;
	case OP_fdiv: *m = M(div, true, f32, S0, S1, SX); return true;
	default: return false;
	}
}

#undef M

/* ---- emission ---- */

struct alu_src_info {
	const struct ssa_def *def;	/* NULL: a merged constant or a copy */
	uint8_t swiz[4];
	bool neg, abs;
	bool is_const;
	uint64_t c[4];			/* merged constant (def NULL, is_const) */
	unsigned nc;
	unsigned copy;			/* its copy's value (def NULL, !is_const) */
};

static void read_src(struct isel *c, const struct alu_instr *alu, unsigned i,
		     struct alu_src_info *a)
{
	unsigned size = alu_op_infos[alu->op].input_sizes[i];	/* horizontal ops */
	unsigned n = size ? size : alu->def.num_components;
	for (unsigned k = 0; k < 4; k++)
		a->swiz[k] = alu->src[i].swizzle[k < n ? k : n - 1];
	a->def = esel_src_mods(alu, i, a->swiz, &a->neg, &a->abs);
	a->is_const = isel_def(c, a->def)->kind == ISEL_CONST;
}

/*
 * Mesa's lower_alu for one instruction on a target with the one-uniform
 * rule: constant sources that differ share one vector when their
 * components fit in four, else all but the first are copied to temporaries
 * first (movs emitted here, before the instruction).
 */
static void merge_consts(struct isel *c, struct alu_instr *alu, struct alu_src_info *src,
			 unsigned n, unsigned ncomp)
{
	uint64_t value[4] = { 0 };
	uint8_t swz[4][4] = { { 0 } };
	unsigned swiz_max = 0, different = 0;
	int first = -1;
	for (unsigned i = 0; i < n; i++) {
		if (!src[i].is_const)
			continue;
		unsigned comps = alu_op_infos[alu->op].input_sizes[i] ?: ncomp;
		const struct isel_def *d = isel_def(c, src[i].def);
		for (unsigned k = 0; k < comps; k++) {
			int at = const_add(value, d->c[src[i].swiz[k] & 3]);
			unsigned a = at < 0 ? 4 : (unsigned)at;
			swz[i][k] = (uint8_t)(a & 3);
			if (a > swiz_max)
				swiz_max = a;
		}
		for (unsigned k = comps; k < 4; k++)
			swz[i][k] = swz[i][comps - 1];
		if (first < 0)
			first = (int)i;
		if (src[i].def != src[first].def)
			different++;
	}
	if (!different)
		return;
	if (swiz_max < 4) {
		for (unsigned i = 0; i < n; i++) {
			if (!src[i].is_const)
				continue;
			src[i].def = NULL;
			memcpy(src[i].c, value, sizeof(value));
			src[i].nc = swiz_max + 1;
			memcpy(src[i].swiz, swz[i], 4);
		}
		return;
	}
	bool seen = false;
	for (unsigned i = 0; i < n; i++) {
		if (!src[i].is_const)
			continue;
		if (!seen) {
			seen = true;
			continue;
		}
		const struct isel_def *d = isel_def(c, src[i].def);
		unsigned v = etna_value_create(c->s, d->num_components);
		struct etna_instr *mov = esel_emit(c, ETNA_OP_mov);
		uint8_t id[4] = { 0, 1, 2, 3 };
		mov->dst = (struct etna_dst){ .file = ETNA_FILE_TEMP, .value = v,
					      .mask = (uint8_t)((1u << d->num_components) - 1),
					      .map = { 0, 1, 2, 3 } };
		mov->src[2] = esel_src(c, src[i].def, id);
		src[i].def = NULL;
		src[i].is_const = false;
		src[i].copy = v;
	}
}

/* The operand for one ALU source, its swizzle by instruction channel. */
static struct etna_src operand(struct isel *c, const struct alu_src_info *a)
{
	struct etna_src src;
	if (a->def) {
		src = esel_src(c, a->def, a->swiz);
	} else if (a->is_const) {
		src = esel_const_src(c, a->c, a->nc, a->swiz);
	} else {
		src = (struct etna_src){ .file = ETNA_FILE_TEMP, .value = a->copy };
		memcpy(src.swiz, a->swiz, 4);
	}
	if (src.file == ETNA_FILE_IMMED) {
		if (a->neg && src.imm_type == ETNA_IMM_FLOAT20)
			src.imm ^= 0x80000;
		return src;
	}
	src.neg = a->neg;
	src.abs = a->abs;
	return src;
}

static struct etna_src imm_src(uint32_t bits, enum etna_imm type)
{
	return (struct etna_src){ .file = ETNA_FILE_IMMED, .value = ETNA_NO_VALUE,
				  .imm_type = (uint8_t)type, .imm = bits & 0xfffff };
}

static bool map_op(struct isel *c, const struct alu_instr *alu, struct op_map *m)
{
	unsigned bits = alu->src[0].src.ssa->bit_size;
	if (!c->t->has_integers && map_bool_float(alu->op, bits, m))
		return true;
	if (map_int(alu->op, m)) {
		if (c->t->has_integers)
			return true;
		esel_error(c, "integer operation %s on a pre-HALTI2 GPU (no integers; "
			   "no float form for it)", alu_op_infos[alu->op].name);
		return false;
	}
	return map_float(alu->op, m);
}

void esel_alu(struct isel *c, struct alu_instr *alu)
{
	struct isel_def *d = isel_def(c, &alu->def);
	if (is_vec(alu->op)) {
		esel_vec(c, alu);
		return;
	}
	if (d->dead || d->kind != ISEL_TEMP || folds_away(c, alu))
		return;
	if (alu->def.bit_size == 64 || (alu->def.bit_size != 32 && alu->def.bit_size != 1)) {
		esel_error(c, "Unhandled ALU op: %s (%u-bit)", alu_op_infos[alu->op].name,
			   alu->def.bit_size);
		return;
	}
	struct op_map m;
	if (!map_op(c, alu, &m)) {
		esel_error(c, "Unhandled ALU op: %s", alu_op_infos[alu->op].name);
		return;
	}
	unsigned n = alu_op_infos[alu->op].num_inputs;
	struct alu_src_info src[4];
	for (unsigned i = 0; i < n; i++)
		read_src(c, alu, i, &src[i]);
	if (!c->t->has_no_oneconst_limit)
		merge_consts(c, alu, src, n, alu->def.num_components);

	struct etna_instr *in = esel_emit(c, m.opc);
	in->cond = m.cond;
	in->type = m.type;
	in->sat = m.sat;
	esel_dst(c, in, &alu->def);
	for (unsigned i = 0; i < n && i < 3; i++)
		if (m.slot[i] != SX)
			in->src[m.slot[i]] = operand(c, &src[i]);
	if (alu->op == OP_fneg || alu->op == OP_fabs) {
		/* one that does not fold into its users is a mov with the
		 * modifier (Mesa's emit_alu: neg for fneg, abs for fabs) */
		struct etna_src *s = &in->src[m.slot[0]];
		if (s->file == ETNA_FILE_IMMED) {
			if (s->imm_type == ETNA_IMM_FLOAT20)
				s->imm = alu->op == OP_fneg ? s->imm ^ 0x80000 : s->imm & ~0x80000u;
		} else if (alu->op == OP_fneg) {
			s->neg = !s->neg;
		} else {
			s->abs = true;
			s->neg = false;
		}
	}
	switch (alu->op) {
	case OP_fmin: case OP_fmax: case OP_imin: case OP_imax: case OP_umin: case OP_umax:
		in->src[2] = in->src[0];
		break;
	case OP_b2f32:
		in->src[2] = c->t->has_integers ? imm_src(0x3f800000u >> 12, ETNA_IMM_FLOAT20)
						: in->src[2];
		break;
	case OP_b2i32:
		if (c->t->has_integers)
			in->src[2] = imm_src(1, ETNA_IMM_UINT20);
		break;
	case OP_ineg:
		in->src[0] = imm_src(0, ETNA_IMM_UINT20);
		in->src[2].neg = !in->src[2].neg;
		break;
	case OP_inot:
		if (!c->t->has_integers) {	/* seq x, 0.0 */
			uint64_t zero = ETNA_UNIFORM(ETNA_UNIFORM_CONSTANT, 0);
			uint8_t xxxx[4] = { 0, 0, 0, 0 };
			in->src[1] = esel_const_src(c, &zero, 1, xxxx);
		}
		break;
	case OP_fdiv: case OP_flog2: case OP_fsin: case OP_fcos:
		if (c->t->has_new_transcendentals)
			in->rounding = ETNA_ROUND_RTZ;
		break;
	default:
		break;
	}
	if (m.opc == ETNA_OP_cmp)
		in->src[2] = imm_src(0xfffff, ETNA_IMM_INT20);
}

/* ---- vecN: the movs lower_alu inserts (insert_vec_mov) ---- */

void esel_vec(struct isel *c, struct alu_instr *vec)
{
	struct isel_def *d = isel_def(c, &vec->def);
	if (d->kind != ISEL_TEMP)
		return;
	unsigned n = alu_op_infos[vec->op].num_inputs;
	/* the constant sources as one vector (lower_alu) */
	uint64_t cvals[4];
	unsigned ncv = 0;
	uint8_t cidx[4];
	for (unsigned i = 0; i < n; i++) {
		const struct isel_def *s = isel_def(c, vec->src[i].src.ssa);
		if (s->kind == ISEL_CONST) {
			cidx[i] = (uint8_t)ncv;
			cvals[ncv++] = s->c[vec->src[i].swizzle[0]];
		}
	}
	unsigned done = 0;
	for (unsigned i = 0; i < n; i++) {
		if (done & (1u << i) || !vec_src_needs_mov(c, vec, i))
			continue;
		const struct ssa_def *si = vec->src[i].src.ssa;
		bool is_const = isel_def(c, si)->kind == ISEL_CONST && ncv > 1;
		unsigned mask = 0;
		uint8_t swz[4] = { 0, 0, 0, 0 };
		unsigned nc = 0;
		for (unsigned j = i; j < n; j++) {
			const struct ssa_def *sj = vec->src[j].src.ssa;
			bool same = is_const ? isel_def(c, sj)->kind == ISEL_CONST : sj == si;
			if (!same)
				continue;
			mask |= 1u << j;
			swz[nc++] = is_const ? cidx[j] : vec->src[j].swizzle[0];
		}
		done |= mask;
		/* the mov writes the vector's components `mask`, channel by channel */
		struct etna_instr *mov = esel_emit(c, ETNA_OP_mov);
		mov->dst = (struct etna_dst){ .file = ETNA_FILE_TEMP, .value = d->into };
		uint8_t chan[4] = { 0, 0, 0, 0 };
		for (unsigned j = 0, k = 0; j < n; j++)
			if (mask & (1u << j))
				chan[j] = (uint8_t)k++;
		for (unsigned k = 0; k < 4; k++) {
			uint8_t j = d->wr[k];
			if (j != ISEL_NO_COMP && (mask & (1u << j))) {
				mov->dst.mask |= (uint8_t)(1u << k);
				mov->dst.map[k] = chan[j];
			}
		}
		if (is_const)
			mov->src[2] = esel_const_src(c, cvals, ncv, swz);
		else
			mov->src[2] = esel_src(c, si, swz);
	}
}
