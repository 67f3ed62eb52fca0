#version 130
in vec2 uv;
uniform sampler2D tex;
void main()
{
	gl_FragData[0] = texture(tex, uv);
	gl_FragData[1] = texture2DLod(tex, uv, 0.0);
}
