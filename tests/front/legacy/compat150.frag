#version 150 compatibility
uniform sampler2D diffuse;
in vec2 uv;
void main()
{
	gl_FragColor = texture2D(diffuse, uv) * gl_Color;
}
