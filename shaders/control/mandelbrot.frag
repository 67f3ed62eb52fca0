#version 450
// Mandelbrot with a data-dependent loop exit, smooth iteration count and a
// cosine palette: a loop whose trip count varies per pixel.

layout(push_constant) uniform View {
	vec2 center;
	float scale;
	int max_iter;
} view;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

vec3 palette(float t)
{
	return 0.5 + 0.5 * cos(6.28318 * (t + vec3(0.0, 0.1, 0.2)));
}

void main()
{
	vec2 c = view.center + (in_uv - 0.5) * view.scale;
	vec2 z = vec2(0.0);
	int i = 0;
	for (; i < view.max_iter; i++) {
		z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
		if (dot(z, z) > 256.0)
			break;
	}
	if (i == view.max_iter) {
		out_color = vec4(0.0, 0.0, 0.0, 1.0);
		return;
	}
	float smooth_i = float(i) - log2(log2(dot(z, z))) + 4.0;
	out_color = vec4(palette(smooth_i / 64.0), 1.0);
}
