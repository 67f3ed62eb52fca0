/*
 * --compiler: run a command per shader and read statistics from its output
 * (extcc.h).
 */
#include "runner/extcc.h"
#include "stats/stat.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler/util/error.h"
#include "runner/pool.h"

#define OUTPUT_LIMIT ((size_t)16 << 20)
#define MESSAGE_LIMIT 300

/* Mesa's shader-db line: "[PATH - ]STAGE shader: N name, N name, …". */
static const char ir3_line_re[] =
	"^(?:.* - )?(?<stage>[A-Z]+) shader: (?<list>.*?)\\s*$";
/* One "N name" (or "a:b name1:name2") entry of the list. */
static const char ir3_item_re[] =
	"(?<v>-?\\d+)(?::(?<v2>-?\\d+))?\\s+(?<name>[^,]+?)\\s*(?:,|$)";

int extcc_init(struct extcc *x, const char *command, const char *preset,
	       char *const *patterns, size_t npatterns, struct strbuf *err)
{
	memset(x, 0, sizeof(*x));
	x->command = command;
	x->per_target = strstr(command, "{target}") != NULL;
	if (preset) {
		if (strcmp(preset, "ir3")) {
			strbuf_addf(err, "unknown compiler preset '%s' (known: ir3)", preset);
			return -1;
		}
		x->ir3 = true;
		x->ir3_line = re_compile(ir3_line_re, PCRE2_MULTILINE, "ir3 preset", err);
		x->ir3_item = re_compile(ir3_item_re, 0, "ir3 preset", err);
		if (!x->ir3_line || !x->ir3_item)
			return -1;
	}
	for (size_t i = 0; i < npatterns; i++) {
		pcre2_code *re = re_compile(patterns[i], PCRE2_MULTILINE, "--stat-pattern", err);
		if (!re)
			return -1;
		array_push(&x->patterns, re);
	}
	return 0;
}

void extcc_release(struct extcc *x)
{
	for (size_t i = 0; i < x->patterns.len; i++)
		pcre2_code_free(x->patterns.data[i]);
	array_free(&x->patterns);
	pcre2_code_free(x->ir3_line);
	pcre2_code_free(x->ir3_item);
}

/* ---- the command line --------------------------------------------------- */

static void add_quoted(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

void extcc_expand(const char *command, const struct extcc_file *f, struct strbuf *out)
{
	static const char *const names[] = { "{file}", "{path}", "{stage}", "{entry}", "{target}" };
	const char *values[] = {
		f->file, f->path, f->stage == STAGE_NONE ? "" : stage_name(f->stage),
		f->entry ? f->entry : "main", f->target ? f->target->name : "",
	};
	for (const char *c = command; *c;) {
		size_t i = 0;
		for (; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strncmp(c, names[i], strlen(names[i])))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			strbuf_addch(out, *c++);
			continue;
		}
		add_quoted(out, values[i]);
		c += strlen(names[i]);
	}
}

/* ---- reading statistics ------------------------------------------------- */

static struct compile_result *result_for(struct compile_output *out, size_t first,
					 enum shader_stage stage, const struct target *t)
{
	for (size_t i = first; i < out->results.len; i++)
		if (out->results.data[i].stage == stage)
			return &out->results.data[i];
	struct compile_result *r = array_push_zero(&out->results);
	r->stage = stage;
	r->target = t;
	r->status = RESULT_OK;
	return r;
}

static bool has_stat(const struct compile_result *r, const char *key)
{
	for (size_t i = 0; i < r->stats.len; i++)
		if (!strcmp(r->stats.data[i].key, key))
			return true;
	return false;
}

static void add_stat(struct compile_result *r, const char *key, int64_t v)
{
	if (!has_stat(r, key))
		array_push(&r->stats, (struct stat_value){ .key = key, .value = v });
}

static bool parse_int(const char *s, size_t n, int64_t *v)
{
	char buf[32];
	char *end;
	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return !errno && *end == '\0';
}

/* "non-nops" → "non_nops", "(ss)" → "ss", "maxwaves" → "waves": the
 * statistics table's key when it knows the name, else the name made
 * JSON-friendly. */
static const char *ir3_key(struct arena *a, const char *name, size_t n)
{
	const struct stat_info *si = stat_lookup(name, n);
	if (si)
		return si->key;
	char *k = arena_alloc(a, n + 1);
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '(' || c == ')')
			continue;
		if (isalnum(c))
			k[len++] = (char)tolower(c);
		else if (len && k[len - 1] != '_')
			k[len++] = '_';
	}
	while (len && k[len - 1] == '_')
		len--;
	k[len] = '\0';
	return k;
}

