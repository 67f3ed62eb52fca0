#version 450
// Instanced grass blades: per-instance position, scale and yaw from an
// instance buffer, a wind sway that grows with the height along the blade.

layout(set = 0, binding = 0) uniform Scene {
	mat4 view_proj;
	vec2 wind_dir;
	float wind_strength;
	float time;
} scene;

layout(location = 0) in vec3 in_position;	// blade in its own space, y up
layout(location = 1) in vec4 inst_pos_scale;	// xyz: root, w: scale
layout(location = 2) in float inst_yaw;

layout(location = 0) out float out_height;

mat2 rotation(float a)
{
	float c = cos(a), s = sin(a);
	return mat2(c, s, -s, c);
}

void main()
{
	vec3 p = in_position * inst_pos_scale.w;
	p.xz = rotation(inst_yaw) * p.xz;

	float phase = dot(inst_pos_scale.xz, vec2(0.37, 0.61)) + scene.time;
	float bend = scene.wind_strength * sin(phase) * p.y * p.y;
	p.xz += scene.wind_dir * bend;

	out_height = in_position.y;
	gl_Position = scene.view_proj * vec4(p + inst_pos_scale.xyz, 1.0);
}
