#version 450
// ddx/ddy are the machine's choice of coarse or fine (ir3's dsx/dsy are
// coarse, dsxpp.1/dsypp.1 fine); interpolateAtOffset moves the barycentrics
// by the offset times their derivatives.
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 a;
layout(location = 1) out vec4 b;
void main()
{
	a = vec4(dFdx(v.x), dFdy(v.y), dFdxCoarse(v.z), dFdyCoarse(v.w));
	b = vec4(dFdxFine(v.x), dFdyFine(v.y), fwidth(v.z),
		 interpolateAtOffset(v.w, vec2(0.25, -0.125)));
}
