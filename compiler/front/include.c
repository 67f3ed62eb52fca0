/*
 * #include expansion for GLSL and HLSL sources (source.h).
 *
 * glslang 12's C interface takes no include callbacks (they came in 12.2)
 * and resolves includes against the process's working directory, so -I
 * cannot reach it.  We expand the directives ourselves before glslang sees
 * the text, marking each included file with cpp-style #line directives so
 * messages name the header and its line:
 *
 *	#include "common.glsl"      →   #line 1 "shaders/common.glsl"
 *	                                …the header, expanded in turn…
 *	                                #line 13 0
 *
 * A header that cannot be found becomes an #error directive: glslang reports
 * it only when the #include sits in a branch the preprocessor takes, as it
 * would its own "cannot find" error.  glslang prints #error's tokens with
 * spaces between them ("a . h"), so the directive carries an identifier,
 * shdb_include_error_N, that glslang.c replaces with our message.  A file
 * including itself (an include guard's business) gets the same treatment;
 * nesting and the expanded size are bounded so hostile input cannot make us
 * loop or explode.
 */
#include "compiler/front/source.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"
#include "compiler/util/file.h"

#define MAX_DEPTH 32

struct includer {
	const struct compile_options *o;
	struct glsl_version v;		/* of the main file: how #line counts */
	struct diag *d;
	const char *file;		/* the main file's name */
	ARRAY(const char *) stack;	/* files being expanded, outermost first */
	string_array *errors;
	size_t total;
	bool failed;
};

/* The directory part of `path`: "" for a bare name. */
static void dir_of(const char *path, struct strbuf *out)
{
	const char *slash = strrchr(path, '/');
	strbuf_reset(out);
	if (slash)
		strbuf_add(out, path, (size_t)(slash - path));
}

static void join(struct strbuf *out, const char *dir, const char *name)
{
	strbuf_reset(out);
	if (*dir && *name != '/')
		strbuf_addf(out, "%s/", dir);
	strbuf_addstr(out, name);
}

/* Read `dir`/`name` into `data`; `path` gets the name it was found under. */
static bool try_read(const char *dir, const char *name, struct strbuf *path, struct strbuf *data)
{
	join(path, dir, name);
	strbuf_reset(data);
	return !strchr(path->buf, '"') && !strchr(path->buf, '\n') &&
	       read_file(path->buf, data, NULL) == 0;
}

/* Search the includer's directory (first for "…", last for <…>) and -I. */
static bool find_header(const struct includer *in, const char *includer, const char *name,
			bool system, struct strbuf *path, struct strbuf *data)
{
	struct strbuf dir = STRBUF_INIT;
	bool found = false;

	dir_of(includer, &dir);
	if (!system)
		found = try_read(dir.buf, name, path, data);
	for (size_t i = 0; !found && i < in->o->include_dirs.len; i++)
		found = try_read(in->o->include_dirs.data[i], name, path, data);
	if (!found && system)
		found = try_read(dir.buf, name, path, data);
	strbuf_release(&dir);
	return found;
}

/*
 * After "#": when the directive is an #include, put its header name in
 * `name`, whether it was <…> in `system`, move the lexer to the end of the
 * line (past its newline) and return true.
 */
static bool parse_include(struct glsl_lexer *lx, struct strbuf *name, bool *system)
{
	struct glsl_lexer peek = *lx;
	struct glsl_token t;

	if (glsl_lex_skip_blanks(&peek, &t) != GTOK_IDENT || !glsl_token_is(&t, "include"))
		return false;
	glsl_lex_skip_blanks(&peek, &t);
	strbuf_reset(name);
	if (t.kind == GTOK_STRING && t.len >= 2 && t.text[t.len - 1] == '"') {
		strbuf_add(name, t.text + 1, t.len - 2);
		*system = false;
	} else if (t.kind == GTOK_PUNCT && *t.text == '<') {
		const char *close = memchr(t.text, '>', (size_t)(peek.end - t.text));
		const char *eol = memchr(t.text, '\n', (size_t)(peek.end - t.text));
		if (!close || (eol && eol < close))
			return false;
		strbuf_add(name, t.text + 1, (size_t)(close - t.text - 1));
		peek.p = close + 1;
		*system = true;
	} else {
		return false;
	}
	if (!name->len)
		return false;
	while (glsl_lex(&peek, &t) != GTOK_NEWLINE && t.kind != GTOK_EOF)
		;
	*lx = peek;
	return true;
}

/* "#line N 0" back to the main file, or "#line N \"header\"" to a header. */
static void add_line(struct strbuf *out, const struct includer *in, int next, const char *file)
{
	strbuf_addf(out, "#line %d ", glsl_line_directive_value(&in->v, next));
	if (file)
		strbuf_addf(out, "\"%s\"\n", file);
	else
		strbuf_addstr(out, "0\n");
}

