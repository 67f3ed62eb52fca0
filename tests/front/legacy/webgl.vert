attribute vec4 position;
attribute vec2 texcoord;
uniform mat4 mvp;
varying vec2 uv;
void main()
{
	int layout = 2;
	uv = texcoord * float(layout);
	gl_Position = mvp * position;
}
