#version 450
// PN triangles, control stage: the ten cubic Bezier control points of each
// patch from its corner positions and normals, and a tessellation level
// that follows the edge's screen-space length.

layout(vertices = 3) out;

layout(set = 0, binding = 0) uniform Tess {
	mat4 view_proj;
	vec2 viewport;
	float pixels_per_segment;
	float max_level;
} tess;

layout(location = 0) in vec3 in_pos[];
layout(location = 1) in vec3 in_normal[];

layout(location = 0) out vec3 out_pos[];
layout(location = 1) out vec3 out_normal[];
layout(location = 2) patch out vec3 b210;
layout(location = 3) patch out vec3 b120;
layout(location = 4) patch out vec3 b021;
layout(location = 5) patch out vec3 b012;
layout(location = 6) patch out vec3 b102;
layout(location = 7) patch out vec3 b201;
layout(location = 8) patch out vec3 b111;

vec3 edge_point(vec3 pi, vec3 pj, vec3 ni)
{
	return (2.0 * pi + pj - dot(pj - pi, ni) * ni) / 3.0;
}

vec2 screen(vec3 p)
{
	vec4 c = tess.view_proj * vec4(p, 1.0);
	return (c.xy / c.w * 0.5 + 0.5) * tess.viewport;
}

float level(vec3 a, vec3 b)
{
	float len = distance(screen(a), screen(b));
	return clamp(len / tess.pixels_per_segment, 1.0, tess.max_level);
}

void main()
{
	out_pos[gl_InvocationID] = in_pos[gl_InvocationID];
	out_normal[gl_InvocationID] = in_normal[gl_InvocationID];
	if (gl_InvocationID != 0)
		return;

	vec3 p0 = in_pos[0], p1 = in_pos[1], p2 = in_pos[2];
	vec3 n0 = in_normal[0], n1 = in_normal[1], n2 = in_normal[2];
	b210 = edge_point(p0, p1, n0);
	b120 = edge_point(p1, p0, n1);
	b021 = edge_point(p1, p2, n1);
	b012 = edge_point(p2, p1, n2);
	b102 = edge_point(p2, p0, n2);
	b201 = edge_point(p0, p2, n0);
	vec3 e = (b210 + b120 + b021 + b012 + b102 + b201) / 6.0;
	vec3 v = (p0 + p1 + p2) / 3.0;
	b111 = e + (e - v) / 2.0;

	gl_TessLevelOuter[0] = level(p1, p2);
	gl_TessLevelOuter[1] = level(p2, p0);
	gl_TessLevelOuter[2] = level(p0, p1);
	gl_TessLevelInner[0] = max(gl_TessLevelOuter[0], max(gl_TessLevelOuter[1], gl_TessLevelOuter[2]));
}
