/*
 * Fuzz target: a GLSL or HLSL source on its way to glslang
 * (compiler/front/source.c): the #include expander, the legacy GLSL rewriter
 * (LEGACY.md) and the guesses about the source (version, GL style, HLSL).
 * glslang itself is not ours and is left out.  The stage and HLSL-ness come
 * from a hash of the input, so every input is tried one way, always the same.
 *
 * Includes resolve in a folder made at the first call, holding headers that
 * exercise each path: a plain one, one including itself, one with a NUL byte,
 * one included twice by another, and a -I folder:
 *
 *	#include "a.glsl"  "self.glsl"  "nul.glsl"  "twice.glsl"  <sys.glsl>
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/front/source.h"
#include "compiler/util/file.h"
#include "compiler/util/hash.h"
#include "fuzz/fuzz.h"

static char dir[64];

static void put(const char *name, const char *text, size_t len)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, name);
	FILE *f = fopen(path.buf, "wb");
	FUZZ_CHECK(f && fwrite(text, 1, len, f) == len && !fclose(f), "cannot write %s", path.buf);
	strbuf_release(&path);
}

static void remove_dir(void)
{
	static const char *const names[] = { "a.glsl", "self.glsl", "nul.glsl", "twice.glsl",
					     "inc/sys.glsl", "inc", "" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", dir, names[i]);
		remove(path.buf);
		strbuf_release(&path);
	}
}

static void make_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%.40s/shdb-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	FUZZ_CHECK(mkdtemp(dir), "mkdtemp %s", dir);
	atexit(remove_dir);
	put("a.glsl", "#define A_GLSL 1\nfloat fa() { return 1.0; }\n", 44);
	put("self.glsl", "#include \"self.glsl\"\n", 21);
	put("nul.glsl", "float x;\0\n", 10);
	put("twice.glsl", "#include \"a.glsl\"\n#include \"a.glsl\"\n", 36);
	struct strbuf inc = STRBUF_INIT;
	strbuf_addf(&inc, "%s/inc", dir);
	FUZZ_CHECK(!mkdir(inc.buf, 0700), "mkdir %s", inc.buf);
	strbuf_release(&inc);
	put("inc/sys.glsl", "#include \"../a.glsl\"\nvec4 sys;\n", 30);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum shader_stage stages[] = {
		STAGE_VERTEX, STAGE_FRAGMENT, STAGE_GEOMETRY, STAGE_TESS_CTRL, STAGE_TESS_EVAL,
		STAGE_COMPUTE, STAGE_MESH, STAGE_RAYGEN,
	};
	if (!*dir)
		make_dir();
	uint64_t h = hash_bytes(data, size);
	enum shader_stage stage = stages[h % (sizeof(stages) / sizeof(stages[0]))];
	bool hlsl = (h >> 8) % 8 == 0;
	/* one stage, or a file of several: .slang pragmas, RetroArch defines */
	enum multistage_kind multi = (enum multistage_kind)((h >> 12) % 3);

	struct strbuf file = STRBUF_INIT, inc = STRBUF_INIT;
	strbuf_addf(&file, "%s/fuzz.glsl", dir);
	strbuf_addf(&inc, "%s/inc", dir);
	struct compile_options o;
	compile_options_init(&o);
	array_push(&o.include_dirs, inc.buf);
	struct prepared_source ps;
	struct diag d = DIAG_INIT;
	if (source_prepare(file.buf, (const char *)data, size, 1, stage, hlsl, multi, &o, &ps, &d) < 0)
		FUZZ_CHECK(d.errors > 0 && !strstr(d.text.buf, "internal error"),
			   "failed without an error: '%s'", d.text.buf);
	else
		FUZZ_CHECK(ps.text.len <= 8 * SOURCE_MAX_SIZE + 8 * size,
			   "%zu bytes of %zu", ps.text.len, size);
	source_looks_like_hlsl((const char *)data, size);
	prepared_source_release(&ps);
	compile_options_release(&o);
	diag_release(&d);
	strbuf_release(&file);
	strbuf_release(&inc);
	return 0;
}
