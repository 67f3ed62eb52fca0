/*
 * GLSL and HLSL to SPIR-V through glslang's C interface, in process.
 *
 * A compile is a list of attempts, each a configuration of glslang (strict
 * or relaxed Vulkan rules, SPIR-V 1.3 or 1.6, OpenGL's SPIR-V for atomic
 * counters); the first that turns every
 * stage into SPIR-V wins, else the one that turned the most, else the first.
 * With --glsl-mode=auto the first attempt uses the mode the source looks
 * like (glsl_mode.c) and the second the other one, so a wrong guess costs a
 * second compile, never a shader.
 *
 * glslang's messages ("ERROR: 0:12: 'x' : undeclared identifier") become
 * located diags ("file.frag:12: error: 'x' : undeclared identifier"); string
 * 0 is the user's file, other names come from the #line directives of
 * include.c.
 *
 * Process state: glslang_initialize_process() runs once per process (the
 * runner's forked workers inherit it), glslang_finalize_process() at exit,
 * which frees glslang's symbol tables so leak checkers stay quiet.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <glslang/build_info.h>

#include "compiler/front/front_internal.h"

static once_flag init_once = ONCE_FLAG_INIT;

static void finalize(void)
{
	glslang_finalize_process();
}

static void initialize(void)
{
	glslang_initialize_process();
	atexit(finalize);
}

#if GLSLANG_VERSION_MAJOR == 12 && GLSLANG_VERSION_MINOR == 0
/*
 * glslang 12.0's C interface cannot name the entry point, which HLSL needs
 * (glslang_shader_set_entry_point() came in a later release).  Its
 * glslang_shader_t is { glslang::TShader *shader; std::string
 * preprocessedGLSL; } (glslang_c_interface.cpp), so we call
 * TShader::setEntryPoint(const char *) on the first member through the
 * method's symbol.  tests/t0010-front.sh checks the entry point it makes.
 */
void shdb_tshader_set_entry_point(void *tshader, const char *name)
	__asm__("_ZN7glslang7TShader13setEntryPointEPKc");

static void set_entry_point(glslang_shader_t *sh, const char *name)
{
	shdb_tshader_set_entry_point(*(void **)sh, name);
}
#else
static void set_entry_point(glslang_shader_t *sh, const char *name)
{
	glslang_shader_set_entry_point(sh, name);
}
#endif

static glslang_stage_t glslang_stage(enum shader_stage s)
{
	static const glslang_stage_t map[STAGE_COUNT] = {
		[STAGE_VERTEX] = GLSLANG_STAGE_VERTEX,
		[STAGE_TESS_CTRL] = GLSLANG_STAGE_TESSCONTROL,
		[STAGE_TESS_EVAL] = GLSLANG_STAGE_TESSEVALUATION,
		[STAGE_GEOMETRY] = GLSLANG_STAGE_GEOMETRY,
		[STAGE_FRAGMENT] = GLSLANG_STAGE_FRAGMENT,
		[STAGE_COMPUTE] = GLSLANG_STAGE_COMPUTE,
		[STAGE_TASK] = GLSLANG_STAGE_TASK,
		[STAGE_MESH] = GLSLANG_STAGE_MESH,
		[STAGE_RAYGEN] = GLSLANG_STAGE_RAYGEN,
		[STAGE_ANY_HIT] = GLSLANG_STAGE_ANYHIT,
		[STAGE_CLOSEST_HIT] = GLSLANG_STAGE_CLOSESTHIT,
		[STAGE_MISS] = GLSLANG_STAGE_MISS,
		[STAGE_INTERSECTION] = GLSLANG_STAGE_INTERSECT,
		[STAGE_CALLABLE] = GLSLANG_STAGE_CALLABLE,
	};
	return map[s];
}

/* ---- messages ---- */

PRINTF_LIKE(5, 6)
static void diag_add(struct diag *d, const char *kind, const char *file, int line,
		     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(d, kind, file, line, 0, fmt, ap);
	va_end(ap);
	if (!strcmp(kind, "error"))
		d->errors++;
	else if (!strcmp(kind, "warning"))
		d->warnings++;
}

