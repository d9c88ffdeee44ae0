#include "ir/type_dedup.h"

#include <map>
#include <spirv/unified1/spirv.hpp>
#include <unordered_set>
#include <vector>

#include "ir/id_remap.h"
#include "ir/operand_walker.h"

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
    std::vector<Operand> operands;
    for (;;) {  // merging can make types built from the merged ones equal in turn
        std::map<std::vector<uint32_t>, uint32_t> first;
        IdMap duplicates;
        for (const auto& instruction : module.types_values_constants) {
            if (!must_be_unique(*instruction)) continue;
            // Its words without the result id, naming the types merged so far by what they merge into:
            // types built on duplicates merge in the same round (two chains of function types, each
            // taking the one before, took a round and a whole-module remap per level).
            std::vector<uint32_t> key(instruction->words().begin(), instruction->words().end());
            operands.clear();
            if (walk_operands(instruction->words(), module, operands).empty()) {
                for (const Operand& operand : operands) {
                    if (!is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult) continue;
                    if (const auto merged = duplicates.find(key[operand.first_word]); merged != duplicates.end()) {
                        key[operand.first_word] = merged->second;
                    }
                }
            }
            key[1] = 0;
            const auto [it, inserted] = first.try_emplace(std::move(key), instruction->result_id());
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
