#version 460
#extension GL_EXT_ray_tracing : require
// Closest hit: the incoming payload and hit attributes in global memory,
// the ray's state, the shader record.
layout(location = 0) rayPayloadInEXT vec3 color;
hitAttributeEXT vec2 bary;
layout(shaderRecordEXT, std430) buffer Record { vec4 tint; };

void main()
{
	vec3 b = vec3(1.0 - bary.x - bary.y, bary);
	color = b * tint.rgb * gl_HitTEXT + gl_WorldRayDirectionEXT * float(gl_InstanceCustomIndexEXT);
}
