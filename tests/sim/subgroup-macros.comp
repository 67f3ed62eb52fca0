#version 450
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
// Ballots of a condition that differs between fibres, votes, elect and
// read-first (Mesa's subgroup macros: the fibres running them count, and
// only those where the condition holds), in a loop where fibres leave one
// after the other.
layout(local_size_x = 64) in;
layout(binding = 0) buffer B { uint v[64]; uvec4 b[64]; uint r[64]; };
void main()
{
	uint i = gl_LocalInvocationIndex, x = v[i] & 7u, n = 0u;
	b[i] = subgroupBallot(x > 3u);
	for (;;) {
		uint first = subgroupBroadcastFirst(x);
		n += subgroupElect() ? 100u : 1u;
		if (x == first)
			break;
	}
	r[i] = n + (subgroupAny(x == 2u) ? 10u : 0u) + (subgroupAll(x < 8u) ? 1000u : 0u);
}
