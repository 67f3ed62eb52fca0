#version 450
// A TCS through memory: per-vertex inputs from local memory (the VS's
// layout the primitive map gives), per-vertex and patch outputs and the
// tessellation levels to the tess param and factor buffers at the TCS's own
// map, an array of patch blocks, levels read back after a barrier; the
// quads' levels past a triangle's are not results when the TCS does not
// say its primitive.
layout(vertices = 3) out;
layout(location = 0) in vec4 p[];
layout(location = 1) in vec2 uv[];
layout(location = 0) out vec4 q[];
layout(location = 1) out vec2 st[];
layout(location = 2) patch out vec4 c;
layout(location = 3) patch out B { float f; vec2 g; } blk[2];
void main()
{
	int i = gl_InvocationID;
	q[gl_InvocationID] = p[i] * 2.0 + p[(i + 1) % 3];
	st[gl_InvocationID] = uv[i].yx;
	if (i == 0) {
		gl_TessLevelOuter[0] = p[0].x;
		gl_TessLevelOuter[1] = p[1].y;
		gl_TessLevelOuter[2] = p[2].z;
		gl_TessLevelOuter[3] = 9.0;
		gl_TessLevelInner[0] = uv[0].x;
		gl_TessLevelInner[1] = 7.0;
		c = p[0] + p[1] + p[2];
		blk[0].f = uv[1].x;
		blk[1].g = uv[2];
	}
	barrier();
	if (i == 1)
		blk[1].f = gl_TessLevelOuter[0] + gl_TessLevelInner[0];
}
