#version 460
// C = A B for square row-major float matrices in storage buffers, one element of C per invocation,
// bounds-checked like a tensor access (vkpolyfill_tensor_bench).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Size { uint n; };

void main() {
    const uint row = gl_GlobalInvocationID.y, column = gl_GlobalInvocationID.x;
    float sum = 0.0;
    for (uint k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + column];
    if (row < n && column < n) c[row * n + column] = sum;
}
