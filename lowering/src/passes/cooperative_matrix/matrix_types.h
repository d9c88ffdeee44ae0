// The module's cooperative-matrix types, each with its lane layout and the array type that replaces
// it: every component an invocation holds, in element order (lane_layout.h).
#pragma once

#include <cstdint>
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "passes/cooperative_matrix/lane_layout.h"
#include "passes/pass.h"

namespace vkpolyfill::lowering::cooperative_matrix {

struct ComponentInfo {
    uint32_t type;    // the scalar type id
    bool is_float;
    uint32_t width;   // bits
};

// How a workgroup-scope matrix (SPV_NV_cooperative_matrix2) is spread over the workgroup's
// invocations (subgroup id * subgroup size + lane):
//  - A and B are striped: row-major element f is held by invocation f % invocations, at index
//    f / invocations. Loads spread evenly; a multiply-add stages them through shared memory.
//  - Accumulators are tiled in bands, one per subgroup (band_rows x band_columns, bands_across
//    bands per row of bands), each band in the subgroup layout of lane_layout.h, so a multiply-add
//    is the subgroup one on each band once A's and B's matching parts are read from shared memory.
struct WorkgroupLayout {
    uint32_t invocations = 0;
    uint32_t band_rows = 0;  // accumulators only
    uint32_t band_columns = 0;
    uint32_t bands_across = 0;
};

struct MatrixType {
    uint32_t id;  // the OpTypeCooperativeMatrixKHR
    ComponentInfo component;
    uint32_t rows;
    uint32_t columns;
    Use use;
    bool workgroup = false;   // Scope Workgroup, else Subgroup
    LaneLayout layout;        // subgroup scope: the layout; workgroup accumulators: each band's
    WorkgroupLayout spread;   // workgroup scope only
    uint32_t length;          // components each invocation holds (OpCooperativeMatrixLengthKHR)
    uint32_t lowered;         // OpTypeArray of `length` components
};

class MatrixTypes {
  public:
    // Collects every OpTypeCooperativeMatrixKHR, freezing the constants that shape it to the
    // pipeline's values. Reports each type that cannot be lowered; returns whether all can.
    bool collect(PassContext& context);

    const MatrixType* find(uint32_t type_id) const;
    // The matrix type of value `id`, nullptr when its type is not a cooperative matrix.
    const MatrixType* of_value(const ir::Module& module, uint32_t id) const;
    const std::unordered_map<uint32_t, MatrixType>& all() const { return types_; }

  private:
    std::optional<MatrixType> workgroup_type(uint32_t rows, uint32_t columns, Use use, PassContext& context,
                                             const std::function<void(std::string)>& error);

    std::unordered_map<uint32_t, MatrixType> types_;
    std::optional<std::optional<std::array<uint32_t, 3>>> workgroup_size_;  // read on first use
};

std::optional<ComponentInfo> component_info(const ir::Module& module, uint32_t type_id);

// The bands of a workgroup accumulator: one per subgroup, each a valid subgroup layout, chosen to
// need the fewest reads from shared memory per multiply-add (band rows of A are uniform loads, band
// columns of B per-invocation ones: rows + columns / subgroup size). nullopt when none fits.
std::optional<WorkgroupLayout> accumulator_bands(uint32_t rows, uint32_t columns, uint32_t invocations, uint32_t subgroup_size);

}  // namespace vkpolyfill::lowering::cooperative_matrix
