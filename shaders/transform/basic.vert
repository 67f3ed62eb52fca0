#version 450
// Model-view-projection transform with a normal matrix: the shape of most
// forward-rendering vertex shaders.

layout(set = 0, binding = 0) uniform Camera {
	mat4 view;
	mat4 proj;
	vec3 eye;
} cam;

layout(push_constant) uniform Object {
	mat4 model;
	mat4 normal_matrix;	// inverse transpose of the model matrix, padded
} obj;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec3 out_world_pos;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec2 out_uv;

void main()
{
	vec4 world = obj.model * vec4(in_position, 1.0);
	out_world_pos = world.xyz;
	out_normal = normalize(mat3(obj.normal_matrix) * in_normal);
	out_uv = in_uv;
	gl_Position = cam.proj * cam.view * world;
}
