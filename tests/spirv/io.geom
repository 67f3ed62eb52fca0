#version 450
// Geometry stage I/O: per-vertex inputs through gl_in and a block, clip
// distances, a block output, the layer.
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 3) out;

layout(location = 0) in VS { vec2 uv; vec3 normal; } vs[];
layout(location = 0) out GS { vec2 uv; flat int face; } gs;
out gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[2]; };

void main()
{
	for (int i = 0; i < 3; i++) {
		gl_Position = gl_in[i].gl_Position;
		gl_ClipDistance[0] = gl_in[i].gl_Position.z;
		gl_ClipDistance[1] = dot(vs[i].normal, vec3(1.0));
		gs.uv = vs[i].uv;
		gs.face = gl_PrimitiveIDIn;
		gl_Layer = gl_InvocationID;
		EmitVertex();
	}
	EndPrimitive();
}
