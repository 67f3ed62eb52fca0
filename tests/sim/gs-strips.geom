#version 450
// Geometry shader emission (lower_ir3_gs: a fibre per output vertex):
// primitives cut by EndPrimitive, one that ends nothing (before the first
// vertex, twice in a row, at the end), vertices emitted under a condition
// on the inputs, two invocations.
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 5) out;

layout(location = 0) in vec4 vColor[];
layout(location = 1) flat in int vKind[];
layout(location = 0) out vec4 gColor;
layout(location = 1) flat out int gKind;

void main()
{
	EndPrimitive();
	for (int i = 0; i < 3; i++) {
		if (vKind[i] > 0) {
			gl_Position = gl_in[i].gl_Position + vec4(float(gl_InvocationID));
			gColor = vColor[i] * 2.0;
			gKind = vKind[i] + i;
			EmitVertex();
		}
	}
	EndPrimitive();
	EndPrimitive();
	gl_Position = vec4(float(gl_PrimitiveIDIn));
	gColor = vec4(0.5);
	gKind = gl_InvocationID;
	EmitVertex();
	EmitVertex();
	EndPrimitive();
}
