#include "passes/cooperative_matrix/carried_matrices.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/id_remap.h"
#include "ir/operand_walker.h"

namespace vkpolyfill::lowering::cooperative_matrix {

namespace {

using Incoming = std::vector<std::pair<uint32_t, uint32_t>>;  // (value, parent block) of an OpPhi

Incoming incoming(const ir::Instruction& phi) {
    Incoming pairs;
    const auto operands = phi.operand_words();
    for (size_t i = 0; i + 1 < operands.size(); i += 2) pairs.emplace_back(operands[i], operands[i + 1]);
    return pairs;
}

// How many times each id is an operand in `function`.
std::unordered_map<uint32_t, uint32_t> count_uses(const ir::Module& module, const ir::Function& function) {
    std::unordered_map<uint32_t, uint32_t> uses;
    std::vector<ir::Operand> operands;
    function.for_each_instruction([&](const ir::Instruction& instruction) {
        operands.clear();
        ir::walk_operands(instruction.words(), module, operands);
        for (const ir::Operand& operand : operands) {
            if (ir::is_id(operand.kind) && operand.kind != grammar::OperandKind::IdResult &&
                operand.kind != grammar::OperandKind::IdResultType) {
                ++uses[instruction.word(operand.first_word)];
            }
        }
    });
    return uses;
}

// Where the block's phis end (OpLine and OpNoLine may sit among them).
size_t after_phis(const ir::BasicBlock& block) {
    size_t end = 1;  // after the OpLabel
    for (size_t i = 1; i < block.instructions.size(); ++i) {
        if (block.instructions[i]->opcode() == spv::OpPhi) end = i + 1;
    }
    return end;
}

// Where an instruction goes last in `block`: before its terminator and the merge instruction that
// precedes it.
size_t end_of(const ir::BasicBlock& block) {
    size_t at = block.instructions.size() - 1;
    const uint32_t before = block.instructions[at - 1]->opcode();
    if (before == spv::OpSelectionMerge || before == spv::OpLoopMerge) --at;
    return at;
}

}  // namespace

void carry_matrices_in_variables(LoweringState& state, ir::Function& function) {
    ir::Module& module = state.module();
    std::unordered_map<uint32_t, ir::BasicBlock*> blocks;
    for (ir::BasicBlock& block : function.blocks) blocks[block.label_id()] = &block;
    const auto uses = count_uses(module, function);
    std::unordered_set<uint32_t> removed;
    for (ir::BasicBlock& header : function.blocks) {
        const ir::Instruction& merge = *header.instructions[end_of(header)];
        if (merge.opcode() != spv::OpLoopMerge) continue;
        const uint32_t continue_label = merge.word(2);
        ir::BasicBlock* continue_target = blocks.count(continue_label) ? blocks[continue_label] : nullptr;
        if (!continue_target || continue_target == &header) continue;
        // Header phi -> (its phi in the continue target, the values arriving from outside the loop).
        for (size_t i = 1; i < after_phis(header);) {
            const ir::Instruction& phi = *header.instructions[i];
            if (phi.opcode() != spv::OpPhi) {
                ++i;
                continue;
            }
            const Incoming arriving = incoming(phi);
            const auto back = std::ranges::find(arriving, continue_label, &std::pair<uint32_t, uint32_t>::second);
            const ir::Instruction* merged = back == arriving.end() ? nullptr : module.find_definition(back->first);
            const bool pair = state.matrices.find(phi.type_id()) && merged && merged->opcode() == spv::OpPhi &&
                              uses.at(merged->result_id()) == 1 &&
                              std::ranges::any_of(continue_target->instructions,
                                                  [&](const auto& in) { return in.get() == merged; });
            if (!pair) {
                ++i;
                continue;
            }
            const uint32_t type = phi.type_id(), carried = phi.result_id(), merged_id = merged->result_id();
            const uint32_t variable = ir::Builder(module, function.blocks.front(), 1)
                                          .add(spv::OpVariable, state.types().get_type_pointer(spv::StorageClassFunction, type),
                                               {spv::StorageClassFunction});
            Incoming stores = incoming(*merged);
            for (const auto& entry : arriving) {
                if (entry.second != continue_label) stores.push_back(entry);
            }
            for (const auto& [value, parent] : stores) {
                ir::BasicBlock& block = *blocks.at(parent);
                ir::Builder(module, block, end_of(block)).add(spv::OpStore, 0, {variable, value});
            }
            // The merged phi goes; the header's becomes a load after its phis, under the same id.
            std::erase_if(continue_target->instructions, [&](const auto& in) { return in->result_id() == merged_id; });
            module.forget_definition(merged_id);
            header.instructions.erase(header.instructions.begin() + static_cast<ptrdiff_t>(i));
            module.forget_definition(carried);
            ir::Builder(module, header, after_phis(header)).add(spv::OpLoad, type, {variable}, carried);
            removed.insert(merged_id);
        }
    }
    ir::remove_names_and_decorations(module, removed);
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
