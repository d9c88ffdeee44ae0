// target-env: vulkan1.3
#version 460
// Colours a pixel white, its green the vertex index the vertex shader passed (flat, provoking vertex).
layout(location = 0) flat in uint vertex_in;
layout(location = 0) out vec4 color;

void main() { color = vec4(1.0, float(vertex_in) / 255.0, 1.0, 1.0); }
