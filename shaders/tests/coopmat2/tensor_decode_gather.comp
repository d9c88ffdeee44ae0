// target-env: vulkan1.3
#version 460
// Tensor loads whose decode functions gather rows by their coordinates, as a mixture-of-experts GEMM
// gathers the rows routed to one expert: their block is a buffer reference to a runtime array, which
// has no size, and they never read through it (the rows come from X). Row i of the 16-row gathered
// tile is row p[1 + i] of X (p[0] halves a row), decoded in blocks of 4 along the row.
// OP 0: a 32 x 16 B matrix, column i gathered, through a transposing view (DecodeVectorFunc beside
// the DecodeFunc, not called there); OP 1: a 16 x 32 A matrix, row i gathered, 4 halves a vector call.
// Stored as floats, row-major.
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_NV_cooperative_matrix_decode_vector : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8, local_size_x_id = 90) in;  // one subgroup: the harness sets constant 90 to its size
layout(constant_id = 0) const uint OP = 0;

layout(buffer_reference, std430, buffer_reference_align = 2) buffer decodeBufRows { float16_t x[]; };

layout(std430, set = 0, binding = 0) readonly buffer Params { uint p[]; };  // row length, then the gathered rows
layout(std430, set = 0, binding = 1) readonly buffer X { float16_t x[]; };
layout(std430, set = 0, binding = 1) readonly buffer X4 { f16vec4 x4[]; };  // the same rows
layout(std430, set = 0, binding = 2) buffer Result { float result[]; };

// The index in X of element `k` of gathered row `i`.
uint gathered(uint i, uint k) { return p[1 + i] * p[0] + k; }

float16_t gatherRow(const in decodeBufRows bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    return x[gathered(blockCoords[0], blockCoords[1] * 4 + coordInBlock[1])];
}

f16vec4 gatherRow4(const in decodeBufRows bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    return x4[gathered(blockCoords[0], blockCoords[1] * 4 + coordInBlock[1]) / 4];
}

void main() {
    tensorLayoutNV<2> t = createTensorLayoutNV(2);
    t = setTensorLayoutBlockSizeNV(t, 1, 4);
    t = setTensorLayoutDimensionNV(t, 16, p[0]);
    t = sliceTensorLayoutNV(t, 0, 16, 0, 32);
    if (OP == 0) {
        tensorViewNV<2, false, 1, 0> transpose = createTensorViewNV(2, false, 1, 0);
        coopmat<float16_t, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> b;
        coopMatLoadTensorNV(b, x, 0, t, transpose, gatherRow, gatherRow4);
        coopmat<float, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> f = coopmat<float, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB>(b);
        coopMatStore(f, result, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
        return;
    }
    coopmat<float16_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> a;
    coopMatLoadTensorNV(a, x, 0, t, gatherRow, gatherRow4);
    coopmat<float, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> f = coopmat<float, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA>(a);
    coopMatStore(f, result, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
}
