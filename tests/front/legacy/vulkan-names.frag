#version 330
// names that Vulkan GLSL made types, as GL sources use them
uniform sampler2D sampler;
uniform sampler2D texture2D;
uniform vec4 subpassInput;
in vec2 uv;
out vec4 color;
void main()
{
	vec4 texture1D = texture(sampler, uv);
	color = texture1D + texture(texture2D, uv) * subpassInput;
}
