/*
 * Reads the text form ir3_print.c writes (see the grammar there).  Comments
 * run from `;` to the end of the line, or a whole line starting with `#`.
 * Blocks are created in the order their labels appear, so a branch may name
 * a later block; values may be used before their definition (loop phis).
 * Errors are located "file:line: error: …" and parsing stops at the first.
 */
#include "compiler/ir3/ir3.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/hash.h"

struct fixup {
	struct ir3_register *src;	/* NULL: an address fixup for `instr` */
	struct ir3_instruction *instr;
	char *name;
	int line;
};

struct parser {
	struct ir3 *ir;
	const char *file;
	struct diag *d;
	int line;
	bool failed;
	struct strmap blocks;		/* label → block */
	struct strmap values;		/* name → definition */
	ARRAY(struct fixup) fixups;
	unsigned next_name;		/* for non-numeric names */
	struct ir3_block *cur;
	bool in_body;			/* past the header lines */
};

__attribute__((format(printf, 2, 3)))
static void perr(struct parser *p, const char *fmt, ...)
{
	if (p->failed)
		return;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	diag_error(p->d, p->file, p->line, 0, "%s", sb.buf);
	strbuf_release(&sb);
	p->failed = true;
}

/* ------------------------------------------------------------------ */
/* small scanners over NUL-terminated operand strings */

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool parse_uint(const char **s, unsigned *out)
{
	char *end;
	if (!isdigit((unsigned char)**s))
		return false;
	errno = 0;
	unsigned long v = strtoul(*s, &end, 10);
	if (errno || v > 0xffffffffu)
		return false;
	*out = (unsigned)v;
	*s = end;
	return true;
}

static int comp_index(char c)
{
	switch (c) {
	case 'x': return 0;
	case 'y': return 1;
	case 'z': return 2;
	case 'w': return 3;
	default: return -1;
	}
}

/* r1.y, hr0.z, p0.x, a0.x, a1.x, rt2.w; advances *s. */
static bool parse_phys(const char **s, unsigned *flags, unsigned *num)
{
	const char *q = *s;
	unsigned n;
	int c;
	if (starts(q, "rt")) {
		q += 2;
		*flags = IR3_REG_RT;
	} else if (starts(q, "hr")) {
		q += 2;
		*flags = IR3_REG_HALF;
	} else if (*q == 'r') {
		q++;
		*flags = 0;
	} else if (starts(q, "p0.")) {
		c = comp_index(q[3]);
		if (c < 0)
			return false;
		*flags = IR3_REG_PREDICATE;
		*num = (unsigned)c;
		*s = q + 4;
		return true;
	} else if ((starts(q, "a0.x") || starts(q, "a1.x"))) {
		*flags = IR3_REG_ADDR;
		*num = q[1] == '1';
		*s = q + 4;
		return true;
	} else {
		return false;
	}
	if (!parse_uint(&q, &n) || *q != '.' || (c = comp_index(q[1])) < 0)
		return false;
	*num = n * 4 + (unsigned)c;
	*s = q + 2;
	return true;
}

static bool parse_mask(const char **s, unsigned *wrmask)
{
	const char *q = *s;
	*wrmask = 1;
	if (*q == '[') {
		unsigned n;
		q++;
		if (!parse_uint(&q, &n) || *q != ']' || n == 0 || n > 31)
			return false;
		*wrmask = (1u << n) - 1;
		*s = q + 1;
		return true;
	}
	if (*q != '.')
		return true;
	q++;
	unsigned m = 0;
	int c;
	while ((c = comp_index(*q)) >= 0) {
		m |= 1u << c;
		q++;
	}
	if (!m)
		return false;
	*wrmask = m;
	*s = q;
	return true;
}

static unsigned class_flags(char c)
{
	switch (c) {
	case 'h': return IR3_REG_HALF;
	case 'p': return IR3_REG_PREDICATE;
	case 'a': return IR3_REG_ADDR;
	case 's': return IR3_REG_SHARED;
	default: return 0;
	}
}

/* [h|p|a|s]%name — returns the flags and the name (arena copy). */
static bool parse_value_name(struct parser *p, const char **s, unsigned *flags, char **name)
{
	const char *q = *s;
	*flags = 0;
	if (*q != '%') {
		*flags = class_flags(*q);
		if (!*flags || q[1] != '%')
			return false;
		q++;
	}
	q++;
	const char *start = q;
	while (is_ident_char(*q))
		q++;
	if (q == start)
		return false;
	*name = arena_strndup(p->ir->arena, start, (size_t)(q - start));
	*s = q;
	return true;
}

