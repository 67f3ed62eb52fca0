#version 450
// Outputs sharing a location are one vector (Mesa's slots): each declaration
// writes its components of it.
layout(location = 0, component = 0) out float a;
layout(location = 0, component = 1) out vec2 b;
layout(location = 0, component = 3) out float c;
layout(location = 1, component = 2) out vec2 d;
layout(location = 0) in vec4 v;
void main()
{
	a = v.x;
	b = vec2(2.0, v.y);
	c = 4.0;
	d = v.zw;
}
