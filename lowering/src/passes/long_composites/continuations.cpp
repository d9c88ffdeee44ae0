#include "passes/long_composites/continuations.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>

#include "grammar/grammar.h"
#include "ir/instruction_text.h"
#include "passes/long_composites/instructions.h"

namespace vkpolyfill::lowering::long_composites {
namespace {

// The opcode a continuation continues, 0 for any other instruction.
uint32_t head_of(uint32_t opcode) {
    switch (opcode) {
        case spv::OpTypeStructContinuedINTEL: return spv::OpTypeStruct;
        case spv::OpConstantCompositeContinuedINTEL: return spv::OpConstantComposite;
        case spv::OpSpecConstantCompositeContinuedINTEL: return spv::OpSpecConstantComposite;
        case spv::OpCompositeConstructContinuedINTEL: return spv::OpCompositeConstruct;
        default: return 0;
    }
}

class Merger {
  public:
    Merger(ir::Module& module, ir::TypeManager& types, Diagnostics& diagnostics, std::vector<uint32_t>& merged_composites)
        : module_(module), types_(types), diagnostics_(diagnostics), merged_composites_(merged_composites) {}

    // One section or block: a continuation's head is the instruction before it in the same list (the
    // parser keeps each list in module order), since a continuation has no id naming what it continues.
    // Continuations are folded in place, so a section of 100,000 constants is not copied.
    bool merge(ir::InstructionList& list) {
        size_t kept = 0;
        uint32_t previous = 0;  // opcode of the instruction before, in the module
        for (auto& instruction : list) {
            const uint32_t opcode = instruction->opcode();
            const uint32_t head = head_of(opcode);
            if (head == 0) {
                if (kept > 0) fold_tail(list[kept - 1]);
                list[kept++] = std::move(instruction);
            } else if (previous == head || previous == opcode) {
                const auto operands = instruction->words().subspan(1);
                // Every operand is an id; folded into the head, the head's own would be used where
                // it is defined.
                if (const uint32_t own = list[kept - 1]->result_id(); std::ranges::find(operands, own) != operands.end()) {
                    report_self_reference(*instruction, own);
                    return false;
                }
                tail_.insert(tail_.end(), operands.begin(), operands.end());
            } else {
                report_misplaced(*instruction, head, previous);
                return false;
            }
            previous = opcode;
        }
        if (kept > 0) fold_tail(list[kept - 1]);
        list.resize(kept);
        return true;
    }

  private:
    // Rebuilds `head` with the operands its continuations carried.
    void fold_tail(std::unique_ptr<ir::Instruction>& head) {
        if (tail_.empty()) return;
        std::vector<uint32_t> operands;
        operands.reserve(head->words().size() - 1 + tail_.size());
        operands.assign(head->words().begin() + 1, head->words().end());
        operands.insert(operands.end(), tail_.begin(), tail_.end());
        tail_.clear();
        types_.forget(*head);  // it was indexed by its first part alone
        head = make_long_instruction(head->opcode(), operands, head->source_offset());
        module_.register_definition(*head);
        if (head->opcode() != spv::OpTypeStruct) merged_composites_.push_back(head->result_id());
    }

    void report_misplaced(const ir::Instruction& instruction, uint32_t head, uint32_t previous) {
        const std::string where =
            previous == 0 ? "here it opens its section" : std::format("here it follows {}", grammar::opcode_name(previous));
        diagnostics_.error(std::format("{0} must directly follow the {1} it continues (or another {0}); {2}",
                                       instruction.name(), grammar::opcode_name(head), where),
                           instruction.source_offset(), ir::short_instruction_text(instruction.words(), module_));
    }

    void report_self_reference(const ir::Instruction& instruction, uint32_t head) {
        diagnostics_.error(std::format("{} names %{}, the result of the instruction it continues: a struct or composite "
                                       "cannot contain itself",
                                       instruction.name(), head),
                           instruction.source_offset(), ir::short_instruction_text(instruction.words(), module_));
    }

    ir::Module& module_;
    ir::TypeManager& types_;
    Diagnostics& diagnostics_;
    std::vector<uint32_t>& merged_composites_;
    std::vector<uint32_t> tail_;  // operands of the continuations after the last kept instruction
};

}  // namespace

bool merge_continuations(ir::Module& module, ir::TypeManager& types, Diagnostics& diagnostics,
                         std::vector<uint32_t>& merged_composites) {
    Merger merger(module, types, diagnostics, merged_composites);
    if (!merger.merge(module.types_values_constants)) return false;
    for (const auto& function : module.functions) {
        for (ir::BasicBlock& block : function->blocks) {
            if (!merger.merge(block.instructions)) return false;
        }
    }
    return true;
}

}  // namespace vkpolyfill::lowering::long_composites
