/*
 * Field tables of the text form (text.h) and the value printers the printer
 * and the parser's messages share.
 */
#include "compiler/ir/text.h"

#include <string.h>

const char text_swizzle_chars[17] = "xyzwefghijklmnop";

#define NAMES(arr) arr, (unsigned)(sizeof(arr) / sizeof(*(arr)))
#define F(T, key, member, kind, ...) \
	{ key, FIELD_##kind, offsetof(T, member), sizeof(((T *)0)->member), __VA_ARGS__ }

static const struct field info_fields[] = {
	F(struct shader_info, "workgroup_size", workgroup_size, UINT3, NULL, 0),
	F(struct shader_info, "workgroup_size_variable", workgroup_size_variable, FLAG, NULL, 0),
	F(struct shader_info, "shared_size", shared_size, UINT, NULL, 0),
	F(struct shader_info, "push_constant_size", push_constant_size, UINT, NULL, 0),
	F(struct shader_info, "uniform_size", uniform_size, UINT, NULL, 0),
	F(struct shader_info, "scratch_size", scratch_size, UINT, NULL, 0),
	F(struct shader_info, "early_fragment_tests", early_fragment_tests, FLAG, NULL, 0),
	F(struct shader_info, "post_depth_coverage", post_depth_coverage, FLAG, NULL, 0),
	F(struct shader_info, "origin_upper_left", origin_upper_left, FLAG, NULL, 0),
	F(struct shader_info, "pixel_center_integer", pixel_center_integer, FLAG, NULL, 0),
	F(struct shader_info, "pixel_interlock", pixel_interlock, FLAG, NULL, 0),
	F(struct shader_info, "sample_interlock", sample_interlock, FLAG, NULL, 0),
	F(struct shader_info, "depth_layout", depth_layout, ENUM, NAMES(depth_layout_names)),
	F(struct shader_info, "input_primitive", input_primitive, ENUM, NAMES(primitive_names)),
	F(struct shader_info, "output_primitive", output_primitive, ENUM, NAMES(primitive_names)),
	F(struct shader_info, "vertices_out", vertices_out, UINT, NULL, 0),
	F(struct shader_info, "invocations", invocations, UINT, NULL, 0),
	F(struct shader_info, "tess_primitive", tess_primitive, ENUM, NAMES(primitive_names)),
	F(struct shader_info, "tess_spacing", tess_spacing, ENUM, NAMES(spacing_names)),
	F(struct shader_info, "tess_ccw", tess_ccw, FLAG, NULL, 0),
	F(struct shader_info, "tess_point_mode", tess_point_mode, FLAG, NULL, 0),
	F(struct shader_info, "primitives_out", primitives_out, UINT, NULL, 0),
	F(struct shader_info, "float_controls", float_controls, BITS, NAMES(float_control_names)),
	F(struct shader_info, "subgroup_size", subgroup_size, UINT, NULL, 0),
};

static const struct field io_fields[] = {
	F(struct io_decl, "location", location, INT, NULL, 0, false, -1),
	F(struct io_decl, "builtin", builtin, ENUM, NAMES(builtin_names)),
	F(struct io_decl, "component", component, UINT, NULL, 0),
	F(struct io_decl, "array_size", array_size, UINT, NULL, 0),
	F(struct io_decl, "interp", interp, BARE_ENUM, NAMES(interp_names)),
	F(struct io_decl, "centroid", centroid, FLAG, NULL, 0),
	F(struct io_decl, "sample", sample, FLAG, NULL, 0),
	F(struct io_decl, "per_vertex", per_vertex, FLAG, NULL, 0),
	F(struct io_decl, "patch", patch, FLAG, NULL, 0),
	F(struct io_decl, "per_primitive", per_primitive, FLAG, NULL, 0),
	F(struct io_decl, "invariant", invariant, FLAG, NULL, 0),
	F(struct io_decl, "mediump", mediump, FLAG, NULL, 0),
	F(struct io_decl, "index", index, UINT, NULL, 0),
	F(struct io_decl, "stream", stream, UINT, NULL, 0),
	F(struct io_decl, "name", name, STRING, NULL, 0),
};

static const struct field buffer_fields[] = {
	F(struct buffer_decl, "set", set, UINT, NULL, 0, true),
	F(struct buffer_decl, "binding", binding, UINT, NULL, 0, true),
	F(struct buffer_decl, "array_size", array_size, UINT, NULL, 0),
	F(struct buffer_decl, "size", size, UINT, NULL, 0, true),
	F(struct buffer_decl, "access", access, BITS, NAMES(access_names)),
	F(struct buffer_decl, "name", name, STRING, NULL, 0),
};

static const struct field resource_fields[] = {
	F(struct resource_decl, "dim", dim, BARE_ENUM, NAMES(dim_names)),
	F(struct resource_decl, "array", is_array, FLAG, NULL, 0),
	F(struct resource_decl, "ms", is_ms, FLAG, NULL, 0),
	F(struct resource_decl, "shadow", is_shadow, FLAG, NULL, 0),
	F(struct resource_decl, "type", type, BARE_ENUM, NAMES(base_type_names)),
	F(struct resource_decl, "combined", combined, FLAG, NULL, 0),
	F(struct resource_decl, "set", set, UINT, NULL, 0, true),
	F(struct resource_decl, "binding", binding, UINT, NULL, 0, true),
	F(struct resource_decl, "array_size", array_size, UINT, NULL, 0),
	F(struct resource_decl, "format", format, ENUM, NAMES(format_names)),
	F(struct resource_decl, "access", access, BITS, NAMES(access_names)),
	F(struct resource_decl, "name", name, STRING, NULL, 0),
};

static const struct field local_fields[] = {
	F(struct local_decl, "mediump", mediump, FLAG, NULL, 0),
	F(struct local_decl, "name", name, STRING, NULL, 0),
};

#define TABLE(arr) { arr, (unsigned)(sizeof(arr) / sizeof(*(arr))) }
const struct field_table ir_info_fields = TABLE(info_fields);
const struct field_table ir_io_fields = TABLE(io_fields);
const struct field_table ir_buffer_fields = TABLE(buffer_fields);
const struct field_table ir_resource_fields = TABLE(resource_fields);
const struct field_table ir_local_fields = TABLE(local_fields);

int64_t field_get(const void *obj, const struct field *f)
{
	const char *p = (const char *)obj + f->offset;
	switch (f->size) {
	case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4:
		if (f->kind == FIELD_INT) {
			int32_t v;
			memcpy(&v, p, 4);
			return v;
		} else {
			uint32_t v;
			memcpy(&v, p, 4);
			return v;
		}
	}
	BUG("field %s of %u bytes", f->name, f->size);
}

void field_set(void *obj, const struct field *f, int64_t v)
{
	char *p = (char *)obj + f->offset;
	switch (f->size) {
	case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); return; }
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); return; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); return; }
	}
	BUG("field %s of %u bytes", f->name, f->size);
}