/* "0:12: rest" or "inc/x.h:3: rest": the file (string 0 is `file`), the line
 * and the rest; false when the message carries no location. */
static bool split_location(const char *msg, size_t n, const char *file, struct strbuf *where,
			   int *line, const char **rest)
{
	for (size_t i = 0; i < n && msg[i] != '\''; i++) {	/* the message proper quotes */
		if (msg[i] != ':' || i == 0)
			continue;
		size_t j = i + 1;
		while (j < n && msg[j] >= '0' && msg[j] <= '9')
			j++;
		if (j == i + 1 || j + 1 >= n || msg[j] != ':' || msg[j + 1] != ' ')
			continue;
		strbuf_reset(where);
		if (strspn(msg, "0123456789") >= i)
			strbuf_addstr(where, file);
		else
			strbuf_add(where, msg, i);
		*line = atoi(msg + i + 1);
		*rest = msg + j + 2;
		return true;
	}
	return false;
}

static bool is_noise(const char *msg, size_t n)
{
	return (n > 20 && memmem(msg, n, "compilation errors.  No code generated.", 39)) ||
	       (n >= 27 && !memcmp(msg, "'' : compilation terminated", 27));
}

/* Add one glslang log about `ps` (NULL: the link) to `d`, located in `file`. */
static void add_log(struct diag *d, const char *file, const char *log,
		    const struct prepared_source *ps)
{
	static const struct {
		const char *prefix, *kind;
	} kinds[] = {
		{ "ERROR: ", "error" }, { "WARNING: ", "warning" }, { "INTERNAL ERROR: ", "error" },
		{ "UNIMPLEMENTED: ", "error" }, { "NOTE: ", "note" },
	};
	struct strbuf where = STRBUF_INIT, text = STRBUF_INIT;

	for (const char *p = log; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		const char *kind = "note", *msg = p, *rest;
		int line = 0;

		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			size_t plen = strlen(kinds[k].prefix);
			if (n >= plen && !memcmp(p, kinds[k].prefix, plen)) {
				kind = kinds[k].kind;
				msg = p + plen;
				break;
			}
		}
		size_t mlen = n - (size_t)(msg - p);
		while (mlen && (msg[mlen - 1] == ' ' || msg[mlen - 1] == '\r'))
			mlen--;
		if (split_location(msg, mlen, file, &where, &line, &rest)) {
			mlen -= (size_t)(rest - msg);
			msg = rest;
		} else {
			strbuf_reset(&where);
			strbuf_addstr(&where, file);
		}
		const char *ours = source_include_error(ps, msg, mlen);
		if (ours) {
			diag_add(d, kind, where.buf, line, "%s", ours);
		} else if (mlen && !is_noise(msg, mlen)) {
			strbuf_reset(&text);
			source_respell(ps, line, !strcmp(where.buf, file), msg, mlen, &text);
			diag_add(d, kind, where.buf, line, "%s", text.buf);
		}
		p = eol ? eol + 1 : NULL;
	}
	strbuf_release(&where);
	strbuf_release(&text);
}

/* ---- one attempt ---- */

struct config {
	bool relaxed;		/* GL_EXT_vulkan_glsl_relaxed, automatic locations and bindings */
	bool vk13;		/* Vulkan 1.3, SPIR-V 1.6 (else Vulkan 1.1, SPIR-V 1.3) */
	bool gl;		/* OpenGL 4.5's SPIR-V (ARB_gl_spirv), automatic locations
				 * and bindings: atomic counters, which Vulkan lacks */
};

struct attempt {
	struct config cfg;
	struct spirv_unit *units;	/* one per p->units, only those touched are used */
	bool *touched;
	int ok;
	bool link_failed;		/* every stage parsed; glslang_program_link() failed */
};

