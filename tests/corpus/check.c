/*
 * make corpus-check: every unit of ../shared/corpus (manifest.tsv) through
 * the front end in worker processes with a time limit per unit, so that a
 * crash or a hang in glslang or in our code is counted, not fatal (a dead
 * worker is replaced; workers live across units so glslang builds its
 * built-in tables once each).  It prints a table per corpus folder and the
 * failures grouped by message, and exits 1 when any unit crashed or hung.
 *
 *	corpus-check [-j JOBS] [-t SECONDS] [-v] [CORPUS_DIR]
 *
 * -v also lists every failure (FAIL) and every unit compiled in another
 * mode than the manifest's (MODE).  Columns (rows with units > 0):
 *   units        GLSL and HLSL units
 *   glslang      how many of them the manifest says glslang compiled
 *   auto         how many we turned into SPIR-V with --glsl-mode=auto
 *   of-glslang   auto ∩ glslang
 *   manifest     ok / run with the manifest's GLSL mode forced (vk11, vk13,
 *                vkrelaxed rows only)
 *   same-mode    units auto compiled the way the manifest names (vk11 for
 *                vk11, legacy for override140…)
 *   legacy       units auto sent through the legacy path: ok / taken
 *   spv, spvasm  precompiled and spirv-as files accepted: ok / files
 *   crash, hang  units whose worker died of a signal or ran out of time
 *
 * Include directories: each folder's directories named "includes" and
 * their subdirectories (Vulkan-Samples keeps lighting.h there).
 *
 * -c DIR adds a collection of shdb's own (tests/collections, a Fossilize
 * database built beside it): every file of a kind shdb reads, each of its
 * programs (front.h) through the front end, the reader and the optimisation
 * loop, tabled per format — files, programs, units, units made SPIR-V, units
 * that reach the backend (valid IR after the loop), the front end's time per
 * unit.  Every unit of the collection must reach the backend.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler/front/front.h"
#include "compiler/front/multistage.h"
#include "compiler/ir/interp.h"
#include "compiler/ir/ir.h"
#include "compiler/opt/opt.h"
#include "compiler/spirv/spirv.h"
#include "compiler/util/file.h"

struct row {
	char *folder, *path, *kind, *stages, *mode;
	int units, units_compiled;
	bool collection;	/* of -c DIR: folder is the format, path under DIR */
};

/* What a child reports through its pipe. */
struct outcome {
	int units, ok;			/* --glsl-mode=auto */
	int ok_forced;			/* with the manifest's mode forced; -1: not run */
	int ir_ok;			/* units made valid IR that passed the optimisation loop */
	int interp_run, interp_ok;	/* fragment and compute units run by the interpreter */
	int programs;			/* a collection file's programs */
	double front_ms;		/* a collection file's front end, all units */
	char how[16];
	char message[232];		/* the first front-end failure */
	char ir_message[232];		/* the first SPIR-V → IR or optimisation failure */
	char interp_message[160];	/* the first interpreter error */
};

enum fate { FATE_DONE, FATE_CRASH, FATE_HANG };

struct result {
	enum fate fate;
	int signal;
	struct outcome o;
};

struct folder_stats {
	const char *name;
	int units, glslang, ok, ok_of_glslang, forced, forced_run, same_mode;
	int legacy, legacy_ok, spv, spv_ok, spvasm, spvasm_ok, crash, hang;
	int hlsl_sniffed, hlsl_units;
	/* SPIR-V → IR and the optimisation loop */
	int ir_glslang;			/* units glslang compiles that became IR */
	int legacy_ir;			/* legacy units that became IR */
	int spv_ir, spv_unsup, spv_other, spvasm_ir, spvasm_unsup, spvasm_other;
	int interp_run, interp_ok;	/* fragment and compute units */
};

typedef ARRAY(struct folder_stats) folder_array;

static ARRAY(struct row) rows;
static ARRAY(char *) include_dirs;
static const char *collection_dir;	/* -c DIR */

static char *field(char **p)
{
	char *start = *p, *tab = strchr(start, '\t');
	if (tab) {
		*tab = '\0';
		*p = tab + 1;
	} else {
		*p = start + strlen(start);
	}
	return start;
}

static int load_manifest(const char *corpus)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_addf(&path, "%s/manifest.tsv", corpus);
	if (read_file(path.buf, &data, &err) < 0) {
		fprintf(stderr, "corpus-check: %s\n", err.buf);
		return -1;
	}
	char *save = NULL;
	for (char *line = strtok_r(data.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *f[11];
		for (int i = 0; i < 11; i++)
			f[i] = field(&p);
		if (!strcmp(f[0], "repo"))
			continue;
		struct row r = {
			.folder = xstrdup(f[0]), .path = xstrdup(f[2]), .kind = xstrdup(f[3]),
			.stages = xstrdup(f[4]), .mode = xstrdup(f[8]),
			.units = atoi(f[6]), .units_compiled = atoi(f[7]),
		};
		for (char *c = r.folder; *c; c++)
			if (*c == '/')
				*c = '-';
		array_push(&rows, r);
	}
	strbuf_release(&path);
	strbuf_release(&data);
	strbuf_release(&err);
	return 0;
}

