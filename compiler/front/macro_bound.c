/*
 * A bound on what the preprocessor will make of a source (source.h), before
 * glslang expands it: a macro that doubles another,
 *
 *	#define X1 (X0 + X0)
 *	#define X2 (X1 + X1)	… X30
 *
 * is 60 bytes of text a line and 2^30 tokens once expanded; glslang would
 * spend minutes and gigabytes on it.  We count instead of expanding: the
 * size of each macro's expansion, in tokens, is an affine function of the
 * sizes of its arguments (a parameter used twice adds twice its argument),
 * so one walk of each body gives it, and a use's size is a sum of products
 * however deep the macros nest.  Sizes saturate instead of overflowing.
 *
 * The count follows the C preprocessor as far as a bound needs: #define and
 * #undef in order (a macro is expanded with the definitions of the place it
 * is used), a macro does not expand inside itself, a function-like macro
 * expands only when a '(' follows, and #if/#elif expressions count as uses.
 * It ignores conditionals (a branch not taken counts too), # and ## (a
 * pasted or stringified argument counts as expanded), and the rescanning of
 * a function-like macro's name that an expansion ends with.  That makes it
 * an estimate, close for the doubling a bomb needs and never far off for
 * real shaders, whose expansions are small: the limit is generous.
 */
#include "compiler/front/source.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/hash.h"

/* 2^20 tokens, about 4 MB of expanded text: 250 times the corpus's largest
 * source, and about 4 s of glslang's time and 350 MB (a sum of that many
 * terms; twice as many take 9 s and 640 MB). */
#define MACRO_MAX_TOKENS ((uint64_t)1 << 20)
#define SAT ((uint64_t)1 << 48)		/* where sizes stop growing */
/* Macros in macros: the count recurses; real shaders nest a few deep. */
#define MACRO_MAX_DEPTH 1000

enum mtok_kind { MT_PLAIN, MT_PARAM, MT_IDENT, MT_LPAREN, MT_RPAREN, MT_COMMA };

struct mtok {
	enum mtok_kind kind;
	unsigned param;			/* MT_PARAM: its index */
	const char *text;		/* MT_IDENT */
	size_t len;
	int line;			/* in the file named by `file` below */
	const char *file;
};

typedef ARRAY(struct mtok) mtok_array;
typedef ARRAY(size_t) index_array;

/* size = c[0] + sum of c[1 + k] * (size of argument k) */
struct affine {
	uint64_t *c;
	unsigned n;			/* parameters */
};

struct macro {
	bool function;
	unsigned nparams;
	mtok_array body;
	struct affine size;		/* valid when state == MS_DONE and epoch matches */
	enum { MS_NONE, MS_BUSY, MS_DONE } state;
	unsigned epoch;
};

/* Sizes are kept from one use to the next until a name they were computed
 * with changes meaning: a definition replaced or removed, or a name counted
 * as a plain token defined.  The map remembers those names too. */
struct bound {
	struct strmap macros;		/* name -> struct macro *, or &plain */
	struct macro plain;		/* looked up while not a macro */
	ARRAY(struct macro *) all;	/* every definition, to free */
	unsigned epoch;			/* bumped when a name changes meaning */
	unsigned depth;			/* of macro_size() calls */
	bool too_deep;
};

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b >= SAT ? SAT : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	if (!a || !b)
		return 0;
	return a >= SAT / b ? SAT : a * b;
}

static void affine_init(struct affine *a, unsigned n)
{
	a->n = n;
	a->c = xcalloc(n + 1, sizeof(*a->c));
}

static void affine_release(struct affine *a)
{
	free(a->c);
	a->c = NULL;
}

static struct macro *macro_of(struct bound *b, const struct mtok *t)
{
	if (t->kind != MT_IDENT)
		return NULL;
	struct strmap_entry *e = strmap_put(&b->macros, t->text, t->len, NULL);
	if (!e->value)
		e->value = &b->plain;
	return e->value == &b->plain ? NULL : e->value;
}

static const struct affine *macro_size(struct bound *b, struct macro *m);

/* The tokens [i, n) of `t` start with '(' (blanks are gone): the end of
 * each argument up to the matching ')' into `ends` (the ')' last).
 * Returns the index after ')', or 0 when it does not close. */
