#include "passes/cooperative_matrix/lane_layout.h"

#include <algorithm>
#include <numeric>

namespace vkpolyfill::lowering::cooperative_matrix {

std::optional<LaneLayout> lane_layout(uint32_t rows, uint32_t columns, Use use, uint32_t subgroup_size, bool distributed_matrices) {
    if (rows == 0 || columns == 0 || subgroup_size == 0) return std::nullopt;
    if (use == Use::A) {
        const uint32_t row_lanes = std::min(subgroup_size, rows);
        if (!distributed_matrices || rows % row_lanes != 0 || subgroup_size % row_lanes != 0) {
            return LaneLayout{rows * columns, 1, 1, columns, rows};
        }
        const uint32_t rows_per_lane = rows / row_lanes;
        return LaneLayout{rows_per_lane * columns, 1, row_lanes, columns, rows_per_lane};
    }
    // min(S, N) wherever one divides the other (subgroup sizes and most shapes are powers of two);
    // otherwise (80 columns over 32 lanes) fewer column lanes holding more columns each.
    const uint32_t lanes = std::gcd(subgroup_size, columns);
    // The row groups split the rows evenly; where the subgroup has more groups of column lanes than
    // that allows (an 8x8 accumulator over 128 lanes: 16 groups of 8), the groups past it repeat the
    // first ones' elements, as invocations past a distributed A's row lanes do.
    const uint32_t groups = use == Use::Accumulator ? std::gcd(subgroup_size / lanes, rows) : 1;
    const uint32_t columns_per_lane = columns / lanes;
    const uint32_t rows_per_lane = rows / groups;
    return LaneLayout{rows_per_lane * columns_per_lane, lanes, groups, columns_per_lane, rows_per_lane};
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
