#version 450
// Points to view-aligned quads, sized in world units and shrunk to nothing as
// a particle ages.

layout(points) in;
layout(triangle_strip, max_vertices = 4) out;

layout(set = 0, binding = 0) uniform Camera {
	mat4 proj;
	float size;
} cam;

layout(location = 0) in float in_age[];	// 0 .. 1
layout(location = 0) out vec2 out_uv;
layout(location = 1) out float out_fade;

void main()
{
	float age = in_age[0];
	if (age >= 1.0)
		return;
	vec4 center = gl_in[0].gl_Position;	// view space
	float half_size = cam.size * (1.0 - age) * 0.5;
	for (int i = 0; i < 4; i++) {
		vec2 corner = vec2(i & 1, i >> 1);
		out_uv = corner;
		out_fade = 1.0 - age * age;
		gl_Position = cam.proj * (center + vec4((corner * 2.0 - 1.0) * half_size, 0.0, 0.0));
		EmitVertex();
	}
	EndPrimitive();
}
