#version 450
// Colour grading through a 3D lookup table, with the half-texel scale and
// offset that keep the lookup on texel centres, plus lift/gamma/gain.

layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1) uniform sampler3D lut;
layout(set = 0, binding = 2) uniform Grade {
	vec4 lift;
	vec4 gamma;
	vec4 gain;
	float lut_size;
	float lut_mix;
} g;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

void main()
{
	vec3 c = clamp(texture(src, in_uv).rgb, 0.0, 1.0);
	c = g.gain.rgb * (c + g.lift.rgb * (1.0 - c));
	c = pow(max(c, vec3(0.0)), 1.0 / max(g.gamma.rgb, vec3(1e-3)));

	float scale = (g.lut_size - 1.0) / g.lut_size;
	float offset = 0.5 / g.lut_size;
	vec3 graded = texture(lut, clamp(c, 0.0, 1.0) * scale + offset).rgb;
	out_color = vec4(mix(c, graded, g.lut_mix), 1.0);
}
