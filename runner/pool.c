/*
 * The worker pool (pool.h).  The parent sleeps in ppoll() on the workers' reply
 * pipes with SIGINT/SIGTERM/SIGHUP blocked everywhere else, so a stop request is
 * seen exactly once and never in the middle of a callback.
 *
 * Wire format: parent → worker, a struct pool_job (16 bytes, one atomic pipe
 * write); worker → parent, a 64-bit length then that many bytes of reply.
 */
#include "runner/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"

/* What a dying worker leaves for the parent: memory both map (MAP_SHARED). */
struct crash_slot {
	volatile sig_atomic_t valid;
	char phase[32], pass[64], target[32];
};

/* Jobs sent ahead to a worker: while it compiles one, the next waits in its
 * pipe, so a worker never idles through the parent's turn-around (a round
 * trip costs about 100 us on the machines measured; bench/10-run.sh). */
#define DEPTH 2

struct worker {
	pid_t pid;		/* 0: no process in this slot */
	int to_fd;		/* jobs: parent's write end */
	int from_fd;		/* replies: parent's read end, non-blocking */
	struct crash_slot *slot;
	struct pool_job q[DEPTH];	/* sent, not answered; q[0] is running */
	int nq;
	bool retiring;		/* served its share: no more jobs */
	uint64_t deadline;	/* of q[0], ms; 0: none */
	uint64_t kill_at;	/* ms: SIGKILL the group if still alive; 0: not killing */
	bool timed_out;
	unsigned served;
	struct strbuf in;	/* the reply read so far */
};

struct pool {
	const struct pool_options *o;
	const struct pool_callbacks *cb;
	void *ctx;
	struct worker *w;
	int nw;
	bool ended;		/* `next` said POOL_END */
	pid_t parent;
	ARRAY(struct pool_job) returned;	/* queued behind a job that died: to send again */
};

/*
 * Signal handlers take no context, so these are the file's only mutable
 * statics: the stop request seen by the parent, and in a worker (a process of
 * its own) where its progress is and where to copy it when it dies.
 */
static volatile sig_atomic_t stop_signal;
static struct compile_progress *child_progress;
static struct crash_slot *child_slot;

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

