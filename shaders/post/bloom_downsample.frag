#version 450
// The first bloom step: a soft-knee brightness threshold and a 13-tap
// downsample that weighs the centre box more than the corners.

layout(set = 0, binding = 0) uniform sampler2D src;
layout(push_constant) uniform Bloom {
	vec2 texel;		// of the source
	float threshold;
	float knee;
} b;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

vec3 threshold(vec3 c)
{
	float br = max(c.r, max(c.g, c.b));
	float soft = clamp(br - b.threshold + b.knee, 0.0, 2.0 * b.knee);
	soft = soft * soft / (4.0 * b.knee + 1e-5);
	float contrib = max(soft, br - b.threshold) / max(br, 1e-5);
	return c * contrib;
}

vec3 tap(float x, float y)
{
	return texture(src, in_uv + vec2(x, y) * b.texel).rgb;
}

void main()
{
	vec3 center = tap(-1, -1) + tap(1, -1) + tap(-1, 1) + tap(1, 1);
	vec3 c0 = tap(-2, -2) + tap(0, -2) + tap(-2, 0) + tap(0, 0);
	vec3 c1 = tap(0, -2) + tap(2, -2) + tap(0, 0) + tap(2, 0);
	vec3 c2 = tap(-2, 0) + tap(0, 0) + tap(-2, 2) + tap(0, 2);
	vec3 c3 = tap(0, 0) + tap(2, 0) + tap(0, 2) + tap(2, 2);
	vec3 sum = center * 0.125 + (c0 + c1 + c2 + c3) * 0.03125;
	out_color = vec4(threshold(sum), 1.0);
}
