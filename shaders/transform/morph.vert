#version 450
// Morph targets: up to eight position deltas blended by weights, deltas laid
// out target-major in one storage buffer.

layout(set = 0, binding = 0) uniform Morph {
	mat4 mvp;
	vec4 weights[2];	// eight weights
	uint vertex_count;
	uint target_count;
} morph;

layout(std430, set = 0, binding = 1) readonly buffer Deltas {
	vec4 delta[];
} deltas;

layout(location = 0) in vec3 in_position;

layout(location = 0) out vec3 out_offset;

void main()
{
	vec3 offset = vec3(0.0);
	uint n = min(morph.target_count, 8u);
	for (uint t = 0u; t < n; t++) {
		float w = morph.weights[t / 4u][t % 4u];
		if (w == 0.0)
			continue;
		offset += w * deltas.delta[t * morph.vertex_count + uint(gl_VertexIndex)].xyz;
	}
	out_offset = offset;
	gl_Position = morph.mvp * vec4(in_position + offset, 1.0);
}
