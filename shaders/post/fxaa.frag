#version 450
// An FXAA-like edge filter: luma contrast over the 3x3 neighbourhood, the edge
// direction from luma gradients, a short search along the edge, and a blend
// towards the other side of it.

layout(set = 0, binding = 0) uniform sampler2D src;
layout(push_constant) uniform Fxaa {
	vec2 texel;
	float edge_threshold;
	float edge_threshold_min;
} f;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

float luma(vec2 uv)
{
	return dot(texture(src, uv).rgb, vec3(0.299, 0.587, 0.114));
}

void main()
{
	float m = luma(in_uv);
	float n = luma(in_uv + vec2(0.0, -f.texel.y));
	float s = luma(in_uv + vec2(0.0, f.texel.y));
	float e = luma(in_uv + vec2(f.texel.x, 0.0));
	float w = luma(in_uv + vec2(-f.texel.x, 0.0));

	float lo = min(m, min(min(n, s), min(e, w)));
	float hi = max(m, max(max(n, s), max(e, w)));
	float range = hi - lo;
	if (range < max(f.edge_threshold_min, hi * f.edge_threshold)) {
		out_color = texture(src, in_uv);
		return;
	}

	float nw = luma(in_uv - f.texel);
	float se = luma(in_uv + f.texel);
	float ne = luma(in_uv + vec2(f.texel.x, -f.texel.y));
	float sw = luma(in_uv + vec2(-f.texel.x, f.texel.y));

	float horiz = abs(nw + ne - 2.0 * n) + 2.0 * abs(w + e - 2.0 * m) + abs(sw + se - 2.0 * s);
	float vert = abs(nw + sw - 2.0 * w) + 2.0 * abs(n + s - 2.0 * m) + abs(ne + se - 2.0 * e);
	bool horizontal = horiz >= vert;

	vec2 step_across = horizontal ? vec2(0.0, f.texel.y) : vec2(f.texel.x, 0.0);
	vec2 step_along = horizontal ? vec2(f.texel.x, 0.0) : vec2(0.0, f.texel.y);
	float l1 = horizontal ? n : w, l2 = horizontal ? s : e;
	if (abs(l1 - m) < abs(l2 - m))
		step_across = -step_across;
	float edge_luma = 0.5 * (m + (abs(l1 - m) >= abs(l2 - m) ? l1 : l2));

	vec2 uv_edge = in_uv + 0.5 * step_across;
	float dist_neg = 0.0, dist_pos = 0.0;
	for (int i = 1; i <= 8; i++) {
		if (dist_neg == 0.0 && abs(luma(uv_edge - step_along * float(i)) - edge_luma) > range * 0.25)
			dist_neg = float(i);
		if (dist_pos == 0.0 && abs(luma(uv_edge + step_along * float(i)) - edge_luma) > range * 0.25)
			dist_pos = float(i);
	}
	dist_neg = dist_neg == 0.0 ? 8.0 : dist_neg;
	dist_pos = dist_pos == 0.0 ? 8.0 : dist_pos;
	float offset = 0.5 - min(dist_neg, dist_pos) / (dist_neg + dist_pos);

	out_color = texture(src, in_uv + step_across * offset);
}
