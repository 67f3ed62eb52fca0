/*
 * The legacy GLSL rewrite (legacy.h, LEGACY.md).  Two passes over the tokens
 * of glsl_lex.h: the first finds what the source uses (built-ins, user
 * functions named like newer built-ins, gl_FragData indices, built-ins it
 * redeclares), the second copies the tokens with identifiers replaced.  The
 * declarations of the lowered built-ins go after the new #version line,
 * followed by a #line that gives the user's next line its own number:
 *
 *	#version 120                    #version 140
 *	varying vec2 uv;          →     out vec4 shdb_FragColor; …
 *	…gl_FragColor = texture2D(…     #line 1
 *	                                in vec2 uv;
 *	                                …shdb_FragColor = texture(…
 *
 * (gl_FragColor becomes the shader's only output, so glslang's automatic
 * locations put it at 0, where GL put it).  Only whole
 * identifiers outside comments change; directives are rewritten too, so
 * `#define TEX texture2D` works, except #extension lines of extensions the
 * new version has in core, which become empty lines.
 */
#include "compiler/front/legacy.h"

#include <stdlib.h>
#include <string.h>

#define V (1u << STAGE_VERTEX)
#define F (1u << STAGE_FRAGMENT)
#define ANY (~0u)

/* How a lowered built-in is declared. */
enum legacy_kind {
	LK_UNIFORM,		/* uniform T name; */
	LK_INPUT,		/* in T name; (attributes, varyings read by the fragment stage) */
	LK_OUTPUT,		/* out T name; (varyings written by the vertex stage) */
	LK_FRAG_OUT,		/* out T name; the only output, so at location 0 */
	LK_PRIVATE,		/* T name; written and never read by anyone */
	LK_RENAME,		/* no declaration: a built-in of the new version, or a constant */
};

struct legacy_var {
	const char *name;	/* the legacy built-in */
	unsigned stages;	/* where this row applies (a bit per stage) */
	enum legacy_kind kind;
	const char *type;	/* "mat4"; "shdb_…" names a struct of `structs` */
	const char *array;	/* "[8]" or "" */
	const char *to;		/* the replacement; NULL: "shdb_" + name without "gl_" */
};

#define MATRIX(n, a) \
	{ "gl_" n, ANY, LK_UNIFORM, "mat4", a, NULL }, \
	{ "gl_" n "Inverse", ANY, LK_UNIFORM, "mat4", a, NULL }, \
	{ "gl_" n "Transpose", ANY, LK_UNIFORM, "mat4", a, NULL }, \
	{ "gl_" n "InverseTranspose", ANY, LK_UNIFORM, "mat4", a, NULL }

/* The built-ins of desktop GLSL's compatibility profile and of GLSL ES 1.00
 * that newer versions do not have (GLSL 1.20 §7, ES 1.00 §7). */
