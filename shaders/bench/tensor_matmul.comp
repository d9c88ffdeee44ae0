#version 460
// C = A B for square float tensors, one element of C per invocation (vkpolyfill_tensor_bench;
// buffer_matmul.comp is its twin over storage buffers).
#extension GL_ARM_tensors : require

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 2> a;
layout(set = 0, binding = 1) uniform tensorARM<float, 2> b;
layout(set = 0, binding = 2) uniform tensorARM<float, 2> c;

void main() {
    const uint row = gl_GlobalInvocationID.y, column = gl_GlobalInvocationID.x;
    const uint n = tensorSizeARM(a, 1);
    float sum = 0.0;
    for (uint k = 0; k < n; ++k) {
        float left, right;
        tensorReadARM(a, uint[](row, k), left);
        tensorReadARM(b, uint[](k, column), right);
        sum += left * right;
    }
    tensorWriteARM(c, uint[](row, column), sum);
}