const char *pool_signal_name(int sig, char buf[16])
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGSEGV, "SIGSEGV" }, { SIGABRT, "SIGABRT" }, { SIGBUS, "SIGBUS" },
		{ SIGFPE, "SIGFPE" }, { SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" },
		{ SIGSYS, "SIGSYS" }, { SIGKILL, "SIGKILL" }, { SIGTERM, "SIGTERM" },
		{ SIGINT, "SIGINT" }, { SIGHUP, "SIGHUP" }, { SIGPIPE, "SIGPIPE" },
		{ SIGUSR1, "SIGUSR1" }, { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(buf, 16, "signal %d", sig);
	return buf;
}

static int write_full(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_full(int fd, void *data, size_t len)
{
	char *p = data;
	while (len) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ---- the worker side ---------------------------------------------------- */

/* Async-signal-safe bounded copy of a string that may be NULL. */
static void copy_str(char *dst, size_t n, const char *volatile src)
{
	size_t i = 0;
	if (src)
		for (; i + 1 < n && src[i]; i++)
			dst[i] = src[i];
	dst[i] = '\0';
}

/* A fatal signal, or SIGUSR1 from the parent at the deadline: leave the
 * progress for the parent and die of the same signal (SA_RESETHAND put the
 * default action back; the re-raised signal is delivered on return). */
static void on_fatal_signal(int sig)
{
	if (child_slot && child_progress) {
		copy_str(child_slot->phase, sizeof(child_slot->phase), child_progress->phase);
		copy_str(child_slot->pass, sizeof(child_slot->pass), child_progress->pass);
		copy_str(child_slot->target, sizeof(child_slot->target), child_progress->target);
		child_slot->valid = 1;
	}
	raise(sig);
}

static void child_signals(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
				     SIGSYS, SIGUSR1 };
	stack_t ss = { .ss_size = 1 << 16 };
	ss.ss_sp = xmalloc(ss.ss_size);	/* lives as long as the process */
	sigaltstack(&ss, NULL);

	struct sigaction sa = { .sa_handler = on_fatal_signal,
				.sa_flags = SA_RESETHAND | SA_ONSTACK };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static NORETURN void child_main(struct pool *p, int self, int job_fd, int reply_fd)
{
	struct compile_progress progress;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != p->parent)
		_exit(0);
	for (int i = 0; i < p->nw; i++) {
		if (i == self || !p->w[i].pid)
			continue;
		close(p->w[i].to_fd);
		close(p->w[i].from_fd);
	}
	child_progress = &progress;
	child_slot = p->w[self].slot;
	child_signals();
	if (p->cb->child_init)
		p->cb->child_init(p->ctx);

	for (;;) {
		struct pool_job job;
		struct strbuf reply = STRBUF_INIT;
		uint64_t len = 0;

		if (read_full(job_fd, &job, sizeof(job)) < 0)
			_exit(0);
		memset(&progress, 0, sizeof(progress));
		strbuf_add(&reply, &len, sizeof(len));
		p->cb->work(p->ctx, &job, &progress, &reply);
		len = reply.len - sizeof(len);
		memcpy(reply.buf, &len, sizeof(len));
		if (write_full(reply_fd, reply.buf, reply.len) < 0)
			_exit(0);
		strbuf_release(&reply);
	}
}

/* ---- the parent side ---------------------------------------------------- */

static int spawn(struct pool *p, int i)
{
	struct worker *w = &p->w[i];
	int job_pipe[2], reply_pipe[2];

	if (pipe2(job_pipe, O_CLOEXEC) < 0)
		return error("cannot create a pipe: %s", strerror(errno));
	if (pipe2(reply_pipe, O_CLOEXEC) < 0) {
		close(job_pipe[0]);
		close(job_pipe[1]);
		return error("cannot create a pipe: %s", strerror(errno));
	}
	memset(w->slot, 0, sizeof(*w->slot));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(job_pipe[0]);
		close(job_pipe[1]);
		close(reply_pipe[0]);
		close(reply_pipe[1]);
		return error("cannot start a worker process: %s", strerror(e));
	}
	if (pid == 0) {
		close(job_pipe[1]);
		close(reply_pipe[0]);
		child_main(p, i, job_pipe[0], reply_pipe[1]);
	}
	setpgid(pid, pid);	/* also done by the child: whichever runs first */
	close(job_pipe[0]);
	close(reply_pipe[1]);
	fcntl(reply_pipe[0], F_SETFL, O_NONBLOCK);
	w->pid = pid;
	w->to_fd = job_pipe[1];
	w->from_fd = reply_pipe[0];
	w->nq = 0;
	w->retiring = false;
	w->timed_out = false;
	w->deadline = w->kill_at = 0;
	w->served = 0;
	strbuf_reset(&w->in);
	return 0;
}

/* Wait for a worker that is gone or going, and free its slot.  The job it was
 * running, if any, is reported; the ones queued behind it never started and
 * go back to be sent again. */
static void reap(struct pool *p, struct worker *w)
{
	int status = 0;
	/* whatever it started (--compiler) goes too; before waitpid, while the
	 * group's id cannot be reused */
	kill(-w->pid, SIGKILL);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (w->to_fd >= 0)
		close(w->to_fd);
	close(w->from_fd);
	w->to_fd = w->from_fd = -1;
	w->pid = 0;
	strbuf_reset(&w->in);
	w->retiring = false;
	w->served = 0;
	if (!w->nq)
		return;
	for (int i = w->nq - 1; i >= 1; i--)
		array_push(&p->returned, w->q[i]);
	w->nq = 0;

	struct pool_fault f = { .kind = w->timed_out ? POOL_TIMEOUT : POOL_CRASH };
	if (w->timed_out)
		f.timeout_s = p->o->timeout_s;
	else if (WIFSIGNALED(status))
		f.signal = WTERMSIG(status);
	else if (WIFEXITED(status))
		f.exit_status = WEXITSTATUS(status);
	if (w->slot->valid) {
		memcpy(f.phase, w->slot->phase, sizeof(f.phase));
		memcpy(f.pass, w->slot->pass, sizeof(f.pass));
		memcpy(f.target, w->slot->target, sizeof(f.target));
		f.phase[sizeof(f.phase) - 1] = f.pass[sizeof(f.pass) - 1] =
			f.target[sizeof(f.target) - 1] = '\0';
	}
	w->timed_out = w->retiring = false;
	p->cb->fault(p->ctx, &w->q[0], &f);
}

/* An idle worker that served its share: close its job pipe, it exits. */
static void retire(struct pool *p, struct worker *w)
{
	close(w->to_fd);
	w->to_fd = -1;
	reap(p, w);
}

static uint64_t deadline_from(const struct pool *p, uint64_t now)
{
	return p->o->timeout_s ? now + p->o->timeout_s * 1000ull : 0;
}

/* Send `job` to worker i (started if need be). */
static int send_job(struct pool *p, int i, const struct pool_job *job)
{
	struct worker *w = &p->w[i];
	for (int attempt = 0; attempt < 2; attempt++) {
		if (!w->pid && spawn(p, i) < 0)
			return -1;
		if (write_full(w->to_fd, job, sizeof(*job)) == 0) {
			if (!w->nq) {
				w->timed_out = false;
				w->kill_at = 0;
				w->deadline = deadline_from(p, now_ms());
			}
			w->q[w->nq++] = *job;
			return 0;
		}
		if (w->nq) {	/* it died busy: reaped at EOF; `job` goes again */
			array_push(&p->returned, *job);
			return 0;
		}
		reap(p, w);	/* it died idle: start a fresh one */
	}
	return error("a worker process died before it took a job");
}

/* The next job to send: one given back first, then the caller's. */
static bool take_job(struct pool *p, struct pool_job *job)
{
	if (p->returned.len) {
		*job = array_pop(&p->returned);
		return true;
	}
	if (p->ended)
		return false;
	switch (p->cb->next(p->ctx, job)) {
	case POOL_END:
		p->ended = true;
		return false;
	case POOL_WAIT:
		return false;
	case POOL_JOB:
		return true;
	}
	return false;
}

/* Fill the workers, one job each first, then up to DEPTH. */
static int start_jobs(struct pool *p)
{
	for (int depth = 1; depth <= DEPTH; depth++) {
		for (int i = 0; i < p->nw; i++) {
			struct worker *w = &p->w[i];
			struct pool_job job;
			if (w->nq >= depth || w->retiring || w->timed_out ||
			    (p->o->jobs_per_worker &&
			     w->served + (unsigned)w->nq >= p->o->jobs_per_worker))
				continue;
			if (!take_job(p, &job))
				return 0;
			if (send_job(p, i, &job) < 0)
				return -1;
		}
	}
	return 0;
}

static bool any_busy(const struct pool *p)
{
	for (int i = 0; i < p->nw; i++)
		if (p->w[i].nq)
			return true;
	return p->returned.len > 0;
}

/* Read what a worker sent; hand over each complete reply; reap it at EOF
 * (after the replies, which a worker may have sent just before it died). */
static void drain(struct pool *p, struct worker *w)
{
	bool eof = false;
	for (;;) {
		strbuf_grow(&w->in, 65536);
		ssize_t n = read(w->from_fd, w->in.buf + w->in.len, w->in.alloc - w->in.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			eof = true;
			break;
		}
		strbuf_setlen(&w->in, w->in.len + (size_t)n);
	}
	size_t used = 0;
	uint64_t len;
	while (w->in.len - used >= sizeof(len)) {
		memcpy(&len, w->in.buf + used, sizeof(len));
		if (w->in.len - used - sizeof(len) < len)
			break;
		if (!w->nq)
			BUG("worker %d sent a reply to no job", (int)w->pid);
		struct pool_job job = w->q[0];
		memmove(w->q, w->q + 1, (size_t)--w->nq * sizeof(w->q[0]));
		w->deadline = w->nq ? deadline_from(p, now_ms()) : 0;
		w->served++;
		p->cb->done(p->ctx, &job, w->in.buf + used + sizeof(len), (size_t)len);
		used += sizeof(len) + (size_t)len;
	}
	if (used) {
		memmove(w->in.buf, w->in.buf + used, w->in.len - used);
		strbuf_setlen(&w->in, w->in.len - used);
	}
	if (p->o->jobs_per_worker && w->served >= p->o->jobs_per_worker)
		w->retiring = true;
	if (eof)
		reap(p, w);
	else if (w->retiring && !w->nq)
		retire(p, w);
}

/* Deadlines: SIGUSR1 first (the worker reports where it was), SIGKILL later. */
static void check_deadlines(struct pool *p, uint64_t now)
{
	for (int i = 0; i < p->nw; i++) {
		struct worker *w = &p->w[i];
		if (!w->nq)
			continue;
		if (w->deadline && now >= w->deadline && !w->timed_out) {
			w->timed_out = true;
			w->kill_at = now + 1000;
			kill(w->pid, SIGUSR1);
		} else if (w->kill_at && now >= w->kill_at) {
			kill(-w->pid, SIGKILL);
			kill(w->pid, SIGKILL);
			w->kill_at = 0;
		}
	}
}

static int next_wakeup(const struct pool *p, uint64_t now, unsigned tick_ms)
{
	uint64_t wake = now + tick_ms;
	for (int i = 0; i < p->nw; i++) {
		const struct worker *w = &p->w[i];
		if (!w->nq)
			continue;
		if (w->deadline && !w->timed_out && w->deadline < wake)
			wake = w->deadline;
		if (w->kill_at && w->kill_at < wake)
			wake = w->kill_at;
	}
	return wake > now ? (int)(wake - now) : 0;
}

static void stop_all(struct pool *p, bool kill_them)
{
	for (int i = 0; i < p->nw; i++) {
		struct worker *w = &p->w[i];
		if (!w->pid)
			continue;
		if (kill_them) {
			kill(-w->pid, SIGKILL);
			kill(w->pid, SIGKILL);
		}
		w->nq = 0;	/* interrupted: no report */
		close(w->to_fd);
		w->to_fd = -1;
		reap(p, w);
	}
	p->returned.len = 0;
}

static void on_stop(int sig)
{
	stop_signal = sig;
}

static int loop(struct pool *p, const sigset_t *wait_mask)
{
	unsigned tick_ms = p->o->tick_ms ? p->o->tick_ms : 200;
	struct pollfd *fds = xcalloc((size_t)p->nw, sizeof(*fds));
	int *who = xcalloc((size_t)p->nw, sizeof(*who));
	uint64_t last_tick = now_ms();
	int ret;

	for (;;) {
		if (stop_signal) {
			ret = stop_signal;
			break;
		}
		if (start_jobs(p) < 0) {
			ret = -1;
			break;
		}
		if (p->ended && !any_busy(p)) {
			ret = 0;
			break;
		}
		nfds_t n = 0;
		for (int i = 0; i < p->nw; i++) {
			if (!p->w[i].pid)
				continue;
			fds[n] = (struct pollfd){ .fd = p->w[i].from_fd, .events = POLLIN };
			who[n++] = i;
		}
		uint64_t now = now_ms();
		int ms = next_wakeup(p, now, tick_ms);
		struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };
		int r = ppoll(fds, n, &ts, wait_mask);
		if (r < 0 && errno != EINTR)
			BUG("ppoll: %s", strerror(errno));
		for (nfds_t k = 0; r > 0 && k < n; k++)
			if (fds[k].revents && p->w[who[k]].pid)
				drain(p, &p->w[who[k]]);
		now = now_ms();
		check_deadlines(p, now);
		if (p->cb->tick && now - last_tick >= tick_ms / 2) {
			p->cb->tick(p->ctx);
			last_tick = now;
		}
	}
	free(fds);
	free(who);
	return ret;
}

