#version 110
#extension GL_ARB_texture_rectangle : enable
// rectangle and 1D forms through texture(); shadow rectangles have no bias
uniform sampler2DRect image;
uniform sampler2DRectShadow depth;
uniform sampler1D ramp;
varying vec2 coord;
void main()
{
	vec4 c = texture2DRect(image, coord) + texture2DRectProj(image, vec3(coord, 2.0));
	c *= shadow2DRect(depth, vec3(coord, 0.5)) + shadow2DRectProj(depth, vec4(coord, 0.5, 1.0));
	gl_FragColor = c * texture1D(ramp, c.x) * texture1DProj(ramp, vec2(c.y, 2.0));
}
