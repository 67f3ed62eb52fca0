#version 450
// A UBO element far past the end: a3xx-a5xx read it with ldg at a raw
// 32-bit address, which no bounds check guards (here it wraps around into
// the memory before the buffer), so the read is undefined there; ldc's
// descriptor gives 0.
layout(binding = 0) uniform A { vec4 a[4]; };
layout(binding = 1) uniform B { vec4 b[4]; };
layout(location = 0) flat in uint i;
layout(location = 0) out vec4 color;
void main()
{
	color = a[i & 3u] + b[(i & 3u) - 0x10000u];
}