static bool numeric_name(const char *name, unsigned *n)
{
	const char *q = name;
	return parse_uint(&q, n) && !*q;
}

/* ------------------------------------------------------------------ */
/* opcodes */

static bool parse_type(const char **s, enum ir3_type *t)
{
	for (int n = 0; n < TYPE_COUNT; n++) {
		const char *name = ir3_type_name((enum ir3_type)n);
		if (starts(*s, name)) {
			*t = (enum ir3_type)n;
			*s += strlen(name);
			return true;
		}
	}
	return false;
}

static int find_opcode(const char *name, size_t len)
{
	for (int n = 0; n < OPC_COUNT; n++) {
		const char *op = ir3_opc_info[n].name;
		if (strlen(op) == len && !strncmp(op, name, len))
			return n;
	}
	return -1;
}

/* Applies one ".suffix" of an opcode word to the instruction. */
static bool apply_suffix(struct ir3_instruction *i, const char *sfx)
{
	const char *q = sfx;
	enum ir3_type t;
	for (int c = 0; c < COND_COUNT; c++)
		if ((ir3_op(i->opc)->flags & IR3_OP_COND) && !strcmp(sfx, ir3_cond_name((enum ir3_cond)c))) {
			i->cond = (enum ir3_cond)c;
			return true;
		}
	if (i->opc == OPC_ALIAS) {
		if (!strcmp(sfx, "tex") || !strcmp(sfx, "rt") || !strcmp(sfx, "mem")) {
			i->alias_scope = sfx[0] == 't' ? ALIAS_TEX : sfx[0] == 'r' ? ALIAS_RT : ALIAS_MEM;
			return true;
		}
		if (!strcmp(sfx, "b32") || !strcmp(sfx, "b16") || !strcmp(sfx, "f32") || !strcmp(sfx, "f16")) {
			bool f = sfx[0] == 'f', h = sfx[1] == '1';
			i->type = f ? (h ? TYPE_F16 : TYPE_F32) : (h ? TYPE_U16 : TYPE_U32);
			return true;
		}
		return false;
	}
	if (ir3_cat(i) == 5) {
		static const struct { const char *s; unsigned f; } fl[] = {
			{ "3d", IR3_INSTR_3D }, { "a", IR3_INSTR_A }, { "o", IR3_INSTR_O },
			{ "s", IR3_INSTR_S }, { "p", IR3_INSTR_P }, { "s2en", IR3_INSTR_S2EN },
		};
		for (size_t n = 0; n < sizeof(fl) / sizeof(fl[0]); n++)
			if (!strcmp(sfx, fl[n].s)) {
				i->flags |= fl[n].f;
				return true;
			}
	}
	if ((ir3_cat(i) == 5 || ir3_cat(i) == 6 || i->opc == OPC_META_TEX_PREFETCH) &&
	    parse_type(&q, &t) && !*q) {
		i->type = t;
		return true;
	}
	return false;
}

static struct ir3_instruction *parse_opcode(struct parser *p, const char *word)
{
	struct ir3 *ir = p->ir;
	static const struct { const char *prefix; enum ir3_opc opc; } moves[] = {
		{ "mov.", OPC_MOV }, { "cov.", OPC_MOV }, { "swz.", OPC_SWZ },
		{ "gat.", OPC_GAT }, { "sct.", OPC_SCT },
	};
	for (size_t m = 0; m < sizeof(moves) / sizeof(moves[0]); m++) {
		if (!starts(word, moves[m].prefix))
			continue;
		const char *q = word + 4;
		enum ir3_type a, b;
		if (!parse_type(&q, &a) || !parse_type(&q, &b) || *q) {
			perr(p, "bad move types in '%s'", word);
			return NULL;
		}
		struct ir3_instruction *i = ir3_instr_new(ir, moves[m].opc, 1, 1);
		i->type = a;
		i->dst_type = b;
		return i;
	}
	/* the longest dot-separated prefix that names an opcode */
	size_t len = strlen(word);
	int opc = -1;
	size_t oplen = len;
	for (;;) {
		opc = find_opcode(word, oplen);
		if (opc >= 0)
			break;
		const char *dot = memrchr(word, '.', oplen);
		if (!dot)
			break;
		oplen = (size_t)(dot - word);
	}
	if (opc < 0) {
		perr(p, "unknown opcode '%s'", word);
		return NULL;
	}
	struct ir3_instruction *i = ir3_instr_new(ir, (enum ir3_opc)opc, 1, 2);
	const char *q = word + oplen;
	while (*q == '.') {
		q++;
		const char *end = strchr(q, '.');
		size_t n = end ? (size_t)(end - q) : strlen(q);
		char *sfx = arena_strndup(ir->arena, q, n);
		if (!apply_suffix(i, sfx)) {
			perr(p, "unknown suffix '.%s' for %s", sfx, ir3_op(i->opc)->name);
			return NULL;
		}
		q += n;
	}
	return i;
}

