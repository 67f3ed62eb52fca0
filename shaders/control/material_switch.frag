#version 450
// A material id selects the shading path through a switch, with flat (per
// primitive) inputs: divergent branches inside one draw.

layout(set = 0, binding = 0) uniform sampler2D atlas;
layout(set = 0, binding = 1) uniform Palette {
	vec4 colors[16];
} pal;

layout(location = 0) flat in uint in_material;
layout(location = 1) in vec2 in_uv;
layout(location = 2) in vec3 in_normal;

layout(location = 0) out vec4 out_color;

void main()
{
	vec3 n = normalize(in_normal);
	vec4 c;
	switch (in_material & 3u) {
	case 0u:
		c = pal.colors[in_material >> 2 & 15u];
		break;
	case 1u:
		c = texture(atlas, in_uv);
		break;
	case 2u: {
		float checker = mod(floor(in_uv.x * 8.0) + floor(in_uv.y * 8.0), 2.0);
		c = vec4(vec3(0.2 + 0.6 * checker), 1.0);
		break;
	}
	default:
		c = vec4(n * 0.5 + 0.5, 1.0);
		break;
	}
	if (c.a < 0.5)
		discard;
	out_color = vec4(c.rgb * (0.4 + 0.6 * max(n.y, 0.0)), 1.0);
}
