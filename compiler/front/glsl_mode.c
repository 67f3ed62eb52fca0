/*
 * Guessing what a source is from its declarations (source.h):
 *
 *  - glsl_is_gl_style(): GLSL written for OpenGL, which glslang's strict
 *    Vulkan rules refuse and its relaxed rules (GL_EXT_vulkan_glsl_relaxed,
 *    with automatic locations and bindings) accept.  It looks at the global
 *    declarations only: a uniform outside a block that is not opaque, an
 *    opaque uniform without a binding, an atomic counter, a varying or
 *    attribute, an in/out variable or block without a location.  Both sides
 *    of #if are read; compile_glsl() retries in the other mode when the
 *    guess fails, so a wrong guess costs time, not a shader.
 *
 *  - source_looks_like_hlsl(): no #version and words only HLSL has.
 */
#include <string.h>

#include "compiler/front/source.h"

/* The declaration being read at global scope. */
struct decl {
	char storage;		/* 'u' uniform, 'b' buffer, 'i' in, 'o' out, 'v' varying/attribute,
				 * 'x' Vulkan-only, 0 none */
	bool binding, location;	/* named in its layout (or, for a block, its members') */
	bool no_binding;	/* push_constant, buffer_reference, shaderRecord: none needed */
	bool function;		/* a '(' outside layout(): a function */
	bool block;		/* storage qualifier followed by '{' */
	int names;		/* identifiers that are neither qualifiers nor layout ids */
	struct glsl_token type, name;
};

static const char *const qualifiers[] = {
	"const", "centroid", "flat", "smooth", "noperspective", "patch", "sample", "invariant",
	"precise", "highp", "mediump", "lowp", "coherent", "volatile", "restrict", "readonly",
	"writeonly", "nonuniformEXT", "pervertexEXT", "pervertexNV", "perprimitiveEXT",
	"perprimitiveNV", "perviewNV", "explicitInterpAMD", NULL,
};

/* Storage classes that exist only in Vulkan GLSL: such a shader is Vulkan-style. */
static const char *const vulkan_storage[] = {
	"shared", "rayPayloadEXT", "rayPayloadInEXT", "hitAttributeEXT",
	"callableDataEXT", "callableDataInEXT", "shaderRecordEXT", "rayPayloadNV",
	"rayPayloadInNV", "hitAttributeNV", "callableDataNV", "callableDataInNV",
	"shaderRecordNV", "taskPayloadSharedEXT", "taskNV", "hitObjectAttributeNV", NULL,
};

static const char *const opaque_prefixes[] = {
	"sampler", "isampler", "usampler", "texture", "itexture", "utexture", "image",
	"iimage", "uimage", "i64image", "u64image", "subpassInput", "isubpassInput", "usubpassInput",
	"accelerationStructure", "rayQuery", NULL,
};

static bool in_list(const char *const *list, const struct glsl_token *t)
{
	for (int i = 0; list[i]; i++)
		if (glsl_token_is(t, list[i]))
			return true;
	return false;
}

/* sampler2D, textureCube, image2DMS, subpassInput…; not textureInfo. */
static bool is_opaque(const struct glsl_token *t)
{
	for (int i = 0; opaque_prefixes[i]; i++) {
		size_t n = strlen(opaque_prefixes[i]);
		if (t->len >= n && !memcmp(t->text, opaque_prefixes[i], n)) {
			char next = t->len > n ? t->text[n] : '\0';
			if (!next || (next >= '1' && next <= '3') || next == 'C' || next == 'B' ||
			    next == 'M' || next == 'S' || next == 'E' || next == 'N' ||
			    (next == 'R' && t->len > n + 3 && !memcmp(t->text + n, "Rect", 4)))
				return true;
		}
	}
	return false;
}

static bool starts_with_gl(const struct glsl_token *t)
{
	return t->len > 3 && !memcmp(t->text, "gl_", 3);
}

static bool decl_is_gl_style(const struct decl *d, enum shader_stage stage)
{
	switch (d->storage) {
	case 'b':
		return d->block && !d->binding && !d->no_binding;
	case 'u':
		if (d->block)
			return !d->binding && !d->no_binding;
		if (d->names == 0)
			return false;
		if (glsl_token_is(&d->type, "atomic_uint"))
			return true;
		return !is_opaque(&d->type) || !d->binding;
	case 'v':
		return true;
	case 'i':
	case 'o':
		if (stage == STAGE_COMPUTE || d->location)
			return false;
		if (d->block)
			return !starts_with_gl(&d->type);
		return d->names >= 2 && !starts_with_gl(&d->name);
	}
	return false;
}