void text_print_bits(struct strbuf *out, uint64_t v, const char *const *names, unsigned count)
{
	if (!v) {
		strbuf_addstr(out, "none");
		return;
	}
	const char *sep = "";
	for (unsigned i = 0; i < count && i < 64; i++) {
		if (v & ((uint64_t)1 << i)) {
			strbuf_addf(out, "%s%s", sep, names[i]);
			sep = "|";
			v &= ~((uint64_t)1 << i);
		}
	}
	if (v)
		strbuf_addf(out, "%s%llu", sep, (unsigned long long)v);
}

void text_print_enum(struct strbuf *out, int64_t v, const char *const *names, unsigned count)
{
	if (v >= 0 && v < count)
		strbuf_addstr(out, names[v]);
	else
		strbuf_addf(out, "%lld", (long long)v);
}

void text_print_string(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addf(out, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			strbuf_addf(out, "\\x%02x", *p);
		else
			strbuf_addch(out, *p);
	}
	strbuf_addch(out, '"');
}

void text_print_type(struct strbuf *out, unsigned num_components, unsigned bit_size)
{
	if (num_components == 1)
		strbuf_addf(out, "%u", bit_size);
	else
		strbuf_addf(out, "%ux%u", bit_size, num_components);
}

static void print_field(struct strbuf *out, const void *obj, const struct field *f)
{
	if (f->kind == FIELD_STRING) {
		const char *s;
		memcpy(&s, (const char *)obj + f->offset, sizeof(s));
		if (s) {
			strbuf_addf(out, " %s=", f->name);
			text_print_string(out, s);
		}
		return;
	}
	if (f->kind == FIELD_UINT3) {
		const uint16_t *v = (const uint16_t *)(const void *)((const char *)obj + f->offset);
		if (v[0] || v[1] || v[2] || f->always)
			strbuf_addf(out, " %s=%u,%u,%u", f->name, v[0], v[1], v[2]);
		return;
	}
	int64_t v = field_get(obj, f);
	if (v == f->def && !f->always)
		return;
	switch (f->kind) {
	case FIELD_FLAG:
		strbuf_addf(out, " %s", f->name);
		break;
	case FIELD_BARE_ENUM:
		strbuf_addch(out, ' ');
		text_print_enum(out, v, f->names, f->num_names);
		break;
	case FIELD_ENUM:
		strbuf_addf(out, " %s=", f->name);
		text_print_enum(out, v, f->names, f->num_names);
		break;
	case FIELD_BITS:
		strbuf_addf(out, " %s=", f->name);
		text_print_bits(out, (uint64_t)v, f->names, f->num_names);
		break;
	default:
		strbuf_addf(out, " %s=%lld", f->name, (long long)v);
		break;
	}
}