/* Directories named "includes" under `dir`, and their subdirectories. */
static void find_include_dirs(const char *dir, int depth, bool inside)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d || depth > 8) {
		if (d)
			closedir(d);
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", dir, e->d_name);
		bool is_inc = !strcmp(e->d_name, "includes");
		if (is_directory(path.buf)) {
			if (is_inc || inside)
				array_push(&include_dirs, xstrdup(path.buf));
			find_include_dirs(path.buf, depth + 1, is_inc);
		}
		strbuf_release(&path);
	}
	closedir(d);
}

static bool compiles(const struct row *r)
{
	return !strcmp(r->kind, "glsl") || !strcmp(r->kind, "hlsl");
}

static bool wanted(const struct row *r)
{
	return r->collection || (r->units > 0 && (compiles(r) || !strcmp(r->kind, "spv") || !strcmp(r->kind, "spvasm")));
}

/* A unit of the shared corpus (not of -c DIR). */
static bool corpus_row(const struct row *r)
{
	return !r->collection && wanted(r);
}

/* The manifest's GLSL mode as ours, or -1 when it names none. */
static int forced_mode(const char *mode)
{
	const char *m = strncmp(mode, "incext+", 7) ? mode : mode + 7;
	if (!strcmp(m, "vk11") || !strcmp(m, "vk13"))
		return GLSL_MODE_VULKAN;
	if (!strcmp(m, "vkrelaxed"))
		return GLSL_MODE_RELAXED;
	return -1;
}

/* The interpreter on random inputs: it must know every instruction (a
 * step limit or undefined behaviour on random inputs is no failure). */
static void interp_check(struct shader *s, struct outcome *o)
{
	struct interp_inputs *in = interp_inputs_random(s, 1);
	struct interp_result *res = interp_run(s, in, NULL);
	o->interp_run++;
	if (res->status != INTERP_ERROR)
		o->interp_ok++;
	else if (!o->interp_message[0])
		snprintf(o->interp_message, sizeof(o->interp_message), "%s", res->message);
	interp_result_free(res);
	interp_inputs_free(in);
}

/* SPIR-V → IR, validation, then lower_vars_to_ssa and the optimisation
 * loop with the validator after every pass. */
/* A message kept for the tables, without the file name it starts with, so
 * that it (and the cause it is grouped by) does not depend on where the
 * corpus lives. */
static void keep_message(char *out, size_t size, const char *msg, const char *file)
{
	size_t flen = strlen(file);
	if (!strncmp(msg, file, flen) && msg[flen] == ':')
		msg += flen + 1 + (msg[flen + 1] == ' ');
	snprintf(out, size, "%s", msg);
}

static bool ir_check(const struct spirv_unit *u, const char *file, struct outcome *o)
{
	struct diag d = DIAG_INIT;
	struct spirv_options so = { .entry = u->entry, .stage = u->stage };
	struct shader *s = spirv_to_ir(u->words, u->num_words, &so, file, &d);
	bool ok = false;
	if (s && !ir_validate(s, &d, file)) {
		diag_error(&d, file, 0, 0, "internal error: the SPIR-V reader made invalid IR");
	} else if (s) {
		struct pipeline pl;
		bool progress = false;
		pipeline_init(&pl, s, &d, file);
		/* validated after every pass, and a pass that reports no
		 * progress must leave the shader as it was */
		pl.validate = pl.check_progress = true;
		PASS(progress, &pl, lower_vars_to_ssa);
		opt_default(&pl);
		ok = !pl.failed;
		pipeline_release(&pl);
		(void)progress;
		if (ok && (s->stage == STAGE_FRAGMENT || s->stage == STAGE_COMPUTE))
			interp_check(s, o);
	}
	if (!ok && !o->ir_message[0]) {
		struct strbuf first = STRBUF_INIT;
		const char *msg = diag_first_error(&d, &first);
		/* an internal error names the check that failed; the first line may be the pass */
		const char *internal = strstr(d.text.buf, "internal error");
		keep_message(o->ir_message, sizeof(o->ir_message), internal ? internal : msg, file);
		char *nl = strchr(o->ir_message, '\n');
		if (nl)
			*nl = '\0';
		strbuf_release(&first);
	}
	shader_free(s);
	diag_release(&d);
	return ok;
}

/* One front-end run; fills units/ok and, for the first failure, message. */
static int run_front(const struct row *r, const char *file, const char *data, size_t len,
		     enum glsl_mode mode, bool ir, struct outcome *o)
{
	struct compile_options opts;
	struct program p;
	enum shader_stage stage;
	enum input_kind kind = input_kind_from_path(file, &stage);
	int ok = 0;

