/*
 * Walking the inputs into the job list (inputs.h).
 */
#include "runner/inputs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/front/front.h"
#include "compiler/util/error.h"
#include "compiler/util/file.h"

const char *skip_reason_message(enum skip_reason r)
{
	switch (r) {
	case SKIP_NONE: break;
	case SKIP_UNKNOWN_KIND: return "not a shader: unknown kind of input";
	case SKIP_NOT_REGULAR: return "not a regular file";
	case SKIP_NOT_SHADER: return "not a shader: the manifest's kind";
	case SKIP_HLSL_NO_STAGE:
		return "HLSL needs a stage (the entry point's name or attributes, --stage, or a "
		       "manifest's stages column)";
	}
	return "";
}

/* FNV-1a 64 of the path, then splitmix64's finaliser (FNV's low bits mix
 * poorly, and N is often a power of two), mod N.  Part of the format: shards
 * made by different builds must agree, so this is spelt out here rather than
 * taken from util/hash.c, which may change. */
unsigned shard_of(const char *path, unsigned n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ull;
	}
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 31;
	return (unsigned)(h % n);
}

int path_cmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

/* `dir` relative to `base` (both real paths): "" when equal, NULL if outside. */
static const char *relative_to(struct arena *a, const char *dir, const char *base)
{
	size_t n = strlen(base);
	if (!strcmp(dir, base))
		return "";
	if (!strcmp(base, "/"))
		return arena_strdup(a, dir + 1);
	if (!strncmp(dir, base, n) && dir[n] == '/')
		return arena_strdup(a, dir + n + 1);
	return NULL;
}

static const struct manifest_entry *lookup(struct inputs *in, const char *prefix,
					   const char *rel)
{
	if (!in->manifest || !prefix)
		return NULL;
	if (!*prefix)
		return manifest_find(in->manifest, rel);
	struct strbuf key = STRBUF_INIT;
	strbuf_addf(&key, "%s/%s", prefix, rel);
	const struct manifest_entry *e = manifest_find(in->manifest, key.buf);
	strbuf_release(&key);
	return e;
}

/* The manifest row of a file named on the command line. */
static const struct manifest_entry *lookup_named(struct inputs *in, const char *arg)
{
	char real[PATH_MAX];
	if (!in->manifest)
		return NULL;
	char *dir = xstrdup(arg);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	const char *prefix = realpath(slash ? dir : ".", real)
		? relative_to(&in->arena, real, in->manifest->dir) : NULL;
	free(dir);
	return lookup(in, prefix, path_basename(arg));
}

static bool keep(struct inputs *in, const char *rel)
{
	const struct input_filter *f = in->filter;
	size_t len = strlen(rel);
	if (!f)
		return true;
	if (!path_filter_keeps(&f->paths, rel, len, in->md)) {
		in->filtered++;
		return false;
	}
	if (f->shard_n && shard_of(rel, f->shard_n) != f->shard_k - 1) {
		in->other_shards++;
		return false;
	}
	return true;
}

/*
 * A file of several programs (an HLSL file's entry points, a database's
 * pipelines): a job for each, "<rel>/<program>", filtered on that path.
 * Returns false when the file is one program (or cannot be read: its
 * compile will say why), for add_file() to make its one job; *stage then
 * gets the stage of that program when the file knows it.
 */
static bool add_programs(struct inputs *in, uint32_t root, const char *rel,
			 const struct manifest_entry *e, enum input_kind kind,
			 enum shader_stage *stage)
{
	const struct input_root *r = &in->roots.data[root];
	const char *path = r->is_file ? rel : arena_printf(&in->arena, "%s/%s", r->arg, rel);
	struct strbuf data = STRBUF_INIT;
	struct file_map m = { "", 0 };
	struct compile_options o;
	struct front_programs progs = { 0 };
	struct diag d = DIAG_INIT;
	bool several = false;

	manifest_options(e, in->opts, rel, &o, &in->arena);
	o.stage = *stage;
	if (kind == INPUT_FOZ ? file_map(path, &m, NULL) == 0 : read_file(path, &data, NULL) == 0) {
		const char *text = kind == INPUT_FOZ ? m.data : data.buf;
		size_t len = kind == INPUT_FOZ ? m.len : data.len;
		if (front_list_programs(rel, text, len, kind, *stage, &o, &progs, &d) == 0) {
			several = progs.named;
			if (!several && progs.list.len)
				*stage = progs.list.data[0].stage;
		}
	}
	for (size_t i = 0; several && i < progs.list.len; i++) {
		const struct front_program *p = &progs.list.data[i];
		const char *job = arena_printf(&in->arena, "%s/%s", rel, p->name);
		if (!keep(in, job))
			continue;
		array_push(&in->jobs, (struct job){
			.path = job, .file = rel, .program = arena_strdup(&in->arena, p->name),
			.root = root, .stage = p->stage, .m = e,
			.skip = kind == INPUT_HLSL && p->stage == STAGE_NONE ? SKIP_HLSL_NO_STAGE
									      : SKIP_NONE });
	}
	front_programs_release(&progs);
	compile_options_release(&o);
	diag_release(&d);
	strbuf_release(&data);
	file_unmap(&m);
	return several;
}

