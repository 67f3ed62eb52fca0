#version 450
// Single-pass wireframe: each vertex gets its distance to the opposite edge in
// pixels, so the fragment shader can draw anti-aliased edges.

layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;

layout(push_constant) uniform Viewport {
	vec2 size;
} vp;

layout(location = 0) noperspective out vec3 out_edge_dist;

void main()
{
	vec2 p[3];
	for (int i = 0; i < 3; i++)
		p[i] = gl_in[i].gl_Position.xy / gl_in[i].gl_Position.w * vp.size * 0.5;
	vec2 e0 = p[2] - p[1], e1 = p[2] - p[0], e2 = p[1] - p[0];
	float area = abs(e1.x * e2.y - e1.y * e2.x);
	vec3 heights = vec3(area / length(e0), area / length(e1), area / length(e2));

	for (int i = 0; i < 3; i++) {
		vec3 d = vec3(0.0);
		d[i] = heights[i];
		out_edge_dist = d;
		gl_Position = gl_in[i].gl_Position;
		EmitVertex();
	}
	EndPrimitive();
}
