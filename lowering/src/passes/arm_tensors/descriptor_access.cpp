#include "passes/arm_tensors/descriptor_access.h"

#include <array>
#include <spirv/unified1/spirv.hpp>

#include "ir/decorations.h"
#include "vkpolyfill/lowering/arm_tensors.h"

namespace vkpolyfill::lowering::arm_tensors {

void DescriptorAccess::begin_function(ir::Function& function) {
    function_ = &function;
    prologue_ = {};
    entry_indexes_.clear();
    entry_words_.clear();
}

void DescriptorAccess::end_function() {
    if (function_ && !prologue_.instructions.empty()) {
        ir::InstructionList& entry = function_->blocks.front().instructions;
        size_t at = 1;  // after the OpLabel and the function's variables, which must come first
        while (at < entry.size() && entry[at]->opcode() == spv::OpVariable) ++at;
        entry.insert(entry.begin() + static_cast<ptrdiff_t>(at), std::make_move_iterator(prologue_.instructions.begin()),
                     std::make_move_iterator(prologue_.instructions.end()));
    }
    function_ = nullptr;
    prologue_ = {};
}

bool DescriptorAccess::known_on_entry(const TensorRef& ref) const {
    const ir::Instruction* element = context_.module.find_definition(ref.element);
    if (!element || !function_) return false;
    if (element->opcode() == spv::OpConstant) return true;
    for (const auto& parameter : function_->header) {
        if (parameter.get() == element) return true;
    }
    return false;
}

DescriptorAccess::Indexes DescriptorAccess::indexes(ir::Builder& b, const TensorRef& ref) {
    ir::TypeManager& types = context_.types;
    const ir::Instruction* element = context_.module.find_definition(ref.element);
    if (element && element->opcode() == spv::OpConstant) {
        const uint32_t i = element->word(3);
        return {types.get_constant_uint32(tensor_data_element(i)), types.get_constant_uint32(tensor_shape_element(i))};
    }
    dynamic_ = true;
    non_uniform_ |= ref.non_uniform;
    if (!known_on_entry(ref)) return compute_indexes(b, ref);
    const auto known = entry_indexes_.find(ref.element);
    if (known != entry_indexes_.end()) return known->second;
    ir::Builder top(context_.module, prologue_, prologue_.instructions.size());
    return entry_indexes_[ref.element] = compute_indexes(top, ref);
}

DescriptorAccess::Indexes DescriptorAccess::compute_indexes(ir::Builder& b, const TensorRef& ref) {
    ir::TypeManager& types = context_.types;
    const uint32_t u = types.get_type_int(32, false);
    const uint32_t data = b.add(spv::OpIMul, u, {ref.element, types.get_constant_uint32(2)});
    const uint32_t shape = b.add(spv::OpIAdd, u, {data, types.get_constant_uint32(1)});
    if (ref.non_uniform) {
        decorate_non_uniform(data);
        decorate_non_uniform(shape);
    }
    return {data, shape};
}

uint32_t DescriptorAccess::load_shape_word(ir::Builder& b, const TensorRef& ref, uint32_t shape_index, uint32_t word) {
    if (!known_on_entry(ref)) return emit_shape_load(b, ref, shape_index, word);
    uint32_t& value = entry_words_[{ref.binding->shape_variable, shape_index, word}];
    if (value == 0) {
        ir::Builder top(context_.module, prologue_, prologue_.instructions.size());
        value = emit_shape_load(top, ref, shape_index, word);
    }
    return value;
}

uint32_t DescriptorAccess::emit_shape_load(ir::Builder& b, const TensorRef& ref, uint32_t shape_index, uint32_t word) {
    ir::TypeManager& types = context_.types;
    const uint32_t u = types.get_type_int(32, false);
    const uint32_t pointer = b.add(spv::OpAccessChain, types.get_type_pointer(spv::StorageClassStorageBuffer, u),
                                   {ref.binding->shape_variable, shape_index, types.get_constant_uint32(0),
                                    types.get_constant_uint32(word)});
    const uint32_t value = b.add(spv::OpLoad, u, {pointer});
    if (ref.non_uniform) {
        decorate_non_uniform(pointer);
        decorate_non_uniform(value);
    }
    return value;
}

uint32_t DescriptorAccess::data_pointer(ir::Builder& b, const TensorBinding& binding, uint32_t data_index, uint32_t offset,
                                        bool non_uniform) {
    ir::TypeManager& types = context_.types;
    const uint32_t pointer_type = types.get_type_pointer(spv::StorageClassStorageBuffer, binding.storage.stored_type);
    const uint32_t pointer =
        b.add(spv::OpAccessChain, pointer_type, {binding.data_variable, data_index, types.get_constant_uint32(0), offset});
    if (non_uniform) decorate_non_uniform(pointer);
    return pointer;
}

void DescriptorAccess::decorate_non_uniform(uint32_t id) { ir::decorate(context_.module, id, spv::DecorationNonUniform); }

}  // namespace vkpolyfill::lowering::arm_tensors
