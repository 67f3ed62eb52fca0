#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// 8- and 16-bit SSBO accesses: an a6xx ldib/stib offset counts elements of
// the access's size (bytes, 16-bit words, dwords), not always dwords.
layout(local_size_x = 4) in;
layout(binding = 0) buffer B { uint16_t h[8]; uint8_t b[8]; };
void main()
{
	uint i = gl_LocalInvocationID.x;
	h[i + 4u] = h[i] + uint16_t(i);
	b[i + 4u] = b[i] ^ uint8_t(h[3u - i]);
}
