#include "passes/common/selection_control.h"

#include <spirv/unified1/spirv.hpp>
#include <unordered_set>

namespace vkpolyfill::lowering {

void keep_entry_point_selections(ir::Module& module) {
    std::unordered_set<uint32_t> entry_functions;
    for (const auto& entry_point : module.entry_points) entry_functions.insert(entry_point->word(2));
    for (const auto& function : module.functions) {
        if (!entry_functions.contains(function->id())) continue;
        for (ir::BasicBlock& block : function->blocks) {
            for (const auto& instruction : block.instructions) {
                if (instruction->opcode() == spv::OpSelectionMerge && instruction->word(2) == spv::SelectionControlMaskNone) {
                    instruction->set_word(2, spv::SelectionControlDontFlattenMask);
                }
            }
        }
    }
}

}  // namespace vkpolyfill::lowering
