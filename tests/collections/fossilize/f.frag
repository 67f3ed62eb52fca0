#version 450
layout(constant_id = 0) const int TAPS = 2;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 1) uniform sampler2D tex;
void main()
{
	vec4 c = vec4(0.0);
	for (int i = 0; i < TAPS; i++)
		c += texture(tex, v_uv + float(i) * 0.01);
	color = c / float(TAPS);
}
