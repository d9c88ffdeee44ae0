#include "passes/common/constant_branches.h"

#include <optional>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <vector>

#include "specialization.h"

namespace vkpolyfill::lowering {
namespace {

// Where the terminator `branch` can go: every target, or only the one a constant condition or
// selector picks.
std::vector<uint32_t> successors(const ir::Module& module, const ir::Instruction& branch,
                                 std::span<const SpecializationValue> specialization) {
    const std::span<const uint32_t> operands = branch.operand_words();
    switch (branch.opcode()) {
        case spv::OpBranch:
            return {operands[0]};
        case spv::OpBranchConditional:
            if (const std::optional<uint64_t> condition = evaluate_constant(module, operands[0], specialization)) {
                return {*condition ? operands[1] : operands[2]};
            }
            return {operands[1], operands[2]};
        case spv::OpSwitch: {
            // Selector, Default, then (literal, label) pairs; a literal as wide as the selector.
            const ir::Instruction* type = module.find_definition(module.type_of(operands[0]));
            const size_t literal_words = type && type->opcode() == spv::OpTypeInt && type->word(2) > 32 ? 2 : 1;
            const std::optional<uint64_t> selector = evaluate_constant(module, operands[0], specialization);
            std::vector<uint32_t> targets{operands[1]};
            for (size_t i = 2; i + literal_words < operands.size(); i += literal_words + 1) {
                uint64_t literal = operands[i];
                if (literal_words == 2) literal |= uint64_t{operands[i + 1]} << 32;
                const uint32_t label = operands[i + literal_words];
                if (selector && literal == *selector) return {label};
                targets.push_back(label);
            }
            if (selector) return {operands[1]};
            return targets;
        }
        default:  // returns, kills, OpUnreachable
            return {};
    }
}

}  // namespace

std::unordered_set<uint32_t> blocks_reached(const ir::Module& module, const ir::Function& function,
                                            std::span<const SpecializationValue> specialization) {
    std::unordered_map<uint32_t, const ir::BasicBlock*> blocks;
    for (const ir::BasicBlock& block : function.blocks) blocks.emplace(block.label_id(), &block);
    std::unordered_set<uint32_t> reached;
    if (function.blocks.empty()) return reached;
    std::vector<uint32_t> pending{function.blocks.front().label_id()};
    while (!pending.empty()) {
        const uint32_t label = pending.back();
        pending.pop_back();
        const auto block = blocks.find(label);
        if (block == blocks.end() || !reached.insert(label).second) continue;
        for (uint32_t next : successors(module, *block->second->instructions.back(), specialization)) pending.push_back(next);
    }
    return reached;
}

}  // namespace vkpolyfill::lowering
