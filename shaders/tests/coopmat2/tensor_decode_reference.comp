// target-env: vulkan1.3
#version 460
// A DecodeFunc load whose source is itself a buffer reference (PhysicalStorageBuffer): the decode
// function gets the pointer to the element's block directly. Lowered and validated only (the test
// harness binds descriptors, not device addresses).
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8, local_size_x_id = 90) in;  // one subgroup: the harness sets constant 90 to its size

struct block_q8_0_packed16 { float16_t d; int16_t qs[32 / 2]; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer decodeBufQ8_0 { block_q8_0_packed16 block; };
layout(buffer_reference, std430, buffer_reference_align = 2) readonly buffer Blocks { block_q8_0_packed16 blocks[]; };
layout(push_constant) uniform Push { Blocks weights; uint rows, columns; };
layout(std430, set = 0, binding = 0) buffer Result { float result[]; };

float16_t dequantFuncQ8_0(const in decodeBufQ8_0 bl, const in uint blockCoords[2], const in uint coordInBlock[2]) {
    const int16_t pair = bl.block.qs[coordInBlock[1] >> 1];
    return float16_t(unpack8(pair)[coordInBlock[1] & 1]) * bl.block.d;
}

void main() {
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> t = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    t = setTensorLayoutBlockSizeNV(t, 1, 32);
    t = setTensorLayoutDimensionNV(t, rows, columns);
    coopmat<float16_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseAccumulator> w;
    coopMatLoadTensorNV(w, weights.blocks, 0, sliceTensorLayoutNV(t, 0, 16, 0, 32), dequantFuncQ8_0);
    coopmat<float, gl_ScopeSubgroup, 16, 32, gl_MatrixUseAccumulator> f = coopmat<float, gl_ScopeSubgroup, 16, 32, gl_MatrixUseAccumulator>(w);
    coopMatStore(f, result, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
}
