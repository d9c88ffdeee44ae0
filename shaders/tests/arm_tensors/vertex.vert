#version 460
// A vertex shader reading its positions from a tensor of shape [vertices, 4] as arrays of four.
#extension GL_ARM_tensors : require

layout(set = 0, binding = 0) uniform tensorARM<float, 2> positions;
layout(location = 0) flat out uint vertex_out;

void main() {
    float p[4];
    tensorReadARM(positions, uint[](gl_VertexIndex, 0), p);
    gl_Position = vec4(p[0], p[1], p[2], p[3]);
    vertex_out = gl_VertexIndex;
}
