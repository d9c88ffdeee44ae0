// The body of subgroup_ops.comp and subgroup_elementwise.comp. Subgroup-scope coopmat2 operations on
// one N x N tile (16 unless specialized; HALF = N / 2), selected by OP: per-element op with an
// extra matrix, row/column/2x2/all reductions
// (only where WITH_REDUCTIONS is 1), accumulator -> A/B conversion, transpose, a change of use alone.
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 8, local_size_x_id = 90) in;  // one subgroup: the harness sets constant 90 to its size
layout(constant_id = 0) const uint OP = 0;
layout(constant_id = 1) const uint N = 16;
layout(constant_id = 2) const uint HALF = 8;

layout(std430, set = 0, binding = 0) buffer Data { float data[]; };
layout(std430, set = 0, binding = 1) buffer Out { float result[]; };

#define ACC coopmat<float, gl_ScopeSubgroup, N, N, gl_MatrixUseAccumulator>

float scale(const in uint row, const in uint col, const in float x, const in float y) { return x * y + float(row * N + col); }
float add(const in float a, const in float b) { return a + b; }
float maximum(const in float a, const in float b) { return max(a, b); }

void main() {
    ACC m;
    coopMatLoad(m, data, 0, N, gl_CooperativeMatrixLayoutRowMajor);
    ACC other;
    coopMatLoad(other, data, N * N, N, gl_CooperativeMatrixLayoutRowMajor);
    if (OP == 0) {
        ACC r;
        coopMatPerElementNV(r, m, scale, other);
        coopMatStore(r, result, 0, N, gl_CooperativeMatrixLayoutRowMajor);
#if WITH_REDUCTIONS
    } else if (OP == 1) {
        coopmat<float, gl_ScopeSubgroup, N, 8, gl_MatrixUseAccumulator> r;
        coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowNV, add);
        coopMatStore(r, result, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
    } else if (OP == 2) {
        ACC r;
        coopMatReduceNV(r, m, gl_CooperativeMatrixReduceColumnNV, maximum);
        coopMatStore(r, result, 0, N, gl_CooperativeMatrixLayoutRowMajor);
    } else if (OP == 3) {
        coopmat<float, gl_ScopeSubgroup, HALF, HALF, gl_MatrixUseAccumulator> r;
        coopMatReduceNV(r, m, gl_CooperativeMatrixReduce2x2NV, add);
        coopMatStore(r, result, 0, HALF, gl_CooperativeMatrixLayoutRowMajor);
    } else if (OP == 4) {
        ACC r;
        coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowAndColumnNV, add);
        coopMatStore(r, result, 0, N, gl_CooperativeMatrixLayoutRowMajor);
#endif
    } else if (OP == 5) {
        coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseA> a = coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseA>(m);
        coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseB> b;
        coopMatTransposeNV(b, other);
        ACC r = coopMatMulAdd(a, b, ACC(0.0));
        coopMatStore(r, result, 0, N, gl_CooperativeMatrixLayoutRowMajor);
    } else if (OP == 6) {
        // float16 accumulators to A and B: a change of use alone (OpCooperativeMatrixConvertNV).
        coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseAccumulator> hm = coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseAccumulator>(m);
        coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseAccumulator> ho = coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseAccumulator>(other);
        coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseA> a = coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseA>(hm);
        coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseB> b = coopmat<float16_t, gl_ScopeSubgroup, N, N, gl_MatrixUseB>(ho);
        ACC r = coopMatMulAdd(a, b, ACC(0.0));
        coopMatStore(r, result, 0, N, gl_CooperativeMatrixLayoutRowMajor);
    }
}
