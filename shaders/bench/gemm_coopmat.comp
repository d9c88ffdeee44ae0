// target-env: vulkan1.3
#version 460
// C (f32, M x N) = A (f16, M x K) * B (f16, K x N), row-major, with KHR cooperative matrices, the
// way engines write it (llama.cpp's mul_mm coopmat path, vkpeak): f16 A and B, f32 accumulators,
// WM x WN accumulator tiles per subgroup, SG_M x SG_N subgroups per workgroup, every size a
// specialization constant. M and N must be multiples of the workgroup's BM x BN block, K of BK.
//
// What an emulation meets here, per BK step and subgroup:
//   STAGE (like llama.cpp): the workgroup copies A and B blocks into shared memory (f16vec4
//     arrays, rows padded by 16 bytes), barrier, then WN B loads and WM A loads per TK with
//     coopMatLoad from those arrays (row-major; the array element is a 4-vector of the matrix's
//     component type, so element offsets and strides count vec4s), then a barrier;
//   not STAGE: the same loads straight from the buffers (float16_t arrays, strides K and N);
//   WM * WN coopMatMulAdd on an array of accumulators indexed by unrolled loop counters;
//   coopMatStore of every accumulator to the f32 buffer (row-major, stride N).
// Matrix shape TM x TN x TK: 8x8x8 by default, the one lavapipe runs natively; with the emulation
// also 16x16x16, 16x8x16, 16x8x8 (--coopmat tm=16,tn=16,tk=16).
//
// Defaults chosen on lavapipe 26.1's native coopmat (AMD Zen 5, 2 cores), process CPU time per
// 1024^3 GEMM (see gemm_scalar.comp for the method): WM=WN=4, SG_M=SG_N=2, BK=16: 344 ms staged,
// 313 ms from the buffers (best from the buffers: WM=WN=4 with one subgroup, BK=8, 255 ms;
// WM=WN=2: 413-457 ms staged). The scalar shader does the same GEMM in 76 ms there.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0) in;  // SG_M * SG_N * SUBGROUP_SIZE
layout(constant_id = 1) const uint SUBGROUP_SIZE = 8;
layout(constant_id = 2) const uint TM = 8;  // the matrix shape: A is TM x TK, B is TK x TN
layout(constant_id = 3) const uint TN = 8;
layout(constant_id = 4) const uint TK = 8;
layout(constant_id = 5) const uint WM = 2;  // accumulator tiles per subgroup, down and across
layout(constant_id = 6) const uint WN = 2;
layout(constant_id = 7) const uint SG_M = 2;  // subgroups per workgroup, down and across
layout(constant_id = 8) const uint SG_N = 2;
layout(constant_id = 9) const uint BK = 32;  // K per step (per shared-memory fill when STAGE)
layout(constant_id = 10) const bool STAGE = true;

layout(std430, set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, set = 0, binding = 0) readonly buffer A4 { f16vec4 a4[]; };
layout(std430, set = 0, binding = 1) readonly buffer B4 { f16vec4 b4[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Shape { uint M; uint N; uint K; };

const uint BM = SG_M * WM * TM;
const uint BN = SG_N * WN * TN;
// Shared tiles in f16vec4 units, rows padded by 16 bytes against bank conflicts.
const uint A_STRIDE = BK / 4 + 2;
const uint B_STRIDE = BN / 4 + 2;
shared f16vec4 tile_a[BM * A_STRIDE];
shared f16vec4 tile_b[BK * B_STRIDE];

#define MAT_A coopmat<float16_t, gl_ScopeSubgroup, TM, TK, gl_MatrixUseA>
#define MAT_B coopmat<float16_t, gl_ScopeSubgroup, TK, TN, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeSubgroup, TM, TN, gl_MatrixUseAccumulator>

// Copies the A (BM x BK) and B (BK x BN) blocks at k0 into shared memory, 4 halves at a time.
void stage(uint row0, uint col0, uint k0) {
    const uint threads = gl_WorkGroupSize.x;
    for (uint i = gl_LocalInvocationIndex; i < BM * BK / 4; i += threads) {
        const uint r = i / (BK / 4), q = i % (BK / 4);
        tile_a[r * A_STRIDE + q] = a4[((row0 + r) * K + k0) / 4 + q];
    }
    for (uint i = gl_LocalInvocationIndex; i < BK * BN / 4; i += threads) {
        const uint r = i / (BN / 4), q = i % (BN / 4);
        tile_b[r * B_STRIDE + q] = b4[((k0 + r) * N + col0) / 4 + q];
    }
}

void main() {
    const uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
    const uint sub_row = (gl_SubgroupID % SG_M) * WM * TM;  // this subgroup's tile in the block
    const uint sub_col = (gl_SubgroupID / SG_M) * WN * TN;

    MAT_C acc[WM * WN];
    [[unroll]] for (uint i = 0; i < WM * WN; ++i) acc[i] = MAT_C(0.0);

    for (uint k0 = 0; k0 < K; k0 += BK) {
        if (STAGE) {
            stage(row0, col0, k0);
            barrier();
        }
        [[unroll]] for (uint kk = 0; kk < BK; kk += TK) {
            MAT_B mb[WN];
            [[unroll]] for (uint j = 0; j < WN; ++j) {
                const uint col = sub_col + j * TN;
                if (STAGE) {
                    coopMatLoad(mb[j], tile_b, kk * B_STRIDE + col / 4, B_STRIDE, gl_CooperativeMatrixLayoutRowMajor);
                } else {
                    coopMatLoad(mb[j], b, (k0 + kk) * N + col0 + col, N, gl_CooperativeMatrixLayoutRowMajor);
                }
            }
            [[unroll]] for (uint i = 0; i < WM; ++i) {
                const uint row = sub_row + i * TM;
                MAT_A ma;
                if (STAGE) {
                    coopMatLoad(ma, tile_a, row * A_STRIDE + kk / 4, A_STRIDE, gl_CooperativeMatrixLayoutRowMajor);
                } else {
                    coopMatLoad(ma, a, (row0 + row) * K + k0 + kk, K, gl_CooperativeMatrixLayoutRowMajor);
                }
                [[unroll]] for (uint j = 0; j < WN; ++j) acc[i * WN + j] = coopMatMulAdd(ma, mb[j], acc[i * WN + j]);
            }
        }
        if (STAGE) barrier();
    }

    [[unroll]] for (uint i = 0; i < WM; ++i) {
        [[unroll]] for (uint j = 0; j < WN; ++j) {
            const uint offset = (row0 + sub_row + i * TM) * N + col0 + sub_col + j * TN;
            coopMatStore(acc[i * WN + j], c, offset, N, gl_CooperativeMatrixLayoutRowMajor);
        }
    }
}
