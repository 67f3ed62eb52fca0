#version 450
// 64-bit pointers (buffer_device_address) on every target: a3xx/a4xx have
// 32-bit GPU addresses, where the machine code keeps a pointer's low half
// for the access (the interpreter's inputs say so: address_bits).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 4) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Data { uint v[]; };

layout(push_constant) uniform Push { Data src; Data dst; uint64_t raw; } pc;
layout(std430, binding = 0) buffer Out { uvec2 addr; uint sum; } o;

void main()
{
	uint i = gl_LocalInvocationIndex;
	pc.dst.v[i] = pc.src.v[i] * 3u + i;
	if (i == 0u) {
		o.addr = unpack32(pc.raw + 16ul);
		o.sum = pc.src.v[1] + pc.src.v[2];
	}
}
