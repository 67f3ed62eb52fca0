/*
 * Shader stages and the kinds of input file shdb reads.
 */
#ifndef SHDB_STAGE_H
#define SHDB_STAGE_H

#include <stdint.h>

enum shader_stage {
	STAGE_NONE = -1,
	STAGE_VERTEX,
	STAGE_TESS_CTRL,
	STAGE_TESS_EVAL,
	STAGE_GEOMETRY,
	STAGE_FRAGMENT,
	STAGE_COMPUTE,
	STAGE_TASK,
	STAGE_MESH,
	STAGE_RAYGEN,
	STAGE_ANY_HIT,
	STAGE_CLOSEST_HIT,
	STAGE_MISS,
	STAGE_INTERSECTION,
	STAGE_CALLABLE,
	STAGE_COUNT
};

/* "vertex", "tess_ctrl", …: the names records and options use. */
const char *stage_name(enum shader_stage s);
/* Mesa's shader-db line tag: VERT, TCS, TES, GEOM, FRAG, CL, … */
const char *stage_mesa_name(enum shader_stage s);
/* Parse a stage from its name ("fragment"), short name ("frag") or Mesa tag. */
enum shader_stage stage_from_name(const char *name);
/* The stage a GLSL-style extension names ("frag" → fragment), or STAGE_NONE. */
enum shader_stage stage_from_extension(const char *ext);
/* The stage of a SPIR-V execution model (SpvExecutionModel*); STAGE_NONE for others. */
enum shader_stage stage_from_spirv_model(uint32_t model);

enum input_kind {
	INPUT_UNKNOWN,
	INPUT_SPIRV,		/* .spv: SPIR-V binary */
	INPUT_SPVASM,		/* .spvasm, SPIRV-Cross's *.asm.<stage> */
	INPUT_GLSL,		/* .vert .frag .comp … (.glsl with --stage) */
	INPUT_HLSL,		/* .hlsl */
	INPUT_SHADER_TEST,	/* piglit / shader-db .shader_test */
	INPUT_IR,		/* our own IR text */
};

const char *input_kind_name(enum input_kind k);
/* Classify a path by its name; *stage gets the stage its extension implies. */
enum input_kind input_kind_from_path(const char *path, enum shader_stage *stage);

#endif
