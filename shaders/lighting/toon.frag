#version 450
// Cel shading: diffuse quantised into bands, a hard specular highlight and a
// rim light, all with smoothstep edges a pixel wide (fwidth).

layout(set = 0, binding = 0) uniform Toon {
	vec3 light_dir;
	float bands;
	vec3 base_color;
	float rim_power;
	vec3 eye;
	float spec_size;
} toon;

layout(location = 0) in vec3 in_world_pos;
layout(location = 1) in vec3 in_normal;

layout(location = 0) out vec4 out_color;

void main()
{
	vec3 n = normalize(in_normal);
	vec3 l = normalize(toon.light_dir);
	vec3 v = normalize(toon.eye - in_world_pos);

	float ndl = max(dot(n, l), 0.0);
	float stepped = floor(ndl * toon.bands) / toon.bands;
	float edge = fwidth(ndl);
	float band = mix(stepped, stepped + 1.0 / toon.bands,
			 smoothstep(-edge, edge, fract(ndl * toon.bands) - 1.0 + edge));

	float ndh = dot(n, normalize(l + v));
	float w = fwidth(ndh);
	float spec = smoothstep(1.0 - toon.spec_size - w, 1.0 - toon.spec_size + w, ndh);

	float rim = pow(1.0 - max(dot(n, v), 0.0), toon.rim_power) * step(0.2, ndl);

	out_color = vec4(toon.base_color * (0.3 + 0.7 * band) + vec3(spec + rim * 0.5), 1.0);
}
