#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// A demoted lane writes nothing, as a discarded one: on a3xx-a5xx, which
// have no demote, selection kills the lane instead.
layout(location = 0) in vec2 v;
layout(location = 0) out vec4 color;
void main()
{
	if (v.x > 0.5)
		demote;
	color = vec4(v, 1.0, 0.0);
}