static const char *how(const struct config *cfg, const struct prepared_source *ps)
{
	if (ps->hlsl)
		return "hlsl";
	if (ps->legacy)
		return ps->version.es ? "legacy-es" : "legacy";
	if (cfg->gl)
		return "gl";
	if (cfg->relaxed)
		return cfg->vk13 ? "vkrelaxed13" : "vkrelaxed";
	return cfg->vk13 ? "vk13" : "vk11";
}

static glslang_input_t make_input(const struct glslang_source *s, const struct config *cfg)
{
	glslang_input_t in = {
		.language = s->prepared.hlsl ? GLSLANG_SOURCE_HLSL : GLSLANG_SOURCE_GLSL,
		.stage = glslang_stage(s->stage),
		.client = cfg->gl ? GLSLANG_CLIENT_OPENGL : GLSLANG_CLIENT_VULKAN,
		.client_version = cfg->gl ? GLSLANG_TARGET_OPENGL_450 :
				  cfg->vk13 ? GLSLANG_TARGET_VULKAN_1_3 : GLSLANG_TARGET_VULKAN_1_1,
		.target_language = GLSLANG_TARGET_SPV,
		.target_language_version = cfg->gl ? GLSLANG_TARGET_SPV_1_0 :
					   cfg->vk13 ? GLSLANG_TARGET_SPV_1_6 : GLSLANG_TARGET_SPV_1_3,
		.code = s->prepared.text.buf,
		.default_version = 100,
		.default_profile = GLSLANG_NO_PROFILE,
		.messages = GLSLANG_MSG_SPV_RULES_BIT |
			    (cfg->gl ? 0 : GLSLANG_MSG_VULKAN_RULES_BIT) |
			    (s->prepared.hlsl ? GLSLANG_MSG_READ_HLSL_BIT : 0),
		.resource = glslang_default_resource(),
	};
	return in;
}

/* -D NAME[=VALUE] → "#define NAME VALUE\n"; false for a malformed NAME. */
static bool make_preamble(const struct compile_options *o, struct strbuf *out, struct diag *d,
			  const char *file)
{
	for (size_t i = 0; i < o->defines.len; i++) {
		const char *def = o->defines.data[i];
		size_t n = strcspn(def, "=(");
		bool ok = n > 0 && !(def[0] >= '0' && def[0] <= '9');
		for (size_t k = 0; k < n; k++)
			ok &= def[k] == '_' || (def[k] >= '0' && def[k] <= '9') ||
			      ((def[k] | 0x20) >= 'a' && (def[k] | 0x20) <= 'z');
		if (!ok) {
			diag_error(d, file, 0, 0, "-D '%s': not a macro name", def);
			return false;
		}
		const char *eq = strchr(def, '=');
		if (eq)
			strbuf_addf(out, "#define %.*s %s\n", (int)(eq - def), def, eq + 1);
		else
			strbuf_addf(out, "#define %s 1\n", def);
	}
	return true;
}

static void unit_reset(struct spirv_unit *u, enum shader_stage stage, const char *entry)
{
	free(u->words);
	free(u->entry);
	diag_release(&u->diag);
	memset(u, 0, sizeof(*u));
	diag_init(&u->diag);
	u->stage = stage;
	u->entry = xstrdup(entry);
	u->status = RESULT_ERROR;
}

static void unit_free(struct spirv_unit *u)
{
	free(u->words);
	free(u->entry);
	diag_release(&u->diag);
	memset(u, 0, sizeof(*u));
}