	compile_options_init(&opts);
	opts.glsl_mode = mode;
	for (size_t i = 0; i < include_dirs.len; i++)
		if (!strncmp(include_dirs.data[i], file, strlen(file) - strlen(r->path)))
			array_push(&opts.include_dirs, include_dirs.data[i]);
	if (kind == INPUT_UNKNOWN)	/* "x.asm", ".cont"/".eval" tessellation… */
		kind = !strcmp(r->kind, "hlsl") ? INPUT_HLSL : !strcmp(r->kind, "spv") ? INPUT_SPIRV :
		       !strcmp(r->kind, "spvasm") ? INPUT_SPVASM : INPUT_GLSL;
	if (stage == STAGE_NONE)
		stage = stage_from_extension(r->stages);

	program_init(&p, file);
	front_compile(&p, data, len, kind, stage, &opts);
	o->units = (int)p.units.len;
	for (size_t i = 0; i < p.units.len; i++) {
		struct spirv_unit *u = &p.units.data[i];
		if (u->status == RESULT_OK) {
			ok++;
			if (ir)
				o->ir_ok += ir_check(u, file, o);
		}
		else if (!o->message[0]) {
			struct strbuf first = STRBUF_INIT;
			keep_message(o->message, sizeof(o->message), diag_first_error(&u->diag, &first), file);
			strbuf_release(&first);
		}
		if (i == 0 && u->how)
			snprintf(o->how, sizeof(o->how), "%s", u->how);
	}
	program_release(&p);
	compile_options_release(&opts);
	return ok;
}

static double now(void);

/* The include directories under `root` (find_include_dirs()) for a compile. */
static void add_include_dirs(struct compile_options *opts, const char *root)
{
	for (size_t i = 0; i < include_dirs.len; i++)
		if (!strncmp(include_dirs.data[i], root, strlen(root)))
			array_push(&opts->include_dirs, include_dirs.data[i]);
}

/* One program of a collection file: the front end, then each unit's IR. */
static void run_program(const char *file, const char *data, size_t len, enum input_kind kind,
			enum shader_stage stage, const struct front_program *fp,
			struct compile_options *opts, struct outcome *o)
{
	struct program p;
	enum shader_stage s = fp->stage != STAGE_NONE ? fp->stage : stage;
	opts->program = fp->name;
	opts->entry = fp->entry;
	/* once untimed: glslang builds its tables for a stage and version the
	 * first time it meets them, which a runner's worker does once */
	program_init(&p, file);
	front_compile(&p, data, len, kind, s, opts);
	program_release(&p);
	program_init(&p, file);
	double t = now();
	front_compile(&p, data, len, kind, s, opts);
	o->front_ms += (now() - t) * 1e3;
	o->units += (int)p.units.len;
	for (size_t i = 0; i < p.units.len; i++) {
		struct spirv_unit *u = &p.units.data[i];
		if (u->status == RESULT_OK) {
			o->ok++;
			o->ir_ok += ir_check(u, file, o);
		} else if (!o->message[0]) {
			struct strbuf first = STRBUF_INIT;
			keep_message(o->message, sizeof(o->message), diag_first_error(&u->diag, &first),
				     file);
			strbuf_release(&first);
		}
	}
	program_release(&p);
}

/* A file of -c DIR: every program it holds. */
static void run_collection(const struct row *r, struct outcome *o)
{
	struct strbuf file = STRBUF_INIT, err = STRBUF_INIT;
	struct compile_options opts;
	struct front_programs progs;
	struct diag d = DIAG_INIT;
	struct file_map m;
	enum shader_stage stage;
	enum input_kind kind = input_kind_from_path(r->path, &stage);

	compile_options_init(&opts);
	add_include_dirs(&opts, collection_dir);
	strbuf_addf(&file, "%s/%s", collection_dir, r->path);
	if (file_map(file.buf, &m, &err) < 0) {
		snprintf(o->message, sizeof(o->message), "%s", err.buf);
	} else if (front_list_programs(file.buf, m.data, m.len, kind, stage, &opts, &progs, &d) < 0) {
		keep_message(o->message, sizeof(o->message), d.text.buf, file.buf);
		front_programs_release(&progs);
	} else {
		o->programs = (int)progs.list.len;
		for (size_t i = 0; i < progs.list.len; i++)
			run_program(file.buf, m.data, m.len, kind, stage, &progs.list.data[i], &opts, o);
		front_programs_release(&progs);
	}
	file_unmap(&m);
	compile_options_release(&opts);
	diag_release(&d);
	strbuf_release(&file);
	strbuf_release(&err);
}

