/*
 * shdb run: compile a corpus on a pool of worker processes and write the run
 * folder (rundir.h) in the canonical order.
 *
 * Canonical order: jobs (files) sorted by path (inputs.h); within a file,
 * records by stage in pipeline order (enum shader_stage; "none" first), then by
 * target in the order of the target list (the table's order for -t), records
 * without a target first.  Jobs start in that order; a reply can come back in
 * any order, so finished jobs wait in a window (a ring of WINDOW slots) until
 * every job before them is written.  The window bounds memory: no job starts
 * more than WINDOW files ahead of the oldest unwritten one, nor while the
 * waiting records pass WINDOW_BYTES (a hung file stalls the run for at most
 * --timeout seconds).
 *
 * A job that crashes or times out in a backend (the compiler's progress names
 * the target) gets a crash/timeout record for that target and starts again
 * for the targets left, so one target's crash does not hide the others'
 * statistics.  A crash or hang before any target (front end) is one record
 * without a target, as a front-end error is.
 *
 * --keep-asm: a worker compresses each result's disassembly and sends it after
 * the record; the writer appends it to DIR/asm.pack (stats/asm_pack.h) as it
 * writes the record, so the pack follows stats.jsonl's order.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compiler/util/cmdline.h"
#include "compiler/record.h"
#include "compiler/util/error.h"
#include "compiler/util/file.h"
#include "compiler/util/utf8.h"
#include "runner/extcc.h"
#include "runner/pool.h"
#include "runner/progress.h"
#include "runner/run.h"
#include "runner/rundir.h"
#include "runner/tally.h"
#include "stats/asm_pack.h"
#include "stats/json_text.h"

#define WINDOW 4096
#define WINDOW_BYTES ((size_t)64 << 20)
#define FLUSH_BYTES ((size_t)1 << 20)
#define MAX_TARGETS 64

struct rec {
	int stage;
	int target;		/* index in run.targets; -1: none */
	size_t seq;		/* arrival, to keep the sort stable */
	char *line;		/* the JSON record, without the newline */
	char *zasm;		/* --keep-asm: the compressed disassembly, or NULL */
	size_t zlen, asm_size;
};

struct slot {
	bool done;
	ARRAY(struct rec) recs;
	size_t bytes;
};

struct run {
	struct run_config *cfg;
	struct inputs in;
	struct manifest man;
	bool have_manifest;
	struct extcc ext;
	bool external;
	ARRAY(const struct target *) targets;
	struct target *labels;		/* --compiler: the -t names */
	uint64_t all_targets;
	json_t *settings;

	struct slot *ring;		/* WINDOW slots: job i is in ring[i % WINDOW] */
	size_t next_new;		/* the first job not started */
	size_t next_write;		/* the first job not written */
	size_t inflight;
	ARRAY(struct pool_job) retry;	/* jobs to start again for fewer targets */
	size_t buffered;		/* bytes of records in the ring */
	size_t completed;		/* jobs done, written or waiting */
	size_t failures;		/* error, crash and timeout records */

	struct rundir dir;
	struct strbuf wbuf;		/* lines to append to stats.jsonl */
	struct strbuf abuf;		/* entries to append to asm.pack */
	int io_errno;
	struct tally tally;
	struct progress progress;
};

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static struct slot *slot_of(struct run *r, size_t job)
{
	return &r->ring[job % WINDOW];
}

/* The stage a record of `j` carries when the compiler did not say. */
static enum shader_stage display_stage(const struct job *j)
{
	enum shader_stage s;
	if (j->stage != STAGE_NONE)
		return j->stage;
	input_kind_from_path(job_file(j), &s);
	return s;
}

static int target_index(const struct run *r, const struct target *t)
{
	for (size_t i = 0; t && i < r->targets.len; i++)
		if (r->targets.data[i] == t)
			return (int)i;
	return -1;
}

/* ---- the worker side ---------------------------------------------------- */

/* The options of one job: the command line's, then its manifest row's, and
 * the program discovery gave it (inputs.h). */
static void job_options(const struct run *r, const struct job *j, struct compile_options *o,
			struct arena *a)
{
	manifest_options(j->m, &r->cfg->opts, job_file(j), o, a);
	o->stage = j->stage;
	o->program = j->program;
}

/*
 * Test-only hooks (the tests of crash isolation): with SHDB_TEST_HOOKS=1 in
 * the environment, a worker crashes on an input containing the marker
 * SHDB-TEST-CRASH and hangs on one containing SHDB-TEST-HANG, as a
 * compiler bug would.
 */
