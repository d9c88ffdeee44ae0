// The module's cooperative-matrix types, each with its lane layout and the array type that replaces
// it: every component an invocation holds, in element order (lane_layout.h).
#pragma once

#include <cstdint>
#include <unordered_map>

#include "passes/cooperative_matrix/lane_layout.h"
#include "passes/pass.h"

namespace vkpolyfill::lowering::cooperative_matrix {

struct ComponentInfo {
    uint32_t type;    // the scalar type id
    bool is_float;
    uint32_t width;   // bits
};

struct MatrixType {
    uint32_t id;  // the OpTypeCooperativeMatrixKHR
    ComponentInfo component;
    uint32_t rows;
    uint32_t columns;
    Use use;
    LaneLayout layout;
    uint32_t lowered;  // OpTypeArray of layout.length components
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
    std::unordered_map<uint32_t, MatrixType> types_;
};

std::optional<ComponentInfo> component_info(const ir::Module& module, uint32_t type_id);

}  // namespace vkpolyfill::lowering::cooperative_matrix
