#version 130
// RetroArch GLSL with #ifdef blocks and a mask the parameters shape
#pragma parameter MASK "Mask strength" 0.3 0.0 1.0 0.05
#pragma parameter CURVE "Curvature" 0.1 0.0 0.5 0.01

#ifdef VERTEX
in vec4 VertexCoord;
in vec4 TexCoord;
out vec2 uv;
uniform mat4 MVPMatrix;
void main()
{
	gl_Position = MVPMatrix * VertexCoord;
	uv = TexCoord.xy;
}
#endif

#ifdef FRAGMENT
in vec2 uv;
out vec4 FragColor;
uniform sampler2D Texture;
uniform vec2 OutputSize;
#ifdef PARAMETER_UNIFORM
uniform float MASK;
uniform float CURVE;
#else
#define MASK 0.3
#define CURVE 0.1
#endif
void main()
{
	vec2 p = uv * 2.0 - 1.0;
	p *= 1.0 + CURVE * dot(p, p);
	vec2 q = p * 0.5 + 0.5;
	if (any(lessThan(q, vec2(0.0))) || any(greaterThan(q, vec2(1.0)))) {
		FragColor = vec4(0.0);
		return;
	}
	float m = mod(floor(gl_FragCoord.x), 3.0) == 0.0 ? 1.0 : 1.0 - MASK;
	FragColor = texture(Texture, q) * m;
}
#endif