int pool_run(const struct pool_options *o, const struct pool_callbacks *cb, void *ctx)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	struct pool p = { .o = o, .cb = cb, .ctx = ctx, .nw = o->workers > 0 ? o->workers : 1,
			  .parent = getpid() };
	struct sigaction sa = { .sa_handler = on_stop }, old[3], old_pipe;
	sigset_t block, saved;

	p.w = xcalloc((size_t)p.nw, sizeof(*p.w));
	struct crash_slot *slots = mmap(NULL, sizeof(*slots) * (size_t)p.nw,
					PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED)
		BUG("mmap: %s", strerror(errno));
	for (int i = 0; i < p.nw; i++) {
		p.w[i].slot = &slots[i];
		p.w[i].to_fd = p.w[i].from_fd = -1;
		strbuf_init(&p.w[i].in);
	}

	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (int i = 0; i < 3; i++) {
		sigaction(stops[i], &sa, &old[i]);
		sigaddset(&block, stops[i]);
	}
	sigaction(SIGPIPE, &(struct sigaction){ .sa_handler = SIG_IGN }, &old_pipe);
	sigprocmask(SIG_BLOCK, &block, &saved);
	sigset_t wait_mask = saved;
	for (int i = 0; i < 3; i++)
		sigdelset(&wait_mask, stops[i]);

	int ret = loop(&p, &wait_mask);
	stop_all(&p, ret != 0);
	if (cb->tick)
		cb->tick(ctx);

	sigprocmask(SIG_SETMASK, &saved, NULL);
	for (int i = 0; i < 3; i++)
		sigaction(stops[i], &old[i], NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	for (int i = 0; i < p.nw; i++)
		strbuf_release(&p.w[i].in);
	munmap(slots, sizeof(*slots) * (size_t)p.nw);
	array_free(&p.returned);
	free(p.w);
	return ret;
}
