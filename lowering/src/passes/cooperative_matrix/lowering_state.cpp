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

}  // namespace vkpolyfill::lowering::cooperative_matrix
