#version 310 es
// RelaxedPrecision on stage I/O: mediump float inputs and outputs are
// declared mediump, highp ones and integers are not.
precision mediump float;
layout(location = 0) in vec4 v_color;
layout(location = 1) in highp vec2 v_uv;
layout(location = 2) flat in mediump int v_index;
layout(location = 0) out vec4 o_color;
layout(location = 1) out highp vec4 o_precise;
void main()
{
	o_color = v_color * float(v_index);
	o_precise = vec4(v_uv, 0.0, 1.0);
}
