#version 450
// Omnidirectional shadows from a depth cube map storing linear distance,
// sampled with a comparison sampler over a small set of offset directions.

layout(set = 0, binding = 0) uniform samplerCubeShadow shadow_cube;
layout(set = 0, binding = 1) uniform PointShadow {
	vec3 light_pos;
	float far;
	vec3 light_color;
	float disk;
} ps;

layout(location = 0) in vec3 in_world_pos;
layout(location = 1) in vec3 in_normal;

layout(location = 0) out vec4 out_color;

const vec3 offsets[6] = vec3[](
	vec3(1, 1, 1), vec3(-1, 1, -1), vec3(1, -1, -1),
	vec3(-1, -1, 1), vec3(0, 1, 0), vec3(0, -1, 0));

void main()
{
	vec3 to_frag = in_world_pos - ps.light_pos;
	float ref = length(to_frag) / ps.far - 0.002;
	float lit = 0.0;
	for (int i = 0; i < 6; i++)
		lit += texture(shadow_cube, vec4(to_frag + offsets[i] * ps.disk, ref));
	lit /= 6.0;

	float ndl = max(dot(normalize(in_normal), normalize(-to_frag)), 0.0);
	out_color = vec4(ps.light_color * ndl * lit, 1.0);
}
