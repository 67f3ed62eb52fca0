#version 450
// Extended Reinhard on luminance (white point), applied so that hue is kept,
// then a small contrast curve.

layout(set = 0, binding = 0) uniform sampler2D hdr;
layout(push_constant) uniform Params {
	float exposure;
	float white;
	float contrast;
} p;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

float luminance(vec3 c)
{
	return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

void main()
{
	vec3 c = texture(hdr, in_uv).rgb * p.exposure;
	float l = luminance(c);
	float mapped = l * (1.0 + l / (p.white * p.white)) / (1.0 + l);
	c *= l > 0.0 ? mapped / l : 0.0;
	c = clamp(c, 0.0, 1.0);
	c = mix(c, c * c * (3.0 - 2.0 * c), p.contrast);
	out_color = vec4(c, 1.0);
}
