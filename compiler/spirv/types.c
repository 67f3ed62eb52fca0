/*
 * Types: the OpType* instructions, with the decorations that shape them
 * (struct member Offset, MatrixStride, RowMajor; ArrayStride; Block,
 * BufferBlock), and the layouts memory.c walks:
 *   - explicit: the module's own offsets and strides (uniform, storage and
 *     push-constant blocks, physical storage buffers);
 *   - natural: std430-like, computed here, for memory the module gives no
 *     layout (shared memory, GL loose uniforms).
 *
 *	%v4 = OpTypeVector %f32 4    → T_VECTOR, length 4, elem float 32
 *	%m  = OpTypeMatrix %v4 4     → T_MATRIX, length 4 columns of %v4
 */
#include <stdio.h>
#include <string.h>

#include "compiler/spirv/spirv_private.h"

static struct spv_type *new_type(struct spv *r, enum spv_type_kind kind, uint32_t id)
{
	struct spv_type *t = arena_new(&r->arena, struct spv_type);
	t->kind = kind;
	t->id = id;
	if (id) {
		struct spv_id *x = spv_id(r, id);
		x->kind = ID_TYPE;
		x->t = t;
	}
	return t;
}

struct spv_type *spv_type_make_scalar(struct spv *r, enum spv_type_kind kind, unsigned bits,
				      bool is_signed)
{
	struct spv_type *t = new_type(r, kind, 0);
	t->bit_size = bits;
	t->is_signed = is_signed;
	return t;
}

struct spv_type *spv_type_vector(struct spv *r, struct spv_type *scalar, unsigned n)
{
	if (n == 1)
		return scalar;
	struct spv_type *t = new_type(r, T_VECTOR, 0);
	t->elem = scalar;
	t->length = n;
	t->bit_size = scalar->bit_size;
	return t;
}

static struct spv_type *scalar_operand(struct spv *r, unsigned i)
{
	struct spv_type *t = spv_get_type(r, spv_word(r, i));
	if (t->kind != T_BOOL && t->kind != T_INT && t->kind != T_FLOAT)
		spv_fail(r, "%%%u is not a scalar type", spv_word(r, i));
	return t;
}

static void struct_type(struct spv *r, uint32_t id)
{
	struct spv_type *t = new_type(r, T_STRUCT, id);
	t->length = spv_nwords(r) - 2;
	t->members = arena_array(&r->arena, struct spv_member, t->length + 1);
	t->block = spv_has_deco(r, id, -1, SpvDecorationBlock);
	t->buffer_block = spv_has_deco(r, id, -1, SpvDecorationBufferBlock);
	for (unsigned i = 0; i < t->length; i++) {
		struct spv_member *m = &t->members[i];
		const struct spv_deco *off = spv_deco(r, id, (int)i, SpvDecorationOffset);
		if (spv_word(r, 2 + i) == id)
			spv_fail(r, "struct %%%u contains itself", id);
		m->type = spv_get_type(r, spv_word(r, 2 + i));
		if (m->type->kind == T_VOID || m->type->kind == T_FUNCTION)
			spv_fail(r, "member %u of a struct is %s", i, spv_type_str(r, m->type));
		if (off && off->num_args) {
			m->offset = off->args[0];
			m->has_offset = true;
		}
		m->matrix_stride = spv_deco_arg(r, id, (int)i, SpvDecorationMatrixStride, 0);
		m->row_major = spv_has_deco(r, id, (int)i, SpvDecorationRowMajor);
	}
}

static void image_type(struct spv *r, uint32_t id)
{
	struct spv_type *t = new_type(r, T_IMAGE, id);
	t->elem = scalar_operand(r, 2);
	t->dim = (SpvDim)spv_word(r, 3);
	t->depth = spv_word(r, 4);
	t->arrayed = spv_word(r, 5) != 0;
	t->ms = spv_word(r, 6) != 0;
	t->sampled = spv_word(r, 7);
	t->format = (SpvImageFormat)spv_word(r, 8);
}