/* One file: a job, a skipped job, or (in a walk, not a shader) ignored.
 * `st` is NULL when the file cannot be stat'ed (a dangling link): the compile
 * then says why it cannot be read. */
static void add_file(struct inputs *in, uint32_t root, const char *rel,
		     const struct manifest_entry *e, const struct stat *st, bool named)
{
	enum shader_stage ext_stage;
	enum input_kind kind = input_kind_from_path(rel, &ext_stage);
	enum shader_stage stage = in->opts ? in->opts->stage : STAGE_NONE;
	enum skip_reason skip = SKIP_NONE;

	if (e && e->kind != INPUT_UNKNOWN)
		kind = e->kind;
	if (e && e->stage != STAGE_NONE)
		stage = e->stage;
	if ((e && e->not_shader) || kind == INPUT_UNKNOWN) {
		if (!named && kind == INPUT_UNKNOWN) {
			in->ignored++;
			return;
		}
		skip = e && e->not_shader ? SKIP_NOT_SHADER : SKIP_UNKNOWN_KIND;
	} else if (st && !S_ISREG(st->st_mode)) {
		skip = SKIP_NOT_REGULAR;
	} else if (st && in->programs && (kind == INPUT_HLSL || kind == INPUT_FOZ) &&
		   add_programs(in, root, rel, e, kind, &stage)) {
		return;
	}
	if (!skip && kind == INPUT_HLSL && stage == STAGE_NONE)
		skip = SKIP_HLSL_NO_STAGE;
	if (!keep(in, rel))
		return;
	array_push(&in->jobs, (struct job){ .path = rel, .root = root, .stage = stage,
					    .skip = skip, .m = e });
}

/* The root a file of `root` compiles in, and the path its records carry:
 * with several inputs, the current folder and "arg/rel". */
static uint32_t files_root(struct inputs *in);

static void add_walked(struct inputs *in, uint32_t root, const char *rel, const struct stat *st)
{
	const struct input_root *r = &in->roots.data[root];
	const struct manifest_entry *e = lookup(in, r->manifest_prefix, rel);
	if (!*r->path_prefix) {
		add_file(in, root, rel, e, st, false);
		return;
	}
	add_file(in, files_root(in), arena_printf(&in->arena, "%s%s", r->path_prefix, rel), e, st,
		 false);
}