static void test_hooks(const char *path)
{
	const char *env = getenv("SHDB_TEST_HOOKS");
	if (!env || strcmp(env, "1"))
		return;
	struct strbuf data = STRBUF_INIT, err = STRBUF_INIT;
	if (read_file(path, &data, &err) == 0) {
		if (memmem(data.buf, data.len, "SHDB-TEST-CRASH", 15))
			raise(SIGSEGV);
		if (memmem(data.buf, data.len, "SHDB-TEST-HANG", 14))
			for (;;)
				pause();
	}
	strbuf_release(&data);
	strbuf_release(&err);
}

static void work_library(struct run *r, const struct job *j, uint64_t mask,
			 struct compile_progress *progress, struct arena *a,
			 struct compile_output *out)
{
	const struct target *list[MAX_TARGETS];
	size_t n = 0;
	struct compile_options o;

	for (size_t i = 0; i < r->targets.len; i++)
		if (mask >> i & 1)
			list[n++] = r->targets.data[i];
	job_options(r, j, &o, a);
	o.progress = progress;
	o.want_disasm = r->cfg->keep_asm;
	/* paths are relative to the input: messages then read the same wherever
	 * the corpus lives (shards on other machines) */
	if (fchdir(r->in.roots.data[j->root].dirfd) < 0) {
		struct compile_result *res = array_push_zero(&out->results);
		res->stage = display_stage(j);
		res->status = RESULT_ERROR;
		res->message = xstrdup("cannot enter the input's folder");
	} else {
		test_hooks(job_file(j));
		compile_file(job_file(j), &o, list, n, out);
	}
	compile_options_release(&o);
}

static void work_external(struct run *r, const struct job *j, uint64_t mask,
			  struct compile_progress *progress, struct arena *a,
			  struct compile_output *out)
{
	const struct input_root *root = &r->in.roots.data[j->root];
	const char *file = root->is_file ? job_file(j) : arena_printf(a, "%s/%s", root->arg,
									      job_file(j));
	struct extcc_file f = {
		.file = file, .path = j->path, .stage = display_stage(j),
		.entry = j->m && j->m->entry ? j->m->entry : r->cfg->opts.entry,
	};
	if (!r->ext.per_target) {
		f.target = r->targets.len == 1 ? r->targets.data[0] : NULL;
		extcc_run(&r->ext, &f, progress, a, out);
		return;
	}
	for (size_t i = 0; i < r->targets.len; i++) {
		if (!(mask >> i & 1))
			continue;
		f.target = r->targets.data[i];
		extcc_run(&r->ext, &f, progress, a, out);
	}
}

struct order {
	int stage, target;
	size_t i;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* Reply: per result, "STAGE\tTARGET\tSTATUS\tZLEN\tSIZE\t{record}\n", then ZLEN
 * bytes: the disassembly (SIZE bytes) compressed, when --keep-asm has one. */
static void work(void *ctx, const struct pool_job *pj, struct compile_progress *progress,
		 struct strbuf *reply)
{
	struct run *r = ctx;
	const struct job *j = &r->in.jobs.data[pj->index];
	struct compile_output out;
	struct arena a;
	struct strbuf z = STRBUF_INIT;

	compile_output_init(&out);
	arena_init(&a);
	if (r->external)
		work_external(r, j, pj->targets, progress, &a, &out);
	else
		work_library(r, j, pj->targets, progress, &a, &out);

