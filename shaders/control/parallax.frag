#version 450
// Parallax occlusion mapping: a linear search through height layers (layer
// count from the view angle) refined by interpolating the last two steps.

layout(set = 0, binding = 0) uniform sampler2D height_map;
layout(set = 0, binding = 1) uniform sampler2D color_map;
layout(push_constant) uniform Pom {
	float depth_scale;
	float min_layers;
	float max_layers;
} pom;

layout(location = 0) in vec2 in_uv;
layout(location = 1) in vec3 in_view_ts;	// view vector in tangent space

layout(location = 0) out vec4 out_color;

void main()
{
	vec3 v = normalize(in_view_ts);
	float layers = mix(pom.max_layers, pom.min_layers, abs(v.z));
	float layer_depth = 1.0 / layers;
	vec2 delta = v.xy / max(v.z, 0.05) * pom.depth_scale / layers;

	vec2 uv = in_uv;
	float depth = 0.0;
	float h = 1.0 - textureLod(height_map, uv, 0.0).r;
	while (depth < h && depth < 1.0) {
		uv -= delta;
		depth += layer_depth;
		h = 1.0 - textureLod(height_map, uv, 0.0).r;
	}
	vec2 prev = uv + delta;
	float after = h - depth;
	float before = (1.0 - textureLod(height_map, prev, 0.0).r) - depth + layer_depth;
	float w = after / (after - before);
	uv = mix(uv, prev, w);

	out_color = texture(color_map, uv);
}