/* The words of `stage` in a linked program, into unit `u`. */
static void generate(glslang_program_t *prog, const struct glslang_source *s,
		     struct spirv_unit *u, const char *file)
{
	glslang_spv_options_t opts = {
		/* HLSL needs spirv-opt's legalisation (opaque copies and the like) */
		.disable_optimizer = !s->prepared.hlsl,
	};
	/* glslang 12 appends each stage's module to the program's one vector
	 * (14.1 clears it first): ours starts where the vector ended */
	size_t before = glslang_program_SPIRV_get_size(prog);
	glslang_program_SPIRV_generate_with_options(prog, glslang_stage(s->stage), &opts);
	const char *msgs = glslang_program_SPIRV_get_messages(prog);
	if (msgs && *msgs)
		add_log(&u->diag, file, msgs, NULL);
	size_t after = glslang_program_SPIRV_get_size(prog);
	const unsigned *all = glslang_program_SPIRV_get_ptr(prog);
	size_t start = after > before && all[before] == 0x07230203 ? before : 0;
	if (after <= start) {
		diag_error(&u->diag, file, 0, 0, "glslang made no SPIR-V for the %s stage",
			   stage_name(s->stage));
		return;
	}
	u->num_words = after - start;
	u->words = xmalloc(u->num_words * sizeof(uint32_t));
	memcpy(u->words, all + start, u->num_words * sizeof(uint32_t));
	u->status = RESULT_OK;
}

/* Every unit the sources touch, reset for a new attempt. */
static void start_attempt(struct program *p, const struct glslang_source *src, size_t n,
			  size_t only_unit, const char *entry, struct attempt *a)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = src[i].unit;
		if ((only_unit != SIZE_MAX && k != only_unit) || a->touched[k])
			continue;
		unit_reset(&a->units[k], src[i].stage, entry);
		a->units[k].how = how(&a->cfg, &src[i].prepared);
		a->units[k].line = p->units.data[k].line;
		a->touched[k] = true;
	}
}

static glslang_shader_t *parse_one(const struct glslang_source *s, const struct config *cfg,
				   const char *entry, const char *preamble, bool *ok)
{
	glslang_input_t in = make_input(s, cfg);
	glslang_shader_t *sh = glslang_shader_create(&in);

	if (cfg->relaxed)
		glslang_shader_set_options(sh, GLSLANG_SHADER_AUTO_MAP_BINDINGS |
					       GLSLANG_SHADER_AUTO_MAP_LOCATIONS |
					       GLSLANG_SHADER_VULKAN_RULES_RELAXED);
	else if (cfg->gl)
		glslang_shader_set_options(sh, GLSLANG_SHADER_AUTO_MAP_BINDINGS |
					       GLSLANG_SHADER_AUTO_MAP_LOCATIONS);
	if (s->prepared.hlsl)
		set_entry_point(sh, entry);
	struct strbuf all = STRBUF_INIT;	/* glslang keeps the pointer: it lives until the parse */
	strbuf_addstr(&all, preamble);
	if (s->defines)
		strbuf_addstr(&all, s->defines);
	if (all.len)
		glslang_shader_set_preamble(sh, all.buf);
	*ok = glslang_shader_preprocess(sh, &in) && glslang_shader_parse(sh, &in);
	strbuf_release(&all);
	return sh;
}

/* Link what parsed and generate each stage's words; false when the link failed. */
static bool link_and_generate(struct program *p, const struct glslang_source *src, size_t n,
			      glslang_shader_t **shaders, const bool *failed, const char *entry,
			      struct attempt *a)
{
	glslang_program_t *prog = glslang_program_create();
	bool *in_prog = xcalloc(p->units.len, sizeof(bool));
	int messages = 0;
	bool any = false, ok;

	for (size_t i = 0; i < n; i++) {
		if (!shaders[i] || failed[src[i].unit])
			continue;
		glslang_program_add_shader(prog, shaders[i]);
		in_prog[src[i].unit] = any = true;
		messages = make_input(&src[i], &a->cfg).messages;
	}
	ok = any && glslang_program_link(prog, messages) && glslang_program_map_io(prog);
	const char *log = glslang_program_get_info_log(prog);
	bool no_entry = ok && src[0].prepared.hlsl && log && strstr(log, "Entry point not found");

	for (size_t k = 0; any && k < p->units.len; k++) {
		if (!in_prog[k])
			continue;
		if (log && *log)
			add_log(&a->units[k].diag, p->name, log, NULL);
		if (no_entry)
			diag_error(&a->units[k].diag, p->name, 0, 0, "entry point '%s' not found",
				   entry);
	}
	for (size_t i = 0; ok && !no_entry && i < n; i++) {
		size_t k = src[i].unit;
		if (in_prog[k] && a->units[k].status != RESULT_OK)
			generate(prog, &src[i], &a->units[k], p->name);
	}
	glslang_program_delete(prog);
	free(in_prog);
	return !any || ok;
}