static size_t call_args(const struct mtok *t, size_t i, size_t n, index_array *ends)
{
	int depth = 0;
	ends->len = 0;
	for (size_t j = i; j < n; j++) {
		if (t[j].kind == MT_LPAREN) {
			depth++;
		} else if (t[j].kind == MT_RPAREN && --depth == 0) {
			array_push(ends, j);
			return j + 1;
		} else if (t[j].kind == MT_COMMA && depth == 1) {
			array_push(ends, j);
		}
	}
	return 0;
}

/* The size of tokens [i, n) of `t`, as an affine function of the
 * parameters of the body they belong to (`out` has their number); the
 * first use crossing `limit` tokens on its own is reported in `*big`. */
static void seq_size(struct bound *b, const struct mtok *t, size_t i, size_t n,
		     struct affine *out, const struct mtok **big, uint64_t limit)
{
	index_array ends = ARRAY_INIT;
	while (i < n) {
		const struct mtok *x = &t[i];
		struct macro *m = macro_of(b, x);
		if (x->kind == MT_PARAM) {
			out->c[1 + x->param] = sat_add(out->c[1 + x->param], 1);
			i++;
			continue;
		}
		if (!m || m->state == MS_BUSY ||
		    (m->function && (i + 1 >= n || t[i + 1].kind != MT_LPAREN))) {
			out->c[0] = sat_add(out->c[0], 1);
			i++;
			continue;
		}
		const struct affine *f = macro_size(b, m);
		if (!m->function) {
			out->c[0] = sat_add(out->c[0], f->c[0]);
			if (f->c[0] > limit && big && !*big)
				*big = x;
			i++;
			continue;
		}
		size_t next = call_args(t, i + 1, n, &ends);
		if (!next) {		/* the call runs past what we have */
			out->c[0] = sat_add(out->c[0], 1);
			i++;
			continue;
		}
		/* f(args): f's constant, plus each parameter's coefficient times
		 * its argument's size (itself affine in our parameters); extra
		 * arguments go to the last parameter (a variadic one) */
		struct affine use;
		affine_init(&use, out->n);
		use.c[0] = f->c[0];
		size_t from = i + 2;
		for (size_t k = 0; k < ends.len && f->n; k++) {
			unsigned p = k < f->n ? (unsigned)k : f->n - 1;
			struct affine arg;
			affine_init(&arg, out->n);
			size_t to = ends.data[k];
			seq_size(b, t, from, to, &arg, NULL, limit);
			for (unsigned c = 0; c <= out->n; c++)
				use.c[c] = sat_add(use.c[c], sat_mul(f->c[1 + p], arg.c[c]));
			affine_release(&arg);
			from = to + 1;
		}
		for (unsigned c = 0; c <= out->n; c++)
			out->c[c] = sat_add(out->c[c], use.c[c]);
		if (use.c[0] > limit && big && !*big)
			*big = x;
		affine_release(&use);
		i = next;
	}
	array_free(&ends);
}

/* A macro's size, computed once per set of definitions; inside itself a
 * macro is its own name (the preprocessor does not expand it again). */
static const struct affine *macro_size(struct bound *b, struct macro *m)
{
	if (m->state == MS_DONE && m->epoch == b->epoch)
		return &m->size;
	affine_release(&m->size);
	affine_init(&m->size, m->nparams);
	m->state = MS_BUSY;
	if (++b->depth > MACRO_MAX_DEPTH) {
		b->too_deep = true;
		m->size.c[0] = SAT;
	} else {
		seq_size(b, m->body.data, 0, m->body.len, &m->size, NULL, SAT);
	}
	b->depth--;
	m->state = MS_DONE;
	m->epoch = b->epoch;
	return &m->size;
}

static void bound_release(struct bound *b)
{
	for (size_t i = 0; i < b->all.len; i++) {
		affine_release(&b->all.data[i]->size);
		array_free(&b->all.data[i]->body);
		free(b->all.data[i]);
	}
	array_free(&b->all);
	strmap_release(&b->macros);
}