/* ------------------------------------------------------------------ */
/* operands */

static struct ir3_block *label_block(struct parser *p, const char *name)
{
	struct ir3_block *b = strmap_get(&p->blocks, name, strlen(name));
	if (!b)
		perr(p, "unknown block '%s'", name);
	return b;
}

static void add_fixup(struct parser *p, struct ir3_register *src, struct ir3_instruction *instr,
		      char *name)
{
	array_push(&p->fixups, (struct fixup){ .src = src, .instr = instr, .name = name,
					       .line = p->line });
}

/* An array's {arrI:L}, then for an element access [k] or [a%N + k]. */
static bool parse_array(struct parser *p, struct ir3_instruction *i, const char **s,
			struct ir3_register *r)
{
	const char *q = *s;
	unsigned id, size, k;
	if (!starts(q, "{arr"))
		return true;
	q += 4;
	if (!parse_uint(&q, &id) || *q != ':' || (q++, !parse_uint(&q, &size)) || *q != '}' ||
	    size == 0 || size > IR3_GPR_COMPS)
		return false;
	q++;
	r->flags |= IR3_REG_ARRAY;
	r->array_id = id;
	r->size = size;
	if (*q == '[') {
		q++;
		if (*q == 'a' && q[1] == '%') {
			unsigned fl;
			char *name;
			if (!parse_value_name(p, &q, &fl, &name))
				return false;
			add_fixup(p, NULL, i, name);
			r->flags |= IR3_REG_RELATIV;
		} else if (starts(q, "a0.x")) {
			q += 4;
			r->flags |= IR3_REG_RELATIV;
		}
		if (r->flags & IR3_REG_RELATIV) {
			q = skip_ws(q);
			if (*q != '+')
				return false;
			q = skip_ws(q + 1);
		}
		if (!parse_uint(&q, &k) || *q != ']' || k >= size)
			return false;
		r->rel_offset = (int)k;
		q++;
	}
	*s = q;
	return true;
}

/* A value use, optionally followed by its register: %3, h%4:hr0.y. */
static bool parse_value_use(struct parser *p, struct ir3_instruction *i, const char **s,
			    unsigned mods)
{
	unsigned cls, flags, num;
	char *name;
	if (!parse_value_name(p, s, &cls, &name))
		return false;
	struct ir3_register *r = arena_new(p->ir->arena, struct ir3_register);
	r->flags = mods | cls | IR3_REG_SSA;
	r->slot = -1;
	r->wrmask = 1;
	r->instr = i;
	if (!parse_array(p, i, s, r)) {
		perr(p, "bad array after value %%%s", name);
		return false;
	}
	if (**s == ':') {
		(*s)++;
		if (!parse_phys(s, &flags, &num)) {
			perr(p, "bad register after value %%%s", name);
			return false;	/* the first message stands */
		}
		r->flags |= IR3_REG_ASSIGNED;
		r->num = num;
	}
	ir3_add_src(i, r);
	add_fixup(p, r, NULL, name);
	return true;
}

static bool parse_float_imm(const char **s, bool half, uint32_t *bits);

static unsigned mod_flags(struct ir3_instruction *i, const char *mod)
{
	unsigned slot = ir3_op(i->opc)->src_flags[i->nsrc < 3 ? i->nsrc : 3];
	if (!strcmp(mod, "r"))
		return IR3_REG_R;
	if (!strcmp(mod, "not"))
		return IR3_REG_BNOT;
	if (!strcmp(mod, "alias"))
		return IR3_REG_ALIAS;
	if (!strcmp(mod, "alias1"))
		return IR3_REG_ALIAS | IR3_REG_FIRST_ALIAS;
	if (!strcmp(mod, "tied"))
		return IR3_REG_TIED;
	if (!strcmp(mod, "neg"))
		return (slot & IR3_REG_SNEG) ? IR3_REG_SNEG : IR3_REG_FNEG;
	if (!strcmp(mod, "abs"))
		return (slot & IR3_REG_SABS) ? IR3_REG_SABS : IR3_REG_FABS;
	return 0;
}

static void parse_src(struct parser *p, struct ir3_instruction *i, const char *s,
		      struct ir3_block **targets, unsigned *ntargets)
{
	struct ir3 *ir = p->ir;
	unsigned mods = 0, n, flags, num;
	int slot = -1;
	struct ir3_block *pred = NULL;