/*
 * Run glslang over the sources of `only_unit` (SIZE_MAX: all of them) under
 * a->cfg: parse each, link those whose unit parsed, generate SPIR-V.
 */
static void run_attempt(struct program *p, const struct glslang_source *src, size_t n,
			size_t only_unit, const struct compile_options *o, const char *preamble,
			struct attempt *a)
{
	glslang_shader_t **shaders = xcalloc(n, sizeof(*shaders));
	bool *failed = xcalloc(p->units.len, sizeof(bool));
	const char *entry = src[0].prepared.hlsl && o->entry ? o->entry : "main";
	bool any_failed = false;

	start_attempt(p, src, n, only_unit, entry, a);
	for (size_t i = 0; i < n; i++) {
		size_t k = src[i].unit;
		bool ok;
		if (only_unit != SIZE_MAX && k != only_unit)
			continue;
		shaders[i] = parse_one(&src[i], &a->cfg, entry, preamble, &ok);
		add_log(&a->units[k].diag, p->name, glslang_shader_get_info_log(shaders[i]),
			&src[i].prepared);
		if (!ok)
			failed[k] = any_failed = true;
	}
	bool linked = link_and_generate(p, src, n, shaders, failed, entry, a);
	a->link_failed = !linked && !any_failed;

	for (size_t i = 0; i < n; i++)
		if (shaders[i])
			glslang_shader_delete(shaders[i]);
	free(shaders);
	free(failed);
	a->ok = 0;
	for (size_t k = 0; k < p->units.len; k++)
		a->ok += a->touched[k] && a->units[k].status == RESULT_OK;
}

/* ---- choosing and keeping attempts ---- */

/* The configurations to try, in order; returns how many. */
static size_t choose_configs(const struct glslang_source *src, size_t n,
			     const struct compile_options *o, struct config *cfgs)
{
	bool vk13 = false, gl_style = false, legacy = false, counters = false;
	bool hlsl = src[0].prepared.hlsl, automatic = o->glsl_mode == GLSL_MODE_AUTO && !hlsl;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		vk13 |= src[i].prepared.spirv_14;
		gl_style |= src[i].prepared.gl_style;
		legacy |= src[i].prepared.legacy;
		counters |= src[i].prepared.atomic_counters;
	}
	bool relaxed = !hlsl && (o->glsl_mode == GLSL_MODE_RELAXED || (automatic && gl_style));
	cfgs[k++] = (struct config){ .relaxed = relaxed, .vk13 = vk13 };
	if (automatic && !legacy)
		cfgs[k++] = (struct config){ .relaxed = !relaxed, .vk13 = vk13 };
	if (!vk13)
		cfgs[k++] = (struct config){ .relaxed = relaxed, .vk13 = true };
	if (automatic && counters)
		cfgs[k++] = (struct config){ .gl = true };
	return k;
}

static void attempt_init(struct attempt *a, const struct program *p, struct config cfg)
{
	a->cfg = cfg;
	a->units = xcalloc(p->units.len, sizeof(*a->units));
	a->touched = xcalloc(p->units.len, sizeof(bool));
	a->ok = 0;
	a->link_failed = false;
}

static void attempt_release(struct attempt *a, const struct program *p)
{
	for (size_t k = 0; a->units && k < p->units.len; k++)
		if (a->touched[k])
			unit_free(&a->units[k]);
	free(a->units);
	free(a->touched);
	a->units = NULL;
	a->touched = NULL;
}

/* The stages parsed but do not link together: compile each alone. */
static void compile_each_alone(struct program *p, const struct glslang_source *src, size_t n,
			       const struct compile_options *o, const char *preamble,
			       struct attempt *best)
{
	struct strbuf why = STRBUF_INIT;

