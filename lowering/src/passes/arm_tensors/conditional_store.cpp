#include "passes/arm_tensors/conditional_store.h"

#include <spirv/unified1/spirv.hpp>

#include "ir/function_builder.h"

namespace vkpolyfill::lowering::arm_tensors {

uint32_t ConditionalStores::function(const TensorBinding& binding, uint32_t data_index, bool non_uniform,
                                     const std::vector<uint32_t>& memory_operands) {
    const ir::Instruction* index = context_.module.find_definition(data_index);
    const uint32_t constant_index = index && index->opcode() == spv::OpConstant ? data_index : 0;
    std::vector<uint32_t> key{binding.data_variable, constant_index, non_uniform ? 1u : 0u};
    key.insert(key.end(), memory_operands.begin(), memory_operands.end());
    uint32_t& function = functions_[key];
    if (function == 0) function = make(binding, constant_index, non_uniform, memory_operands);
    return function;
}

uint32_t ConditionalStores::make(const TensorBinding& binding, uint32_t constant_index, bool non_uniform,
                                 const std::vector<uint32_t>& memory_operands) {
    ir::TypeManager& types = context_.types;
    const uint32_t u = types.get_type_int(32, false);
    // The element travels as itself and is converted here: an 8-bit argument would need Int8.
    const uint32_t parameters[] = {u, u, types.get_type_bool(), binding.storage.element_type};
    ir::FunctionBuilder f(context_.module, types, types.get_type_void(), parameters);
    f.begin_if(f.parameter(2));
    const uint32_t index = constant_index ? constant_index : f.parameter(0);
    const uint32_t pointer = access_.data_pointer(f.body(), binding, index, f.parameter(1), non_uniform);
    const uint32_t stored = stored_from_element(f.body(), types, binding.storage, f.parameter(3));
    std::vector<uint32_t> store{pointer, stored};
    store.insert(store.end(), memory_operands.begin(), memory_operands.end());
    f.body().add(spv::OpStore, 0, store);
    f.end_if();
    const uint32_t id = f.id();
    f.finish(0);
    return id;
}

}  // namespace vkpolyfill::lowering::arm_tensors
