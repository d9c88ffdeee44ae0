#include "passes/cooperative_matrix/lowering_state.h"

#include <spirv/unified1/spirv.hpp>

#include "ir/builtin_variable.h"
#include "ir/instruction.h"

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

uint32_t LoweringState::unit_matrix_type(uint32_t component_type, uint32_t rows, uint32_t columns, Use use) {
    uint32_t& type = unit_types_[{component_type, rows, columns, static_cast<uint32_t>(use)}];
    if (type == 0) {
        type = module().take_next_id();
        const uint32_t words[] = {type, component_type, uint_constant(spv::ScopeSubgroup), uint_constant(rows), uint_constant(columns),
                                  uint_constant(static_cast<uint32_t>(use))};
        module().types_values_constants.push_back(ir::make_instruction(spv::OpTypeCooperativeMatrixKHR, words));
        module().register_definition(*module().types_values_constants.back());
    }
    return type;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
