#version 460
// C (f32, M x N) = A (f16, M x K) * B (f16, K x N), row-major, in plain scalar code: the hand-tuned
// fallback an emulated cooperative matrix must beat. M must be a multiple of BM, N of BN, K of BK,
// and the subgroup size a power of two of at least 8.
//
// Shape: a workgroup computes a BM x BN block of C with SG_M x SG_N subgroups; a subgroup computes
// RM rows x (RN * SUBGROUP_SIZE) columns, each invocation RM x RN elements of it (register
// blocking), its rows the same as the whole subgroup's. Per BK step the workgroup converts its A
// block to f32 in shared memory once, and every subgroup reads it with subgroup-uniform loads (one
// broadcast per A value, used RN times). B comes straight from the buffer, each value used RM
// times, read one of two ways (B_SELECT):
//   true:  one subgroup-uniform 16-byte load brings the columns of 8 neighbouring invocations,
//          each picks its own half out of it; columns SUBGROUP_SIZE apart;
//   false: each invocation loads its own pair of neighbouring columns (4 bytes).
//
// Tuned by measuring with `vkpolyfill_bench --only scalar --scalar ...` on lavapipe (llvmpipe,
// 8-wide subgroups, LLVM 21, AMD Zen 5, 2 cores), as process CPU time per GEMM: robust to other
// load on the machine (wall time is about half of it on two idle cores). Figures compare runs of
// one session; between sessions they drift by about 10 %.
// lavapipe 26.1 (the native driver; the default configuration), 1024^3:
//   both blocks in shared memory as f32, B read per invocation (a gather)  158 ms
//   no shared memory, B read per invocation as packed pairs (gathers)      150 ms
//   no shared memory, B_SELECT-style reads                                 115 ms
//   this shader, B_SELECT, RM=16 RN=2 SG_M=1 SG_N=8 BK=8                    76 ms  (2048^3: 626 ms)
//     BK=16: 73 ms, but 824 ms at 2048^3 (B rows 4 KiB apart: L1 set conflicts)
//     SG_N=4: ~100 ms; SG_N=16: same; RM=8 RN=4: ~110 ms; RM=32 RN=1: ~80 ms
//     not B_SELECT, RM=8 RN=8 SG_N=2 BK=16: 98 ms
//     A double-buffered (one barrier per step instead of two): 84 ms
//     workgroups ordered down M first (sharing B strips): no gain
//   the same arithmetic with no loads at all (the ceiling):               ~31 ms
// What costs there: llvmpipe bounds-checks every buffer and shared-memory access, turns a
// uniform vector load into checked 4-byte scalar loads, gathers per-invocation loads (about 40
// cycles each here), and splits fma() into a multiply and an add.
// lavapipe 25.0 (the plain driver) has no uniform-load path, so B_SELECT loses there:
//   this shader, not B_SELECT, RM=8 RN=16 SG_M=1 SG_N=1 BK=8               247 ms (512^3: 30 ms)
//     RM=16 RN=8: 300 ms; RM=8 RN=8 SG_N=2 BK=16: 301 ms
//   no shared memory, B read per invocation as packed pairs, RM=8 RN=8      310 ms
//   B_SELECT, the lavapipe 26 configuration                                 (512^3: 109 ms)
// Intel Xeon (AVX-512), lavapipe 26, 1024^3: this configuration 123-193 ms, RM=16 RN=8 SG_N=2 not
// B_SELECT 95-148 (2026-11-26). tests/bench/kernels.cpp (scalar_tunings) holds the tunings of each
// driver; the benchmark measures them all and compares with the fastest.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0) in;  // SG_M * SG_N * SUBGROUP_SIZE
layout(constant_id = 1) const uint SUBGROUP_SIZE = 8;
layout(constant_id = 2) const uint RM = 16;  // rows per invocation
layout(constant_id = 3) const uint RN = 2;   // columns per invocation (even)
layout(constant_id = 4) const uint SG_M = 1;
layout(constant_id = 5) const uint SG_N = 8;
layout(constant_id = 6) const uint BK = 8;  // a multiple of 8
layout(constant_id = 7) const bool B_SELECT = true;  // how B is read, see above

