#version 450
// Blinn-Phong with a directional light, the half vector, an energy-conserving
// normalisation of the specular lobe and a texture for the albedo.

layout(set = 0, binding = 0) uniform Sun {
	vec3 direction;		// towards the light
	float intensity;
	vec3 color;
	float ambient;
	vec3 eye;
} sun;

layout(set = 1, binding = 0) uniform sampler2D albedo_map;
layout(set = 1, binding = 1) uniform Params {
	float gloss;		// Blinn exponent
	float spec_strength;
} params;

layout(location = 0) in vec3 in_world_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec4 out_color;

const float PI = 3.14159265;

void main()
{
	vec3 albedo = texture(albedo_map, in_uv).rgb;
	vec3 n = normalize(in_normal);
	vec3 l = normalize(sun.direction);
	vec3 v = normalize(sun.eye - in_world_pos);
	vec3 h = normalize(l + v);

	float ndl = max(dot(n, l), 0.0);
	float norm = (params.gloss + 8.0) / (8.0 * PI);
	float spec = norm * pow(max(dot(n, h), 0.0), params.gloss) * params.spec_strength;

	vec3 lit = (albedo / PI + vec3(spec)) * sun.color * sun.intensity * ndl;
	out_color = vec4(lit + albedo * sun.ambient, 1.0);
}
