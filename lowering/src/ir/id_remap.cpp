#include "ir/id_remap.h"

#include <algorithm>
#include <spirv/unified1/spirv.hpp>
#include <vector>

namespace vkpolyfill::lowering::ir {

void remap_id_operands(Instruction& instruction, const IdMap& map, const OperandContext& context) {
    std::vector<Operand> operands;
    if (!walk_operands(instruction.words(), context, operands).empty()) return;  // parsed modules always walk
    for (const Operand& operand : operands) {
        if (!is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult) continue;
        if (const auto it = map.find(instruction.word(operand.first_word)); it != map.end()) {
            instruction.set_word(operand.first_word, it->second);
        }
    }
}

void remap_id_operands(Module& module, const IdMap& map) {
    if (map.empty()) return;
    // Walk with the module as it was; the ids only change afterwards, so operand sizes that depend on
    // a type (OpConstant literals) are read from the original definitions.
    std::vector<Instruction*> all;
    module.for_each_instruction([&](const Instruction& instruction) { all.push_back(const_cast<Instruction*>(&instruction)); });
    std::vector<std::vector<uint32_t>> rewritten;
    rewritten.reserve(all.size());
    for (Instruction* instruction : all) {
        Instruction copy = *instruction;
        remap_id_operands(copy, map, module);
        rewritten.emplace_back(copy.words().begin(), copy.words().end());
    }
    for (size_t i = 0; i < all.size(); ++i) {
        for (size_t w = 1; w < rewritten[i].size(); ++w) all[i]->set_word(w, rewritten[i][w]);
    }
}

void remove_names_and_decorations(Module& module, const std::unordered_set<uint32_t>& ids) {
    const auto targets_removed = [&](const std::unique_ptr<Instruction>& instruction) {
        switch (instruction->opcode()) {
            case spv::OpName:
            case spv::OpMemberName:
            case spv::OpDecorate:
            case spv::OpDecorateId:
            case spv::OpDecorateString:
            case spv::OpMemberDecorate:
            case spv::OpMemberDecorateString:
                return ids.contains(instruction->word(1));
            default:
                return false;
        }
    };
    std::erase_if(module.debug_names, targets_removed);
    std::erase_if(module.annotations, targets_removed);
}

void remove_global_definitions(Module& module, const std::unordered_set<uint32_t>& ids) {
    std::erase_if(module.types_values_constants, [&](const std::unique_ptr<Instruction>& i) { return ids.contains(i->result_id()); });
    for (const uint32_t id : ids) module.forget_definition(id);
    remove_names_and_decorations(module, ids);
}

}  // namespace vkpolyfill::lowering::ir
