#version 450
// Work-efficient exclusive scan of 512 elements per workgroup (Blelloch):
// an up-sweep and a down-sweep in shared memory, the block total saved for
// the next level.

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) buffer Data {
	uint data[];
};
layout(std430, set = 0, binding = 1) writeonly buffer Totals {
	uint totals[];
};

shared uint temp[512];

void main()
{
	uint lid = gl_LocalInvocationID.x;
	uint base = gl_WorkGroupID.x * 512u;
	temp[2u * lid] = data[base + 2u * lid];
	temp[2u * lid + 1u] = data[base + 2u * lid + 1u];

	uint offset = 1u;
	for (uint d = 256u; d > 0u; d >>= 1) {
		barrier();
		if (lid < d) {
			uint ai = offset * (2u * lid + 1u) - 1u;
			uint bi = offset * (2u * lid + 2u) - 1u;
			temp[bi] += temp[ai];
		}
		offset <<= 1;
	}
	if (lid == 0u) {
		totals[gl_WorkGroupID.x] = temp[511];
		temp[511] = 0u;
	}
	for (uint d = 1u; d < 512u; d <<= 1) {
		offset >>= 1;
		barrier();
		if (lid < d) {
			uint ai = offset * (2u * lid + 1u) - 1u;
			uint bi = offset * (2u * lid + 2u) - 1u;
			uint t = temp[ai];
			temp[ai] = temp[bi];
			temp[bi] += t;
		}
	}
	barrier();
	data[base + 2u * lid] = temp[2u * lid];
	data[base + 2u * lid + 1u] = temp[2u * lid + 1u];
}
