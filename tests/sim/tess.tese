#version 450
// A TES through memory: per-vertex and patch inputs and the tessellation
// levels from the tess param and factor buffers, each lane its patch.
layout(quads) in;
layout(location = 0) in vec4 p[];
layout(location = 1) in vec2 uv[];
layout(location = 2) patch in vec4 c;
layout(location = 0) out vec4 o;
layout(location = 1) out vec2 t;
void main()
{
	vec2 k = gl_TessCoord.xy;
	vec4 a = mix(p[0], p[1], k.x), b = mix(p[3], p[2], k.x);
	o = mix(a, b, k.y) + c * gl_TessLevelOuter[3] + gl_TessLevelInner[1];
	t = uv[gl_PrimitiveID & 3] + gl_TessCoord.z;
	gl_Position = o;
}
