/*
 * Constants: OpConstant*, OpSpecConstant* (their SpecId overridden by
 * `--spec ID=VALUE`, else their default), OpSpecConstantOp evaluated here
 * with the IR's own constant folder (alu_fold), OpConstantNull and
 * module-scope OpUndef.  Constants are values known to the reader (array
 * lengths, workgroup sizes and access-chain indices need them); they become
 * IR load_consts at the top of the shader when a function first uses them.
 *
 *	%c = OpSpecConstant %int 16    ; SpecId 3    --spec 3=64 → 64
 *	%d = OpSpecConstantOp %int IMul %c %two      → 128
 */
#include <string.h>

#include "compiler/spirv/spirv_private.h"

static uint64_t mask_bits(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : v & (((uint64_t)1 << bits) - 1);
}

static struct spv_const *new_const(struct spv *r, uint32_t id, struct spv_type *t)
{
	struct spv_const *c = arena_new(&r->arena, struct spv_const);
	c->type = t;
	if (id) {
		struct spv_id *x = spv_id(r, id);
		x->kind = ID_CONST;
		x->c = c;
		x->type = t;
		if (spv_deco_arg(r, id, -1, SpvDecorationBuiltIn, ~0u) == SpvBuiltInWorkgroupSize)
			r->workgroup_size_id = id;
	}
	return c;
}

struct spv_const *spv_const_zero(struct spv *r, struct spv_type *t)
{
	struct spv_const *c = new_const(r, 0, t);
	unsigned n = spv_type_num_children(t);
	if (spv_type_is_vector_or_scalar(t) || t->kind == T_POINTER)
		return c;
	if (!spv_type_is_composite(t))
		spv_unsupported(r, "a null %s", spv_type_str(r, t));
	if (n > SPV_MAX_AGGREGATE)
		spv_unsupported(r, "a constant of %u elements", n);
	c->elems = arena_array(&r->arena, struct spv_const *, n);
	struct spv_const *shared = NULL;
	for (unsigned i = 0; i < n; i++) {
		struct spv_type *ct = spv_type_child(r, t, i);
		/* array elements share one zero */
		if (t->kind == T_STRUCT || !shared)
			shared = spv_const_zero(r, ct);
		c->elems[i] = shared;
	}
	return c;
}

/* A result type a constant may have. */
static struct spv_type *const_type(struct spv *r)
{
	struct spv_type *t = spv_get_type(r, spv_word(r, 1));
	if (!spv_type_is_vector_or_scalar(t) && !spv_type_is_composite(t) && t->kind != T_POINTER)
		spv_unsupported(r, "a constant of %s", spv_type_str(r, t));
	return t;
}

/* The --spec override of a spec constant, if any. */
static bool spec_override(struct spv *r, uint32_t id, uint64_t *bits)
{
	const struct spv_deco *d = spv_deco(r, id, -1, SpvDecorationSpecId);
	if (!d || !d->num_args)
		return false;
	for (size_t i = 0; i < r->opts->num_specs; i++)
		if (r->opts->specs[i].id == d->args[0]) {
			*bits = r->opts->specs[i].bits;
			return true;
		}
	return false;
}

static void scalar_constant(struct spv *r, uint32_t op, uint32_t id, struct spv_type *t)
{
	struct spv_const *c = new_const(r, id, t);
	if (t->kind != T_INT && t->kind != T_FLOAT && t->kind != T_BOOL)
		spv_fail(r, "a scalar constant of %s", spv_type_str(r, t));
	c->spec = op == SpvOpSpecConstant || op == SpvOpSpecConstantTrue ||
		  op == SpvOpSpecConstantFalse;
	if (op == SpvOpConstantTrue || op == SpvOpSpecConstantTrue)
		c->v[0] = 1;
	else if (op == SpvOpConstant || op == SpvOpSpecConstant) {
		if (t->kind == T_BOOL)
			spv_fail(r, "a numeric constant of type bool");
		c->v[0] = spv_word(r, 3);
		if (t->bit_size == 64)
			c->v[0] |= (uint64_t)spv_word(r, 4) << 32;
		c->v[0] = mask_bits(c->v[0], t->bit_size);
	}
	uint64_t bits;
	if (c->spec && spec_override(r, id, &bits))
		c->v[0] = t->kind == T_BOOL ? bits != 0 : mask_bits(bits, t->bit_size);
}

