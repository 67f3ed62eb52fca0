#version 120
/* texture2D() in a comment stays; "texture" is a name in 1.20 */
uniform sampler2D texture;
uniform sampler2DShadow shadowMap;
varying vec4 shadowCoord;

void main()
{
	vec4 base = texture2D(texture, gl_TexCoord[0].st) * gl_Color;
	float lit = shadow2DProj(shadowMap, shadowCoord).r;
	vec4 mytexture2D = vec4(gl_FogFragCoord);
	gl_FragColor = mix(base * lit, gl_Fog.color, clamp(mytexture2D.x * gl_Fog.scale, 0.0, 1.0));
}
