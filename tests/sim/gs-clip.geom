#version 450
// Clip and cull distances of the vertices a geometry shader reads from
// local memory (compact, as lower_ir3_tess places them) and writes.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(push_constant) uniform P { int n; } pc;

in gl_PerVertex {
	vec4 gl_Position;
	float gl_ClipDistance[3];
	float gl_CullDistance[2];
} gl_in[];

out gl_PerVertex {
	vec4 gl_Position;
	float gl_ClipDistance[3];
};

void main()
{
	for (int i = 0; i < 3; i++) {
		gl_Position = gl_in[i].gl_Position;
		gl_ClipDistance[0] = gl_in[i].gl_ClipDistance[(i + pc.n) % 3];
		gl_ClipDistance[1] = gl_in[i].gl_CullDistance[pc.n & 1];
		gl_ClipDistance[2] = gl_in[(i + 1) % 3].gl_CullDistance[1];
		EmitVertex();
	}
}
