// target-env: vulkan1.3
#version 460
// C (f32, M x N) = A (f16, M x K) * B (f16, K x N), row-major, with workgroup-scope cooperative
// matrices (GL_NV_cooperative_matrix2), the way coopmat2 engines write it (llama.cpp's mul_mm_cm2):
// the whole workgroup holds one BM x BN accumulator and, per BK step, one BM x BK A and one BK x BN
// B, loaded with coopMatLoad straight from the buffers; no shared memory in the shader, because
// staging is the implementation's business at workgroup scope. M and N must be multiples of BM and
// BN, K of BK; the sizes must be multiples of a flexible-dimension granularity the device lists for
// the workgroup size (the layer: 32x16x16 with 128 invocations, 32x32x16 with 256).
//
// What an emulation meets here, per BK step: two workgroup-scope loads from the buffers and one
// workgroup-scope coopMatMulAdd; at the end one workgroup-scope store. The layer's lowering holds
// A and B in the bands of the accumulator (each subgroup the rows of A and columns of B its band
// needs, lowering/src/passes/cooperative_matrix/matrix_types.h), so the multiply-add is each
// subgroup's own, with no shared memory and no barrier; on lavapipe 25, whose uniform loads are per
// invocation, it stripes and stages them (Target::scalar_uniform_loads).
// The subgroup-scope flexible-dimension variant needs no shader of its own: gemm_coopmat.comp with
// a shape no KHR configuration lists (tm=32,tn=32,tk=16), on a device with flexible dimensions.
//
// The benchmark's defaults are now per driver, swept on 2026-11-23 and 2026-11-29 (tests/bench/kernels.*:
// 512x64x16 with 128 invocations on lavapipe 26, 512x128x16 with 128 on lavapipe 25). Earlier choice,
// through the layer on lavapipe 26 (AMD Zen 5, 2 cores, a busy machine), process CPU
// ms per 512^3 GEMM, with A and B in the accumulator's bands: 128x128x16 with 256 invocations 14.5;
// 128x64x16 / 256: 18.0; 64x64x16 / 256: 21.7; 64x64x16 / 128: 18.8 (the scalar shader: 9.5-10.3).
// Before, with A and B striped over the workgroup and staged through shared memory with two
// workgroup barriers per multiply-add: 128x128x16 / 256 23.8, the others 29.6-46.1 (scalar: 10.4).
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x_id = 0) in;  // INVOCATIONS
layout(constant_id = 1) const uint SUBGROUP_SIZE = 8;  // not used: the shader does not depend on it
layout(constant_id = 2) const uint INVOCATIONS = 256;  // the workgroup size, again
layout(constant_id = 3) const uint BM = 128;  // the accumulator, rows and columns of C per workgroup
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 16;  // K per step

layout(std430, set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Shape { uint M; uint N; uint K; };

void main() {
    const uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
    coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> acc =
        coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(0.0);
    for (uint k0 = 0; k0 < K; k0 += BK) {
        coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> ma;
        coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> mb;
        coopMatLoad(ma, a, row0 * K + k0, K, gl_CooperativeMatrixLayoutRowMajor);
        coopMatLoad(mb, b, k0 * N + col0, N, gl_CooperativeMatrixLayoutRowMajor);
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatStore(acc, c, row0 * N + col0, N, gl_CooperativeMatrixLayoutRowMajor);
}
