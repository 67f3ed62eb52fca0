#version 450
// Hemisphere ambient plus a spherical-harmonics (L1) irradiance probe,
// blended by a per-material factor.

layout(set = 0, binding = 0) uniform Ambient {
	vec4 sky;
	vec4 ground;
	vec4 sh[4];		// L0, L1 (y, z, x) coefficients, rgb
	float sh_weight;
} amb;

layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec3 in_albedo;

layout(location = 0) out vec4 out_color;

vec3 sh_irradiance(vec3 n)
{
	const float c0 = 0.886227, c1 = 1.023328;
	return c0 * amb.sh[0].rgb +
	       c1 * (amb.sh[1].rgb * n.y + amb.sh[2].rgb * n.z + amb.sh[3].rgb * n.x);
}

void main()
{
	vec3 n = normalize(in_normal);
	vec3 hemi = mix(amb.ground.rgb, amb.sky.rgb, n.y * 0.5 + 0.5);
	vec3 irr = mix(hemi, max(sh_irradiance(n), vec3(0.0)), amb.sh_weight);
	out_color = vec4(in_albedo * irr, 1.0);
}
