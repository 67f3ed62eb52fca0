#version 450
// Clip and cull distances through tessellation memory: one compact array
// (lower_ir3_tess, Mesa's): the cull distances after the clip distances,
// element e in component e % 4 of slot 7 + e / 4; read and written at
// constant and at dynamic indices.
layout(vertices = 3) out;
layout(push_constant) uniform P { int n; } pc;

in gl_PerVertex {
	vec4 gl_Position;
	float gl_ClipDistance[5];
	float gl_CullDistance[2];
} gl_in[];

out gl_PerVertex {
	vec4 gl_Position;
	float gl_ClipDistance[5];
	float gl_CullDistance[2];
} gl_out[];

void main()
{
	gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
	for (int k = 0; k < 5; k++)
		gl_out[gl_InvocationID].gl_ClipDistance[k] = gl_in[(gl_InvocationID + 1) % 3].gl_ClipDistance[(k + pc.n) & 3] + float(k);
	gl_out[gl_InvocationID].gl_CullDistance[pc.n & 1] = gl_in[gl_InvocationID].gl_CullDistance[1];
	gl_out[gl_InvocationID].gl_CullDistance[(pc.n + 1) & 1] = gl_in[gl_InvocationID].gl_ClipDistance[4];
	gl_TessLevelOuter[0] = 1.0;
	gl_TessLevelOuter[1] = 2.0;
	gl_TessLevelOuter[2] = 3.0;
	gl_TessLevelInner[0] = 4.0;
}
