#version 450
// A transposed matrix is the original read by rows (Mesa's lazily
// transposed vtn_ssa_value): transpose(m) * p is a dot of each column of
// m with p, p * transpose(m) is m * p by columns, and
// transpose(m) * transpose(n) is transpose(n * m).  (A transpose stored in
// a local and loaded back is a matrix like any other, as in Mesa.)
layout(binding = 0) uniform U { mat4 m; mat4 n; };
layout(location = 0) in vec4 p;
layout(location = 0) out vec4 a;
layout(location = 1) out vec4 b;
layout(location = 2) out vec4 c;

void main()
{
	a = transpose(m) * p;
	b = p * transpose(m);
	c = (transpose(m) * transpose(n)) * p;
	gl_Position = p;
}
