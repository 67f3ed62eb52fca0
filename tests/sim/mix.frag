#version 450
// A bit of everything the simulator runs: varyings, UBO, texture, a loop,
// a discard, integer and float ALU, an SFU.
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int n;
layout(location = 0) out vec4 c;
layout(binding = 0) uniform sampler2D s;
layout(binding = 1) uniform U { vec4 k; float f[4]; };
void main()
{
	vec4 t = texture(s, uv * 2.0);
	for (int i = 0; i < (n & 7); i++)
		t += vec4(f[i & 3]) * inversesqrt(float(i) + 1.0);
	if (t.x > 2.5)
		discard;
	c = t * k + vec4(float(n >> 1), 0.0, 1.0, 0.0);
}
