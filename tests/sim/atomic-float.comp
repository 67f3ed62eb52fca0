#version 450
#extension GL_EXT_shader_atomic_float : require
// Float atomics are typed f32 (atomic.b.add of floats adds floats).
layout(local_size_x = 4) in;
layout(binding = 0) buffer B { float sum; float v[4]; };
void main()
{
	atomicAdd(sum, v[gl_LocalInvocationID.x]);
}
