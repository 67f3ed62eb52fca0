#version 450
#extension GL_KHR_shader_subgroup_ballot : require
// Subgroup masks and ballot counts over every word of a wave of 64 or 128
// fibres (the invocation's bit lies in word id / 32); a ballot's bits past
// the subgroup size do not count.
layout(local_size_x = 128) in;
layout(binding = 0) buffer B { uvec4 lt[128]; uvec4 ge[128]; uint n[128]; uint m[128]; };
void main()
{
	uint i = gl_LocalInvocationIndex;
	lt[i] = gl_SubgroupLtMask;
	ge[i] = gl_SubgroupGeMask ^ gl_SubgroupEqMask;
	n[i] = subgroupBallotExclusiveBitCount(uvec4(~0u)) + subgroupBallotFindMSB(gl_SubgroupLeMask);
	m[i] = subgroupBallotFindMSB(uvec4(1, 2, 3, 4)) + subgroupBallotBitCount(uvec4(1, 2, 3, 4));
}
