#version 450
// Tangent-space normal mapping with a per-vertex tangent frame (bitangent sign
// in tangent.w) and a detail normal blended with whiteout blending.

layout(set = 0, binding = 0) uniform sampler2D normal_map;
layout(set = 0, binding = 1) uniform sampler2D detail_map;
layout(set = 0, binding = 2) uniform Params {
	vec3 light_dir;
	float detail_scale;
	vec3 light_color;
	float detail_strength;
} params;

layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec4 in_tangent;
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec4 out_color;

vec3 unpack(vec4 t)
{
	vec3 n = vec3(t.xy * 2.0 - 1.0, 0.0);
	n.z = sqrt(clamp(1.0 - dot(n.xy, n.xy), 0.0, 1.0));
	return n;
}

void main()
{
	vec3 base = unpack(texture(normal_map, in_uv));
	vec3 detail = unpack(texture(detail_map, in_uv * params.detail_scale));
	detail.xy *= params.detail_strength;
	vec3 ts = normalize(vec3(base.xy + detail.xy, base.z * detail.z));

	vec3 n = normalize(in_normal);
	vec3 t = normalize(in_tangent.xyz - n * dot(n, in_tangent.xyz));
	vec3 b = cross(n, t) * in_tangent.w;
	vec3 world_n = normalize(mat3(t, b, n) * ts);

	float ndl = max(dot(world_n, normalize(params.light_dir)), 0.0);
	out_color = vec4(params.light_color * ndl, 1.0);
}
