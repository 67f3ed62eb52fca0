#version 450
// Classic Phong: ambient + Lambert diffuse + reflected-vector specular, one
// point light with distance attenuation.

layout(set = 0, binding = 0) uniform Light {
	vec4 position;		// w unused
	vec4 color;		// rgb, a: intensity
	vec4 attenuation;	// constant, linear, quadratic
	vec3 eye;
} light;

layout(set = 1, binding = 0) uniform Material {
	vec4 ambient;
	vec4 diffuse;
	vec4 specular;		// rgb, a: shininess
} mat;

layout(location = 0) in vec3 in_world_pos;
layout(location = 1) in vec3 in_normal;

layout(location = 0) out vec4 out_color;

void main()
{
	vec3 n = normalize(in_normal);
	vec3 to_light = light.position.xyz - in_world_pos;
	float dist = length(to_light);
	vec3 l = to_light / dist;
	vec3 v = normalize(light.eye - in_world_pos);
	vec3 r = reflect(-l, n);

	float att = 1.0 / (light.attenuation.x + light.attenuation.y * dist +
			   light.attenuation.z * dist * dist);
	float diff = max(dot(n, l), 0.0);
	float spec = diff > 0.0 ? pow(max(dot(r, v), 0.0), mat.specular.a) : 0.0;

	vec3 radiance = light.color.rgb * light.color.a * att;
	vec3 c = mat.ambient.rgb + radiance * (mat.diffuse.rgb * diff + mat.specular.rgb * spec);
	out_color = vec4(c, mat.diffuse.a);
}
