// Fixed-function state in a GLSL 1.10 vertex shader (no #version).
varying vec3 normal;
varying float fog;
uniform float scale;

void main()
{
	vec4 eye = gl_ModelViewMatrix * gl_Vertex;
	normal = normalize(gl_NormalMatrix * gl_Normal);
	vec3 light = normalize(gl_LightSource[0].position.xyz - eye.xyz);
	gl_FrontColor = gl_Color * gl_FrontMaterial.diffuse * max(dot(normal, light), 0.0);
	gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;
	gl_TexCoord[1] = gl_MultiTexCoord1 * scale;
	fog = gl_FogCoord;
	gl_FogFragCoord = abs(eye.z);
	gl_ClipVertex = eye;
	gl_Position = ftransform();
}