static void composite_constant(struct spv *r, uint32_t op, uint32_t id, struct spv_type *t)
{
	struct spv_const *c = new_const(r, id, t);
	unsigned n = spv_nwords(r) - 3;
	if (n != spv_type_num_children(t))
		spv_fail(r, "%u constituents for %s", n, spv_type_str(r, t));
	c->spec = op == SpvOpSpecConstantComposite;
	if (t->kind == T_VECTOR) {
		for (unsigned i = 0; i < n; i++) {
			struct spv_const *e = spv_get_const(r, spv_word(r, 3 + i));
			if (e->type->kind != t->elem->kind || e->type->bit_size != t->bit_size)
				spv_fail(r, "constituent %u is %s", i, spv_type_str(r, e->type));
			c->v[i] = e->v[0];
			c->spec |= e->spec;
			c->undef |= e->undef;
		}
		return;
	}
	c->elems = arena_array(&r->arena, struct spv_const *, n);
	for (unsigned i = 0; i < n; i++) {
		c->elems[i] = spv_get_const(r, spv_word(r, 3 + i));
		c->spec |= c->elems[i]->spec;
	}
}

/* ---- OpSpecConstantOp ---- */

/* Components of a vector or scalar constant, broadcast-free. */
static const uint64_t *comps(struct spv *r, uint32_t id, struct spv_type **t)
{
	struct spv_const *c = spv_get_const(r, id);
	if (!spv_type_is_vector_or_scalar(c->type))
		spv_fail(r, "%%%u is not a scalar or vector constant", id);
	*t = c->type;
	return c->v;
}

static void fold_op(struct spv *r, struct spv_const *c, uint32_t op, unsigned first)
{
	unsigned nsrc = spv_nwords(r) - first;
	struct spv_type *st[3] = { 0 };
	const uint64_t *src[4] = { 0 };
	bool swap = false;
	if (nsrc < 1 || nsrc > 3)
		spv_fail(r, "%u operands", nsrc);
	for (unsigned i = 0; i < nsrc; i++)
		src[i] = comps(r, spv_word(r, first + i), &st[i]);
	if (!spv_type_is_vector_or_scalar(c->type))
		spv_fail(r, "the result is %s", spv_type_str(r, c->type));
	unsigned n = spv_type_components(c->type);
	int alu = spv_alu_op(r, op, st[0]->bit_size, c->type->bit_size, &swap);
	if (alu < 0) {
		char buf[24];
		spv_unsupported(r, "%s in a spec constant", spv_op_name(op, buf));
	}
	if (swap) {
		const uint64_t *x = src[0];
		src[0] = src[1];
		src[1] = x;
	}
	/* scalars broadcast to the result's size */
	uint64_t bc[3][4];
	for (unsigned i = 0; i < nsrc; i++)
		if (spv_type_components(st[i]) < n) {
			for (unsigned k = 0; k < 4; k++)
				bc[i][k] = src[i][0];
			src[i] = bc[i];
		}
	const struct alu_op_info *info = &alu_op_infos[alu];
	unsigned bits = c->type->bit_size;
	for (unsigned i = 0; i < info->num_inputs; i++)
		if (!alu_type_bits(info->input_types[i])) {
			bits = st[swap && i < 2 ? 1 - i : i]->bit_size;
			break;
		}
	alu_fold((enum alu_op)alu, n, bits, src, c->v);
	for (unsigned i = 0; i < n; i++)
		c->v[i] = mask_bits(c->v[i], c->type->bit_size);
}

static void shuffle_op(struct spv *r, struct spv_const *c)
{
	struct spv_type *ta, *tb;
	const uint64_t *a = comps(r, spv_word(r, 4), &ta), *b = comps(r, spv_word(r, 5), &tb);
	unsigned na = spv_type_components(ta), n = spv_type_components(c->type);
	if (spv_nwords(r) - 6 != n)
		spv_fail(r, "%u components selected for %s", spv_nwords(r) - 6,
			 spv_type_str(r, c->type));
	for (unsigned i = 0; i < n; i++) {
		uint32_t k = spv_word(r, 6 + i);
		if (k == 0xffffffff)
			c->v[i] = 0;
		else if (k < na)
			c->v[i] = a[k];
		else if (k - na < spv_type_components(tb))
			c->v[i] = b[k - na];
		else
			spv_fail(r, "component %u is out of range", k);
	}
}

/* Follow literal indices into a constant. */
static struct spv_const *const_child(struct spv *r, struct spv_const *c, uint32_t i)
{
	if (c->type->kind == T_VECTOR) {
		if (i >= c->type->length)
			spv_fail(r, "index %u is out of range", i);
		struct spv_const *e = new_const(r, 0, c->type->elem);
		e->v[0] = c->v[i];
		e->spec = c->spec;
		return e;
	}
	if (!c->elems || i >= spv_type_num_children(c->type))
		spv_fail(r, "index %u is out of range for %s", i, spv_type_str(r, c->type));
	return c->elems[i];
}

