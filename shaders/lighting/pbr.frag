#version 450
// Metallic-roughness PBR: Cook-Torrance with the GGX distribution, Smith's
// height-correlated visibility and Schlick's Fresnel, over four point lights,
// plus an image-based ambient term from a prefiltered cube map.

layout(set = 0, binding = 0) uniform Lights {
	vec4 position[4];	// xyz, w: radius
	vec4 color[4];		// rgb, a: intensity
	vec3 eye;
	int count;
} lights;

layout(set = 1, binding = 0) uniform sampler2D base_color_map;
layout(set = 1, binding = 1) uniform sampler2D metal_rough_map;	// b: metal, g: rough
layout(set = 1, binding = 2) uniform samplerCube prefiltered;
layout(set = 1, binding = 3) uniform sampler2D brdf_lut;

layout(location = 0) in vec3 in_world_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec4 out_color;

const float PI = 3.14159265;

float d_ggx(float ndh, float a)
{
	float a2 = a * a;
	float d = ndh * ndh * (a2 - 1.0) + 1.0;
	return a2 / (PI * d * d);
}

float v_smith(float ndv, float ndl, float a)
{
	float a2 = a * a;
	float gv = ndl * sqrt(ndv * ndv * (1.0 - a2) + a2);
	float gl = ndv * sqrt(ndl * ndl * (1.0 - a2) + a2);
	return 0.5 / max(gv + gl, 1e-5);
}

vec3 f_schlick(float vdh, vec3 f0)
{
	return f0 + (1.0 - f0) * pow(1.0 - vdh, 5.0);
}

void main()
{
	vec4 base = texture(base_color_map, in_uv);
	vec2 mr = texture(metal_rough_map, in_uv).bg;
	float metal = mr.x;
	float rough = clamp(mr.y, 0.04, 1.0);
	float a = rough * rough;

	vec3 n = normalize(in_normal);
	vec3 v = normalize(lights.eye - in_world_pos);
	float ndv = max(dot(n, v), 1e-4);
	vec3 f0 = mix(vec3(0.04), base.rgb, metal);
	vec3 diffuse_color = base.rgb * (1.0 - metal);

	vec3 lo = vec3(0.0);
	for (int i = 0; i < lights.count && i < 4; i++) {
		vec3 to_light = lights.position[i].xyz - in_world_pos;
		float dist = length(to_light);
		vec3 l = to_light / dist;
		vec3 h = normalize(l + v);
		float ndl = max(dot(n, l), 0.0);
		if (ndl <= 0.0)
			continue;
		float ndh = max(dot(n, h), 0.0);
		float vdh = max(dot(v, h), 0.0);

		float falloff = clamp(1.0 - pow(dist / lights.position[i].w, 4.0), 0.0, 1.0);
		vec3 radiance = lights.color[i].rgb * lights.color[i].a * falloff * falloff /
				(dist * dist + 1.0);

		vec3 f = f_schlick(vdh, f0);
		vec3 spec = d_ggx(ndh, a) * v_smith(ndv, ndl, a) * f;
		vec3 kd = (1.0 - f) * diffuse_color / PI;
		lo += (kd + spec) * radiance * ndl;
	}

	vec3 r = reflect(-v, n);
	float lod = rough * float(textureQueryLevels(prefiltered) - 1);
	vec3 env = textureLod(prefiltered, r, lod).rgb;
	vec2 ab = texture(brdf_lut, vec2(ndv, rough)).rg;
	vec3 ambient = env * (f0 * ab.x + ab.y) + diffuse_color * 0.03;

	out_color = vec4(lo + ambient, base.a);
}