static void run_one(const struct row *r, const char *corpus, struct outcome *o)
{
	struct strbuf file = STRBUF_INIT, data = STRBUF_INIT, err = STRBUF_INIT;

	memset(o, 0, sizeof(*o));
	o->ok_forced = -1;
	if (r->collection) {
		run_collection(r, o);
		return;
	}
	strbuf_addf(&file, "%s/%s/%s", corpus, r->folder, r->path);
	if (read_file(file.buf, &data, &err) < 0) {
		snprintf(o->message, sizeof(o->message), "%s", err.buf);
	} else {
		o->ok = run_front(r, file.buf, data.buf, data.len, GLSL_MODE_AUTO, true, o);
		int m = forced_mode(r->mode);
		if (compiles(r) && m >= 0) {
			struct outcome forced = { 0 };
			o->ok_forced = run_front(r, file.buf, data.buf, data.len, (enum glsl_mode)m,
						 false, &forced);
		}
	}
	strbuf_release(&file);
	strbuf_release(&data);
	strbuf_release(&err);
}

static bool read_all(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, (char *)buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	return true;
}

/* A worker: row indices in, outcomes out, until its input closes.  Workers
 * live across units so glslang's built-in tables are built once each. */
static void worker(const char *corpus, int in, int out)
{
	size_t row;
	struct outcome o;
	while (read_all(in, &row, sizeof(row))) {
		run_one(&rows.data[row], corpus, &o);
		if (write(out, &o, sizeof(o)) != (ssize_t)sizeof(o))
			break;
	}
	_exit(0);
}

