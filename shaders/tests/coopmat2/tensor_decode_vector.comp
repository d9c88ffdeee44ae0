// target-env: vulkan1.3
#version 460
// Tensor loads with a DecodeVectorFunc beside their DecodeFunc (SPV_NV_cooperative_matrix_decode_vector):
// a 4-bit block format of 16 weights, w = q * d + m, decoded one, two or four weights a call (GLSL has
// no 8-component vectors). OP 0, 1: a 16 x 32 A matrix through the V = 4, 2 function; OP 2: a 16 x 32 accumulator through
// the V = 4 function. The tile starts at (p[2], p[3]) of a p[0] x p[1] tensor, Constant clamping
// (0) outside it, and is stored as floats. Each decode function counts its calls in calls[] (0: the
// scalar one, 1: the vector ones), which shows which of the two the implementation chose.
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_NV_cooperative_matrix_decode_vector : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8, local_size_x_id = 90) in;  // one subgroup: the harness sets constant 90 to its size
layout(constant_id = 0) const uint OP = 0;

struct block_q4_16 { float16_t d; float16_t m; uint32_t qs[2]; };  // nibble i: qs[i / 8] >> 4 * (i % 8)
layout(buffer_reference, std430, buffer_reference_align = 4) buffer decodeBuf { block_q4_16 block; };

layout(std430, set = 0, binding = 0) readonly buffer Params { uint p[]; };  // rows, columns, first row, first column
layout(std430, set = 0, binding = 1) readonly buffer Blocks { block_q4_16 blocks[]; };
layout(std430, set = 0, binding = 2) buffer Result { float result[]; };
layout(std430, set = 0, binding = 3) buffer Calls { uint calls[]; };

// The pointer itself stays in the decode functions: the lowering follows it through access chains
// and loads, not into calls.
float16_t weight(uint nibble, float16_t d, float16_t m) { return float16_t(nibble & 15) * d + m; }

float16_t decode1(const in decodeBuf bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    atomicAdd(calls[0], 1);
    const uint idx = coordInBlock[1];
    return weight(bl.block.qs[idx >> 3] >> (4 * (idx & 7)), bl.block.d, bl.block.m);
}

f16vec2 decode2(const in decodeBuf bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    atomicAdd(calls[1], 1);
    const uint idx = coordInBlock[1];
    const uint q = bl.block.qs[idx >> 3] >> (4 * (idx & 7));
    const float16_t d = bl.block.d, m = bl.block.m;
    return f16vec2(weight(q, d, m), weight(q >> 4, d, m));
}

f16vec4 decode4(const in decodeBuf bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    atomicAdd(calls[1], 1);
    const uint idx = coordInBlock[1];
    const uint q = bl.block.qs[idx >> 3] >> (4 * (idx & 7));
    const float16_t d = bl.block.d, m = bl.block.m;
    return f16vec4(weight(q, d, m), weight(q >> 4, d, m), weight(q >> 8, d, m), weight(q >> 12, d, m));
}

void main() {
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> t = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    t = setTensorLayoutBlockSizeNV(t, 1, 16);
    t = setTensorLayoutDimensionNV(t, p[0], p[1]);
    t = sliceTensorLayoutNV(t, p[2], 16, p[3], 32);
    if (OP == 2) {
        coopmat<float16_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseAccumulator> w;
        coopMatLoadTensorNV(w, blocks, 0, t, decode1, decode4);
        coopmat<float, gl_ScopeSubgroup, 16, 32, gl_MatrixUseAccumulator> f = coopmat<float, gl_ScopeSubgroup, 16, 32, gl_MatrixUseAccumulator>(w);
        coopMatStore(f, result, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
        return;
    }
    coopmat<float16_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> w;
    if (OP == 0) {
        coopMatLoadTensorNV(w, blocks, 0, t, decode1, decode4);
    } else {
        coopMatLoadTensorNV(w, blocks, 0, t, decode1, decode2);
    }
    coopmat<float, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> f = coopmat<float, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA>(w);
    coopMatStore(f, result, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
}
