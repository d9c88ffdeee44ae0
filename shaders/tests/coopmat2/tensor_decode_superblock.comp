// target-env: vulkan1.3
#version 460
// Decode functions as llama.cpp's K-quant and IQ kernels write them, the parts tensor_decode.comp
// leaves out: super-blocks of 256 weights with a scale and a minimum per 32 (a block size of 1 x 256),
// the block read through buffer-reference casts to differently packed views of the same bytes, and a
// lookup table in shared memory that the workgroup fills before its loads. The source is a
// StorageBuffer descriptor, so the lowering re-targets the casts and keeps the table reads.
// OP 0: a subgroup-scope 16 x 64 tile at (p[3], p[4]) stored as floats; OP 1: a workgroup-scope
// GEMM tile per workgroup (32 x 32, K step 32), C = A x B with A decoded and B f16, edges clamped
// on loads and discarded on stores; OP 2: OP 0 through a decode function that calls helpers.
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint OP = 0;

// 256 weights: dm = (d, m); byte s of scales is sub-block s's scale (low nibble) and minimum (high);
// weight i is nibble i % 2 of byte i / 2 of qs, and decodes to d * scale * table[q] - m * minimum.
struct block_sb { f16vec2 dm; uint32_t scales[2]; uint32_t qs[32]; };
struct block_sb_packed16 { f16vec2 dm; uint16_t scales[4]; uint16_t qs[64]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer decodeBufSB { block_sb block; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer decodeBufSB16 { block_sb_packed16 block; };

layout(std430, set = 0, binding = 0) readonly buffer Params { uint p[]; };  // M, N, K, first row, first column
layout(std430, set = 0, binding = 1) readonly buffer Weights { block_sb weights[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { float16_t b[]; };
layout(std430, set = 0, binding = 3) buffer Result { float result[]; };

// A non-linear code book, as IQ4_NL's: copied to shared memory once per workgroup.
const int8_t table_values[16] = {int8_t(-31), int8_t(-25), int8_t(-19), int8_t(-14), int8_t(-10), int8_t(-6), int8_t(-3), int8_t(-1),
                                 int8_t(1), int8_t(3), int8_t(6), int8_t(10), int8_t(14), int8_t(19), int8_t(25), int8_t(31)};
shared float16_t table[16];

float16_t decodeSuperBlock(const in decodeBufSB bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    decodeBufSB16 bl16 = decodeBufSB16(bl);
    const f16vec2 dm = bl.block.dm;
    const uint idx = coordInBlock[1];
    const uint sub = idx >> 5;
    const uint scale_min = (bl.block.scales[sub >> 2] >> (8 * (sub & 3))) & 0xFF;
    const uint q = (uint(bl16.block.qs[idx >> 2]) >> (4 * (idx & 3))) & 0xF;
    return dm.x * float16_t(scale_min & 0xF) * table[q] - dm.y * float16_t(scale_min >> 4);
}

// The same decoding through helper functions the decode function passes its pointer on to (glslang
// passes it in a Function variable), as larger decoders are written.
f16vec2 sub_block_scale_and_minimum(decodeBufSB bl, uint sub) {
    const uint scale_min = (bl.block.scales[sub >> 2] >> (8 * (sub & 3))) & 0xFF;
    return f16vec2(bl.block.dm.x * float16_t(scale_min & 0xF), bl.block.dm.y * float16_t(scale_min >> 4));
}

uint weight_code(decodeBufSB16 bl16, uint idx) { return (uint(bl16.block.qs[idx >> 2]) >> (4 * (idx & 3))) & 0xF; }

float16_t decodeThroughHelpers(const in decodeBufSB bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    const uint idx = coordInBlock[1];
    const f16vec2 scale = sub_block_scale_and_minimum(bl, idx >> 5);
    return scale.x * table[weight_code(decodeBufSB16(bl), idx)] - scale.y;
}

// An M x K weight tensor of 1 x 256 blocks.
tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> weight_layout() {
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> t = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    t = setTensorLayoutBlockSizeNV(t, 1, 256);
    return setTensorLayoutDimensionNV(t, p[0], p[2]);
}

void main() {
    if (gl_LocalInvocationIndex < 16) table[gl_LocalInvocationIndex] = float16_t(table_values[gl_LocalInvocationIndex]) * float16_t(0.25);
    barrier();
    const uint M = p[0], N = p[1], K = p[2];
    if (OP == 0 || OP == 2) {
        if (gl_SubgroupID != 0) return;
        coopmat<float16_t, gl_ScopeSubgroup, 16, 64, gl_MatrixUseAccumulator> w;
        if (OP == 0) {
            coopMatLoadTensorNV(w, weights, 0, sliceTensorLayoutNV(weight_layout(), p[3], 16, p[4], 64), decodeSuperBlock);
        } else {
            coopMatLoadTensorNV(w, weights, 0, sliceTensorLayoutNV(weight_layout(), p[3], 16, p[4], 64), decodeThroughHelpers);
        }
        coopmat<float, gl_ScopeSubgroup, 16, 64, gl_MatrixUseAccumulator> f = coopmat<float, gl_ScopeSubgroup, 16, 64, gl_MatrixUseAccumulator>(w);
        coopMatStore(f, result, 0, 64, gl_CooperativeMatrixLayoutRowMajor);
        return;
    }
    const uint row = gl_WorkGroupID.y * 32, column = gl_WorkGroupID.x * 32;
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tb = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    tb = setTensorLayoutDimensionNV(tb, K, N);
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tc = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    tc = setTensorLayoutDimensionNV(tc, M, N);
    coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator> c = coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator>(0.0);
    for (uint k = 0; k < K; k += 32) {
        coopmat<float16_t, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseA> a;
        coopMatLoadTensorNV(a, weights, 0, sliceTensorLayoutNV(weight_layout(), row, 32, k, 32), decodeSuperBlock);
        coopmat<float16_t, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseB> bm;
        coopMatLoadTensorNV(bm, b, 0, sliceTensorLayoutNV(tb, k, 32, column, 32));
        c = coopMatMulAdd(a, bm, c);
    }
    coopMatStoreTensorNV(c, result, 0, sliceTensorLayoutNV(tc, row, 32, column, 32));
}
