/*
 * Pipelines of passes (pass.h): the bookkeeping around every pass, whatever
 * the IR, through its pipeline_ops.
 */
#include "compiler/util/pass.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

#ifdef NDEBUG
#define VALIDATE_DEFAULT false
#else
#define VALIDATE_DEFAULT true
#endif

void pipeline_init_ops(struct pipeline *pl, const struct pipeline_ops *ops, void *ir,
		       struct diag *diag, const char *file)
{
	memset(pl, 0, sizeof(*pl));
	pl->ir = ir;
	pl->ops = ops;
	pl->diag = diag;
	pl->file = file;
	pl->validate = VALIDATE_DEFAULT;
	strbuf_init(&pl->before_);
}

void pipeline_release(struct pipeline *pl)
{
	array_free(&pl->times);
	strbuf_release(&pl->before_);
}

uint64_t pass_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pipeline_before_(struct pipeline *pl, const char *name)
{
	if (pl->check_progress) {
		strbuf_reset(&pl->before_);
		pl->ops->print(pl->ir, &pl->before_);
	}
	if (pl->ops->before)
		pl->ops->before(pl->ir);
	if (pl->running)
		*pl->running = name;
	pl->start_ns_ = pl->time_passes ? pass_clock_ns() : 0;
}

static void add_time(pass_times *times, const char *name, unsigned runs, unsigned progress,
		     uint64_t ns)
{
	struct pass_time *t = NULL;
	for (size_t i = 0; i < times->len && !t; i++)
		if (!strcmp(times->data[i].name, name))
			t = &times->data[i];
	if (!t) {
		t = array_push_zero(times);
		t->name = name;
	}
	t->runs += runs;
	t->progress += progress;
	t->ns += ns;
}

void pass_times_record(pass_times *to, const char *name, bool progress, uint64_t ns)
{
	add_time(to, name, 1, progress, ns);
}

void pass_times_add(pass_times *to, const pass_times *from)
{
	for (size_t i = 0; i < from->len; i++) {
		const struct pass_time *t = &from->data[i];
		add_time(to, t->name, t->runs, t->progress, t->ns);
	}
}

__attribute__((format(printf, 3, 4)))
static void pipeline_error(struct pipeline *pl, const char *name, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	diag_error(pl->diag, pl->file, 0, 0, "internal error after %s: %s", name, msg.buf);
	strbuf_release(&msg);
	pl->failed = true;
}

static void dump_after(struct pipeline *pl, const char *name, bool progress)
{
	if (!pl->dump || !pl->print_after ||
	    (strcmp(pl->print_after, "all") && strcmp(pl->print_after, name)))
		return;
	if (!progress) {
		strbuf_addf(pl->dump, "%s after %s: no progress\n", pl->ops->comment, name);
		return;
	}
	strbuf_addf(pl->dump, "%s after %s\n", pl->ops->comment, name);
	pl->ops->print(pl->ir, pl->dump);
}

bool pipeline_after_(struct pipeline *pl, const char *name, bool progress)
{
	if (pl->time_passes)
		add_time(&pl->times, name, 1, progress, pass_clock_ns() - pl->start_ns_);
	if (pl->running)
		*pl->running = NULL;
	const char *wrong = pl->ops->after ? pl->ops->after(pl->ir, progress, pl->validate) : NULL;
	if (wrong)
		pipeline_error(pl, name, "%s", wrong);
	if (pl->check_progress && !progress) {
		struct strbuf after = STRBUF_INIT;
		pl->ops->print(pl->ir, &after);
		if (strcmp(after.buf, pl->before_.buf))
			pipeline_error(pl, name, "the shader changed but the pass reported no progress");
		strbuf_release(&after);
	}
	/* as Mesa's NIR_PASS: a pass that changed nothing leaves valid IR valid
	 * (with check_progress, "nothing" is checked, and every pass validated) */
	if (pl->validate && !pl->failed && (progress || pl->check_progress)) {
		struct diag d = DIAG_INIT;
		if (!pl->ops->validate(pl->ir, &d, pl->file)) {
			pipeline_error(pl, name, "IR validation failed");
			strbuf_addstr(&pl->diag->text, d.text.buf);
			pl->diag->errors += d.errors;
		}
		diag_release(&d);
	}
	dump_after(pl, name, progress);
	return progress;
}

bool pipeline_list_has(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && !memcmp(p, name, n))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}


static bool known_name(const struct pass_names *known, const char *name, size_t len)
{
	for (size_t i = 0; i < known->count; i++) {
		const char *k = known->name(i);
		if (strlen(k) == len && !memcmp(k, name, len))
			return true;
	}
	return false;
}

static void list_known(const struct pass_names *known, struct strbuf *err)
{
	strbuf_addstr(err, " (known passes:");
	for (size_t i = 0; i < known->count; i++)
		strbuf_addf(err, " %s", known->name(i));
	strbuf_addch(err, ')');
}

bool pass_names_check(const struct pass_names *known, const char *passes, const char *print_after,
		      struct strbuf *err)
{
	if (passes && strcmp(passes, "none")) {
		for (const char *p = passes;;) {
			size_t n = strcspn(p, ",");
			if (!n) {
				strbuf_addf(err, "empty pass name in '%s'", passes);
				return false;
			}
			if (!known_name(known, p, n)) {
				strbuf_addf(err, "unknown pass '%.*s'", (int)n, p);
				list_known(known, err);
				return false;
			}
			if (!p[n])
				break;
			p += n + 1;
		}
	}
	if (print_after && strcmp(print_after, "all") &&
	    !known_name(known, print_after, strlen(print_after))) {
		strbuf_addf(err, "unknown pass '%s' in --print-after", print_after);
		list_known(known, err);
		return false;
	}
	return true;
}
