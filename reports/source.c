/*
 * A shader's source for its page: where a record's path starts, and which
 * files may be shown.
 *
 * A record's path is relative to the run's one input folder, or (several
 * inputs, or files named on the command line) starts with the input as
 * given, relative to the folder the run was started from (runner/inputs.h).
 * So a path starts at
 *	--source DIR                          when given;
 *	the last run's input folder           when it had one input, a folder
 *	                                      found from here (run.json's corpus_roots);
 *	the current folder                    else.
 * A file is shown only when it lies under that run's inputs (under the start
 * itself when it had one input or run.json does not say): a history's
 * path ("../../etc/passwd") never brings another file into a page.  A
 * path "<file>/<program>" (an HLSL entry point, a database's pipeline)
 * shows its file.  Sources are read as they are when the report is made.
 */
#include "reports/report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/util/file.h"

#define MAX_SOURCE ((size_t)256 << 10)	/* bytes of a source shown */

static char *joined(const char *base, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(base);
	if (path[0] == '/' || !strcmp(base, "."))
		strbuf_addstr(&sb, path);
	else
		strbuf_addf(&sb, "%s%s%s", base, n && base[n - 1] == '/' ? "" : "/", path);
	return strbuf_detach(&sb, NULL);
}

static void allow(struct source_places *sp, const char *path)
{
	char *real = realpath(path, NULL);
	if (real)
		array_push(&sp->allowed, real);
}

void source_places_init(struct source_places *sp, const struct report *r)
{
	const struct history_run *h = hist_run(r, r->last);
	size_t nroots = h ? h->roots.len : 0;
	memset(sp, 0, sizeof(*sp));
	if (r->opts->source)
		sp->base = xstrdup(r->opts->source);
	else if (nroots == 1 && is_directory(h->roots.data[0]))
		sp->base = xstrdup(h->roots.data[0]);
	else
		sp->base = xstrdup(".");
	struct stat st;
	if (nroots == 1 && !r->opts->source && stat(h->roots.data[0], &st) == 0 &&
	    !S_ISDIR(st.st_mode))
		allow(sp, h->roots.data[0]);	/* one file named: its path as given */
	else if (nroots <= 1)
		allow(sp, sp->base);
	for (size_t i = 0; nroots > 1 && i < nroots; i++) {
		char *p = joined(sp->base, h->roots.data[i]);
		allow(sp, p);
		free(p);
	}
}

void source_places_release(struct source_places *sp)
{
	string_list_free(&sp->allowed);
	free(sp->base);
}

static bool allowed(const struct source_places *sp, const char *file)
{
	char *real = realpath(file, NULL);
	bool ok = false;
	for (size_t i = 0; real && !ok && i < sp->allowed.len; i++) {
		const char *a = sp->allowed.data[i];
		size_t n = strlen(a);
		ok = !strncmp(real, a, n) && (!real[n] || real[n] == '/' || !strcmp(a, "/"));
	}
	free(real);
	return ok;
}

static bool regular(const char *path, struct stat *st)
{
	return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

int source_find(const struct source_places *sp, const char *path, struct strbuf *file,
		struct strbuf *text, struct strbuf *why)
{
	struct stat st;
	char *f = joined(sp->base, path);
	strbuf_reset(file);
	strbuf_addstr(file, f);
	free(f);
	const char *slash = strrchr(file->buf, '/');
	if (!regular(file->buf, &st) && slash && slash != file->buf) {	/* <file>/<program> */
		size_t len = file->len;
		strbuf_setlen(file, (size_t)(slash - file->buf));
		if (!regular(file->buf, &st)) {
			file->buf[file->len] = '/';
			strbuf_setlen(file, len);
		}
	}
	if (!regular(file->buf, &st))
		return -1;
	if (!allowed(sp, file->buf)) {
		strbuf_addstr(why, "not under the run's inputs: not shown");
		return -2;
	}
	if ((size_t)st.st_size > MAX_SOURCE) {
		strbuf_addf(why, "%lld bytes, too long to show", (long long)st.st_size);
		return -2;
	}
	if (read_file(file->buf, text, why) < 0)
		return -2;
	if (memchr(text->buf, '\0', text->len)) {
		strbuf_addf(why, "a binary file of %zu bytes", text->len);
		return -2;
	}
	return 0;
}
