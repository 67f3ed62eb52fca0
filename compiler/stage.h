/*
 * Shader stages and the kinds of input file shdb reads.  The stages and
 * their names are the records' vocabulary (stats/stage.h); here what the
 * compiler adds: input kinds, and SPIR-V's execution models.
 */
#ifndef SHDB_STAGE_H
#define SHDB_STAGE_H

#include <stdint.h>

#include "stats/stage.h"

/* The stage of a SPIR-V execution model (SpvExecutionModel*); STAGE_NONE for others. */
enum shader_stage stage_from_spirv_model(uint32_t model);

enum input_kind {
	INPUT_UNKNOWN,
	INPUT_SPIRV,		/* .spv: SPIR-V binary */
	INPUT_SPVASM,		/* .spvasm, SPIRV-Cross's *.asm.<stage> */
	INPUT_GLSL,		/* .vert .frag .comp …, .slang (.glsl with --stage or
				 * several stages) */
	INPUT_HLSL,		/* .hlsl */
	INPUT_SHADER_TEST,	/* piglit / shader-db .shader_test */
	INPUT_IR,		/* our own IR text */
	INPUT_FOZ,		/* a Fossilize database (.foz) */
};

const char *input_kind_name(enum input_kind k);
/* Classify a path by its name; *stage gets the stage its extension implies. */
enum input_kind input_kind_from_path(const char *path, enum shader_stage *stage);

#endif