	if (*s == '!') {
		i->flags |= IR3_INSTR_INV;
		s++;
	}
	/* keyword operands */
	if (!strcmp(s, "bary") && i->opc == OPC_META_INPUT) {
		i->bary_input = true;
		return;
	}
	if (starts(s, "off=")) {
		i->off = atoi(s + 4);
		return;
	}
	if (starts(s, "table=")) {
		i->alias_table = (unsigned)atoi(s + 6);
		return;
	}
	if ((s[0] == 's' || s[0] == 't') && s[1] == '#') {
		const char *q = s + 2;
		if (!parse_uint(&q, &n) || *q) {
			perr(p, "bad operand '%s'", s);
			return;
		}
		if (s[0] == 's')
			i->samp = n;
		else
			i->tex = n;
		return;
	}
	/* phi source label "b1: %3" */
	if (isalpha((unsigned char)s[0]) && s[1] != '%') {
		const char *q = s;
		while (is_ident_char(*q))
			q++;
		if (*q == ':') {
			char *label = arena_strndup(ir->arena, s, (size_t)(q - s));
			pred = label_block(p, label);
			s = skip_ws(q + 1);
		}
	}
	/* output slot "rt0.x=%3" */
	if (starts(s, "rt") && strchr(s, '=')) {
		const char *q = s;
		if (!parse_phys(&q, &flags, &num) || *q != '=') {
			perr(p, "bad output slot '%s'", s);
			return;
		}
		slot = (int)num;
		s = q + 1;
	}
	while (*s == '(' && isalpha((unsigned char)s[1])) {
		const char *end = strchr(s, ')');
		if (!end)
			break;
		char *mod = arena_strndup(ir->arena, s + 1, (size_t)(end - s - 1));
		unsigned f = mod_flags(i, mod);
		if (!f) {
			perr(p, "unknown modifier '(%s)'", mod);
			return;
		}
		mods |= f;
		s = end + 1;
	}

	const char *q = s;
	struct ir3_register *r = NULL;
	if (s[0] == '%' || (s[0] && s[1] == '%')) {
		if (!parse_value_use(p, i, &q, mods)) {
			perr(p, "bad value '%s'", s);
			return;
		}
		r = i->srcs[i->nsrc - 1];
	} else if (starts(s, "c<") || starts(s, "hc<")) {
		bool half = s[0] == 'h';
		q = s + (half ? 3 : 2);
		r = ir3_src_const(i, 0, mods | IR3_REG_RELATIV | (half ? IR3_REG_HALF : 0));
		if (*q == 'a' && q[1] == '%') {
			char *name;
			if (!parse_value_name(p, &q, &flags, &name)) {
				perr(p, "bad address in '%s'", s);
				return;
			}
			add_fixup(p, NULL, i, name);
			while (*q && *q != ' ' && *q != '>')	/* ":a0.x" */
				q++;
		} else if (starts(q, "a0.x")) {
			q += 4;
		} else {
			perr(p, "bad relative const '%s'", s);
			return;
		}
		q = skip_ws(q);
		int sign = 1;
		if (*q == '+' || *q == '-') {
			sign = *q == '-' ? -1 : 1;
			q = skip_ws(q + 1);
			if (!parse_uint(&q, &n)) {
				perr(p, "bad relative offset in '%s'", s);
				return;
			}
			r->rel_offset = sign * (int)n;
		}
		if (*q != '>') {
			perr(p, "missing '>' in '%s'", s);
			return;
		}
		q++;
	} else if ((s[0] == 'c' && isdigit((unsigned char)s[1])) ||
		   (s[0] == 'h' && s[1] == 'c' && isdigit((unsigned char)s[2]))) {
		bool half = s[0] == 'h';
		q = s + (half ? 2 : 1);
		int c;
		if (!parse_uint(&q, &n) || *q != '.' || (c = comp_index(q[1])) < 0) {
			perr(p, "bad const '%s'", s);
			return;
		}
		q += 2;
		r = ir3_src_const(i, n * 4 + (unsigned)c, mods | (half ? IR3_REG_HALF : 0));
	} else if (s[0] == '(' || (s[0] == 'h' && s[1] == '(')) {
		bool half = s[0] == 'h';
		uint32_t bits;
		q = s + (half ? 1 : 0);
		if (!parse_float_imm(&q, half, &bits)) {
			perr(p, "bad float immediate '%s'", s);
			return;
		}
		r = ir3_src_imm(i, bits, mods | (half ? IR3_REG_HALF : 0));
	} else if (s[0] == '-' || isdigit((unsigned char)s[0])) {
		char *end;
		errno = 0;
		long long v = strtoll(s, &end, 0);
		if (errno || v < -2147483648LL || v > 0xffffffffLL) {
			perr(p, "bad immediate '%s'", s);
			return;
		}
		q = end;
		r = ir3_src_imm(i, (uint32_t)v, mods);
	} else if (parse_phys(&q, &flags, &num)) {
		unsigned wrmask = 1;
		if (!parse_mask(&q, &wrmask)) {
			perr(p, "bad mask in '%s'", s);
			return;
		}
		r = ir3_src_phys(i, flags | mods, num, ir3_reg_elems(&(struct ir3_register){ .wrmask = wrmask }));
		r->wrmask = wrmask;
		if (!parse_array(p, i, &q, r)) {
			perr(p, "bad array in '%s'", s);
			return;
		}
	} else if (isalpha((unsigned char)s[0]) && ir3_is_flow(i)) {
		while (is_ident_char(*q))
			q++;
		if (*q) {
			perr(p, "bad operand '%s'", s);
			return;
		}
		struct ir3_block *b = label_block(p, s);
		if (b && *ntargets < 2)
			targets[(*ntargets)++] = b;
		return;
	} else {
		perr(p, "bad operand '%s'", s);
		return;
	}
	if (*skip_ws(q)) {
		perr(p, "trailing characters in operand '%s'", s);
		return;
	}
	r->slot = slot;
	r->pred = pred;
}

