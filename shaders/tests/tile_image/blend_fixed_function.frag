#version 450
// The same scene blended by fixed-function blending (the pipeline does source-over).
layout(location = 1) flat in vec4 color;
layout(location = 0) out vec4 result;

void main() { result = color; }
