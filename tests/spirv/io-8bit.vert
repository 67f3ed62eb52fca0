#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// 8-bit stage outputs stay 8-bit in the IR, as Mesa's spirv_to_nir has them.
layout(location = 0) in vec4 p;
layout(location = 1) in uint k;
layout(location = 0) out u8vec2 o8;
layout(location = 1) flat out int8_t s8;
void main()
{
    gl_Position = p;
    o8 = u8vec2(k, k >> 8);
    s8 = int8_t(k);
}
