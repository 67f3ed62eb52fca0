#version 450
// Bicubic Bezier patches (16 control points): pass-through control points and
// one uniform level, set by the first invocation.

layout(vertices = 16) out;

layout(push_constant) uniform Level {
	float outer;
	float inner;
} lvl;

layout(location = 0) in vec3 in_cp[];
layout(location = 0) out vec3 out_cp[];

void main()
{
	out_cp[gl_InvocationID] = in_cp[gl_InvocationID];
	if (gl_InvocationID == 0) {
		for (int i = 0; i < 4; i++)
			gl_TessLevelOuter[i] = lvl.outer;
		gl_TessLevelInner[0] = lvl.inner;
		gl_TessLevelInner[1] = lvl.inner;
	}
}
