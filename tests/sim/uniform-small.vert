#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// 16-bit and 8-bit push constants and UBO members: halves and bytes of the
// const file's dwords.
layout(push_constant) uniform P { i16vec4 k; u8vec4 n; };
layout(binding = 0) uniform U { u16vec2 b; i16vec2 a; };
layout(location = 0) out ivec4 o;
void main()
{
	o = ivec4(k) + ivec4(ivec2(a), ivec2(b)) + ivec4(n);
	gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
