/*
 * Sources on their way to glslang: #include expansion (our include
 * "callbacks": search order, #line, missing and recursive headers, bounds),
 * the GLSL mode guess, and HLSL told from GLSL.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/front/front.h"
#include "compiler/front/source.h"
#include "compiler/util/file.h"
#include "tap.h"

static char dir[] = "/tmp/shdb-front-source-XXXXXX";

static void put(const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, name);
	if (write_file_atomic(path.buf, text, strlen(text), NULL) < 0)
		BUG("cannot write %s", path.buf);
	strbuf_release(&path);
}

/* Compile `name` from the temporary directory; return its first unit's diag. */
static int compile(const char *name, const char *inc, struct strbuf *diag)
{
	struct strbuf path = STRBUF_INIT, incdir = STRBUF_INIT, data = STRBUF_INIT;
	struct compile_options o;
	struct program p;

	compile_options_init(&o);
	strbuf_addf(&path, "%s/%s", dir, name);
	if (inc) {
		strbuf_addf(&incdir, "%s/%s", dir, inc);
		array_push(&o.include_dirs, incdir.buf);
	}
	read_file(path.buf, &data, NULL);
	program_init(&p, path.buf);
	enum shader_stage stage;
	enum input_kind kind = input_kind_from_path(path.buf, &stage);
	int ret = front_compile(&p, data.buf, data.len, kind, stage, &o);
	strbuf_reset(diag);
	for (size_t i = 0; i < p.units.len; i++) {
		const char *text = p.units.data[i].diag.text.buf;
		/* drop the directory so expectations read "a.frag:3: error: …" */
		for (const char *at; (at = strstr(text, dir)); text = at + strlen(dir) + 1)
			strbuf_add(diag, text, (size_t)(at - text));
		strbuf_addstr(diag, text);
	}
	program_release(&p);
	compile_options_release(&o);
	strbuf_release(&path);
	strbuf_release(&incdir);
	strbuf_release(&data);
	return ret;
}

/* `diag` contains `needle` (shown in full when it does not). */
static void has(const struct strbuf *diag, const char *needle, const char *what)
{
	if (!ok(strstr(diag->buf, needle) != NULL, "%s", what))
		tap_diag("wanted '%s' in:\n%s", needle, diag->buf);
}

static void includes(void)
{
	struct strbuf diag = STRBUF_INIT;
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/inc", dir);
	mkdir(path.buf, 0755);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/sub", dir);
	mkdir(path.buf, 0755);
	put("local.glsl", "vec4 local() { return vec4(1.0); }\n");
	put("inc/lib.glsl", "#include \"nested.glsl\"\nvec4 lib() { return nested(); }\n");
	put("inc/nested.glsl", "vec4 nested() { return vec4(2.0); }\n");
	put("inc/broken.glsl", "vec4 ok() { return vec4(0.0); }\nvec4 bad() { return nope; }\n");
	put("inc/self.glsl", "#include \"self.glsl\"\n");
	put("a.frag", "#version 450\n#include \"local.glsl\"\n#include <lib.glsl>\n"
		      "layout(location = 0) out vec4 o;\nvoid main() { o = local() + lib(); }\n");
	put("b.frag", "#version 450\n#include \"broken.glsl\"\n"
		      "layout(location = 0) out vec4 o;\nvoid main() { o = ok(); }\n");
	put("c.frag", "#version 450\n\n#include \"missing.glsl\"\n"
		      "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(0.0); }\n");
	put("d.frag", "#version 450\n#if 0\n#include \"missing.glsl\"\n#endif\n"
		      "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(0.0); }\n  error_here\n");
	put("e.frag", "#version 450\n#include \"self.glsl\"\nvoid main() {}\n");
	put("f.frag", "#version 450\n#include \"sub/g.glsl\"\n");
	put("sub/g.glsl", "#include \"h.glsl\"\n");	/* relative to sub/, then -I */
	put("sub/h.glsl", "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(3.0); }\n");
	put("g.hlsl", "#include \"inc/hlsl.h\"\nfloat4 main() : SV_Target { return K; }\n");
	put("inc/hlsl.h", "static const float4 K = float4(1, 2, 3, 4);\n");
	put("h.frag", "#include \"inc/hlsl.h\"\nfloat4 main() : SV_Target { return K; }\n");

	is_int(compile("a.frag", "inc", &diag), 0, "\"…\" from the file's directory, <…> and "
	       "nested from -I");
	is_int(compile("a.frag", NULL, &diag), -1, "without -I, <lib.glsl> is missing");
	has(&diag, "a.frag:3: error: cannot find include file <lib.glsl>", "located at the #include");
	is_int(compile("b.frag", "inc", &diag), -1, "an error inside a header fails");
	has(&diag, "inc/broken.glsl:2: error: 'nope' : undeclared identifier",
	    "and names the header and its line");
	is_int(compile("c.frag", NULL, &diag), -1, "a missing header fails");
	has(&diag, "c.frag:3: error: cannot find include file \"missing.glsl\"",
	    "with a located message");
	is_int(compile("d.frag", NULL, &diag), -1, "a missing header in #if 0 is no error...");
	has(&diag, "d.frag:7: error:", "...and the lines after it keep their numbers");
	ok(!strstr(diag.buf, "missing"), "the missing header is not mentioned");
	is_int(compile("e.frag", "inc", &diag), -1, "a header including itself fails");
	has(&diag, "includes itself", "and says so");
	is_int(compile("f.frag", NULL, &diag), 0, "a header's includes resolve from its directory");
	is_int(compile("g.hlsl", NULL, &diag), -1, "HLSL without a stage fails");
	has(&diag, "use --stage", "and says what to do");
	is_int(compile("h.frag", NULL, &diag), 0, "HLSL in a .frag includes too");
	strbuf_release(&diag);
	strbuf_release(&path);
}