	for (size_t k = 0; k < p->units.len; k++) {
		if (!best->touched[k])
			continue;
		diag_first_error(&best->units[k].diag, &why);
		struct attempt a;
		attempt_init(&a, p, best->cfg);
		run_attempt(p, src, n, k, o, preamble, &a);
		diag_warning(&a.units[k].diag, p->name, 0, 0,
			     "the stages do not link together, so each was compiled alone (%s)",
			     why.buf);
		unit_free(&best->units[k]);
		best->units[k] = a.units[k];
		a.touched[k] = false;
		attempt_release(&a, p);
	}
	strbuf_release(&why);
}

static int count_touched(const struct program *p, const struct glslang_source *src, size_t n)
{
	bool *seen = xcalloc(p->units.len, sizeof(bool));
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		count += !seen[src[i].unit];
		seen[src[i].unit] = true;
	}
	free(seen);
	return count;
}

static void compile_here(struct program *p, struct glslang_source *src, size_t n,
			 const struct compile_options *o)
{
	struct config cfgs[5];
	size_t num_cfgs = choose_configs(src, n, o, cfgs);
	int want = count_touched(p, src, n);
	struct strbuf preamble = STRBUF_INIT;
	struct attempt best = { 0 };

	call_once(&init_once, initialize);
	if (!make_preamble(o, &preamble, &p->units.data[src[0].unit].diag, p->name)) {
		for (size_t i = 1; i < n; i++)
			if (src[i].unit != src[0].unit)
				diag_first_error(&p->units.data[src[0].unit].diag, &preamble),
				diag_error(&p->units.data[src[i].unit].diag, NULL, 0, 0, "%s",
					   preamble.buf);
		strbuf_release(&preamble);
		return;
	}
	for (size_t c = 0; c < num_cfgs && best.ok < want; c++) {
		struct attempt a;
		attempt_init(&a, p, cfgs[c]);
		run_attempt(p, src, n, SIZE_MAX, o, preamble.buf, &a);
		if (!best.units || a.ok > best.ok) {
			attempt_release(&best, p);
			best = a;
		} else {
			attempt_release(&a, p);
		}
	}
	if (best.link_failed && want > 1)
		compile_each_alone(p, src, n, o, preamble.buf, &best);
	else
		p->linked = want > 1 && best.ok == want;

	for (size_t k = 0; k < p->units.len; k++) {
		if (!best.touched[k])
			continue;
		unit_free(&p->units.data[k]);
		p->units.data[k] = best.units[k];
		best.touched[k] = false;
	}
	attempt_release(&best, p);
	strbuf_release(&preamble);
}

/*
 * glslang recurses once per operand of an expression when it walks its tree
 * (a+a+…+a is as deep as it is long), and 100,000 terms overflowed the main
 * thread's 8 MiB stack.  So it runs on a thread of its own whose stack holds
 * the deepest expression a source of SOURCE_MAX_SIZE (source.h) can spell,
 * about half a million operands at some 300 bytes of frames each.  The stack
 * is address space; only the pages a compile reaches are used.
 */
#define GLSLANG_STACK_SIZE ((size_t)1 << 30)

struct glslang_job {
	struct program *p;
	struct glslang_source *src;
	size_t n;
	const struct compile_options *o;
};

static void *glslang_thread(void *arg)
{
	struct glslang_job *j = arg;
	compile_here(j->p, j->src, j->n, j->o);
	return NULL;
}

void glslang_compile(struct program *p, struct glslang_source *src, size_t n,
		     const struct compile_options *o)
{
	struct glslang_job j = { p, src, n, o };
	pthread_attr_t attr;
	pthread_t t;
	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, GLSLANG_STACK_SIZE) ||
	    pthread_create(&t, &attr, glslang_thread, &j)) {
		compile_here(p, src, n, o);	/* no thread to be had: the small stack */
	} else if (pthread_join(t, NULL)) {
		BUG("pthread_join failed");
	}
	pthread_attr_destroy(&attr);
}
