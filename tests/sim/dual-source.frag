#version 450
// Dual-source blending: index 1 of location 0 is the second render target.
layout(location = 0, index = 0) out vec4 c0;
layout(location = 0, index = 1) out vec4 c1;
layout(location = 0) in vec4 v;
void main()
{
	c0 = v;
	c1 = vec4(2.0);
}
