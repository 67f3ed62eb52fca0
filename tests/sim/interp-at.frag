#version 450
// Interpolation at offsets and samples: the machine rounds the barycentrics
// it computes (ij + offset * d(ij)) to 32 bits, so a sum of many such terms
// drifts from the exact value; it must compute what the lowered shader says
// (lower_ir3_interp).
layout(location = 0) in vec4 a;
layout(location = 1) in vec4 b;
layout(location = 2) in vec4 c;
layout(location = 3) noperspective in vec4 d;
layout(location = 0) out vec4 o;
void main()
{
	vec2 off = vec2(0.3, -0.2);
	o = a + interpolateAtCentroid(a) - interpolateAtSample(a, 2) + interpolateAtOffset(a, off)
	  - b - interpolateAtCentroid(b) + interpolateAtSample(b, 1) - interpolateAtOffset(b, off.yx)
	  + c - interpolateAtSample(c, 3) + interpolateAtOffset(c, -off) - interpolateAtOffset(c, off)
	  + d - interpolateAtSample(d, 0) + interpolateAtOffset(d, off) - interpolateAtOffset(d, a.xy);
}
