// How a subgroup-scope cooperative matrix is spread over the S invocations of a subgroup.
//
//  - A (M x K), replicated (lavapipe's: S = 8, invocations are SIMD lanes): every invocation holds
//    the whole matrix, row-major: element e is (e / K, e % K). OpCooperativeMatrixMulAddKHR then needs
//    no data from other invocations and is plain per-lane code LLVM vectorizes, and A's loads are
//    uniform (one address for all lanes), which lavapipe turns into scalar loads.
//  - A, distributed (GPUs, whose invocations have about 255 32-bit registers: a whole 16x16 A spills
//    on every GPU compiler): its M rows are dealt to Lr = min(S, M) "row lanes", row lane rl holding
//    rows rl, rl + Lr, ... with all K columns (element e is (rl + (e / K) * Lr, e % K)); invocations
//    Lr apart hold the same rows. In the LaneLayout below the row lane plays the row group (G = Lr,
//    one column lane). The multiply-add shuffles each A value to the invocations whose accumulator
//    rows need it; the row an invocation needs of A at each step sits at the same element in every
//    row lane (multiply_add.cpp), so one shuffle serves the whole subgroup. Where a multiply-add
//    reads A from shared memory (split_a_columns), the S / Lr copies of the row lanes split the K
//    columns instead of repeating them: P = gcd(S / Lr, K) column lanes of K / P columns each,
//    invocation l holding row lane (l / P) % Lr's rows, columns (l % P) K / P on, so that each
//    invocation converts and stores its share of A, not its row lane's whole rows.
//  - B (K x N) and accumulators (M x N): the N columns are dealt to Lc = gcd(S, N) "column lanes"
//    (min(S, N) where one divides the other) in runs of NL = N / Lc neighbours; invocation l is column
//    lane cl = l % Lc and holds columns cl NL, cl NL + 1, ..., cl NL + NL - 1. When there are fewer
//    column lanes than invocations (Lc < S), the G = S / Lc
//    groups of invocations split an accumulator's rows (group g = l / Lc holds rows g, g + G, ...),
//    while every group holds all K rows of B, but in the distributed layout, where the groups split
//    B's K rows as they split an accumulator's (a 16x16 B over 32 lanes: 8 values an invocation, not
//    16) and the multiply-add shuffles in each B value from the group holding it: the element is
//    the same in every invocation, so one shuffle per K step and column serves the subgroup, where A
//    already takes one per K step and accumulator row. Element e is row (g + (e / NL) * G), column
//    (cl * NL + e % NL). Neighbouring columns, rather than columns Lc apart, so that an invocation's
//    16-bit B elements of a row come in pairs sharing a 32-bit word: one load for two where loads are
//    per-invocation gathers (lavapipe; memory_access.cpp).
//  - Workgroup accumulators in the GPU layout (square_blocks below): Lc may be fewer than gcd(S, N),
//    each column lane holding more neighbouring columns and G = S / Lc row groups fewer rows, so an
//    invocation's R x NL block is as square as the band allows: a streamed multiply-add reads R values
//    of A and NL of B (neighbours: one wide read) for its R * NL products at each K step. llama.cpp's
//    32x64 bands over 64 invocations: 4 x 8 blocks (12 values a step) instead of 32 x 1 (33).
//
// A's layout does not depend on the N it will be multiplied with, which the type does not know.
// The price is that with S > N an invocation picks its A rows by group at run time.
#pragma once

#include <cstdint>
#include <optional>

namespace vkpolyfill::lowering::cooperative_matrix {

enum class Use : uint32_t { A = 0, B = 1, Accumulator = 2 };

struct LaneLayout {
    uint32_t length;            // components each invocation holds (OpCooperativeMatrixLengthKHR)
    uint32_t column_lanes;      // Lc: 1 for A
    uint32_t row_groups;        // G: how many groups split the rows (1 for B and a replicated A; Lr
                                // for a distributed A). Invocation l is in group (l / Lc) % G.
    uint32_t columns_per_lane;  // NL (all columns for A)
    uint32_t rows_per_lane;     // rows each invocation holds

    // The matrix row and column of element `e` for column lane `cl` and row group `g`.
    uint32_t row(uint32_t e, uint32_t g) const { return g + (e / columns_per_lane) * row_groups; }
    uint32_t column(uint32_t e, uint32_t cl) const { return cl * columns_per_lane + e % columns_per_lane; }
    // How many invocations hold different elements; the others repeat them (writers()
    // apart: of the same element, the invocation l % writers() holds it too).
    uint32_t writers() const { return column_lanes * row_groups; }
};

// nullopt when the shape cannot be spread evenly over `subgroup_size` invocations. With
// `distributed_matrices`, an A takes the distributed layout where its rows spread evenly over the row lanes,
// else the replicated one (its columns split over the row lanes' copies with `split_a_columns`), and a B
// has its K rows split over the row groups. With `square_blocks`, an accumulator takes fewer column lanes than gcd(S, N)
// where that makes each invocation's block of rows x columns squarer (workgroup accumulators in the
// GPU layout, whose multiply-adds stream A and B from shared memory: matrix_types.cpp).
std::optional<LaneLayout> lane_layout(uint32_t rows, uint32_t columns, Use use, uint32_t subgroup_size,
                                      bool distributed_matrices = false, bool square_blocks = false,
                                      bool split_a_columns = false);

}  // namespace vkpolyfill::lowering::cooperative_matrix