void text_print_fields(struct strbuf *out, const void *obj, const struct field_table *t)
{
	for (unsigned i = 0; i < t->count; i++)
		print_field(out, obj, &t->fields[i]);
}

void text_print_index(struct strbuf *out, enum intr_index idx, int32_t value)
{
	switch (intr_index_infos[idx].kind) {
	case INDEX_KIND_WRMASK:
		if (value <= 0 || value >= (1 << 16)) {
			strbuf_addf(out, "%d", value);
			break;
		}
		for (unsigned c = 0; c < 16; c++)
			if (value & (1 << c))
				strbuf_addch(out, text_swizzle_chars[c]);
		break;
	case INDEX_KIND_ACCESS:
		text_print_bits(out, (uint32_t)value, access_names, ACCESS_BIT_COUNT);
		break;
	case INDEX_KIND_SEMANTICS:
		text_print_bits(out, (uint32_t)value, semantics_names, SEMANTICS_BIT_COUNT);
		break;
	case INDEX_KIND_MODES:
		text_print_bits(out, (uint32_t)value, mode_names, MODE_BIT_COUNT);
		break;
	case INDEX_KIND_ATOMIC:
		text_print_enum(out, value, atomic_op_names, ATOMIC_COUNT);
		break;
	case INDEX_KIND_SCOPE:
		text_print_enum(out, value, scope_names, SCOPE_COUNT);
		break;
	case INDEX_KIND_DIM:
		text_print_enum(out, value, dim_names, DIM_COUNT);
		break;
	case INDEX_KIND_FORMAT:
		text_print_enum(out, value, format_names, FORMAT_COUNT);
		break;
	case INDEX_KIND_BASE_TYPE:
		text_print_enum(out, value, base_type_names, BASE_COUNT);
		break;
	case INDEX_KIND_ALU_OP:
		if (value >= 0 && value < OP_COUNT)
			strbuf_addstr(out, alu_op_infos[value].name);
		else
			strbuf_addf(out, "%d", value);
		break;
	case INDEX_KIND_INT: case INDEX_KIND_OPT_INT:
		strbuf_addf(out, "%d", value);
		break;
	}
}
