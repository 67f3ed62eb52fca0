#version 450
// A vector times a matrix, v * M = transpose(M) * v, in Mesa's vtn form:
// every row of M gathered from its columns (vtn_ssa_transpose), then an
// fmul of the last row and an ffma of each earlier one — not a dot of v
// with each column.  With vec4(q, 1.0) the last row is added as it is.
// M row-major in the block: its columns load element by element.
layout(binding = 0) uniform U { mat4 m; layout(row_major) mat3x4 r; };
layout(location = 0) in vec4 p;
layout(location = 1) in vec3 q;
layout(location = 0) out vec4 a;
layout(location = 1) out vec3 b;

void main()
{
	a = p * m;
	b = vec4(q, 1.0) * r;
	gl_Position = p;
}
