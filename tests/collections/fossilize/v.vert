#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_unused;
layout(set = 0, binding = 0) uniform U { mat4 mvp; };
void main() { gl_Position = mvp * pos; v_uv = uv; v_unused = pos; }
