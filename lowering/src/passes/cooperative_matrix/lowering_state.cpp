#include "passes/cooperative_matrix/lowering_state.h"

#include <spirv/unified1/spirv.hpp>

#include "ir/builtin_variable.h"

namespace vkpolyfill::lowering::cooperative_matrix {

uint32_t LoweringState::load_builtin(ir::Builder& builder, spv::BuiltIn builtin) {
    uint32_t& variable = builtins_[builtin];
    if (variable == 0) {
        variable = ir::get_builtin_input(module(), types(), builtin, uint_type());
        module().add_capability(spv::CapabilityGroupNonUniform);  // both subgroup built-ins need it
    }
    return builder.add(spv::OpLoad, uint_type(), {variable});
}

uint32_t LoweringState::find_function(const std::vector<uint32_t>& key) const {
    const auto it = functions_.find(key);
    return it != functions_.end() ? it->second : 0;
}

LanePosition lane_position(LoweringState& state, ir::Builder& builder, const LaneLayout& layout) {
    LanePosition position{state.uint_constant(0), state.uint_constant(0)};
    if (layout.column_lanes == 1 && layout.row_groups == 1) return position;
    const uint32_t lane = state.load_lane(builder);
    const uint32_t lanes = state.uint_constant(layout.column_lanes);
    if (layout.column_lanes > 1) position.column_lane = builder.add(spv::OpUMod, state.uint_type(), {lane, lanes});
    if (layout.row_groups > 1) position.row_group = builder.add(spv::OpUDiv, state.uint_type(), {lane, lanes});
    return position;
}

uint32_t element_row(LoweringState& state, ir::Builder& builder, const LaneLayout& layout, const LanePosition& lane,
                     uint32_t e) {
    const uint32_t fixed = state.uint_constant(layout.row(e, 0));
    if (layout.row_groups == 1) return fixed;
    return builder.add(spv::OpIAdd, state.uint_type(), {lane.row_group, fixed});
}

uint32_t element_column(LoweringState& state, ir::Builder& builder, const LaneLayout& layout, const LanePosition& lane,
                        uint32_t e) {
    const uint32_t fixed = state.uint_constant(layout.column(e, 0));
    if (layout.column_lanes == 1) return fixed;
    return builder.add(spv::OpIAdd, state.uint_type(), {lane.column_lane, fixed});
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