static void include_depth(void)
{
	struct strbuf name = STRBUF_INIT, text = STRBUF_INIT, diag = STRBUF_INIT;
	for (int i = 0; i < 40; i++) {
		strbuf_reset(&name);
		strbuf_reset(&text);
		strbuf_addf(&name, "deep%d.glsl", i);
		strbuf_addf(&text, "#include \"deep%d.glsl\"\n", i + 1);
		put(name.buf, text.buf);
	}
	put("deep40.glsl", "\n");
	put("deep.frag", "#version 450\n#include \"deep0.glsl\"\nvoid main() {}\n");
	is_int(compile("deep.frag", NULL, &diag), -1, "40 nested includes fail");
	has(&diag, "nested more than 32 deep", "at the bound");

	/* a diamond doubling at each level would expand to 2^30 copies */
	for (int i = 0; i < 30; i++) {
		strbuf_reset(&name);
		strbuf_reset(&text);
		strbuf_addf(&name, "wide%d.glsl", i);
		strbuf_addf(&text, "#include \"wide%d.glsl\"\n#include \"wide%d.glsl\"\n", i + 1, i + 1);
		put(name.buf, text.buf);
	}
	put("wide30.glsl", "float x;\n");
	put("wide.frag", "#version 450\n#include \"wide0.glsl\"\nvoid main() {}\n");
	is_int(compile("wide.frag", NULL, &diag), -1, "an exponential include tree fails fast");
	has(&diag, "exceeds", "on the size bound");
	strbuf_release(&name);
	strbuf_release(&text);
	strbuf_release(&diag);
}

static void mode(const char *decls, enum shader_stage stage, bool want, const char *what)
{
	struct strbuf src = STRBUF_INIT;
	strbuf_addf(&src, "#version 450\n%s\nvoid main() { float unused; }\n", decls);
	ok(glsl_is_gl_style(src.buf, src.len, stage) == want, "%s: %s", want ? "GL-style" : "Vulkan",
	   what);
	strbuf_release(&src);
}

