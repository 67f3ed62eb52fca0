#version 450
// Linear-blend skinning: four bone influences per vertex, the palette in a
// storage buffer, weights renormalised so a vertex never shrinks.

layout(set = 0, binding = 0) uniform Frame {
	mat4 view_proj;
} frame;

layout(std430, set = 1, binding = 0) readonly buffer Bones {
	mat4 palette[];
} bones;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in uvec4 in_joints;
layout(location = 3) in vec4 in_weights;

layout(location = 0) out vec3 out_normal;

void main()
{
	float total = dot(in_weights, vec4(1.0));
	vec4 w = total > 0.0 ? in_weights / total : vec4(1.0, 0.0, 0.0, 0.0);

	mat4 skin = w.x * bones.palette[in_joints.x] +
		    w.y * bones.palette[in_joints.y] +
		    w.z * bones.palette[in_joints.z] +
		    w.w * bones.palette[in_joints.w];

	out_normal = normalize(mat3(skin) * in_normal);
	gl_Position = frame.view_proj * skin * vec4(in_position, 1.0);
}
