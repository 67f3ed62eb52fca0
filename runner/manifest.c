/*
 * The per-file options manifest (manifest.h).  Hand-written TSV splitting: the
 * format is tab-separated fields with no quoting (what manifest.tsv is), which
 * a library would not make shorter.
 */
#include "runner/manifest.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"
#include "compiler/util/file.h"

enum column { COL_PATH, COL_REPO, COL_KIND, COL_STAGE, COL_MODE, COL_ENTRY, COL_DEFINES,
	      COL_COUNT };

static const struct {
	const char *name;
	enum column col;
} column_names[] = {
	{ "path", COL_PATH }, { "repo", COL_REPO }, { "kind", COL_KIND },
	{ "stages", COL_STAGE }, { "stage", COL_STAGE }, { "glslang_mode", COL_MODE },
	{ "mode", COL_MODE }, { "entry", COL_ENTRY }, { "defines", COL_DEFINES },
};

/* Split `line` (modified) at tabs into at most `max` fields; returns the count. */
static size_t split_tabs(char *line, char **fields, size_t max)
{
	size_t n = 0;
	for (char *p = line;; p++) {
		if (n < max)
			fields[n] = p;
		n++;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p = '\0';
	}
	return n;
}

static enum input_kind kind_from_name(const char *k, bool *not_shader)
{
	*not_shader = false;
	if (!strcmp(k, "glsl"))
		return INPUT_GLSL;
	if (!strcmp(k, "hlsl"))
		return INPUT_HLSL;
	if (!strcmp(k, "spv"))
		return INPUT_SPIRV;
	if (!strcmp(k, "spvasm"))
		return INPUT_SPVASM;
	if (!strcmp(k, "shader_test"))
		return INPUT_SHADER_TEST;
	*not_shader = *k != '\0';
	return INPUT_UNKNOWN;
}

void manifest_parse_mode(struct manifest_entry *e, const char *mode)
{
	if (!strncmp(mode, "incext+", 7)) {
		e->include_own_dir = true;
		mode += 7;
	}
	if (!strcmp(mode, "vk11") || !strcmp(mode, "vk13"))
		e->glsl_mode = GLSL_MODE_VULKAN;
	else if (!strcmp(mode, "vkrelaxed"))
		e->glsl_mode = GLSL_MODE_RELAXED;
	else if (!strcmp(mode, "hlsl-vk11")) {
		e->kind = INPUT_HLSL;
		if (!e->entry)
			e->entry = "main";
	}
	/* override140 / override310es need a version override compile_options
	 * does not have yet: the front end's own choice (auto) applies. */
}

/* "owner/name" + "/" + path → "owner-name/path", the folder layout on disk. */
static void row_key(struct strbuf *key, const char *repo, const char *path)
{
	strbuf_reset(key);
	if (repo && *repo) {
		for (const char *c = repo; *c; c++)
			strbuf_addch(key, *c == '/' ? '-' : *c);
		strbuf_addch(key, '/');
	}
	strbuf_addstr(key, path);
}

static int parse_header(char *line, int *cols, size_t *ncols, struct strbuf *err,
			const char *path)
{
	char *fields[64];
	size_t n = split_tabs(line, fields, 64);
	if (n > 64) {
		strbuf_addf(err, "%s:1: more than 64 columns", path);
		return -1;
	}
	for (int c = 0; c < COL_COUNT; c++)
		cols[c] = -1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(column_names) / sizeof(column_names[0]); k++)
			if (!strcmp(fields[i], column_names[k].name) && cols[column_names[k].col] < 0)
				cols[column_names[k].col] = (int)i;
	*ncols = n;
	if (cols[COL_PATH] < 0) {
		strbuf_addf(err, "%s:1: no 'path' column in the header", path);
		return -1;
	}
	return 0;
}

static const char *field(struct manifest *m, char **fields, const int *cols, enum column c)
{
	if (cols[c] < 0 || !*fields[cols[c]])
		return NULL;
	return arena_strdup(&m->arena, fields[cols[c]]);
}

static void add_row(struct manifest *m, char **fields, const int *cols, struct strbuf *key)
{
	struct manifest_entry *e = arena_new(&m->arena, struct manifest_entry);
	const char *kind = field(m, fields, cols, COL_KIND);
	const char *stage = field(m, fields, cols, COL_STAGE);
	const char *mode = field(m, fields, cols, COL_MODE);

	e->stage = STAGE_NONE;
	e->kind_name = kind;
	if (kind)
		e->kind = kind_from_name(kind, &e->not_shader);
	e->stages = stage;
	if (stage && !strchr(stage, ','))
		e->stage = stage_from_name(stage);
	e->entry = field(m, fields, cols, COL_ENTRY);
	e->defines = field(m, fields, cols, COL_DEFINES);
	e->mode_name = mode;
	if (mode)
		manifest_parse_mode(e, mode);

	row_key(key, cols[COL_REPO] >= 0 ? fields[cols[COL_REPO]] : NULL, fields[cols[COL_PATH]]);
	strmap_put(&m->rows, key->buf, key->len, NULL)->value = e;
}

