#version 450
// Debug view of normals: a line from each vertex along its normal, and one
// from each face centre along the face normal, in a second colour.

layout(triangles) in;
layout(line_strip, max_vertices = 8) out;

layout(set = 0, binding = 0) uniform Debug {
	mat4 view_proj;
	float line_length;
} dbg;

layout(location = 0) in vec3 in_world_pos[];
layout(location = 1) in vec3 in_normal[];

layout(location = 0) out vec3 out_color;

void line(vec3 from, vec3 dir, vec3 color)
{
	out_color = color;
	gl_Position = dbg.view_proj * vec4(from, 1.0);
	EmitVertex();
	out_color = color;
	gl_Position = dbg.view_proj * vec4(from + dir * dbg.line_length, 1.0);
	EmitVertex();
	EndPrimitive();
}

void main()
{
	for (int i = 0; i < 3; i++)
		line(in_world_pos[i], normalize(in_normal[i]), vec3(1.0, 1.0, 0.0));
	vec3 e1 = in_world_pos[1] - in_world_pos[0];
	vec3 e2 = in_world_pos[2] - in_world_pos[0];
	vec3 center = (in_world_pos[0] + in_world_pos[1] + in_world_pos[2]) / 3.0;
	line(center, normalize(cross(e1, e2)), vec3(0.0, 1.0, 1.0));
}
