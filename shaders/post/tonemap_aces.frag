#version 450
// Exposure from an average-luminance texel, a fitted ACES filmic curve, and
// the sRGB transfer function by hand (the target is a UNORM image).

layout(set = 0, binding = 0) uniform sampler2D hdr;
layout(set = 0, binding = 1) uniform sampler2D avg_luminance;	// 1x1
layout(set = 0, binding = 2) uniform Exposure {
	float key;
	float min_exposure;
	float max_exposure;
} ex;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

vec3 aces_fit(vec3 x)
{
	const float a = 2.51, b = 0.03, c = 2.43, d = 0.59, e = 0.14;
	return clamp((x * (a * x + b)) / (x * (c * x + d) + e), 0.0, 1.0);
}

vec3 to_srgb(vec3 c)
{
	vec3 lo = c * 12.92;
	vec3 hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
	return mix(lo, hi, step(vec3(0.0031308), c));
}

void main()
{
	float avg = max(texelFetch(avg_luminance, ivec2(0), 0).r, 1e-4);
	float exposure = clamp(ex.key / avg, ex.min_exposure, ex.max_exposure);
	vec3 c = texture(hdr, in_uv).rgb * exposure;
	out_color = vec4(to_srgb(aces_fit(c)), 1.0);
}
