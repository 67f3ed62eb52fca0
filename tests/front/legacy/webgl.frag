#version 100
#extension GL_OES_standard_derivatives : enable
#ifdef GL_ES
precision mediump float;
#endif
#define SAMPLE(uv) texture2D(tex, uv)
uniform sampler2D tex;
uniform samplerCube env;
varying vec2 uv;

mat2 transpose(mat2 m)
{
	return mat2(m[0][0], m[1][0], m[0][1], m[1][1]);
}

void main()
{
	vec2 d = transpose(mat2(1.0)) * vec2(dFdx(uv.x), dFdy(uv.y));
	gl_FragData[0] = SAMPLE(uv + d);
	gl_FragData[1] = textureCube(env, vec3(uv, 1.0));
}