	struct order *ord = xcalloc(out.results.len, sizeof(*ord));
	for (size_t i = 0; i < out.results.len; i++)
		ord[i] = (struct order){ out.results.data[i].stage,
					 target_index(r, out.results.data[i].target), i };
	qsort(ord, out.results.len, sizeof(*ord), cmp_order);
	for (size_t k = 0; k < out.results.len; k++) {
		const struct compile_result *res = &out.results.data[ord[k].i];
		bool keep = r->cfg->keep_asm && res->disasm;
		strbuf_reset(&z);
		if (keep)
			asm_pack_compress(res->disasm, strlen(res->disasm), &z);
		strbuf_addf(reply, "%d\t%d\t%d\t%zu\t%zu\t", ord[k].stage, ord[k].target,
			    (int)res->status, z.len, keep ? strlen(res->disasm) : 0);
		/* a program discovery did not split off (HLSL found in a .frag) */
		const char *path = j->program || !res->program ? j->path :
				   arena_printf(&a, "%s/%s", j->path, res->program);
		record_append_json(reply, path, res, true);
		strbuf_addch(reply, '\n');
		strbuf_add(reply, z.buf, z.len);
	}
	strbuf_release(&z);
	free(ord);
	compile_output_release(&out);
	arena_release(&a);
}

static void child_init(void *ctx)
{
	struct run *r = ctx;
	close(r->dir.fd);
	r->dir.fd = -1;
	if (r->dir.asm_fd >= 0)
		close(r->dir.asm_fd);
	r->dir.asm_fd = -1;
}

/* ---- the parent side: the window and the writer ------------------------- */

static void flush(struct run *r)
{
	if (r->wbuf.len && !r->io_errno && rundir_append(&r->dir, r->wbuf.buf, r->wbuf.len) < 0)
		r->io_errno = errno ? errno : EIO;
	if (r->abuf.len && !r->io_errno && rundir_append_asm(&r->dir, r->abuf.buf, r->abuf.len) < 0)
		r->io_errno = errno ? errno : EIO;
	strbuf_reset(&r->wbuf);
	strbuf_reset(&r->abuf);
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static void count_record(struct run *r, const char *line)
{
	json_t *rec = json_loads(line, 0, NULL);
	if (!rec || tally_add(&r->tally, rec) < 0)
		BUG("a record the runner wrote does not parse: %s", line);
	json_decref(rec);
}

/* The asm.pack entry of a record written. */
static void add_asm(struct run *r, size_t job, const struct rec *rec)
{
	const struct target *t = rec->target >= 0 ? r->targets.data[rec->target] : NULL;
	asm_pack_entry(&r->abuf, r->in.jobs.data[job].path, stage_name((enum shader_stage)rec->stage),
		       t ? t->name : NULL, rec->asm_size, rec->zasm, rec->zlen);
	free(rec->zasm);
}

/* Move the finished jobs at the head of the window to the output. */
static void advance(struct run *r)
{
	while (r->next_write < r->next_new) {
		struct slot *s = slot_of(r, r->next_write);
		if (!s->done)
			break;
		array_sort(&s->recs, cmp_rec);
		for (size_t i = 0; i < s->recs.len; i++) {
			count_record(r, s->recs.data[i].line);
			strbuf_addstr(&r->wbuf, s->recs.data[i].line);
			strbuf_addch(&r->wbuf, '\n');
			free(s->recs.data[i].line);
			if (s->recs.data[i].zasm)
				add_asm(r, r->next_write, &s->recs.data[i]);
		}
		r->buffered -= s->bytes;
		s->recs.len = 0;
		s->bytes = 0;
		s->done = false;
		r->next_write++;
	}
	if (r->wbuf.len + r->abuf.len >= FLUSH_BYTES)
		flush(r);
}

static struct rec *add_rec(struct run *r, size_t job, int stage, int target, char *line)
{
	struct slot *s = slot_of(r, job);
	size_t n = strlen(line) + 1;
	array_push(&s->recs, (struct rec){ stage, target, s->recs.len, line, NULL, 0, 0 });
	s->bytes += n;
	r->buffered += n;
	return &array_last(&s->recs);
}

/* The compressed disassembly that came with a record. */
static void add_rec_asm(struct run *r, size_t job, struct rec *rec, const char *z, size_t zlen,
			size_t size)
{
	rec->zasm = xmalloc(zlen);
	memcpy(rec->zasm, z, zlen);
	rec->zlen = zlen;
	rec->asm_size = size;
	slot_of(r, job)->bytes += zlen;
	r->buffered += zlen;
}

static void finish(struct run *r, size_t job)
{
	slot_of(r, job)->done = true;
	r->completed++;
	advance(r);
}

/* A record the runner makes itself (skipped, crash, timeout). */
static void add_own_record(struct run *r, size_t job, int target, enum result_status st,
			   const char *message, uint64_t time_us)
{
	const struct job *j = &r->in.jobs.data[job];
	struct compile_result res = {
		.stage = display_stage(j), .target = target >= 0 ? r->targets.data[target] : NULL,
		.status = st, .message = (char *)message, .time_us = time_us,
	};
	struct strbuf line = STRBUF_INIT;
	record_append_json(&line, j->path, &res, true);
	add_rec(r, job, res.stage, target, strbuf_detach(&line, NULL));
	if (st == RESULT_ERROR || st == RESULT_CRASH || st == RESULT_TIMEOUT)
		r->failures++;
}

static void skip_job(struct run *r, size_t i)
{
	const struct job *j = &r->in.jobs.data[i];
	struct strbuf m = STRBUF_INIT;
	strbuf_addstr(&m, skip_reason_message(j->skip));
	if (j->skip == SKIP_UNKNOWN_KIND)
		strbuf_addf(&m, " (extension '%s')", path_extension(job_file(j)));
	else if (j->skip == SKIP_NOT_SHADER && j->m && j->m->kind_name)
		strbuf_addf(&m, " '%s'", j->m->kind_name);
	add_own_record(r, i, -1, RESULT_SKIPPED, m.buf, 0);
	strbuf_release(&m);
	finish(r, i);
}

static enum pool_next next_job(void *ctx, struct pool_job *pj)
{
	struct run *r = ctx;
	if (r->io_errno)
		return r->inflight ? POOL_WAIT : POOL_END;
	if (r->retry.len) {
		*pj = r->retry.data[0];
		memmove(r->retry.data, r->retry.data + 1, --r->retry.len * sizeof(*pj));
		r->inflight++;
		return POOL_JOB;
	}
	while (r->next_new < r->in.jobs.len) {
		if (r->next_new >= r->next_write + WINDOW || r->buffered >= WINDOW_BYTES)
			return POOL_WAIT;
		size_t i = r->next_new++;
		if (r->in.jobs.data[i].skip) {
			skip_job(r, i);
			continue;
		}
		*pj = (struct pool_job){ .index = i, .targets = r->all_targets };
		r->inflight++;
		return POOL_JOB;
	}
	return r->inflight ? POOL_WAIT : POOL_END;
}

static void job_done(void *ctx, const struct pool_job *pj, const char *reply, size_t len)
{
	struct run *r = ctx;
	const char *end = reply + len;
	for (const char *p = reply; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		char *q;
		if (!eol)
			BUG("a worker's reply ends without a newline");
		int stage = (int)strtol(p, &q, 10);
		int target = (int)strtol(q + 1, &q, 10);
		int status = (int)strtol(q + 1, &q, 10);
		size_t zlen = strtoul(q + 1, &q, 10);
		size_t size = strtoul(q + 1, &q, 10);
		q++;
		struct rec *rec = add_rec(r, pj->index, stage, target, xstrndup(q, (size_t)(eol - q)));
		if (status == RESULT_ERROR || status == RESULT_CRASH || status == RESULT_TIMEOUT)
			r->failures++;
		if (zlen > (size_t)(end - eol - 1))
			BUG("a worker's reply ends inside a disassembly");
		if (zlen)
			add_rec_asm(r, pj->index, rec, eol + 1, zlen, size);
		p = eol + 1 + zlen;
	}
	r->inflight--;
	finish(r, pj->index);
}

static void fault_message(struct strbuf *m, const struct pool_fault *f, bool target_known)
{
	char name[16];
	if (f->kind == POOL_TIMEOUT)
		strbuf_addf(m, "timed out after %u s", f->timeout_s);
	else if (f->signal)
		strbuf_addf(m, "compiler crashed: %s", pool_signal_name(f->signal, name));
	else
		strbuf_addf(m, "compiler process exited with status %d", f->exit_status);
	if (*f->phase || *f->pass || (*f->target && !target_known)) {
		const char *sep = " (";
		if (*f->phase)
			strbuf_addf(m, "%sphase %s", sep, f->phase), sep = ", ";
		if (*f->pass)
			strbuf_addf(m, "%spass %s", sep, f->pass), sep = ", ";
		if (*f->target && !target_known)
			strbuf_addf(m, "%starget %s", sep, f->target);
		strbuf_addch(m, ')');
	}
}

static void job_fault(void *ctx, const struct pool_job *pj, const struct pool_fault *f)
{
	struct run *r = ctx;
	int t = -1;
	for (size_t i = 0; *f->target && i < r->targets.len; i++)
		if ((pj->targets >> i & 1) && !strcmp(r->targets.data[i]->name, f->target))
			t = (int)i;
	struct strbuf m = STRBUF_INIT;
	fault_message(&m, f, t >= 0);
	add_own_record(r, pj->index, t, f->kind == POOL_TIMEOUT ? RESULT_TIMEOUT : RESULT_CRASH,
		       m.buf, f->kind == POOL_TIMEOUT ? f->timeout_s * 1000000ull : 0);
	strbuf_release(&m);

	r->inflight--;
	uint64_t rest = t >= 0 ? pj->targets & ~(1ull << t) : 0;
	if (rest)
		array_push(&r->retry, (struct pool_job){ .index = pj->index, .targets = rest });
	else
		finish(r, pj->index);
}

static void tick(void *ctx)
{
	struct run *r = ctx;
	flush(r);
	if (!r->io_errno && rundir_sync(&r->dir, false) < 0)
		r->io_errno = errno;
	progress_update(&r->progress, r->completed, r->failures, false);
}

/* ---- setting up --------------------------------------------------------- */

static void setup_targets(struct run *r)
{
	const char *list = r->cfg->target_list;
	if (r->external) {
		char *copy = xstrdup(list ? list : ""), *save = NULL;
		size_t n = 0;
		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			n++;
		r->labels = xcalloc(n ? n : 1, sizeof(*r->labels));
		free(copy);
		copy = xstrdup(list ? list : "");
		n = 0;
		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			bool dup = false;
			for (size_t i = 0; i < n; i++)
				dup |= !strcmp(r->labels[i].name, tok);
			if (dup)
				continue;
			r->labels[n] = (struct target){ .name = xstrdup(tok), .description = "" };
			array_push(&r->targets, &r->labels[n++]);
		}
		free(copy);
		if (!r->ext.per_target && r->targets.len > 1)
			die("a --compiler command without {target} takes at most one -t label");
	} else if (!list || !strcmp(list, "all")) {
		for (size_t i = 0; i < num_targets; i++)
			array_push(&r->targets, targets[i]);
	} else {
		bool want[MAX_TARGETS] = { 0 };
		char *copy = xstrdup(list), *save = NULL;
		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			const struct target *t = target_find(tok);
			if (!t)
				die("unknown target '%s'; see 'shdb targets'", tok);
			for (size_t i = 0; i < num_targets; i++)
				want[i] |= targets[i] == t;
		}
		free(copy);
		for (size_t i = 0; i < num_targets; i++)	/* the table's order */
			if (want[i])
				array_push(&r->targets, targets[i]);
	}
	if (r->targets.len > MAX_TARGETS)
		die("at most %d targets in one run", MAX_TARGETS);
	for (size_t i = 0; i < r->targets.len; i++)
		r->all_targets |= 1ull << i;
}

