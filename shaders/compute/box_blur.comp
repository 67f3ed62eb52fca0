#version 450
// A box blur on storage images: the workgroup loads its tile plus a border
// into shared memory once, then every invocation averages its window.

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;

const int R = 3;
const int TILE = 8 + 2 * R;

shared vec4 cache[TILE][TILE];

void main()
{
	ivec2 size = imageSize(src);
	ivec2 origin = ivec2(gl_WorkGroupID.xy) * 8 - R;
	for (uint i = gl_LocalInvocationIndex; i < uint(TILE * TILE); i += 64u) {
		ivec2 t = ivec2(int(i) % TILE, int(i) / TILE);
		cache[t.y][t.x] = imageLoad(src, clamp(origin + t, ivec2(0), size - 1));
	}
	barrier();

	ivec2 l = ivec2(gl_LocalInvocationID.xy) + R;
	vec4 sum = vec4(0.0);
	for (int y = -R; y <= R; y++)
		for (int x = -R; x <= R; x++)
			sum += cache[l.y + y][l.x + x];
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	if (all(lessThan(p, size)))
		imageStore(dst, p, sum / float((2 * R + 1) * (2 * R + 1)));
}