static bool on_stack(const struct includer *in, const char *path)
{
	for (size_t i = 0; i < in->stack.len; i++)
		if (!strcmp(in->stack.data[i], path))
			return true;
	return false;
}

static void expand(struct includer *in, const char *file, const char *src, size_t len,
		   int first_line, struct strbuf *out);

__attribute__((format(printf, 3, 4)))
static void add_error(struct includer *in, struct strbuf *out, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (in->o->include_dirs.len) {
		strbuf_addstr(&msg, " (searched the including file's directory");
		for (size_t i = 0; i < in->o->include_dirs.len; i++)
			strbuf_addf(&msg, ", %s", in->o->include_dirs.data[i]);
		strbuf_addch(&msg, ')');
	}
	strbuf_addf(out, "#error shdb_include_error_%zu\n", in->errors->len);
	array_push(in->errors, strbuf_detach(&msg, NULL));
}

/* One #include at line `line` of `file` (NULL: the main file). */
static void include_one(struct includer *in, const char *file, int line, int first_line,
			const char *name, bool system, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	const char *includer = file ? file : in->file;

	if (!find_header(in, includer, name, system, &path, &data)) {
		add_error(in, out, "cannot find include file %c%s%c", system ? '<' : '"', name,
			  system ? '>' : '"');
	} else if (on_stack(in, path.buf)) {
		add_error(in, out, "'%s' includes itself (no include guard?)", path.buf);
	} else if (in->stack.len >= MAX_DEPTH) {
		diag_error(in->d, includer, first_line - 1 + line, 0,
			   "#include nested more than %d deep", MAX_DEPTH);
		in->failed = true;
	} else if ((in->total += data.len) > SOURCE_MAX_SIZE) {
		diag_error(in->d, includer, first_line - 1 + line, 0,
			   "with its includes the source exceeds %zu bytes", SOURCE_MAX_SIZE);
		in->failed = true;
	} else if (memchr(data.buf, 0, data.len)) {
		diag_error(in->d, includer, first_line - 1 + line, 0,
			   "'%s' is not a text file (it has a NUL byte)", path.buf);
		in->failed = true;
	} else {
		add_line(out, in, 1, path.buf);
		array_push(&in->stack, path.buf);
		expand(in, path.buf, data.buf, data.len, 1, out);
		in->stack.len--;
		if (out->len && out->buf[out->len - 1] != '\n')
			strbuf_addch(out, '\n');
		add_line(out, in, first_line + line, file);
	}
	strbuf_release(&path);
	strbuf_release(&data);
}

static void expand(struct includer *in, const char *file, const char *src, size_t len,
		   int first_line, struct strbuf *out)
{
	struct strbuf name = STRBUF_INIT;
	struct glsl_lexer lx;
	struct glsl_token t;
	bool system;

	glsl_lexer_init(&lx, src, len);
	while (!in->failed && glsl_lex(&lx, &t) != GTOK_EOF) {
		if (t.kind == GTOK_HASH && parse_include(&lx, &name, &system))
			include_one(in, file, t.line, first_line, name.buf, system, out);
		else
			strbuf_add(out, t.text, t.len);
	}
	strbuf_release(&name);
}

bool source_has_include(const char *src, size_t len)
{
	struct glsl_lexer lx;
	struct glsl_token t;
	struct strbuf name = STRBUF_INIT;
	bool system, found = false;

	if (!memmem(src, len, "include", 7))
		return false;
	glsl_lexer_init(&lx, src, len);
	while (!found && glsl_lex(&lx, &t) != GTOK_EOF)
		found = t.kind == GTOK_HASH && parse_include(&lx, &name, &system);
	strbuf_release(&name);
	return found;
}

int source_expand_includes(const char *file, const char *src, size_t len, int first_line,
			   const struct glsl_version *v, const struct compile_options *o,
			   struct strbuf *out, string_array *errors, struct diag *d)
{
	struct includer in = { .o = o, .v = *v, .d = d, .file = file, .errors = errors,
				.total = len };

	expand(&in, NULL, src, len, first_line, out);
	array_free(&in.stack);
	return in.failed ? -1 : 0;
}

const char *source_include_error(const struct prepared_source *ps, const char *msg, size_t len)
{
	static const char marker[] = "shdb_include_error_";
	const char *m = memmem(msg, len, marker, sizeof(marker) - 1);
	if (!ps || !m)
		return NULL;
	/* the message need not end in a NUL: its digits are read within len */
	const char *end = msg + len;
	size_t i = 0;
	bool digits = false;
	for (const char *p = m + sizeof(marker) - 1; p < end && *p >= '0' && *p <= '9'; p++) {
		i = i * 10 + (size_t)(*p - '0');
		digits = true;
		if (i >= ps->include_errors.len)
			return NULL;
	}
	return digits ? ps->include_errors.data[i] : NULL;
}
