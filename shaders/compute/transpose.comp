#version 450
// Matrix transpose through a shared-memory tile padded by one column, so the
// column reads do not all hit one bank.

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer Src {
	float src[];
};
layout(std430, set = 0, binding = 1) writeonly buffer Dst {
	float dst[];
};
layout(push_constant) uniform Dims {
	uint width;
	uint height;
} dims;

shared float tile[16][17];

void main()
{
	uvec2 l = gl_LocalInvocationID.xy;
	uvec2 g = gl_WorkGroupID.xy * 16u + l;
	if (g.x < dims.width && g.y < dims.height)
		tile[l.y][l.x] = src[g.y * dims.width + g.x];
	barrier();

	uvec2 t = gl_WorkGroupID.yx * 16u + l;
	if (t.x < dims.height && t.y < dims.width)
		dst[t.y * dims.height + t.x] = tile[l.x][l.y];
}
