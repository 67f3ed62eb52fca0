#version 450
// Sphere tracing a signed distance field: a while loop with two exits, a
// normal from central differences, and soft shadows from a second march.

layout(push_constant) uniform Camera {
	vec3 origin;
	float time;
	vec3 forward;
	float fov;
	vec3 up;
	int steps;
} cam;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

float sd_box(vec3 p, vec3 b)
{
	vec3 q = abs(p) - b;
	return length(max(q, 0.0)) + min(max(q.x, max(q.y, q.z)), 0.0);
}

float scene(vec3 p)
{
	float ground = p.y + 1.0;
	float sphere = length(p - vec3(sin(cam.time), 0.0, 0.0)) - 0.7;
	float box = sd_box(p - vec3(-1.5, -0.5, 0.5), vec3(0.4));
	float k = 0.3;
	float h = clamp(0.5 + 0.5 * (box - sphere) / k, 0.0, 1.0);
	float blob = mix(box, sphere, h) - k * h * (1.0 - h);
	return min(ground, blob);
}

vec3 normal_at(vec3 p)
{
	const vec2 e = vec2(1e-3, 0.0);
	return normalize(vec3(scene(p + e.xyy) - scene(p - e.xyy),
			      scene(p + e.yxy) - scene(p - e.yxy),
			      scene(p + e.yyx) - scene(p - e.yyx)));
}

float soft_shadow(vec3 ro, vec3 rd)
{
	float res = 1.0, t = 0.02;
	for (int i = 0; i < 32 && t < 10.0; i++) {
		float h = scene(ro + rd * t);
		if (h < 1e-4)
			return 0.0;
		res = min(res, 8.0 * h / t);
		t += clamp(h, 0.01, 0.5);
	}
	return res;
}

void main()
{
	vec3 right = normalize(cross(cam.forward, cam.up));
	vec3 up = cross(right, cam.forward);
	vec2 ndc = in_uv * 2.0 - 1.0;
	vec3 rd = normalize(cam.forward + (ndc.x * right + ndc.y * up) * tan(cam.fov * 0.5));

	float t = 0.0;
	int i = 0;
	bool hit = false;
	while (i < cam.steps) {
		float d = scene(cam.origin + rd * t);
		if (d < 1e-3) {
			hit = true;
			break;
		}
		t += d;
		if (t > 50.0)
			break;
		i++;
	}
	if (!hit) {
		out_color = vec4(mix(vec3(0.6, 0.7, 0.9), vec3(0.2, 0.3, 0.6), ndc.y * 0.5 + 0.5), 1.0);
		return;
	}
	vec3 p = cam.origin + rd * t;
	vec3 n = normal_at(p);
	vec3 l = normalize(vec3(0.6, 0.8, 0.3));
	float diff = max(dot(n, l), 0.0) * soft_shadow(p + n * 1e-3, l);
	float ao = 1.0 - float(i) / float(cam.steps);
	out_color = vec4(vec3(0.9, 0.8, 0.7) * (0.15 * ao + diff), 1.0);
}
