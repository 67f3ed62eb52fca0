#version 450
// FragCoord is the pixel's centre: the hardware gives the integer position
// (ir3 isel adds 0.5 unless the shader asks for integer centres).
layout(location = 0) out vec4 color;
void main()
{
	color = vec4(gl_FragCoord.xy, fract(gl_FragCoord.xy * 0.5));
}
