#version 450
// Clip and cull distances read from the tess param buffer (compact: the
// cull distances after the clip distances, four floats a slot), at
// constant and dynamic indices.
layout(triangles) in;
layout(push_constant) uniform P { int n; } pc;

in gl_PerVertex {
	vec4 gl_Position;
	float gl_ClipDistance[3];
	float gl_CullDistance[3];
} gl_in[];

out gl_PerVertex {
	vec4 gl_Position;
	float gl_ClipDistance[3];
};

void main()
{
	vec3 t = gl_TessCoord;
	gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position;
	for (int k = 0; k < 3; k++)
		gl_ClipDistance[k] = gl_in[k].gl_ClipDistance[(k + pc.n) & 1] - gl_in[k].gl_CullDistance[(pc.n + k) % 3];
	gl_Position.w += gl_in[2].gl_CullDistance[2];
}
