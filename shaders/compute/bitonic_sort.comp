#version 450
// One workgroup sorts 1024 keys in shared memory with a bitonic network:
// nested loops whose every step ends in a barrier.

layout(local_size_x = 512) in;

layout(std430, set = 0, binding = 0) buffer Keys {
	uint keys[];
};

shared uint s[1024];

void main()
{
	uint lid = gl_LocalInvocationID.x;
	uint base = gl_WorkGroupID.x * 1024u;
	s[lid] = keys[base + lid];
	s[lid + 512u] = keys[base + lid + 512u];
	barrier();

	for (uint size = 2u; size <= 1024u; size <<= 1) {
		for (uint stride = size >> 1; stride > 0u; stride >>= 1) {
			uint i = 2u * lid - (lid & (stride - 1u));
			uint j = i + stride;
			bool ascending = (i & size) == 0u;
			uint a = s[i], b = s[j];
			if ((a > b) == ascending) {
				s[i] = b;
				s[j] = a;
			}
			barrier();
		}
	}
	keys[base + lid] = s[lid];
	keys[base + lid + 512u] = s[lid + 512u];
}