/* The tokens of a line (a directive's after its name) without blanks. */
static void line_tokens(const struct glsl_token *t, size_t n, const char *file, mtok_array *out)
{
	out->len = 0;
	for (size_t i = 0; i < n; i++) {
		struct mtok m = { .kind = MT_PLAIN, .text = t[i].text, .len = t[i].len,
				  .line = t[i].line, .file = file };
		if (t[i].kind == GTOK_SPACE || t[i].kind == GTOK_COMMENT ||
		    t[i].kind == GTOK_NEWLINE)
			continue;
		if (t[i].kind == GTOK_IDENT)
			m.kind = MT_IDENT;
		else if (glsl_token_is(&t[i], "("))
			m.kind = MT_LPAREN;
		else if (glsl_token_is(&t[i], ")"))
			m.kind = MT_RPAREN;
		else if (glsl_token_is(&t[i], ","))
			m.kind = MT_COMMA;
		array_push(out, m);
	}
}

/* #define NAME body, #define NAME(a, b) body: `t` holds the tokens after
 * "define" (blanks included: a '(' right after the name makes it a
 * function-like macro). */
static void define(struct bound *b, const struct glsl_token *t, size_t n, const char *file)
{
	size_t i = 0;
	while (i < n && (t[i].kind == GTOK_SPACE || t[i].kind == GTOK_COMMENT))
		i++;
	if (i >= n || t[i].kind != GTOK_IDENT)
		return;			/* glslang reports it */
	const struct glsl_token *name = &t[i++];
	struct macro *m = xcalloc(1, sizeof(*m));
	mtok_array params = ARRAY_INIT;
	if (i < n && glsl_token_is(&t[i], "(")) {
		m->function = true;
		/* "..." lexes as three '.': one parameter, __VA_ARGS__ */
		for (i++; i < n && !glsl_token_is(&t[i], ")"); i++)
			if (t[i].kind == GTOK_IDENT)
				array_push(&params, ((struct mtok){ .text = t[i].text, .len = t[i].len }));
			else if (glsl_token_is(&t[i], ".") &&
				 (!params.len || array_last(&params).text != NULL))
				array_push(&params, ((struct mtok){ .text = NULL }));
		i += i < n;
	}
	line_tokens(t + i, n - i, file, &m->body);
	for (size_t k = 0; k < m->body.len; k++) {
		struct mtok *x = &m->body.data[k];
		for (size_t p = 0; x->kind == MT_IDENT && p < params.len; p++) {
			const struct mtok *q = &params.data[p];
			if (q->text ? x->len == q->len && !memcmp(x->text, q->text, x->len)
				    : x->len == 11 && !memcmp(x->text, "__VA_ARGS__", 11)) {
				x->kind = MT_PARAM;
				x->param = (unsigned)p;
			}
		}
	}
	m->nparams = (unsigned)params.len;
	array_free(&params);
	struct strmap_entry *e = strmap_put(&b->macros, name->text, name->len, NULL);
	if (e->value)		/* replaced, or counted as a plain token before */
		b->epoch++;
	e->value = m;
	array_push(&b->all, m);
}

static void undef(struct bound *b, const struct glsl_token *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].kind == GTOK_IDENT) {
			struct strmap_entry *e = strmap_put(&b->macros, t[i].text, t[i].len, NULL);
			if (e->value && e->value != &b->plain) {
				b->epoch++;
				e->value = &b->plain;
			}
			return;
		}
}

/* Count the uses in `toks` (a stretch of lines without #define or #undef)
 * into `*total`; -1 with the error in `d` past the limit. */
static int count_uses(struct bound *b, const mtok_array *toks, uint64_t *total,
		      const char *what, struct diag *d)
{
	struct affine a;
	const struct mtok *big = NULL;
	affine_init(&a, 0);
	seq_size(b, toks->data, 0, toks->len, &a, &big, MACRO_MAX_TOKENS);
	*total = sat_add(*total, a.c[0]);
	affine_release(&a);
	if (!big && *total <= MACRO_MAX_TOKENS)
		return 0;
	if (!big)
		big = &toks->data[toks->len - 1];
	if (b->too_deep) {
		diag_error(d, big->file, big->line, 0, "macros nested more than %d deep (macro '%.*s')",
			   MACRO_MAX_DEPTH, (int)big->len, big->text);
		return -1;
	}
	diag_error(d, big->file, big->line, 0,
		   "%s expand to more than %llu tokens (macro '%.*s'); shdb refuses sources "
		   "whose preprocessing would take minutes", what,
		   (unsigned long long)MACRO_MAX_TOKENS, (int)big->len, big->text);
	return -1;
}