static void array_type(struct spv *r, uint32_t id, bool runtime)
{
	if (spv_word(r, 2) == id)
		spv_fail(r, "array %%%u contains itself", id);
	struct spv_type *t = new_type(r, runtime ? T_RUNTIME_ARRAY : T_ARRAY, id);
	t->elem = spv_get_type(r, spv_word(r, 2));
	if (t->elem->kind == T_VOID || t->elem->kind == T_FUNCTION || t->elem->kind == T_RUNTIME_ARRAY)
		spv_fail(r, "an array of %s", spv_type_str(r, t->elem));
	t->array_stride = spv_deco_arg(r, id, -1, SpvDecorationArrayStride, 0);
	if (runtime)
		return;
	struct spv_const *len = spv_get_const(r, spv_word(r, 3));
	if (len->type->kind != T_INT || len->undef)
		spv_fail(r, "the length %%%u is not an integer constant", spv_word(r, 3));
	if (len->v[0] == 0 || len->v[0] > (1u << 30))
		spv_fail(r, "an array of %llu elements", (unsigned long long)len->v[0]);
	t->length = (unsigned)len->v[0];
	t->spec_length = len->spec;
}

static void pointer_type(struct spv *r, uint32_t id)
{
	struct spv_id *x = spv_id(r, id);
	struct spv_type *t = x->kind == ID_TYPE ? x->t : new_type(r, T_POINTER, id);
	if (t->kind != T_POINTER)
		spv_fail(r, "%%%u is already a type", id);
	t->storage = (SpvStorageClass)spv_word(r, 2);
	t->array_stride = spv_deco_arg(r, id, -1, SpvDecorationArrayStride, 0);
	/* the pointee may be a struct defined later (OpTypeForwardPointer) */
	t->length = spv_word(r, 3);
	t->elem = spv_id(r, t->length)->kind == ID_TYPE ? spv_id(r, t->length)->t : NULL;
}

static void forward_pointer(struct spv *r)
{
	uint32_t id = spv_word(r, 1);
	struct spv_id *x = spv_id(r, id);
	if (x->kind == ID_NONE) {
		new_type(r, T_POINTER, id)->storage = (SpvStorageClass)spv_word(r, 2);
	}
}

static void function_type(struct spv *r, uint32_t id)
{
	struct spv_type *t = new_type(r, T_FUNCTION, id);
	t->elem = spv_get_type(r, spv_word(r, 2));
	t->length = spv_nwords(r) - 3;
	t->params = arena_array(&r->arena, struct spv_type *, t->length + 1);
	for (unsigned i = 0; i < t->length; i++)
		t->params[i] = spv_get_type(r, spv_word(r, 3 + i));
}

