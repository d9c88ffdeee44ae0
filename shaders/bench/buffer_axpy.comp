#version 460
// z = 2 x + y over storage buffers, bounds-checked like a tensor access (vkpolyfill_tensor_bench).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Y { float y[]; };
layout(set = 0, binding = 2) writeonly buffer Z { float z[]; };

void main() {
    const uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64;
    if (i < z.length()) z[i] = 2.0 * (i < x.length() ? x[i] : 0.0) + (i < y.length() ? y[i] : 0.0);
}