/* Where the next line is, after a #line directive's tokens `t` on line
 * `directive_line` of the text: `*delta` from the text's lines to the
 * file's, `*file` the main file or a header's name (kept in `names`). */
static void line_directive(const struct glsl_token *t, size_t n, const struct glsl_version *v,
			   const char *main_file, string_array *names, const char **file,
			   int *delta, int directive_line)
{
	size_t i = 0;
	while (i < n && t[i].kind != GTOK_NUMBER)
		i++;
	if (i >= n)
		return;
	long next = glsl_token_int(&t[i]);
	/* a line number no file has (INT_MAX for a long string of digits):
	 * glslang refuses it, and there is no location to follow */
	if (next < 0 || next >= INT_MAX / 2)
		return;
	/* what line the next one is: glsl_line_directive_value()'s inverse */
	if (!(v->es || v->version >= 330))
		next++;
	*delta = (int)(next - (directive_line + 1));
	for (i++; i < n; i++) {
		if (t[i].kind == GTOK_STRING && t[i].len >= 2) {
			array_push(names, xstrndup(t[i].text + 1, t[i].len - 2));
			*file = array_last(names);
			return;
		}
		if (t[i].kind == GTOK_NUMBER && glsl_token_is(&t[i], "0")) {
			*file = main_file;
			return;
		}
	}
}

int source_check_macros(const char *file, const char *src, size_t len, int first_line,
			const struct glsl_version *v, struct diag *d)
{
	if (!memmem(src, len, "define", 6))
		return 0;
	struct bound b = { .macros = STRMAP_INIT };
	ARRAY(struct glsl_token) line = ARRAY_INIT;
	mtok_array uses = ARRAY_INIT, toks = ARRAY_INIT;
	string_array names = ARRAY_INIT;	/* headers' names, which tokens point at */
	struct glsl_lexer lx;
	struct glsl_token t;
	const char *where = file;
	int delta = first_line - 1;
	uint64_t total = 0;
	int ret = 0;

	glsl_lexer_init(&lx, src, len);
	for (bool more = true; more && ret == 0;) {
		line.len = 0;
		bool directive = false;
		while ((more = glsl_lex(&lx, &t) != GTOK_EOF) && t.kind != GTOK_NEWLINE) {
			directive |= t.directive;
			t.line += delta;
			array_push(&line, t);
		}
		if (!directive) {
			line_tokens(line.data, line.len, where, &toks);
			for (size_t i = 0; i < toks.len; i++)
				array_push(&uses, toks.data[i]);
			continue;
		}
		/* a directive: count what came before it with the definitions
		 * then in force */
		if (uses.len && count_uses(&b, &uses, &total, "the source's macros", d) < 0) {
			ret = -1;
			break;
		}
		uses.len = 0;
		size_t i = 0;
		while (i < line.len && line.data[i].kind != GTOK_IDENT)
			i++;
		if (i >= line.len)
			continue;
		const struct glsl_token *name = &line.data[i++];
		const struct glsl_token *rest = line.data + i;
		size_t n = line.len - i;
		if (glsl_token_is(name, "define")) {
			define(&b, rest, n, where);
		} else if (glsl_token_is(name, "undef")) {
			undef(&b, rest, n);
		} else if (glsl_token_is(name, "if") || glsl_token_is(name, "elif")) {
			line_tokens(rest, n, where, &toks);
			if (toks.len && count_uses(&b, &toks, &total, "an #if's macros", d) < 0)
				ret = -1;
		} else if (glsl_token_is(name, "line")) {
			line_directive(rest, n, v, file, &names, &where, &delta, name->line - delta);
		}
	}
	if (ret == 0 && uses.len)
		ret = count_uses(&b, &uses, &total, "the source's macros", d);
	for (size_t i = 0; i < names.len; i++)
		free(names.data[i]);
	array_free(&names);
	array_free(&line);
	array_free(&uses);
	array_free(&toks);
	bound_release(&b);
	return ret;
}
