#version 450
// Sampling: bias, explicit lod, gradients, offsets, depth compare,
// projection, fetch, gather (with offsets), queries, separate samplers.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow shadow;
layout(set = 0, binding = 2) uniform sampler2DArray arr;
layout(set = 0, binding = 3) uniform texture2D sep;
layout(set = 0, binding = 4) uniform sampler smp;
layout(set = 0, binding = 5) uniform samplerCube cube[4];
layout(location = 0) in vec4 uv;
layout(location = 1) flat in int which;
layout(location = 0) out vec4 o;

void main()
{
	vec4 c = texture(tex, uv.xy, 0.5);
	c += textureLod(tex, uv.xy, 2.0);
	c += textureGrad(tex, uv.xy, dFdx(uv.xy), dFdy(uv.xy));
	c += textureOffset(tex, uv.xy, ivec2(1, -1));
	c.x += texture(shadow, uv.xyz);
	c += textureProj(tex, uv.xyz);
	c += texelFetch(tex, ivec2(uv.xy), 0);
	c += textureGather(tex, uv.xy, 1);
	c += textureGatherOffsets(tex, uv.xy, ivec2[](ivec2(0), ivec2(1, 0), ivec2(0, 1), ivec2(1)));
	c += texture(arr, uv.xyz);
	c += texture(sampler2D(sep, smp), uv.zw);
	c += texture(cube[which], uv.xyz);
	c.xy += vec2(textureSize(tex, 1)) + vec2(textureQueryLevels(tex));
	c.zw += textureQueryLod(tex, uv.xy);
	o = c;
}
