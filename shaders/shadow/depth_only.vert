#version 450
// The shadow pass: position only, with a slope-independent depth bias applied
// in clip space.

layout(set = 0, binding = 0) uniform ShadowPass {
	mat4 light_view_proj;
	float bias;
} pass;

layout(push_constant) uniform Object {
	mat4 model;
} obj;

layout(location = 0) in vec3 in_position;

void main()
{
	vec4 p = pass.light_view_proj * obj.model * vec4(in_position, 1.0);
	p.z += pass.bias * p.w;
	gl_Position = p;
}