static json_t *string_array(char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_text(v[i]));
	return a;
}

/* What decides the records: a resumed run must match it, merged shards must
 * share it. */
static json_t *settings_json(const struct run *r)
{
	const struct run_config *c = r->cfg;
	static const char *const modes[] = { "auto", "vulkan", "relaxed" };
	json_t *s = json_object(), *t = json_array();
	char hash[32];

	for (size_t i = 0; i < r->targets.len; i++)
		json_array_append_new(t, json_string(r->targets.data[i]->name));
	json_object_set_new(s, "targets", t);
	json_object_set_new(s, "compiler", c->compiler ? json_text(c->compiler) : json_null());
	json_object_set_new(s, "compiler_preset",
			    c->compiler_preset ? json_text(c->compiler_preset) : json_null());
	json_object_set_new(s, "stat_patterns", string_array(c->stat_patterns.data,
							     c->stat_patterns.len));
	snprintf(hash, sizeof(hash), "%016llx", r->have_manifest ? r->man.hash : 0ull);
	json_object_set_new(s, "manifest", r->have_manifest ? json_string(hash) : json_null());
	json_object_set_new(s, "include", string_array(c->include.data, c->include.len));
	json_object_set_new(s, "exclude", string_array(c->exclude.data, c->exclude.len));
	json_object_set_new(s, "shard_count", json_integer(c->shard_n));
	json_object_set_new(s, "stage", c->opts.stage == STAGE_NONE ? json_null()
				: json_string(stage_name(c->opts.stage)));
	json_object_set_new(s, "entry", c->opts.entry ? json_text(c->opts.entry) : json_null());
	json_object_set_new(s, "defines", string_array((char *const *)c->opts.defines.data,
						       c->opts.defines.len));
	json_object_set_new(s, "include_dirs",
			    string_array((char *const *)c->include_dirs_given.data,
					 c->include_dirs_given.len));
	json_object_set_new(s, "glsl_mode", json_string(modes[c->opts.glsl_mode]));
	/* newer settings only when used, so older runs still resume */
	if (c->opts.passes)
		json_object_set_new(s, "passes", json_text(c->opts.passes));
	if (c->keep_asm)
		json_object_set_new(s, "keep_asm", json_true());
	if (c->opts.verify)
		json_object_set_new(s, "verify", json_true());
	if (c->opts.exec_seeds)
		json_object_set_new(s, "verify_exec", json_integer(c->opts.exec_seeds));
	if (c->opts.ra_limit)
		json_object_set_new(s, "ra_limit", json_integer(c->opts.ra_limit));
	if (c->opts.mesa != MESA_RULES_MAIN)
		json_object_set_new(s, "mesa", json_string(mesa_rules_name(c->opts.mesa)));
	if (c->opts.stages.len > 1) {
		json_t *list = json_array();
		for (size_t i = 0; i < c->opts.stages.len; i++)
			json_array_append_new(list, json_string(stage_name(c->opts.stages.data[i])));
		json_object_set_new(s, "stages", list);
	}
	if (c->opts.entries.len > 1)
		json_object_set_new(s, "entries", string_array((char *const *)c->opts.entries.data,
							       c->opts.entries.len));
	return s;
}

