#version 450
// Parallel sum: each invocation adds a strided run of elements, then a tree
// reduction in shared memory with a barrier per level; one partial sum per
// workgroup goes out (a second dispatch adds those).

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Input {
	float values[];
};
layout(std430, set = 0, binding = 1) writeonly buffer Partials {
	float partials[];
};
layout(push_constant) uniform Size {
	uint count;
} size;

shared float scratch[256];

void main()
{
	uint lid = gl_LocalInvocationID.x;
	uint stride = gl_NumWorkGroups.x * 256u;
	float sum = 0.0;
	for (uint i = gl_GlobalInvocationID.x; i < size.count; i += stride)
		sum += values[i];
	scratch[lid] = sum;
	barrier();

	for (uint half_size = 128u; half_size > 0u; half_size >>= 1) {
		if (lid < half_size)
			scratch[lid] += scratch[lid + half_size];
		barrier();
	}
	if (lid == 0u)
		partials[gl_WorkGroupID.x] = scratch[0];
}
