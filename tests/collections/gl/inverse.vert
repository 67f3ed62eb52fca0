#version 140
uniform mat4 model;
in vec4 position;
void main() { gl_Position = inverse(model) * position; }