// The f16 data, 8 halves (16 bytes) or 2 halves at a time.
layout(std430, set = 0, binding = 0) readonly buffer A { uvec4 a8[]; };
layout(std430, set = 0, binding = 1) readonly buffer B8 { uvec4 b8[]; };
layout(std430, set = 0, binding = 1) readonly buffer B2 { uint b2[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Shape { uint M; uint N; uint K; };

const uint BM = SG_M * RM;
const uint BN = SG_N * RN * SUBGROUP_SIZE;
shared float tile_a[BM * BK];

// Converts the BM x BK block of A at (row0, k0) into tile_a.
void stage_a(uint row0, uint k0) {
    for (uint p = gl_LocalInvocationIndex; p < BM * BK / 8; p += gl_WorkGroupSize.x) {
        const uint r = p / (BK / 8), q = p % (BK / 8);
        const uvec4 h = a8[((row0 + r) * K + k0) / 8 + q];
        const uint at = r * BK + q * 8;
        [[unroll]] for (uint i = 0; i < 4; ++i) {
            const vec2 v = unpackHalf2x16(h[i]);
            tile_a[at + 2 * i] = v.x;
            tile_a[at + 2 * i + 1] = v.y;
        }
    }
}

// This invocation's columns, from `base`, the subgroup's first: with B_SELECT, one column every
// SUBGROUP_SIZE; otherwise pairs, columns j and j + 1 (j even) next to each other.
uint column(uint base, uint j) {
    const uint lane = gl_SubgroupInvocationID;
    return B_SELECT ? base + lane + j * SUBGROUP_SIZE : base + 2 * lane + (j / 2) * 2 * SUBGROUP_SIZE + j % 2;
}

// Row k of B at this invocation's columns.
void load_b(uint k, uint base, out float b[RN]) {
    const uint lane = gl_SubgroupInvocationID;
    if (B_SELECT) {
        // The 16 bytes holding the columns of 8 neighbouring invocations, read at one address by
        // all of them (the address is visibly uniform when SUBGROUP_SIZE is 8: lane & 0); each
        // takes its own half.
        const uint group = base + (lane & (SUBGROUP_SIZE - 8)), in8 = lane % 8;
        [[unroll]] for (uint j = 0; j < RN; ++j) {
            const uvec4 h = b8[(k * N + group + j * SUBGROUP_SIZE) / 8];
            b[j] = unpackHalf2x16(h[in8 / 2] >> (16 * (in8 % 2))).x;
        }
    } else {
        [[unroll]] for (uint j = 0; j < RN; j += 2) {
            const vec2 v = unpackHalf2x16(b2[(k * N + column(base, j)) / 2]);
            b[j] = v.x;
            b[j + 1] = v.y;
        }
    }
}

void main() {
    const uint row0 = gl_WorkGroupID.y * BM;
    const uint sub_row = (gl_SubgroupID % SG_M) * RM;  // in the block
    const uint base = gl_WorkGroupID.x * BN + (gl_SubgroupID / SG_M) * RN * SUBGROUP_SIZE;

    float acc[RM][RN];
    [[unroll]] for (uint i = 0; i < RM; ++i) {
        [[unroll]] for (uint j = 0; j < RN; ++j) acc[i][j] = 0.0;
    }
    for (uint k0 = 0; k0 < K; k0 += BK) {
        stage_a(row0, k0);
        barrier();
        [[unroll]] for (uint kk = 0; kk < BK; ++kk) {
            float b[RN];
            load_b(k0 + kk, base, b);
            [[unroll]] for (uint i = 0; i < RM; ++i) {
                const float a = tile_a[(sub_row + i) * BK + kk];
                [[unroll]] for (uint j = 0; j < RN; ++j) acc[i][j] = fma(a, b[j], acc[i][j]);
            }
        }
        barrier();
    }
    [[unroll]] for (uint i = 0; i < RM; ++i) {
        [[unroll]] for (uint j = 0; j < RN; ++j) c[(row0 + sub_row + i) * N + column(base, j)] = acc[i][j];
    }
}
