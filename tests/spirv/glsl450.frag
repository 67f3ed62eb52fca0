#version 450
// GLSL.std.450: the expanded ones (trigonometric inverses, hyperbolics,
// determinant, inverse, modf, frexp, refract, smoothstep) and packing.
layout(location = 0) in vec4 v;
layout(location = 1) in mat3 m;
layout(location = 0) out vec4 o;

void main()
{
	vec4 r = atan(v, v.wzyx) + asin(v) + acos(v) + tanh(v) + asinh(v);
	r.x += determinant(m) + inverse(m)[1][2];
	vec4 whole;
	r += modf(v, whole) + whole;
	ivec4 e;
	r += frexp(v, e) + vec4(e);
	r.xyz += refract(v.xyz, normalize(v.zyx), 0.9);
	r += smoothstep(vec4(0.1), vec4(0.9), v) + step(0.5, v);
	r.x += uintBitsToFloat(packHalf2x16(v.xy)) + unpackUnorm4x8(floatBitsToUint(v.z)).y;
	r.y += float(findMSB(int(v.w))) + float(bitCount(uint(v.x)));
	o = clamp(r, vec4(-1.0), vec4(1.0));
}
