#version 450
// C = A * B with 16x16 tiles of A and B staged through shared memory, two
// barriers per tile step.

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Dims {
	uint m, n, k;		// A is m x k, B is k x n
} dims;

shared float ta[16][16];
shared float tb[16][16];

void main()
{
	uint row = gl_GlobalInvocationID.y;
	uint col = gl_GlobalInvocationID.x;
	uvec2 l = gl_LocalInvocationID.xy;
	float acc = 0.0;

	for (uint t = 0u; t < (dims.k + 15u) / 16u; t++) {
		uint ka = t * 16u + l.x, kb = t * 16u + l.y;
		ta[l.y][l.x] = row < dims.m && ka < dims.k ? a[row * dims.k + ka] : 0.0;
		tb[l.y][l.x] = kb < dims.k && col < dims.n ? b[kb * dims.n + col] : 0.0;
		barrier();
		for (uint i = 0u; i < 16u; i++)
			acc += ta[l.y][i] * tb[i][l.x];
		barrier();
	}
	if (row < dims.m && col < dims.n)
		c[row * dims.n + col] = acc;
}