struct session {
	char start[32];
	unsigned resumed;
	size_t first_job;	/* where this session starts */
	uint64_t start_ms;
};

static json_t *run_json(const struct run *r, const struct session *ses, const char *status,
			const char *end)
{
	const struct run_config *c = r->cfg;
	char version[32], commit[96], digest[32];
	json_t *o = json_object(), *roots = json_array(), *t = json_array();

	run_version(version, commit);
	for (size_t i = 0; i < r->in.roots.len; i++)
		json_array_append_new(roots, json_text(r->in.roots.data[i].arg));
	for (size_t i = 0; i < r->targets.len; i++)
		json_array_append_new(t, json_string(r->targets.data[i]->name));
	snprintf(digest, sizeof(digest), "%016llx", (unsigned long long)inputs_digest(&r->in));

	json_object_set_new(o, "shdb_version", json_string(version));
	json_object_set_new(o, "git_commit", json_string(commit));
	json_object_set_new(o, "label", run_label_json(c));
	json_object_set_new(o, "date", json_string(ses->start));
	json_object_set_new(o, "status", json_string(status));
	json_object_set_new(o, "options", string_array(c->argv + 1, (size_t)c->argc - 1));
	json_object_set_new(o, "settings", json_incref(r->settings));
	json_object_set_new(o, "targets", t);
	json_object_set_new(o, "corpus_roots", roots);
	json_object_set_new(o, "shard", c->shard_n ? json_pack("{s:i, s:i}", "index", c->shard_k,
							       "count", c->shard_n)
						   : json_null());
	json_object_set_new(o, "host", run_host_json());
	json_object_set_new(o, "workers", json_integer(c->jobs));
	json_object_set_new(o, "timeout_s", json_integer(c->timeout_s));
	json_object_set_new(o, "start", json_string(ses->start));
	json_object_set_new(o, "end", end ? json_string(end) : json_null());
	json_object_set_new(o, "resumed", json_integer(ses->resumed));
	json_object_set_new(o, "files", json_integer((json_int_t)r->in.jobs.len));
	json_object_set_new(o, "files_done", json_integer((json_int_t)r->next_write));
	json_object_set_new(o, "ignored_files", json_integer((json_int_t)r->in.ignored));
	json_object_set_new(o, "filtered_files", json_integer((json_int_t)r->in.filtered));
	json_object_set_new(o, "other_shard_files", json_integer((json_int_t)r->in.other_shards));
	json_object_set_new(o, "inputs_digest", json_string(digest));
	json_object_set_new(o, "records", json_integer((json_int_t)r->tally.records));
	json_object_set_new(o, "counts", tally_counts_json(&r->tally));
	return o;
}

