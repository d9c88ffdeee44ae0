// target-env: vulkan1.3
#version 460
// Workgroup-scope matrices (SPV_NV_cooperative_matrix2) over 4 subgroups: OP 0 is a GEMM tile
// (C = Q x K, 32x16 by 16x32); OP 1 an attention block: S = Q x K, the row maxima by a reduction,
// P = exp(S - max) by a per-element operation, P converted to an f16 A, O = P x V.
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint OP = 0;

layout(std430, set = 0, binding = 0) readonly buffer Query { float16_t q[]; };  // 32x16, row-major
layout(std430, set = 0, binding = 1) readonly buffer Key { float16_t k[]; };    // 16x32, row-major
layout(std430, set = 0, binding = 2) readonly buffer Value { float16_t v[]; };  // 32x16, row-major
layout(std430, set = 0, binding = 3) writeonly buffer Out { float o[]; };

#define SCORES coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator>

float maximum(const in float a, const in float b) { return max(a, b); }
float softmax_numerator(const in uint row, const in uint col, const in float s, const in float row_max) { return exp(s - row_max); }

void main() {
    coopmat<float16_t, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseA> mq;
    coopmat<float16_t, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB> mk;
    coopMatLoad(mq, q, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mk, k, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
    SCORES s = coopMatMulAdd(mq, mk, SCORES(0.0));
    if (OP == 0) {
        coopMatStore(s, o, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
        return;
    }
    SCORES row_max;
    coopMatReduceNV(row_max, s, gl_CooperativeMatrixReduceRowNV, maximum);
    SCORES p;
    coopMatPerElementNV(p, s, softmax_numerator, row_max);
    coopmat<float16_t, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseA> p16 = coopmat<float16_t, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseA>(p);
    coopmat<float16_t, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseB> mv;
    coopMatLoad(mv, v, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopmat<float, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseAccumulator> out_tile =
        coopMatMulAdd(p16, mv, coopmat<float, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseAccumulator>(0.0));
    coopMatStore(out_tile, o, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
}
