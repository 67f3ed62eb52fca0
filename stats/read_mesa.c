/*
 * Records from a Mesa shader-db log: the stdout of shader-db's `run`
 * (shaderdb-tools.md §3).  Lines look like
 *
 *	shaders/a/1.shader_test - FRAG shader: 40 inst, 10 nops, 2 (ss), 16 waves
 *	shaders/y/4.shader_test - FS SIMD8 shader: 300 inst, 4:6 spills:fills, ...
 *	shaders/a/5.shader_test - type: 1, local: 0, gpr: 4, inst: 7, bytes: 56
 *	Thread 0 took 1.00 seconds and compiled 3 shaders ...
 *
 * (ir3, etnaviv, Intel, v3d; nouveau's "type:" form; run.c's timing lines).
 * As report.py: PATH is the non-blank word before the first " - ", STAGE runs
 * to the last " shader: ", entries are split at ", ".  Unlike report.py, an
 * entry "N name with spaces" keeps its name ("12 code size"); entries that do
 * not start with a number ("scheduled with mode top-down", "Promoted 0
 * constants") are skipped.  Every other line is not ours and is skipped.
 */
#include <math.h>
#include <stdlib.h>

#include "stats/input.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *find(const char *p, const char *end, const char *what)
{
	return memmem(p, (size_t)(end - p), what, strlen(what));
}

/* The last " shader: " (report.py's greedy match): after the first one, the
 * colons are few, so look for the others through them. */
static const char *last_shader(const char *p, const char *end)
{
	const char *last = find(p, end, " shader: ");
	for (const char *q = last ? last + 8 : end; (q = memchr(q, ':', (size_t)(end - q))); q++)
		if (q - 7 > last && q + 1 < end && q[1] == ' ' && !memcmp(q - 7, " shader", 7))
			last = q - 7;
	return last;
}

/* The next ", " at or after p, or NULL. */
static const char *next_separator(const char *p, const char *end)
{
	for (const char *q = p; (q = memchr(q, ',', (size_t)(end - q))); q++)
		if (q + 1 < end && q[1] == ' ')
			return q;
	return NULL;
}

/* PATH and where the text after " - " starts; false if the line has none. */
static bool split_path(const char *line, const char *end, struct span *path, const char **rest)
{
	for (const char *p = line; (p = find(p, end, " - ")); p++) {
		if (p == line || is_blank(p[-1]))
			continue;
		const char *start = p;
		while (start > line && !is_blank(start[-1]))
			start--;
		*path = (struct span){ start, (size_t)(p - start) };
		*rest = p + 3;
		return true;
	}
	return false;
}

static void add_pair(struct reader *rd, const char *name, size_t len, double value)
{
	array_push(&rd->pairs, (struct stat_pair){ { name, len }, value });
}

/* "a:b x:y" gives x = a and y = b (Intel's "0:0 spills:fills", v3d too). */
static bool colon_pair(struct reader *rd, const char *val, size_t vlen, const char *name,
		       size_t nlen)
{
	const char *vc = memchr(val, ':', vlen), *nc = memchr(name, ':', nlen);
	double a, b;
	if (!vc || !nc || !parse_number(val, (size_t)(vc - val), &a) ||
	    !parse_number(vc + 1, vlen - (size_t)(vc - val) - 1, &b))
		return false;
	add_pair(rd, name, (size_t)(nc - name), a);
	add_pair(rd, nc + 1, nlen - (size_t)(nc - name) - 1, b);
	return true;
}

/* One "N name" entry; anything else is skipped. */
static void value_first(struct reader *rd, const char *p, const char *end)
{
	const char *sp = memchr(p, ' ', (size_t)(end - p));
	if (!sp || sp + 1 == end)
		return;
	size_t vlen = (size_t)(sp - p);
	const char *name = sp + 1;
	size_t nlen = (size_t)(end - name);
	double v;
	if (parse_number(p, vlen, &v))
		add_pair(rd, name, nlen, v);
	else
		colon_pair(rd, p, vlen, name, nlen);
}

/* One "name: N" entry (nouveau). */
static void name_first(struct reader *rd, const char *p, const char *end)
{
	const char *colon = find(p, end, ": ");
	double v;
	if (colon && parse_number(colon + 2, (size_t)(end - colon - 2), &v))
		add_pair(rd, p, (size_t)(colon - p), v);
}

static void split_entries(struct reader *rd, const char *p, const char *end, bool nouveau)
{
	rd->pairs.len = 0;
	while (p < end) {
		const char *sep = next_separator(p, end);
		const char *stop = sep ? sep : end;
		while (stop > p && (is_blank(stop[-1]) || stop[-1] == '\n'))
			stop--;
		if (nouveau)
			name_first(rd, p, stop);
		else
			value_first(rd, p, stop);
		p = sep ? sep + 2 : end;
	}
}

/* nouveau's "type: N" is a stage number: VS FS GS TCS TES CS (§4.6). */
static struct span nouveau_stage(const char *p, const char *end, const char **entries)
{
	static const char *const names[] = { "VS", "FS", "GS", "TCS", "TES", "CS" };
	const char *comma = next_separator(p, end);
	const char *stop = comma ? comma : end;
	*entries = comma ? comma + 2 : end;
	char *num_end;
	long n = strtol(p, &num_end, 10);
	if (num_end == stop && n >= 0 && n < 6)
		return (struct span){ names[n], strlen(names[n]) };
	return (struct span){ p, (size_t)(stop - p) };
}

static void thread_time(struct reader *rd, const char *line, const char *end)
{
	const char *took = find(line, end, " took ");
	if (!took)
		return;
	const char *num = took + 6, *sp = memchr(num, ' ', (size_t)(end - num));
	double secs;
	if (sp && parse_number(num, (size_t)(sp - num), &secs))
		rd->cpu_seconds += secs;
}

static void stats_line(struct reader *rd, const char *line, size_t len, int lineno)
{
	const char *end = line + len, *rest, *entries;
	struct record r = { .target = SPAN_LIT(""), .time_us = NAN, .line = lineno };
	if (!split_path(line, end, &r.path, &rest))
		return;
	bool nouveau = end - rest > 6 && !memcmp(rest, "type: ", 6);
	if (nouveau) {
		r.stage = nouveau_stage(rest + 6, end, &entries);
	} else {
		const char *sh = last_shader(rest, end);
		if (!sh)
			return;
		r.stage = (struct span){ rest, (size_t)(sh - rest) };
		entries = sh + 9;
	}
	split_entries(rd, entries, end, nouveau);
	r.stats = rd->pairs.data;
	r.nstats = rd->pairs.len;
	rd->emit(rd->ctx, &r);
	rd->records++;
}

void read_mesa_log(struct reader *rd, struct line_reader *lr)
{
	size_t len;
	for (char *line; (line = line_reader_next(lr, &len));) {
		if (len > 7 && !memcmp(line, "Thread ", 7)) {
			thread_time(rd, line, line + len);
			continue;
		}
		stats_line(rd, line, len, lr->lineno);
		if (lr->unterminated && len)
			reader_warning(rd, lr->lineno, 0,
				       "the file ends without a newline; is it truncated?");
	}
}
