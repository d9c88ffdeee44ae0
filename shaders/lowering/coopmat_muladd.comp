#version 460
// One invocation's share of Result = A x B + C for the lane layouts in
// lowering/src/passes/cooperative_matrix/lane_layout.h (A replicated or distributed), computed in 32-bit types: the lowering widens
// narrower operands before the call and narrows the result after it. Instantiated per multiply-add
// shape: the lowering freezes the specialization constants, unrolls the loops and links the function
// into the module being lowered.
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 1) in;

layout(constant_id = 0) const uint M = 1;   // rows of A and of the accumulators
layout(constant_id = 1) const uint K = 1;   // columns of A, rows of B
layout(constant_id = 2) const uint NL = 1;  // columns each invocation holds of B and the accumulators
layout(constant_id = 3) const uint G = 1;   // row groups: an invocation holds rows group, group + G, ...
layout(constant_id = 4) const uint ROWS = 1;  // accumulator rows each invocation holds: M / G
layout(constant_id = 5) const bool SATURATING = false;     // SaturatingAccumulationKHR
layout(constant_id = 6) const bool RESULT_SIGNED = false;  // MatrixResultSignedComponentsKHR
// Array lengths as constants of their own: glslang cannot match array types sized by expressions.
layout(constant_id = 7) const uint LENGTH_A = 1;  // M * K
layout(constant_id = 8) const uint LENGTH_B = 1;  // K * NL
layout(constant_id = 9) const uint LENGTH_C = 1;  // ROWS * NL
// The float kernel's K steps per call, from k_first: K (one call) unless the lowering calls it in a
// loop over K because the unrolled steps would be too much code for the driver (multiply_add.cpp).
layout(constant_id = 10) const uint K_STEPS = 1;
// A distributed over the subgroup (the *_distributed kernels): its row lanes Lr. Row lane rl holds
// rows rl, rl + Lr, ..., all K columns of each; invocations Lr apart hold the same rows.
layout(constant_id = 11) const uint A_LANES = 1;

// B's K rows split over row groups in the distributed layout (lane_layout.h): group g of the
// invocations holds rows g, g + B_GROUPS, ... of its column lane's columns; 1 where every invocation
// holds all K rows.
layout(constant_id = 12) const uint B_GROUPS = 1;
layout(constant_id = 13) const uint B_LANES = 1;  // B's column lanes: invocation l is column lane l % B_LANES
// A distributed A's column lanes P: the copies of its row lanes split K, invocation l holding row
// lane (l / P) % Lr's rows, K / P columns from (l % P) K / P (lane_layout.h)
layout(constant_id = 14) const uint A_PARTS = 1;

// The *_distributed kernels, for a distributed A or a split B (they take the invocation's column lane).
// The invocation's A value at accumulator row group + u * G, column k. From a distributed A: held
// by row lane row % Lr, column lane k / (K / P), at element (row / Lr) * (K / P) + k % (K / P). The
// element is the same in every invocation (G divides Lr where Lr = S, and row / Lr = 0 where Lr = M),
// so one shuffle brings each invocation its value; where G = 1 every invocation asks the same lane (a
// broadcast). From a replicated A (one row lane, one column lane), the invocation's own.
#define A_COLUMNS (K / A_PARTS)
#define SHUFFLED_A(u, k) (A_LANES == 1 && A_PARTS == 1 ? a[(group + (u) * G) * K + (k)] \
                                       : subgroupShuffle(a[((u) * G) / A_LANES * A_COLUMNS + (k) % A_COLUMNS], \
                                                         (group + (u) * G) % A_LANES * A_PARTS + (k) / A_COLUMNS))
// The invocation's B value at row k, its column t: shuffled from its column lane in the group that
// holds row k, at element (k / B_GROUPS) * NL + t, the same in every invocation; its own where every
// group holds all K rows.
#define SHUFFLED_B(k, t) (B_GROUPS == 1 ? b[(k) * NL + (t)] \
                                        : subgroupShuffle(b[((k) / B_GROUPS) * NL + (t)], column_lane + ((k) % B_GROUPS) * B_LANES))

// Sums in k order with fused multiply-adds: one rounding per step, as a hardware dot product would.
// Register-blocked over ROW_BLOCK rows: each B element is fetched once per block of rows and each
// A element once per row, so a SIMD-lane driver (lavapipe) keeps the block's accumulators, A values
// and one B value in registers instead of reloading spills for every product. The result replaces c
// (each element is read before it is written).
const uint ROW_BLOCK = 4;

