#version 450
// Bicubic Bezier evaluation with Bernstein weights and their derivatives for
// the tangent frame.

layout(quads, fractional_even_spacing, ccw) in;

layout(set = 0, binding = 0) uniform Camera {
	mat4 mvp;
} cam;

layout(location = 0) in vec3 in_cp[];
layout(location = 0) out vec3 out_normal;

void bernstein(float t, out vec4 b, out vec4 db)
{
	float s = 1.0 - t;
	b = vec4(s * s * s, 3.0 * s * s * t, 3.0 * s * t * t, t * t * t);
	db = vec4(-3.0 * s * s, 3.0 * s * s - 6.0 * s * t, 6.0 * s * t - 3.0 * t * t, 3.0 * t * t);
}

void main()
{
	vec4 bu, dbu, bv, dbv;
	bernstein(gl_TessCoord.x, bu, dbu);
	bernstein(gl_TessCoord.y, bv, dbv);

	vec3 p = vec3(0.0), du = vec3(0.0), dv = vec3(0.0);
	for (int j = 0; j < 4; j++) {
		for (int i = 0; i < 4; i++) {
			vec3 cp = in_cp[j * 4 + i];
			p += bu[i] * bv[j] * cp;
			du += dbu[i] * bv[j] * cp;
			dv += bu[i] * dbv[j] * cp;
		}
	}
	out_normal = normalize(cross(du, dv));
	gl_Position = cam.mvp * vec4(p, 1.0);
}
