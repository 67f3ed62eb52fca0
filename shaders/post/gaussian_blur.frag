#version 450
// Separable Gaussian blur, one direction per pass, with linear sampling that
// reads two texels per tap (9 taps for a 17-texel kernel).

layout(set = 0, binding = 0) uniform sampler2D src;
layout(push_constant) uniform Blur {
	vec2 direction;		// (1/w, 0) or (0, 1/h)
} blur;

layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;

const float weights[5] = float[](0.1964825502, 0.2969069647, 0.0944703979, 0.0103813624,
				 0.0002258138);
const float offsets[5] = float[](0.0, 1.4117647059, 3.2941176471, 5.1764705882,
				 7.0588235294);

void main()
{
	vec4 sum = texture(src, in_uv) * weights[0];
	for (int i = 1; i < 5; i++) {
		vec2 o = blur.direction * offsets[i];
		sum += (texture(src, in_uv + o) + texture(src, in_uv - o)) * weights[i];
	}
	out_color = sum;
}