static void group(pcre2_code *re, pcre2_match_data *md, const char *name, const char *text,
		  const char **s, size_t *n)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	int g = pcre2_substring_number_from_name(re, (PCRE2_SPTR)name);
	*s = NULL;
	*n = 0;
	if (g > 0 && ov[2 * g] != PCRE2_UNSET) {
		*s = text + ov[2 * g];
		*n = ov[2 * g + 1] - ov[2 * g];
	}
}

/* One list "12 inst, 3 nops, 0:0 spills:fills" into `r`. */
static void parse_ir3_list(const struct extcc *x, const char *list, size_t len,
			   struct arena *keys, struct compile_result *r)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(x->ir3_item, NULL);
	size_t off = 0;
	while (off < len && pcre2_match(x->ir3_item, (PCRE2_SPTR)list, len, off, 0, md, NULL) >= 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		const char *v, *v2, *name;
		size_t vn, v2n, namen;
		int64_t a, b;
		group(x->ir3_item, md, "v", list, &v, &vn);
		group(x->ir3_item, md, "v2", list, &v2, &v2n);
		group(x->ir3_item, md, "name", list, &name, &namen);
		off = ov[1] > off ? ov[1] : off + 1;
		if (!parse_int(v, vn, &a))
			continue;
		const char *colon = v2 ? memchr(name, ':', namen) : NULL;
		if (colon && parse_int(v2, v2n, &b)) {
			add_stat(r, ir3_key(keys, name, (size_t)(colon - name)), a);
			add_stat(r, ir3_key(keys, colon + 1, namen - (size_t)(colon - name) - 1), b);
		} else {
			add_stat(r, ir3_key(keys, name, namen), a);
		}
	}
	pcre2_match_data_free(md);
}

static size_t parse_ir3(const struct extcc *x, const char *text, size_t len,
			const struct extcc_file *f, struct arena *keys, struct compile_output *out)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(x->ir3_line, NULL);
	size_t first = out->results.len, off = 0;
	bool seen[STAGE_COUNT] = { 0 };

	while (off < len && pcre2_match(x->ir3_line, (PCRE2_SPTR)text, len, off, 0, md, NULL) >= 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		const char *tag, *list;
		size_t tagn, listn;
		char tagbuf[16];
		off = ov[1] > off ? ov[1] : off + 1;
		group(x->ir3_line, md, "stage", text, &tag, &tagn);
		group(x->ir3_line, md, "list", text, &list, &listn);
		if (tagn >= sizeof(tagbuf))
			continue;
		memcpy(tagbuf, tag, tagn);
		tagbuf[tagn] = '\0';
		enum shader_stage s = stage_from_name(tagbuf);
		if (s == STAGE_NONE || seen[s])
			continue;	/* BVERT, or a second variant of the stage */
		seen[s] = true;
		parse_ir3_list(x, list, listn, keys, result_for(out, first, s, f->target));
	}
	pcre2_match_data_free(md);
	return out->results.len - first;
}

static void parse_pattern(pcre2_code *re, const char *text, size_t len,
			  const struct extcc_file *f, struct arena *keys,
			  struct compile_output *out, size_t first)
{
	uint32_t count = 0, entry_size = 0;
	PCRE2_SPTR table = NULL;
	pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
	pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);

	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	size_t off = 0;
	while (off <= len && pcre2_match(re, (PCRE2_SPTR)text, len, off, 0, md, NULL) >= 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		off = ov[1] > off ? ov[1] : off + 1;
		enum shader_stage stage = f->stage;
		const char *s;
		size_t n;
		char buf[32];
		group(re, md, "stage", text, &s, &n);
		if (s && n < sizeof(buf)) {
			memcpy(buf, s, n);
			buf[n] = '\0';
			stage = stage_from_name(buf);
		}
		struct compile_result *r = result_for(out, first, stage, f->target);
		for (uint32_t i = 0; i < count; i++) {
			PCRE2_SPTR e = table + (size_t)i * entry_size;
			const char *name = (const char *)e + 2;
			int g = (e[0] << 8) | e[1];
			int64_t v;
			if (!strcmp(name, "stage") || ov[2 * g] == PCRE2_UNSET)
				continue;
			if (parse_int(text + ov[2 * g], ov[2 * g + 1] - ov[2 * g], &v))
				add_stat(r, arena_strdup(keys, name), v);
		}
	}
	pcre2_match_data_free(md);
}

