#version 450
// Contrast-adaptive sharpening in the spirit of AMD's CAS: the sharpening
// weight shrinks where the local contrast is already high.

layout(set = 0, binding = 0) uniform sampler2D src;
layout(push_constant) uniform Sharpen {
	float amount;		// 0..1
} sh;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

void main()
{
	ivec2 p = ivec2(gl_FragCoord.xy);
	vec3 a = texelFetch(src, p + ivec2(0, -1), 0).rgb;
	vec3 b = texelFetch(src, p + ivec2(-1, 0), 0).rgb;
	vec3 c = texelFetch(src, p, 0).rgb;
	vec3 d = texelFetch(src, p + ivec2(1, 0), 0).rgb;
	vec3 e = texelFetch(src, p + ivec2(0, 1), 0).rgb;

	vec3 mn = min(min(min(a, b), min(c, d)), e);
	vec3 mx = max(max(max(a, b), max(c, d)), e);
	vec3 amp = sqrt(clamp(min(mn, 2.0 - mx) / max(mx, vec3(1e-5)), 0.0, 1.0));
	vec3 w = -amp / mix(8.0, 5.0, sh.amount);

	vec3 result = (c + (a + b + d + e) * w) / (1.0 + 4.0 * w);
	out_color = vec4(clamp(result, 0.0, 1.0), 1.0);
}
