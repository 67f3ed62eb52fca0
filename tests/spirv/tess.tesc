#version 450
// Tessellation control: per-vertex outputs indexed by invocation, tessellation
// levels, a patch output, a barrier.
layout(vertices = 3) out;
layout(location = 0) in vec3 pos[];
layout(location = 0) out vec3 cp[];
layout(location = 1) patch out vec4 center;

void main()
{
	cp[gl_InvocationID] = pos[gl_InvocationID] * 2.0;
	barrier();
	if (gl_InvocationID == 0) {
		gl_TessLevelOuter[0] = 4.0;
		gl_TessLevelOuter[1] = 4.0;
		gl_TessLevelOuter[2] = 4.0;
		gl_TessLevelInner[0] = 2.0;
		center = vec4((cp[0] + cp[1] + cp[2]) / 3.0, 1.0);
	}
}