void coopmat_muladd_float(float a[LENGTH_A], float b[LENGTH_B], inout float c[LENGTH_C], uint group, uint k_first) {
    [[unroll]] for (uint u0 = 0; u0 < ROWS; u0 += ROW_BLOCK) {
        [[unroll]] for (uint step = 0; step < K_STEPS; ++step) {
            const uint k = k_first + step;
            float a_block[ROW_BLOCK];
            [[unroll]] for (uint i = 0; i < ROW_BLOCK; ++i) {
                a_block[i] = u0 + i < ROWS ? a[(group + (u0 + i) * G) * K + k] : 0.0;
            }
            [[unroll]] for (uint t = 0; t < NL; ++t) {
                const float b_element = b[k * NL + t];
                [[unroll]] for (uint i = 0; i < ROW_BLOCK; ++i) {
                    if (u0 + i < ROWS) c[(u0 + i) * NL + t] = fma(a_block[i], b_element, c[(u0 + i) * NL + t]);
                }
            }
        }
    }
}

// The same with a distributed A or a split B, their values shuffled in as each block of rows needs them.
void coopmat_muladd_float_distributed(float a[LENGTH_A], float b[LENGTH_B], inout float c[LENGTH_C], uint group, uint k_first,
                                      uint column_lane) {
    [[unroll]] for (uint u0 = 0; u0 < ROWS; u0 += ROW_BLOCK) {
        [[unroll]] for (uint step = 0; step < K_STEPS; ++step) {
            const uint k = k_first + step;
            float a_block[ROW_BLOCK];
            [[unroll]] for (uint i = 0; i < ROW_BLOCK; ++i) {
                a_block[i] = 0.0;
                if (u0 + i < ROWS) a_block[i] = SHUFFLED_A(u0 + i, k);
            }
            [[unroll]] for (uint t = 0; t < NL; ++t) {
                const float b_element = SHUFFLED_B(k, t);
                [[unroll]] for (uint i = 0; i < ROW_BLOCK; ++i) {
                    if (u0 + i < ROWS) c[(u0 + i) * NL + t] = fma(a_block[i], b_element, c[(u0 + i) * NL + t]);
                }
            }
        }
    }
}

// Products and their sum wrap at 32 bits (the spec leaves overflow of A x B undefined when
// saturating); adding C saturates with the result's signedness when asked to.
int saturating_add(int x, int y) {
    const int sum = x + y;
    if (RESULT_SIGNED) {
        const bool overflow = ((x ^ sum) & (y ^ sum)) < 0;
        return overflow ? (x < 0 ? int(0x80000000u) : 0x7fffffff) : sum;
    }
    return uint(sum) < uint(y) ? -1 : sum;
}

void coopmat_muladd_int(int a[LENGTH_A], int b[LENGTH_B], inout int c[LENGTH_C], uint group) {
    [[unroll]] for (uint u = 0; u < ROWS; ++u) {
        const uint row = group + u * G;
        [[unroll]] for (uint t = 0; t < NL; ++t) {
            int products = 0;
            [[unroll]] for (uint k = 0; k < K; ++k) products += a[row * K + k] * b[k * NL + t];
            const int accumulator = c[u * NL + t];
            c[u * NL + t] = SATURATING ? saturating_add(products, accumulator) : products + accumulator;
        }
    }
}

void coopmat_muladd_int_distributed(int a[LENGTH_A], int b[LENGTH_B], inout int c[LENGTH_C], uint group, uint column_lane) {
    [[unroll]] for (uint u = 0; u < ROWS; ++u) {
        int products[NL];
        [[unroll]] for (uint t = 0; t < NL; ++t) products[t] = 0;
        [[unroll]] for (uint k = 0; k < K; ++k) {
            const int a_element = SHUFFLED_A(u, k);
            [[unroll]] for (uint t = 0; t < NL; ++t) products[t] += a_element * SHUFFLED_B(k, t);
        }
        [[unroll]] for (uint t = 0; t < NL; ++t) {
            const int accumulator = c[u * NL + t];
            c[u * NL + t] = SATURATING ? saturating_add(products[t], accumulator) : products[t] + accumulator;
        }
    }
}

// Calls keep the kernels alive through the optimizer's dead-function elimination; never run.
void main() {
    float fa[LENGTH_A], fb[LENGTH_B], fc[LENGTH_C];
    coopmat_muladd_float(fa, fb, fc, 0, 0);
    int ia[LENGTH_A], ib[LENGTH_B], ic[LENGTH_C];
    coopmat_muladd_int(ia, ib, ic, 0);
    coopmat_muladd_float_distributed(fa, fb, fc, 0, 0, 0);
    coopmat_muladd_int_distributed(ia, ib, ic, 0, 0);
}