static int write_run_json(struct run *r, const struct session *ses, const char *status,
			  const char *end)
{
	struct strbuf err = STRBUF_INIT;
	json_t *o = run_json(r, ses, status, end);
	int ret = rundir_write_json(r->cfg->out_dir, o, &err);
	if (ret < 0)
		error("%s", err.buf);
	json_decref(o);
	strbuf_release(&err);
	return ret;
}

static size_t lower_bound(const struct inputs *in, const char *path)
{
	size_t lo = 0, hi = in->jobs.len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (path_cmp(in->jobs.data[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first job whose record path (escaped where it is not UTF-8: stats/json_text.h)
 * is `recorded`; else the first at or after it, as bytes. */
static size_t first_job_of(const struct inputs *in, const char *recorded)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t i = 0;
	for (; i < in->jobs.len; i++)
		if (!strcmp(utf8_or_escape(in->jobs.data[i].path, &tmp), recorded))
			break;
	strbuf_release(&tmp);
	return i < in->jobs.len ? i : lower_bound(in, recorded);
}

/* Why the run in the folder is not this one, or NULL. */
static char *resume_mismatch(struct run *r, json_t *old)
{
	struct strbuf m = STRBUF_INIT;
	char digest[32];
	const char *key = run_settings_diff(json_object_get(old, "settings"), r->settings);
	json_t *shard = r->cfg->shard_n ? json_pack("{s:i, s:i}", "index", r->cfg->shard_k,
						    "count", r->cfg->shard_n) : json_null();
	const char *old_digest = json_string_value(json_object_get(old, "inputs_digest"));

	snprintf(digest, sizeof(digest), "%016llx", (unsigned long long)inputs_digest(&r->in));
	if (key)
		strbuf_addf(&m, "its setting '%s' differs from this command line's", key);
	else if (!json_equal(shard, json_object_get(old, "shard")))
		strbuf_addstr(&m, "it is another shard");
	else if (!old_digest || strcmp(old_digest, digest))
		strbuf_addf(&m, "the input files changed (%lld files then, %zu now)",
			    (long long)json_integer_value(json_object_get(old, "files")),
			    r->in.jobs.len);
	json_decref(shard);
	return m.len ? strbuf_detach(&m, NULL) : NULL;
}

/* --resume: check the run in the folder is this one; returns whether it is
 * complete already.  Fills the session from it. */
static bool check_resume(struct run *r, struct session *ses)
{
	struct strbuf err = STRBUF_INIT;
	json_t *old = rundir_read_json(r->cfg->out_dir, &err);
	if (!old)
		die("cannot resume: %s", err.buf);
	char *why = resume_mismatch(r, old);
	if (why) {
		json_decref(old);
		die("cannot resume the run in '%s': %s", r->cfg->out_dir, why);
	}
	const char *start = json_string_value(json_object_get(old, "start"));
	if (start)
		snprintf(ses->start, sizeof(ses->start), "%s", start);
	ses->resumed = (unsigned)json_integer_value(json_object_get(old, "resumed")) + 1;
	const char *status = json_string_value(json_object_get(old, "status"));
	bool complete = status && !strcmp(status, "complete");
	json_decref(old);
	strbuf_release(&err);
	return complete;
}

static void print_summary(const struct run *r, const struct session *ses, const char *status)
{
	double secs = (double)(now_ms() - ses->start_ms) / 1000.0;
	size_t files = r->next_write - ses->first_job;
	printf("shdb run: %zu files", r->in.jobs.len);
	if (ses->first_job)
		printf(" (%zu this session)", files);
	printf(", %zu records in %.1f s (%.0f files/s, %d workers), %s; results in %s\n",
	       r->tally.records, secs, secs > 0 ? (double)files / secs : 0.0, r->cfg->jobs,
	       status, r->cfg->out_dir);
	if (r->in.ignored)
		printf("%zu files of unknown kind ignored in folder walks\n", r->in.ignored);
	putchar('\n');
	tally_print(&r->tally, stdout);
}

static void release_run(struct run *r)
{
	if (r->ring)
		for (size_t i = 0; i < WINDOW; i++) {
			for (size_t k = 0; k < r->ring[i].recs.len; k++) {
				free(r->ring[i].recs.data[k].line);
				free(r->ring[i].recs.data[k].zasm);
			}
			array_free(&r->ring[i].recs);
		}
	free(r->ring);
	array_free(&r->retry);
	strbuf_release(&r->wbuf);
	strbuf_release(&r->abuf);
	tally_release(&r->tally);
	rundir_close(&r->dir);
	json_decref(r->settings);
	inputs_release(&r->in);
	if (r->have_manifest)
		manifest_release(&r->man);
	if (r->external)
		extcc_release(&r->ext);
	if (r->labels)
		for (size_t i = 0; i < r->targets.len; i++)
			free((char *)r->labels[i].name);
	free(r->labels);
	array_free(&r->targets);
}

static void setup(struct run *r, struct session *ses)
{
	struct run_config *c = r->cfg;
	struct strbuf err = STRBUF_INIT;

	if (c->manifest) {
		if (manifest_load(&r->man, c->manifest, &err) < 0)
			die("%s", err.buf);
		r->have_manifest = true;
	}
	if (c->compiler) {
		if (extcc_init(&r->ext, c->compiler, c->compiler_preset, c->stat_patterns.data,
			       c->stat_patterns.len, &err) < 0)
			die("%s", err.buf);
		r->external = true;
		r->ext.keep_output = c->keep_asm;
	}
	setup_targets(r);
	if (inputs_collect(&r->in, c->inputs.data, c->inputs.len, &c->filter,
			   r->have_manifest ? &r->man : NULL, &c->opts, !r->external, &err) < 0)
		die_status(EXIT_WORK_FAILED, "%s", err.buf);	/* as compile, stats, cmp */
	r->settings = settings_json(r);
	r->ring = xcalloc(WINDOW, sizeof(*r->ring));
	tally_init(&r->tally);
	run_timestamp(ses->start);
	ses->start_ms = now_ms();
	strbuf_release(&err);
}

/* Open the folder; on --resume, count what is there and find where to go on.
 * Returns 1 when a resumed run turns out complete already. */
static int open_dir(struct run *r, struct session *ses)
{
	struct strbuf err = STRBUF_INIT;
	struct run_config *c = r->cfg;
	bool complete = false;
	char *redo_from = NULL;
	enum rundir_mode mode = c->resume ? RUNDIR_RESUME : c->force ? RUNDIR_REPLACE : RUNDIR_NEW;

	/* the usage errors first, before anything is touched */
	struct strbuf p = STRBUF_INIT;
	strbuf_addf(&p, "%s/run.json", c->out_dir);
	bool has_run = access(p.buf, F_OK) == 0;
	strbuf_release(&p);
	if (mode == RUNDIR_NEW && has_run)
		die("'%s' holds a run already: add --resume to continue it, or --force to "
		    "replace it", c->out_dir);
	if (mode == RUNDIR_RESUME && !has_run)
		die("nothing to resume in '%s': no run.json", c->out_dir);
	if (mode == RUNDIR_RESUME)
		complete = check_resume(r, ses);

	if (rundir_open(&r->dir, c->out_dir, mode, &err) < 0 ||
	    rundir_open_asm(&r->dir, mode, c->keep_asm, &err) < 0 ||
	    (mode == RUNDIR_RESUME &&
	     rundir_scan(&r->dir, &r->tally, complete, &redo_from, &err) < 0)) {
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	strbuf_release(&err);
	if (complete) {
		r->next_new = r->next_write = r->completed = r->in.jobs.len;
		return 1;
	}
	size_t first = redo_from ? first_job_of(&r->in, redo_from) : 0;
	free(redo_from);
	r->next_new = r->next_write = r->completed = ses->first_job = first;
	r->failures = r->tally.count[RESULT_ERROR] + r->tally.count[RESULT_CRASH] +
		      r->tally.count[RESULT_TIMEOUT];
	return 0;
}

/* Why --fail-on-error fails the run, in one line (even with -q). */
static void fail_on_error_reason(const struct run *r)
{
	static const enum result_status failed[] = { RESULT_ERROR, RESULT_CRASH, RESULT_TIMEOUT };
	struct strbuf why = STRBUF_INIT;
	for (size_t i = 0; i < sizeof(failed) / sizeof(failed[0]); i++)
		if (r->tally.count[failed[i]])
			strbuf_addf(&why, "%s%zu %s", why.len ? ", " : "", r->tally.count[failed[i]],
				    result_status_name(failed[i]));
	error("--fail-on-error: %zu of %zu records failed (%s); 'shdb stats %s' lists them",
	      r->failures, r->tally.records, why.buf, r->cfg->out_dir);
	strbuf_release(&why);
}

static int finish_run(struct run *r, const struct session *ses, int pool_ret)
{
	char end[32];
	const char *status = "complete";

	flush(r);
	if (!r->io_errno && rundir_sync(&r->dir, true) < 0)
		r->io_errno = errno;
	progress_update(&r->progress, r->completed, r->failures, true);
	progress_end(&r->progress);
	if (pool_ret > 0)
		status = "interrupted";
	else if (pool_ret < 0 || r->io_errno)
		status = "failed";
	else if (r->next_write != r->in.jobs.len)
		BUG("the run ended with %zu of %zu files written", r->next_write, r->in.jobs.len);
	run_timestamp(end);
	/* what failed first is said first: stats.jsonl, then run.json if it
	 * cannot say "failed" either */
	if (r->io_errno)
		error("cannot write '%s': %s (it keeps the whole records written before; "
		      "--resume continues)", r->dir.stats_path, strerror(r->io_errno));
	if (write_run_json(r, ses, status, end) < 0 || r->io_errno)
		return EXIT_WORK_FAILED;
	if (pool_ret > 0) {
		char name[16];
		error("%s stopped the run after %zu of %zu files; add --resume to the same "
		      "command to continue it", pool_signal_name(pool_ret, name), r->next_write,
		      r->in.jobs.len);
		return 128 + pool_ret;
	}
	if (pool_ret < 0)
		return EXIT_WORK_FAILED;
	if (!r->cfg->quiet)
		print_summary(r, ses, status);
	if (r->cfg->fail_on_error && r->failures) {
		fail_on_error_reason(r);
		return EXIT_WORK_FAILED;
	}
	return 0;
}

int run_corpus(struct run_config *cfg)
{
	struct run r = { .cfg = cfg, .wbuf = STRBUF_INIT, .abuf = STRBUF_INIT };
	struct session ses = { 0 };
	int ret;

	setup(&r, &ses);
	int opened = open_dir(&r, &ses);
	if (opened < 0) {
		release_run(&r);
		return EXIT_WORK_FAILED;
	}
	if (opened > 0) {
		if (!cfg->quiet) {
			printf("the run in '%s' is complete already\n", cfg->out_dir);
			print_summary(&r, &ses, "complete");
		}
		release_run(&r);
		return 0;
	}
	if (write_run_json(&r, &ses, "running", NULL) < 0) {
		release_run(&r);
		return EXIT_WORK_FAILED;
	}
	progress_init(&r.progress, r.in.jobs.len, ses.first_job, !cfg->no_progress && !cfg->quiet);

	struct pool_options po = { .workers = cfg->jobs, .timeout_s = cfg->timeout_s,
				   .jobs_per_worker = cfg->jobs_per_worker };
	struct pool_callbacks cb = { .next = next_job, .done = job_done, .fault = job_fault,
				     .tick = tick, .work = work, .child_init = child_init };
	int pool_ret = pool_run(&po, &cb, &r);
	ret = finish_run(&r, &ses, pool_ret);
	release_run(&r);
	return ret;
}
