#include "compiler/stage.h"
#include "tap.h"

static void kind(const char *path, enum input_kind want_kind, enum shader_stage want_stage)
{
	enum shader_stage s;
	enum input_kind k = input_kind_from_path(path, &s);
	ok(k == want_kind && s == want_stage, "%s: %s %s (got %s %s)", path,
	   input_kind_name(want_kind), stage_name(want_stage), input_kind_name(k), stage_name(s));
}

int main(void)
{
	kind("a/b.frag", INPUT_GLSL, STAGE_FRAGMENT);
	kind("b.vert", INPUT_GLSL, STAGE_VERTEX);
	kind("b.tesc", INPUT_GLSL, STAGE_TESS_CTRL);
	kind("b.tese", INPUT_GLSL, STAGE_TESS_EVAL);
	kind("b.geom", INPUT_GLSL, STAGE_GEOMETRY);
	kind("b.comp", INPUT_GLSL, STAGE_COMPUTE);
	kind("b.mesh", INPUT_GLSL, STAGE_MESH);
	kind("b.rgen", INPUT_GLSL, STAGE_RAYGEN);
	kind("b.glsl", INPUT_GLSL, STAGE_NONE);
	kind("x.asm.frag", INPUT_SPVASM, STAGE_FRAGMENT);
	kind("x.asm.comp", INPUT_SPVASM, STAGE_COMPUTE);
	kind("x.asm.sm51.nonuniformresource.comp", INPUT_SPVASM, STAGE_COMPUTE);
	kind("dir/x.vk.nocompat.asm.spv16.frag", INPUT_SPVASM, STAGE_FRAGMENT);
	kind("x.spvasm", INPUT_SPVASM, STAGE_NONE);
	kind("dir.d/x.frag.spv", INPUT_SPIRV, STAGE_FRAGMENT);
	kind("x.spv", INPUT_SPIRV, STAGE_NONE);
	kind("shaders/x.shader_test", INPUT_SHADER_TEST, STAGE_NONE);
	kind("x.hlsl", INPUT_HLSL, STAGE_NONE);
	kind("x.ir", INPUT_IR, STAGE_NONE);
	kind("README", INPUT_UNKNOWN, STAGE_NONE);
	kind("x.frag.txt", INPUT_UNKNOWN, STAGE_NONE);
	kind("asm.frag", INPUT_GLSL, STAGE_FRAGMENT);

	is_int(stage_from_name("fragment"), STAGE_FRAGMENT, "stage by name");
	is_int(stage_from_name("frag"), STAGE_FRAGMENT, "stage by extension");
	is_int(stage_from_name("CL"), STAGE_COMPUTE, "stage by Mesa tag");
	is_int(stage_from_name("nope"), STAGE_NONE, "unknown stage");
	is_str(stage_mesa_name(STAGE_TESS_CTRL), "TCS", "Mesa tag");
	for (int s = 0; s < STAGE_COUNT; s++)
		ok(stage_from_name(stage_name((enum shader_stage)s)) == s, "round trip %s",
		   stage_name((enum shader_stage)s));
	return done_testing();
}
