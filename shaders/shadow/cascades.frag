#version 450
// Cascaded shadow maps in one array texture with comparison: the cascade from
// view depth, a blend band between cascades, Poisson-disc PCF.

layout(set = 0, binding = 0) uniform sampler2DArrayShadow cascades;
layout(set = 0, binding = 1) uniform Cascades {
	mat4 light_view_proj[4];
	vec4 splits;		// far plane of each cascade, view space
	float blend_band;
	float filter_radius;
} csm;

layout(location = 0) in vec3 in_world_pos;
layout(location = 1) in float in_view_depth;

layout(location = 0) out float out_visibility;

const vec2 poisson[8] = vec2[](
	vec2(-0.613, 0.617), vec2(0.170, -0.040), vec2(-0.299, -0.791), vec2(0.645, 0.493),
	vec2(-0.651, -0.008), vec2(0.421, -0.677), vec2(-0.049, 0.918), vec2(0.934, -0.126));

float sample_cascade(int c)
{
	vec4 p = csm.light_view_proj[c] * vec4(in_world_pos, 1.0);
	vec3 uvz = p.xyz / p.w;
	uvz.xy = uvz.xy * 0.5 + 0.5;
	float s = 0.0;
	for (int i = 0; i < 8; i++)
		s += texture(cascades, vec4(uvz.xy + poisson[i] * csm.filter_radius, float(c), uvz.z));
	return s / 8.0;
}

void main()
{
	int c = 0;
	while (c < 3 && in_view_depth > csm.splits[c])
		c++;
	float vis = sample_cascade(c);
	float to_edge = csm.splits[c] - in_view_depth;
	if (c < 3 && to_edge < csm.blend_band)
		vis = mix(sample_cascade(c + 1), vis, to_edge / csm.blend_band);
	out_visibility = vis;
}
