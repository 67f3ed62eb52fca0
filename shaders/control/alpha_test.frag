#version 450
// Alpha-tested foliage with a hashed (stochastic) threshold in the distance
// and a plain cut-off up close; discard decides early or late.

layout(set = 0, binding = 0) uniform sampler2D leaves;
layout(push_constant) uniform Cutout {
	float cutoff;
	float hash_distance;
} cut;

layout(location = 0) in vec2 in_uv;
layout(location = 1) in vec3 in_object_pos;
layout(location = 2) in float in_distance;

layout(location = 0) out vec4 out_color;

float hash3(vec3 p)
{
	p = fract(p * vec3(443.897, 441.423, 437.195));
	p += dot(p, p.yzx + 19.19);
	return fract((p.x + p.y) * p.z);
}

void main()
{
	vec4 c = texture(leaves, in_uv);
	float threshold = in_distance > cut.hash_distance ? hash3(floor(in_object_pos * 512.0))
							 : cut.cutoff;
	if (c.a < threshold)
		discard;
	out_color = vec4(c.rgb, 1.0);
}
