#version 450
// Silhouette edges from triangles with adjacency: an edge is drawn (as a thin
// quad) when its triangle faces the light and the neighbour across it does
// not.

layout(triangles_adjacency) in;
layout(triangle_strip, max_vertices = 12) out;

layout(set = 0, binding = 0) uniform Sil {
	mat4 view_proj;
	vec3 light_pos;
	float width;
} sil;

layout(location = 0) in vec3 in_world_pos[];

bool faces_light(vec3 a, vec3 b, vec3 c)
{
	vec3 n = cross(b - a, c - a);
	return dot(n, sil.light_pos - a) > 0.0;
}

void emit_edge(vec3 a, vec3 b)
{
	vec3 side = normalize(cross(b - a, sil.light_pos - a)) * sil.width;
	gl_Position = sil.view_proj * vec4(a - side, 1.0);
	EmitVertex();
	gl_Position = sil.view_proj * vec4(a + side, 1.0);
	EmitVertex();
	gl_Position = sil.view_proj * vec4(b - side, 1.0);
	EmitVertex();
	gl_Position = sil.view_proj * vec4(b + side, 1.0);
	EmitVertex();
	EndPrimitive();
}

void main()
{
	vec3 v0 = in_world_pos[0], v1 = in_world_pos[1], v2 = in_world_pos[2];
	vec3 v3 = in_world_pos[3], v4 = in_world_pos[4], v5 = in_world_pos[5];
	if (!faces_light(v0, v2, v4))
		return;
	if (!faces_light(v0, v1, v2))
		emit_edge(v0, v2);
	if (!faces_light(v2, v3, v4))
		emit_edge(v2, v4);
	if (!faces_light(v4, v5, v0))
		emit_edge(v4, v0);
}