static bool parse_float_imm(const char **s, bool half, uint32_t *bits)
{
	const char *q = *s;
	if (*q != '(')
		return false;
	char *end;
	errno = 0;
	float f = strtof(q + 1, &end);
	if (errno || *end != ')')
		return false;
	if (half) {
		/* round to nearest half float */
		uint32_t x;
		memcpy(&x, &f, 4);
		uint32_t sign = (x >> 16) & 0x8000;
		int exp = (int)((x >> 23) & 0xff) - 127 + 15;
		uint32_t mant = x & 0x7fffff;
		uint32_t h;
		if (((x >> 23) & 0xff) == 0 || exp <= 0)
			h = sign;
		else if (exp >= 31)
			h = sign | 0x7c00;
		else
			h = (sign | ((uint32_t)exp << 10) | (mant >> 13)) + ((mant >> 12) & 1);
		*bits = h;
	} else {
		memcpy(bits, &f, 4);
	}
	*s = end + 1;
	return true;
}

/* A destination: (ei)%3.xy:r0.x, h%2, p%1:p0.x, or a plain register. */
static void parse_dst(struct parser *p, struct ir3_instruction *i, const char *s)
{
	unsigned extra = 0, flags, num, wrmask;
	if (starts(s, "(ei)")) {
		extra = IR3_REG_EI;
		s += 4;
	}
	const char *q = s;
	char *name;
	if (parse_value_name(p, &q, &flags, &name)) {
		unsigned numeric;
		struct ir3_register *r = arena_new(p->ir->arena, struct ir3_register);
		r->instr = i;
		bool arr = *q == '{';
		wrmask = 1;
		if (arr ? !parse_array(p, i, &q, r) : !parse_mask(&q, &wrmask)) {
			perr(p, "bad mask in '%s'", s);
			return;
		}
		r->flags |= flags | extra | IR3_REG_SSA;
		r->wrmask = wrmask;
		r->slot = -1;
		if (numeric_name(name, &numeric))
			r->name = numeric;
		else
			r->name = p->next_name++;
		if (*q == ':') {
			q++;
			unsigned pf;
			if (!parse_phys(&q, &pf, &num)) {
				perr(p, "bad register in '%s'", s);
				return;
			}
			r->num = num;
			r->flags |= IR3_REG_ASSIGNED;
		}
		if (*q) {
			perr(p, "trailing characters in '%s'", s);
			return;
		}
		bool inserted;
		struct strmap_entry *e = strmap_put(&p->values, name, strlen(name), &inserted);
		if (!inserted && !(i->flags & IR3_INSTR_COPY)) {
			perr(p, "value %%%s defined twice", name);
			return;
		}
		e->value = r;
		ir3_add_dst(i, r);
		if (r->name >= p->ir->ndefs)
			p->ir->ndefs = r->name + 1;
		return;
	}
	q = s;
	if (!parse_phys(&q, &flags, &num) || !parse_mask(&q, &wrmask)) {
		perr(p, "bad destination '%s'", s);
		return;
	}
	struct ir3_register *r = ir3_dst_phys(i, flags | extra, num, 1);
	r->wrmask = wrmask;
	if (!parse_array(p, i, &q, r) || *q)
		perr(p, "bad destination '%s'", s);
}