void spv_type_instr(struct spv *r, uint32_t op)
{
	char buf[24];
	uint32_t id = op == SpvOpTypeForwardPointer ? 0 : spv_word(r, 1);
	struct spv_type *t;
	switch (op) {
	case SpvOpTypeVoid: new_type(r, T_VOID, id); break;
	case SpvOpTypeBool: new_type(r, T_BOOL, id)->bit_size = 1; break;
	case SpvOpTypeInt:
		t = new_type(r, T_INT, id);
		t->bit_size = spv_word(r, 2);
		t->is_signed = spv_word(r, 3) != 0;
		if (t->bit_size != 8 && t->bit_size != 16 && t->bit_size != 32 && t->bit_size != 64)
			spv_unsupported(r, "%u-bit integers", t->bit_size);
		break;
	case SpvOpTypeFloat:
		t = new_type(r, T_FLOAT, id);
		t->bit_size = spv_word(r, 2);
		if (spv_nwords(r) > 3)
			spv_unsupported(r, "floating-point encoding %u", spv_word(r, 3));
		if (t->bit_size != 16 && t->bit_size != 32 && t->bit_size != 64)
			spv_unsupported(r, "%u-bit floats", t->bit_size);
		break;
	case SpvOpTypeVector: {
		struct spv_type *comp = scalar_operand(r, 2);
		unsigned n = spv_word(r, 3);
		if (n < 2 || n > 4)
			spv_unsupported(r, "vectors of %u components", n);
		t = new_type(r, T_VECTOR, id);
		t->elem = comp;
		t->length = n;
		t->bit_size = comp->bit_size;
		break;
	}
	case SpvOpTypeMatrix: {
		struct spv_type *col = spv_get_type(r, spv_word(r, 2));
		unsigned n = spv_word(r, 3);
		if (col->kind != T_VECTOR || col->elem->kind != T_FLOAT)
			spv_fail(r, "a matrix column must be a float vector");
		if (n < 2 || n > 4)
			spv_fail(r, "a matrix of %u columns", n);
		t = new_type(r, T_MATRIX, id);
		t->elem = col;
		t->length = n;
		t->bit_size = col->bit_size;
		break;
	}
	case SpvOpTypeImage: image_type(r, id); break;
	case SpvOpTypeSampler: new_type(r, T_SAMPLER, id); break;
	case SpvOpTypeSampledImage:
		t = new_type(r, T_SAMPLED_IMAGE, id);
		t->elem = spv_get_type(r, spv_word(r, 2));
		if (t->elem->kind != T_IMAGE)
			spv_fail(r, "a sampled image of %s", spv_type_str(r, t->elem));
		break;
	case SpvOpTypeArray: array_type(r, id, false); break;
	case SpvOpTypeRuntimeArray: array_type(r, id, true); break;
	case SpvOpTypeStruct: struct_type(r, id); break;
	case SpvOpTypePointer: pointer_type(r, id); break;
	case SpvOpTypeForwardPointer: forward_pointer(r); break;
	case SpvOpTypeFunction: function_type(r, id); break;
	case SpvOpTypeAccelerationStructureKHR:
		new_type(r, T_ACCEL, id)->bit_size = 64;
		break;
	case SpvOpTypeOpaque: case SpvOpTypeEvent: case SpvOpTypeDeviceEvent:
	case SpvOpTypeReserveId: case SpvOpTypeQueue: case SpvOpTypePipe:
	case SpvOpTypeRayQueryKHR:
	case SpvOpTypeHitObjectNV:
		t = new_type(r, T_OPAQUE, id);
		t->length = op;
		break;
	default:
		spv_unsupported(r, "%s", spv_op_name(op, buf));
	}
}

/* The pointee of a pointer type, resolved once its struct is defined. */
struct spv_type *spv_pointee(struct spv *r, struct spv_type *t)
{
	if (!t->elem)
		t->elem = spv_get_type(r, t->length);
	return t->elem;
}

/* ---- queries ---- */

struct spv_type *spv_type_scalar(struct spv *r, const struct spv_type *t)
{
	switch (t->kind) {
	case T_BOOL: case T_INT: case T_FLOAT: return (struct spv_type *)t;
	case T_VECTOR: return t->elem;
	default: spv_fail(r, "%s is not a scalar or vector", spv_type_str(r, t));
	}
}

unsigned spv_type_components(const struct spv_type *t)
{
	return t->kind == T_VECTOR ? t->length : 1;
}

bool spv_type_is_vector_or_scalar(const struct spv_type *t)
{
	return t->kind == T_BOOL || t->kind == T_INT || t->kind == T_FLOAT || t->kind == T_VECTOR;
}

bool spv_type_is_composite(const struct spv_type *t)
{
	return t->kind == T_MATRIX || t->kind == T_ARRAY || t->kind == T_STRUCT;
}

static enum spv_type_kind scalar_kind(const struct spv_type *t)
{
	return t->kind == T_VECTOR ? t->elem->kind : t->kind;
}

