#version 450
// Film look: chromatic aberration towards the corners, a vignette, and
// animated grain from an integer hash (no noise texture).

layout(set = 0, binding = 0) uniform sampler2D src;
layout(push_constant) uniform Look {
	float aberration;
	float vignette;
	float grain;
	uint frame;
} look;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

uint hash(uint x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

void main()
{
	vec2 d = in_uv - 0.5;
	float r2 = dot(d, d);
	vec2 shift = d * r2 * look.aberration;
	vec3 c = vec3(texture(src, in_uv - shift).r, texture(src, in_uv).g,
		      texture(src, in_uv + shift).b);

	c *= 1.0 - look.vignette * smoothstep(0.1, 0.5, r2);

	uvec2 px = uvec2(gl_FragCoord.xy);
	uint h = hash(px.x + hash(px.y + hash(look.frame)));
	float noise = float(h & 0xffffu) / 65535.0 - 0.5;
	c += noise * look.grain;

	out_color = vec4(c, 1.0);
}
