#version 450
// Buffer layouts: std140 with arrays, row- and column-major matrices and a
// struct; push constants; std430 storage with a runtime array and its length.
struct Light { vec3 pos; float radius; };

layout(set = 0, binding = 0, std140) uniform Frame {
	mat4 view;
	layout(row_major) mat3x4 bones;
	float weights[3];
	Light lights[2];
} frame;

layout(push_constant) uniform Push { vec2 offset; int index; } pc;

layout(set = 0, binding = 1, std430) readonly buffer Instances {
	vec4 header;
	vec4 data[];
} inst;

layout(location = 0) in vec4 position;
layout(location = 0) out vec4 color;

void main()
{
	vec4 p = frame.view * position;
	p.xyz += (frame.bones * p.xyz).xyz * frame.weights[pc.index];
	p.xy += pc.offset + frame.lights[1].pos.xy * frame.lights[pc.index].radius;
	color = inst.data[inst.data.length() - 1] + inst.header + frame.bones[1];
	gl_Position = p;
}
