#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// 8-bit stage inputs stay 8-bit in the IR, as Mesa's spirv_to_nir has them:
// a u8vec2 in a block, a signed one alone, read as 32-bit integers.
in ins
{
    layout(location = 0) u8vec2 m0;
    layout(location = 1) u16vec2 m1;
} f_in;
layout(location = 2) flat in int8_t s8;
layout(location = 0) out uvec4 f_out;
layout(location = 1) out int f_s;
void main()
{
    f_out = uvec4(uvec2(f_in.m1), uvec2(f_in.m0));
    f_s = int(s8);
}