struct slot {
	pid_t pid;
	int to, from;
	size_t row;		/* SIZE_MAX: idle */
	double start;
	size_t got;
	struct outcome o;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void start_worker(struct slot *slots, int jobs, struct slot *s, const char *corpus)
{
	int down[2], up[2];
	if (pipe(down) < 0 || pipe(up) < 0) {
		perror("corpus-check: pipe");
		exit(2);
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("corpus-check: fork");
		exit(2);
	}
	if (pid == 0) {
		close(down[1]);
		close(up[0]);
		for (int i = 0; i < jobs; i++) {	/* the other workers' pipes */
			if (slots[i].pid && &slots[i] != s) {
				close(slots[i].to);
				close(slots[i].from);
			}
		}
		worker(corpus, down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);
	*s = (struct slot){ .pid = pid, .to = down[1], .from = up[0], .row = SIZE_MAX };
}

/* The worker died or was killed: reap it; its unit crashed or hung. */
static void lose_worker(struct slot *s, struct result *res, enum fate fate)
{
	int status = 0;
	if (fate == FATE_HANG)
		kill(s->pid, SIGKILL);
	close(s->to);
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	close(s->from);
	res[s->row].fate = fate;
	res[s->row].signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	s->pid = 0;
}

static void stop_worker(struct slot *s)
{
	int status;
	close(s->to);
	close(s->from);
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
}

static void assign(struct slot *slots, int jobs, struct slot *s, size_t row, const char *corpus)
{
	if (!s->pid)
		start_worker(slots, jobs, s, corpus);
	s->row = row;
	s->got = 0;
	s->start = now();
	if (write(s->to, &row, sizeof(row)) != (ssize_t)sizeof(row)) {
		perror("corpus-check: write");
		exit(2);
	}
}

/* Input from a busy worker: more of its outcome, or its death. */
static void collect(struct slot *s, struct result *res)
{
	ssize_t n = read(s->from, (char *)&s->o + s->got, sizeof(s->o) - s->got);
	if (n <= 0) {
		if (n < 0 && errno == EINTR)
			return;
		lose_worker(s, res, FATE_CRASH);
		return;
	}
	s->got += (size_t)n;
	if (s->got == sizeof(s->o)) {
		res[s->row].fate = FATE_DONE;
		res[s->row].o = s->o;
		s->row = SIZE_MAX;
	}
}

static void run_all(const char *corpus, int jobs, double limit, struct result *res)
{
	struct slot *slots = xcalloc((size_t)jobs, sizeof(*slots));
	struct pollfd *pfd = xcalloc((size_t)jobs, sizeof(*pfd));
	size_t next = 0;

	signal(SIGPIPE, SIG_IGN);
	for (int i = 0; i < jobs; i++)
		slots[i].row = SIZE_MAX;
	for (;;) {
		int busy = 0;
		for (int i = 0; i < jobs; i++) {
			while (next < rows.len && !wanted(&rows.data[next]))
				next++;
			if (slots[i].row == SIZE_MAX && next < rows.len)
				assign(slots, jobs, &slots[i], next++, corpus);
			busy += slots[i].row != SIZE_MAX;
			pfd[i].fd = slots[i].row != SIZE_MAX ? slots[i].from : -1;
			pfd[i].events = POLLIN;
		}
		if (!busy)
			break;
		poll(pfd, (nfds_t)jobs, 100);
		for (int i = 0; i < jobs; i++) {
			struct slot *s = &slots[i];
			if (s->row == SIZE_MAX)
				continue;
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) {
				collect(s, res);
				if (!s->pid)
					s->row = SIZE_MAX;
			} else if (now() - s->start > limit) {
				lose_worker(s, res, FATE_HANG);
				s->row = SIZE_MAX;
			}
		}
	}
	for (int i = 0; i < jobs; i++)
		if (slots[i].pid)
			stop_worker(&slots[i]);
	free(slots);
	free(pfd);
}

static struct folder_stats *stats_for(folder_array *all, const char *name)
{
	for (size_t i = 0; i < all->len; i++)
		if (!strcmp(all->data[i].name, name))
			return &all->data[i];
	struct folder_stats *f = array_push_zero(all);
	f->name = name;
	return f;
}

/* Our "how" against the manifest's mode: the same way of compiling? */
static bool same_mode(const char *how, const char *mode)
{
	const char *m = strncmp(mode, "incext+", 7) ? mode : mode + 7;
	return !strcmp(how, m) || (!strcmp(how, "hlsl") && !strcmp(m, "hlsl-vk11")) ||
	       (!strcmp(how, "legacy") && !strcmp(m, "override140")) ||
	       (!strcmp(how, "legacy-es") && !strcmp(m, "override310es"));
}

static void count(struct folder_stats *f, const struct row *r, const struct result *res)
{
	const struct outcome *o = &res->o;
	bool done = res->fate == FATE_DONE, ok = done && o->units && o->ok == o->units;

	bool ir_ok = ok && o->ir_ok == o->units;
	bool unsup = strstr(o->ir_message, "unsupported: ") != NULL;
	f->interp_run += o->interp_run;
	f->interp_ok += o->interp_ok;
	f->crash += res->fate == FATE_CRASH;
	f->hang += res->fate == FATE_HANG;
	if (!strcmp(r->kind, "spv")) {
		f->spv++;
		f->spv_ok += ok;
		f->spv_ir += ir_ok;
		f->spv_unsup += ok && !ir_ok && unsup;
		f->spv_other += ok && !ir_ok && !unsup;
		return;
	}
	if (!strcmp(r->kind, "spvasm")) {
		f->spvasm++;
		f->spvasm_ok += ok;
		f->spvasm_ir += ir_ok;
		f->spvasm_unsup += ok && !ir_ok && unsup;
		f->spvasm_other += ok && !ir_ok && !unsup;
		return;
	}
	if (done)
		f->ir_glslang += o->ir_ok < r->units_compiled ? o->ir_ok : r->units_compiled;
	f->units += r->units;
	f->glslang += r->units_compiled;
	f->ok += ok;
	f->ok_of_glslang += ok && r->units_compiled;
	if (done && o->ok_forced >= 0) {
		f->forced_run++;
		f->forced += o->ok_forced == o->units;
	}
	f->same_mode += ok && same_mode(o->how, r->mode);
	if (done && !strncmp(o->how, "legacy", 6)) {
		f->legacy++;
		f->legacy_ok += ok;
		f->legacy_ir += ir_ok;
	}
	if (!strcmp(r->kind, "hlsl")) {
		f->hlsl_units++;
		f->hlsl_sniffed += done && !strcmp(o->how, "hlsl");
	}
}

static void print_row(const struct folder_stats *f)
{
	char legacy[16], spv[16], spvasm[16], forced[16];
	snprintf(forced, sizeof(forced), "%d/%d", f->forced, f->forced_run);
	snprintf(legacy, sizeof(legacy), "%d/%d", f->legacy_ok, f->legacy);
	snprintf(spv, sizeof(spv), "%d/%d", f->spv_ok, f->spv);
	snprintf(spvasm, sizeof(spvasm), "%d/%d", f->spvasm_ok, f->spvasm);
	printf("%-28s %6d %7d %6d %10d %9s %9d %7s %9s %8s %5d %4d\n", f->name, f->units,
	       f->glslang, f->ok, f->ok_of_glslang, forced, f->same_mode, legacy, spv, spvasm,
	       f->crash, f->hang);
}

static void print_ir_row(const struct folder_stats *f)
{
	char legacy[16], spv[24], spvasm[24], interp[24];
	snprintf(legacy, sizeof(legacy), "%d/%d", f->legacy_ir, f->legacy);
	snprintf(interp, sizeof(interp), "%d/%d", f->interp_ok, f->interp_run);
	snprintf(spv, sizeof(spv), "%d/%d/%d", f->spv_ir, f->spv_unsup, f->spv_other);
	snprintf(spvasm, sizeof(spvasm), "%d/%d/%d", f->spvasm_ir, f->spvasm_unsup, f->spvasm_other);
	printf("%-28s %7d %7d %7.2f%% %7s %14s %14s %11s\n", f->name, f->glslang, f->ir_glslang,
	       f->glslang ? 100.0 * f->ir_glslang / f->glslang : 100.0, legacy, spv, spvasm, interp);
}

static void print_ir_table(folder_array *all, const struct folder_stats *total)
{
	printf("\nSPIR-V → IR, validated, then lower_vars_to_ssa and the optimisation loop with "
	       "the validator after every pass\n");
	printf("%-28s %7s %7s %8s %7s %14s %14s %11s\n", "folder", "glslang", "ir", "ir%", "legacy",
	       "spv ok/uns/bad", "asm ok/uns/bad", "interp");
	for (size_t i = 0; i < all->len; i++)
		print_ir_row(&all->data[i]);
	print_ir_row(total);
	printf("\nof the units glslang compiles, %d/%d (%.2f%%) became valid IR and passed the "
	       "optimisation loop; the interpreter ran %d/%d fragment and compute units without an "
	       "instruction it lacks\n", total->ir_glslang, total->glslang,
	       total->glslang ? 100.0 * total->ir_glslang / total->glslang : 100.0,
	       total->interp_ok, total->interp_run);
}

static void print_table(const struct result *res, struct folder_stats *out_total)
{
	folder_array all = ARRAY_INIT;
	struct folder_stats total = { .name = "total" };

	for (size_t i = 0; i < rows.len; i++)
		if (corpus_row(&rows.data[i])) {
			count(stats_for(&all, rows.data[i].folder), &rows.data[i], &res[i]);
			count(&total, &rows.data[i], &res[i]);
		}
	printf("%-28s %6s %7s %6s %10s %9s %9s %7s %9s %8s %5s %4s\n", "folder", "units",
	       "glslang", "auto", "of-glslang", "manifest", "same-mode", "legacy", "spv",
	       "spvasm", "crash", "hang");
	for (size_t i = 0; i < all.len; i++)
		print_row(&all.data[i]);
	print_row(&total);
	printf("\nof the units glslang compiles, auto made SPIR-V of %d/%d (%.2f%%); "
	       "HLSL told from GLSL by content: %d/%d\n", total.ok_of_glslang, total.glslang,
	       total.glslang ? 100.0 * total.ok_of_glslang / total.glslang : 0.0,
	       total.hlsl_sniffed, total.hlsl_units);
	print_ir_table(&all, &total);
	*out_total = total;
	array_free(&all);
}

/* "x.frag:12: error: 'foo' : undeclared identifier" → "'…' : undeclared identifier" */
static void cause_of(const char *msg, char *out, size_t size)
{
	const char *e = strstr(msg, "error: ");
	const char *p = e ? e + 7 : msg;
	size_t n = 0;
	while (*p && n + 4 < size && n < 90) {
		if (*p == '\'') {
			const char *close = strchr(p + 1, '\'');
			if (close) {
				memcpy(out + n, "'…'", 5);
				n += 5;
				p = close + 1;
				continue;
			}
		}
		out[n++] = *p++;
	}
	out[n] = '\0';
}

/* Failures grouped by cause, each with its first example row. */
struct group {
	char cause[128];
	int count;
	size_t example;
};
typedef ARRAY(struct group) group_array;

static void group_add(group_array *groups, const char *cause, size_t row)
{
	size_t g;
	for (g = 0; g < groups->len && strcmp(groups->data[g].cause, cause); g++)
		;
	if (g == groups->len) {
		struct group *ng = array_push_zero(groups);
		snprintf(ng->cause, sizeof(ng->cause), "%s", cause);
		ng->example = row;
	}
	groups->data[g].count++;
}

/* The groups, largest first, then freed. */
static void groups_print(const char *title, group_array *groups)
{
	printf("\n%s (%zu causes):\n", title, groups->len);
	for (size_t pass = 0; pass < groups->len; pass++) {
		size_t best = 0;
		for (size_t g = 1; g < groups->len; g++)
			if (groups->data[g].count > groups->data[best].count)
				best = g;
		struct group *b = &groups->data[best];
		if (b->count < 0)
			break;
		printf("%5d  %s   (e.g. %s/%s)\n", b->count, b->cause, rows.data[b->example].folder,
		       rows.data[b->example].path);
		b->count = -1;
	}
	array_free(groups);
}

static void print_failures(const struct result *res, bool verbose)
{
	group_array groups = ARRAY_INIT;

	for (size_t i = 0; i < rows.len; i++) {
		const struct row *r = &rows.data[i];
		const struct result *x = &res[i];
		bool ok = x->fate == FATE_DONE && x->o.units && x->o.ok == x->o.units;
		if (verbose && ok && compiles(r) && !same_mode(x->o.how, r->mode))
			printf("MODE %s/%s: %s, manifest %s\n", r->folder, r->path, x->o.how, r->mode);
		if (!corpus_row(r) || ok)
			continue;
		char cause[128];
		if (x->fate == FATE_CRASH)
			snprintf(cause, sizeof(cause), "CRASH (signal %d)", x->signal);
		else if (x->fate == FATE_HANG)
			snprintf(cause, sizeof(cause), "HANG");
		else
			cause_of(x->o.message, cause, sizeof(cause));
		if (verbose)
			printf("FAIL %s/%s [%s, manifest %s]: %s\n", r->folder, r->path, r->kind,
			       r->mode, x->fate == FATE_DONE ? x->o.message : cause);
		group_add(&groups, cause, i);
	}
	groups_print("failures by cause", &groups);
}

/* "x.frag: error: word 12: OpFoo: unsupported: …" → "OpFoo: unsupported: …", ids and
 * numbers replaced so that like failures group together. */
static void ir_cause(const char *msg, char *out, size_t size)
{
	const char *e = strstr(msg, "error: ");
	const char *p = e ? e + 7 : msg;
	size_t n = 0;
	if (!strncmp(p, "word ", 5)) {
		const char *colon = strchr(p, ':');
		if (colon)
			p = colon + 2;
	}
	while (*p && n + 4 < size && n < 100) {
		if ((*p == '%' || (*p >= '0' && *p <= '9')) && (n == 0 || out[n - 1] == ' ' ||
						     out[n - 1] == '%' || out[n - 1] == '(')) {
			while (*p == '%' || (*p >= '0' && *p <= '9'))
				p++;
			out[n++] = 'N';
			continue;
		}
		out[n++] = *p++;
	}
	out[n] = '\0';
}

static void print_ir_failures(const struct result *res, bool verbose)
{
	group_array groups = ARRAY_INIT;
	for (size_t i = 0; i < rows.len; i++) {
		const struct row *r = &rows.data[i];
		const struct result *x = &res[i];
		if (!corpus_row(r) || x->fate != FATE_DONE ||
		    (x->o.ir_ok == x->o.ok && x->o.interp_ok == x->o.interp_run))
			continue;
		char cause[128];
		if (x->o.ir_ok == x->o.ok)
			snprintf(cause, sizeof(cause), "interpreter: %.100s", x->o.interp_message);
		else
			ir_cause(x->o.ir_message, cause, sizeof(cause));
		if (verbose)
			printf("IRFAIL %s/%s: %s\n", r->folder, r->path, x->o.ir_message);
		group_add(&groups, cause, i);
	}
	groups_print("IR failures by cause", &groups);
}

/* ---- -c DIR: a collection of shdb's own ---- */

/* The format a collection file is in, as its table row names it. */
static const char *format_of(const char *path, const char *data, size_t len)
{
	enum shader_stage s;
	enum input_kind kind = input_kind_from_path(path, &s);
	enum multistage_kind multi = kind == INPUT_GLSL ? multistage_kind_of(path, data, len)
							: MULTI_NONE;
	if (multi == MULTI_PRAGMA)
		return "slang";
	if (multi == MULTI_DEFINES)
		return "retroarch glsl";
	if (kind == INPUT_FOZ)
		return "fossilize";
	return input_kind_name(kind);
}

static int cmp_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file under collection_dir/`rel` of a kind shdb reads, as a row. */
static void add_collection(const char *rel, int depth)
{
	struct strbuf dir = STRBUF_INIT;
	ARRAY(char *) names = ARRAY_INIT;
	strbuf_addf(&dir, "%s%s%s", collection_dir, *rel ? "/" : "", rel);
	DIR *d = depth < 16 ? opendir(dir.buf) : NULL;
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.')
			array_push(&names, xstrdup(e->d_name));
	if (d)
		closedir(d);
	qsort(names.data, names.len, sizeof(char *), cmp_paths);
	for (size_t i = 0; i < names.len; i++) {
		struct strbuf path = STRBUF_INIT, full = STRBUF_INIT, data = STRBUF_INIT;
		enum shader_stage s;
		strbuf_addf(&path, "%s%s%s", rel, *rel ? "/" : "", names.data[i]);
		strbuf_addf(&full, "%s/%s", collection_dir, path.buf);
		if (is_directory(full.buf)) {
			add_collection(path.buf, depth + 1);
		} else if (input_kind_from_path(path.buf, &s) != INPUT_UNKNOWN &&
			   read_file(full.buf, &data, NULL) == 0) {
			struct row r = { .folder = xstrdup(format_of(path.buf, data.buf, data.len)),
					 .path = strbuf_detach(&path, NULL), .kind = xstrdup("collection"),
					 .stages = xstrdup(""), .mode = xstrdup(""), .units = 1,
					 .collection = true };
			array_push(&rows, r);
		}
		strbuf_release(&path);
		strbuf_release(&full);
		strbuf_release(&data);
		free(names.data[i]);
	}
	array_free(&names);
	strbuf_release(&dir);
}

struct format_stats {
	const char *name;
	int files, programs, units, spirv, backend, crash, hang;
	double front_ms;
};

static void print_format_row(const struct format_stats *f)
{
	char reach[32];
	snprintf(reach, sizeof(reach), "%d (%.1f%%)", f->backend,
		 f->units ? 100.0 * f->backend / f->units : 0.0);
	printf("%-16s %5d %8d %5d %6d %15s %10.2f %5d %4d\n", f->name, f->files, f->programs,
	       f->units, f->spirv, reach, f->units ? f->front_ms / f->units : 0.0, f->crash,
	       f->hang);
}

/* The collection's table; returns how many of its units failed. */
static int print_collection(const struct result *res, bool verbose)
{
	ARRAY(struct format_stats) all = ARRAY_INIT;
	struct format_stats total = { .name = "total" };
	int failed = 0;

	for (size_t i = 0; i < rows.len; i++) {
		const struct row *r = &rows.data[i];
		const struct outcome *o = &res[i].o;
		if (!r->collection)
			continue;
		struct format_stats *f = NULL;
		for (size_t k = 0; k < all.len && !f; k++)
			if (!strcmp(all.data[k].name, r->folder))
				f = &all.data[k];
		if (!f) {
			f = array_push_zero(&all);
			f->name = r->folder;
		}
		bool done = res[i].fate == FATE_DONE;
		for (struct format_stats *x = f; x; x = x == &total ? NULL : &total) {
			x->files++;
			x->crash += res[i].fate == FATE_CRASH;
			x->hang += res[i].fate == FATE_HANG;
			x->programs += done ? o->programs : 0;
			x->units += done ? o->units : 0;
			x->spirv += done ? o->ok : 0;
			x->backend += done ? o->ir_ok : 0;
			x->front_ms += done ? o->front_ms : 0;
		}
		if (!done || !o->units || o->ir_ok < o->units) {
			failed++;
			printf("%s%s/%s: %s\n", verbose ? "FAIL " : "collection: ", collection_dir,
			       r->path, !done ? (res[i].fate == FATE_HANG ? "HANG" : "CRASH") :
			       o->message[0] ? o->message : o->ir_message);
		}
	}
	printf("\ncollection %s: each file's programs through the front end, the reader and the "
	       "optimisation loop\n", collection_dir);
	printf("%-16s %5s %8s %5s %6s %15s %10s %5s %4s\n", "format", "files", "programs", "units",
	       "spirv", "reach backend", "front ms/u", "crash", "hang");
	for (size_t i = 0; i < all.len; i++)
		print_format_row(&all.data[i]);
	print_format_row(&total);
	array_free(&all);
	return failed;
}

int main(int argc, char **argv)
{
	const char *corpus = getenv("SHDB_SHARED") ? NULL : "../shared/corpus";
	struct strbuf buf = STRBUF_INIT;
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), ch;
	double limit = 20;
	bool verbose = false;

