#version 450
// Terrain evaluation: bilinear position in the patch, height and normal from
// a height map (explicit LOD: no derivatives in this stage).

layout(quads, equal_spacing, cw) in;

layout(set = 0, binding = 0) uniform Terrain {
	mat4 view_proj;
	vec4 frustum[6];
	vec3 eye;
	float max_height;
	float near_level;
	float far_distance;
} ter;
layout(set = 0, binding = 1) uniform sampler2D height_map;
layout(set = 0, binding = 2) uniform Extent {
	vec2 origin;
	vec2 size;
} extent;

layout(location = 0) in vec2 in_xz[];

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;

void main()
{
	vec2 a = mix(in_xz[0], in_xz[1], gl_TessCoord.x);
	vec2 b = mix(in_xz[3], in_xz[2], gl_TessCoord.x);
	vec2 xz = mix(a, b, gl_TessCoord.y);
	vec2 uv = (xz - extent.origin) / extent.size;

	vec2 texel = 1.0 / vec2(textureSize(height_map, 0));
	float h = textureLod(height_map, uv, 0.0).r * ter.max_height;
	float hx = textureLod(height_map, uv + vec2(texel.x, 0.0), 0.0).r * ter.max_height;
	float hz = textureLod(height_map, uv + vec2(0.0, texel.y), 0.0).r * ter.max_height;
	vec2 step_ws = texel * extent.size;

	out_normal = normalize(vec3(h - hx, step_ws.x, h - hz));
	out_uv = uv;
	gl_Position = ter.view_proj * vec4(xz.x, h, xz.y, 1.0);
}
