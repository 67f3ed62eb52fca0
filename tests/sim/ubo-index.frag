#version 450
// A UBO element far past the end of its array: undefined (an index out of
// the array's bounds; the load's range says so to the interpreter).  Where
// the array is not pushed to the const file, a3xx-a5xx would read it with
// ldg at a raw 32-bit address that no bounds check guards (wrapping into the
// memory before the buffer) and ldc's descriptor would give 0.
layout(binding = 0) uniform A { vec4 a[4]; };
layout(binding = 1) uniform B { vec4 b[4]; };
layout(location = 0) flat in uint i;
layout(location = 0) out vec4 color;
void main()
{
	color = a[i & 3u] + b[(i & 3u) - 0x10000u];
}
