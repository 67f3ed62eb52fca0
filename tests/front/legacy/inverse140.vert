#version 140
// GLSL 1.40 has inverse(); glslang gives it from 1.50 on
uniform mat4 model;
uniform mat3 basis;
in vec4 position;
in vec3 normal;
out vec3 n;
void main()
{
	n = transpose(inverse(basis)) * normal;
	gl_Position = inverse(model) * position;
}