/* Splits `s` at top-level commas into trimmed, NUL-terminated pieces. */
static unsigned split_operands(char *s, char **out, unsigned max)
{
	unsigned n = 0, depth = 0;
	char *start = s;
	for (char *q = s;; q++) {
		if (*q == '(' || *q == '<' || *q == '[')
			depth++;
		else if ((*q == ')' || *q == '>' || *q == ']') && depth)
			depth--;
		if ((*q == ',' && !depth) || !*q) {
			bool end = !*q;
			*q = 0;
			char *a = (char *)skip_ws(start);
			char *e = a + strlen(a);
			while (e > a && (e[-1] == ' ' || e[-1] == '\t'))
				*--e = 0;
			if (*a && n < max)
				out[n++] = a;
			if (end)
				break;
			start = q + 1;
		}
	}
	return n;
}

/* Instruction flags in parentheses before the instruction. */
static const char *parse_instr_flags(struct parser *p, const char *s, unsigned *flags,
				     unsigned *repeat, unsigned *nop)
{
	static const struct { const char *name; unsigned flag; } names[] = {
		{ "ss", IR3_INSTR_SS }, { "sy", IR3_INSTR_SY }, { "jp", IR3_INSTR_JP },
		{ "eq", IR3_INSTR_EQ }, { "sat", IR3_INSTR_SAT }, { "copy", IR3_INSTR_COPY },
	};
	for (;;) {
		s = skip_ws(s);
		if (*s != '(')
			return s;
		const char *end = strchr(s, ')');
		if (!end)
			return s;
		size_t len = (size_t)(end - s - 1);
		const char *w = s + 1;
		bool found = false;
		for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++)
			if (strlen(names[n].name) == len && !strncmp(w, names[n].name, len)) {
				*flags |= names[n].flag;
				found = true;
			}
		if (!found && (starts(w, "rpt") || starts(w, "nop"))) {
			const char *q = w + 3;
			unsigned v;
			if (!parse_uint(&q, &v) || q != end) {
				perr(p, "bad flag '%.*s'", (int)len + 2, s);
				return s;
			}
			if (w[0] == 'r')
				*repeat = v;
			else
				*nop = v;
			found = true;
		}
		if (!found)
			return s;	/* e.g. (ei) on a destination */
		s = end + 1;
	}
}

/* Where " = " separates destinations from the opcode, or NULL. */
static char *find_assign(char *s)
{
	unsigned depth = 0;
	for (char *q = s; *q; q++) {
		if (*q == '(' || *q == '<' || *q == '[')
			depth++;
		else if ((*q == ')' || *q == '>' || *q == ']') && depth)
			depth--;
		else if (!depth && q[0] == ' ' && q[1] == '=' && q[2] == ' ')
			return q;
	}
	return NULL;
}

static void parse_instr(struct parser *p, char *line)
{
	unsigned flags = 0, repeat = 0, nop = 0;
	char *s = (char *)parse_instr_flags(p, line, &flags, &repeat, &nop);
	if (p->failed)
		return;
	char *dsts = NULL;
	char *eq = find_assign(s);
	if (eq) {
		*eq = 0;
		dsts = s;
		s = eq + 3;
	}
	s = (char *)skip_ws(s);
	char *word = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = 0;
	struct ir3_instruction *i = parse_opcode(p, word);
	if (!i)
		return;
	if (!p->ir->legalized && p->cur->succ[0] && !ir3_is_terminator(i)) {
		/* the block's branch ends it: anything after it would need a
		 * third successor (a fall-through); a second branch is said
		 * below */
		perr(p, "an instruction after the block's branch");
		return;
	}
	i->flags |= flags;
	i->repeat = repeat;
	i->nop = nop;
	ir3_instr_append(p->cur, i);

	unsigned max_ops = 2;
	for (const char *q = s; *q; q++)
		max_ops += *q == ',';
	if (dsts)
		for (const char *q = dsts; *q; q++)
			max_ops += *q == ',';
	char **ops = arena_array(p->ir->arena, char *, max_ops);
	if (dsts) {
		unsigned n = split_operands(dsts, ops, max_ops);
		for (unsigned k = 0; k < n && !p->failed; k++)
			parse_dst(p, i, ops[k]);
	}
	struct ir3_block *targets[2];
	unsigned ntargets = 0;
	unsigned n = split_operands(s, ops, max_ops);
	for (unsigned k = 0; k < n && !p->failed; k++)
		parse_src(p, i, ops[k], targets, &ntargets);
	if (p->failed)
		return;

	/* immediates of half operations are half */
	bool half_op = (ir3_is_alu(i) && i->ndst && (i->dsts[0]->flags & IR3_REG_HALF) &&
			i->opc != OPC_MOV) ||
		       (i->opc == OPC_MOV && ir3_type_is_half(i->type));
	for (unsigned k = 0; k < i->nsrc; k++)
		if ((i->srcs[k]->flags & IR3_REG_IMMED) && half_op)
			i->srcs[k]->flags |= IR3_REG_HALF;

	if (ntargets) {
		i->target = targets[0];
		/* where infer_successors() locates a block of too many branches */
		if (p->ir->legalized)
			p->cur->data = (void *)(uintptr_t)p->line;
		if (!p->ir->legalized && ir3_is_terminator(i)) {
			/* one terminator a block: a second would give it more
			 * successors than a block has */
			if (p->cur->succ[0]) {
				perr(p, "a second branch in one block (a block ends with one)");
				return;
			}
			for (unsigned k = 0; k < ntargets; k++)
				ir3_block_link(p->cur, targets[k]);
		}
	}
}

