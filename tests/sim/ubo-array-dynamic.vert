#version 450
// A UBO array of matrices read at a dynamic index: pushed to the const file
// and read through a0.x (c<a0.x + n>) where the front end bounds the index's
// bytes; the index stays within the array, so every seed compares.
layout(location = 0) in vec4 pos;
layout(location = 1) in int which;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform UBO {
	vec4 tint;
	mat4 model[4];
	vec4 colors[4];
} ubo;
void main()
{
	int i = which & 3;
	gl_Position = ubo.model[i] * pos;
	color = ubo.colors[3 - i] * ubo.tint;
}
