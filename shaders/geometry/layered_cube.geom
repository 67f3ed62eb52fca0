#version 450
// Render to all six faces of a cube map in one pass: each triangle is emitted
// once per face (gl_Layer) with that face's view-projection, after a cheap
// test that drops faces the triangle cannot touch.

layout(triangles, invocations = 6) in;
layout(triangle_strip, max_vertices = 3) out;

layout(set = 0, binding = 0) uniform Faces {
	mat4 view_proj[6];
} faces;

layout(location = 0) in vec3 in_world_pos[];
layout(location = 0) out vec3 out_world_pos;

void main()
{
	int face = gl_InvocationID;
	vec4 clip[3];
	int outside_left = 0, outside_right = 0;
	for (int i = 0; i < 3; i++) {
		clip[i] = faces.view_proj[face] * vec4(in_world_pos[i], 1.0);
		outside_left += clip[i].x < -clip[i].w ? 1 : 0;
		outside_right += clip[i].x > clip[i].w ? 1 : 0;
	}
	if (outside_left == 3 || outside_right == 3)
		return;
	for (int i = 0; i < 3; i++) {
		gl_Layer = face;
		out_world_pos = in_world_pos[i];
		gl_Position = clip[i];
		EmitVertex();
	}
	EndPrimitive();
}
