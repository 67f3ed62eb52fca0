/*
 * A pool of worker processes with callbacks, after git's run_processes_parallel():
 * the caller says what to run next, what to do with a reply and what to do when a
 * worker died; the pool owns the processes, the pipes, the deadlines and the
 * signals.
 *
 *	struct pool_callbacks cb = { .next = next_job, .done = job_done,
 *				     .fault = job_fault, .work = do_job };
 *	int sig = pool_run(&(struct pool_options){ .workers = 4, .timeout_s = 30 }, &cb, ctx);
 *
 * Invariants:
 *  - a worker is a fork()ed process that runs one job at a time (`work`, in the
 *    child) and sends back one reply; it lives for many jobs, and is replaced by a
 *    fresh one after a crash, a timeout or `jobs_per_worker` jobs;
 *  - a worker that dies while busy (a signal, an exit) is reported to `fault` with
 *    the signal and what the compiler said it was doing (struct compile_progress,
 *    copied by the worker's own fatal-signal handler into memory it shares with
 *    the parent); a job past its deadline gets SIGUSR1 (the worker copies its
 *    progress and dies), then SIGKILL for its whole process group;
 *  - each worker leads its own process group, so a terminal's ^C reaches the
 *    parent only: on SIGINT, SIGTERM or SIGHUP the pool kills every worker and
 *    returns the signal number; nothing is half-reported.
 *  - callbacks run in the parent, one at a time, never from a signal handler.
 */
#ifndef SHDB_RUNNER_POOL_H
#define SHDB_RUNNER_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/compile.h"
#include "compiler/util/strbuf.h"

/* One unit of work: the caller's job index and which of its targets to do. */
struct pool_job {
	uint64_t index;
	uint64_t targets;	/* a bit mask over the caller's target list */
};

enum pool_fault_kind {
	POOL_CRASH,		/* the worker died: a signal, or an exit mid-job */
	POOL_TIMEOUT,		/* the job ran past the deadline and was killed */
};

/* Why a job got no reply.  The strings are copies, "" when unknown. */
struct pool_fault {
	enum pool_fault_kind kind;
	int signal;		/* POOL_CRASH: the signal that killed the worker, or 0 */
	int exit_status;	/* POOL_CRASH without a signal: the exit status */
	unsigned timeout_s;	/* POOL_TIMEOUT: the limit that passed */
	char phase[32], pass[64], target[32];
};

enum pool_next {
	POOL_JOB,		/* *job was filled: start it */
	POOL_WAIT,		/* nothing to start now; ask again after the next reply */
	POOL_END,		/* nothing more, ever */
};

struct pool_callbacks {
	/* Parent: the next job to start. */
	enum pool_next (*next)(void *ctx, struct pool_job *job);
	/* Parent: a worker's reply to `job` (the bytes `work` appended). */
	void (*done)(void *ctx, const struct pool_job *job, const char *reply, size_t len);
	/* Parent: `job` got no reply (crash or timeout). */
	void (*fault)(void *ctx, const struct pool_job *job, const struct pool_fault *f);
	/* Parent: after each round of events (flush output, draw progress); may be NULL. */
	void (*tick)(void *ctx);
	/* Child: do `job`, appending the reply to `reply`; keep `progress` current. */
	void (*work)(void *ctx, const struct pool_job *job, struct compile_progress *progress,
		     struct strbuf *reply);
	/* Child: once after fork (close the parent's files); may be NULL. */
	void (*child_init)(void *ctx);
};

struct pool_options {
	int workers;			/* ≥ 1 */
	unsigned timeout_s;		/* per job; 0: none */
	unsigned jobs_per_worker;	/* recycle a worker after this many; 0: never */
	unsigned tick_ms;		/* call tick at least this often (progress); 0: 200 */
};

/*
 * Run jobs until `next` says POOL_END and every started job is answered.
 * Returns 0 then; the signal number when SIGINT, SIGTERM or SIGHUP arrived (the
 * workers are gone, jobs in flight got neither `done` nor `fault`); -1 when a
 * worker cannot be started (the message is printed).
 */
int pool_run(const struct pool_options *o, const struct pool_callbacks *cb, void *ctx);

/* "SIGSEGV" for 11; "signal N" for one without a name. */
const char *pool_signal_name(int sig, char buf[16]);

#endif
