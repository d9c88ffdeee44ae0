#version 460
// One invocation's share of Result = A x B + C for the lane layout in
// lowering/src/passes/cooperative_matrix/lane_layout.h, computed in 32-bit types: the lowering widens
// narrower operands before the call and narrows the result after it. Instantiated per multiply-add
// shape: the lowering freezes the specialization constants, unrolls the loops and links the function
// into the module being lowered.
#extension GL_EXT_control_flow_attributes : require
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

// Sums in k order with fused multiply-adds: one rounding per step, as a hardware dot product would.
// Each A element is fetched once and used for all the invocation's columns in turn. The result
// replaces c (each element is read before it is written).
void coopmat_muladd_float(float a[LENGTH_A], float b[LENGTH_B], inout float c[LENGTH_C], uint group) {
    [[unroll]] for (uint u = 0; u < ROWS; ++u) {
        const uint row = group + u * G;
        [[unroll]] for (uint k = 0; k < K; ++k) {
            const float x = a[row * K + k];
            [[unroll]] for (uint t = 0; t < NL; ++t) c[u * NL + t] = fma(x, b[k * NL + t], c[u * NL + t]);
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

// Calls keep the kernels alive through the optimizer's dead-function elimination; never run.
void main() {
    float fa[LENGTH_A], fb[LENGTH_B], fc[LENGTH_C];
    coopmat_muladd_float(fa, fb, fc, 0);
    int ia[LENGTH_A], ib[LENGTH_B], ic[LENGTH_C];
    coopmat_muladd_int(ia, ib, ic, 0);
}