/* ------------------------------------------------------------------ */
/* header lines and the file */

static bool parse_header(struct parser *p, char *line)
{
	struct ir3 *ir = p->ir;
	char *args = line;
	while (*args && *args != ' ' && *args != '\t')
		args++;
	if (*args)
		*args++ = 0;
	args = (char *)skip_ws(args);
	const char *q = args;
	unsigned v;
	if (!strcmp(line, "stage")) {
		ir->stage = stage_from_name(args);
		if (ir->stage == STAGE_NONE)
			perr(p, "unknown stage '%s'", args);
	} else if (!strcmp(line, "consts")) {
		if (!parse_uint(&q, &ir->const_size))
			perr(p, "bad consts");
	} else if (!strcmp(line, "immediates")) {
		if (ir->immediates) {
			perr(p, "a second immediates line (the words are on one)");
			return true;
		}
		unsigned count = 0;
		for (const char *c = args; *c; c++)
			count += (c == args || c[-1] == ' ' || c[-1] == '\t') && *c != ' ' && *c != '\t';
		ir->immediates = arena_array(ir->arena, uint32_t, count ? count : 1);
		ir->immediates_cap = count ? count : 1;
		char *save;
		for (char *tok = strtok_r(args, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
			ir->immediates[ir->nimmediates++] = (uint32_t)strtoul(tok, NULL, 0);
	} else if (!strcmp(line, "local_size")) {
		for (int n = 0; n < 3; n++) {
			q = skip_ws(q);
			if (!parse_uint(&q, &ir->local_size[n]))
				perr(p, "bad local_size");
		}
	} else if (!strcmp(line, "shared_size")) {
		if (!parse_uint(&q, &ir->shared_size))
			perr(p, "bad shared_size");
	} else if (!strcmp(line, "pvtmem_size")) {
		if (!parse_uint(&q, &ir->pvtmem_size))
			perr(p, "bad pvtmem_size");
	} else if (!strcmp(line, "branchstack") || !strcmp(line, "loops")) {
		if (!parse_uint(&q, &v))
			perr(p, "bad %s", line);
		else if (line[0] == 'b')
			ir->branchstack = (int)v;
		else
			ir->loops = (int)v;
	} else if (!strcmp(line, "pixlod")) {
		ir->need_pixlod = true;
	} else if (!strcmp(line, "legalized")) {
		ir->legalized = true;
	} else {
		return false;
	}
	return true;
}

/* Strips comments and trailing blanks in place; returns the first non-blank. */
static char *clean_line(char *line)
{
	char *s = (char *)skip_ws(line);
	if (*s == '#') {
		*s = 0;
		return s;
	}
	char *c = strchr(s, ';');
	if (c)
		*c = 0;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

static bool is_label(const char *s, size_t *len)
{
	const char *q = s;
	if (!isalpha((unsigned char)*q) && *q != '_')
		return false;
	while (is_ident_char(*q))
		q++;
	*len = (size_t)(q - s);
	return q[0] == ':' && !q[1];
}

/* Link `b` to `to` unless it is already a successor; false when that would
 * be a third. */
static bool link_once(struct ir3_block *b, struct ir3_block *to)
{
	if (b->succ[0] == to || b->succ[1] == to)
		return true;
	if (b->succ[1])
		return false;
	ir3_block_link(b, to);
	return true;
}

/* Branch targets and fall-through: the CFG of legalised code.  A block
 * has two successors at most: one branch's target and where it falls
 * through, or two targets of branches ending in a jump. */
static void infer_successors(struct parser *p, struct ir3 *ir)
{
	foreach_block(b, ir) {
		b->succ[0] = b->succ[1] = NULL;
		bool falls = true, ok = true;
		foreach_instr(i, b) {
			if (ir3_is_meta(i))
				continue;
			if (i->target && ir3_is_flow(i))
				ok &= link_once(b, i->target);
			falls = !(i->opc == OPC_JUMP || i->opc == OPC_END || i->opc == OPC_RET);
		}
		if (falls && b->next)
			ok &= link_once(b, b->next);
		p->line = (int)(uintptr_t)b->data;
		b->data = NULL;
		if (!ok) {
			perr(p, "block %s branches to more than two places (its branches and where it "
				"falls through): a block ends with one branch", b->name ? b->name : "?");
			return;
		}
	}
}

static void finish(struct parser *p)
{
	struct ir3 *ir = p->ir;
	for (size_t n = 0; n < p->fixups.len && !p->failed; n++) {
		struct fixup *f = &p->fixups.data[n];
		struct ir3_register *def = strmap_get(&p->values, f->name, strlen(f->name));
		p->line = f->line;
		if (!def) {
			perr(p, "undefined value %%%s", f->name);
			break;
		}
		if (f->src) {
			unsigned cls = def->flags & (IR3_REG_HALF | IR3_REG_PREDICATE | IR3_REG_ADDR |
						     IR3_REG_SHARED);
			f->src->def = def;
			f->src->flags = (f->src->flags & ~(IR3_REG_HALF | IR3_REG_PREDICATE |
							   IR3_REG_ADDR | IR3_REG_SHARED)) | cls;
			f->src->wrmask = def->wrmask;
		} else {
			f->instr->address = def->instr;
		}
	}
	if (p->failed)
		return;
	if (ir->legalized) {
		infer_successors(p, ir);
		if (p->failed)
			return;
	} else {
		/* an unterminated block falls through: make the jump explicit */
		foreach_block(b, ir) {
			struct ir3_instruction *last = b->last;
			while (last && ir3_is_meta(last))
				last = last->prev;
			if (!b->next || (last && (ir3_is_terminator(last) || last->opc == OPC_END)))
				continue;
			struct ir3_builder bld = ir3_builder_at_end(b);
			ir3_b_jump(&bld, b->next);
		}
	}
	ir3_calc_preds(ir);
}

struct ir3 *ir3_parse(struct arena *arena, const char *name, const char *text, struct diag *d)
{
	struct parser p = { .file = name, .d = d };
	p.ir = ir3_create(arena, STAGE_NONE);
	char *copy = arena_strdup(arena, text);

	/* pass 1: labels, in order, and the largest numeric value name */
	unsigned max_name = 0;
	for (const char *q = text; *q; q++)
		if (*q == '%' && isdigit((unsigned char)q[1])) {
			unsigned v = (unsigned)strtoul(q + 1, NULL, 10);
			if (v + 1 > max_name)
				max_name = v + 1;
		}
	p.next_name = max_name;
	char *scan = arena_strdup(arena, text);
	char *save;
	for (char *line = strtok_r(scan, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *s = clean_line(line);
		size_t len;
		if (is_label(s, &len)) {
			s[len] = 0;
			bool inserted;
			struct strmap_entry *e = strmap_put(&p.blocks, s, len, &inserted);
			if (inserted) {
				struct ir3_block *b = ir3_block_create(p.ir);
				b->name = arena_strdup(arena, s);
				e->value = b;
			}
		}
	}

	/* pass 2: everything */
	char *next = copy;
	while (next && !p.failed) {
		char *line = next;
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		p.line++;
		char *s = clean_line(line);
		size_t len;
		if (!*s)
			continue;
		if (is_label(s, &len)) {
			s[len] = 0;
			struct ir3_block *b = strmap_get(&p.blocks, s, len);
			if (b->data) {
				perr(&p, "block '%s' defined twice", s);
				break;
			}
			b->data = b;
			p.cur = b;
			p.in_body = true;
			continue;
		}
		if (!p.in_body) {
			if (!parse_header(&p, s))
				perr(&p, "unknown header line '%s'", s);
			continue;
		}
		parse_instr(&p, s);
	}
	if (!p.failed && !p.ir->first)
		perr(&p, "no blocks");
	if (!p.failed)
		finish(&p);
	foreach_block(b, p.ir)
		b->data = NULL;
	strmap_release(&p.blocks);
	strmap_release(&p.values);
	array_free(&p.fixups);
	if (p.ir->ndefs < p.next_name)
		p.ir->ndefs = p.next_name;
	return p.failed ? NULL : p.ir;
}
