/*
 * --fail-on thresholds; see threshold.h.
 */
#include "stats/threshold.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_spaces(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

static const char *parse_scope(const char *p, struct threshold *t)
{
	static const struct {
		const char *prefix;
		enum threshold_scope scope;
	} scopes[] = { { "total:", SCOPE_TOTAL }, { "shader:", SCOPE_SHADER } };
	p = skip_spaces(p);
	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(scopes[i].prefix);
		if (!strncmp(p, scopes[i].prefix, n)) {
			t->scope = scopes[i].scope;
			t->scope_given = true;
			return p + n;
		}
	}
	t->scope = SCOPE_TOTAL;
	return p;
}

/* The operator at p, or NULL. */
static const char *parse_op(const char *p, enum threshold_op *op)
{
	if (*p != '<' && *p != '>')
		return NULL;
	bool eq = p[1] == '=';
	*op = *p == '>' ? (eq ? OP_GE : OP_GT) : (eq ? OP_LE : OP_LT);
	return p + 1 + eq;
}

/* [+|-]DIGITS[.DIGITS] [%], nothing after. */
static bool parse_value(const char *p, struct threshold *t)
{
	p = skip_spaces(p);
	size_t sign = *p == '+' || *p == '-';
	size_t digits = strspn(p + sign, "0123456789.");
	char buf[64];
	if (!digits || sign + digits >= sizeof(buf) || strchr(p + sign, '.') != strrchr(p + sign, '.'))
		return false;
	memcpy(buf, p, sign + digits);
	buf[sign + digits] = '\0';
	char *end;
	t->value = strtod(buf, &end);
	if (*end)
		return false;
	p = skip_spaces(p + sign + digits);
	t->relative = *p == '%';
	if (t->relative) {
		t->value /= 100;
		p = skip_spaces(p + 1);
	}
	return *p == '\0';
}

bool threshold_parse(const char *text, struct threshold *t, struct strbuf *err)
{
	memset(t, 0, sizeof(*t));
	t->text = text;
	const char *name = parse_scope(text, t), *p = name;
	while (*p && *p != '<' && *p != '>')
		p++;
	size_t len = (size_t)(p - name);
	while (len && name[len - 1] == ' ')
		len--;
	const char *rest = parse_op(p, &t->op);
	if (!len || len >= sizeof(t->name) || !rest || !parse_value(rest, t)) {
		strbuf_addf(err, "'%s' is not a threshold: expected [total:|shader:]NAME{>,>=,<,<=}"
			    "NUMBER[%%], as in 'inst>+0.5%%'", text);
		return false;
	}
	memcpy(t->name, name, len);
	t->name[len] = '\0';
	return true;
}

bool threshold_crossed(const struct threshold *t, double x)
{
	switch (t->op) {
	case OP_GT:
		return x > t->value;
	case OP_GE:
		return x >= t->value;
	case OP_LT:
		return x < t->value;
	case OP_LE:
		return x <= t->value;
	}
	return false;
}

const char *threshold_op_text(enum threshold_op op)
{
	static const char *const text[] = { [OP_GT] = ">", [OP_GE] = ">=", [OP_LT] = "<", [OP_LE] = "<=" };
	return text[op];
}
