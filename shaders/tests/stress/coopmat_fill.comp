#version 460
// The concurrency stress test's emulated module: fills a kRows x 16 accumulator with kValue and stores
// it. kRows shapes the matrix (the layer folds it into the lowered module), kValue does not.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint kRows = 16;
layout(constant_id = 1) const float kValue = 1.0;

layout(std430, set = 0, binding = 0) buffer Out { float c[]; };

void main() {
    coopmat<float, gl_ScopeSubgroup, kRows, 16, gl_MatrixUseAccumulator> m =
        coopmat<float, gl_ScopeSubgroup, kRows, 16, gl_MatrixUseAccumulator>(kValue);
    coopMatStore(m, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
}