size_t extcc_parse(const struct extcc *x, const char *text, size_t len,
		   const struct extcc_file *f, struct arena *keys, struct compile_output *out)
{
	size_t first = out->results.len;
	if (x->ir3)
		parse_ir3(x, text, len, f, keys, out);
	for (size_t i = 0; i < x->patterns.len; i++)
		parse_pattern(x->patterns.data[i], text, len, f, keys, out, first);
	return out->results.len - first;
}

/* ---- running the command ------------------------------------------------ */

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The line to quote for a failure: the first mentioning "error", else the first. */
static char *failure_line(const char *text)
{
	const char *pick = NULL, *first = NULL;
	for (const char *line = text; *line;) {
		const char *end = strchrnul(line, '\n');
		while (line < end && isspace((unsigned char)*line))
			line++;
		if (line < end) {
			char *copy = xstrndup(line, (size_t)(end - line));
			bool err = strcasestr(copy, "error") != NULL;
			free(copy);
			if (!first)
				first = line;
			if (err) {
				pick = line;
				break;
			}
		}
		line = *end ? end + 1 : end;
	}
	if (!pick)
		pick = first;
	if (!pick)
		return NULL;
	size_t n = (size_t)(strchrnul(pick, '\n') - pick);
	while (n && isspace((unsigned char)pick[n - 1]))
		n--;
	return xstrndup(pick, n < MESSAGE_LIMIT ? n : MESSAGE_LIMIT);
}

/* Run `cmd`; its output (up to the limit) into `text`; returns the wait status. */
static int run_command(const char *cmd, struct strbuf *text)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);
		dup2(nul, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	char buf[65536];
	for (;;) {
		ssize_t n = read(pfd[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (text->len < OUTPUT_LIMIT)
			strbuf_add(text, buf, (size_t)n);
	}
	close(pfd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

/* The signal that killed the command: sh's own death, or the exit status
 * 128+N sh reports for a command killed by signal N. */
static int killed_by(int status)
{
	if (WIFSIGNALED(status))
		return WTERMSIG(status);
	if (WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + 32)
		return WEXITSTATUS(status) - 128;
	return 0;
}

static void fail(struct compile_output *out, const struct extcc_file *f,
		 enum result_status st, char *message)
{
	struct compile_result *r = array_push_zero(&out->results);
	r->stage = f->stage;
	r->target = f->target;
	r->status = st;
	r->message = message;
}

void extcc_run(const struct extcc *x, const struct extcc_file *f,
	       struct compile_progress *progress, struct arena *keys,
	       struct compile_output *out)
{
	struct strbuf cmd = STRBUF_INIT, text = STRBUF_INIT, msg = STRBUF_INIT;
	size_t first = out->results.len;
	uint64_t start = now_us();

	progress->phase = "compiler";
	progress->pass = NULL;
	progress->target = f->target ? f->target->name : NULL;
	extcc_expand(x->command, f, &cmd);
	int status = run_command(cmd.buf, &text);

	if (status < 0) {
		strbuf_addf(&msg, "cannot run the compiler command: %s", strerror(errno));
		fail(out, f, RESULT_ERROR, strbuf_detach(&msg, NULL));
	} else if (killed_by(status)) {
		char name[16];
		strbuf_addf(&msg, "compiler command killed by %s",
			    pool_signal_name(killed_by(status), name));
		fail(out, f, RESULT_CRASH, strbuf_detach(&msg, NULL));
	} else if (WEXITSTATUS(status) != 0) {
		char *line = failure_line(text.buf);
		if (!line) {
			strbuf_addf(&msg, "compiler command exited with status %d",
				    WEXITSTATUS(status));
			line = strbuf_detach(&msg, NULL);
		}
		fail(out, f, RESULT_ERROR, line);
	} else if (!extcc_parse(x, text.buf, text.len, f, keys, out)) {
		if (x->ir3 || x->patterns.len)
			fail(out, f, RESULT_ERROR, xstrdup("no statistics in the compiler's output"));
		else
			fail(out, f, RESULT_OK, NULL);
	}
	uint64_t elapsed = now_us() - start;
	for (size_t i = first; i < out->results.len; i++) {
		out->results.data[i].time_us = elapsed;
		if (x->keep_output && status >= 0)
			out->results.data[i].disasm = xstrndup(text.buf, text.len);
	}
	progress->phase = NULL;
	strbuf_release(&cmd);
	strbuf_release(&text);
	strbuf_release(&msg);
}