	while ((ch = getopt(argc, argv, "c:j:t:v")) != -1) {
		switch (ch) {
		case 'c': collection_dir = optarg; break;
		case 'j': jobs = atoi(optarg); break;
		case 't': limit = atof(optarg); break;
		case 'v': verbose = true; break;
		default:
			fprintf(stderr, "usage: corpus-check [-c COLLECTION_DIR] [-j JOBS] [-t SECONDS] [-v] "
				"[CORPUS_DIR]\n");
			return 2;
		}
	}
	if (optind < argc) {
		corpus = argv[optind];
	} else if (!corpus) {
		strbuf_addf(&buf, "%s/corpus", getenv("SHDB_SHARED"));
		corpus = buf.buf;
	}
	if (jobs < 1)
		jobs = 1;
	bool have_corpus = is_directory(corpus);
	if (!have_corpus && !collection_dir) {
		printf("corpus-check: %s is absent; nothing to check\n", corpus);
		return 0;
	}
	if (have_corpus && load_manifest(corpus) < 0)
		return 2;
	if (have_corpus)
		find_include_dirs(corpus, 0, false);
	if (collection_dir) {
		add_collection("", 0);
		find_include_dirs(collection_dir, 0, false);
	}

	double start = now();
	struct result *res = xcalloc(rows.len + 1, sizeof(*res));
	run_all(corpus, jobs, limit, res);
	struct folder_stats total = { 0 };
	if (have_corpus) {
		print_table(res, &total);
		print_failures(res, verbose);
		print_ir_failures(res, verbose);
	} else {
		printf("corpus-check: %s is absent; only the collection\n", corpus);
	}
	int collection_failed = collection_dir ? print_collection(res, verbose) : 0;

	int crashes = 0;
	for (size_t i = 0; i < rows.len; i++)
		crashes += corpus_row(&rows.data[i]) && res[i].fate != FATE_DONE;
	bool low = total.glslang && total.ir_glslang * 100 < total.glslang * 99;
	int bad = total.spv_other + total.spvasm_other + total.interp_run - total.interp_ok;
	printf("\n%.1f s with %d jobs; %s%s%s%s\n", now() - start, jobs,
	       crashes ? "FAILED: units crashed or hung" : "no crash, no hang",
	       low ? "; FAILED: under 99% of the glslang units became IR" : "",
	       bad ? "; FAILED: SPIR-V files failed without naming an unsupported feature, or the "
		     "interpreter lacked an instruction" : "",
	       collection_failed ? "; FAILED: a file of the collection did not reach the backend" : "");
	free(res);
	return crashes || low || bad || collection_failed ? 1 : 0;
}
