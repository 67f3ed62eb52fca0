#version 450
// PN triangles, evaluation stage: the cubic Bezier triangle at the barycentric
// coordinate, with quadratically interpolated normals.

layout(triangles, fractional_odd_spacing, ccw) in;

layout(set = 0, binding = 0) uniform Tess {
	mat4 view_proj;
	vec2 viewport;
	float pixels_per_segment;
	float max_level;
} tess;

layout(location = 0) in vec3 in_pos[];
layout(location = 1) in vec3 in_normal[];
layout(location = 2) patch in vec3 b210;
layout(location = 3) patch in vec3 b120;
layout(location = 4) patch in vec3 b021;
layout(location = 5) patch in vec3 b012;
layout(location = 6) patch in vec3 b102;
layout(location = 7) patch in vec3 b201;
layout(location = 8) patch in vec3 b111;

layout(location = 0) out vec3 out_normal;

void main()
{
	float u = gl_TessCoord.x, v = gl_TessCoord.y, w = gl_TessCoord.z;
	vec3 p = in_pos[0] * w * w * w + in_pos[1] * u * u * u + in_pos[2] * v * v * v +
		 b210 * 3.0 * w * w * u + b120 * 3.0 * w * u * u + b201 * 3.0 * w * w * v +
		 b021 * 3.0 * u * u * v + b102 * 3.0 * w * v * v + b012 * 3.0 * u * v * v +
		 b111 * 6.0 * w * u * v;
	out_normal = normalize(in_normal[0] * w + in_normal[1] * u + in_normal[2] * v);
	gl_Position = tess.view_proj * vec4(p, 1.0);
}
