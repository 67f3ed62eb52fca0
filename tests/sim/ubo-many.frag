#version 450
// An element of a large array of UBOs at a constant index: its range is
// pushed to the const file, so a3xx-a5xx need no UBO addresses there (those
// of 4096 buffers would not fit).
layout(binding = 0) uniform U { vec4 v; } u[4096];
layout(location = 0) out vec4 color;
void main()
{
	color = u[4000].v + u[7].v;
}
