#version 450
// Fractal Brownian motion over gradient noise: a fixed-count loop the
// compiler may unroll, with octave count from a uniform as an early exit.

layout(push_constant) uniform Noise {
	vec2 offset;
	float scale;
	int octaves;
	float lacunarity;
	float gain;
} nz;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

vec2 grad(ivec2 p)
{
	uint h = uint(p.x) * 1664525u + uint(p.y) * 1013904223u;
	h ^= h >> 13;
	h *= 0x5bd1e995u;
	float a = float(h & 1023u) * (6.28318 / 1024.0);
	return vec2(cos(a), sin(a));
}

float gnoise(vec2 x)
{
	ivec2 i = ivec2(floor(x));
	vec2 f = fract(x);
	vec2 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
	float a = dot(grad(i), f);
	float b = dot(grad(i + ivec2(1, 0)), f - vec2(1, 0));
	float c = dot(grad(i + ivec2(0, 1)), f - vec2(0, 1));
	float d = dot(grad(i + ivec2(1, 1)), f - vec2(1, 1));
	return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

void main()
{
	vec2 p = (in_uv + nz.offset) * nz.scale;
	float amp = 0.5, sum = 0.0;
	for (int o = 0; o < 8; o++) {
		if (o >= nz.octaves)
			break;
		sum += amp * gnoise(p);
		p = mat2(0.8, 0.6, -0.6, 0.8) * p * nz.lacunarity;
		amp *= nz.gain;
	}
	out_color = vec4(vec3(sum * 0.5 + 0.5), 1.0);
}