static void extract_op(struct spv *r, uint32_t id, struct spv_type *t)
{
	struct spv_const *c = spv_get_const(r, spv_word(r, 4));
	for (unsigned i = 5; i < spv_nwords(r); i++)
		c = const_child(r, c, spv_word(r, i));
	struct spv_const *copy = new_const(r, id, t);
	*copy = *c;
	copy->type = t;
	copy->spec = true;
	copy->val = NULL;
}

static struct spv_const *insert_into(struct spv *r, struct spv_const *c, unsigned at,
				     struct spv_const *obj)
{
	struct spv_const *copy = new_const(r, 0, c->type);
	*copy = *c;
	copy->val = NULL;
	copy->spec = true;
	if (at == spv_nwords(r))
		return obj;
	uint32_t i = spv_word(r, at);
	if (c->type->kind == T_VECTOR) {
		if (at + 1 != spv_nwords(r) || i >= c->type->length)
			spv_fail(r, "index %u is out of range", i);
		copy->v[i] = obj->v[0];
		return copy;
	}
	struct spv_const *child = const_child(r, c, i);
	unsigned n = spv_type_num_children(c->type);
	copy->elems = arena_array(&r->arena, struct spv_const *, n);
	memcpy(copy->elems, c->elems, n * sizeof(*copy->elems));
	copy->elems[i] = insert_into(r, child, at + 1, obj);
	return copy;
}

static void insert_op(struct spv *r, uint32_t id, struct spv_type *t)
{
	struct spv_const *obj = spv_get_const(r, spv_word(r, 4));
	struct spv_const *c = spv_get_const(r, spv_word(r, 5));
	struct spv_const *res = insert_into(r, c, 6, obj);
	struct spv_const *copy = new_const(r, id, t);
	*copy = *res;
	copy->type = t;
	copy->spec = true;
	copy->val = NULL;
}

static void select_op(struct spv *r, struct spv_const *c)
{
	struct spv_type *tc, *ta, *tb;
	const uint64_t *cond = comps(r, spv_word(r, 4), &tc);
	const uint64_t *a = comps(r, spv_word(r, 5), &ta), *b = comps(r, spv_word(r, 6), &tb);
	unsigned n = spv_type_components(c->type);
	for (unsigned i = 0; i < n; i++)
		c->v[i] = cond[spv_type_components(tc) > 1 ? i : 0] ? a[i] : b[i];
}

static void spec_constant_op(struct spv *r, uint32_t id, struct spv_type *t)
{
	uint32_t op = spv_word(r, 3);
	switch (op) {
	case SpvOpCompositeExtract: extract_op(r, id, t); return;
	case SpvOpCompositeInsert: insert_op(r, id, t); return;
	default: break;
	}
	struct spv_const *c = new_const(r, id, t);
	c->spec = true;
	switch (op) {
	case SpvOpVectorShuffle: shuffle_op(r, c); break;
	case SpvOpSelect: select_op(r, c); break;
	default: fold_op(r, c, op, 4); break;
	}
}

void spv_const_instr(struct spv *r, uint32_t op)
{
	uint32_t id = spv_word(r, 2);
	struct spv_type *t = const_type(r);
	switch (op) {
	case SpvOpConstantTrue: case SpvOpConstantFalse: case SpvOpConstant:
	case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse: case SpvOpSpecConstant:
		scalar_constant(r, op, id, t);
		break;
	case SpvOpConstantComposite: case SpvOpSpecConstantComposite:
		composite_constant(r, op, id, t);
		break;
	case SpvOpConstantNull: {
		struct spv_const *z = spv_const_zero(r, t);
		struct spv_const *c = new_const(r, id, t);
		*c = *z;
		break;
	}
	case SpvOpUndef:
		new_const(r, id, t)->undef = true;
		break;
	case SpvOpSpecConstantOp:
		spec_constant_op(r, id, t);
		break;
	default: {
		char buf[24];
		spv_unsupported(r, "%s", spv_op_name(op, buf));
	}
	}
}

/* ---- into the shader ---- */

struct spv_val *spv_const_val(struct spv *r, struct spv_const *c)
{
	if (c->val)
		return c->val;
	struct spv_type *t = c->type;
	struct spv_val *v = spv_val_new(r, t);
	if (spv_type_is_vector_or_scalar(t)) {
		v->def = c->undef ? NULL : spv_imm(r, spv_type_components(t), t->bit_size, c->v);
		if (c->undef)
			v = spv_val_undef(r, t);
	} else if (t->kind == T_POINTER) {
		v->def = spv_imm(r, 1, 64, c->v);
	} else if (c->undef) {
		v = spv_val_undef(r, t);
	} else {
		unsigned n = spv_type_num_children(t);
		for (unsigned i = 0; i < n; i++)
			v->elems[i] = spv_const_val(r, c->elems[i]);
	}
	c->val = v;
	return v;
}
