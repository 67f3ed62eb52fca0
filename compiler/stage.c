/*
 * The kinds of input file, and the stage a file name or a SPIR-V execution
 * model gives (the stage names themselves: stats/stage.c).
 */
#include "compiler/stage.h"

#include <string.h>

#include <spirv/unified1/spirv.h>

#include "compiler/util/file.h"

const char *input_kind_name(enum input_kind k)
{
	switch (k) {
	case INPUT_SPIRV: return "spirv";
	case INPUT_SPVASM: return "spvasm";
	case INPUT_GLSL: return "glsl";
	case INPUT_HLSL: return "hlsl";
	case INPUT_SHADER_TEST: return "shader_test";
	case INPUT_IR: return "ir";
	case INPUT_FOZ: return "foz";
	case INPUT_UNKNOWN: break;
	}
	return "unknown";
}

/* SPIRV-Cross's assembly files: "x.asm.frag", "x.asm.spv16.vk.frag",
 * "x.vk.nocompat.asm.frag" — ".asm." anywhere after the first name part. */
static bool is_assembly_name(const char *base)
{
	const char *asm_ = strstr(base, ".asm.");
	return asm_ && asm_ > base;
}

enum input_kind input_kind_from_path(const char *path, enum shader_stage *stage)
{
	const char *base = path_basename(path);
	const char *ext = path_extension(path);
	enum shader_stage s = stage_from_extension(ext);

	*stage = STAGE_NONE;
	if (!strcmp(ext, "spv")) {
		/* "x.frag.spv": the stage is in the inner extension */
		size_t n = strlen(base);
		char inner[16] = "";
		if (n > 4) {
			const char *end = base + n - 4;
			const char *dot = end;
			while (dot > base && dot[-1] != '.')
				dot--;
			if (dot > base && (size_t)(end - dot) < sizeof(inner)) {
				memcpy(inner, dot, (size_t)(end - dot));
				inner[end - dot] = '\0';
				*stage = stage_from_extension(inner);
			}
		}
		return INPUT_SPIRV;
	}
	if (!strcmp(ext, "spvasm"))
		return INPUT_SPVASM;
	if (!strcmp(ext, "shader_test"))
		return INPUT_SHADER_TEST;
	if (!strcmp(ext, "ir"))
		return INPUT_IR;
	if (!strcmp(ext, "hlsl"))
		return INPUT_HLSL;
	if (s != STAGE_NONE) {
		*stage = s;
		return is_assembly_name(base) ? INPUT_SPVASM : INPUT_GLSL;
	}
	if (!strcmp(ext, "glsl") || !strcmp(ext, "slang"))
		return INPUT_GLSL;
	if (!strcmp(ext, "foz"))
		return INPUT_FOZ;
	return INPUT_UNKNOWN;
}

enum shader_stage stage_from_spirv_model(uint32_t model)
{
	switch (model) {
	case SpvExecutionModelVertex: return STAGE_VERTEX;
	case SpvExecutionModelTessellationControl: return STAGE_TESS_CTRL;
	case SpvExecutionModelTessellationEvaluation: return STAGE_TESS_EVAL;
	case SpvExecutionModelGeometry: return STAGE_GEOMETRY;
	case SpvExecutionModelFragment: return STAGE_FRAGMENT;
	case SpvExecutionModelGLCompute: return STAGE_COMPUTE;
	case SpvExecutionModelTaskNV: case SpvExecutionModelTaskEXT: return STAGE_TASK;
	case SpvExecutionModelMeshNV: case SpvExecutionModelMeshEXT: return STAGE_MESH;
	case SpvExecutionModelRayGenerationKHR: return STAGE_RAYGEN;
	case SpvExecutionModelIntersectionKHR: return STAGE_INTERSECTION;
	case SpvExecutionModelAnyHitKHR: return STAGE_ANY_HIT;
	case SpvExecutionModelClosestHitKHR: return STAGE_CLOSEST_HIT;
	case SpvExecutionModelMissKHR: return STAGE_MISS;
	case SpvExecutionModelCallableKHR: return STAGE_CALLABLE;
	}
	return STAGE_NONE;
}
