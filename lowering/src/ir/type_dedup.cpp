#include "ir/type_dedup.h"

#include <map>
#include <spirv/unified1/spirv.hpp>
#include <unordered_set>
#include <vector>

#include "ir/id_remap.h"

namespace vkpolyfill::lowering::ir {
namespace {

bool must_be_unique(const Instruction& instruction) {
    if (instruction.info().instruction_class != grammar::InstructionClass::TypeDeclaration || !instruction.result_id()) {
        return false;
    }
    switch (instruction.opcode()) {
        case spv::OpTypeArray:
        case spv::OpTypeRuntimeArray:
        case spv::OpTypeStruct:
        case spv::OpTypePointer:
        case spv::OpTypeUntypedPointerKHR:
            return false;
        default:
            return true;
    }
}

}  // namespace

void merge_duplicate_types(Module& module) {
    for (;;) {  // merging can make types built from the merged ones equal in turn
        std::map<std::vector<uint32_t>, uint32_t> first;
        IdMap duplicates;
        for (const auto& instruction : module.types_values_constants) {
            if (!must_be_unique(*instruction)) continue;
            std::vector<uint32_t> key{instruction->opcode()};
            key.insert(key.end(), instruction->operand_words().begin(), instruction->operand_words().end());
            const auto [it, inserted] = first.try_emplace(key, instruction->result_id());
            if (!inserted) duplicates[instruction->result_id()] = it->second;
        }
        if (duplicates.empty()) return;
        std::unordered_set<uint32_t> removed;
        for (const auto& [id, kept] : duplicates) removed.insert(id);
        remap_id_operands(module, duplicates);
        remove_global_definitions(module, removed);
    }
}

}  // namespace vkpolyfill::lowering::ir