bool spv_type_is_float(const struct spv_type *t) { return scalar_kind(t) == T_FLOAT; }
bool spv_type_is_int(const struct spv_type *t) { return scalar_kind(t) == T_INT; }
bool spv_type_is_bool(const struct spv_type *t) { return scalar_kind(t) == T_BOOL; }

bool spv_type_is_opaque(const struct spv_type *t)
{
	return t->kind == T_IMAGE || t->kind == T_SAMPLER || t->kind == T_SAMPLED_IMAGE ||
	       t->kind == T_OPAQUE;
}

unsigned spv_type_num_children(const struct spv_type *t)
{
	switch (t->kind) {
	case T_VECTOR: case T_MATRIX: case T_ARRAY: case T_STRUCT: return t->length;
	default: return 0;
	}
}

struct spv_type *spv_type_child(struct spv *r, const struct spv_type *t, uint32_t i)
{
	switch (t->kind) {
	case T_VECTOR: case T_MATRIX: case T_ARRAY:
		if (i >= t->length)
			spv_fail(r, "index %u is out of range for %s", i, spv_type_str(r, t));
		return t->elem;
	case T_RUNTIME_ARRAY:
		return t->elem;
	case T_STRUCT:
		if (i >= t->length)
			spv_fail(r, "member %u is out of range for %s", i, spv_type_str(r, t));
		return t->members[i].type;
	case T_POINTER:
		return spv_pointee(r, (struct spv_type *)t);
	default:
		spv_fail(r, "%s is not a composite", spv_type_str(r, t));
	}
}

/* ---- layouts ---- */

static uint32_t align_up(uint32_t x, uint32_t a)
{
	return a ? (x + a - 1) / a * a : x;
}

/* std430: scalars and vectors aligned to their size (vec3 as vec4), arrays
 * and structs to their element's or largest member's alignment. */
void spv_type_natural(struct spv *r, struct spv_type *t)
{
	if (t->nat_align)
		return;
	uint32_t size = 0, align = 1;
	switch (t->kind) {
	case T_BOOL: size = align = 4; break;
	case T_INT: case T_FLOAT: size = align = t->bit_size / 8; break;
	case T_POINTER: case T_ACCEL: size = align = 8; break;
	case T_VECTOR: {
		uint32_t c = t->elem->kind == T_BOOL ? 4 : t->bit_size / 8;
		size = c * t->length;
		align = c * (t->length == 3 ? 4 : t->length);
		break;
	}
	case T_MATRIX: case T_ARRAY: {
		spv_type_natural(r, t->elem);
		uint32_t stride = align_up(t->elem->nat_size, t->elem->nat_align);
		if ((uint64_t)stride * t->length > (1u << 30))
			spv_unsupported(r, "%s of more than 1 GiB", spv_type_str(r, t));
		size = stride * t->length;
		align = t->elem->nat_align;
		break;
	}
	case T_STRUCT:
		for (unsigned i = 0; i < t->length; i++) {
			struct spv_type *m = t->members[i].type;
			spv_type_natural(r, m);
			size = align_up(size, m->nat_align) + m->nat_size;
			if (size > (1u << 30))
				spv_unsupported(r, "%s of more than 1 GiB", spv_type_str(r, t));
			if (m->nat_align > align)
				align = m->nat_align;
		}
		size = align_up(size, align);
		break;
	default:
		spv_fail(r, "%s has no size in memory", spv_type_str(r, t));
	}
	t->nat_size = size ? size : 4;
	t->nat_align = align;
}

