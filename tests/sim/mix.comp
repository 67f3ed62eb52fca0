#version 450
// Shared memory, a barrier, SSBOs and a workgroup of several waves on
// a3xx (8 fibres a wave).
layout(local_size_x = 32) in;
layout(binding = 0) buffer In { uint a[32]; };
layout(binding = 1) buffer Out { uint b[32]; };
shared uint t[32];
void main()
{
	uint i = gl_LocalInvocationID.x;
	t[i] = a[i] * 3u + i;
	barrier();
	b[i] = t[31u - i] ^ (t[i] >> 1);
}
