#version 300 es
precision highp float;
uniform float shared;
in vec2 uv;
out vec4 color;
void main()
{
	float buffer = shared * 2.0;
	color = vec4(uv, buffer, 1.0);
}
