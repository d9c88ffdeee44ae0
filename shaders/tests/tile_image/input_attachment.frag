#version 460
// A plain input-attachment read, for asking a driver without the layer whether its fragment shader
// objects can read input attachments in dynamic rendering (what lowered tile-image reads need).
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput color;
layout(location = 0) out vec4 out0;

void main() { out0 = subpassLoad(color); }
