#version 450
// Function variables before lower_vars_to_ssa (locals.passes: none): an
// array of structs indexed at run time, a matrix column, a vector
// component written by a dynamic index, a constant table.
struct S { vec3 a; float b[2]; };
layout(location = 0) flat in int i;
layout(location = 0) out vec4 o;
const float table[4] = float[](1.0, 2.0, 4.0, 8.0);

void main()
{
	S s[3];
	s[i].a = vec3(1.0);
	s[i].b[1] = 2.0;
	mat2 m = mat2(1.0);
	m[1] = vec2(s[2].b[1]);
	vec4 v = vec4(0.0);
	v[i] = table[i];
	o = v + vec4(m[i], s[0].a.xy);
}
