/*
 * The parser of the text form (FORMAT.md), written for hostile input: every
 * read is bounds-checked against `end` (the buffer need not be
 * NUL-terminated and may hold NUL bytes), numbers are range-checked before
 * they size anything, nesting is limited, and the first error stops the
 * parse with "file:line:col: error: …" (longjmp back to ir_parse, which
 * frees everything).  The result has a sane structure — every list starts
 * and ends with a block, every source points at a value — but its
 * semantics are the validator's business.
 *
 * The grammar is line-based: one declaration, block label, instruction or
 * control-flow line per line; `#` starts a comment.  Value and block names
 * may be used before their definition (phis on back edges); they are
 * resolved when the function ends.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/text.h"
#include "compiler/util/array.h"
#include "compiler/util/hash.h"

#define MAX_DEPTH 128
#define MAX_VALUE_INDEX ((1u << 24) - 1)
#define MAX_LOCAL_ELEMENTS (1u << 20)
#define MAX_TEX_SRCS 16

enum tok_kind {
	TOK_EOF, TOK_EOL, TOK_IDENT, TOK_INT, TOK_FLOAT, TOK_TYPE, TOK_STRING, TOK_VALUE,
	TOK_INTRINSIC, TOK_PUNCT,
};

struct token {
	enum tok_kind kind;
	const char *s;			/* the token's text */
	size_t len;
	int line, col;
	uint64_t num;			/* INT: magnitude; VALUE: index */
	bool neg;			/* INT: a leading '-' */
	unsigned bits, comps;		/* TYPE */
	char punct;
};

/* A source to point at value %index once every value is known. */
struct value_fixup {
	struct src *src;		/* NULL for an if condition */
	struct cf_if *nif;
	struct intrinsic_instr *sizes;	/* set its num_components from the value */
	uint64_t index;
	int line, col;
};

/* A phi source whose predecessor is named by a label. */
struct pred_fixup {
	struct phi_src *ps;
	const char *label;
	size_t len;
	int line, col;
};

enum keyword_kind { KW_ALU = 1, KW_TEX, KW_INTRINSIC };

struct parser {
	const char *name;
	const char *p, *end, *line_start;
	int line;
	struct token tok;
	struct diag *diag;
	jmp_buf fail;

	struct shader *s;
	struct function *fn;
	struct strmap keywords;		/* opcode names → kind << 16 | id */
	struct u64map values;		/* %index → struct ssa_def * */
	struct strmap blocks;		/* label → struct block * */
	ARRAY(struct value_fixup) value_fixups;
	ARRAY(struct pred_fixup) pred_fixups;
	uint64_t max_index;
	bool any_value;
	unsigned depth;
};

/* ---- errors ---- */

