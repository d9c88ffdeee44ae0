// target-env: vulkan1.3
#version 460
// Tensor loads with a DecodeFunc (SPV_NV_cooperative_matrix2 block loads), as llama.cpp's
// quantized-weight kernels write them: llama.cpp-style Q4_0 and Q8_0 blocks of 32 weights read
// from StorageBuffer descriptors through decode functions written for buffer references.
// OP 0: a Q4_0 tile, OP 1: a Q8_0 tile (both M x K at the block offsets in p[]), stored as floats;
// OP 2: a GEMM tile per workgroup, C = A x B with A in Q4_0 and B f16 (K x N), both loaded through
// tensor layouts with Constant clamping (M and N need not be multiples of the tile), C stored
// through a tensor layout (what falls outside is discarded); OP 3: the Q8_0 tile of OP 1 read as
// llama.cpp's flash attention reads its K and V: from a uint8_t array, by a decode function whose
// pointer is to a whole block (of a specialization-constant size), so block i starts at byte i x 34;
// OP 4: the same from that array as a PhysicalStorageBuffer (its address a push constant).
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 8, local_size_x_id = 90) in;  // one subgroup: the harness sets constant 90 to its size
layout(constant_id = 0) const uint OP = 0;
layout(constant_id = 1) const uint Q8_0_BLOCK_BYTES = 34;  // as llama.cpp's FaBlockBytesK

struct block_q4_0_packed16 { float16_t d; uint16_t qs[16 / 2]; };  // 32 weights: (q - 8) * d
struct block_q8_0_packed16 { float16_t d; int16_t qs[32 / 2]; };   // 32 weights: q * d
layout(buffer_reference, std430, buffer_reference_align = 2) buffer decodeBufQ4_0 { block_q4_0_packed16 block; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer decodeBufQ8_0 { block_q8_0_packed16 block; };
layout(buffer_reference, std430, buffer_reference_align = 1) buffer decodeBufBytes { uint8_t raw[Q8_0_BLOCK_BYTES]; };

layout(std430, set = 0, binding = 0) readonly buffer Params { uint p[]; };  // M, N, K, first row, first column
layout(std430, set = 0, binding = 1) readonly buffer Q4 { block_q4_0_packed16 q4[]; };
layout(std430, set = 0, binding = 2) readonly buffer Q8 { block_q8_0_packed16 q8[]; };
layout(std430, set = 0, binding = 2) readonly buffer Q8Bytes { uint8_t q8_bytes[]; };  // the same blocks
layout(std430, set = 0, binding = 3) readonly buffer B { float16_t b[]; };
layout(buffer_reference, std430, buffer_reference_align = 1) readonly buffer WeightBytes { uint8_t bytes[]; };
layout(push_constant) uniform Addresses { WeightBytes q4_address, q8_address; };  // bindings 1 and 2
layout(std430, set = 0, binding = 4) buffer Result { float result[]; };

// As llama.cpp's dequant_funcs_cm2.glsl.
float16_t dequantFuncQ4_0(const in decodeBufQ4_0 bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    const float16_t d = bl.block.d;
    const uint idx = coordInBlock[1];
    const uint shift = (idx & 0x10) >> 2;
    uint32_t qs = uint32_t(bl.block.qs[(idx & 0xE) >> 1]);
    qs >>= shift;
    qs &= 0x0F0F;
    qs = unpack8(qs)[idx & 1];
    return (float16_t(qs) - float16_t(8)) * d;
}

float16_t dequantFuncQ8_0(const in decodeBufQ8_0 bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    const float16_t d = bl.block.d;
    const uint idx = coordInBlock[1];
    const int16_t pair = bl.block.qs[idx >> 1];
    return float16_t(unpack8(pair)[idx & 1]) * d;
}

// As llama.cpp's faDecodeK: the block pointer cast to the format's own.
float16_t dequantBytesQ8_0(const in decodeBufBytes bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    return dequantFuncQ8_0(decodeBufQ8_0(bl), blockCoords, coordInBlock);
}

// An M x K weight tensor of 1 x 32 blocks, its strides in blocks.
tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> weights() {
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> t = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    t = setTensorLayoutBlockSizeNV(t, 1, 32);
    return setTensorLayoutDimensionNV(t, p[0], p[2]);
}

void main() {
    const uint M = p[0], N = p[1], K = p[2];
    if (OP == 0 || OP == 1 || OP == 3 || OP == 4) {
        coopmat<float16_t, gl_ScopeSubgroup, 16, 64, gl_MatrixUseAccumulator> w;
        if (OP == 0) {
            coopMatLoadTensorNV(w, q4, 0, sliceTensorLayoutNV(weights(), p[3], 16, p[4], 64), dequantFuncQ4_0);
        } else if (OP == 3) {
            coopMatLoadTensorNV(w, q8_bytes, 0, sliceTensorLayoutNV(weights(), p[3], 16, p[4], 64), dequantBytesQ8_0);
        } else if (OP == 4) {
            coopMatLoadTensorNV(w, q8_address.bytes, 0, sliceTensorLayoutNV(weights(), p[3], 16, p[4], 64), dequantBytesQ8_0);
        } else {
            coopMatLoadTensorNV(w, q8, 0, sliceTensorLayoutNV(weights(), p[3], 16, p[4], 64), dequantFuncQ8_0);
        }
        coopmat<float, gl_ScopeSubgroup, 16, 64, gl_MatrixUseAccumulator> f = coopmat<float, gl_ScopeSubgroup, 16, 64, gl_MatrixUseAccumulator>(w);
        coopMatStore(f, result, 0, 64, gl_CooperativeMatrixLayoutRowMajor);
        return;
    }
    const uint row = gl_WorkGroupID.y * 16, column = gl_WorkGroupID.x * 16;
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tb = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    tb = setTensorLayoutDimensionNV(tb, K, N);
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tc = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    tc = setTensorLayoutDimensionNV(tc, M, N);
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> c = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
    for (uint k = 0; k < K; k += 32) {
        coopmat<float16_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> a;
        coopMatLoadTensorNV(a, q4, 0, sliceTensorLayoutNV(weights(), row, 16, k, 32), dequantFuncQ4_0);
        coopmat<float16_t, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> bm;
        coopMatLoadTensorNV(bm, b, 0, sliceTensorLayoutNV(tb, k, 32, column, 16));
        c = coopMatMulAdd(a, bm, c);
    }
    coopMatStoreTensorNV(c, result, 0, sliceTensorLayoutNV(tc, row, 16, column, 16));
}
