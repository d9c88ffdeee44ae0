// target-env: vulkan1.3
#version 460
// Attention with subgroup-scope cooperative matrices (GL_NV_cooperative_matrix2), the way
// flash-attention kernels write it: a subgroup per workgroup takes 16 query rows and walks the keys
// in blocks of KB with an online softmax. Per block: S = Q K^T, the block's row maxima by a
// reduction, the running maxima by a per-element operation, P = exp((S - max) / sqrt(D)) by a
// per-element operation with the maxima as extra operand, the row sums of P by a reduction, the
// rescaling of the running sums and of O, P converted to an f16 A matrix, O += P V; at the end
// O / sum. Q (N x D), K and V (L x D) f16 row-major, O (N x D) f32. The head dimension D and the
// block KB are specialization constants (16 and 16 unless set), so one shader serves small and
// large matrices.
// attention_scalar.comp does the same math.
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x_id = 0) in;  // the subgroup size: one subgroup
layout(constant_id = 1) const uint L = 256;  // keys, a multiple of KB
layout(constant_id = 2) const uint D = 16;   // the head dimension, a multiple of 16
layout(constant_id = 3) const uint KB = 16;  // keys per block, a multiple of 16
const uint B = 16;                           // query rows

layout(std430, set = 0, binding = 0) readonly buffer Query { float16_t q[]; };
layout(std430, set = 0, binding = 1) readonly buffer Key { float16_t k[]; };
layout(std430, set = 0, binding = 2) readonly buffer Value { float16_t v[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Out { float o[]; };

#define BLOCK coopmat<float, gl_ScopeSubgroup, B, KB, gl_MatrixUseAccumulator>
#define OUT coopmat<float, gl_ScopeSubgroup, B, D, gl_MatrixUseAccumulator>

float maximum(const in float a, const in float b) { return max(a, b); }
float add(const in float a, const in float b) { return a + b; }
float larger(const in uint row, const in uint col, const in float a, const in float b) { return max(a, b); }
float scaled_exp(const in uint row, const in uint col, const in float s, const in float m) { return exp((s - m) * inversesqrt(float(D))); }
float times(const in uint row, const in uint col, const in float a, const in float b) { return a * b; }
float divide(const in uint row, const in uint col, const in float a, const in float b) { return a / b; }

void main() {
    const uint row0 = gl_WorkGroupID.x * B;
    coopmat<float16_t, gl_ScopeSubgroup, B, D, gl_MatrixUseA> mq;
    coopMatLoad(mq, q, row0 * D, D, gl_CooperativeMatrixLayoutRowMajor);
    BLOCK row_max = BLOCK(-1.0 / 0.0), row_sum = BLOCK(0.0);
    OUT acc = OUT(0.0);
    for (uint j0 = 0; j0 < L; j0 += KB) {
        coopmat<float16_t, gl_ScopeSubgroup, D, KB, gl_MatrixUseB> mk;  // K^T: K read column-major
        coopMatLoad(mk, k, j0 * D, D, gl_CooperativeMatrixLayoutColumnMajor);
        BLOCK s = coopMatMulAdd(mq, mk, BLOCK(0.0));
        BLOCK block_max, new_max, p, correction, block_sum;
        coopMatReduceNV(block_max, s, gl_CooperativeMatrixReduceRowNV, maximum);
        coopMatPerElementNV(new_max, row_max, larger, block_max);
        coopMatPerElementNV(p, s, scaled_exp, new_max);
        coopMatPerElementNV(correction, row_max, scaled_exp, new_max);  // exp((old - new) / sqrt(D))
        coopMatReduceNV(block_sum, p, gl_CooperativeMatrixReduceRowNV, add);
        coopMatPerElementNV(row_sum, row_sum, times, correction);
        row_sum = row_sum + block_sum;
        OUT correction_out;
        coopMatReduceNV(correction_out, correction, gl_CooperativeMatrixReduceRowNV, maximum);  // the row's one value, in O's shape
        coopMatPerElementNV(acc, acc, times, correction_out);
        coopmat<float16_t, gl_ScopeSubgroup, B, KB, gl_MatrixUseA> p16 = coopmat<float16_t, gl_ScopeSubgroup, B, KB, gl_MatrixUseA>(p);
        coopmat<float16_t, gl_ScopeSubgroup, KB, D, gl_MatrixUseB> mv;
        coopMatLoad(mv, v, j0 * D, D, gl_CooperativeMatrixLayoutRowMajor);
        acc = coopMatMulAdd(p16, mv, acc);
        row_max = new_max;
    }
    OUT sum_out;
    coopMatReduceNV(sum_out, row_sum, gl_CooperativeMatrixReduceRowNV, maximum);
    coopMatPerElementNV(acc, acc, divide, sum_out);
    coopMatStore(acc, o, row0 * D, D, gl_CooperativeMatrixLayoutRowMajor);
}