/* Record a directory as walked; false (and a warning) if it already was. */
static bool first_visit(struct inputs *in, const struct stat *st, const char *shown)
{
	struct { dev_t dev; ino_t ino; } key;
	bool inserted;
	memset(&key, 0, sizeof(key));
	key.dev = st->st_dev;
	key.ino = st->st_ino;
	strmap_put(&in->seen_dirs, &key, sizeof(key), &inserted);
	if (!inserted) {
		warning("skipping '%s': a folder already walked (a symbolic-link loop?)", shown);
		in->loops++;
	}
	return inserted;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(struct inputs *in, uint32_t root, int dirfd, const char *prefix)
{
	const struct input_root *r = &in->roots.data[root];
	ARRAY(char *) names = ARRAY_INIT;
	int fd = dup(dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		warning("cannot read folder '%s/%s': %s", r->arg, prefix, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	for (struct dirent *de; (de = readdir(d));)
		if (de->d_name[0] != '.')
			array_push(&names, xstrdup(de->d_name));
	closedir(d);
	array_sort(&names, cmp_names);

	for (size_t i = 0; i < names.len; i++) {
		const char *name = names.data[i];
		const char *rel = *prefix ? arena_printf(&in->arena, "%s/%s", prefix, name)
					  : arena_strdup(&in->arena, name);
		struct stat st;
		if (fstatat(dirfd, name, &st, 0) < 0) {
			add_walked(in, root, rel, NULL);
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			add_walked(in, root, rel, &st);
			continue;
		}
		struct strbuf shown = STRBUF_INIT;
		strbuf_addf(&shown, "%s/%s", r->arg, rel);
		if (first_visit(in, &st, shown.buf)) {
			int sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (sub >= 0) {
				walk(in, root, sub, rel);
				close(sub);
			} else {
				warning("cannot open folder '%s': %s", shown.buf, strerror(errno));
			}
		}
		strbuf_release(&shown);
	}
	for (size_t i = 0; i < names.len; i++)
		free(names.data[i]);
	array_free(&names);
}

/* The root that holds files named on the command line: the current folder. */
static uint32_t files_root(struct inputs *in)
{
	if (in->cwd_root < 0) {
		in->cwd_root = (int)in->roots.len;
		array_push(&in->roots, (struct input_root){
			.arg = ".", .path_prefix = "", .is_file = true,
			.dirfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) });
	}
	return (uint32_t)in->cwd_root;
}

/* A path as given, tidied: no "./" in front, no repeated or trailing '/';
 * "." is "". */
static char *tidy_path(struct arena *a, const char *arg)
{
	char *out = arena_strdup(a, arg), *w = out;
	const char *p = arg;
	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			;
	if (!strcmp(p, "."))
		p++;
	for (; *p; p++)
		if (*p != '/' || (w == out ? true : w[-1] != '/'))
			*w++ = *p;
	if (w > out + 1 && w[-1] == '/')
		w--;
	*w = '\0';
	return out;
}

static int add_arg(struct inputs *in, const char *arg, struct strbuf *err)
{
	struct stat st;
	char real[PATH_MAX];

	if (stat(arg, &st) < 0) {
		if (lstat(arg, &st) < 0) {
			strbuf_addf(err, "cannot read '%s': %s", arg, strerror(errno));
			return -1;
		}
		add_file(in, files_root(in), tidy_path(&in->arena, arg), lookup_named(in, arg), NULL,
			 true);
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		add_file(in, files_root(in), tidy_path(&in->arena, arg), lookup_named(in, arg), &st,
			 true);
		return 0;
	}
	if (!first_visit(in, &st, arg))
		return 0;
	int fd = open(arg, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(err, "cannot open folder '%s': %s", arg, strerror(errno));
		return -1;
	}
	const char *prefix = NULL;
	if (in->manifest && realpath(arg, real))
		prefix = relative_to(&in->arena, real, in->manifest->dir);
	const char *path_prefix = in->as_given ? tidy_path(&in->arena, arg) : "";
	if (*path_prefix && strcmp(path_prefix, "/"))
		path_prefix = arena_printf(&in->arena, "%s/", path_prefix);
	array_push(&in->roots, (struct input_root){ .arg = arg, .path_prefix = path_prefix,
						    .dirfd = fd, .manifest_prefix = prefix });
	uint32_t root = (uint32_t)in->roots.len - 1;	/* the walk may add the current folder's */
	size_t found = in->jobs.len + in->filtered + in->other_shards, ignored = in->ignored;
	walk(in, root, fd, "");
	if (in->jobs.len + in->filtered + in->other_shards == found) {
		struct input_root *r = &in->roots.data[root];
		r->no_shader = true;
		r->ignored = in->ignored - ignored;
	}
	return 0;
}

/* A folder without a shader (nothing a walk recognised, before filters):
 * a warning, or the error when the run has no shader at all. */
static int check_found(struct inputs *in, struct strbuf *err)
{
	bool none = !in->jobs.len && !in->filtered && !in->other_shards;
	for (size_t i = 0; i < in->roots.len; i++) {
		const struct input_root *r = &in->roots.data[i];
		if (!r->no_shader)
			continue;
		if (none) {
			strbuf_addf(err, "no shader under '%s' (%zu files of unknown kind)", r->arg,
				    r->ignored);
			return -1;
		}
		warning("no shader under '%s' (%zu files of unknown kind)", r->arg, r->ignored);
	}
	return 0;
}

static int cmp_jobs(const void *a, const void *b)
{
	const struct job *x = a, *y = b;
	int c = path_cmp(x->path, y->path);
	return c ? c : (x->root > y->root) - (x->root < y->root);
}

/* Sort; a path met twice is one file (named twice, or named and walked):
 * paths are relative to one folder, or each starts with its input. */
static void sort_jobs(struct inputs *in)
{
	array_sort(&in->jobs, cmp_jobs);
	size_t n = 0;
	for (size_t i = 0; i < in->jobs.len; i++)
		if (!n || strcmp(in->jobs.data[n - 1].path, in->jobs.data[i].path))
			in->jobs.data[n++] = in->jobs.data[i];
	in->jobs.len = n;
}

int inputs_collect(struct inputs *in, char *const *args, size_t nargs,
		   const struct input_filter *f, const struct manifest *manifest,
		   const struct compile_options *opts, bool programs, struct strbuf *err)
{
	int ret = 0;

	memset(in, 0, sizeof(*in));
	arena_init(&in->arena);
	in->cwd_root = -1;
	in->as_given = nargs > 1;
	in->filter = f;
	in->manifest = manifest;
	in->opts = opts;
	in->programs = programs && opts;
	in->md = pcre2_match_data_create(1, NULL);
	for (size_t i = 0; i < nargs && !ret; i++)
		ret = add_arg(in, args[i], err);
	pcre2_match_data_free(in->md);
	in->md = NULL;
	strmap_release(&in->seen_dirs);
	if (!ret)
		ret = check_found(in, err);
	if (!ret)
		sort_jobs(in);
	return ret;
}

void inputs_release(struct inputs *in)
{
	for (size_t i = 0; i < in->roots.len; i++)
		if (in->roots.data[i].dirfd >= 0)
			close(in->roots.data[i].dirfd);
	array_free(&in->roots);
	array_free(&in->jobs);
	strmap_release(&in->seen_dirs);
	arena_release(&in->arena);
}

uint64_t inputs_digest(const struct inputs *in)
{
	uint64_t h = hash_u64(in->jobs.len);
	for (size_t i = 0; i < in->jobs.len; i++)
		h = hash_u64(h ^ hash_bytes(in->jobs.data[i].path, strlen(in->jobs.data[i].path)));
	return h;
}
