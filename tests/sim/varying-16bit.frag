#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// A flat 16-bit varying travels as its bits; a smooth one as a float.
layout(location = 0) flat in uint16_t u;
layout(location = 1) flat in int16_t s;
layout(location = 2) in float16_t f;
layout(location = 0) out vec4 c;
void main()
{
	c = vec4(float(u), float(s), float(f), 1.0);
}