static void add_ident(struct decl *d, const struct glsl_token *t)
{
	if (d->storage == 'x')		/* "taskNV out Block {…}": Vulkan's, whatever follows */
		return;
	if (glsl_token_is(t, "uniform"))
		d->storage = 'u';
	else if (glsl_token_is(t, "in"))
		d->storage = 'i';
	else if (glsl_token_is(t, "out"))
		d->storage = 'o';
	else if (glsl_token_is(t, "varying") || glsl_token_is(t, "attribute"))
		d->storage = 'v';
	else if (glsl_token_is(t, "buffer"))
		d->storage = 'b';
	else if (in_list(vulkan_storage, t))
		d->storage = 'x';
	else if (in_list(qualifiers, t))
		return;
	else if (d->names++ == 0)
		d->type = *t;
	else if (d->names == 2)
		d->name = *t;
}

bool glsl_is_gl_style(const char *src, size_t len, enum shader_stage stage)
{
	struct glsl_lexer lx;
	struct glsl_token t;
	struct decl d = { 0 };
	int depth = 0, layout_parens = 0;
	bool in_layout = false;

	glsl_lexer_init(&lx, src, len);
	while (glsl_lex_skip_blanks(&lx, &t) != GTOK_EOF) {
		if (t.directive || t.kind == GTOK_NEWLINE)
			continue;
		if (t.kind == GTOK_IDENT && stage == STAGE_VERTEX &&
		    (glsl_token_is(&t, "gl_VertexID") || glsl_token_is(&t, "gl_InstanceID")))
			return true;
		bool punct = t.kind == GTOK_PUNCT;
		if (in_layout) {
			/* layout( … ): look for binding and location */
			if (punct && *t.text == '(')
				layout_parens++;
			else if (punct && *t.text == ')' && --layout_parens == 0)
				in_layout = false;
			d.binding |= glsl_token_is(&t, "binding");
			d.location |= glsl_token_is(&t, "location");
			d.no_binding |= glsl_token_is(&t, "push_constant") ||
					glsl_token_is(&t, "buffer_reference") ||
					glsl_token_is(&t, "shaderRecordEXT") ||
					glsl_token_is(&t, "shaderRecordNV");
		} else if (depth > 0) {
			/* inside a block or a function body */
			if (punct && *t.text == '{')
				depth++;
			else if (punct && *t.text == '}' && --depth == 0 && d.function)
				d = (struct decl){ 0 };
			else if (d.block)
				d.location |= glsl_token_is(&t, "location");
		} else if (t.kind == GTOK_IDENT && glsl_token_is(&t, "layout")) {
			in_layout = true;
			layout_parens = 0;
		} else if (t.kind == GTOK_IDENT) {
			add_ident(&d, &t);
		} else if (punct && *t.text == '(') {
			d.function = true;
		} else if (punct && *t.text == '{') {
			depth = 1;
			d.block = d.storage && !d.function;
		} else if (punct && *t.text == ';') {
			if (!d.function && decl_is_gl_style(&d, stage))
				return true;
			d = (struct decl){ 0 };
		}
	}
	return false;
}

static const char *const hlsl_words[] = {
	"float2", "float3", "float4", "float2x2", "float3x3", "float4x4", "half2", "half3",
	"half4", "int2", "int3", "int4", "uint2", "uint3", "uint4", "cbuffer", "tbuffer",
	"Texture1D", "Texture2D", "Texture3D", "TextureCube", "Texture2DArray",
	"TextureCubeArray", "Texture2DMS", "SamplerState", "SamplerComparisonState",
	"RWTexture2D", "RWTexture3D", "StructuredBuffer", "RWStructuredBuffer",
	"ByteAddressBuffer", "RWByteAddressBuffer", "ConstantBuffer", "numthreads",
	"RaytracingAccelerationStructure", NULL,
};

bool source_looks_like_hlsl(const char *src, size_t len)
{
	struct glsl_version v;
	struct glsl_lexer lx;
	struct glsl_token t;

	glsl_find_version(src, len, &v);
	if (v.present)
		return false;
	glsl_lexer_init(&lx, src, len);
	while (glsl_lex(&lx, &t) != GTOK_EOF) {
		if (t.kind != GTOK_IDENT || t.directive)
			continue;
		if (in_list(hlsl_words, &t) ||
		    (t.len > 3 && (!memcmp(t.text, "SV_", 3) || !memcmp(t.text, "sv_", 3))))
			return true;
	}
	return false;
}
