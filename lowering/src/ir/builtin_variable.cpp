#include "ir/builtin_variable.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace vkpolyfill::lowering::ir {
void add_to_entry_point_interfaces(Module& module, uint32_t variable) {
    for (auto& entry_point : module.entry_points) {
        std::vector<uint32_t> words(entry_point->words().begin() + 1, entry_point->words().end());
        words.push_back(variable);
        entry_point = make_instruction(spv::OpEntryPoint, words);
    }
}

void remove_from_entry_point_interfaces(Module& module, const std::unordered_set<uint32_t>& variables) {
    for (auto& entry_point : module.entry_points) {
        const std::span<const uint32_t> words = entry_point->words();
        const size_t name_end = entry_point_interface_start(words);
        std::vector<uint32_t> operands(words.begin() + 1, words.begin() + static_cast<ptrdiff_t>(name_end));
        std::copy_if(words.begin() + static_cast<ptrdiff_t>(name_end), words.end(), std::back_inserter(operands),
                     [&](uint32_t id) { return !variables.contains(id); });
        if (operands.size() + 1 != words.size()) entry_point = make_instruction(spv::OpEntryPoint, operands);
    }
}

uint32_t get_builtin_input(Module& module, TypeManager& types, spv::BuiltIn builtin, uint32_t value_type) {
    for (const auto& annotation : module.annotations) {
        if (annotation->opcode() != spv::OpDecorate || annotation->word(2) != spv::DecorationBuiltIn ||
            annotation->word(3) != static_cast<uint32_t>(builtin)) {
            continue;
        }
        const Instruction* variable = module.find_definition(annotation->word(1));
        if (variable && variable->opcode() == spv::OpVariable && variable->operand_words()[0] == spv::StorageClassInput) {
            return variable->result_id();
        }
    }
    const uint32_t pointer = types.get_type_pointer(spv::StorageClassInput, value_type);
    const uint32_t variable = module.take_next_id();
    const uint32_t words[] = {pointer, variable, spv::StorageClassInput};
    module.types_values_constants.push_back(make_instruction(spv::OpVariable, words));
    module.register_definition(*module.types_values_constants.back());
    const uint32_t decoration[] = {variable, spv::DecorationBuiltIn, static_cast<uint32_t>(builtin)};
    module.annotations.push_back(make_instruction(spv::OpDecorate, decoration));
    add_to_entry_point_interfaces(module, variable);
    return variable;
}

}  // namespace vkpolyfill::lowering::ir
