#version 450
// Shadow mapping with a comparison sampler: a 5x5 PCF kernel of hardware 2x2
// comparisons, weighted by a tent so the edge stays smooth.

layout(set = 0, binding = 0) uniform sampler2DShadow shadow_map;
layout(set = 0, binding = 1) uniform Shadow {
	mat4 light_view_proj;
	vec3 light_dir;
	float normal_offset;
	vec3 light_color;
	float texel;		// 1 / shadow map size
} sh;

layout(location = 0) in vec3 in_world_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec3 in_albedo;

layout(location = 0) out vec4 out_color;

float shadow_factor(vec3 world, vec3 n)
{
	vec4 p = sh.light_view_proj * vec4(world + n * sh.normal_offset, 1.0);
	vec3 uvz = p.xyz / p.w;
	uvz.xy = uvz.xy * 0.5 + 0.5;
	if (any(lessThan(uvz.xy, vec2(0.0))) || any(greaterThan(uvz.xy, vec2(1.0))))
		return 1.0;

	float sum = 0.0, weights = 0.0;
	for (int y = -2; y <= 2; y++) {
		for (int x = -2; x <= 2; x++) {
			float w = (3.0 - abs(float(x))) * (3.0 - abs(float(y)));
			vec2 uv = uvz.xy + vec2(x, y) * sh.texel;
			sum += w * texture(shadow_map, vec3(uv, uvz.z));
			weights += w;
		}
	}
	return sum / weights;
}

void main()
{
	vec3 n = normalize(in_normal);
	float ndl = max(dot(n, normalize(sh.light_dir)), 0.0);
	float lit = ndl > 0.0 ? shadow_factor(in_world_pos, n) : 0.0;
	out_color = vec4(in_albedo * (0.1 + sh.light_color * ndl * lit), 1.0);
}