static void describe(struct strbuf *sb, const struct token *t)
{
	switch (t->kind) {
	case TOK_EOF: strbuf_addstr(sb, "end of file"); return;
	case TOK_EOL: strbuf_addstr(sb, "end of line"); return;
	default: break;
	}
	size_t n = t->len > 40 ? 40 : t->len;
	strbuf_addch(sb, '\'');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t->s[i];
		if (c < 0x20 || c >= 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addstr(sb, n < t->len ? "…'" : "'");
}

__attribute__((format(printf, 4, 5), noreturn))
static void fail_at(struct parser *ps, int line, int col, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	diag_error(ps->diag, ps->name, line, col, "%s", msg.buf);
	strbuf_release(&msg);
	longjmp(ps->fail, 1);
}

#define fail(ps, ...) fail_at((ps), (ps)->tok.line, (ps)->tok.col, __VA_ARGS__)

__attribute__((noreturn))
static void fail_expected(struct parser *ps, const char *what)
{
	struct strbuf got = STRBUF_INIT;
	describe(&got, &ps->tok);
	struct diag *d = ps->diag;
	diag_error(d, ps->name, ps->tok.line, ps->tok.col, "expected %s, got %s", what, got.buf);
	strbuf_release(&got);
	longjmp(ps->fail, 1);
}

/* ---- lexer ---- */

static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(int c)
{
	return is_alpha(c) || is_digit(c);
}

static int peekc(struct parser *ps, size_t ahead)
{
	return (size_t)(ps->end - ps->p) > ahead ? (unsigned char)ps->p[ahead] : -1;
}

/* Decimal or hex digits into *v; false on overflow. */
static bool lex_digits(struct parser *ps, unsigned base, uint64_t *v)
{
	bool ok = true;
	*v = 0;
	for (int c; (c = peekc(ps, 0)) >= 0; ps->p++) {
		unsigned d;
		if (is_digit(c))
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (*v > (UINT64_MAX - d) / base)
			ok = false;
		*v = *v * base + d;
	}
	return ok;
}

static void lex_word(struct parser *ps)
{
	while (is_alnum(peekc(ps, 0)))
		ps->p++;
}

static void lex_number(struct parser *ps, struct token *t)
{
	if (peekc(ps, 0) == '-') {
		t->neg = true;
		ps->p++;
		if (is_alpha(peekc(ps, 0))) {	/* -inf, -nan */
			lex_word(ps);
			t->kind = TOK_FLOAT;
			return;
		}
	}
	if (peekc(ps, 0) == '0' && (peekc(ps, 1) == 'x' || peekc(ps, 1) == 'X') &&
	    !t->neg && peekc(ps, 2) > 0 && strchr("0123456789abcdefABCDEF", peekc(ps, 2))) {
		ps->p += 2;
		if (!lex_digits(ps, 16, &t->num))
			fail(ps, "number too large");
		t->kind = TOK_INT;
	} else {
		bool ok = lex_digits(ps, 10, &t->num);
		int c = peekc(ps, 0);
		if (c == '.' || c == 'e' || c == 'E') {
			while ((c = peekc(ps, 0)) >= 0 &&
			       (is_digit(c) || c == '.' || c == 'e' || c == 'E' ||
				((c == '+' || c == '-') && (ps->p[-1] == 'e' || ps->p[-1] == 'E'))))
				ps->p++;
			t->kind = TOK_FLOAT;
			return;
		}
		if (c == 'x' && !t->neg && is_digit(peekc(ps, 1))) {
			uint64_t comps;
			ps->p++;
			bool ok2 = lex_digits(ps, 10, &comps);
			if (!ok || !ok2 || t->num > 255 || comps > 255)
				fail(ps, "invalid type");
			t->kind = TOK_TYPE;
			t->bits = (unsigned)t->num;
			t->comps = (unsigned)comps;
			return;
		}
		if (is_alpha(c) && !t->neg) {	/* a word such as 2d */
			lex_word(ps);
			t->kind = TOK_IDENT;
			return;
		}
		if (!ok)
			fail(ps, "number too large");
		t->kind = TOK_INT;
	}
	if (is_alnum(peekc(ps, 0)))
		fail(ps, "invalid number");
}

static void lex_string(struct parser *ps, struct token *t)
{
	ps->p++;
	for (;;) {
		int c = peekc(ps, 0);
		if (c < 0 || c == '\n')
			fail(ps, "unterminated string");
		ps->p++;
		if (c == '"')
			break;
		if (c == '\\') {
			if (peekc(ps, 0) < 0)
				fail(ps, "unterminated string");
			ps->p++;
		}
	}
	t->kind = TOK_STRING;
}

static void next(struct parser *ps)
{
	struct token *t = &ps->tok;
	int c;
	for (;;) {
		c = peekc(ps, 0);
		if (c == ' ' || c == '\t' || c == '\r') {
			ps->p++;
		} else if (c == '#') {
			while ((c = peekc(ps, 0)) >= 0 && c != '\n')
				ps->p++;
		} else {
			break;
		}
	}
	memset(t, 0, sizeof(*t));
	t->s = ps->p;
	t->line = ps->line;
	t->col = (int)(ps->p - ps->line_start) + 1;
	if (c < 0) {
		t->kind = TOK_EOF;
	} else if (c == '\n') {
		ps->p++;
		ps->line++;
		ps->line_start = ps->p;
		t->kind = TOK_EOL;
	} else if (is_alpha(c)) {
		lex_word(ps);
		t->kind = TOK_IDENT;
	} else if (is_digit(c) || (c == '-' && (is_digit(peekc(ps, 1)) || is_alpha(peekc(ps, 1))))) {
		lex_number(ps, t);
	} else if (c == '%' && is_digit(peekc(ps, 1))) {
		ps->p++;
		if (!lex_digits(ps, 10, &t->num) || t->num > MAX_VALUE_INDEX)
			fail(ps, "value index too large (the limit is %u)", MAX_VALUE_INDEX);
		t->kind = TOK_VALUE;
	} else if (c == '@' && is_alpha(peekc(ps, 1))) {
		ps->p++;
		lex_word(ps);
		t->kind = TOK_INTRINSIC;
	} else if (c == '"') {
		lex_string(ps, t);
	} else if (c != 0 && strchr("=,:{}[].|", c)) {
		ps->p++;
		t->kind = TOK_PUNCT;
		t->punct = (char)c;
	} else {
		ps->p++;
		t->len = 1;
		fail(ps, c >= 0x20 && c < 0x7f ? "unexpected character '%c'" :
		     "unexpected byte 0x%02x", c);
	}
	t->len = (size_t)(ps->p - t->s);
}

/* ---- token helpers ---- */

static bool is_ident(struct parser *ps, const char *word)
{
	return ps->tok.kind == TOK_IDENT && strlen(word) == ps->tok.len &&
	       !memcmp(ps->tok.s, word, ps->tok.len);
}

static bool is_punct(struct parser *ps, char c)
{
	return ps->tok.kind == TOK_PUNCT && ps->tok.punct == c;
}

static void expect_punct(struct parser *ps, char c)
{
	if (!is_punct(ps, c)) {
		char what[4] = { '\'', c, '\'', 0 };
		fail_expected(ps, what);
	}
	next(ps);
}

static void expect_ident(struct parser *ps, const char *word)
{
	if (!is_ident(ps, word)) {
		struct strbuf w = STRBUF_INIT;
		strbuf_addf(&w, "'%s'", word);
		struct diag *d = ps->diag;
		struct strbuf got = STRBUF_INIT;
		describe(&got, &ps->tok);
		diag_error(d, ps->name, ps->tok.line, ps->tok.col, "expected %s, got %s", w.buf, got.buf);
		strbuf_release(&w);
		strbuf_release(&got);
		longjmp(ps->fail, 1);
	}
	next(ps);
}

static void expect_eol(struct parser *ps)
{
	if (ps->tok.kind != TOK_EOL && ps->tok.kind != TOK_EOF)
		fail_expected(ps, "end of line");
	if (ps->tok.kind == TOK_EOL)
		next(ps);
}

static void skip_eols(struct parser *ps)
{
	while (ps->tok.kind == TOK_EOL)
		next(ps);
}

/* An unsigned integer no larger than `max`. */
static uint64_t expect_uint(struct parser *ps, uint64_t max, const char *what)
{
	if (ps->tok.kind != TOK_INT || ps->tok.neg)
		fail_expected(ps, what);
	if (ps->tok.num > max)
		fail(ps, "%s out of range (at most %llu)", what, (unsigned long long)max);
	uint64_t v = ps->tok.num;
	next(ps);
	return v;
}

static int64_t expect_int32(struct parser *ps, const char *what)
{
	if (ps->tok.kind != TOK_INT)
		fail_expected(ps, what);
	uint64_t limit = ps->tok.neg ? (uint64_t)INT32_MAX + 1 : UINT32_MAX;
	if (ps->tok.num > limit)
		fail(ps, "%s out of range", what);
	int64_t v = ps->tok.neg ? -(int64_t)ps->tok.num : (int64_t)ps->tok.num;
	next(ps);
	return v;
}

/* A type: "32x4" or "32"; both must be valid IR sizes. */
static void expect_type(struct parser *ps, unsigned *comps, unsigned *bits)
{
	if (ps->tok.kind == TOK_TYPE) {
		*bits = ps->tok.bits;
		*comps = ps->tok.comps;
	} else if (ps->tok.kind == TOK_INT && !ps->tok.neg && ps->tok.num <= 64) {
		*bits = (unsigned)ps->tok.num;
		*comps = 1;
	} else {
		fail_expected(ps, "a type such as 32 or 32x4");
	}
	if (!ir_valid_bit_size(*bits))
		fail(ps, "invalid bit size %u", *bits);
	if (!ir_valid_num_components(*comps))
		fail(ps, "invalid number of components %u", *comps);
	next(ps);
}

/* The text of a string token, unescaped, in the shader's arena. */
static const char *string_value(struct parser *ps)
{
	const char *p = ps->tok.s + 1, *e = ps->tok.s + ps->tok.len - 1;
	char *out = arena_alloc(&ps->s->arena, ps->tok.len), *o = out;
	while (p < e) {
		char c = *p++;
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		c = *p++;
		if (c == 'x') {
			unsigned v = 0;
			for (int k = 0; k < 2; k++, p++) {
				int d = p < e ? (unsigned char)*p : -1;
				if (!(is_digit(d) || (d >= 'a' && d <= 'f') || (d >= 'A' && d <= 'F')))
					fail(ps, "invalid \\x escape in string");
				v = v * 16 + (unsigned)(is_digit(d) ? d - '0' : (d | 0x20) - 'a' + 10);
			}
			if (!v)
				fail(ps, "NUL byte in string");
			*o++ = (char)v;
		} else if (c == 'n') {
			*o++ = '\n';
		} else if (c == 't') {
			*o++ = '\t';
		} else if (c == '"' || c == '\\') {
			*o++ = c;
		} else {
			fail(ps, "invalid escape in string");
		}
	}
	*o = 0;
	return out;
}

static int lookup_name(struct parser *ps, const char *const *names, unsigned count,
		       const char *what)
{
	int v = ps->tok.kind == TOK_IDENT ? ir_name_lookup(names, count, ps->tok.s, ps->tok.len) : -1;
	if (v < 0)
		fail_expected(ps, what);
	next(ps);
	return v;
}

/* a|b|c, none, or a number. */
static uint64_t parse_bits(struct parser *ps, const char *const *names, unsigned count)
{
	if (ps->tok.kind == TOK_INT)
		return expect_uint(ps, UINT32_MAX, "a number");
	if (is_ident(ps, "none")) {
		next(ps);
		return 0;
	}
	uint64_t v = 0;
	for (;;) {
		int bit = lookup_name(ps, names, count, "a flag name");
		v |= (uint64_t)1 << bit;
		if (!is_punct(ps, '|'))
			return v;
		next(ps);
	}
}

/* ---- properties (shader information, declarations) ---- */

static const struct field *find_field(const struct field_table *t, const char *s, size_t len)
{
	for (unsigned i = 0; i < t->count; i++)
		if (strlen(t->fields[i].name) == len && !memcmp(t->fields[i].name, s, len) &&
		    t->fields[i].kind != FIELD_BARE_ENUM)
			return &t->fields[i];
	return NULL;
}

/* A bare enum value (`2d`, `flat`) of one of the table's fields. */
static const struct field *find_bare(const struct field_table *t, const char *s, size_t len,
				     int *value)
{
	for (unsigned i = 0; i < t->count; i++) {
		const struct field *f = &t->fields[i];
		if (f->kind != FIELD_BARE_ENUM)
			continue;
		int v = ir_name_lookup(f->names, f->num_names, s, len);
		if (v > 0) {
			*value = v;
			return f;
		}
	}
	return NULL;
}

static uint64_t field_max(const struct field *f)
{
	return f->size >= 4 ? UINT32_MAX : ((uint64_t)1 << (8 * f->size)) - 1;
}

static void parse_field_value(struct parser *ps, void *obj, const struct field *f)
{
	switch (f->kind) {
	case FIELD_UINT:
		field_set(obj, f, (int64_t)expect_uint(ps, field_max(f), f->name));
		break;
	case FIELD_INT:
		field_set(obj, f, expect_int32(ps, f->name));
		break;
	case FIELD_ENUM:
		field_set(obj, f, lookup_name(ps, f->names, f->num_names, "a name"));
		break;
	case FIELD_BITS:
		field_set(obj, f, (int64_t)parse_bits(ps, f->names, f->num_names));
		break;
	case FIELD_STRING: {
		if (ps->tok.kind != TOK_STRING)
			fail_expected(ps, "a string");
		const char *str = string_value(ps);
		memcpy((char *)obj + f->offset, &str, sizeof(str));
		next(ps);
		break;
	}
	case FIELD_UINT3: {
		uint16_t *v = (uint16_t *)(void *)((char *)obj + f->offset);
		for (int i = 0; i < 3; i++) {
			if (i)
				expect_punct(ps, ',');
			v[i] = (uint16_t)expect_uint(ps, UINT16_MAX, f->name);
		}
		break;
	}
	default:
		BUG("field kind %d", f->kind);
	}
}

/* Properties up to the end of the line, each at most once. */
static void parse_fields(struct parser *ps, void *obj, const struct field_table *t)
{
	bool seen[32] = { false };
	while (ps->tok.kind != TOK_EOL && ps->tok.kind != TOK_EOF) {
		if (ps->tok.kind != TOK_IDENT)
			fail_expected(ps, "a property");
		int line = ps->tok.line, col = ps->tok.col, bare = 0;
		const struct field *f = find_field(t, ps->tok.s, ps->tok.len);
		if (!f)
			f = find_bare(t, ps->tok.s, ps->tok.len, &bare);
		if (!f) {
			struct strbuf got = STRBUF_INIT;
			describe(&got, &ps->tok);
			struct diag *d = ps->diag;
			diag_error(d, ps->name, line, col, "unknown property %s", got.buf);
			strbuf_release(&got);
			longjmp(ps->fail, 1);
		}
		unsigned k = (unsigned)(f - t->fields);
		if (k < 32 && seen[k])
			fail_at(ps, line, col, "duplicate property '%s'", f->name);
		if (k < 32)
			seen[k] = true;
		next(ps);
		if (f->kind == FIELD_FLAG) {
			field_set(obj, f, 1);
		} else if (f->kind == FIELD_BARE_ENUM) {
			field_set(obj, f, bare);
		} else {
			expect_punct(ps, '=');
			parse_field_value(ps, obj, f);
		}
	}
	expect_eol(ps);
}

/* ---- declarations ---- */

static void expect_decl_number(struct parser *ps, unsigned want, const char *kind)
{
	if (ps->tok.kind != TOK_INT || ps->tok.neg || ps->tok.num != want) {
		struct strbuf got = STRBUF_INIT;
		describe(&got, &ps->tok);
		diag_error(ps->diag, ps->name, ps->tok.line, ps->tok.col, "expected %s number %u, got %s",
			   kind, want, got.buf);
		strbuf_release(&got);
		longjmp(ps->fail, 1);
	}
	next(ps);
}

static void parse_io(struct parser *ps, bool output)
{
	struct shader *s = ps->s;
	unsigned n = output ? s->num_outputs : s->num_inputs;
	expect_decl_number(ps, n, output ? "output" : "input");
	struct io_decl *d = output ? shader_add_output(s) : shader_add_input(s);
	unsigned comps, bits;
	expect_type(ps, &comps, &bits);
	d->num_components = (uint8_t)comps;
	d->bit_size = (uint8_t)bits;
	d->location = -1;
	parse_fields(ps, d, &ir_io_fields);
}

static void parse_buffer(struct parser *ps, bool ssbo)
{
	struct shader *s = ps->s;
	struct buffer_decl *d = ssbo ? shader_add_ssbo(s) : shader_add_ubo(s);
	expect_decl_number(ps, d->slot, ssbo ? "ssbo slot" : "ubo slot");
	parse_fields(ps, d, &ir_buffer_fields);
}

static void parse_resource(struct parser *ps, const char *kind)
{
	struct shader *s = ps->s;
	struct resource_decl *d = kind[0] == 't' ? shader_add_texture(s)
				  : kind[0] == 's' ? shader_add_sampler(s) : shader_add_image(s);
	expect_decl_number(ps, d->slot, kind);
	parse_fields(ps, d, &ir_resource_fields);
}

static void parse_local(struct parser *ps)
{
	struct shader *s = ps->s;
	expect_decl_number(ps, s->num_locals, "local");
	struct local_decl *d = shader_add_local(s);
	unsigned comps, bits;
	expect_type(ps, &comps, &bits);
	d->num_components = (uint8_t)comps;
	d->bit_size = (uint8_t)bits;
	expect_punct(ps, '[');
	d->num_elements = (unsigned)expect_uint(ps, MAX_LOCAL_ELEMENTS, "an element count");
	expect_punct(ps, ']');
	parse_fields(ps, d, &ir_local_fields);
}

/* A declaration line; false when the line is something else. */
static bool parse_decl(struct parser *ps)
{
	static const char *const kinds[] = {
		"input", "output", "ubo", "ssbo", "texture", "sampler", "image", "local",
	};
	int k = ps->tok.kind == TOK_IDENT ? ir_name_lookup(kinds, 8, ps->tok.s, ps->tok.len) : -1;
	if (k < 0)
		return false;
	next(ps);
	switch (k) {
	case 0: parse_io(ps, false); break;
	case 1: parse_io(ps, true); break;
	case 2: parse_buffer(ps, false); break;
	case 3: parse_buffer(ps, true); break;
	case 7: parse_local(ps); break;
	default: parse_resource(ps, kinds[k]); break;
	}
	return true;
}

static void parse_header(struct parser *ps)
{
	skip_eols(ps);
	expect_ident(ps, "shader");
	if (ps->tok.kind != TOK_IDENT)
		fail_expected(ps, "a stage name");
	char stage[32] = "";
	if (ps->tok.len < sizeof(stage))
		memcpy(stage, ps->tok.s, ps->tok.len);
	enum shader_stage st = stage_from_name(stage);
	if (st == STAGE_NONE)
		fail(ps, "unknown stage '%s'", stage);
	ps->s->stage = st;
	next(ps);
	parse_fields(ps, &ps->s->info, &ir_info_fields);
}

/* ---- values and sources ---- */

static void define_value(struct parser *ps, struct ssa_def *def, const struct token *at)
{
	uint64_t old;
	if (u64map_get(&ps->values, at->num, &old))
		fail_at(ps, at->line, at->col, "value %%%llu is defined twice",
			(unsigned long long)at->num);
	u64map_set(&ps->values, at->num, (uint64_t)(uintptr_t)def);
	def->index = (unsigned)at->num;
	if (!ps->any_value || at->num > ps->max_index)
		ps->max_index = at->num;
	ps->any_value = true;
}

/* %N as a source, resolved when the function ends. */
static void parse_src(struct parser *ps, struct src *src, struct cf_if *nif,
		      struct intrinsic_instr *sizes)
{
	if (ps->tok.kind != TOK_VALUE)
		fail_expected(ps, "a value such as %1");
	struct value_fixup *f = array_push_zero(&ps->value_fixups);
	f->src = src;
	f->nif = nif;
	f->sizes = sizes;
	f->index = ps->tok.num;
	f->line = ps->tok.line;
	f->col = ps->tok.col;
	next(ps);
}

static void parse_swizzle(struct parser *ps, struct alu_src *as, unsigned want)
{
	if (ps->tok.kind != TOK_IDENT)
		fail_expected(ps, "a swizzle");
	size_t n = ps->tok.len;
	if (n != want && n != 1)
		fail(ps, "swizzle of %zu components where %u are read", n, want);
	for (size_t i = 0; i < n; i++) {
		const char *c = memchr(text_swizzle_chars, ps->tok.s[i], 16);
		if (!c)
			fail(ps, "invalid swizzle character '%c'", ps->tok.s[i]);
		as->swizzle[i] = (uint8_t)(c - text_swizzle_chars);
	}
	for (size_t i = n; i < want; i++)	/* .x broadcasts */
		as->swizzle[i] = as->swizzle[0];
	next(ps);
}

static void expect_comma(struct parser *ps, unsigned i)
{
	if (i)
		expect_punct(ps, ',');
}

/* ---- instructions ---- */

static struct alu_instr *parse_alu(struct parser *ps, enum alu_op op, unsigned comps,
				   unsigned bits)
{
	const struct alu_op_info *info = &alu_op_infos[op];
	struct alu_instr *alu = alu_instr_create(ps->s, op);
	ssa_def_init(&alu->instr, &alu->def, comps, bits);
	for (;;) {
		if (is_ident(ps, "exact"))
			alu->exact = true;
		else if (is_ident(ps, "mediump"))
			alu->mediump = true;
		else if (is_ident(ps, "nsw"))
			alu->no_signed_wrap = true;
		else if (is_ident(ps, "nuw"))
			alu->no_unsigned_wrap = true;
		else
			break;
		next(ps);
	}
	for (unsigned i = 0; i < info->num_inputs; i++) {
		expect_comma(ps, i);
		parse_src(ps, &alu->src[i].src, NULL, NULL);
		if (is_punct(ps, '.')) {
			next(ps);
			parse_swizzle(ps, &alu->src[i], alu_src_components(alu, i));
		}
	}
	return alu;
}

/* One constant component of `bits` bits. */
static uint64_t parse_const_value(struct parser *ps, unsigned bits)
{
	struct token *t = &ps->tok;
	uint64_t v;
	if (t->kind == TOK_IDENT && (is_ident(ps, "true") || is_ident(ps, "false"))) {
		if (bits != 1)
			fail(ps, "true and false are 1-bit constants");
		v = is_ident(ps, "true");
	} else if (t->kind == TOK_IDENT && (is_ident(ps, "inf") || is_ident(ps, "nan"))) {
		if (bits < 16)
			fail(ps, "a float constant needs 16, 32 or 64 bits");
		v = ir_float_to_bits(is_ident(ps, "inf") ? __builtin_inf() : __builtin_nan(""), bits);
	} else if (t->kind == TOK_FLOAT) {
		char buf[64];
		if (bits < 16)
			fail(ps, "a float constant needs 16, 32 or 64 bits");
		if (t->len >= sizeof(buf))
			fail(ps, "float constant too long");
		memcpy(buf, t->s, t->len);
		buf[t->len] = 0;
		char *end;
		double d = strtod(buf, &end);
		if (*end)
			fail(ps, "invalid float constant");
		v = ir_float_to_bits(d, bits);
	} else if (t->kind == TOK_INT) {
		uint64_t max = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
		uint64_t neg_max = bits >= 64 ? (uint64_t)1 << 63 : (uint64_t)1 << (bits - 1);
		if ((!t->neg && t->num > max) || (t->neg && t->num > neg_max))
			fail(ps, "constant does not fit in %u bits", bits);
		v = t->neg ? (0 - t->num) & max : t->num;
	} else {
		fail_expected(ps, "a constant");
	}
	next(ps);
	return v;
}

static struct instr *parse_load_const(struct parser *ps, unsigned comps, unsigned bits)
{
	struct load_const_instr *lc = load_const_instr_create(ps->s, comps, bits);
	for (unsigned c = 0; c < comps; c++) {
		expect_comma(ps, c);
		lc->value[c] = parse_const_value(ps, bits);
	}
	return &lc->instr;
}

/* A const index value by the index's kind. */
static int32_t parse_index_value(struct parser *ps, enum intr_index idx)
{
	switch (intr_index_infos[idx].kind) {
	case INDEX_KIND_WRMASK: {
		if (ps->tok.kind == TOK_INT)
			return (int32_t)expect_int32(ps, "a write mask");
		if (ps->tok.kind != TOK_IDENT || ps->tok.len > 16)
			fail_expected(ps, "a write mask such as xyzw");
		int32_t m = 0;
		for (size_t i = 0; i < ps->tok.len; i++) {
			const char *c = memchr(text_swizzle_chars, ps->tok.s[i], 16);
			if (!c)
				fail(ps, "invalid write mask character '%c'", ps->tok.s[i]);
			m |= 1 << (c - text_swizzle_chars);
		}
		next(ps);
		return m;
	}
	case INDEX_KIND_ACCESS: return (int32_t)parse_bits(ps, access_names, ACCESS_BIT_COUNT);
	case INDEX_KIND_SEMANTICS: return (int32_t)parse_bits(ps, semantics_names, SEMANTICS_BIT_COUNT);
	case INDEX_KIND_MODES: return (int32_t)parse_bits(ps, mode_names, MODE_BIT_COUNT);
	case INDEX_KIND_ATOMIC: return lookup_name(ps, atomic_op_names, ATOMIC_COUNT, "an atomic op");
	case INDEX_KIND_SCOPE: return lookup_name(ps, scope_names, SCOPE_COUNT, "a scope");
	case INDEX_KIND_DIM: return lookup_name(ps, dim_names, DIM_COUNT, "an image dimension");
	case INDEX_KIND_FORMAT: return lookup_name(ps, format_names, FORMAT_COUNT, "an image format");
	case INDEX_KIND_BASE_TYPE: return lookup_name(ps, base_type_names, BASE_COUNT, "a type");
	case INDEX_KIND_ALU_OP: {
		int op = ps->tok.kind == TOK_IDENT ? alu_op_lookup(ps->tok.s, ps->tok.len) : -1;
		if (op < 0)
			fail_expected(ps, "an ALU opcode");
		next(ps);
		return op;
	}
	case INDEX_KIND_INT: case INDEX_KIND_OPT_INT:
		break;
	}
	return (int32_t)expect_int32(ps, "a number");
}

static bool has_variable_src(enum intrinsic op)
{
	for (unsigned i = 0; i < intrinsic_infos[op].num_srcs; i++)
		if (intrinsic_infos[op].src_components[i] == 0)
			return true;
	return false;
}

static struct instr *parse_intrinsic(struct parser *ps, const struct token *dest, unsigned comps,
				     unsigned bits)
{
	int op = (int)(uintptr_t)strmap_get(&ps->keywords, ps->tok.s, ps->tok.len);
	if ((op >> 16) != KW_INTRINSIC)
		fail(ps, "unknown intrinsic '%.*s'", (int)(ps->tok.len > 40 ? 40 : ps->tok.len), ps->tok.s);
	op &= 0xffff;
	const struct intrinsic_info *info = &intrinsic_infos[op];
	if (dest && !intrinsic_has_dest((enum intrinsic)op))
		fail(ps, "%s has no result", info->name);
	if (!dest && intrinsic_has_dest((enum intrinsic)op))
		fail(ps, "%s needs a result", info->name);
	next(ps);

	struct intrinsic_instr *intr = intrinsic_instr_create(ps->s, (enum intrinsic)op);
	bool var_dest = dest && info->dest_components == 0;
	if (dest) {
		ssa_def_init(&intr->instr, &intr->def, comps, bits);
		if (var_dest)
			intr->num_components = (uint8_t)comps;
	}
	bool sized = var_dest || !has_variable_src((enum intrinsic)op);
	for (unsigned i = 0; i < info->num_srcs; i++) {
		expect_comma(ps, i);
		bool var = info->src_components[i] == 0 && !sized;
		parse_src(ps, &intr->src[i], NULL, var ? intr : NULL);
		sized |= var;
	}
	bool seen[INTR_MAX_INDICES] = { false };
	while (ps->tok.kind != TOK_EOL && ps->tok.kind != TOK_EOF) {
		if (ps->tok.kind != TOK_IDENT)
			fail_expected(ps, "a const index");
		int slot = -1;
		for (unsigned k = 0; k < INTR_MAX_INDICES && info->indices[k]; k++) {
			const char *n = intr_index_infos[info->indices[k]].name;
			if (strlen(n) == ps->tok.len && !memcmp(n, ps->tok.s, ps->tok.len))
				slot = (int)k;
		}
		if (slot < 0)
			fail(ps, "%s has no index '%.*s'", info->name,
			     (int)(ps->tok.len > 40 ? 40 : ps->tok.len), ps->tok.s);
		if (seen[slot])
			fail(ps, "duplicate index '%s'", intr_index_infos[info->indices[slot]].name);
		seen[slot] = true;
		next(ps);
		expect_punct(ps, '=');
		intr->const_index[slot] = parse_index_value(ps, (enum intr_index)info->indices[slot]);
	}
	return &intr->instr;
}

static struct instr *parse_tex(struct parser *ps, enum tex_op op, unsigned comps, unsigned bits)
{
	struct tex_instr tmp = { .op = op };
	struct { enum tex_src_type type; struct token at; } srcs[MAX_TEX_SRCS];
	unsigned n = 0;
	tmp.dim = (enum image_dim)lookup_name(ps, dim_names, DIM_COUNT, "a texture dimension");
	for (;;) {
		if (is_ident(ps, "array"))
			tmp.is_array = true;
		else if (is_ident(ps, "shadow"))
			tmp.is_shadow = true;
		else if (is_ident(ps, "sparse"))
			tmp.is_sparse = true;
		else
			break;
		next(ps);
	}
	tmp.dest_type = (enum base_type)lookup_name(ps, base_type_names, BASE_COUNT, "a result type");
	expect_ident(ps, "texture");
	expect_punct(ps, '=');
	tmp.texture_index = (unsigned)expect_uint(ps, UINT32_MAX, "a texture slot");
	expect_ident(ps, "sampler");
	expect_punct(ps, '=');
	tmp.sampler_index = (unsigned)expect_uint(ps, UINT32_MAX, "a sampler slot");
	if (is_ident(ps, "component")) {
		next(ps);
		expect_punct(ps, '=');
		tmp.component = (uint8_t)expect_uint(ps, 255, "a component");
	}
	while (ps->tok.kind != TOK_EOL && ps->tok.kind != TOK_EOF) {
		if (n == MAX_TEX_SRCS)
			fail(ps, "too many texture sources");
		int type = ps->tok.kind == TOK_IDENT
			   ? ir_name_lookup(tex_src_names, TEX_SRC_COUNT, ps->tok.s, ps->tok.len) : -1;
		if (type < 0)
			fail_expected(ps, "a texture source such as coord=%1");
		next(ps);
		expect_punct(ps, '=');
		if (ps->tok.kind != TOK_VALUE)
			fail_expected(ps, "a value such as %1");
		srcs[n].type = (enum tex_src_type)type;
		srcs[n].at = ps->tok;
		n++;
		next(ps);
	}
	struct tex_instr *tex = tex_instr_create(ps->s, n);
	tex->op = tmp.op;
	tex->dim = tmp.dim;
	tex->is_array = tmp.is_array;
	tex->is_shadow = tmp.is_shadow;
	tex->is_sparse = tmp.is_sparse;
	tex->dest_type = tmp.dest_type;
	tex->texture_index = tmp.texture_index;
	tex->sampler_index = tmp.sampler_index;
	tex->component = tmp.component;
	for (unsigned i = 0; i < n; i++) {
		struct value_fixup *f = array_push_zero(&ps->value_fixups);
		tex->src[i].type = srcs[i].type;
		f->src = &tex->src[i].src;
		f->index = srcs[i].at.num;
		f->line = srcs[i].at.line;
		f->col = srcs[i].at.col;
	}
	ssa_def_init(&tex->instr, &tex->def, comps, bits);
	return &tex->instr;
}

static struct instr *parse_phi(struct parser *ps, unsigned comps, unsigned bits)
{
	struct phi_instr *phi = phi_instr_create(ps->s);
	ssa_def_init(&phi->instr, &phi->def, comps, bits);
	for (unsigned i = 0; ps->tok.kind != TOK_EOL && ps->tok.kind != TOK_EOF; i++) {
		expect_comma(ps, i);
		if (ps->tok.kind != TOK_IDENT)
			fail_expected(ps, "a block label");
		struct pred_fixup *pf = array_push_zero(&ps->pred_fixups);
		pf->label = ps->tok.s;
		pf->len = ps->tok.len;
		pf->line = ps->tok.line;
		pf->col = ps->tok.col;
		next(ps);
		expect_punct(ps, ':');
		pf->ps = phi_add_src(phi, NULL, NULL);
		parse_src(ps, &pf->ps->src, NULL, NULL);
	}
	return &phi->instr;
}

/* "TYPE %N = …" */
static struct instr *parse_def_instr(struct parser *ps)
{
	unsigned comps, bits;
	expect_type(ps, &comps, &bits);
	if (ps->tok.kind != TOK_VALUE)
		fail_expected(ps, "a value such as %1");
	struct token dest = ps->tok;
	next(ps);
	expect_punct(ps, '=');

	struct instr *instr;
	if (ps->tok.kind == TOK_INTRINSIC) {
		struct token at = ps->tok;
		at.s++;
		at.len--;
		ps->tok = at;
		instr = parse_intrinsic(ps, &dest, comps, bits);
	} else if (ps->tok.kind != TOK_IDENT) {
		fail_expected(ps, "an opcode");
	} else if (is_ident(ps, "load_const")) {
		next(ps);
		instr = parse_load_const(ps, comps, bits);
	} else if (is_ident(ps, "undef")) {
		next(ps);
		instr = &undef_instr_create(ps->s, comps, bits)->instr;
	} else if (is_ident(ps, "phi")) {
		next(ps);
		instr = parse_phi(ps, comps, bits);
	} else {
		int kw = (int)(uintptr_t)strmap_get(&ps->keywords, ps->tok.s, ps->tok.len);
		if (!kw)
			fail(ps, "unknown opcode '%.*s'", (int)(ps->tok.len > 40 ? 40 : ps->tok.len),
			     ps->tok.s);
		next(ps);
		if ((kw >> 16) == KW_ALU)
			instr = &parse_alu(ps, (enum alu_op)(kw & 0xffff), comps, bits)->instr;
		else if ((kw >> 16) == KW_TEX)
			instr = parse_tex(ps, (enum tex_op)(kw & 0xffff), comps, bits);
		else
			fail(ps, "intrinsics are written @name");
	}
	define_value(ps, instr_def(instr), &dest);
	return instr;
}

static void parse_instr(struct parser *ps, struct block *b)
{
	int line = ps->tok.line;
	struct instr *instr;
	if (ps->tok.kind == TOK_TYPE || ps->tok.kind == TOK_INT) {
		instr = parse_def_instr(ps);
	} else if (ps->tok.kind == TOK_INTRINSIC) {
		ps->tok.s++;
		ps->tok.len--;
		instr = parse_intrinsic(ps, NULL, 0, 0);
	} else if (is_ident(ps, "break") || is_ident(ps, "continue") || is_ident(ps, "return")) {
		enum jump_type t = is_ident(ps, "break") ? JUMP_break
				   : is_ident(ps, "continue") ? JUMP_continue : JUMP_return;
		next(ps);
		instr = &jump_instr_create(ps->s, t)->instr;
	} else {
		fail_expected(ps, "an instruction");
	}
	expect_eol(ps);
	instr->line = (unsigned)line;
	block_append_instr(b, instr);
}

/* ---- control flow ---- */

static void parse_cf_list(struct parser *ps, struct list *list, struct cf_node *parent);

static struct block *parse_block_label(struct parser *ps, struct list *list,
				       struct cf_node *parent)
{
	skip_eols(ps);
	expect_ident(ps, "block");
	if (ps->tok.kind != TOK_IDENT)
		fail_expected(ps, "a block label such as b0");
	bool inserted;
	struct strmap_entry *e = strmap_put(&ps->blocks, ps->tok.s, ps->tok.len, &inserted);
	if (!inserted)
		fail(ps, "block '%.*s' is defined twice", (int)(ps->tok.len > 40 ? 40 : ps->tok.len),
		     ps->tok.s);
	struct block *b = cf_append_block(ps->fn, list, parent);
	e->value = b;
	next(ps);
	expect_punct(ps, ':');
	expect_eol(ps);
	return b;
}

static void enter(struct parser *ps)
{
	if (++ps->depth > MAX_DEPTH)
		fail(ps, "control flow nested too deeply (the limit is %d)", MAX_DEPTH);
}

static void parse_hint(struct parser *ps, const char *const *names, unsigned count, int *hint)
{
	if (ps->tok.kind == TOK_IDENT)
		*hint = lookup_name(ps, names, count, "a hint or '{'");
}

static void parse_if(struct parser *ps, struct list *list, struct cf_node *parent)
{
	int hint = 0;
	next(ps);
	enter(ps);
	struct cf_if *nif = cf_append_if(ps->fn, list, parent);
	nif->condition.parent_if = nif;
	struct value_fixup *f;
	if (ps->tok.kind != TOK_VALUE)
		fail_expected(ps, "a condition such as %1");
	f = array_push_zero(&ps->value_fixups);
	f->nif = nif;
	f->index = ps->tok.num;
	f->line = ps->tok.line;
	f->col = ps->tok.col;
	next(ps);
	parse_hint(ps, if_hint_names, IF_HINT_COUNT, &hint);
	nif->hint = (enum if_hint)hint;
	expect_punct(ps, '{');
	expect_eol(ps);
	parse_cf_list(ps, &nif->then_list, &nif->cf);
	expect_punct(ps, '}');
	if (is_ident(ps, "else")) {
		next(ps);
		expect_punct(ps, '{');
		expect_eol(ps);
		parse_cf_list(ps, &nif->else_list, &nif->cf);
		expect_punct(ps, '}');
	} else {
		cf_append_block(ps->fn, &nif->else_list, &nif->cf);
	}
	expect_eol(ps);
	ps->depth--;
}

static void parse_loop(struct parser *ps, struct list *list, struct cf_node *parent)
{
	int hint = 0;
	next(ps);
	enter(ps);
	struct cf_loop *loop = cf_append_loop(ps->fn, list, parent);
	parse_hint(ps, loop_hint_names, LOOP_HINT_COUNT, &hint);
	loop->hint = (enum loop_hint)hint;
	expect_punct(ps, '{');
	expect_eol(ps);
	parse_cf_list(ps, &loop->body, &loop->cf);
	expect_punct(ps, '}');
	expect_eol(ps);
	ps->depth--;
}

/* block, then instructions, then (if|loop, block, instructions)* up to '}'. */
static void parse_cf_list(struct parser *ps, struct list *list, struct cf_node *parent)
{
	struct block *b = parse_block_label(ps, list, parent);
	for (;;) {
		skip_eols(ps);
		if (is_punct(ps, '}'))
			return;
		if (ps->tok.kind == TOK_EOF)
			fail_expected(ps, "'}'");
		if (is_ident(ps, "if") || is_ident(ps, "loop")) {
			if (is_ident(ps, "if"))
				parse_if(ps, list, parent);
			else
				parse_loop(ps, list, parent);
			b = parse_block_label(ps, list, parent);
		} else if (is_ident(ps, "block")) {
			fail(ps, "a block follows only an if or a loop");
		} else {
			parse_instr(ps, b);
		}
	}
}

/* ---- resolving names ---- */

static void resolve(struct parser *ps)
{
	for (size_t i = 0; i < ps->value_fixups.len; i++) {
		struct value_fixup *f = &ps->value_fixups.data[i];
		uint64_t v;
		if (!u64map_get(&ps->values, f->index, &v))
			fail_at(ps, f->line, f->col, "value %%%llu is never defined",
				(unsigned long long)f->index);
		struct ssa_def *def = (struct ssa_def *)(uintptr_t)v;
		if (f->nif)
			if_set_condition(f->nif, def);
		else
			src_rewrite(f->src, def);
		if (f->sizes)
			f->sizes->num_components = def->num_components;
	}
	for (size_t i = 0; i < ps->pred_fixups.len; i++) {
		struct pred_fixup *f = &ps->pred_fixups.data[i];
		struct block *b = strmap_get(&ps->blocks, f->label, f->len);
		if (!b)
			fail_at(ps, f->line, f->col, "unknown block '%.*s'",
				(int)(f->len > 40 ? 40 : f->len), f->label);
		f->ps->pred = b;
	}
	ps->fn->ssa_alloc = ps->any_value ? (unsigned)ps->max_index + 1 : 0;
}

static void parse_function(struct parser *ps)
{
	expect_ident(ps, "fn");
	const char *name;
	if (ps->tok.kind == TOK_STRING)
		name = string_value(ps);
	else if (ps->tok.kind == TOK_IDENT)
		name = arena_strndup(&ps->s->arena, ps->tok.s, ps->tok.len);
	else
		fail_expected(ps, "a function name");
	next(ps);
	ps->fn->name = name;
	expect_punct(ps, '{');
	expect_eol(ps);
	/* replace the empty block shader_create() made */
	list_init(&ps->fn->body);
	parse_cf_list(ps, &ps->fn->body, &ps->fn->cf);
	expect_punct(ps, '}');
	expect_eol(ps);
	resolve(ps);
}

static void add_keywords(struct parser *ps)
{
	for (int op = 0; op < OP_COUNT; op++)
		strmap_put(&ps->keywords, alu_op_infos[op].name, strlen(alu_op_infos[op].name), NULL)
			->value = (void *)(uintptr_t)(KW_ALU << 16 | op);
	for (int op = 0; op < TEX_OP_COUNT; op++)
		strmap_put(&ps->keywords, tex_op_names[op], strlen(tex_op_names[op]), NULL)
			->value = (void *)(uintptr_t)(KW_TEX << 16 | op);
	for (int op = 0; op < INTR_COUNT; op++)
		strmap_put(&ps->keywords, intrinsic_infos[op].name, strlen(intrinsic_infos[op].name),
			   NULL)->value = (void *)(uintptr_t)(KW_INTRINSIC << 16 | op);
}

static void parse_file(struct parser *ps)
{
	next(ps);
	parse_header(ps);
	for (;;) {
		skip_eols(ps);
		if (is_ident(ps, "fn"))
			break;
		if (!parse_decl(ps))
			fail_expected(ps, "a declaration or 'fn'");
	}
	parse_function(ps);
	skip_eols(ps);
	if (ps->tok.kind != TOK_EOF)
		fail_expected(ps, "end of file");
	function_cfg_stale(ps->fn);
}

struct shader *ir_parse(const char *name, const char *data, size_t len, struct diag *diag)
{
	struct parser *ps = xcalloc(1, sizeof(*ps));
	struct shader *result = NULL;
	ps->name = name;
	ps->p = ps->line_start = data;
	ps->end = data + len;
	ps->line = 1;
	ps->diag = diag;
	ps->s = shader_create(STAGE_NONE, "main");
	ps->fn = ps->s->fn;
	add_keywords(ps);
	if (!setjmp(ps->fail)) {
		parse_file(ps);
		result = ps->s;
	} else {
		shader_free(ps->s);
	}
	strmap_release(&ps->keywords);
	strmap_release(&ps->blocks);
	u64map_release(&ps->values);
	array_free(&ps->value_fixups);
	array_free(&ps->pred_fixups);
	free(ps);
	return result;
}