static const struct legacy_var vars[] = {
	MATRIX("ModelViewMatrix", ""),
	MATRIX("ProjectionMatrix", ""),
	MATRIX("ModelViewProjectionMatrix", ""),
	MATRIX("TextureMatrix", "[8]"),
	{ "gl_NormalMatrix", ANY, LK_UNIFORM, "mat3", "", NULL },
	{ "gl_NormalScale", ANY, LK_UNIFORM, "float", "", NULL },
	{ "gl_ClipPlane", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_TextureEnvColor", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_EyePlaneS", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_EyePlaneT", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_EyePlaneR", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_EyePlaneQ", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_ObjectPlaneS", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_ObjectPlaneT", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_ObjectPlaneR", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_ObjectPlaneQ", ANY, LK_UNIFORM, "vec4", "[8]", NULL },
	{ "gl_LightSource", ANY, LK_UNIFORM, "shdb_LightSourceParameters", "[8]", NULL },
	{ "gl_LightModel", ANY, LK_UNIFORM, "shdb_LightModelParameters", "", NULL },
	{ "gl_FrontLightModelProduct", ANY, LK_UNIFORM, "shdb_LightModelProducts", "", NULL },
	{ "gl_BackLightModelProduct", ANY, LK_UNIFORM, "shdb_LightModelProducts", "", NULL },
	{ "gl_FrontLightProduct", ANY, LK_UNIFORM, "shdb_LightProducts", "[8]", NULL },
	{ "gl_BackLightProduct", ANY, LK_UNIFORM, "shdb_LightProducts", "[8]", NULL },
	{ "gl_FrontMaterial", ANY, LK_UNIFORM, "shdb_MaterialParameters", "", NULL },
	{ "gl_BackMaterial", ANY, LK_UNIFORM, "shdb_MaterialParameters", "", NULL },
	{ "gl_Fog", ANY, LK_UNIFORM, "shdb_FogParameters", "", NULL },
	{ "gl_Point", ANY, LK_UNIFORM, "shdb_PointParameters", "", NULL },
	/* struct type names, for shaders that declare variables of them */
	{ "gl_LightSourceParameters", ANY, LK_RENAME, NULL, NULL, NULL },
	{ "gl_LightModelParameters", ANY, LK_RENAME, NULL, NULL, NULL },
	{ "gl_LightModelProducts", ANY, LK_RENAME, NULL, NULL, NULL },
	{ "gl_LightProducts", ANY, LK_RENAME, NULL, NULL, NULL },
	{ "gl_MaterialParameters", ANY, LK_RENAME, NULL, NULL, NULL },
	{ "gl_FogParameters", ANY, LK_RENAME, NULL, NULL, NULL },
	{ "gl_PointParameters", ANY, LK_RENAME, NULL, NULL, NULL },
	/* constants of the compatibility profile */
	{ "gl_MaxLights", ANY, LK_RENAME, NULL, NULL, "8" },
	{ "gl_MaxClipPlanes", ANY, LK_RENAME, NULL, NULL, "8" },
	{ "gl_MaxTextureUnits", ANY, LK_RENAME, NULL, NULL, "8" },
	{ "gl_MaxTextureCoords", ANY, LK_RENAME, NULL, NULL, "8" },
	/* vertex attributes */
	{ "gl_Vertex", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_Normal", V, LK_INPUT, "vec3", "", NULL },
	{ "gl_Color", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_SecondaryColor", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_FogCoord", V, LK_INPUT, "float", "", NULL },
	{ "gl_MultiTexCoord0", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_MultiTexCoord1", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_MultiTexCoord2", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_MultiTexCoord3", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_MultiTexCoord4", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_MultiTexCoord5", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_MultiTexCoord6", V, LK_INPUT, "vec4", "", NULL },
	{ "gl_MultiTexCoord7", V, LK_INPUT, "vec4", "", NULL },
	/* varyings: written by the vertex stage, read by the fragment stage under
	 * the name the vertex stage writes (gl_Color reads gl_FrontColor) */
	{ "gl_FrontColor", V, LK_OUTPUT, "vec4", "", NULL },
	{ "gl_BackColor", V, LK_OUTPUT, "vec4", "", NULL },
	{ "gl_FrontSecondaryColor", V, LK_OUTPUT, "vec4", "", NULL },
	{ "gl_BackSecondaryColor", V, LK_OUTPUT, "vec4", "", NULL },
	{ "gl_TexCoord", V, LK_OUTPUT, "vec4", "[8]", NULL },
	{ "gl_FogFragCoord", V, LK_OUTPUT, "float", "", NULL },
	{ "gl_ClipVertex", V, LK_PRIVATE, "vec4", "", NULL },
	{ "gl_Color", F, LK_INPUT, "vec4", "", "shdb_FrontColor" },
	{ "gl_SecondaryColor", F, LK_INPUT, "vec4", "", "shdb_FrontSecondaryColor" },
	{ "gl_TexCoord", F, LK_INPUT, "vec4", "[8]", NULL },
	{ "gl_FogFragCoord", F, LK_INPUT, "float", "", NULL },
	/* fragment outputs; gl_FragData's size comes from the indices used */
	{ "gl_FragColor", F, LK_FRAG_OUT, "vec4", "", NULL },
	{ "gl_FragData", F, LK_FRAG_OUT, "vec4", NULL, NULL },
	{ "gl_FragDepthEXT", F, LK_RENAME, NULL, NULL, "gl_FragDepth" },
};

static const struct {
	const char *name, *members;
} structs[] = {
	{ "shdb_LightSourceParameters",
	  "vec4 ambient; vec4 diffuse; vec4 specular; vec4 position; vec4 halfVector; "
	  "vec3 spotDirection; float spotExponent; float spotCutoff; float spotCosCutoff; "
	  "float constantAttenuation; float linearAttenuation; float quadraticAttenuation;" },
	{ "shdb_LightModelParameters", "vec4 ambient;" },
	{ "shdb_LightModelProducts", "vec4 sceneColor;" },
	{ "shdb_LightProducts", "vec4 ambient; vec4 diffuse; vec4 specular;" },
	{ "shdb_MaterialParameters",
	  "vec4 emission; vec4 ambient; vec4 diffuse; vec4 specular; float shininess;" },
	{ "shdb_FogParameters",
	  "vec4 color; float density; float start; float end; float scale;" },
	{ "shdb_PointParameters",
	  "float size; float sizeMin; float sizeMax; float fadeThresholdSize; "
	  "float distanceConstantAttenuation; float distanceLinearAttenuation; "
	  "float distanceQuadraticAttenuation;" },
};

/* Texture look-ups of the old versions and their generic replacements. */
static const struct {
	const char *from, *to;
} texture_renames[] = {
	{ "texture1D", "texture" }, { "texture2D", "texture" }, { "texture3D", "texture" },
	{ "textureCube", "texture" }, { "texture2DRect", "texture" },
	{ "texture1DProj", "textureProj" }, { "texture2DProj", "textureProj" },
	{ "texture3DProj", "textureProj" }, { "texture2DRectProj", "textureProj" },
	{ "texture1DLod", "textureLod" }, { "texture2DLod", "textureLod" },
	{ "texture3DLod", "textureLod" }, { "textureCubeLod", "textureLod" },
	{ "texture1DProjLod", "textureProjLod" }, { "texture2DProjLod", "textureProjLod" },
	{ "texture3DProjLod", "textureProjLod" },
	/* GL_EXT_shader_texture_lod, GL_ARB_shader_texture_lod, GL_EXT_shadow_samplers */
	{ "texture2DLodEXT", "textureLod" }, { "texture2DProjLodEXT", "textureProjLod" },
	{ "textureCubeLodEXT", "textureLod" }, { "texture2DGradEXT", "textureGrad" },
	{ "texture2DProjGradEXT", "textureProjGrad" }, { "textureCubeGradEXT", "textureGrad" },
	{ "texture1DGradARB", "textureGrad" }, { "texture2DGradARB", "textureGrad" },
	{ "texture3DGradARB", "textureGrad" }, { "textureCubeGradARB", "textureGrad" },
	{ "texture2DRectGradARB", "textureGrad" }, { "texture1DProjGradARB", "textureProjGrad" },
	{ "texture2DProjGradARB", "textureProjGrad" }, { "texture3DProjGradARB", "textureProjGrad" },
	{ "texture2DRectProjGradARB", "textureProjGrad" },
	{ "shadow2DEXT", "texture" }, { "shadow2DProjEXT", "textureProj" },
};

/* shadow*() return a vec4 where texture() on a shadow sampler returns a
 * float: each becomes a helper "shdb_shadow…" that widens the result. */
static const struct shadow_fn {
	const char *name, *sampler, *coord, *fn;
	bool lod;
	bool bias;		/* has a bias form in fragment shaders (rectangles have none) */
} shadow_fns[] = {
	{ "shadow1D", "sampler1DShadow", "vec3", "texture", false, true },
	{ "shadow2D", "sampler2DShadow", "vec3", "texture", false, true },
	{ "shadow2DRect", "sampler2DRectShadow", "vec3", "texture", false, false },
	{ "shadow1DProj", "sampler1DShadow", "vec4", "textureProj", false, true },
	{ "shadow2DProj", "sampler2DShadow", "vec4", "textureProj", false, true },
	{ "shadow2DRectProj", "sampler2DRectShadow", "vec4", "textureProj", false, false },
	{ "shadow1DLod", "sampler1DShadow", "vec3", "textureLod", true, false },
	{ "shadow2DLod", "sampler2DShadow", "vec3", "textureLod", true, false },
	{ "shadow1DProjLod", "sampler1DShadow", "vec4", "textureProjLod", true, false },
	{ "shadow2DProjLod", "sampler2DShadow", "vec4", "textureProjLod", true, false },
};

/* Extensions whose features the new version has in core: their #extension
 * lines go (glslang would refuse some of them at the new version). */
static const char *const core_extensions[] = {
	"GL_OES_standard_derivatives", "GL_EXT_shader_texture_lod", "GL_ARB_shader_texture_lod",
	"GL_EXT_frag_depth", "GL_EXT_draw_buffers", "GL_ARB_draw_buffers",
	"GL_EXT_shadow_samplers", "GL_OES_texture_3D", "GL_ARB_texture_rectangle",
	"GL_EXT_gpu_shader4", NULL,
};

/* Keywords of the new version that an old source may use as names.  Words
 * an old source plausibly uses as keywords (precision qualifiers, "flat" with
 * GL_EXT_gpu_shader4, sampler2DRect…) are left alone.  "texture", which old
 * sources name samplers and the rewrite calls, is renamed where the source
 * uses it as a name (vulkan_name_use()). */
static const char *const desktop_words_130[] = {
	"case", "default", "switch", "uint", "uvec2", "uvec3", "uvec4", "flat", "smooth",
	"noperspective", "isampler1D", "isampler2D", "isampler3D", "isamplerCube",
	"isampler1DArray", "isampler2DArray", "usampler1D", "usampler2D", "usampler3D",
	"usamplerCube", "usampler1DArray", "usampler2DArray", "sampler1DArray",
	"sampler2DArray", "sampler1DArrayShadow", "sampler2DArrayShadow", "samplerCubeShadow",
	NULL,
};
static const char *const desktop_words_140[] = {
	"layout", "samplerBuffer", "isamplerBuffer", "usamplerBuffer", "isampler2DRect",
	"usampler2DRect", NULL,
};
static const char *const es_words_300[] = {
	"layout", "centroid", "flat", "smooth", "case", "default", "switch", "uint", "uvec2",
	"uvec3", "uvec4", "samplerCubeShadow", "sampler2DArray", "sampler2DArrayShadow",
	"isampler2D", "isampler3D", "isamplerCube", "isampler2DArray", "usampler2D",
	"usampler3D", "usamplerCube", "usampler2DArray", NULL,
};
static const char *const es_words_310[] = {
	"buffer", "shared", "coherent", "restrict", "readonly", "writeonly", "atomic_uint",
	"image2D", "iimage2D", "uimage2D", "image3D", "iimage3D", "uimage3D", "imageCube",
	"iimageCube", "uimageCube", "image2DArray", "iimage2DArray", "uimage2DArray",
	"sampler2DMS", "isampler2DMS", "usampler2DMS", NULL,
};

/* Built-in functions of the new version an old source may define itself
 * (WebGL code often has its own inverse() or transpose()). */
static const char *const desktop_functions[] = {
	"outerProduct", "transpose", "round", "roundEven", "trunc", "sinh", "cosh", "tanh",
	"asinh", "acosh", "atanh", "isnan", "isinf", "textureSize", "texelFetch",
	"texelFetchOffset", "textureOffset", "textureProjOffset", "textureLodOffset",
	"textureProjLodOffset", "textureGrad", "textureGradOffset", "textureProjGrad",
	"textureProjGradOffset", "textureProj", "textureLod", "textureProjLod", "inverse", NULL,
};
static const char *const es_functions_300[] = {
	"round", "roundEven", "trunc", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
	"isnan", "isinf", "modf", "floatBitsToInt", "floatBitsToUint", "intBitsToFloat",
	"uintBitsToFloat", "packSnorm2x16", "unpackSnorm2x16", "packUnorm2x16",
	"unpackUnorm2x16", "packHalf2x16", "unpackHalf2x16", "outerProduct", "transpose",
	"determinant", "inverse", "textureSize", "textureProj", "textureLod", "textureOffset",
	"texelFetch", "texelFetchOffset", "textureProjOffset", "textureLodOffset",
	"textureProjLod", "textureProjLodOffset", "textureGrad", "textureGradOffset",
	"textureProjGrad", "textureProjGradOffset", NULL,
};
static const char *const es_functions_310[] = {
	"frexp", "ldexp", "packUnorm4x8", "packSnorm4x8", "unpackUnorm4x8", "unpackSnorm4x8",
	"bitfieldExtract", "bitfieldInsert", "bitfieldReverse", "bitCount", "findLSB",
	"findMSB", "uaddCarry", "usubBorrow", "umulExtended", "imulExtended", "textureGather",
	"textureGatherOffset", "memoryBarrier", NULL,
};

/* Types Vulkan GLSL adds (GL_KHR_vulkan_glsl), which glslang reserves in
 * every mode it makes SPIR-V for Vulkan in: GL sources may name variables
 * so ("uniform sampler2D sampler;").  Renamed where the source uses one as
 * a name — not followed by a name or a '(' — and then everywhere. */
static const char *const vulkan_words[] = {
	"sampler", "samplerShadow", "texture1D", "texture2D", "texture3D", "textureCube",
	"texture2DRect", "texture1DArray", "texture2DArray", "textureBuffer", "texture2DMS",
	"texture2DMSArray", "textureCubeArray", "itexture1D", "itexture2D", "itexture3D",
	"itextureCube", "itexture2DRect", "itexture1DArray", "itexture2DArray", "itextureBuffer",
	"itexture2DMS", "itexture2DMSArray", "itextureCubeArray", "utexture1D", "utexture2D",
	"utexture3D", "utextureCube", "utexture2DRect", "utexture1DArray", "utexture2DArray",
	"utextureBuffer", "utexture2DMS", "utexture2DMSArray", "utextureCubeArray",
	"subpassInput", "isubpassInput", "usubpassInput", "subpassInputMS", "isubpassInputMS",
	"usubpassInputMS", NULL,
};
#define NUM_VULKAN_WORDS (sizeof(vulkan_words) / sizeof(vulkan_words[0]) - 1)

static const char *const basic_types[] = {
	"float", "int", "uint", "bool", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4",
	"bvec2", "bvec3", "bvec4", "mat2", "mat3", "mat4", NULL,
};

#define NUM_VARS (sizeof(vars) / sizeof(vars[0]))
#define NUM_SHADOW (sizeof(shadow_fns) / sizeof(shadow_fns[0]))
#define MAX_FUNCTIONS 64

struct legacy {
	enum shader_stage stage;
	struct glsl_version from, to;
	const char *const *words[2];		/* keyword sets to rename */
	const char *const *functions[2];	/* function names to rename when defined */
	bool used[NUM_VARS];
	bool redeclared[NUM_VARS];
	bool shadow_used[NUM_SHADOW];
	bool function_defined[2][MAX_FUNCTIONS];
	bool vulkan_name[NUM_VULKAN_WORDS];	/* used as a name: renamed */
	bool texture_name;			/* an old source names something "texture" */
	bool calls_inverse, defines_inverse;
	int frag_data_size;			/* -1: some index is not a literal */
	int first_line;
	bool old_builtins;			/* the source's version has gl_FragColor,
						 * texture2D(), varying… (not ES 3.00) */
	bool calls_only;			/* texture2D… renamed only where called */
	struct strbuf *out;
	spelling_array *spellings;		/* what the user wrote where we changed it */
	bool exact_lines;			/* lines of the text are the user's lines */
};

static int find_word(const char *const *list, const struct glsl_token *t)
{
	for (int i = 0; list && list[i]; i++)
		if (glsl_token_is(t, list[i]))
			return i;
	return -1;
}

static int find_var(const struct legacy *lg, const struct glsl_token *t)
{
	if (!lg->old_builtins || t->len < 4 || memcmp(t->text, "gl_", 3))
		return -1;
	for (size_t i = 0; i < NUM_VARS; i++)
		if (vars[i].stages & (1u << lg->stage) && glsl_token_is(t, vars[i].name))
			return (int)i;
	return -1;
}

static int find_shadow(const struct glsl_token *t)
{
	for (size_t i = 0; i < NUM_SHADOW; i++)
		if (glsl_token_is(t, shadow_fns[i].name))
			return (int)i;
	return -1;
}

static const char *find_texture_rename(const struct glsl_token *t)
{
	for (size_t i = 0; i < sizeof(texture_renames) / sizeof(texture_renames[0]); i++)
		if (glsl_token_is(t, texture_renames[i].from))
			return texture_renames[i].to;
	return NULL;
}

/* A removed built-in function or variable, used as one: a texture function
 * must be called (Vulkan GLSL has a type named texture2D). */
static bool uses_removed(const struct legacy *lg, const struct glsl_token *t,
			 struct glsl_lexer *lx)
{
	struct glsl_lexer peek = *lx;
	struct glsl_token next;

	if (find_var(lg, t) >= 0 || glsl_token_is(t, "ftransform"))
		return true;
	if (!find_texture_rename(t) && find_shadow(t) < 0)
		return false;
	return glsl_lex_skip_blanks(&peek, &next) == GTOK_PUNCT && *next.text == '(';
}

/* What follows the token at `lx`: newlines, blanks and comments skipped. */
static enum glsl_token_kind peek_next(const struct glsl_lexer *lx, struct glsl_token *next)
{
	struct glsl_lexer peek = *lx;
	enum glsl_token_kind k;
	while ((k = glsl_lex_skip_blanks(&peek, next)) == GTOK_NEWLINE)
		;
	return k;
}

static bool is_call(const struct glsl_lexer *lx)
{
	struct glsl_token next;
	return peek_next(lx, &next) == GTOK_PUNCT && *next.text == '(';
}

/* A word used as a name: not followed by a name (a declaration of that
 * type) or a '(' (a call or constructor).  In a directive, only what follows
 * on its line counts ("#define TEX texture" is no use). */
static bool name_use(const struct glsl_token *t, const struct glsl_lexer *lx)
{
	struct glsl_lexer peek = *lx;
	struct glsl_token next;
	enum glsl_token_kind k = t->directive ? glsl_lex_skip_blanks(&peek, &next)
					      : peek_next(lx, &next);
	return !(k == GTOK_IDENT || k == GTOK_NEWLINE || k == GTOK_EOF ||
		 (k == GTOK_PUNCT && *next.text == '('));
}

/* A word of vulkan_words used as a name (its index), or -1. */
static int vulkan_name_use(const struct glsl_token *t, const struct glsl_lexer *lx)
{
	if (t->len < 7 || !strchr("stiu", *t->text))	/* sampler, texture…, subpass… */
		return -1;
	int i = find_word(vulkan_words, t);
	return i >= 0 && name_use(t, lx) ? i : -1;
}

bool legacy_needed(const char *src, size_t len, const struct glsl_version *v,
		   enum shader_stage stage)
{
	struct legacy lg = { .stage = stage, .old_builtins = true };
	struct glsl_lexer lx;
	struct glsl_token t;
	/* GLSL 1.40 has inverse(), which glslang gives only 1.50 and later */
	bool inverse_140 = !v->es && v->version == 140;
	bool removed = !v->es && (v->version < 420 || v->compatibility);

	if (v->es ? v->version < 310 : v->version < 140)
		return true;
	glsl_lexer_init(&lx, src, len);
	while (glsl_lex(&lx, &t) != GTOK_EOF) {
		if (t.kind != GTOK_IDENT)
			continue;
		if ((removed && uses_removed(&lg, &t, &lx)) || vulkan_name_use(&t, &lx) >= 0 ||
		    (inverse_140 && glsl_token_is(&t, "inverse") && is_call(&lx)))
			return true;
	}
	return false;
}

/* The oldest desktop version with the stage (glslang's rules). */
static int desktop_minimum(enum shader_stage s)
{
	switch (s) {
	case STAGE_VERTEX: case STAGE_FRAGMENT: return 140;
	case STAGE_GEOMETRY: return 150;
	case STAGE_TESS_CTRL: case STAGE_TESS_EVAL: return 400;
	case STAGE_COMPUTE: return 430;
	case STAGE_TASK: case STAGE_MESH: return 450;
	default: return 460;
	}
}

static void choose_versions(struct legacy *lg)
{
	lg->to = lg->from;
	lg->to.compatibility = false;
	lg->old_builtins = lg->from.es ? lg->from.version < 300 :
			   lg->from.version < 420 || lg->from.compatibility;
	lg->calls_only = !lg->from.es && lg->from.version >= 140;
	if (lg->from.es) {
		if (lg->from.version >= 310)
			return;		/* only Vulkan's words, used as names */
		lg->to.version = lg->stage == STAGE_TASK || lg->stage == STAGE_MESH ? 320 : 310;
		if (lg->from.version < 300) {
			lg->words[0] = es_words_300;
			lg->functions[0] = es_functions_300;
		}
		lg->words[1] = es_words_310;
		lg->functions[1] = es_functions_310;
		return;
	}
	if (lg->to.version < desktop_minimum(lg->stage))
		lg->to.version = desktop_minimum(lg->stage);
	if (lg->from.version < 130) {
		lg->words[0] = desktop_words_130;
		lg->functions[0] = desktop_functions;
	}
	if (lg->from.version < 140)
		lg->words[1] = desktop_words_140;
}

static int var_index(const char *name, enum shader_stage stage)
{
	for (size_t i = 0; i < NUM_VARS; i++)
		if (vars[i].stages & (1u << stage) && !strcmp(vars[i].name, name))
			return (int)i;
	return -1;
}

static void mark_used(struct legacy *lg, const char *name)
{
	int i = var_index(name, lg->stage);
	if (i >= 0)
		lg->used[i] = true;
}

/* An identifier followed by '(' at global scope after a type: a function the
 * source declares; rename it when the new version has a built-in of that name. */
static void note_function(struct legacy *lg, const struct glsl_token *name)
{
	lg->defines_inverse |= glsl_token_is(name, "inverse");
	for (int set = 0; set < 2; set++) {
		int i = find_word(lg->functions[set], name);
		if (i >= 0 && i < MAX_FUNCTIONS)
			lg->function_defined[set][i] = true;
	}
}

/* texture2D, shadow2D…: renamed everywhere in sources older than 1.40 (where
 * they can only be the functions), only where called in newer ones. */
static bool removed_function(const struct legacy *lg, const struct glsl_token *t,
			     const struct glsl_lexer *lx)
{
	if (!lg->old_builtins || (!find_texture_rename(t) && find_shadow(t) < 0))
		return false;
	int w = find_word(vulkan_words, t);	/* "uniform sampler2D texture2D;" */
	return (!lg->calls_only && (w < 0 || !lg->vulkan_name[w])) || is_call(lx);
}

static void note_ident(struct legacy *lg, const struct glsl_token *t, const struct glsl_token *prev,
		       const struct glsl_lexer *lx)
{
	int i = find_var(lg, t);
	if (i >= 0) {
		lg->used[i] = true;
		if (prev->kind == GTOK_IDENT && find_word(basic_types, prev) >= 0)
			lg->redeclared[i] = true;
		return;
	}
	if ((i = vulkan_name_use(t, lx)) >= 0) {
		lg->vulkan_name[i] = true;
		return;
	}
	if (glsl_token_is(t, "inverse") && is_call(lx))
		lg->calls_inverse = true;
	if (lg->words[0] && glsl_token_is(t, "texture") && name_use(t, lx))
		lg->texture_name = true;
	if ((i = find_shadow(t)) >= 0) {
		lg->shadow_used[i] |= removed_function(lg, t, lx);
	} else if (glsl_token_is(t, "ftransform") && lg->old_builtins) {
		mark_used(lg, "gl_ModelViewProjectionMatrix");
		mark_used(lg, "gl_Vertex");
	} else if (glsl_token_is(t, "GL_EXT_gpu_shader4") && !lg->from.es) {
		lg->words[0] = NULL;	/* its 1.30 keywords are keywords already */
	}
}

/* gl_FragData's size: one past the largest constant index, or 8 when some
 * index is not a literal.  `state`: 1 after gl_FragData, 2 after its '[',
 * 3 after a literal index. */
static void note_frag_data(struct legacy *lg, const struct glsl_token *t, int *state, int *index)
{
	bool is_open = t->kind == GTOK_PUNCT && *t->text == '[';
	bool is_close = t->kind == GTOK_PUNCT && *t->text == ']';

	switch (*state) {
	case 1:
		*state = is_open ? 2 : 0;
		if (!is_open)
			lg->frag_data_size = -1;
		return;
	case 2:
		*index = t->kind == GTOK_NUMBER ? glsl_token_int(t) : -1;
		*state = *index >= 0 && *index < 32 ? 3 : 0;
		if (*state == 0)
			lg->frag_data_size = -1;
		return;
	case 3:
		if (!is_close)
			lg->frag_data_size = -1;
		else if (lg->frag_data_size >= 0 && *index + 1 > lg->frag_data_size)
			lg->frag_data_size = *index + 1;
		*state = 0;
		return;
	}
}

/* Pass 1: what the source uses.  `depth` is the brace depth, 0 at global scope. */
static void scan(struct legacy *lg, const char *src, size_t len)
{
	struct glsl_lexer lx;
	struct glsl_token t, prev = { 0 }, prev2 = { 0 };
	int depth = 0, frag_data_state = 0, frag_data_index = 0;

	glsl_lexer_init(&lx, src, len);
	while (glsl_lex_skip_blanks(&lx, &t) != GTOK_EOF) {
		if (t.kind == GTOK_NEWLINE)
			continue;
		if (frag_data_state)
			note_frag_data(lg, &t, &frag_data_state, &frag_data_index);
		if (t.kind == GTOK_IDENT) {
			note_ident(lg, &t, &prev, &lx);
			if (glsl_token_is(&t, "gl_FragData"))
				frag_data_state = 1;
		} else if (t.kind == GTOK_PUNCT && *t.text == '{') {
			depth++;
		} else if (t.kind == GTOK_PUNCT && *t.text == '}') {
			depth -= depth > 0;
		} else if (t.kind == GTOK_PUNCT && *t.text == '(' && depth == 0 && !t.directive &&
			   prev.kind == GTOK_IDENT && prev2.kind == GTOK_IDENT) {
			note_function(lg, &prev);
		}
		prev2 = prev;
		prev = t;
	}
}

/* The name a legacy built-in becomes. */
static void add_var_target(struct strbuf *out, const struct legacy_var *v)
{
	if (v->to)
		strbuf_addstr(out, v->to);
	else
		strbuf_addf(out, "shdb_%s", v->name + 3);
}

static void add_struct(struct strbuf *out, const char *name, bool *done)
{
	for (size_t i = 0; i < sizeof(structs) / sizeof(structs[0]); i++) {
		if (!strcmp(structs[i].name, name) && !done[i]) {
			strbuf_addf(out, "struct %s { %s };\n", name, structs[i].members);
			done[i] = true;
		}
	}
}

static void add_structs(struct legacy *lg)
{
	bool done[sizeof(structs) / sizeof(structs[0])] = { 0 };
	struct strbuf name = STRBUF_INIT;

	for (size_t i = 0; i < NUM_VARS; i++) {
		if (!lg->used[i])
			continue;
		if (vars[i].type && !strncmp(vars[i].type, "shdb_", 5)) {
			add_struct(lg->out, vars[i].type, done);
		} else if (vars[i].kind == LK_RENAME && !vars[i].to) {
			strbuf_reset(&name);
			add_var_target(&name, &vars[i]);
			add_struct(lg->out, name.buf, done);
		}
	}
	strbuf_release(&name);
}

static void add_declaration(struct legacy *lg, const struct legacy_var *v)
{
	static const char *const prefix[] = {
		[LK_UNIFORM] = "uniform ", [LK_INPUT] = "in ", [LK_OUTPUT] = "out ",
		[LK_FRAG_OUT] = "out ", [LK_PRIVATE] = "",
	};
	const char *precision = "";

	if (lg->to.es && strncmp(v->type, "shdb_", 5))
		precision = v->kind == LK_FRAG_OUT ? "mediump " : "highp ";
	strbuf_addf(lg->out, "%s%s%s ", prefix[v->kind], precision, v->type);
	add_var_target(lg->out, v);
	if (v->array)
		strbuf_addstr(lg->out, v->array);
	else
		strbuf_addf(lg->out, "[%d]", lg->frag_data_size > 0 ? lg->frag_data_size : 8);
	strbuf_addstr(lg->out, ";\n");
}

static void add_shadow_helpers(struct legacy *lg)
{
	for (size_t i = 0; i < NUM_SHADOW; i++) {
		const struct shadow_fn *f = &shadow_fns[i];
		if (!lg->shadow_used[i])
			continue;
		if (f->lod) {
			strbuf_addf(lg->out, "vec4 shdb_%s(%s s, %s p, float l) { return vec4(%s(s, p, l)); }\n",
				    f->name, f->sampler, f->coord, f->fn);
			continue;
		}
		strbuf_addf(lg->out, "vec4 shdb_%s(%s s, %s p) { return vec4(%s(s, p)); }\n",
			    f->name, f->sampler, f->coord, f->fn);
		if (lg->stage == STAGE_FRAGMENT && f->bias)
			strbuf_addf(lg->out, "vec4 shdb_%s(%s s, %s p, float b) { return vec4(%s(s, p, b)); }\n",
				    f->name, f->sampler, f->coord, f->fn);
	}
}

/* The new #version line, the declarations, and a #line for the user's next line. */
static void add_prologue(struct legacy *lg)
{
	strbuf_addf(lg->out, "#version %d%s\n", lg->to.version, lg->to.es ? " es" : "");
	add_structs(lg);
	for (size_t i = 0; i < NUM_VARS; i++)
		if (lg->used[i] && !lg->redeclared[i] && vars[i].kind != LK_RENAME)
			add_declaration(lg, &vars[i]);
	add_shadow_helpers(lg);
	int next = lg->first_line + (lg->from.present ? lg->from.line : 0);
	strbuf_addf(lg->out, "#line %d\n", glsl_line_directive_value(&lg->to, next));
}

/* At a '#': when the directive enables an extension the new version has in
 * core, move the lexer to the directive's newline and return true. */
static bool skip_core_extension(struct glsl_lexer *lx)
{
	struct glsl_lexer peek = *lx, before;
	struct glsl_token t;

	if (glsl_lex_skip_blanks(&peek, &t) != GTOK_IDENT || !glsl_token_is(&t, "extension") ||
	    glsl_lex_skip_blanks(&peek, &t) != GTOK_IDENT || find_word(core_extensions, &t) < 0)
		return false;
	do {
		before = peek;
	} while (glsl_lex(&peek, &t) != GTOK_NEWLINE && t.kind != GTOK_EOF);
	*lx = before;
	return true;
}

/* At "ftransform": when "( )" follows, consume it and return true. */
static bool take_empty_call(struct glsl_lexer *lx)
{
	struct glsl_lexer peek = *lx;
	struct glsl_token t;

	if (glsl_lex_skip_blanks(&peek, &t) != GTOK_PUNCT || *t.text != '(' ||
	    glsl_lex_skip_blanks(&peek, &t) != GTOK_PUNCT || *t.text != ')')
		return false;
	*lx = peek;
	return true;
}

static bool renamed_word(const struct legacy *lg, const struct glsl_token *t)
{
	for (int set = 0; set < 2; set++) {
		if (find_word(lg->words[set], t) >= 0)
			return true;
		int i = find_word(lg->functions[set], t);
		if (i >= 0 && i < MAX_FUNCTIONS && lg->function_defined[set][i])
			return true;
	}
	return false;
}

/* The user wrote `t` where the output has `ours` (from `at`): remember it
 * for messages.  Names only shdb makes (shdb_…) hold on every line, the
 * others (texture for texture2D) on the token's own line. */
static void note_spelling(struct legacy *lg, const struct glsl_token *t, size_t at)
{
	const char *ours = lg->out->buf + at;
	size_t n = lg->out->len - at;
	int line = lg->first_line - 1 + (lg->from.present ? lg->from.line : 0) + t->line;
	bool global = n > 5 && !memcmp(ours, "shdb_", 5);

	if (!lg->spellings || (n == t->len && !memcmp(ours, t->text, n)))
		return;
	for (size_t k = 0; k < n; k++)
		if (!(ours[k] == '_' || (ours[k] >= '0' && ours[k] <= '9') ||
		      ((ours[k] | 0x20) >= 'a' && (ours[k] | 0x20) <= 'z')))
			return;		/* not one name (ftransform's expansion) */
	if (!global && !lg->exact_lines)
		return;
	if (global)
		line = 0;
	for (size_t k = 0; k < lg->spellings->len; k++) {
		const struct spelling *sp = &lg->spellings->data[k];
		if (sp->line == line && strlen(sp->ours) == n && !memcmp(sp->ours, ours, n))
			return;
	}
	array_push(lg->spellings, (struct spelling){ line, xstrndup(ours, n),
						     xstrndup(t->text, t->len) });
}

static void emit_ident(struct legacy *lg, struct glsl_lexer *lx, const struct glsl_token *t)
{
	struct strbuf *out = lg->out;
	size_t at = out->len;
	const char *to;
	int i;

	if ((i = find_var(lg, t)) >= 0) {
		add_var_target(out, &vars[i]);
	} else if (glsl_token_is(t, "varying") && lg->old_builtins &&
		   (lg->stage == STAGE_VERTEX || lg->stage == STAGE_FRAGMENT)) {
		strbuf_addstr(out, lg->stage == STAGE_VERTEX ? "out" : "in");
	} else if (glsl_token_is(t, "attribute") && lg->old_builtins &&
		   lg->stage == STAGE_VERTEX) {
		strbuf_addstr(out, "in");
	} else if (removed_function(lg, t, lx)) {
		if ((to = find_texture_rename(t)))
			strbuf_addstr(out, to);
		else
			strbuf_addf(out, "shdb_%.*s", (int)t->len, t->text);
	} else if (glsl_token_is(t, "ftransform") && lg->old_builtins &&
		   lg->stage == STAGE_VERTEX && take_empty_call(lx)) {
		strbuf_addstr(out, "(shdb_ModelViewProjectionMatrix * shdb_Vertex)");
	} else if (renamed_word(lg, t) || (lg->texture_name && glsl_token_is(t, "texture")) ||
		   ((i = find_word(vulkan_words, t)) >= 0 && lg->vulkan_name[i])) {
		strbuf_addf(out, "shdb_%.*s", (int)t->len, t->text);
	} else {
		strbuf_add(out, t->text, t->len);
	}
	note_spelling(lg, t, at);
}

/* Pass 2: copy the source after its #version line, rewriting as we go. */
static void emit(struct legacy *lg, const char *src, size_t len)
{
	size_t start = lg->from.present ? lg->from.end : 0;
	struct glsl_lexer lx;
	struct glsl_token t;

	add_prologue(lg);
	glsl_lexer_init(&lx, src + start, len - start);
	while (glsl_lex(&lx, &t) != GTOK_EOF) {
		if (t.kind == GTOK_HASH && skip_core_extension(&lx))
			continue;
		if (t.kind == GTOK_IDENT)
			emit_ident(lg, &lx, &t);
		else
			strbuf_add(lg->out, t.text, t.len);
	}
}

void legacy_rewrite(const char *src, size_t len, int first_line, enum shader_stage stage,
		    const struct glsl_version *v, struct strbuf *out, struct glsl_version *to,
		    spelling_array *spellings, bool exact_lines)
{
	struct legacy lg = { .stage = stage, .from = *v, .first_line = first_line, .out = out,
			     .spellings = spellings, .exact_lines = exact_lines };

	choose_versions(&lg);
	scan(&lg, src, len);
	if (!lg.to.es && lg.to.version == 140 && lg.calls_inverse && !lg.defines_inverse)
		lg.to.version = 150;	/* glslang's first version with inverse() */
	emit(&lg, src, len);
	*to = lg.to;
}

void spellings_release(spelling_array *a)
{
	for (size_t i = 0; i < a->len; i++) {
		free(a->data[i].ours);
		free(a->data[i].theirs);
	}
	array_free(a);
}
