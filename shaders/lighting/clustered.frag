#version 450
// Clustered forward shading: the fragment finds its cluster from screen
// position and view depth, then loops over that cluster's light list.

struct PointLight {
	vec4 pos_radius;
	vec4 color;
};

layout(std430, set = 0, binding = 0) readonly buffer AllLights {
	PointLight lights[];
};
layout(std430, set = 0, binding = 1) readonly buffer Clusters {
	uvec2 ranges[];		// offset, count into indices
};
layout(std430, set = 0, binding = 2) readonly buffer Indices {
	uint indices[];
};
layout(set = 0, binding = 3) uniform Grid {
	uvec3 dims;
	float near;
	vec2 tile_size;
	float far;
	float log_ratio;	// log(far / near)
} grid;

layout(location = 0) in vec3 in_world_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in float in_view_depth;

layout(location = 0) out vec4 out_color;

uint cluster_index()
{
	uvec2 tile = uvec2(gl_FragCoord.xy / grid.tile_size);
	float slice = log(in_view_depth / grid.near) / grid.log_ratio * float(grid.dims.z);
	uint z = uint(clamp(slice, 0.0, float(grid.dims.z - 1u)));
	tile = min(tile, grid.dims.xy - 1u);
	return tile.x + grid.dims.x * (tile.y + grid.dims.y * z);
}

void main()
{
	uvec2 range = ranges[cluster_index()];
	vec3 n = normalize(in_normal);
	vec3 sum = vec3(0.0);
	for (uint i = 0u; i < range.y; i++) {
		PointLight pl = lights[indices[range.x + i]];
		vec3 d = pl.pos_radius.xyz - in_world_pos;
		float dist2 = dot(d, d);
		float r2 = pl.pos_radius.w * pl.pos_radius.w;
		if (dist2 > r2)
			continue;
		float fade = 1.0 - dist2 / r2;
		sum += pl.color.rgb * max(dot(n, d * inversesqrt(dist2)), 0.0) * fade * fade;
	}
	out_color = vec4(sum, 1.0);
}
