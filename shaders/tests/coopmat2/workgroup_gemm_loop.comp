// target-env: vulkan1.3
#version 460
// A workgroup-scope accumulator summed over a loop of multiply-adds, as a GEMM's K loop sums it, over
// 4 subgroups: C += Q x K four times (Q 32x16, K 16x32, both loaded each step). OP 0 as it is; OP 1
// halves C by a per-element operation before each multiply-add; OP 2 sums a 32x16 C (K's first 16
// columns) and clamps it element by element afterwards; OP 3 multiplies Q by a B filled with 1.5
// instead of K (Q's row sums, as llama.cpp's flash attention sums P's rows by a B of ones). Out: C,
// row-major.
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint OP = 0;

layout(std430, set = 0, binding = 0) readonly buffer Query { float16_t q[]; };  // 32x16, row-major
layout(std430, set = 0, binding = 1) readonly buffer Key { float16_t k[]; };    // 16x32, row-major
layout(std430, set = 0, binding = 2) readonly buffer Value { float16_t v[]; };  // not used
layout(std430, set = 0, binding = 3) writeonly buffer Out { float o[]; };

const uint kSteps = 4;
const float kLimit = 3.0;

#define C_WIDE coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator>
#define C_NARROW coopmat<float, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseAccumulator>

float halve(const in uint row, const in uint col, const in float x) { return x * 0.5; }

void main() {
    coopmat<float16_t, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseA> mq;
    if (OP == 2) {
        coopmat<float16_t, gl_ScopeWorkgroup, 16, 16, gl_MatrixUseB> mk;
        C_NARROW c = C_NARROW(0.0);
        for (uint step = 0; step < kSteps; ++step) {
            coopMatLoad(mq, q, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
            coopMatLoad(mk, k, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
            c = coopMatMulAdd(mq, mk, c);
        }
        for (uint i = 0; i < c.length(); ++i) c[i] = min(c[i], kLimit);
        coopMatStore(c, o, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
        return;
    }
    coopmat<float16_t, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB> mk;
    const coopmat<float16_t, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB> filled = coopmat<float16_t, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB>(1.5);
    C_WIDE c = C_WIDE(0.0);
    for (uint step = 0; step < kSteps; ++step) {
        if (OP == 1) coopMatPerElementNV(c, c, halve);
        coopMatLoad(mq, q, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
        if (OP == 3) {
            c = coopMatMulAdd(mq, filled, c);
        } else {
            coopMatLoad(mk, k, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
            c = coopMatMulAdd(mq, mk, c);
        }
    }
    coopMatStore(c, o, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
}
