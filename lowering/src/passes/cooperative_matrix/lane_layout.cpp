#include "passes/cooperative_matrix/lane_layout.h"

#include <algorithm>
#include <numeric>

namespace vkpolyfill::lowering::cooperative_matrix {

namespace {

// The accumulator layout with column lanes `lanes`; repeats elements where the rows do not split
// over all S / lanes groups.
LaneLayout accumulator_layout(uint32_t rows, uint32_t columns, uint32_t subgroup_size, uint32_t lanes) {
    const uint32_t groups = std::gcd(subgroup_size / lanes, rows);
    const uint32_t columns_per_lane = columns / lanes;
    const uint32_t rows_per_lane = rows / groups;
    return LaneLayout{rows_per_lane * columns_per_lane, lanes, groups, columns_per_lane, rows_per_lane};
}

}  // namespace

std::optional<LaneLayout> lane_layout(uint32_t rows, uint32_t columns, Use use, uint32_t subgroup_size, bool distributed_matrices,
                                      bool square_blocks, bool split_a_columns) {
    if (rows == 0 || columns == 0 || subgroup_size == 0) return std::nullopt;
    if (use == Use::A) {
        const uint32_t row_lanes = std::min(subgroup_size, rows);
        if (!distributed_matrices || rows % row_lanes != 0 || subgroup_size % row_lanes != 0) {
            return LaneLayout{rows * columns, 1, 1, columns, rows};
        }
        // With split_a_columns the subgroup's S / row_lanes copies of the row lanes split the K
        // columns between them (column lanes), as far as K divides.
        const uint32_t rows_per_lane = rows / row_lanes;
        const uint32_t parts = split_a_columns ? std::gcd(subgroup_size / row_lanes, columns) : 1;
        return LaneLayout{rows_per_lane * (columns / parts), parts, row_lanes, columns / parts, rows_per_lane};
    }
    // min(S, N) wherever one divides the other (subgroup sizes and most shapes are powers of two);
    // otherwise (80 columns over 32 lanes) fewer column lanes holding more columns each.
    const uint32_t lanes = std::gcd(subgroup_size, columns);
    if (use == Use::B) {
        // Distributed, B's K rows are split as an accumulator's rows are (the multiply-add shuffles
        // each value from the row group holding it); elsewhere every group holds all of them.
        if (distributed_matrices) return accumulator_layout(rows, columns, subgroup_size, lanes);
        return LaneLayout{rows * (columns / lanes), lanes, 1, columns / lanes, rows};
    }
    // The row groups split the rows evenly; where the subgroup has more groups of column lanes than
    // that allows (an 8x8 accumulator over 128 lanes: 16 groups of 8), the groups past it repeat the
    // first ones' elements, as invocations past a distributed A's row lanes do.
    LaneLayout best = accumulator_layout(rows, columns, subgroup_size, lanes);
    if (!square_blocks || best.writers() < subgroup_size) return best;
    // Fewer column lanes, each with more neighbouring columns, and more row groups: the block an
    // invocation holds is R x NL, and a streamed multiply-add reads R values of A and NL of B for its
    // R * NL products at each K step. The fewest reads, on a tie the wider block (B's neighbours are
    // one wide shared-memory read).
    for (uint32_t fewer = lanes / 2; fewer >= 1 && lanes % fewer == 0; fewer /= 2) {
        const LaneLayout candidate = accumulator_layout(rows, columns, subgroup_size, fewer);
        if (candidate.writers() < subgroup_size) break;
        if (candidate.rows_per_lane + candidate.columns_per_lane <= best.rows_per_lane + best.columns_per_lane) best = candidate;
    }
    return best;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