static void modes(void)
{
	mode("uniform float k;", STAGE_FRAGMENT, true, "a loose uniform");
	mode("uniform sampler2D s;", STAGE_FRAGMENT, true, "a sampler without binding");
	mode("layout(binding = 0) uniform sampler2D s;", STAGE_FRAGMENT, false, "a bound sampler");
	mode("layout(set = 1, binding = 2) uniform texture2D t;", STAGE_FRAGMENT, false,
	     "a bound texture");
	mode("layout(binding = 1) uniform u64image2D img;", STAGE_COMPUTE, false, "a 64-bit image");
	mode("uniform Block { vec4 c; } b;", STAGE_FRAGMENT, true, "a uniform block without binding");
	mode("layout(std140, binding = 1) uniform Block { vec4 c; } b;", STAGE_FRAGMENT, false,
	     "a bound uniform block");
	mode("buffer B { uint d[]; };", STAGE_COMPUTE, true, "a buffer block without binding");
	mode("layout(buffer_reference) buffer Node { Node next; };", STAGE_COMPUTE, false,
	     "a buffer reference");
	mode("layout(shaderRecordEXT) buffer SBT { vec4 c; } sbt;", STAGE_RAYGEN, false,
	     "a shader record");
	mode("layout(std140) uniform;", STAGE_VERTEX, false, "a default block layout");
	mode("layout(push_constant) uniform PC { mat4 m; } pc;", STAGE_VERTEX, false,
	     "push constants");
	mode("layout(binding = 0) uniform atomic_uint n;", STAGE_FRAGMENT, true, "an atomic counter");
	mode("in vec2 uv;", STAGE_FRAGMENT, true, "an input without location");
	mode("layout(location = 0) in vec2 uv;", STAGE_FRAGMENT, false, "an input with location");
	mode("out vec4 color;", STAGE_FRAGMENT, true, "an output without location");
	mode("varying vec2 uv;", STAGE_FRAGMENT, true, "a varying");
	mode("out Block { vec2 uv; } o;", STAGE_VERTEX, true, "a block without location");
	mode("layout(location = 1) out Block { vec2 uv; } o;", STAGE_VERTEX, false,
	     "a block with location");
	mode("out Block { layout(location = 2) vec2 uv; } o;", STAGE_VERTEX, false,
	     "a block with member locations");
	mode("out gl_PerVertex { vec4 gl_Position; };", STAGE_VERTEX, false, "gl_PerVertex");
	mode("layout(triangles) in;\nlayout(location = 0) in vec3 n[];", STAGE_GEOMETRY, false,
	     "a layout-only input declaration");
	mode("layout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer B { uint d[]; };",
	     STAGE_COMPUTE, false, "compute");
	mode("taskNV out Task { uint id; } t;", STAGE_TASK, false, "a task payload");
	mode("struct S { float x; };\nconst float k = 1.0;\nfloat f(in float x) { return x; }",
	     STAGE_FRAGMENT, false, "structs, constants and function parameters");
	mode("// uniform float k;\n#define X uniform float k;", STAGE_FRAGMENT, false,
	     "comments and directives");
	mode("precision highp float;", STAGE_FRAGMENT, false, "a precision statement");
	mode("void f() { int i = gl_VertexID; }", STAGE_VERTEX, true, "gl_VertexID");
	mode("void f() { uint i = gl_InstanceID; }", STAGE_CLOSEST_HIT, false,
	     "gl_InstanceID of ray tracing");
}

static void hlsl(const char *src, bool want, const char *what)
{
	ok(source_looks_like_hlsl(src, strlen(src)) == want, "%s: %s", want ? "HLSL" : "GLSL", what);
}

int main(void)
{
	if (!mkdtemp(dir))
		return skip_all("cannot make a temporary directory");
	includes();
	include_depth();
	modes();
	hlsl("float4 main(float2 uv : TEXCOORD0) : SV_TARGET { return 0; }", true, "float4, SV_");
	hlsl("cbuffer C : register(b0) { float k; };", true, "cbuffer");
	hlsl("[numthreads(8, 1, 1)] void main() {}", true, "numthreads");
	hlsl("#version 450\nfloat4 f;", false, "a #version says GLSL");
	hlsl("varying vec2 uv; void main() { gl_FragColor = vec4(uv, 0.0, 1.0); }", false,
	     "legacy GLSL without #version");
	hlsl("// float4 in a comment\nvoid main() {}", false, "words in comments do not count");

	struct strbuf cmd = STRBUF_INIT;
	strbuf_addf(&cmd, "rm -rf '%s'", dir);
	if (system(cmd.buf) != 0)
		tap_diag("could not remove %s", dir);
	strbuf_release(&cmd);
	return done_testing();
}
