/*
 * The .shader_test parser (shader_test.h): one pass over the lines.
 */
#include "compiler/front/shader_test.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum shader_stage stage;
	bool arb;
} section_names[] = {
	{ "vertex shader", STAGE_VERTEX, false },
	{ "tessellation control shader", STAGE_TESS_CTRL, false },
	{ "tessellation evaluation shader", STAGE_TESS_EVAL, false },
	{ "geometry shader", STAGE_GEOMETRY, false },
	{ "fragment shader", STAGE_FRAGMENT, false },
	{ "compute shader", STAGE_COMPUTE, false },
	{ "vertex program", STAGE_VERTEX, true },
	{ "fragment program", STAGE_FRAGMENT, true },
};

/* One line of the file: [start, end) without its newline. */
struct line {
	const char *start, *end;
	int number;
};

void program_require_release(struct program_require *r)
{
	for (size_t i = 0; i < r->extensions.len; i++)
		free(r->extensions.data[i]);
	array_free(&r->extensions);
	memset(r, 0, sizeof(*r));
}

void shader_test_release(struct shader_test *st)
{
	array_free(&st->sections);
	program_require_release(&st->require);
}

static bool next_line(const char **p, const char *end, struct line *l)
{
	if (*p >= end)
		return false;
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	l->start = *p;
	l->end = nl ? nl : end;
	l->number++;
	*p = nl ? nl + 1 : end;
	return true;
}

/* "1.40" → 140, "3.00" → 300; 0 when it is not a version. */
static int parse_version(const char *s)
{
	char *end;
	long major = strtol(s, &end, 10);
	if (end == s || *end != '.' || major < 1 || major > 9)
		return 0;
	long minor = strtol(end + 1, &end, 10);
	if (minor < 0 || minor > 99)
		return 0;
	return (int)(major * 100 + minor);
}

/* One line of [require]: "GLSL >= 1.40", "GLSL ES >= 3.00", "SSO ENABLED",
 * "GL_ARB_foo", and lines we do not need ("GL >= 3.2", limits, "!GL_…"). */
static void parse_require(struct program_require *r, const struct line *l)
{
	char buf[256], *words[4] = { 0 }, *save = NULL;
	size_t n = (size_t)(l->end - l->start);
	int count = 0;

	if (n >= sizeof(buf))
		return;
	memcpy(buf, l->start, n);
	buf[n] = '\0';
	for (char *w = strtok_r(buf, " \t\r", &save); w && count < 4; w = strtok_r(NULL, " \t\r", &save))
		words[count++] = w;
	if (count == 0 || words[0][0] == '#')
		return;
	if (!strcmp(words[0], "GLSL") && count >= 3) {
		bool es = !strcmp(words[1], "ES");
		if (es && count < 4)
			return;
		r->glsl_version = parse_version(words[es ? 3 : 2]);
		r->glsl_es = es;
	} else if (!strcmp(words[0], "SSO") && count >= 2 && !strcmp(words[1], "ENABLED")) {
		r->separable = true;
	} else if (!strncmp(words[0], "GL_", 3) && count == 1) {
		array_push(&r->extensions, xstrdup(words[0]));
	}
}

static int find_section(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(section_names) / sizeof(section_names[0]); i++)
		if (strlen(section_names[i].name) == n && !memcmp(section_names[i].name, name, n))
			return (int)i;
	return -1;
}

/* Close the open section at the line before `l`. */
static void end_section(struct shader_test *st, int open, const char *end)
{
	if (open >= 0)
		array_last(&st->sections).len = (size_t)(end - array_last(&st->sections).text);
}

int shader_test_parse(const char *file, const char *data, size_t len, struct shader_test *st,
		      struct diag *d)
{
	const char *p = data, *end = data + len;
	struct line l = { .number = 0 };
	int open = -1;		/* the shader section being read, or -1 */
	bool in_require = false;

	memset(st, 0, sizeof(*st));
	while (next_line(&p, end, &l)) {
		if (l.start == l.end || *l.start != '[') {
			if (in_require)
				parse_require(&st->require, &l);
			continue;
		}
		const char *close = memchr(l.start, ']', (size_t)(l.end - l.start));
		if (!close) {
			diag_error(d, file, l.number, 1, "section header without ']': '%.*s'",
				   (int)(l.end - l.start), l.start);
			return -1;
		}
		end_section(st, open, l.start);
		const char *name = l.start + 1;
		size_t n = (size_t)(close - name);
		int s = find_section(name, n);
		in_require = n == 7 && !memcmp(name, "require", 7);
		open = -1;
		if (n == 4 && !memcmp(name, "test", 4)) {
			p = end;	/* piglit's commands: not ours */
		} else if (s >= 0) {
			struct shader_test_section *sec = array_push_zero(&st->sections);
			sec->stage = section_names[s].stage;
			sec->arb = section_names[s].arb;
			sec->text = p;
			sec->line = l.number + 1;
			open = s;
		} else if (!in_require) {
			diag_warning(d, file, l.number, 1, "section [%.*s] ignored", (int)n, name);
		}
	}
	end_section(st, open, p);
	if (!st->sections.len) {
		diag_error(d, file, 0, 0, "no shader section ([vertex shader], [fragment shader]…)");
		return -1;
	}
	return 0;
}
