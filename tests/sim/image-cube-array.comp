#version 450
// A cube array image is addressed as faces, layer 6 × cube + face: the
// front end reads it as a 2D array, the model's layers count cubes.  The
// interpreter bounded the face index by the cube count (and sized the
// result by one face per layer, a write past it), the simulator did not.
layout(local_size_x = 4, local_size_y = 2) in;
layout(r32f, binding = 0) uniform readonly imageCubeArray src;
layout(r32f, binding = 1) uniform writeonly imageCubeArray dst;
layout(r32f, binding = 2) uniform image2DArray flat_layers;
layout(std430, binding = 0) buffer B { ivec4 size[3]; };
void main()
{
	ivec3 c = ivec3(gl_LocalInvocationID.xy, 11 - int(gl_LocalInvocationIndex));
	vec4 v = imageLoad(src, c);
	imageStore(dst, c, v);
	imageStore(flat_layers, c, v + 1.0);
	if (gl_LocalInvocationIndex == 0u) {
		size[0] = ivec4(imageSize(src), 0);
		size[1] = ivec4(imageSize(dst), 0);
		size[2] = ivec4(imageSize(flat_layers), 0);
	}
}
