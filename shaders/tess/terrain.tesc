#version 450
// Terrain patches (quads): distance-based levels per edge computed from the
// edge midpoint so neighbours agree, and frustum culling of whole patches
// (level 0) against a bounding box raised by the maximum height.

layout(vertices = 4) out;

layout(set = 0, binding = 0) uniform Terrain {
	mat4 view_proj;
	vec4 frustum[6];
	vec3 eye;
	float max_height;
	float near_level;
	float far_distance;
} ter;

layout(location = 0) in vec2 in_xz[];
layout(location = 0) out vec2 out_xz[];

float edge_level(vec2 a, vec2 b)
{
	float d = distance(vec3((a + b) * 0.5, 0.0).xzy, ter.eye);
	return clamp(ter.near_level * (1.0 - d / ter.far_distance), 1.0, ter.near_level);
}

bool visible()
{
	vec2 lo = min(min(in_xz[0], in_xz[1]), min(in_xz[2], in_xz[3]));
	vec2 hi = max(max(in_xz[0], in_xz[1]), max(in_xz[2], in_xz[3]));
	for (int i = 0; i < 6; i++) {
		vec4 pl = ter.frustum[i];
		vec3 far_corner = vec3(pl.x > 0.0 ? hi.x : lo.x, pl.y > 0.0 ? ter.max_height : 0.0,
				       pl.z > 0.0 ? hi.y : lo.y);
		if (dot(pl.xyz, far_corner) + pl.w < 0.0)
			return false;
	}
	return true;
}

void main()
{
	out_xz[gl_InvocationID] = in_xz[gl_InvocationID];
	if (gl_InvocationID != 0)
		return;
	if (!visible()) {
		gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = 0.0;
		gl_TessLevelOuter[2] = gl_TessLevelOuter[3] = 0.0;
		gl_TessLevelInner[0] = gl_TessLevelInner[1] = 0.0;
		return;
	}
	gl_TessLevelOuter[0] = edge_level(in_xz[3], in_xz[0]);
	gl_TessLevelOuter[1] = edge_level(in_xz[0], in_xz[1]);
	gl_TessLevelOuter[2] = edge_level(in_xz[1], in_xz[2]);
	gl_TessLevelOuter[3] = edge_level(in_xz[2], in_xz[3]);
	gl_TessLevelInner[0] = max(gl_TessLevelOuter[1], gl_TessLevelOuter[3]);
	gl_TessLevelInner[1] = max(gl_TessLevelOuter[0], gl_TessLevelOuter[2]);
}
