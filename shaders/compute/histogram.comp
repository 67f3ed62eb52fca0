#version 450
// A 256-bin luminance histogram of an image: bins in shared memory updated
// with atomics, then merged into the global histogram once per workgroup.

layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0, rgba16f) uniform readonly image2D hdr;
layout(std430, set = 0, binding = 1) buffer Histogram {
	uint bins[256];
};
layout(push_constant) uniform Range {
	float min_log_lum;
	float inv_log_range;
} range;

shared uint local_bins[256];

void main()
{
	uint idx = gl_LocalInvocationIndex;
	local_bins[idx] = 0u;
	barrier();

	ivec2 size = imageSize(hdr);
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	if (all(lessThan(p, size))) {
		vec3 c = imageLoad(hdr, p).rgb;
		float lum = dot(c, vec3(0.2126, 0.7152, 0.0722));
		uint bin = 0u;
		if (lum > 1e-4) {
			float t = clamp((log2(lum) - range.min_log_lum) * range.inv_log_range, 0.0, 1.0);
			bin = uint(t * 254.0 + 1.0);
		}
		atomicAdd(local_bins[bin], 1u);
	}
	barrier();

	if (local_bins[idx] != 0u)
		atomicAdd(bins[idx], local_bins[idx]);
}
