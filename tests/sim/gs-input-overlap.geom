#version 420 core
// Two inputs at one location (glslang's automatic location puts the
// unlocated block at location 0 as well): they read what the previous
// stage wrote there, one value (interp_random.c's share_inputs).
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;

layout(location = 0) in vec4 aColor[];
in block { vec4 Color; } bIn[];
out vec4 sum;

void main()
{
	for (int i = 0; i < gl_in.length(); ++i) {
		gl_Position = gl_in[i].gl_Position;
		sum = aColor[i] + bIn[i].Color;
		EmitVertex();
	}
}
