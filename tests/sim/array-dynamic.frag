#version 450
// A local array indexed at run time: an ir3 array in registers (r<a0.x + n>
// after mova), written in a loop, at a dynamic index and in one arm of an
// if, read at dynamic and constant indices.
layout(location = 0) flat in uint idx;
layout(location = 1) in vec4 v;
layout(location = 0) out vec4 o;
void main()
{
	float a[8];
	vec2 b[3];
	for (int i = 0; i < 8; i++)
		a[i] = v.x * float(i);
	b[0] = v.xy; b[1] = v.zw; b[2] = v.yx;
	a[idx & 7u] = v.y;
	if (v.z > 0.25)
		b[(idx >> 1) % 3u] = vec2(a[(idx + 3u) & 7u], 2.0);
	o = vec4(a[idx & 7u] + a[2], a[(idx + 1u) & 7u], b[idx % 3u]);
}
