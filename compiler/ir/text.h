/*
 * Internal to compiler/ir: what the printer and the parser of the text form
 * share, so they cannot drift apart.  Shader information and declarations
 * are described by field tables: one row per property, its spelling and how
 * its value is written (FORMAT.md, "Properties").
 */
#ifndef SHDB_IR_TEXT_H
#define SHDB_IR_TEXT_H

#include "compiler/ir/ir.h"

enum field_kind {
	FIELD_FLAG,		/* a bare word when true: `smooth`, `combined` */
	FIELD_UINT,		/* key=N */
	FIELD_INT,		/* key=N, may be negative */
	FIELD_ENUM,		/* key=name */
	FIELD_BARE_ENUM,	/* the name alone: `2d`, `float`, `flat` */
	FIELD_BITS,		/* key=a|b or key=none */
	FIELD_STRING,		/* key="text" */
	FIELD_UINT3,		/* key=X,Y,Z (uint16_t[3]) */
};

struct field {
	const char *name;
	enum field_kind kind;
	size_t offset;
	unsigned size;			/* bytes of an integer field */
	const char *const *names;	/* FIELD_ENUM, FIELD_BARE_ENUM, FIELD_BITS */
	unsigned num_names;
	bool always;			/* printed even when it has the default */
	int64_t def;			/* default value (integers) */
};

struct field_table {
	const struct field *fields;
	unsigned count;
};

extern const struct field_table ir_info_fields;
extern const struct field_table ir_io_fields;
extern const struct field_table ir_buffer_fields;
extern const struct field_table ir_resource_fields;
extern const struct field_table ir_local_fields;

int64_t field_get(const void *obj, const struct field *f);
void field_set(void *obj, const struct field *f, int64_t v);

/* " key=value …" for every field to print (leading space included). */
void text_print_fields(struct strbuf *out, const void *obj, const struct field_table *t);
/* "a|b", "none", or leftover bits as a number. */
void text_print_bits(struct strbuf *out, uint64_t v, const char *const *names, unsigned count);
/* A name from a table, or the number when out of range. */
void text_print_enum(struct strbuf *out, int64_t v, const char *const *names, unsigned count);
/* A quoted string with \" \\ and \xHH escapes. */
void text_print_string(struct strbuf *out, const char *s);
/* "32", "32x4". */
void text_print_type(struct strbuf *out, unsigned num_components, unsigned bit_size);
/* The value of a const index, by its kind. */
void text_print_index(struct strbuf *out, enum intr_index idx, int32_t value);

/* Swizzle letters: x y z w then e f … p for components 4..15. */
extern const char text_swizzle_chars[17];

#endif