static uint32_t explicit_size(struct spv *r, const struct spv_type *t, uint32_t matrix_stride,
			      bool row_major, unsigned depth)
{
	if (depth > 64)
		spv_fail(r, "types nested too deeply");
	switch (t->kind) {
	case T_BOOL: return 4;
	case T_INT: case T_FLOAT: return t->bit_size / 8;
	case T_POINTER: return 8;
	case T_VECTOR: return (t->elem->kind == T_BOOL ? 4 : t->bit_size / 8) * t->length;
	case T_MATRIX: {
		unsigned n = row_major ? t->elem->length : t->length;
		return matrix_stride * n;
	}
	case T_ARRAY: {
		uint64_t size = (uint64_t)t->array_stride * t->length;
		return size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
	}
	case T_RUNTIME_ARRAY: return 0;
	case T_STRUCT: {
		uint32_t end = 0;
		for (unsigned i = 0; i < t->length; i++) {
			const struct spv_member *m = &t->members[i];
			uint64_t e = (uint64_t)m->offset +
				     explicit_size(r, m->type, m->matrix_stride, m->row_major, depth + 1);
			if (e > end)
				end = e > UINT32_MAX ? UINT32_MAX : (uint32_t)e;
		}
		return end;
	}
	default:
		return 0;
	}
}

uint32_t spv_type_explicit_size(struct spv *r, const struct spv_type *t)
{
	return explicit_size(r, t, 0, false, 0);
}

/* The same shape: kinds, sizes, lengths and members (not decorations). */
static bool match(const struct spv_type *a, const struct spv_type *b, unsigned depth)
{
	if (a == b)
		return true;
	if (depth > 32 || a->kind != b->kind || a->bit_size != b->bit_size || a->length != b->length)
		return false;
	switch (a->kind) {
	case T_VECTOR: case T_MATRIX: case T_ARRAY: case T_RUNTIME_ARRAY:
		return match(a->elem, b->elem, depth + 1);
	case T_STRUCT:
		for (unsigned i = 0; i < a->length; i++)
			if (!match(a->members[i].type, b->members[i].type, depth + 1))
				return false;
		return true;
	case T_POINTER:
		return a->storage == b->storage;
	default:
		return true;
	}
}

bool spv_types_match(const struct spv_type *a, const struct spv_type *b)
{
	return match(a, b, 0);
}

/* ---- names for messages ---- */

static void type_str(struct spv *r, const struct spv_type *t, struct strbuf *sb, unsigned depth)
{
	static const char *const kinds[] = {
		"void", "bool", "int", "float", "vector", "matrix", "array", "runtime array",
		"struct", "pointer", "function", "image", "sampler", "sampled image", "opaque type",
		"acceleration structure",
	};
	char buf[24];
	if (depth > 4) {
		strbuf_addstr(sb, "…");
		return;
	}
	switch (t->kind) {
	case T_INT: strbuf_addf(sb, "%sint%u", t->is_signed ? "" : "u", t->bit_size); break;
	case T_FLOAT: strbuf_addf(sb, "float%u", t->bit_size); break;
	case T_VECTOR:
		type_str(r, t->elem, sb, depth + 1);
		strbuf_addf(sb, "x%u", t->length);
		break;
	case T_MATRIX:
		strbuf_addf(sb, "mat%ux%u of ", t->length, t->elem->length);
		type_str(r, t->elem->elem, sb, depth + 1);
		break;
	case T_ARRAY: case T_RUNTIME_ARRAY:
		type_str(r, t->elem, sb, depth + 1);
		if (t->kind == T_ARRAY)
			strbuf_addf(sb, "[%u]", t->length);
		else
			strbuf_addstr(sb, "[]");
		break;
	case T_STRUCT:
		strbuf_addf(sb, "struct %s", t->id && spv_id_name(r, t->id) ? spv_id_name(r, t->id) : "");
		break;
	case T_OPAQUE:
		strbuf_addstr(sb, spv_op_name(t->length, buf));
		break;
	default:
		strbuf_addstr(sb, kinds[t->kind]);
		break;
	}
}

const char *spv_type_str(struct spv *r, const struct spv_type *t)
{
	struct strbuf sb = STRBUF_INIT;
	type_str(r, t, &sb, 0);
	char *s = arena_strdup(&r->arena, sb.buf);
	strbuf_release(&sb);
	return s;
}
