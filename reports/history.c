/*
 * The history: the run folders under HISTORY (report.h).
 *
 *	HISTORY/night-001/run.json, stats.jsonl[, asm.pack]
 *	HISTORY/night-002/…
 *
 * Every sub-folder that holds a run.json or a stats.jsonl is a run; names
 * starting with "." and plain files are passed over.  Runs are ordered by
 * run.json's date (ISO 8601 strings compare as dates; a run without one comes
 * first), then label, then folder name, so the order never depends on the
 * file system.  A folder that is not a run, a run.json that does not parse,
 * an unfinished run are warnings; a run without stats.jsonl is an error and
 * is left out.
 */
#include "reports/report.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/util/file.h"
#include "stats/options.h"
#include "stats/asm_pack.h"

static char *join(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/%s", dir, name);
	return strbuf_detach(&sb, NULL);
}

static bool exists(const char *dir, const char *name)
{
	char *path = join(dir, name);
	bool yes = access(path, F_OK) == 0;
	free(path);
	return yes;
}

static char *json_str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? xstrdup(s) : NULL;
}

/* Fill label, date, commit and status from run.json. */
static void read_meta(struct history_run *hr, struct diag *diag)
{
	char *path = join(hr->dir, "run.json");
	json_error_t err;
	json_t *meta = json_load_file(path, 0, &err);
	if (!meta && exists(hr->dir, "run.json"))
		diag_warning(diag, path, err.line, err.column, "%s; the run has no date and is "
			     "named after its folder", err.text);
	else if (meta && !json_is_object(meta))
		diag_warning(diag, path, 0, 0, "not a JSON object; the run has no date and is "
			     "named after its folder");
	if (json_is_object(meta)) {
		hr->label = json_str(meta, "label");
		hr->date = json_str(meta, "date");
		hr->commit = json_str(meta, "git_commit");
		hr->status = json_str(meta, "status");
		json_t *roots = json_object_get(meta, "corpus_roots");
		for (size_t i = 0; i < json_array_size(roots); i++)
			if (json_is_string(json_array_get(roots, i)))
				array_push(&hr->roots, xstrdup(json_string_value(json_array_get(roots, i))));
	}
	if (hr->status && strcmp(hr->status, "complete"))
		diag_warning(diag, path, 0, 0, "the run is '%s', not complete; its records are "
			     "used as they are", hr->status);
	if (!hr->label)
		hr->label = xstrdup(hr->name);
	json_decref(meta);
	free(path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_runs(const void *a, const void *b)
{
	const struct history_run *x = a, *y = b;
	int d = strcmp(x->date ? x->date : "", y->date ? y->date : "");
	if (!d)
		d = strcmp(x->label, y->label);
	return d ? d : strcmp(x->name, y->name);
}

/* The entries of `root` worth looking at, sorted by name. */
static int list_folder(const char *root, string_list *names, struct diag *diag)
{
	DIR *d = opendir(root);
	if (!d) {
		diag_error(diag, root, 0, 0, "cannot read the history: %s", strerror(errno));
		return -1;
	}
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			array_push(names, xstrdup(e->d_name));
	closedir(d);
	if (names->len > 1)
		qsort(names->data, names->len, sizeof(char *), cmp_str);
	return 0;
}

/* One entry of the history folder: a run, or a message. */
static void add_entry(struct history *h, const char *name, struct diag *diag)
{
	char *dir = join(h->root, name);
	bool meta = exists(dir, "run.json"), stats = exists(dir, "stats.jsonl");
	if (!is_directory(dir)) {
		free(dir);
		return;
	}
	if (!stats) {
		if (meta)
			diag_error(diag, dir, 0, 0, "a run without stats.jsonl; left out");
		else
			diag_warning(diag, dir, 0, 0, "not a run (no run.json, no stats.jsonl); "
				     "left out");
		free(dir);
		return;
	}
	struct history_run *hr = array_push_zero(&h->runs);
	hr->dir = dir;
	hr->name = xstrdup(name);
	hr->has_asm = exists(dir, ASM_PACK_FILE);
	read_meta(hr, diag);
}

int history_scan(struct history *h, const char *root, struct diag *diag)
{
	string_list names = ARRAY_INIT;
	memset(h, 0, sizeof(*h));
	h->root = root;
	if (list_folder(root, &names, diag) < 0)
		return -1;
	for (size_t i = 0; i < names.len; i++) {
		add_entry(h, names.data[i], diag);
		free(names.data[i]);
	}
	array_free(&names);
	if (h->runs.len > 1)
		qsort(h->runs.data, h->runs.len, sizeof(struct history_run), cmp_runs);
	if (!h->runs.len)
		diag_error(diag, root, 0, 0, "no runs in the history (a run is a folder with "
			   "run.json and stats.jsonl, as shdb run writes)");
	return 0;
}

void history_release(struct history *h)
{
	for (size_t i = 0; i < h->runs.len; i++) {
		struct history_run *hr = &h->runs.data[i];
		free(hr->dir);
		free(hr->name);
		free(hr->label);
		free(hr->date);
		free(hr->commit);
		string_list_free(&hr->roots);
		free(hr->status);
	}
	array_free(&h->runs);
}

static void replace(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

int history_load(const struct history *h, size_t i, struct run *run, struct diag *diag)
{
	const struct history_run *hr = &h->runs.data[i];
	char *file = join(hr->dir, "stats.jsonl");
	run_init(run);
	if (is_directory(file)) {
		diag_error(diag, file, 0, 0, "not a file");
		free(file);
		return -1;
	}
	int ret = run_load(run, file, NULL, diag);
	run->source = hr->dir;
	replace(&run->label, hr->label);
	replace(&run->date, hr->date);
	replace(&run->git_commit, hr->commit);
	free(file);
	return ret;
}
