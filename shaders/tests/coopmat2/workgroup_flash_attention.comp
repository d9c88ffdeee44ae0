// target-env: vulkan1.3
// optimize: size (values in SSA form, carried around the loop by phis, as in llama.cpp's kernels)
#version 460
// Flash attention over 4 subgroups as llama.cpp's coopmat2 kernel computes it: S = Q x K for the
// keys in four blocks of 8, each block's scores scaled per row (a per-element operation that ignores
// the column, as ALiBi's slopes), the running row maxima M and sums L carried around the loop as
// whole accumulators, P = exp(S - M), the row sums by a multiply-add with a B of ones, O rescaled by
// exp(Mold - M) smeared to O's shape by a reduction, then O + P x V; at the end O / (L + column / 64)
// (a per-element operation that reads the column: its result has no longer one value a row). In the
// GPU layout the slopes, M, L, the row maxima and sums keep one value a row (row_values.h).
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// The sizes are specialization constants 10-14 (the suite runs the defaults; the GPU proxies' compile
// test, tests/devices, takes llama.cpp's: 128 invocations, 64 query rows, head 128, 64 keys a block).
layout(local_size_x = 32, local_size_x_id = 10) in;
layout(constant_id = 11) const uint QR = 32;     // query rows
layout(constant_id = 12) const uint D = 16;      // the head dimension
layout(constant_id = 13) const uint KB = 8;      // keys per block
layout(constant_id = 14) const uint BLOCKS = 4;  // key blocks
const uint KEYS = KB * BLOCKS;

layout(std430, set = 0, binding = 0) readonly buffer Query { float16_t q[]; };  // QR x D, row-major
layout(std430, set = 0, binding = 1) readonly buffer Key { float16_t k[]; };    // D x KEYS, row-major
layout(std430, set = 0, binding = 2) readonly buffer Value { float16_t v[]; };  // KEYS x D, row-major
layout(std430, set = 0, binding = 3) writeonly buffer Out { float o_out[]; };   // QR x D

#define BLOCK coopmat<float, gl_ScopeWorkgroup, QR, KB, gl_MatrixUseAccumulator>
#define OUT coopmat<float, gl_ScopeWorkgroup, QR, D, gl_MatrixUseAccumulator>

float maximum(const in float a, const in float b) { return max(a, b); }
float first(const in float a, const in float b) { return a; }
float exponential(const in uint row, const in uint col, const in float x) { return exp(x); }
float larger(const in uint row, const in uint col, const in float a, const in float b) { return max(a, b); }
float row_slope(const in uint row, const in uint col, const in float x) { return x * (1.0 + float(row % 4) * 0.25); }
float plus_column(const in uint row, const in uint col, const in float x) { return x + float(col) / 64.0; }

void main() {
    coopmat<float16_t, gl_ScopeWorkgroup, QR, D, gl_MatrixUseA> mq;
    coopMatLoad(mq, q, 0, D, gl_CooperativeMatrixLayoutRowMajor);
    BLOCK slopes = BLOCK(1.0);
    coopMatPerElementNV(slopes, slopes, row_slope);
    BLOCK m = BLOCK(-1.0e30), l = BLOCK(0.0);
    OUT o = OUT(0.0);
    const coopmat<float16_t, gl_ScopeWorkgroup, KB, KB, gl_MatrixUseB> ones = coopmat<float16_t, gl_ScopeWorkgroup, KB, KB, gl_MatrixUseB>(1.0);
    for (uint j = 0; j < BLOCKS; ++j) {
        coopmat<float16_t, gl_ScopeWorkgroup, D, KB, gl_MatrixUseB> kb;
        coopMatLoad(kb, k, j * KB, KEYS, gl_CooperativeMatrixLayoutRowMajor);
        BLOCK s = coopMatMulAdd(mq, kb, BLOCK(0.0)) * slopes;
        BLOCK row_max, m_new, p, em;
        coopMatReduceNV(row_max, s, gl_CooperativeMatrixReduceRowNV, maximum);
        coopMatPerElementNV(m_new, row_max, larger, m);
        coopMatPerElementNV(p, s - m_new, exponential);
        coopMatPerElementNV(em, m - m_new, exponential);
        m = m_new;
        coopmat<float16_t, gl_ScopeWorkgroup, QR, KB, gl_MatrixUseA> pa = coopmat<float16_t, gl_ScopeWorkgroup, QR, KB, gl_MatrixUseA>(p);
        l = em * l + coopMatMulAdd(pa, ones, BLOCK(0.0));
        OUT rescale;
        coopMatReduceNV(rescale, em, gl_CooperativeMatrixReduceRowNV, first);
        coopmat<float16_t, gl_ScopeWorkgroup, KB, D, gl_MatrixUseB> vb;
        coopMatLoad(vb, v, j * KB * D, D, gl_CooperativeMatrixLayoutRowMajor);
        o = coopMatMulAdd(pa, vb, o * rescale);
    }
    OUT sums;
    coopMatReduceNV(sums, l, gl_CooperativeMatrixReduceRowNV, first);
    coopMatPerElementNV(sums, sums, plus_column);
    coopMatStore(o / sums, o_out, 0, D, gl_CooperativeMatrixLayoutRowMajor);
}
