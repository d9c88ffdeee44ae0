// target-env: vulkan1.3
#version 460
// attention_coopmat2.comp's math without cooperative matrices: one invocation per query row computes
// its scores against every key, their maximum, exp((s - max) / sqrt(D)), their sum, and O = P V / sum.
// Every invocation reads the same key and value at a time (uniform loads, which lavapipe turns into
// scalar loads), the way a tuned scalar kernel for a CPU-like device is written.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64) in;
layout(constant_id = 1) const uint L = 256;
layout(constant_id = 2) const uint D = 16;  // the head dimension

layout(std430, set = 0, binding = 0) readonly buffer Query { float16_t q[]; };
layout(std430, set = 0, binding = 1) readonly buffer Key { float16_t k[]; };
layout(std430, set = 0, binding = 2) readonly buffer Value { float16_t v[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Out { float o[]; };

void main() {
    const uint row = gl_GlobalInvocationID.x;
    float query[D];
    for (uint d = 0; d < D; ++d) query[d] = float(q[row * D + d]);
    float scores[L];
    float row_max = -1.0 / 0.0;
    for (uint j = 0; j < L; ++j) {
        float dot = 0.0;
        for (uint d = 0; d < D; ++d) dot += query[d] * float(k[j * D + d]);
        scores[j] = dot;
        row_max = max(row_max, dot);
    }
    float row_sum = 0.0;
    for (uint j = 0; j < L; ++j) {
        scores[j] = exp((scores[j] - row_max) * inversesqrt(float(D)));
        row_sum += scores[j];
    }
    float acc[D];
    for (uint d = 0; d < D; ++d) acc[d] = 0.0;
    for (uint j = 0; j < L; ++j) {
        for (uint d = 0; d < D; ++d) acc[d] += scores[j] * float(v[j * D + d]);
    }
    for (uint d = 0; d < D; ++d) o[row * D + d] = acc[d] / row_sum;
}
