#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
// Compute: a spec-constant workgroup size, shared memory, barriers,
// storage images and their atomics, SSBO atomics, subgroup operations.
layout(local_size_x_id = 3, local_size_y = 2) in;
layout(constant_id = 4) const int scale = 3;
layout(set = 0, binding = 0, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
layout(set = 0, binding = 2) buffer Out { uint total; float sums[]; };
shared float tile[64];

void main()
{
	uint i = gl_LocalInvocationIndex;
	tile[i] = float(gl_GlobalInvocationID.x * uint(scale));
	barrier();
	float s = subgroupAdd(tile[(i + 1u) % 64u]);
	uvec4 b = subgroupBallot(s > 1.0);
	if (subgroupElect())
		atomicAdd(total, subgroupBallotBitCount(b));
	imageAtomicMax(counts, ivec2(gl_WorkGroupID.xy), i);
	imageStore(dst, ivec2(gl_GlobalInvocationID.xy), vec4(s));
	sums[gl_GlobalInvocationID.x] = s;
}
