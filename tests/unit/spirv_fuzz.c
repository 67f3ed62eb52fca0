/*
 * The SPIR-V reader on damaged modules: truncated copies and bit-flipped
 * copies of real modules (the SPIR-V the front end makes of tests/spirv,
 * and a sample of ../shared/corpus's .spv files when it is there).  Every
 * one must give either valid IR or a located error ("NAME: error: …"), and
 * neither crash nor hang nor, under `make SANITIZE=1 check`, trip a
 * sanitizer.  Mutations come from a fixed seed: a failure reproduces.
 *
 *	spirv_fuzz [ROUNDS [SEED]]	ROUNDS bit-flip mutations per module (default
 *				120), from SEED (default a fixed one)
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/front/front.h"
#include "compiler/spirv/spirv.h"
#include "compiler/util/file.h"
#include "tap.h"

#define CORPUS_SAMPLE 40

struct module {
	char *name;
	uint32_t *words;
	size_t n;
	enum shader_stage stage;
	char *entry;
};

static ARRAY(struct module) modules;

static uint64_t rng = 0x5eed5eed5eedULL;

static uint32_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static void add_unit(const char *name, const struct spirv_unit *u)
{
	struct module m = {
		.name = xstrdup(name), .n = u->num_words, .stage = u->stage,
		.entry = u->entry ? xstrdup(u->entry) : NULL,
	};
	m.words = xmalloc(u->num_words * sizeof(uint32_t));
	memcpy(m.words, u->words, u->num_words * sizeof(uint32_t));
	array_push(&modules, m);
}

/* The SPIR-V of a source file, through the front end. */
static void load_source(const char *path)
{
	struct strbuf data = STRBUF_INIT;
	struct compile_options o;
	struct program p;
	enum shader_stage stage;
	enum input_kind kind = input_kind_from_path(path, &stage);
	if (kind == INPUT_UNKNOWN || read_file(path, &data, NULL) < 0) {
		strbuf_release(&data);
		return;
	}
	compile_options_init(&o);
	program_init(&p, path);
	front_compile(&p, data.buf, data.len, kind, stage, &o);
	for (size_t i = 0; i < p.units.len; i++)
		if (p.units.data[i].status == RESULT_OK)
			add_unit(path, &p.units.data[i]);
	program_release(&p);
	compile_options_release(&o);
	strbuf_release(&data);
}

static void load_dir(const char *dir, const char *suffix, unsigned limit)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	ARRAY(char *) names = ARRAY_INIT;
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name), k = strlen(suffix);
		if (e->d_name[0] != '.' && n > k && !strcmp(e->d_name + n - k, suffix) &&
		    !strstr(e->d_name, ".expected"))
			array_push(&names, xstrdup(e->d_name));
	}
	closedir(d);
	for (size_t i = 0; i < names.len; i++) {
		if (i < limit) {
			struct strbuf path = STRBUF_INIT;
			strbuf_addf(&path, "%s/%s", dir, names.data[i]);
			load_source(path.buf);
			strbuf_release(&path);
		}
		free(names.data[i]);
	}
	array_free(&names);
}

/* One damaged module: valid IR or a located error, nothing else. */
static bool try_one(const struct module *m, const uint32_t *w, size_t n, const char *what)
{
	struct diag d = DIAG_INIT;
	struct spirv_options o = { .entry = m->entry, .stage = m->stage };
	struct shader *s = spirv_to_ir(w, n, &o, "fuzz.spv", &d);
	bool good;
	if (s) {
		good = ir_validate(s, &d, "fuzz.spv");
		if (!good)
			tap_diag("%s (%s): the reader made invalid IR:\n%s", m->name, what, d.text.buf);
	} else {
		good = d.errors > 0 && !strncmp(d.text.buf, "fuzz.spv: error: ", 17) &&
		       !strstr(d.text.buf, "internal error");
		if (!good)
			tap_diag("%s (%s): no located error, or an internal one: '%s'", m->name, what,
				 d.text.buf);
	}
	shader_free(s);
	diag_release(&d);
	return good;
}

static void fuzz(const struct module *m, unsigned rounds)
{
	uint32_t *w = xmalloc((m->n + 1) * sizeof(uint32_t));
	unsigned bad = 0, tries = 0;
	char what[64];
	/* truncations: every word boundary for small modules, a spread for big ones */
	size_t step = m->n > 400 ? m->n / 200 : 1;
	for (size_t k = 0; k < m->n; k += step) {
		snprintf(what, sizeof(what), "cut at word %zu", k);
		tries++;
		bad += !try_one(m, m->words, k, what);
	}
	/* bit flips: one to three bits in the body, the header spared half the time */
	for (unsigned r = 0; r < rounds; r++) {
		memcpy(w, m->words, m->n * sizeof(uint32_t));
		unsigned flips = 1 + next_random() % 3;
		size_t first = next_random() % 2 ? 5 : 0;
		for (unsigned f = 0; f < flips && m->n > first; f++) {
			size_t at = first + next_random() % (m->n - first);
			w[at] ^= 1u << (next_random() % 32);
		}
		snprintf(what, sizeof(what), "flip round %u", r);
		tries++;
		bad += !try_one(m, w, m->n, what);
	}
	ok(!bad, "%s (%s): %u damaged copies, each valid IR or a located error", m->name,
	   stage_name(m->stage), tries);
	free(w);
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 120;
	if (argc > 2)
		rng = strtoull(argv[2], NULL, 0) | 1;
	const char *shared = getenv("SHDB_SHARED");
	struct strbuf corpus = STRBUF_INIT;

	load_dir("tests/spirv", "", 1000);
	strbuf_addf(&corpus, "%s/corpus/SaschaWillems-Vulkan/shaders/glsl/pbrtexture",
		    shared ? shared : "../shared");
	load_dir(corpus.buf, ".spv", CORPUS_SAMPLE);
	strbuf_reset(&corpus);
	strbuf_addf(&corpus, "%s/corpus/KhronosGroup-Vulkan-Samples/shaders/pbr_texture_streaming/glsl",
		    shared ? shared : "../shared");
	load_dir(corpus.buf, ".spv", CORPUS_SAMPLE);
	strbuf_release(&corpus);
	if (!modules.len) {
		printf("1..0 # SKIP no modules (run from the source root)\n");
		return 0;
	}
	for (size_t i = 0; i < modules.len; i++) {
		fuzz(&modules.data[i], rounds);
		free(modules.data[i].name);
		free(modules.data[i].words);
		free(modules.data[i].entry);
	}
	array_free(&modules);
	return done_testing();
}
