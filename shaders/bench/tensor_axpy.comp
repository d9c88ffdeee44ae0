#version 460
// z = 2 x + y over 1-D float tensors (vkpolyfill_tensor_bench; buffer_axpy.comp is its twin over
// storage buffers). Two-dimensional dispatches: rows of 1024 workgroups.
#extension GL_ARM_tensors : require

layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 1> x;
layout(set = 0, binding = 1) uniform tensorARM<float, 1> y;
layout(set = 0, binding = 2) uniform tensorARM<float, 1> z;

void main() {
    const uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64;
    float a, b;
    tensorReadARM(x, uint[](i), a);
    tensorReadARM(y, uint[](i), b);
    tensorWriteARM(z, uint[](i), 2.0 * a + b);
}