static int parse(struct manifest *m, char *text, const char *path, struct strbuf *err)
{
	int cols[COL_COUNT];
	size_t ncols = 0;
	struct strbuf key = STRBUF_INIT;
	char *fields[64];
	int lineno = 0, ret = 0;

	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		size_t len = strlen(line);
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (lineno == 1) {
			if ((ret = parse_header(line, cols, &ncols, err, path)) < 0)
				break;
			continue;
		}
		if (!len || line[0] == '#')
			continue;
		size_t n = split_tabs(line, fields, 64);
		if (n != ncols) {
			strbuf_addf(err, "%s:%d: %zu fields, the header has %zu", path, lineno, n,
				    ncols);
			ret = -1;
			break;
		}
		add_row(m, fields, cols, &key);
	}
	if (!ret && lineno == 0) {
		strbuf_addf(err, "%s: empty manifest", path);
		ret = -1;
	}
	strbuf_release(&key);
	return ret;
}

int manifest_load(struct manifest *m, const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	char real[PATH_MAX];

	memset(m, 0, sizeof(*m));
	arena_init(&m->arena);
	if (read_file(path, &text, err) < 0)
		return -1;
	m->hash = hash_bytes(text.buf, text.len);
	int ret = parse(m, text.buf, path, err);
	strbuf_release(&text);
	if (ret < 0)
		return -1;

	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	if (!realpath(slash ? dir : ".", real)) {
		strbuf_addf(err, "cannot resolve the folder of '%s'", path);
		free(dir);
		return -1;
	}
	free(dir);
	m->dir = xstrdup(real);
	return 0;
}

void manifest_release(struct manifest *m)
{
	strmap_release(&m->rows);
	arena_release(&m->arena);
	free(m->dir);
	memset(m, 0, sizeof(*m));
}

/* Space- or comma-separated words of `list` pushed onto `to`, in `a`. */
static void split_words(const char *list, const char *seps, struct arena *a, void *to_array)
{
	ARRAY(const char *) *to = to_array;
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, seps);
		if (n)
			array_push(to, arena_strndup(a, p, n));
		p += n;
		p += strspn(p, seps);
	}
}

void manifest_options(const struct manifest_entry *e, const struct compile_options *g,
		      const char *path, struct compile_options *o, struct arena *a)
{
	struct strbuf err = STRBUF_INIT;
	compile_options_init(o);
	o->kind = e ? e->kind : INPUT_UNKNOWN;
	o->stage = g->stage;
	o->entry = e && e->entry && !strchr(e->entry, ',') ? e->entry : g->entry;
	o->glsl_mode = e && e->glsl_mode != GLSL_MODE_AUTO ? e->glsl_mode : g->glsl_mode;
	o->passes = g->passes;
	o->verify = g->verify;
	o->exec_seeds = g->exec_seeds;
	o->ra_limit = g->ra_limit;
	o->mesa = g->mesa;
	for (size_t i = 0; i < g->stages.len; i++)
		array_push(&o->stages, g->stages.data[i]);
	if (e && e->stages && compile_options_set_stages(o, e->stages, &err) < 0)
		o->stages.len = 0;	/* an unknown name: the file name decides, as before */
	if (e && e->entry)
		split_words(e->entry, ",", a, &o->entries);
	else
		for (size_t i = 0; i < g->entries.len; i++)
			array_push(&o->entries, g->entries.data[i]);
	for (size_t i = 0; i < g->defines.len; i++)
		array_push(&o->defines, g->defines.data[i]);
	for (size_t i = 0; i < g->include_dirs.len; i++)
		array_push(&o->include_dirs, g->include_dirs.data[i]);
	if (e && e->defines)
		split_words(e->defines, " \t", a, &o->defines);
	if (e && e->include_own_dir) {
		const char *slash = strrchr(path, '/');
		array_push(&o->include_dirs, slash ? arena_strndup(a, path, (size_t)(slash - path)) : ".");
	}
	strbuf_release(&err);
}

const struct manifest_entry *manifest_find(const struct manifest *m, const char *rel)
{
	return strmap_get(&m->rows, rel, strlen(rel));
}
