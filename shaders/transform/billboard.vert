#version 450
// Camera-facing billboards generated from gl_VertexIndex: six vertices per
// particle, no vertex buffer.

layout(set = 0, binding = 0) uniform Camera {
	mat4 view;
	mat4 proj;
} cam;

struct Particle {
	vec4 pos_size;
	vec4 color;
};

layout(std430, set = 0, binding = 1) readonly buffer Particles {
	Particle p[];
} particles;

layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec4 out_color;

const vec2 corners[6] = vec2[](
	vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
	vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0));

void main()
{
	Particle part = particles.p[gl_VertexIndex / 6];
	vec2 corner = corners[gl_VertexIndex % 6];

	vec4 center = cam.view * vec4(part.pos_size.xyz, 1.0);
	center.xy += corner * part.pos_size.w;

	out_uv = corner * 0.5 + 0.5;
	out_color = part.color;
	gl_Position = cam.proj * center;
}
