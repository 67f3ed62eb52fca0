#version 450
// Calls are inlined: a function returning from inside a loop, one that
// discards, a void function with an early return.
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;

float first_above(float t)
{
	for (int i = 0; i < 4; i++) {
		if (v[i] > t)
			return v[i];
	}
	return -1.0;
}

void check(float x)
{
	if (x < 0.0)
		discard;
}

void scale(inout vec4 c, float s)
{
	if (s == 0.0)
		return;
	c *= s;
}

void main()
{
	float f = first_above(0.5);
	check(f);
	vec4 c = v;
	scale(c, f);
	o = c;
}
